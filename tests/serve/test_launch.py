"""Launch settings recorded by `toolcat import mcp`, with their secrets put back at serve time
from the environment or from a client configuration, and kept out of messages."""

from __future__ import annotations

import pytest

from toolcat.mcp.servers import ServerSpec
from toolcat.model import Catalog, Server
from toolcat.serve.launch import LaunchError, Secrets, launch_spec

TOKEN = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"


def catalog(**mcp: object) -> Catalog:
    return Catalog(servers=(Server(name="gh", extra={"mcp": mcp}),))


def test_references_are_filled_from_the_environment_and_remembered_as_secrets():
    secrets = Secrets()
    spec = launch_spec(catalog(transport="stdio", command="github-mcp", args=["--org", "acme"],
                               env={"GITHUB_TOKEN": "${GH}", "LEVEL": "info"}),
                       "gh", environ={"GH": TOKEN}, secrets=secrets)
    assert (spec.command, spec.args) == ("github-mcp", ("--org", "acme"))
    assert spec.env == {"GITHUB_TOKEN": TOKEN, "LEVEL": "info"}
    assert secrets.scrub(f"server said: bad token {TOKEN}") == "server said: bad token <redacted>"


def test_a_redacted_variable_comes_from_the_environment_of_the_same_name():
    spec = launch_spec(catalog(command="github-mcp", env={"GITHUB_TOKEN": "<redacted>"}),
                       "gh", environ={"GITHUB_TOKEN": TOKEN})
    assert spec.env == {"GITHUB_TOKEN": TOKEN}
    with pytest.raises(LaunchError, match="GITHUB_TOKEN was redacted") as missing:
        launch_spec(catalog(command="github-mcp", env={"GITHUB_TOKEN": "<redacted>"}),
                    "gh", environ={})
    assert TOKEN not in str(missing.value)


def test_a_redacted_header_needs_the_client_configuration():
    recorded = catalog(transport="http", url="https://mcp.example/mcp",
                       headers={"Authorization": "<redacted>"})
    with pytest.raises(LaunchError, match="--servers"):
        launch_spec(recorded, "gh", environ={})
    given = ServerSpec("http", name="gh", url="https://mcp.example/mcp",
                       headers={"Authorization": f"Bearer {TOKEN}"})
    secrets = Secrets()
    spec = launch_spec(recorded, "gh", overrides={"gh": given}, environ={}, secrets=secrets)
    assert spec.headers == {"Authorization": f"Bearer {TOKEN}"}
    assert TOKEN not in secrets.scrub(f"401 for Bearer {TOKEN}")


def test_secrets_in_a_url_are_remembered():
    given = ServerSpec("http", name="gh", url=f"https://bot:hunter22@mcp.example/mcp?api_key={TOKEN}")
    secrets = Secrets()
    launch_spec(catalog(transport="http", url="https://mcp.example/mcp"), "gh",
                overrides={"gh": given}, environ={}, secrets=secrets)
    assert secrets.scrub(f"GET {given.url} failed") == \
        "GET https://bot:<redacted>@mcp.example/mcp?api_key=<redacted> failed"


def test_servers_without_launch_settings_and_missing_variables_say_so():
    with pytest.raises(LaunchError, match="no MCP server to call"):
        launch_spec(Catalog(servers=(Server(name="gh"),)), "gh", environ={})
    with pytest.raises(LaunchError, match="needs the environment variable GH"):
        launch_spec(catalog(command="x", args=["--token=${GH}"]), "gh", environ={})
    with pytest.raises(LaunchError, match="unknown transport 'sse'"):
        launch_spec(catalog(transport="sse", url="http://x"), "gh", environ={})
