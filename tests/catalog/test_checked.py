"""A large JSON catalog found sound once is parsed without the checks the next time, and only
that very text: a changed file is checked again (toolcat.source.checked)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from toolcat.catalog import remembered
from toolcat.catalog.load import load_catalog
from toolcat.errors import CatalogError
from toolcat.source import cache, checked, json_text


@pytest.fixture(autouse=True)
def _no_read_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests read a file again to meet its verdict; a remembered read would skip it."""
    monkeypatch.setattr(remembered, "MIN_SIZE", 1 << 62)


def big_catalog(path: Path, extra: str = "") -> str:
    tools = [{"name": f"tool_{i}", "description": f"Does thing {i}. " + "word " * 80,
              "parameters": {"type": "object", "properties": {
                  "city": {"type": "string", "description": "A city"}}}}
             for i in range(2500)]
    text = json.dumps({"tools": tools}, indent=1)
    text = text[:-2] + extra + text[-2:]
    assert len(text) >= checked.MIN_SIZE
    path.write_text(text, encoding="utf-8")
    return text


def entries(root: Path) -> list[Path]:
    folder = root / "checked"
    return sorted(folder.iterdir()) if folder.is_dir() else []


def verdict(entry: Path) -> object:
    """The type names a sealed verdict holds."""
    payload = cache.read_entry(entry, checked.LIMIT)
    assert payload is not None
    return json.loads(bytes(payload))


def test_a_second_read_uses_the_verdict_and_gives_the_same_catalog(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "tools.json"
    big_catalog(path)
    first = load_catalog(path)
    kept = entries(cache.cache_dir())
    assert len(kept) == 1 and verdict(kept[0]) == ["object", "string"]

    def unexpected(*args: object, **kwargs: object) -> None:
        raise AssertionError("the limits were walked again")

    monkeypatch.setattr(json_text, "check_value", unexpected)
    second = load_catalog(path)
    assert [(t.name, t.description, t.parameters) for t in second.tools] == \
        [(t.name, t.description, t.parameters) for t in first.tools]


def test_a_file_changed_after_its_verdict_is_checked_again(tmp_path: Path) -> None:
    path = tmp_path / "tools.json"
    big_catalog(path)
    load_catalog(path)
    big_catalog(path, extra=', "tools": []')  # the same key twice in the top object
    with pytest.raises(CatalogError, match="given twice"):
        load_catalog(path)


def test_an_unreadable_verdict_is_ignored(tmp_path: Path) -> None:
    path = tmp_path / "tools.json"
    big_catalog(path)
    load_catalog(path)
    (entry,) = entries(cache.cache_dir())
    entry.write_text("{not json")
    assert len(load_catalog(path).tools) == 2500
    assert verdict(entry) == ["object", "string"]  # written again


def test_small_files_leave_nothing_in_the_cache(tmp_path: Path) -> None:
    path = tmp_path / "tools.json"
    path.write_text(json.dumps({"tools": [{"name": "a", "description": "b"}]}))
    load_catalog(path)
    assert entries(cache.cache_dir()) == []
