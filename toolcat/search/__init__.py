"""Search and pick: SCORERS maps the name a user types to a scorer factory.

A factory takes the tools to index (and scorer options as keywords) and returns a Scorer.
Scorer modules are imported when a scorer is built, so importing this package stays light
(RE2, rapidfuzz and the stemmer load with the scorers that use them; numpy and torch only
with `semantic` and `hybrid`).

Imports only rooms below it (catalog, define, config, source, languages, cjk); see
docs/architecture.md.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from toolcat.errors import UsageError
from toolcat.model import Tool
from toolcat.search.ranking import Scored, Scorer, Staged, rank, score_many


def _lazy(module: str, cls: str) -> Callable[..., Scorer]:
    """A factory that imports the scorer's module when it is first used."""

    def factory(tools: Sequence[Tool], **options: Any) -> Scorer:
        scorer_class = getattr(importlib.import_module(module), cls)
        _check(scorer_class, options)
        scorer: Scorer = scorer_class(tools, **options)
        return scorer

    factory.__qualname__ = factory.__name__ = cls
    factory.__doc__ = f"Build a {module}.{cls}."
    return factory


def _check(scorer_class: type[Scorer], options: dict[str, Any]) -> None:
    accepted = [p.name for p in inspect.signature(scorer_class).parameters.values()
                if p.kind is inspect.Parameter.KEYWORD_ONLY]
    unknown = sorted(set(options) - set(accepted))
    if unknown:
        takes = f"it takes {', '.join(accepted)}" if accepted else "it takes none"
        raise UsageError(f"the {scorer_class.name} scorer takes no option "
                         f"{', '.join(unknown)}; {takes}")


def check_options(name: str, options: dict[str, Any]) -> None:
    """Raise UsageError unless the scorer called `name` takes every one of `options`."""
    try:
        kind = SCORER_KINDS[name]
    except KeyError:
        raise UsageError(f"unknown scorer '{name}'; known: {', '.join(SCORERS)}") from None
    _check(getattr(importlib.import_module(kind.module), kind.cls), options)


@dataclass(frozen=True)
class ScorerKind:
    """Where a scorer lives and what it is: every list of scorers is derived from these."""

    module: str
    cls: str
    semantic: bool = False  # needs the `semantic` extra; takes --model and --device
    tunable: bool = False  # a tuning's usage evidence can be added to it (search.tuning)
    persisted: bool = False  # kept in the persisted index (search.index)
    stems: bool = False  # matches words by their stems (search highlights other forms of one)


SCORER_KINDS: dict[str, ScorerKind] = {
    "regex": ScorerKind("toolcat.search.regex", "RegexScorer"),
    "keyword": ScorerKind("toolcat.search.keyword", "KeywordScorer"),
    "fuzzy": ScorerKind("toolcat.search.fuzzy", "FuzzyScorer"),
    "bm25": ScorerKind("toolcat.search.bm25", "BM25Scorer", persisted=True, stems=True),
    "semantic": ScorerKind("toolcat.search.semantic", "SemanticScorer", semantic=True,
                           persisted=True, stems=True),
    "hybrid": ScorerKind("toolcat.search.hybrid", "HybridScorer", semantic=True, tunable=True,
                         persisted=True, stems=True),
    "cascade": ScorerKind("toolcat.search.cascade", "CascadeScorer", semantic=True,
                          tunable=True, persisted=True, stems=True),
    "relevance": ScorerKind("toolcat.search.relevance", "RelevanceScorer"),
}
SCORERS: dict[str, Callable[..., Scorer]] = {name: _lazy(kind.module, kind.cls)
                                             for name, kind in SCORER_KINDS.items()}
SEMANTIC = tuple(name for name, kind in SCORER_KINDS.items() if kind.semantic)
TUNABLE = tuple(name for name, kind in SCORER_KINDS.items() if kind.tunable)
PERSISTED = tuple(name for name, kind in SCORER_KINDS.items() if kind.persisted)
STEMMING = tuple(name for name, kind in SCORER_KINDS.items() if kind.stems)
LEXICAL_DEFAULT = "bm25"


def build_scorer(name: str, tools: Sequence[Tool], **options: Any) -> Scorer:
    """Index `tools` with the scorer called `name`.

    Raises:
        UsageError: no scorer has that name, or it does not take one of the options.
        MissingExtraError: the scorer needs the `semantic` extra.
    """
    try:
        factory = SCORERS[name]
    except KeyError:
        raise UsageError(f"unknown scorer '{name}'; known: {', '.join(SCORERS)}") from None
    return factory(tools, **options)


TUNED = "+tuning"  # how a scorer's name says that a tuning's evidence is added to it


def tuned_name(scorer: str) -> str:
    """What a scorer of TUNABLE is called with a tuning's evidence added."""
    return f"{scorer}{TUNED}"


def scorer_kind(name: str) -> ScorerKind | None:
    """The kind of the scorer a result names (`hybrid`, or `hybrid+tuning` for hybrid with a
    tuning's evidence), or None for a scorer of no registered kind (a function)."""
    return SCORER_KINDS.get(name.removesuffix(TUNED))


LARGE_CATALOG = 10_000  # tools; past this, encoding a whole catalog on a CPU takes 8+ minutes


def default_scorer(tools: int = 0) -> tuple[str, str]:
    """The most accurate scorer available offline for a catalog of `tools` tools (0: any
    size), and a one-line reason.

    `hybrid` beats every other scorer on every set in the benchmark data (docs/search.md);
    without the `semantic` extra, `bm25` is the best lexical scorer. Past LARGE_CATALOG tools
    the catalog's embeddings are not computed on the way to an answer: until `toolcat index`
    has computed them once, hybrid answers with its lexical stage and says so.
    """
    from toolcat.search.embeddings import DEFAULT_MODEL, semantic_available

    if semantic_available():
        if tools > LARGE_CATALOG:
            return "hybrid", (f"hybrid (BM25F + {DEFAULT_MODEL}) from the catalog's stored "
                              f"embeddings; past {LARGE_CATALOG:,} tools, words only until "
                              "`toolcat index` has computed them")
        return "hybrid", f"hybrid (BM25F + {DEFAULT_MODEL}) is the most accurate offline scorer"
    return LEXICAL_DEFAULT, ("bm25 is the most accurate lexical scorer; install the 'semantic' "
                             "extra for hybrid, which is more accurate")


def notice(scorer: Scorer) -> str | None:
    """Why `scorer` answers with words only for now (its lexical stage), or None."""
    return scorer.notice if isinstance(scorer, Staged) else None


__all__ = ["SCORERS", "SEMANTIC", "Scored", "Scorer", "build_scorer", "default_scorer", "notice",
           "rank", "score_many"]
