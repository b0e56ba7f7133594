"""A large catalog file read once is recalled the next time, by its content, instead of being
parsed and read again; the recalled catalog is the one reading gives, positions included
(toolcat.catalog.remembered)."""

from __future__ import annotations

import json
import pickle
import random
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml
from click.testing import Result

from toolcat.catalog import load, remembered
from toolcat.catalog.load import load_catalog
from toolcat.model import Catalog
from toolcat.source.cache import cache_dir

Runner = Callable[..., Result]


def big_tools(count: int = 2500) -> list[dict[str, object]]:
    return [{"name": f"tool_{i}", "description": f"Does thing {i}. " + "word " * 80,
             "parameters": {"type": "object", "properties": {
                 "city": {"type": "string", "description": "A city"}}}}
            for i in range(count)]


def write_big(path: Path, tools: list[dict[str, object]] | None = None) -> None:
    data = {"tools": big_tools() if tools is None else tools}
    text = (yaml.safe_dump(data, sort_keys=False) if path.suffix == ".yaml"
            else json.dumps(data, indent=1))
    assert len(text) >= remembered.MIN_SIZE
    path.write_text(text, encoding="utf-8")


def entries() -> list[Path]:
    """The remembered reads (not the markers of files read once)."""
    return sorted((cache_dir() / "read").glob("*-read.json"))


def read_twice(path: Path, *, lenient: bool = False) -> Catalog:
    """Load `path` twice, the second time remembering what was read; the second catalog."""
    load_catalog(path, lenient=lenient)
    return load_catalog(path, lenient=lenient)


def described(catalog: Catalog) -> list[tuple[object, ...]]:
    return [(t.qualified_name, t.description, t.parameters, t.shape, str(t.origin),
             t.origin and t.origin.pointer) for t in catalog.tools]


def no_parsing(monkeypatch: pytest.MonkeyPatch) -> None:
    def unexpected(*args: object, **kwargs: object) -> None:
        raise AssertionError("the file was parsed again")

    monkeypatch.setattr(load, "parse_file", unexpected)


@pytest.mark.parametrize("suffix", [".json", ".yaml"])
def test_a_second_read_is_recalled_with_the_same_tools_and_positions(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, suffix: str) -> None:
    path = tmp_path / f"tools{suffix}"
    write_big(path)
    first = load_catalog(path)
    assert entries() == []  # a file read once is not worth the time to store it
    assert described(load_catalog(path)) == described(first)
    assert len(entries()) == 1
    with monkeypatch.context() as patched:
        no_parsing(patched)
        second = load_catalog(path)
        # each tool's own place, as pick shows it, without parsing the file again
        assert described(second) == described(first)
        assert second.tools[1234].origin.line > 1
    # a place inside a tool (lint's findings): from the JSON text, or a YAML file parsed again
    assert second.positions[str(path)].locate("/tools/7/parameters") == \
        first.positions[str(path)].locate("/tools/7/parameters")


def test_a_changed_file_is_read_again(tmp_path: Path) -> None:
    path = tmp_path / "tools.json"
    write_big(path)
    read_twice(path)
    tools = big_tools()
    tools[5]["description"] = "Changed. " + "word " * 80
    write_big(path, tools)
    assert read_twice(path).tools[5].description.startswith("Changed.")
    assert len(entries()) == 2


def test_reading_options_are_part_of_the_key(tmp_path: Path) -> None:
    path = tmp_path / "tools.json"
    write_big(path)
    read_twice(path)
    assert load_catalog(path, default_source="mcp").tools[0].source == "mcp"
    assert load_catalog(path).tools[0].source == "custom"


def test_load_problems_are_recalled_too(tmp_path: Path) -> None:
    path = tmp_path / "tools.json"
    tools = big_tools()
    tools[9]["name"] = "tool_3"  # a duplicate: found after reading, from the tools
    tools[11]["parameters"] = {"type": "dict", "properties": {}}  # a foreign type name
    write_big(path, tools)
    first = load_catalog(path, lenient=True)
    second = read_twice(path, lenient=True)
    assert len(entries()) == 1
    assert [(i.code, str(i.where), i.message) for i in second.issues] == \
        [(i.code, str(i.where), i.message) for i in first.issues]
    assert len(second.issues) == 2


@pytest.mark.parametrize("damage", [b"", b"garbage", b"\x80\x05K\x01."])
def test_a_damaged_entry_is_ignored_and_written_again(tmp_path: Path, damage: bytes) -> None:
    path = tmp_path / "tools.json"
    write_big(path)
    first = read_twice(path)
    (entry,) = entries()
    entry.write_bytes(damage)
    assert described(load_catalog(path)) == described(first)
    assert entry.stat().st_size > 1000  # written again


class _Payload:
    def __reduce__(self) -> tuple[object, ...]:
        return (Path.touch, (Path(self.target),))  # type: ignore[attr-defined]


def test_an_entry_cannot_run_code(tmp_path: Path) -> None:
    path = tmp_path / "tools.json"
    write_big(path)
    read_twice(path)
    (entry,) = entries()
    payload = _Payload()
    payload.target = str(tmp_path / "pwned")  # type: ignore[attr-defined]
    entry.write_bytes(pickle.dumps(payload))
    assert len(load_catalog(path).tools) == 2500
    assert not (tmp_path / "pwned").exists()


def test_small_files_are_not_remembered(tmp_path: Path) -> None:
    small = tmp_path / "small.json"
    small.write_text(json.dumps({"tools": [{"name": "a", "description": "b"}]}))
    read_twice(small)
    assert not (cache_dir() / "read").exists()


def pydantic_style(count: int = 2500) -> list[dict[str, object]]:
    """Tools whose schemas refer to their own `$defs`, as pydantic writes them."""
    return [{"name": f"tool_{i}", "description": f"Does thing {i}. " + "word " * 80,
             "parameters": {"type": "object", "$defs": {"Address": {
                 "type": "object", "properties": {"city": {"type": "string"}}}},
                 "properties": {"home": {"$ref": "#/$defs/Address"}}}}
            for i in range(count)]


def test_a_file_whose_refs_stay_inside_it_is_remembered(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tools = pydantic_style()
    tools[3]["parameters"]["properties"]["bad"] = {"$ref": "#/$defs/Nowhere"}  # type: ignore[index]
    path = tmp_path / "tools.json"
    write_big(path, tools)
    first = load_catalog(path, lenient=True)
    read_twice(path, lenient=True)
    assert len(entries()) == 1
    with monkeypatch.context() as patched:
        no_parsing(patched)
        second = load_catalog(path, lenient=True)
    assert described(second) == described(first)
    assert [(i.code, str(i.where), i.message) for i in second.issues] == \
        [(i.code, str(i.where), i.message) for i in first.issues]
    assert [i.code for i in second.issues] == ["unresolved-ref"]


def test_a_file_with_file_refs_is_remembered_with_the_files_they_reach(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    defs = tmp_path / "defs.json"
    defs.write_text(json.dumps({"City": {"type": "string"}}))
    tools = big_tools()
    tools[0]["parameters"] = {"type": "object", "properties": {
        "city": {"$ref": "defs.json#/City"}, "zip": {"$ref": "missing.json#/Zip"}}}
    referring = tmp_path / "refers.json"
    write_big(referring, tools)
    first = load_catalog(referring, lenient=True)
    read_twice(referring, lenient=True)
    assert len(entries()) == 1
    with monkeypatch.context() as patched:
        calls: list[Path] = []
        real = load.parse_file
        patched.setattr(load, "parse_file", lambda p, *a: calls.append(p) or real(p, *a))
        second = load_catalog(referring, lenient=True)
        assert calls == [defs]  # the referenced file is read, the catalog file is not
    assert second.documents == first.documents == {defs.as_uri(): {"City": {"type": "string"}}}
    assert [str(i) for i in second.issues] == [str(i) for i in first.issues]
    # a referenced file that changes, appears or is removed changes what is read
    defs.write_text(json.dumps({"Town": {"type": "string"}}))
    changed = load_catalog(referring, lenient=True)
    assert "points nowhere" in " ".join(str(i) for i in changed.issues)
    (tmp_path / "missing.json").write_text(json.dumps({"Zip": {"type": "string"}}))
    defs.write_text(json.dumps({"City": {"type": "string"}}))
    assert [i.code for i in load_catalog(referring, lenient=True).issues] == []


def test_lint_on_a_recalled_catalog_reports_the_same_places(
        tmp_path: Path, run: Runner, monkeypatch: pytest.MonkeyPatch) -> None:
    # descriptions of their own, but for three near-duplicates: big_tools' 2,500 alike
    # tools made every run print 76 MB of TC501 rows (each tool naming the 2,499 others)
    syllables = ["ka", "lo", "mi", "ne", "su", "ta", "ri", "po", "ve", "da", "gu", "fe"]
    words = [a + b + c for a in syllables for b in syllables for c in syllables]
    tools = big_tools()
    for i, tool in enumerate(tools):
        text = " ".join(random.Random(max(i, 2)).sample(words, 80))  # tools 0 to 2 alike
        tool["description"] = f"Does thing {i}. {text}"
    tools[2000]["parameters"] = {"type": "object", "properties": {"n": {"type": "integer"}},
                                 "required": ["missing"]}
    path = tmp_path / "tools.json"
    write_big(path, tools)
    first = run("lint", "-c", str(path))
    load_catalog(path, lenient=True)  # the second read stores it, as a second lint would
    assert len(entries()) == 1
    no_parsing(monkeypatch)  # the next lint reads the entry, not the file
    second = run("lint", "-c", str(path))
    assert second.stdout == first.stdout
    line = 1 + path.read_text().split('"missing"')[0].count("\n")
    assert any(row.lstrip().startswith(f"{line}:") and " error " in row
               for row in first.stdout.splitlines())
    assert "TC501" in first.stdout  # the three alike tools, at their places too


def test_a_read_that_cannot_be_stored_costs_nothing_but_the_time(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object) -> bytes:
        raise TypeError("cannot store this")

    monkeypatch.setattr(remembered, "_encode", refuse)
    path = tmp_path / "tools.json"
    write_big(path)
    assert len(read_twice(path).tools) == 2500
    assert entries() == []


def test_a_recalled_catalog_decodes_only_the_definitions_it_shows(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, run: Runner) -> None:
    """`pick` on a remembered catalog with pydantic-style `$defs` reads the entry, not the
    file, and decodes the definitions of the tools it shows, not the other 2,499."""
    path = tmp_path / "tools.json"
    write_big(path, pydantic_style())
    first = load_catalog(path)
    query = ["pick", "does thing 1234", "-c", str(path), "--scorer", "bm25", "-k", "2",
             "--json"]
    run(*query)  # read once: a marker, and the search index kept
    run(*query)  # read again: remembered
    assert len(entries()) == 1
    decoded: list[str] = []
    real = remembered._decode_definition
    monkeypatch.setattr(remembered, "_decode_definition", lambda text, start, end, tool:
                        decoded.append(tool.name) or real(text, start, end, tool))
    no_parsing(monkeypatch)
    picks = json.loads(run(*query).stdout)["picks"]
    assert picks[0]["name"] == "tool_1234"
    assert set(decoded) <= {p["name"] for p in picks}
    # each shown tool's place is the one a read of the file gives
    origin = picks[0]["provenance"]["origin"]
    assert (origin["line"], origin["column"]) == (first.get("tool_1234").origin.line,
                                                  first.get("tool_1234").origin.column)
    # a definition is decoded when first asked for, once, and is the one the file holds
    again = load_catalog(path)
    decoded.clear()
    assert again.tools[7].parameters == first.tools[7].parameters
    assert again.tools[7].description == first.tools[7].description
    assert again.tools[7].raw == first.tools[7].raw
    assert decoded == ["tool_7"]
    assert described(again) == described(first)


def varied_tools(count: int = 2500) -> list[dict[str, object]]:
    """Tools whose every kind of field varies from tool to tool: servers, tags, examples,
    levels, safety, whether the description is the definition's own object."""
    tools: list[dict[str, object]] = []
    for i in range(count):
        tool: dict[str, object] = {
            "name": f"tool_{i % 1250}", "server": f"srv{i // 1250}",
            "description": f"Does thing {i}. " + "word " * 90,
            "parameters": {"type": "object", "properties": {"n": {"type": "integer"}}}}
        if i % 3 == 0:  # what it shares with its definition varies too
            del tool["description"]
        if i % 2:
            tool |= {"tags": [f"t{i % 7}", "shared"], "level": 1 + i % 3, "safe": i % 4 != 1,
                     "examples": [{"n": i}], "priority": i % 100}
        tools.append(tool)
    return tools


def test_a_recalled_catalog_holds_the_very_tools_reading_gives(tmp_path: Path,
                                                                run: Runner) -> None:
    """Every field of every tool (the columns stored once for all tools and those stored per
    tool), its qualified name and what `list --json` prints are those of a fresh read."""
    path = tmp_path / "tools.json"
    write_big(path, varied_tools())
    fresh = load_catalog(path)
    printed = run("list", "-c", str(path), "--json").stdout
    recalled = read_twice(path)
    assert len(entries()) == 1
    assert recalled.tools == fresh.tools  # every field, origins by their resolved place
    assert [t.qualified_name for t in recalled.tools] == \
        [t.qualified_name for t in fresh.tools]
    assert {t.qualified_name for t in fresh.tools} >= {"srv1:tool_1", "srv0:tool_1"}
    assert [type(t.tags) for t in recalled.tools] == [tuple] * len(fresh.tools)
    assert run("list", "-c", str(path), "--json").stdout == printed
    assert recalled.servers == fresh.servers and recalled.issues == fresh.issues


def test_a_tool_s_qualified_name_follows_its_fields_however_it_is_made() -> None:
    import copy
    import dataclasses
    from itertools import repeat

    from toolcat.model import Tool

    tool = Tool(name="send", server="mail")
    assert tool.qualified_name == "mail:send"
    assert dataclasses.replace(tool, server="").qualified_name == "send"
    assert pickle.loads(pickle.dumps(tool)).qualified_name == "mail:send"
    assert copy.deepcopy(tool) == tool and copy.copy(tool).qualified_name == "mail:send"
    with pytest.raises((AttributeError, TypeError)):
        tool.qualified_name = "other"  # type: ignore[misc]
    columns: list[object] = [repeat(getattr(tool, f.name), 2)
                             for f in dataclasses.fields(Tool)]
    columns[0], columns[3] = ["a", "b"], ["s", ""]
    made = Tool.from_columns(2, columns)  # type: ignore[arg-type]
    assert [t.qualified_name for t in made] == ["s:a", "b"]
    assert made[1] == Tool(name="b")
    with pytest.raises(ValueError, match="do not give each field"):
        Tool.from_columns(3, columns)  # type: ignore[arg-type]


def test_a_file_with_a_byte_order_mark_is_remembered_by_its_text(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A remembered file is keyed by the digest of its bytes, never decoded: the digest is
    the one of its text (a BOM dropped, any UTF-8 kept), so the search index keyed by the
    text finds the same key, and a file that is not UTF-8 is still refused."""
    from toolcat.errors import CatalogError
    from toolcat.source.checked import bytes_digest, text_digest

    tools = big_tools()
    tools[3]["description"] = "Réserve une table à Zürich — 東京 too. " + "word " * 80
    path = tmp_path / "tools.json"
    text = json.dumps({"tools": tools}, indent=1, ensure_ascii=False)
    path.write_bytes(b"\xef\xbb\xbf" + text.encode())
    assert bytes_digest(path.read_bytes()) == text_digest(text)
    first = load_catalog(path)
    with monkeypatch.context() as patched:
        second = read_twice(path)
        no_parsing(patched)
        patched.setattr(load, "decode_text", lambda *args: pytest.fail("decoded"))
        third = load_catalog(path)
    assert len(entries()) == 1 and third.digests == first.digests
    assert third.tools == second.tools == first.tools
    assert third.tools[3].description.startswith("Réserve")
    path.write_bytes(b"\xef\xbb\xbf" + text.encode()[:-40] + b"\xff" + text.encode()[-39:])
    with pytest.raises(CatalogError, match="not UTF-8 text"):
        load_catalog(path)
