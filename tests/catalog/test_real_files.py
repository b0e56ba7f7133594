"""Public files as their tools write them (tests/data/real, each source named in SOURCE.md)."""

from __future__ import annotations

import json

import pytest

from tests.conftest import DATA

REAL = DATA / "real"
DOCKER = str(REAL / "docker_mcp_catalog.yaml")


def test_a_docker_mcp_catalog_keeps_arguments_servers_and_annotations(run):
    result = run("list", "-c", DOCKER, "--json")
    assert result.exit_code == 0
    tools = {t["name"]: t for t in json.loads(result.stdout)["tools"]}
    assert tools["delete_resource"]["server"] == "kubectl-mcp-server"
    assert tools["list_users"]["server"] == "okta"
    assert (tools["get_pods"]["safe"], tools["delete_resource"]["safe"]) == (True, False)
    shown = json.loads(run("show", "-c", DOCKER, "scale_deployment", "--json").stdout)
    assert shown["parameters"] == {
        "type": "object",
        "properties": {
            "name": {"type": "string", "description": "Name of the deployment"},
            "replicas": {"type": "integer", "description": "Number of replicas"},
            "labels": {"type": "array", "description": "Labels the deployment must have",
                       "items": {"type": "string"}}},
        "required": ["name", "replicas"]}
    assert "arguments" not in shown["extra"]


@pytest.mark.slow  # loads the embedding model (the default scorer)
def test_render_sends_a_docker_catalog_tools_arguments(run):
    result = run("render", "-c", DOCKER, "list the pods", "--provider", "openai")
    assert result.exit_code == 0
    sent = {t["function"]["name"]: t["function"]["parameters"]
            for t in json.loads(result.stdout)["tools"]}
    assert sent["get_pods"] == {"type": "object", "properties": {"namespace": {
        "type": "string", "description": "Kubernetes namespace"}}, "required": []}


def test_a_malformed_docker_argument_is_an_error_at_its_line(tmp_path, run):
    path = tmp_path / "catalog.yaml"
    path.write_text("registry:\n  k:\n    tools:\n      - name: t\n        arguments:\n"
                    "          - type: string\n")
    result = run("list", "-c", str(path))
    assert result.exit_code == 2
    assert result.stderr.startswith(f"toolcat: error: {path}:6:13")
    assert "each argument must be a mapping with a name" in result.stderr


def test_a_client_config_given_as_a_catalog_points_to_import_mcp(run):
    config = REAL / "vscode" / ".vscode" / "mcp.json"
    result = run("list", "-c", str(config))
    assert result.exit_code == 2
    assert result.stderr == (
        f"toolcat: error: {config}:1:1: an MCP client configuration (`servers`: 1 server), "
        f"not a tool catalog: import its servers' tools with `toolcat import mcp --config "
        f"{config}`\n")


def test_a_list_of_server_entries_is_not_read_as_tools(tmp_path, run):
    # a hand-written .cursor/mcp.json that lists servers instead of mapping them
    path = tmp_path / "mcp.json"
    path.write_text(json.dumps([
        {"name": "github", "command": "npx", "args": ["-y", "@modelcontextprotocol/server-github"]},
        {"name": "linear", "url": "https://mcp.linear.app/mcp"}]))
    result = run("list", "-c", str(path))
    assert result.exit_code == 2
    assert "a list of MCP server entries (command/url), not a tool catalog" in result.stderr
    assert "toolcat import mcp --config" in result.stderr


@pytest.mark.slow  # loads the embedding model (the default scorer)
def test_openapi_3_operations_are_read_as_tools(run):
    # the OpenAPI Initiative's petstore: one tool per operation, parameters by name, the JSON
    # body as `body` with the component schema it uses under $defs; safety by HTTP method
    petstore = str(REAL / "petstore.yaml")
    tools = {t["name"]: t for t in json.loads(run("list", "-c", petstore, "--json").stdout)
             ["tools"]}
    assert list(tools) == ["listPets", "createPets", "showPetById"]
    assert {t["server"] for t in tools.values()} == {"Swagger Petstore"}
    assert [tools[n]["safe"] for n in tools] == [True, False, True]
    shown = json.loads(run("show", "-c", petstore, "showPetById", "--json").stdout)
    assert shown["parameters"] == {"type": "object", "properties": {"petId": {
        "type": "string", "description": "The id of the pet to retrieve"}},
        "required": ["petId"]}
    assert shown["origin"]["pointer"] == "/paths/~1pets~1{petId}/get"
    created = json.loads(run("show", "-c", petstore, "createPets", "--json").stdout)
    assert created["parameters"]["properties"]["body"] == {"$ref": "#/$defs/Pet"}
    assert created["parameters"]["$defs"]["Pet"]["required"] == ["id", "name"]
    rendered = run("render", "-c", petstore, "list the pets", "--provider", "openai")
    assert rendered.exit_code == 0, rendered.stderr


def test_an_mcp_bundle_manifest_names_its_tools_server(run):
    # the manifest's `server` is how to start it ({type, entry_point, mcp_config}); its
    # `name` is the server's name, not the file's
    result = run("list", "-c", str(REAL / "mcpb_manifest.json"), "--json")
    assert result.exit_code == 0
    assert {t["server"] for t in json.loads(result.stdout)["tools"]} == {"filesystem"}
