"""Run scorers over a labeled query set: rankings, metrics, timing and token cost."""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from toolcat.bench.metrics import (
    abstention,
    group_qrels,
    mean_metrics,
    percentile,
    query_metrics,
)
from toolcat.bench.queries import LabeledQuery, QuerySet
from toolcat.bench.report import BenchReport, CatalogSummary, Latency, QueryOutcome, ScorerRun
from toolcat.errors import UsageError
from toolcat.model import Catalog
from toolcat.providers.tokens import DEFAULT_ENCODING, definition_text, definition_tokens
from toolcat.search import SCORERS, Scorer
from toolcat.search.choice import ScorerChoice
from toolcat.search.index import scorer_for
from toolcat.search.pick import MIN_SCORE
from toolcat.search.ranking import Abstaining, Batched, ranking_model

if TYPE_CHECKING:
    import numpy as np

    from toolcat.search.tuning import Tuning

DEFAULT_KS = (1, 3, 5, 10)
BATCH = 64            # queries per call of a scorer's batched `scores_many`
LATENCY_SAMPLES = 100  # single calls timed for the latency of a batched scorer

# progress(scorer, queries done, queries in all); done == 0 while the index is being built
Progress = Callable[[str, int, int], None]
# one query judged: its outcome, its ranking metrics (None when no tool fits), and the
# tokens of its top-k definitions for each k
_Judged = tuple[QueryOutcome, dict[str, float] | None, dict[int, int]]


def run_bench(
    catalog: Catalog,
    queries: QuerySet,
    scorers: Sequence[str],
    *,
    ks: Sequence[int] = DEFAULT_KS,
    min_score: float = 0.0,
    encoding: str = DEFAULT_ENCODING,
    unknown_labels: Iterable[str] = (),
    progress: Progress | None = None,
    tuning: Tuning | None = None,
    models: Sequence[str] = (),
) -> BenchReport:
    """Rank every query with every scorer and measure it; with a `tuning`, the tuned scorer
    too (`hybrid+tuning`, or `cascade+tuning` when the cascade is measured), after the
    others. With several embedding `models` (none: the default one), each semantic scorer
    runs once per model, named `scorer@model` (`run_names`); the tuned run uses the first.

    A scorer's ranking holds the tools scoring above 0 and at least `min_score` (what pick
    would offer), ties in catalog order; it abstains on a query when that leaves nothing.
    `queries` should have its labels resolved against `catalog` (see `resolve_labels`).

    Raises:
        UsageError: an unknown or repeated scorer, a bad cut-off or minimum score.
    """
    ks = check_ks(ks)
    check_scorers(scorers)
    if not 0 <= min_score <= 1:
        raise UsageError(f"--min-score must be between 0 and 1, not {min_score}")
    idents = [catalog.ident(t) for t in catalog.tools]
    tokens = [definition_tokens(t, encoding) for t in catalog.tools]
    kinds = query_kinds(catalog, queries, tuning) if tuning is not None else {}
    runs = tuple(
        _ScorerBench(name, catalog, queries, idents, tokens, ks, min_score, progress,
                     kinds=kinds, model=model, label=label).run()
        for name, model, label in _runs(scorers, models)
    )
    if tuning is not None:
        from toolcat.search.tuning import bench_base

        runs += (_ScorerBench(bench_base(scorers), catalog, queries, idents, tokens, ks,
                              min_score, progress, tuning, kinds,
                              model=models[0] if models else None).run(),)
    summary = CatalogSummary(tuple(catalog.sources), len(catalog.tools), sum(tokens),
                             _fingerprint(catalog))
    return BenchReport(summary, queries, runs, ks, min_score, encoding,
                       tuple(dict.fromkeys(unknown_labels)))


KINDS = ("recurring", "new tools", "no tool")


def _runs(scorers: Sequence[str], models: Sequence[str]
          ) -> list[tuple[str, str | None, str]]:
    """(scorer, model or None for the default, the run's name) of each run."""
    from toolcat.search import SEMANTIC

    out: list[tuple[str, str | None, str]] = []
    for name in scorers:
        if name in SEMANTIC and len(models) > 1:
            out += [(name, model, f"{name}@{model}") for model in models]
        else:
            out.append((name, models[0] if name in SEMANTIC and models else None, name))
    return out


def run_names(scorers: Sequence[str], models: Sequence[str]) -> list[str]:
    """The names of the runs of `scorers` with the embedding `models` (see run_bench)."""
    return [label for _, _, label in _runs(scorers, models)]


def check_models(models: Sequence[str]) -> None:
    repeated = sorted({m for m in models if models.count(m) > 1})
    if repeated:
        raise UsageError(f"model {', '.join(repeated)} is listed twice")


def query_kinds(catalog: Catalog, queries: QuerySet, tuning: Tuning) -> dict[str, str]:
    """Query id -> kind, as the tuning sees it: "recurring" when a tool of each of its groups
    has usage in the tuning, "new tools" when a group has none, "no tool" when no tool fits.
    (A query's kind says what the tuning could know, not whether it saw the query.)"""
    from toolcat.search.tuning import match

    used = {catalog.ident(catalog.tools[i]) for i in match(tuning, catalog.tools).active}
    return {q.id: "no tool" if not q.needs_tool else
            "recurring" if all(set(g) & used for g in q.groups) else "new tools"
            for q in queries}


def check_ks(ks: Sequence[int]) -> tuple[int, ...]:
    """Cut-offs sorted and unique; each a whole number of at least 1."""
    if not ks:
        raise UsageError("give at least one cut-off k")
    for k in ks:
        if isinstance(k, bool) or not isinstance(k, int) or k < 1:
            raise UsageError(f"a cut-off k must be a whole number of at least 1, not {k!r}")
    return tuple(sorted(set(ks)))


def check_scorers(names: Sequence[str]) -> None:
    if not names:
        raise UsageError(f"give at least one scorer; known: {', '.join(SCORERS)}")
    for name in names:
        if name not in SCORERS:
            raise UsageError(f"unknown scorer '{name}'; known: {', '.join(SCORERS)}")
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        raise UsageError(f"scorer {', '.join(repeated)} is listed twice")


def _fingerprint(catalog: Catalog) -> str:
    digest = hashlib.sha256()
    for tool in catalog.tools:
        digest.update(tool.qualified_name.encode())
        digest.update(definition_text(tool).encode())
    return digest.hexdigest()[:16]


def _floats(scores: Any) -> np.ndarray:
    """One score per tool as an array: a query's tools are ordered by numpy, not a Python
    loop over the catalog (43,000 tools a query)."""
    import numpy as np

    return np.asarray(scores, dtype=np.float64)


class _ScorerBench:
    """One scorer over the query set (a class only to share the loop's many inputs)."""

    def __init__(self, name: str, catalog: Catalog, queries: QuerySet, idents: list[str],
                 tokens: list[int], ks: tuple[int, ...], min_score: float,
                 progress: Progress | None, tuning: Tuning | None = None,
                 kinds: dict[str, str] | None = None, model: str | None = None,
                 label: str | None = None) -> None:
        self.scorer = name  # what is built; reported as `name+tuning` when tuned
        choice = ScorerChoice(name, tuning=tuning)  # `tuning`: one for this scorer (bench.plan)
        self.name = (label or name) if tuning is None else choice.name
        self.model = model  # the embedding model of a semantic scorer (None: the default)
        self.tuning = tuning
        self.catalog = catalog
        self.queries = queries
        self.queries_by_id = {q.id: q for q in queries}
        self.idents = idents
        self.priorities = [t.priority for t in catalog.tools]
        self._negated_priorities = -_floats(self.priorities)  # once per catalog
        self.tokens = tokens
        self.ks = ks
        self.min_score = min_score
        # pick's threshold, at which the false-accept rate is measured: --min-score when
        # given, else the tuning's fitted one (tuned run), else pick's default
        self.threshold = min_score or choice.floor(MIN_SCORE)
        self.away: set[str] = set()  # queries turned away: pick would show them no tool
        self.kinds = kinds or {}
        self.progress = progress or (lambda name, done, total: None)

    def run(self) -> ScorerRun:
        total = len(self.queries)
        self.progress(self.name, 0, total)
        started = time.perf_counter()
        scorer = self._build()
        build_s = time.perf_counter() - started
        batched = isinstance(scorer, Batched)
        started = time.perf_counter()
        results, timings = (self._batched(scorer, scorer.scores_many)
                            if isinstance(scorer, Batched) else self._one_by_one(scorer))
        outcomes = tuple(r[0] for r in results)
        self.away = self._turned_away(scorer, outcomes)
        run_s = time.perf_counter() - started
        # a query no tool fits is missed when it is not turned away (one definition)
        outcomes = tuple(o if self.queries_by_id[o.id].needs_tool
                         else replace(o, missed=o.id not in self.away) for o in outcomes)
        per_query = {o.id: m for o, m, _ in results if m is not None}
        return ScorerRun(
            name=self.name,
            metrics=self._metrics(outcomes, per_query),
            categories=self._categories(outcomes, per_query),
            build_s=build_s,
            run_s=run_s,
            latency=Latency(percentile(timings, 50) * 1000, percentile(timings, 95) * 1000,
                            len(timings)),
            tokens={k: sum(r[2][k] for r in results) / len(results) for k in self.ks},
            outcomes=outcomes,
            batched=batched,
            kinds=self._by_kind(outcomes, per_query),
            model=ranking_model(scorer),
        )

    def _turned_away(self, scorer: Scorer, outcomes: Sequence[QueryOutcome]) -> set[str]:
        """The queries pick would show no tool (`shows_nothing`, the definition pick, serve
        and tune share): their best score is under pick's threshold, or the abstention (the
        tuning's, else the model's zero-shot one) turns them away (unless --min-score is
        given: then pick applies that threshold alone)."""
        import numpy as np

        from toolcat.search.abstain import shows_nothing

        best = np.array([o.ranking[0][1] if o.ranking else -np.inf for o in outcomes])
        away = np.zeros(len(outcomes), dtype=bool)
        if not self.min_score and isinstance(scorer, Abstaining):
            shown = [i for i, o in enumerate(outcomes) if o.ranking]
            texts = [self.queries_by_id[outcomes[i].id].text for i in shown]
            for i, turned in zip(shown, scorer.turned_away_many(texts) if texts else [],
                                 strict=True):
                away[i] = turned
        return {o.id for o, no in zip(outcomes, shows_nothing(best, self.threshold, away),
                                      strict=True) if no}

    def _build(self) -> Scorer:
        """From the persisted index when the catalog was seen before (scorer_for); a benchmark
        measures the scorer itself, so the embeddings are computed whatever the size."""
        options = {} if self.model is None else {"model": self.model}
        return scorer_for(self.scorer, self.catalog, tuning=self.tuning, embeddings="now",
                          **options)

    def _one_by_one(self, scorer: Scorer) -> tuple[list[_Judged], list[float]]:
        """Every query through `scores`, each call timed."""
        results, timings = [], []
        for query in self.queries:
            began = time.perf_counter()
            scores = scorer.scores(query.text)
            timings.append(time.perf_counter() - began)
            results.append(self._judge(query, _floats(scores)))
            self.progress(self.name, len(results), len(self.queries))
        return results, timings

    def _batched(self, scorer: Scorer, batch: Callable[[list[str]], Iterable[Any]]
                 ) -> tuple[list[_Judged], list[float]]:
        """Every query through `scores_many`, and up to LATENCY_SAMPLES single calls timed:
        latency is what one request waits, which a batch does not show."""
        queries = list(self.queries)
        total = len(queries)
        judged: dict[int, _Judged] = {}
        # texts of similar length batch together: a neural encoder pads every text of a
        # batch to the longest one, so mixed lengths cost it two to three times as much
        by_length = sorted(range(total), key=lambda i: len(queries[i].text))
        for first in range(0, total, BATCH):
            chunk = by_length[first:first + BATCH]
            rows = batch([queries[i].text for i in chunk])
            for i, scores in zip(chunk, rows, strict=True):
                judged[i] = self._judge(queries[i], _floats(scores))
            self.progress(self.name, len(judged), total)
        timings = []
        for query in queries[::max(1, total // LATENCY_SAMPLES)][:LATENCY_SAMPLES]:
            began = time.perf_counter()
            scorer.scores(query.text)
            timings.append(time.perf_counter() - began)
        return [judged[i] for i in range(total)], timings

    def _judge(self, query: LabeledQuery, scored: np.ndarray) -> _Judged:
        import numpy as np

        floor = self.min_score
        # the rule of toolcat.search.rank: nothing at 0, nothing under the floor, equal
        # scores by priority (higher first), then catalog order
        hits = np.flatnonzero((scored > 0) & (scored >= floor))
        order: list[int] = hits[np.lexsort((hits, self._negated_priorities[hits],
                                            -scored[hits]))].tolist()
        ranking = [self.idents[i] for i in order]
        depth = self.ks[-1]
        cost = {k: sum(self.tokens[i] for i in order[:k]) for k in self.ks}
        top = tuple(zip([self.idents[i] for i in order[:depth]],
                        scored[order[:depth]].tolist(), strict=True))
        if not query.needs_tool:
            return QueryOutcome(query.id, top, (), bool(ranking), cost[depth]), None, cost
        values = query_metrics(set(group_qrels(query.groups, ranking)), ranking, self.ks)
        position = {name: p for p, name in enumerate(ranking, 1)}
        ranks = tuple(min((position[n] for n in group if n in position), default=None)
                      for group in query.groups)
        missed = values[f"recall@{depth}"] < 1
        return QueryOutcome(query.id, top, ranks, missed, cost[depth]), values, cost

    def _metrics(self, outcomes: Sequence[QueryOutcome],
                 per_query: dict[str, dict[str, float]]) -> dict[str, float | None]:
        values: dict[str, float | None] = dict(mean_metrics(per_query.values()))
        if any(not self.queries_by_id[o.id].needs_tool for o in outcomes):
            qrels = {o.id: dict.fromkeys(self.queries_by_id[o.id].relevant, 1)
                     for o in outcomes}
            values.update(abstention(qrels, self.away))
        return values

    def _by_kind(self, outcomes: Sequence[QueryOutcome],
                 per_query: dict[str, dict[str, float]]) -> dict[str, dict[str, Any]]:
        out = {}
        for kind in KINDS:
            members = [o for o in outcomes if self.kinds.get(o.id) == kind]
            if members:
                out[kind] = {"queries": len(members),
                             "metrics": self._metrics(members, {o.id: per_query[o.id]
                                                                for o in members
                                                                if o.id in per_query})}
        return out

    def _categories(self, outcomes: Sequence[QueryOutcome],
                    per_query: dict[str, dict[str, float]]) -> dict[str, dict[str, Any]]:
        if not self.queries.has_categories:
            return {}
        groups: dict[str, list[QueryOutcome]] = {}
        for outcome in outcomes:
            category = self.queries_by_id[outcome.id].category
            groups.setdefault("(none)" if category is None else category, []).append(outcome)
        return {
            name: {"queries": len(members),
                   "metrics": self._metrics(members, {o.id: per_query[o.id] for o in members
                                                      if o.id in per_query})}
            for name, members in groups.items()
        }
