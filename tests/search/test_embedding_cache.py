"""The embedding cache read by key: a lookup reads the rows it asks for, not the whole cache;
rows another user (another key) sealed, or damaged ones, are refused with one warning; two
processes writing at once lose nothing; shards of an older toolcat are kept."""

from __future__ import annotations

import io
import logging
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from tests.conftest import REPO
from toolcat.search.embeddings import EmbeddingCache, text_key

WIDTH = 384


@pytest.fixture
def folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("TOOLCAT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    return tmp_path


def vectors_of(start: int, count: int) -> dict[str, np.ndarray]:
    """`count` unit vectors keyed by the text keys of "start".."start + count - 1", each
    the same whoever makes it."""
    made = {}
    for n in range(start, start + count):
        vector = np.random.default_rng(n).standard_normal(WIDTH).astype(np.float32)
        made[text_key(str(n))] = vector / np.linalg.norm(vector)
    return made


def bytes_read() -> int:
    with Path("/proc/self/io").open(encoding="ascii") as handle:
        return int(next(line for line in handle if line.startswith("rchar:")).split()[1])


@pytest.mark.skipif(not Path("/proc/self/io").exists(), reason="counts bytes read on Linux")
def test_a_few_vectors_are_read_without_reading_the_whole_cache(folders: Path) -> None:
    cache = EmbeddingCache("test-model")
    for start in range(0, 20_000, 5_000):  # four shards of 5,000 vectors each
        assert cache.save(vectors_of(start, 5_000))
    stored = sum(p.stat().st_size for p in cache.folder.iterdir())
    asked = [text_key(str(n)) for n in range(7_000, 7_020)] + [text_key("never encoded")]
    before = bytes_read()
    found = cache.get(asked, WIDTH)
    read = bytes_read() - before
    expected = vectors_of(7_000, 20)
    assert found.keys() == expected.keys()
    assert all(np.array_equal(found[k], v) for k, v in expected.items())
    # the sorted key columns (32 bytes a vector) and 20 rows, not 31 MB of vectors
    assert read < stored / 20, (read, stored)


def test_a_cache_sealed_with_another_users_key_is_refused_with_one_warning(
        folders: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    saved = vectors_of(0, 50)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(folders / "someone-else"))
    assert EmbeddingCache("test-model").save(saved)  # written under another key
    monkeypatch.setenv("XDG_CONFIG_HOME", str(folders / "config"))
    cache = EmbeddingCache("test-model")
    with caplog.at_level(logging.WARNING, logger="toolcat"):
        assert cache.get(saved, WIDTH) == {}
    [warning] = caplog.messages
    assert "seal does not match" in warning and "rebuilding it" in warning
    assert cache.save(saved)  # encoded again and kept under the user's own key
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="toolcat"):
        assert cache.get(saved, WIDTH).keys() == saved.keys()
    assert not caplog.messages


@pytest.mark.parametrize("damage", ["vector", "seal", "key", "truncated", "width"])
def test_a_damaged_shard_costs_one_warning_and_never_a_wrong_vector(
        folders: Path, damage: str, caplog: pytest.LogCaptureFixture) -> None:
    cache = EmbeddingCache("test-model")
    saved = vectors_of(0, 30)
    cache.save(saved)
    [shard] = cache._shards()
    data = bytearray(shard.read_bytes())
    rows_at = 64 + 30 * 32
    if damage == "vector":
        data[-5] ^= 0x01  # the last row's vector
    elif damage == "seal":
        data[rows_at] ^= 0x01  # the first row's seal
    elif damage == "key":  # the first row claims the second's key: its seal does not agree
        data[64:96] = data[96:128]
    elif damage == "truncated":
        del data[-100:]
    else:  # the header claims another width
        data[16:20] = (7).to_bytes(4, "little")
    shard.write_bytes(bytes(data))
    with caplog.at_level(logging.WARNING, logger="toolcat"):
        found = cache.get(saved, WIDTH)
    assert all(np.array_equal(found[k], saved[k]) for k in found)
    assert len(found) < len(saved)
    [warning] = caplog.messages
    assert "cannot be used" in warning and str(shard) in warning
    assert not shard.exists()


def test_merged_shards_keep_every_vector(folders: Path) -> None:
    cache = EmbeddingCache("test-model")
    for start in range(0, 1_000, 100):  # ten saves: the shards are merged past eight
        cache.save(vectors_of(start, 100))
    assert len(cache._shards()) <= 8
    everything = vectors_of(0, 1_000)
    found = cache.get(everything, WIDTH)
    assert found.keys() == everything.keys()
    assert all(np.array_equal(found[k], v) for k, v in everything.items())


def test_two_processes_saving_at_once_lose_nothing(folders: Path) -> None:
    """Both save batch after batch, merging the shards between them: every vector either
    saved is read back afterwards, and neither said a word."""
    script = textwrap.dedent("""
        import sys
        from tests.search.test_embedding_cache import vectors_of
        from toolcat.search.embeddings import EmbeddingCache
        first = int(sys.argv[1])
        for start in range(first, first + 600, 20):
            assert EmbeddingCache("test-model").save(vectors_of(start, 20))
            assert len(EmbeddingCache("test-model").get(vectors_of(first, 20), 384)) == 20
    """)
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    writers = [subprocess.Popen([sys.executable, "-c", script, str(first)], env=env, cwd=REPO,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
               for first in (0, 600)]
    for writer in writers:
        out, err = writer.communicate(timeout=300)
        assert writer.returncode == 0 and err == "" and out == "", err
    everything = vectors_of(0, 1_200)
    found = EmbeddingCache("test-model").get(everything, WIDTH)
    assert found.keys() == everything.keys()
    assert all(np.array_equal(found[k], v) for k, v in everything.items())


def test_the_shards_of_an_older_toolcat_are_read_once_and_kept(
        folders: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """What an older toolcat cached is not encoded again, its shard is read once (and left
    for an older toolcat sharing the folder)."""
    from toolcat.source import cache as cache_files

    cache = EmbeddingCache("test-model")
    saved = vectors_of(0, 40)
    keys = sorted(saved)
    old = cache.folder / f"{'0' * 16}.npz"  # one sealed .npz archive, read whole
    buffer = io.BytesIO()
    np.savez(buffer, keys=np.array([k.encode() for k in keys]),
             vectors=np.stack([saved[k] for k in keys]))
    entry = cache_files.sealed(old, buffer.getbuffer())
    assert entry is not None
    cache_files.write_atomically(old, lambda handle: handle.write(entry))
    found = cache.get(keys[:5], WIDTH)
    assert found.keys() == set(keys[:5])
    assert all(np.array_equal(found[k], saved[k]) for k in found)
    assert old.exists() and len(cache._shards()) == 1
    read: list[Path] = []
    recall = cache_files.recall
    monkeypatch.setattr(cache_files, "recall", lambda path, *rest: read.append(path) or
                        recall(path, *rest))
    assert cache.get(keys, WIDTH).keys() == set(keys)
    assert old not in read and len(cache._shards()) == 1
