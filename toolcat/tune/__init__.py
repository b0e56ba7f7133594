"""`toolcat tune`: learn from the requests a catalog really gets (labeled queries, call logs,
chat transcripts, the example requests of its tools) and say honestly how much it helps.

    usage = read_sources(catalog, ["queries.jsonl", "calls.jsonl"])
    material = prepare_material(catalog, usage)
    print(cross_validate(material, 5).to_json())   # before/after, never on a trained request
    save(learn(material), "tuning.json")

The tuning is applied at query time by `toolcat.search.tuning` (pick, search, resolve,
render and bench take `--tuning FILE`).

Imports only rooms below it (bench, search, source); see docs/architecture.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, cast

from toolcat.model import Catalog
from toolcat.tune.evaluation import CrossValidation, cross_validate
from toolcat.tune.file import dumps, load_tuning
from toolcat.tune.learn import learn
from toolcat.tune.material import Material, prepare
from toolcat.tune.usage import Usage, example_usage, read_usage


def read_sources(catalog: Catalog, paths: Sequence[str | Path], *,
                 topics: str | Path | None = None) -> Usage:
    """Every request of `paths` and the example requests of the catalog's tools (within
    their bounds, toolcat.tune.usage)."""
    read = Usage((), {})
    for path in paths:
        read = read + read_usage(path, catalog, topics=topics)
    return example_usage(catalog, others=len(read.requests)) + read


def prepare_material(catalog: Catalog, usage: Usage, **options: Any) -> Material:
    """Score the requests zero-shot once with the hybrid scorer (`options`: model, device,
    cache, progress), from the persisted index when the catalog was seen before."""
    from toolcat.search.hybrid import HybridScorer
    from toolcat.search.index import scorer_for

    return prepare(catalog, usage, cast(HybridScorer, scorer_for("hybrid", catalog,
                                                                 embeddings="now", **options)))


__all__ = ["CrossValidation", "Material", "Usage", "cross_validate", "dumps", "learn",
           "load_tuning", "prepare_material", "read_sources"]
