"""What a resolution keeps between processes besides the catalog's index: the token counts of
the built-in tools' definitions, in the sealed cache under their text (a resolution then
loads no tokenizer). Kept or not, tampered with or not, the resolution is the same."""

from __future__ import annotations

import logging
from dataclasses import replace

import pytest

import toolcat.catalog.kept as kept_module
import toolcat.resolution.columns as columns_module
from tests.conftest import CATALOGS
from toolcat.catalog.load import load_catalog
from toolcat.model import Catalog
from toolcat.providers.tokens import definition_tokens
from toolcat.resolution.builtins import builtin_catalog
from toolcat.resolution.resolver import Resolver


@pytest.fixture(scope="module")
def demo():
    return load_catalog(CATALOGS)


def counts(resolution):
    return resolution.tokens, [(v.name, v.tokens) for v in resolution.verdicts]


def test_the_builtins_counts_are_kept_and_a_tampered_entry_is_refused(demo, tmp_path,
                                                                      monkeypatch, caplog):
    first = Resolver(demo).resolve("")
    [entry] = (tmp_path / "cache" / "kept" / "builtin-tokens").iterdir()
    assert entry.name.endswith("-builtin-tokens-o200k_base.npy")
    for verdict in first.verdicts:
        if verdict.builtin:
            assert verdict.tokens == definition_tokens(verdict.tool)

    def no_counting(*args, **kwargs):
        raise AssertionError("counted again")

    with monkeypatch.context() as patched:  # read back: nothing counted
        patched.setattr(columns_module, "count_tokens", no_counting)
        assert counts(Resolver(demo).resolve("")) == counts(first)
    data = bytearray(entry.read_bytes())
    data[-1] ^= 1  # one count changed by someone who cannot seal it
    entry.write_bytes(bytes(data))
    with caplog.at_level(logging.WARNING, logger="toolcat"):
        assert counts(Resolver(demo).resolve("")) == counts(first)
    [warning] = [r.getMessage() for r in caplog.records]
    assert "cannot be used" in warning and "seal" in warning


def test_changed_builtins_are_counted_again(demo, tmp_path):
    Resolver(demo).resolve("")
    builtins = builtin_catalog()
    changed = Catalog(tools=tuple(replace(t, description=t.description + " Now longer.")
                                  for t in builtins.tools))
    resolution = Resolver(demo, builtins=changed).resolve("")
    assert len(list((tmp_path / "cache" / "kept" / "builtin-tokens").iterdir())) == 2
    for verdict in resolution.verdicts:
        if verdict.builtin:
            assert verdict.tokens == definition_tokens(verdict.tool)
            assert verdict.tool.description.endswith("Now longer.")


def test_each_kind_of_kept_data_has_its_own_version(demo, tmp_path, monkeypatch):
    """A new search index format leaves the catalog's kept token counts alone (they are not
    the index's); a new version of the token counts' own kind counts them again."""
    import toolcat.search.index as search_index

    first = Resolver(demo).resolve("")
    [entry] = (tmp_path / "cache" / "kept" / "tokens").iterdir()
    index_key = search_index.catalog_key(demo)

    def no_counting(*args, **kwargs):
        raise AssertionError("counted again")

    with monkeypatch.context() as patched:
        patched.setattr(search_index, "FORMAT", search_index.FORMAT + 1)
        assert search_index.catalog_key(demo) != index_key  # the index is another entry
        patched.setattr(columns_module, "definition_tokens", no_counting)
        assert counts(Resolver(demo).resolve("")) == counts(first)
    assert list((tmp_path / "cache" / "kept" / "tokens").iterdir()) == [entry]
    tokens = kept_module.TOKENS
    monkeypatch.setattr(kept_module, "TOKENS", replace(tokens, version=tokens.version + 1))
    assert counts(Resolver(demo).resolve("")) == counts(first)
    assert len(list((tmp_path / "cache" / "kept" / "tokens").iterdir())) == 2
