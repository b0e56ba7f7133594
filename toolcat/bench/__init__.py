"""Measure tool selection on labeled query sets: scorers side by side, gates for CI.

Imports only rooms below it (search, providers, source); see docs/architecture.md.
"""

from toolcat.bench.queries import LabeledQuery, QuerySet, load_queries, resolve_labels
from toolcat.bench.report import BenchReport
from toolcat.bench.runner import DEFAULT_KS, run_bench

__all__ = ["DEFAULT_KS", "BenchReport", "LabeledQuery", "QuerySet", "load_queries",
           "resolve_labels", "run_bench"]
