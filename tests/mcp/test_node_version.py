"""A Node.js MCP server that crashes at start because it needs a newer Node.js: the import's
error says so, from the engines.node of the installed package (found by the script's path, in
node_modules of the working folder, or where the crash's stack trace points), or, from a
SyntaxError or TypeError of Node's own modules, that the version may be the cause. The
packages are tiny real ones written by the tests, started by the real node and npx."""

from __future__ import annotations

import shutil

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
