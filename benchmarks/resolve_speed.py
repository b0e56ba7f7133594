"""How long a resolution takes: the first one (scorer index, token counts, tokenizer load) and
the following ones, on the demo catalog (72 tools) and on seal_tools (4,076 tools), for each
bundled profile that fits the catalog; and the time per step of a scripted session.

Profiles without a `scorer` use toolcat's default (hybrid with the semantic extra): its first
resolution loads the model and encodes the catalog, which the embedding cache
($TOOLCAT_CACHE_DIR) keeps for later runs.

Usage: python benchmarks/resolve_speed.py [--queries N]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

from benchdata import BENCHDATA

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from toolcat.catalog.load import load_catalog  # noqa: E402
from toolcat.resolution import DEFAULT_PROFILE, Resolver, Session, load_profile  # noqa: E402
from toolcat.resolution.session import load_script  # noqa: E402

SEAL = BENCHDATA / "seal_tools"
DEMO_QUERIES = REPO / "catalogs" / "demo-queries.jsonl"


def queries(path: Path, n: int) -> list[str]:
    with path.open(encoding="utf-8") as handle:
        return [json.loads(line)["query"] for line, _ in zip(handle, range(n), strict=False)]


def bench(label: str, catalog, profile, texts: list[str]) -> None:
    started = time.perf_counter()
    resolver = Resolver(catalog, profile)
    resolver.resolve(texts[0])
    first = time.perf_counter() - started
    label = f"{label} ({resolver.scorer_name})"
    times = []
    for text in texts[1:]:
        t = time.perf_counter()
        resolver.resolve(text)
        times.append(time.perf_counter() - t)
    print(f"{label:<52} first {first * 1000:8.1f} ms   then median "
          f"{statistics.median(times) * 1000:7.1f} ms  p95 "
          f"{sorted(times)[int(len(times) * 0.95)] * 1000:7.1f} ms  ({len(times)} queries)")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--queries", type=int, default=100)
    args = parser.parse_args()
    demo = load_catalog(REPO / "catalogs")
    texts = queries(DEMO_QUERIES, args.queries)
    profiles = [DEFAULT_PROFILE] + [load_profile(p) for p in sorted(
        (REPO / "catalogs" / "profiles").glob("*.yaml"))]
    for profile in profiles:
        bench(f"demo (72 tools), {profile.name}", demo, profile, texts)
    if (SEAL / "catalog.json").exists():
        seal = load_catalog(SEAL / "catalog.json")
        seal_texts = queries(SEAL / "queries.jsonl", args.queries)
        for name in ("default", "small-model"):
            profile = DEFAULT_PROFILE if name == "default" else load_profile(name)
            bench(f"seal_tools (4,076 tools), {name}", seal, profile, seal_texts)
    script = load_script(REPO / "catalogs" / "sessions" / "tool-search.yaml")
    session = Session(demo, load_profile("tool-search"), script.query or "")
    t = time.perf_counter()
    session.run(script.calls)
    per_step = (time.perf_counter() - t) / len(script.calls)
    print(f"{'session tool-search.yaml, per step':<52} {per_step * 1000:8.1f} ms")


if __name__ == "__main__":
    main()
