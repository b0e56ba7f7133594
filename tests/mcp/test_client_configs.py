"""Client configuration files as editors write them: Gemini CLI's settings.json, Claude Code's
`.mcp.json` variables, a Cursor file with no server layout."""

from __future__ import annotations

import json

from toolcat.mcp.servers import read_client_config


def test_gemini_cli_http_url_is_a_streamable_http_server(tmp_path):
    # ~/.gemini/settings.json: `httpUrl` is streamable HTTP (`url` is its SSE transport)
    settings = tmp_path / "settings.json"
    settings.write_text(json.dumps({"theme": "Default", "mcpServers": {
        "github": {"httpUrl": "https://api.githubcopilot.com/mcp/",
                   "headers": {"Authorization": "Bearer $GITHUB_PAT"}, "timeout": 5000}}}))
    [spec] = read_client_config(settings)
    assert (spec.transport, spec.url) == ("http", "https://api.githubcopilot.com/mcp/")


def test_claude_code_variables_with_defaults(tmp_path, monkeypatch):
    monkeypatch.setenv("API_BASE", "https://api.example.com")
    monkeypatch.delenv("MISSING_TOKEN", raising=False)
    config = tmp_path / ".mcp.json"
    config.write_text(json.dumps({"mcpServers": {"api": {
        "command": "npx", "args": ["-y", "api-server", "--base", "${API_BASE}",
                                   "--region", "${REGION:-eu}"],
        "env": {"TOKEN": "${MISSING_TOKEN}", "PICK": "${input:choice}"}}}}))
    [spec] = read_client_config(config)
    assert spec.args[-4:] == ("--base", "https://api.example.com", "--region", "eu")
    # unknown and unset stay as written: the server says what is missing, not toolcat
    assert dict(spec.env) == {"TOKEN": "${MISSING_TOKEN}", "PICK": "${input:choice}"}
    assert spec.launch()["args"][-3] == "${API_BASE}"


def test_workspace_folder_is_the_folder_holding_the_editor_folder(tmp_path):
    (tmp_path / ".cursor").mkdir()
    config = tmp_path / ".cursor" / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {"local": {
        "command": "${workspaceFolder}/bin/server", "args": ["${workspaceFolderBasename}"]}}}))
    [spec] = read_client_config(config)
    assert spec.command == f"{tmp_path.resolve()}/bin/server"
    assert spec.args == (tmp_path.resolve().name,)
