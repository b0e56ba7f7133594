"""A `pick` on a small catalog beside a small and a big embedding cache.

The same 20 tools, the same request, picked with their vectors in the embedding cache and
the ONNX query encoder stored, but no search index of the catalog (as after an edit of the
catalog, or for a new file of tools seen before: the index is built from the cached vectors),
from a cache that holds only the catalog's vectors, and from one that also holds VECTORS
vectors of other texts (as a cache does after a few large catalogs or benchmarks). Prints the
median wall and CPU time of a pick, its peak memory and the bytes it read with read calls
(Linux's rchar: an entry toolcat maps into memory is not counted), and their ratios big /
small: a cache read by key reads what it is asked for, whatever it holds.

    nice -n 10 python benchmarks/cache_speed.py                    # 50,000 vectors, 7 picks
    nice -n 10 python benchmarks/cache_speed.py --vectors 200000 --runs 5
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from toolcat.catalog.load import load_catalog  # noqa: E402
from toolcat.search import onnx_encoder  # noqa: E402
from toolcat.search.embeddings import EmbeddingCache, load_embedder  # noqa: E402

REQUEST = "what's the weather in Oslo tomorrow"
# one pick in a process of its own, then its CPU seconds, peak memory (KB) and the bytes it
# read (rchar), on stderr
PICK = """
import resource, runpy, sys
sys.argv = ["toolcat", "pick", sys.argv[1], "-c", sys.argv[2], "--json"]
try:
    runpy.run_module("toolcat", run_name="__main__")
except SystemExit:
    pass
with open("/proc/self/io") as handle:
    read = next(l for l in handle if l.startswith("rchar")).split()[1]
used = resource.getrusage(resource.RUSAGE_SELF)
sys.stderr.write(f"{used.ru_utime + used.ru_stime} {used.ru_maxrss} {read}")
"""
FIGURES = ("wall s", "CPU s", "peak MB", "read MB")
# VECTORS random vectors of other texts into the model's cache, as the cache saves them
FILL = """
import sys
import numpy as np
from toolcat.search.embeddings import EmbeddingCache, text_key
ident, total = sys.argv[1], int(sys.argv[2])
rng = np.random.default_rng(0)
for start in range(0, total, 10_000):
    vectors = rng.standard_normal((min(10_000, total - start), 384)).astype(np.float32)
    EmbeddingCache(ident).save({text_key(f"other text {start + n}"): v
                                for n, v in enumerate(vectors)})
"""


def pick(catalog: Path, cache: Path) -> tuple[float, float, float, float]:
    shutil.rmtree(cache / "index", ignore_errors=True)  # built again from the cached vectors
    env = {**os.environ, "PYTHONPATH": str(REPO), "TOOLCAT_CACHE_DIR": str(cache)}
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", PICK, REQUEST, str(catalog)], env=env,
                          capture_output=True, text=True, check=True, cwd=REPO)
    seconds = time.perf_counter() - started
    json.loads(done.stdout)
    cpu, peak, read = done.stderr.strip().splitlines()[-1].split()
    return seconds, float(cpu), int(peak) / 1e3, int(read) / 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--vectors", type=int, default=50_000)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    ident = load_embedder().ident
    stored = onnx_encoder.export_path(EmbeddingCache(ident).folder, ident)
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        tools = [t for name in ("weather", "calendar", "slack")
                 for t in load_catalog(str(REPO / "catalogs" / f"{name}.yaml")).tools][:20]
        catalog = root / "tools.json"
        catalog.write_text(json.dumps([{"name": t.name, "description": t.description,
                                        "parameters": t.parameters} for t in tools]))
        rows = {}
        for name in ("small", "big"):
            cache = root / name
            os.environ["TOOLCAT_CACHE_DIR"] = str(cache)
            if stored.is_file():  # the user's ONNX export: no torch export in the figures
                target = onnx_encoder.export_path(EmbeddingCache(ident).folder, ident)
                target.parent.mkdir(parents=True, mode=0o700)
                shutil.copy(stored, target)
            pick(catalog, cache)  # the catalog's vectors, its index, the export if missing
            if name == "big":  # in a process of its own: a child's peak memory counts
                # the parent's at the fork, and this one then stays small
                subprocess.run([sys.executable, "-c", FILL, ident, str(args.vectors)],
                               env={**os.environ, "PYTHONPATH": str(REPO)}, check=True)
            pick(catalog, cache)
            runs = [pick(catalog, cache) for _ in range(args.runs)]
            rows[name] = [statistics.median(run[i] for run in runs)
                          for i in range(len(FIGURES))]
            print(f"{name:>5} cache: " + ", ".join(
                f"{value:.2f} {figure}" for figure, value in zip(FIGURES, rows[name],
                                                                 strict=True)), flush=True)
        print("big / small: " + ", ".join(
            f"{big / small:.2f} x {figure}" for figure, big, small in zip(
                FIGURES, rows["big"], rows["small"], strict=True))
              + f" ({args.vectors:,} vectors more, medians of {args.runs} picks)")


if __name__ == "__main__":
    main()
