"""Merging files and folders into one catalog; the identity of tools; where catalogs come from."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from toolcat.catalog.load import load_catalog
from toolcat.config import choose_catalogs, find_config
from toolcat.config.paths import demo_catalog
from toolcat.errors import CatalogError, ConfigError


def write(path: Path, data) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data))
    return path


def openai_tool(name: str) -> dict:
    return {"type": "function", "function": {"name": name, "description": f"Does {name}.",
                                             "parameters": {"type": "object"}}}


def test_a_folder_merges_its_files_and_each_file_names_its_server(tmp_path):
    write(tmp_path / "tools" / "slack.json", {"tools": [openai_tool("send_message")]})
    write(tmp_path / "tools" / "github.json", {"tools": [openai_tool("create_issue")]})
    write(tmp_path / "tools" / "notes.txt", {"not": "a catalog"})
    catalog = load_catalog(tmp_path / "tools")
    assert [(t.server, t.name) for t in catalog.tools] == [("github", "create_issue"),
                                                          ("slack", "send_message")]
    assert [s.name for s in catalog.servers] == ["github", "slack"]


def test_a_tools_own_server_field_wins_over_the_file(tmp_path):
    path = write(tmp_path / "all.json", {"servers": [{"name": "x", "description": "X"}],
                                         "tools": [{"name": "a"}, {"name": "b", "server": "y"}]})
    catalog = load_catalog(path)
    assert [(t.server, t.name) for t in catalog.tools] == [("x", "a"), ("y", "b")]
    assert catalog.server("x").description == "X"


def test_same_name_on_two_servers_uses_the_qualified_name_as_identity(tmp_path):
    write(tmp_path / "c" / "github.json", {"tools": [openai_tool("search")]})
    write(tmp_path / "c" / "slack.json", {"tools": [openai_tool("search"), openai_tool("post")]})
    catalog = load_catalog(tmp_path / "c")
    github, slack, post = catalog.tools
    assert (catalog.ident(github), catalog.ident(slack), catalog.ident(post)) == (
        "github:search", "slack:search", "post")
    assert catalog.get("slack:search") is slack
    assert catalog.get("slack:post") is post
    with pytest.raises(KeyError, match="ambiguous"):
        catalog.get("search")
    assert [t.qualified_name for t in catalog.select(["slack:*"])] == ["slack:search",
                                                                       "slack:post"]


def test_same_name_on_the_same_server_in_two_files_names_both_places(tmp_path):
    first = write(tmp_path / "a" / "tools.json", {"tools": [openai_tool("dup")]})
    second = write(tmp_path / "b" / "tools.json", {"tools": [openai_tool("dup")]})
    with pytest.raises(CatalogError) as caught:
        load_catalog([first, second])
    assert str(caught.value) == (f"{second}:1:12: tool 'dup' is defined twice on server "
                                 f"'tools': here and at {first}:1:12")


def test_a_forced_shape_reads_every_file_that_way(tmp_path):
    path = write(tmp_path / "o.json", {"tools": [openai_tool("a")]})
    assert load_catalog(path, shape="ollama").tools[0].shape == "ollama"


def test_an_empty_folder_is_an_error(tmp_path):
    (tmp_path / "empty").mkdir()
    with pytest.raises(CatalogError, match=r"holds no \.yaml, \.yml or \.json files"):
        load_catalog(tmp_path / "empty")


def test_catalogs_come_from_option_then_env_then_config_then_demo(tmp_path):
    project = tmp_path / "project"
    (project / "deep" / "down").mkdir(parents=True)
    (project / "toolcat.yaml").write_text("catalogs: [tools/, extra.json]\n")
    config = find_config(project / "deep" / "down")
    assert config.path == project / "toolcat.yaml"
    assert choose_catalogs(["x.json"], config=config, env={}).reason == "option"
    env_choice = choose_catalogs([], config=config, env={"TOOLCAT_CATALOG": "a.json:b.json"})
    assert (env_choice.reason, env_choice.paths) == ("env", (Path("a.json"), Path("b.json")))
    from_config = choose_catalogs([], config=config, env={})
    assert from_config.paths == (project / "tools", project / "extra.json")
    demo = choose_catalogs([], config=find_config(tmp_path), env={})
    assert (demo.reason, demo.paths) == ("demo", (demo_catalog(),))


def test_pyproject_tool_table_is_a_config(tmp_path):
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "x"\n\n[tool.toolcat]\ncatalogs = ["tools.json"]\n'
        '[tool.toolcat.lint]\nignore = ["TC101"]\n')
    config = find_config(tmp_path)
    assert config.catalogs == (tmp_path / "tools.json",)
    assert config.section("lint") == {"ignore": ["TC101"]}


def test_an_unknown_config_key_is_an_error(tmp_path):
    (tmp_path / "toolcat.yaml").write_text("catalog: tools.json\n")
    with pytest.raises(ConfigError, match="unknown setting 'catalog'"):
        find_config(tmp_path)


def test_a_date_no_calendar_has_is_kept_as_written_and_a_huge_number_is_still_an_error(
        tmp_path):
    # Mollie's OpenAPI description has `createdAt: 2024-04-31T12:50:14+00:00` in an example
    path = tmp_path / "tools.yaml"
    path.write_text("tools:\n  - name: get_payout\n    description: Returns a payout.\n"
                    "    inputSchema:\n      type: object\n      examples:\n"
                    "        - {createdAt: 2024-04-31T12:50:14+00:00, paid: 2024-04-30}\n",
                    encoding="utf-8")
    tool, = load_catalog(path).tools
    assert tool.parameters is not None
    assert tool.parameters["examples"] == [{"createdAt": "2024-04-31T12:50:14+00:00",
                                            "paid": "2024-04-30"}]
    path.write_text("tools:\n  - name: get_payout\n    description: Returns a payout.\n"
                    f"    x-count: {'9' * 5000}\n", encoding="utf-8")
    with pytest.raises(CatalogError, match=r"invalid YAML value") as raised:
        load_catalog(path)
    assert raised.value.where is not None and raised.value.where.line == 4
