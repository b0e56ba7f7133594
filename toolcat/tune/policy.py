"""Which tuning a command applies, and what it says about it.

A tuning comes from `--tuning FILE`, else from toolcat.yaml's `tuning:`. It applies only to the
scorers a tuning is for (`search.choice.takes_tuning`: hybrid, cascade); any other scorer
scores zero-shot, and the user is told the tuning was left out. A tuning that applies is always
named: one set in a configuration file must never change rankings unseen. Its warnings say
which tools it cannot help (changed or missing since it was learned) and whether it was learned
with another embedding model. The CLI only prints the notes and warnings these values carry.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from toolcat.model import Tool
from toolcat.search.tuning import Tuning


@dataclass(frozen=True)
class AppliedTuning:
    """The tuning to apply (None: none), and what to tell the user about it."""

    tuning: Tuning | None = None
    notes: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()


def find_tuning(option: Path | None, configured: Path | None) -> Tuning | None:
    """The tuning of `--tuning` (`option`), else the configuration's, else None.

    Raises:
        ConfigError: the file is not a readable tuning of a version this toolcat reads.
    """
    path = option if option is not None else configured
    if path is None:
        return None
    from toolcat.tune.file import load_tuning

    return load_tuning(path)


def applied(found: Tuning, what: str, tools: Sequence[Tool],
            model: str | None = None) -> AppliedTuning:
    """`found`, applied to `what` over `tools`, with a model of ident `model` (None: the
    default embedding model)."""
    from toolcat.search.embeddings import load_embedder
    from toolcat.search.tuning import match, warnings

    ident = load_embedder(model).ident  # names the model; its weights load on first use
    return AppliedTuning(found, (f"tuning: {found.label} applied to {what}",),
                         tuple(warnings(found, match(found, tools), ident)))


def for_scorer(found: Tuning | None, scorer: str | None, tools: Sequence[Tool],
               model: str | None = None) -> AppliedTuning:
    """`found` when `scorer` is one a tuning applies to; otherwise none, with a warning
    when a tuning was given."""
    if found is None:
        return AppliedTuning()
    from toolcat.search import TUNABLE
    from toolcat.search.choice import takes_tuning

    if not takes_tuning(scorer):
        return AppliedTuning(warnings=(
            f"a tuning applies to the {' and '.join(TUNABLE)} scorers; {scorer} scores "
            f"zero-shot ({found.label} is not applied)",))
    return applied(found, f"the {scorer} scorer", tools, model)


def for_profile(found: Tuning | None, profile_scorer: str | None,
                tools: Sequence[Tool]) -> AppliedTuning:
    """The tuning resolve, render, review and serve apply: `found` when the profile's scorer
    (its default: the most accurate scorer for the catalog's size) is one a tuning applies
    to: the scorer `choose_scorer` gives the resolver."""
    from toolcat.search.choice import choose_scorer

    return for_scorer(found, choose_scorer(profile_scorer or None, len(tools)).scorer, tools)
