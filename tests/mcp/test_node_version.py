"""A Node.js MCP server that crashes at start because it needs a newer Node.js: the import's
error says so, from the engines.node of the installed package (found by the script's path, in
node_modules of the working folder, or where the crash's stack trace points), or, from a
SyntaxError or TypeError of Node's own modules, that the version may be the cause. The
packages are tiny real ones written by the tests, started by the real node and npx."""

from __future__ import annotations

import shutil
import socket

import pytest

from tests.mcp.conftest import CRASH, START_TIMEOUT, newer_than, package
from toolcat.mcp.node import node_hint
from toolcat.mcp.servers import ServerSpec

pytest.importorskip("mcp")
pytestmark = [
    pytest.mark.mcp,
    pytest.mark.skipif(shutil.which("node") is None or shutil.which("npx") is None,
                       reason="node (and npx) is not installed"),
]


def failure(run, *command: str) -> str:
    result = run("import", "mcp", "--timeout", START_TIMEOUT, "--", *command)
    assert result.exit_code == 2, result.stdout
    return result.stderr


def test_npx_package_in_the_working_folder_that_needs_a_newer_node_is_named(
        run, tmp_path, monkeypatch, running):
    needs = newer_than(running)
    package(tmp_path, "crash-on-old-node", CRASH, engines=needs)
    monkeypatch.chdir(tmp_path)
    said = failure(run, "npx", "--no-install", "crash-on-old-node")
    assert "exited with status 1 before it had listed its tools" in said
    assert "TypeError: Cannot read properties of undefined (reading 'bind')" in said
    assert (f"crash-on-old-node 1.0.0 needs Node {needs} (its package.json's engines.node), "
            f"this machine has {running}") in said


def test_a_refused_connection_seen_on_stderr_comes_before_the_node_version(
        run, tmp_path, monkeypatch, running):
    """@umbraco-cms/mcp-dev asks its service for a token before it lists tools and needs a
    newer Node: the connection refused is what its stderr shows, the Node version a guess,
    so the message says the first first."""
    needs = newer_than(running)
    with socket.socket() as closed:  # a port nothing listens on once it is closed
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    package(tmp_path, "cms-on-old-node", f"fetch('http://127.0.0.1:{port}/token').catch(e => "
            "{ console.error(e); process.exit(1) });\n", engines=needs)
    monkeypatch.chdir(tmp_path)
    said = failure(run, "npx", "--no-install", "cms-on-old-node")
    refused = said.index(f"'127.0.0.1:{port}' refused its connection")
    assert refused < said.index(f"cms-on-old-node 1.0.0 needs Node {needs}"), said


def test_a_dependency_that_needs_a_newer_node_is_named_with_the_package_it_serves(
        run, tmp_path, monkeypatch, running):
    """As undici asks for a newer Node than the server that bundles its fetch: the server's
    own engines.node is met, an installed dependency's (hoisted, or nested in the
    dependency's own node_modules, as npm installs them) is not."""
    needs = newer_than(running)
    package(tmp_path, "app-server", CRASH, engines=">=0.10",
            dependencies=("fetcher", "plain", "not-installed"))
    package(tmp_path, "plain", "", engines=">=0.10")
    package(tmp_path, "fetcher", "", engines=">=0.10", dependencies=("@web/undici-like",))
    package(tmp_path / "node_modules" / "fetcher", "@web/undici-like", "", engines=needs)
    monkeypatch.chdir(tmp_path)
    said = failure(run, "npx", "--no-install", "app-server")
    assert "TypeError: Cannot read properties of undefined (reading 'bind')" in said
    assert said.strip().endswith(
        f"; @web/undici-like 1.0.0, a dependency of app-server 1.0.0, needs Node {needs} "
        f"(its package.json's engines.node), this machine has {running}")
    # a second one is counted and named too
    package(tmp_path, "old-sdk", "", engines=needs)
    manifest = tmp_path / "node_modules" / "plain" / "package.json"
    manifest.write_text(manifest.read_text().replace('"bin"', '"dependencies": {"old-sdk": '
                                                    '"1"}, "bin"'))
    assert (f"{running}; so do 1 more of its dependencies: old-sdk 1.0.0"
            in failure(run, "npx", "--no-install", "app-server"))


def test_dependencies_whose_range_is_met_claim_nothing(run, tmp_path, monkeypatch):
    package(tmp_path, "app-server", CRASH, engines=None, dependencies=("fine", "../escape"))
    package(tmp_path, "fine", "", engines=">=0.10")
    (tmp_path / "escape").mkdir()  # not a package name: never looked for
    (tmp_path / "escape" / "package.json").write_text('{"engines": {"node": ">=999"}}')
    monkeypatch.chdir(tmp_path)
    said = failure(run, "npx", "--no-install", "app-server")
    assert "TypeError: Cannot read properties of undefined" in said
    assert "Node" not in said  # the package's own code failed: not Node's doing


# a server that bundles its dependencies (esbuild) into one file: no package.json of theirs,
# as @dynatrace-oss/dynatrace-mcp-server 2.1.2 bundles undici 8, which needs Node >=22.19.0
BUNDLED = """
// node_modules/fetchlib/lib/webidl.js
var { markAsSomethingNewer } = require("node:worker_threads");
var { inspect } = require("node:util");
var webidl = { util: { inspect: 1 } };
webidl.util.markAsSomethingNewer = markAsSomethingNewer;
class CacheStorage {
  constructor() {
    webidl.util.%s(this);
  }
}
new CacheStorage();
"""


def test_a_bundled_dependency_calling_what_this_node_lacks_is_named(run, tmp_path, running):
    script = package(tmp_path, "bundled-server", BUNDLED % "markAsSomethingNewer",
                     engines=None)
    said = failure(run, "node", str(script))
    assert "TypeError: webidl.util.markAsSomethingNewer is not a function" in said
    assert said.strip().endswith(
        "; it calls markAsSomethingNewer from node:worker_threads (in its bundled fetchlib), "
        f"which Node {running} does not have: it needs a newer Node.js")
    # inspect comes from node:util too, and this Node has it: not the Node version's doing
    other = package(tmp_path / "other", "bundled-server", BUNDLED % "inspect", engines=None)
    said = failure(run, "node", str(other))
    assert "TypeError: webidl.util.inspect is not a function" in said
    assert "Node" not in said


def test_a_script_path_finds_its_package_and_a_met_range_claims_nothing(run, tmp_path,
                                                                        running):
    script = package(tmp_path, "old-enough", CRASH, engines=newer_than(running))
    assert f"needs Node {newer_than(running)}" in failure(run, "node", str(script))
    link = tmp_path / "node_modules" / ".bin" / "old-enough"  # the package's, not the folder's
    (tmp_path / "package.json").write_text('{"name": "app", "engines": {"node": ">=0.10"}}')
    assert f"old-enough 1.0.0 needs Node {newer_than(running)}" in failure(run, "node", str(link))
    met = package(tmp_path / "other", "met", CRASH, engines=">=0.10")
    said = failure(run, "node", str(met))
    assert "TypeError: Cannot read properties of undefined" in said
    assert "Node" not in said  # a TypeError in the package's own code: not Node's doing


def test_a_syntax_error_from_a_node_module_says_the_version_may_be_the_cause(run, tmp_path,
                                                                            running):
    # SmartBear's crash on Node 20, with an export no Node version has
    script = package(tmp_path, "esm-server",
                     "import { enableCompileCacheSomeday } from 'node:module';\n",
                     engines=None, file="index.mjs")
    said = failure(run, "node", str(script))
    assert "SyntaxError: The requested module 'node:module' does not provide an export" in said
    assert said.strip().endswith("; the Node.js version may be the cause (a SyntaxError or "
                                 f"TypeError from Node's own modules): this machine has Node "
                                 f"{running}")


def test_the_package_npx_ran_from_its_cache_is_found_where_its_stack_trace_points(
        tmp_path, running):
    """npx -y runs a package from its own cache (~/.npm/_npx/HASH/node_modules), named only
    by the stack trace of the crash."""
    needs = newer_than(running)
    script = package(tmp_path / "_npx" / "3f2e", "@acme/mcp", CRASH, engines=needs)
    stderr = (f"{script}:3\nutil.aNewerNodeApi.bind(util);\n                  ^\n\n"
              "TypeError: Cannot read properties of undefined (reading 'bind')\n"
              f"    at Object.<anonymous> ({script}:3:19)\n")
    spec = ServerSpec(transport="stdio", command="npx", args=("-y", "@acme/mcp@latest"),
                      cwd=str(tmp_path))
    assert node_hint(spec, stderr) == (
        f"; @acme/mcp 1.0.0 needs Node {needs} (its package.json's engines.node), "
        f"this machine has {running}")
    elsewhere = ServerSpec(transport="stdio", command="npx", args=("-y", "@acme/other"),
                           cwd=str(tmp_path))
    assert node_hint(elsewhere, stderr) == ""  # the trace names another package
    traversal = ServerSpec(transport="stdio", command="npx", args=("../../_npx/3f2e",),
                           cwd=str(tmp_path))
    assert node_hint(traversal, stderr) == ""  # not a package name: no path is read
