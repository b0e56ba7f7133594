"""The persisted search index: a catalog seen before is loaded, a damaged cache heals."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import CATALOGS, REPO

QUERY = "open a pull request for my branch"


def toolcat(*args: str, cache: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(REPO), "TOOLCAT_CACHE_DIR": str(cache)}
    return subprocess.run([sys.executable, "-m", "toolcat", *args], capture_output=True,
                          text=True, env=env, cwd=REPO, check=False, timeout=120)


def catalog_of(folder: Path, **descriptions: str) -> Path:
    """A JSON catalog of tools named by the keywords, described by their values."""
    catalog = folder / "tools.json"
    catalog.write_text(json.dumps([{"name": name, "description": description}
                                   for name, description in descriptions.items()]))
    return catalog


def index_files(cache: Path) -> list[Path]:
    return sorted((cache / "index").glob("*-bm25-*.arrays"))


@pytest.mark.slow
def test_a_catalog_seen_before_is_picked_from_its_stored_index(tmp_path):
    cache = tmp_path / "cache"
    first = toolcat("pick", QUERY, "--scorer", "bm25", "--explain", "--json", cache=cache)
    assert first.returncode == 0, first.stderr
    [stored] = index_files(cache)
    written = stored.stat().st_ino
    second = toolcat("pick", QUERY, "--scorer", "bm25", "--explain", "--json", cache=cache)
    assert second.returncode == 0, second.stderr
    assert json.loads(second.stdout) == json.loads(first.stdout)
    assert json.loads(first.stdout)["picks"][0]["provenance"]["details"]["matched"]
    assert index_files(cache) == [stored]
    assert stored.stat().st_ino == written  # loaded, not built again (a write replaces the file)


@pytest.mark.slow
def test_a_changed_catalog_gets_an_index_of_its_own(tmp_path):
    cache = tmp_path / "cache"
    catalog = catalog_of(tmp_path, create_pull_request="Open a pull request.",
                         get_weather="Current weather for a city.")
    before = toolcat("pick", QUERY, "-c", str(catalog), "--scorer", "bm25", "--json",
                     cache=cache)
    catalog_of(tmp_path, merge_branch="Merge a branch into another.",
               get_weather="Current weather for a city.")
    after = toolcat("pick", QUERY, "-c", str(catalog), "--scorer", "bm25", "--json",
                    cache=cache)
    assert [p["name"] for p in json.loads(before.stdout)["picks"]] == ["create_pull_request"]
    assert [p["name"] for p in json.loads(after.stdout)["picks"]] == ["merge_branch"]
    assert len(index_files(cache)) == 2


@pytest.mark.slow
def test_a_garbage_index_is_rebuilt_with_a_one_line_warning(tmp_path):
    cache = tmp_path / "cache"
    clean = toolcat("pick", QUERY, "-c", "demo", "--scorer", "bm25", "--json", cache=cache)
    [stored] = index_files(cache)
    stored.write_bytes(b"PK\x03\x04 this is not an index" * 10)
    healed = toolcat("pick", QUERY, "-c", "demo", "--scorer", "bm25", "--json", cache=cache)
    assert healed.returncode == 0
    assert json.loads(healed.stdout) == json.loads(clean.stdout)
    [line] = healed.stderr.strip().splitlines()
    assert line.startswith("warning: the search cache ") and "rebuilding it" in line
    again = toolcat("pick", QUERY, "-c", "demo", "--scorer", "bm25", "--json", cache=cache)
    assert again.returncode == 0 and again.stderr == ""
    assert json.loads(again.stdout) == json.loads(clean.stdout)


@pytest.mark.slow
def test_an_index_of_another_catalog_size_is_not_trusted(tmp_path):
    cache = tmp_path / "cache"
    catalog = tmp_path / "tools.json"
    tools = [{"name": f"tool_{i}", "description": f"Does thing number {i}."} for i in range(3)]
    catalog.write_text(json.dumps(tools))
    toolcat("pick", "thing", "-c", str(catalog), "--scorer", "bm25", cache=cache)
    [stored] = index_files(cache)
    other = tmp_path / "other.json"
    other.write_text(json.dumps(tools[:2]))
    toolcat("pick", "thing", "-c", str(other), "--scorer", "bm25", cache=cache)
    [foreign] = [p for p in index_files(cache) if p != stored]
    foreign.replace(stored)  # the index of two tools where three are expected
    result = toolcat("pick", "thing", "-c", str(catalog), "--scorer", "bm25", "--json",
                     cache=cache)
    assert result.returncode == 0
    # sealed for the other catalog's key: refused before it is read
    [line] = result.stderr.strip().splitlines()
    assert "seal does not match" in line and "rebuilding it" in line
    assert len(json.loads(result.stdout)["picks"]) == 3


@pytest.mark.slow
def test_an_unwritable_cache_only_costs_the_rebuild(tmp_path):
    blocked = tmp_path / "cache"
    blocked.write_text("a file where the cache folder should be")
    result = toolcat("pick", QUERY, "-c", str(CATALOGS), "--scorer", "bm25", cache=blocked)
    assert result.returncode == 0, result.stderr
    assert "create_pull_request" in result.stdout


@pytest.mark.semantic
def test_garbage_embedding_caches_are_rebuilt_and_both_runs_succeed(tmp_path):
    cache = tmp_path / "cache"
    catalog = catalog_of(tmp_path, drop_table="Delete a database table and its rows.",
                         get_weather="Current weather for a city.")
    args = ("pick", "remove the users table", "-c", str(catalog), "--scorer", "semantic",
            "--json")
    clean = toolcat(*args, cache=cache)
    assert clean.returncode == 0, clean.stderr
    shards = list((cache / "embeddings").rglob("*-rows"))
    vectors = list((cache / "index").glob("*-vectors-*.npy"))
    assert shards and vectors
    for damaged in [*shards, *vectors]:
        damaged.write_bytes(b"\x93NUMPY garbage" + bytes(range(256)))
    for _ in range(2):
        result = toolcat(*args, cache=cache)
        assert result.returncode == 0, result.stderr
        assert "Traceback" not in result.stderr
        assert json.loads(result.stdout)["picks"] == json.loads(clean.stdout)["picks"]
    (cache / "index").joinpath(vectors[0].name).unlink()  # the shards alone were healed too
    assert toolcat(*args, cache=cache).stderr == ""


def test_the_index_folder_keeps_the_catalogs_used_last(tmp_path):
    from toolcat.source.cache import prune

    folder = tmp_path / "index"
    folder.mkdir()
    for age, key in enumerate("0123456789"):  # 9 is the oldest
        for part in ("bm25-1.npz", "vectors-1.npy"):
            (folder / f"{key * 40}-{part}").write_bytes(b"x")
            os.utime(folder / f"{key * 40}-{part}", (1e9 - age, 1e9 - age))
    os.utime(folder / f"{'9' * 40}-bm25-1.npz")  # just used
    prune(folder, keep=3)
    assert sorted({f.name[0] for f in folder.iterdir()}) == ["0", "1", "9"]
    assert len(list(folder.iterdir())) == 6


def test_pick_keeps_the_index_folder_bounded(tmp_path, run):
    for n in range(10):
        folder = tmp_path / str(n)
        folder.mkdir()
        catalog = catalog_of(folder, **{f"tool_{n}": "Open a pull request."})
        assert run("pick", QUERY, "-c", str(catalog), "--scorer", "bm25").exit_code == 0
    assert len(index_files(tmp_path / "cache")) == 8


def test_a_file_edited_after_loading_never_keys_the_tools_read_before(tmp_path, monkeypatch):
    """The index is keyed by the text the tools were read from: an edit between loading and
    indexing (an editor saving while toolcat runs) cannot store the old tools' index under
    the new text's key, where the next run would find it."""
    from toolcat.catalog.load import load_catalog
    from toolcat.search import rank
    from toolcat.search.index import scorer_for

    monkeypatch.setenv("TOOLCAT_CACHE_DIR", str(tmp_path / "cache"))
    path = catalog_of(tmp_path, lookup_order="Find an order by its number.")
    before = load_catalog(path)
    catalog_of(tmp_path, lookup_order="Track a parcel shipped with a courier.")
    scorer_for("bm25", before)  # stored under the key of the text it read
    after = scorer_for("bm25", load_catalog(path))
    assert [s.tool.name for s in rank(after, "track my parcel", limit=1)] == ["lookup_order"]


def test_shards_merged_away_by_another_process_are_no_damage(tmp_path, monkeypatch, caplog):
    """Two processes share the embedding cache; one merges its shards (writes the merged
    shard, then removes the old ones) while the other reads the folder: the reader finds
    every vector, without a warning and without encoding anything again."""
    import logging

    import numpy as np

    from toolcat.search.embeddings import EmbeddingCache

    cache = EmbeddingCache("test-model", root=tmp_path)
    vectors = {"a" * 64: np.ones(3, np.float32), "b" * 64: np.zeros(3, np.float32)}
    cache.save({"a" * 64: vectors["a" * 64]})
    cache.save({"b" * 64: vectors["b" * 64]})
    listed = cache._shards()
    lists = iter([listed])
    real = cache._shards

    def racing() -> list[Path]:
        first = next(lists, None)
        if first is None:
            return real()
        cache._write(vectors)  # the other process's merge, between listing and reading
        for shard in first:
            shard.unlink()
        return first

    monkeypatch.setattr(cache, "_shards", racing)
    with caplog.at_level(logging.WARNING, logger="toolcat"):
        found = cache.get(vectors)
    assert set(found) == set(vectors)
    assert not caplog.records


def _scores(stdout: str) -> list[tuple[str, float, object]]:
    return [(p["name"], p["score"], p["provenance"].get("details"))
            for p in json.loads(stdout)["picks"]]


@pytest.mark.parametrize("scorer", ["bm25", pytest.param("hybrid", marks=pytest.mark.semantic)])
def test_a_stored_index_gives_the_very_scores_of_a_built_one(tmp_path, monkeypatch, run,
                                                              scorer):
    """The index read back (views of its sealed entry, not copies) scores every tool as the
    index built from the catalog did, bit for bit, and pick prints the same answer."""
    import numpy as np

    from toolcat.catalog.load import load_catalog
    from toolcat.search.index import scorer_for

    catalog = catalog_of(
        tmp_path, create_pull_request="Open a pull request from a branch.",
        merge_branch="Merge a branch into another.", list_issues="List the open issues.",
        get_weather="Current weather for a city.", send_mail="Send an email message.",
        drop_table="Delete a database table and its rows.",
        open_branch="Create a branch for a pull request.", close_issue="Close an issue.")
    cache = tmp_path / "cache"
    built = scorer_for(scorer, load_catalog(catalog))  # built, and stored
    stored = sorted(p for p in (cache / "index").iterdir()
                    if p.name.endswith((".arrays", ".npy")))
    written = {p: p.stat().st_ino for p in stored}
    recalled = scorer_for(scorer, load_catalog(catalog))
    assert stored and {p: p.stat().st_ino for p in stored} == written  # read, not built
    for query in (QUERY, "weather in Paris", "delete rows"):
        assert np.array_equal(np.asarray(recalled.scores(query)),
                              np.asarray(built.scores(query)))
    if scorer == "bm25":  # and the command answers the same from either
        args = ("pick", QUERY, "-c", str(catalog), "--scorer", scorer, "--explain", "--json",
                "--no-cut")  # three picks to compare, not only those the cut keeps
        answer = run(*args).stdout
        assert len(_scores(answer)) >= 3
        monkeypatch.setenv("TOOLCAT_CACHE_DIR", str(tmp_path / "empty"))
        assert run(*args).stdout == answer


def test_stored_arrays_are_read_as_views_and_only_plain_ones(tmp_path):
    """`numpy_arrays` reads what `save_arrays` writes (any plain dtype, each record
    aligned) without copying, and refuses what toolcat never writes: objects (pickles),
    Fortran order, a record longer than the entry, another .npy version."""
    import io

    import numpy as np

    from toolcat.source.cache import DATA_ALIGN, numpy_arrays, save_arrays

    arrays = [np.frombuffer(b"abc", np.uint8), np.arange(7, dtype=np.int32),
              np.linspace(0, 1, 5), np.zeros(0, np.int64), np.ones((3, 4), np.float32)]
    buffer = io.BytesIO()
    save_arrays(buffer, arrays)
    payload = memoryview(bytearray(buffer.getvalue()))
    found = numpy_arrays(payload)
    assert len(found) == len(arrays)
    for read, written in zip(found, arrays, strict=True):
        assert read.dtype == written.dtype and np.array_equal(read, written)
        assert read.base is not None  # a view
    assert np.array_equal(np.load(io.BytesIO(payload), allow_pickle=False), arrays[0])
    found[1][0] = 99  # a view of the payload: no copy was made
    assert numpy_arrays(payload)[1][0] == 99

    def npy(array: object, **options: object) -> memoryview:
        out = io.BytesIO()
        np.lib.format.write_array(out, array, **options)  # type: ignore[arg-type]
        return memoryview(out.getvalue())

    refused = {
        "objects": npy(np.array([{"a": 1}], dtype=object), allow_pickle=True),
        "fortran": npy(np.asfortranarray(np.ones((3, 4)))),
        "truncated": npy(np.arange(100))[:-8],
        "version 3": npy(np.arange(4), version=(3, 0)),
        "garbage": memoryview(b"\x93NUMPY" + bytes(DATA_ALIGN)),
    }
    for what, bad in refused.items():
        with pytest.raises(ValueError):
            numpy_arrays(bad)
            pytest.fail(f"{what} was read")


def test_a_large_entry_is_mapped_privately_and_checked_all_the_same(tmp_path, monkeypatch):
    """An entry of MAP_FROM bytes or more is mapped, its arrays read in place, aligned: what
    a reader writes into them never reaches the file, one flipped byte anywhere still fails
    its seal, and a file others may write is read, not mapped, and checked the same way."""
    import numpy as np

    from toolcat.source import cache

    monkeypatch.setenv("TOOLCAT_CACHE_DIR", str(tmp_path / "cache"))
    path = tmp_path / "cache" / "index" / f"{'a' * 40}-vectors-1.npy"
    vectors = np.arange(cache.MAP_FROM // 4 + 10, dtype=np.float32)
    cache.store(path, lambda handle: cache.save_arrays(handle, [vectors]), 8)
    on_disk = path.read_bytes()
    payload = cache.read_entry(path, len(on_disk))
    assert payload is not None and isinstance(payload.obj, __import__("mmap").mmap)
    (read,) = cache.numpy_arrays(payload)
    assert read.ctypes.data % cache.DATA_ALIGN == 0  # in place, aligned as numpy's own
    read[:] = -1  # private to this process
    assert path.read_bytes() == on_disk
    assert np.array_equal(cache.numpy_arrays(cache.read_entry(path, len(on_disk)))[0], vectors)
    flipped = bytearray(on_disk)
    flipped[len(on_disk) // 2] ^= 1
    path.write_bytes(flipped)
    with pytest.raises(cache.CacheDamage, match="seal"):
        cache.read_entry(path, len(on_disk))
    path.write_bytes(on_disk)
    path.chmod(0o620)  # group-writable: copied, not mapped
    payload = cache.read_entry(path, len(on_disk))
    assert payload is not None and isinstance(payload.obj, bytearray)
    assert np.array_equal(cache.numpy_arrays(payload)[0], vectors)


def test_an_index_entry_of_pickled_objects_is_refused_even_sealed(tmp_path, run, caplog):
    """A sealed BM25 entry (as a bug or another release could leave) holding an array of
    pickled objects is never unpickled: one warning, the index rebuilt, the same answer."""
    import numpy as np

    from toolcat.source import cache

    args = ("pick", QUERY, "-c", str(CATALOGS), "--scorer", "bm25", "--json")
    clean = run(*args).stdout
    [stored] = index_files(tmp_path / "cache")
    marker = tmp_path / "unpickled"

    class Payload:
        def __reduce__(self) -> tuple[object, ...]:
            return (Path.touch, (marker,))

    cache.store(stored, lambda handle: np.lib.format.write_array(
        handle, np.array([Payload()], dtype=object), allow_pickle=True), 8)
    with caplog.at_level(logging.WARNING, logger="toolcat"):
        healed = run(*args)
    assert healed.stdout == clean and not marker.exists()
    [warning] = [r.getMessage() for r in caplog.records]
    assert warning.startswith("warning: the search cache ") and "rebuilding it" in warning


def test_vectors_stored_before_entries_were_aligned_are_stored_again_aligned_once(
        tmp_path, monkeypatch):
    """Vectors an earlier release stored (`np.save`: their numbers 40 bytes past a 64-byte
    boundary of the file) are read, aligned and stored again once, with the same numbers;
    from then on they are read in place."""
    import numpy as np

    from toolcat.search.index import _realigned
    from toolcat.source import cache

    monkeypatch.setenv("TOOLCAT_CACHE_DIR", str(tmp_path / "cache"))
    path = tmp_path / "cache" / "index" / f"{'b' * 40}-vectors-1.npy"
    vectors = np.random.default_rng(7).random((cache.MAP_FROM // 1536 + 5, 384), np.float32)
    cache.store(path, lambda handle: np.save(handle, vectors), 8)
    limit = path.stat().st_size + 4096
    (old,) = cache.numpy_arrays(cache.read_entry(path, limit))
    assert cache.mapped(old) and old.ctypes.data % 64 != 0
    moved = _realigned(path, old)
    assert np.array_equal(moved, vectors) and moved.ctypes.data % 64 == 0
    (again,) = cache.numpy_arrays(cache.read_entry(path, limit))
    assert cache.mapped(again) and again.ctypes.data % 64 == 0
    assert np.array_equal(again, vectors)
    written = path.stat().st_ino
    assert _realigned(path, again) is again and path.stat().st_ino == written
