"""What the real requests for a missing service (train/real_pairs.py) do to the off-catalog
model, fitted in several ways and measured on halves the fits never saw: run by
`train/abstention.py --study` (docs/search.md, abstain7), which builds the public material as
for the shipped fit and calls `study`.

Fitted on the halves FITTED (each request against up to OTHERS other FITTED halves without its
service), measured on CHOSEN_ON (each against up to OTHERS other allowed halves without it):
for each fit, the needed requests of the CHOSEN_ON halves the off-catalog part turns away
beyond small talk, and the share of their pairs it turns away; at the shipped cover. Last,
the real material alone with a tenth feature, the words of weight no tool mentions, counted
(abstain7) and weighed by how specific they are (toolcat.search.unmentioned.specificity,
abstain8).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np
from abstention import KEPT, Catalogs, Example, fit, fit_logistic, matrix, real_material, small_talk
from real_pairs import ALLOWED, CHOSEN_ON, FITTED

COVER = 0.4  # the shipped fit's (train/results-abstention-minilm-tools.json)
UNMENTIONED_MOST = 2  # the tenth feature tried: words of weight no tool mentions, up to this


def threshold(off: Any, sets: list[tuple[list[Example], np.ndarray]]) -> float:
    """The least threshold under which at most 1 - KEPT of each set's needed requests
    (beyond those small talk turns away) are turned away."""
    bars = []
    for own, small in sets:
        scores = np.sort(off.score(matrix(off, own))[~small])[::-1]
        allowed = int(np.floor(len(own) * (1 - KEPT))) - int(small.sum())
        bars.append(float(scores[max(allowed, 0)]) if allowed < len(scores) else -np.inf)
    return max(bars)


def weighted(base: Any, sets: dict[str, tuple[list[Example], list[Example]]]) -> Any:
    """The logistic model fitted with each of `sets` weighing the same (as fit does)."""
    xs, ys, ws = [], [], []
    for own, away in sets.values():
        mine, theirs = matrix(base, own), matrix(base, away)
        xs += [mine, theirs]
        ys += [np.zeros(len(mine)), np.ones(len(theirs))]
        ws += [np.full(len(mine), 1 / len(mine)), np.full(len(theirs), 1 / len(theirs))]
    weight = np.concatenate(ws)
    found, bias = fit_logistic(np.vstack(xs), np.concatenate(ys), weight * len(weight) / 2)
    return replace(base, weights=found, bias=bias)


def measured(label: str, off: Any, decision: Any,
             choose: dict[str, tuple[list[Example], list[Example]]],
             test: dict[str, Any]) -> None:
    """Print what `off` turns away on the chosen-on halves, and of the public sets' held-out
    requests that need a tool (both parts together, against their own catalog)."""
    parts = []
    for name, (own, away) in choose.items():
        lost = (off.score(matrix(off, own)) > off.threshold) & ~small_talk(decision, own)
        caught = float(np.mean(off.score(matrix(off, away)) > off.threshold))
        parts.append(f"{name}: needed turned away {int(lost.sum())} of {len(own)}, "
                     f"pairs {caught:.0%} of {len(away)}")
    public = [f"{name} {np.mean(small | (off.score(matrix(off, own)) > off.threshold)):.1%}"
              for name, (own, _, small) in test.items()]
    print(f"{label} (threshold {off.threshold:.3f}): " + "; ".join(parts)
          + "; public held-out needed turned away " + ", ".join(public), flush=True)


def unmentioned_feature(catalogs: Catalogs, examples: list[Example], weighed: bool
                        ) -> np.ndarray:
    """The words of weight no tool mentions, counted up to UNMENTIONED_MOST, or (`weighed`)
    weighed by how specific each is (toolcat.search.unmentioned.specificity)."""
    from toolcat.search.abstain import without_quotes
    from toolcat.search.unmentioned import specificity, unmentioned

    found = [unmentioned(e.text, catalogs.built[e.catalog][0], without_quotes)
             for e in examples]
    return np.array([[specificity(words) if weighed else min(len(words), UNMENTIONED_MOST)]
                     for words in found], dtype=np.float64)


def tenth_feature(model: Any, catalogs: Catalogs,
                  fitted: dict[str, tuple[list[Example], list[Example]]],
                  choose: dict[str, tuple[list[Example], list[Example]]]) -> None:
    """The real material alone, fitted with the nine features and with a tenth (words of
    weight no tool mentions, counted, and weighed by how specific they are); threshold: 2 of
    the fitted needed requests may go."""
    base = replace(model, cover=COVER)

    def data(sets: dict[str, tuple[list[Example], list[Example]]], tenth: str
             ) -> tuple[np.ndarray, np.ndarray]:
        xs, ys = [], []
        for own, away in sets.values():
            for examples, label in ((own, 0), (away, 1)):
                x = matrix(base, examples)
                xs.append(np.hstack([x, unmentioned_feature(catalogs, examples,
                                                            tenth == "weighed")])
                          if tenth else x)
                ys.append(np.full(len(examples), label))
        return np.vstack(xs), np.concatenate(ys)

    for tenth in ("", "counted", "weighed"):
        x, y = data(fitted, tenth)
        weight = np.where(y == 1, 1 / (y == 1).sum(), 1 / (y == 0).sum())
        found, bias = fit_logistic(x, y.astype(np.float64), weight * len(weight) / 2)
        score = x @ found + bias
        bar = np.sort(score[y == 0])[-3]
        xc, yc = data(choose, tenth)
        seen = xc @ found + bias
        label = f"ten features ({tenth}, weight {found[-1]:.3f})" if tenth else "nine features"
        print(f"real material alone, {label}: fitted pairs "
              f"{np.mean(score[y == 1] > bar):.1%}; chosen-on halves' needed turned away "
              f"{int((seen[yc == 0] > bar).sum())} of {int((yc == 0).sum())}, pairs "
              f"{np.mean(seen[yc == 1] > bar):.1%}", flush=True)


def study(train: dict[str, Any], test: dict[str, Any], model: Any, decision: Any,
          catalogs: Catalogs, embedder: Any) -> None:
    """Print what each way of fitting the real material does on the CHOSEN_ON halves."""
    fitted = real_material(FITTED, catalogs, embedder, np.random.default_rng(39))
    every = real_material(CHOSEN_ON + FITTED, catalogs, embedder, np.random.default_rng(40))
    choose = {f"real:{h}": every[f"real:{h}"] for h in CHOSEN_ON}
    assert set(CHOSEN_ON + FITTED) <= set(ALLOWED)
    base = replace(model, cover=COVER)
    off, _, _ = fit(base, train)
    measured("the public sets alone", off, decision, choose, test)
    sets = {**train, **{k: (own, away, small_talk(decision, own))
                        for k, (own, away) in fitted.items()}}
    off, _, _ = fit(base, sets)
    measured("each fitted half a set of its own", off, decision, choose, test)
    own_all = [e for own, _ in fitted.values() for e in own]
    away_all = [e for _, away in fitted.values() for e in away]
    off, _, _ = fit(base, {**train, "real": (own_all, away_all,
                                             small_talk(decision, own_all))})
    measured("the fitted halves one set", off, decision, choose, test)
    public = [(own, small) for own, _, small in train.values()]
    halves = [(own, small_talk(decision, own)) for own, _ in fitted.values()]
    shaped = weighted(base, {**{k: (own, away) for k, (own, away, _) in train.items()},
                             **fitted})
    measured("their weight, threshold by the public sets and the halves pooled",
             replace(shaped, threshold=threshold(
                 shaped, [*public, (own_all, small_talk(decision, own_all))])),
             decision, choose, test)
    measured("their weight, threshold by the public sets and each half, no shift",
             replace(shaped, threshold=threshold(shaped, public + halves)), decision, choose, test)
    tenth_feature(model, catalogs, fitted, choose)
