"""How abstain15's rule (toolcat.search.uncovered) was chosen: for every request that reaches
it on the real-server halves and public sets given (a short request the other parts let
through, naming no listed service, with a fit under 8.5 nats), its best fit in nats, how much
nearer the words no tool has lie to their nearest kind than to every tool (`gap`), and the
strength of that kind and of the whole request's nearest kind in the catalog; then, for each
choice of FLOOR x GAP x STRENGTH, the requests for a missing service it would turn away more
and the needed ones it would lose (questions left out, as the rule leaves them). The rule
itself is replaced by a recorder while the features are read, so nothing is turned away by it.

    nice -n 10 python benchmarks/uncovered_choice.py dev fresh fresh2 ... metatool toolalpaca_eval
"""

from __future__ import annotations

import argparse
import itertools
import random
import sys
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from abstention_real import DATA, HALVES, PUBLIC, SMALL_TALK, queries

from toolcat.catalog.load import load_catalog
from toolcat.search import build_scorer, default_scorer, uncovered
from toolcat.search.abstain import shipped_off_catalog, shows_nothing
from toolcat.search.hybrid import HybridScorer
from toolcat.search.pick import MIN_SCORE

RECORDED: dict[str, dict[str, Any]] = {}


def record(self: HybridScorer, request: str, vector: np.ndarray, nearest: str) -> None:
    """In place of HybridScorer._uncovered: the rule's features of `request`, turning none
    away."""
    model = shipped_off_catalog(self.embedder.ident)
    words = uncovered.subject_words(request, self.lexical)
    if not words or model is None or self._kinds is None or self._semantic is None:
        return
    of_words = self.embedder.query_vector(" ".join(words))
    near = model.kind_vectors @ of_words
    kind, whole = int(near.argmax()), int((model.kind_vectors @ vector).argmax())
    RECORDED[request] = {
        "gap": float(near[kind] - (self._semantic.vectors @ of_words).max()),
        "strength": float(max(self._kinds.strength[kind], self._kinds.strength[whole])),
        "question": uncovered.asks_a_question(request)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("names", nargs="+", choices=(*HALVES, *PUBLIC))
    args = parser.parse_args()
    uncovered.FLOOR = 8.5  # read every request the word rules read
    HybridScorer._uncovered = record  # type: ignore[method-assign,assignment]
    rows: list[tuple[str, str, bool, dict[str, Any]]] = []
    for name in args.names:
        if name in PUBLIC:
            tools = list(load_catalog(PUBLIC[name] / "catalog.json").tools)
            asked = queries(PUBLIC[name] / "queries.jsonl")
            random.Random(0).shuffle(asked)
            asked = asked[:300]
            labels = ["needed"] * len(asked)
        else:
            tools = list(load_catalog(DATA / f"{name}-catalog.json").tools)
            needed = queries(DATA / f"{name}-queries.jsonl")
            off = queries(DATA / f"{name}-offcatalog.jsonl")
            asked = needed + off
            labels = ["needed"] * len(needed) + ["talk"] * SMALL_TALK \
                + ["off"] * (len(off) - SMALL_TALK)
        scorer = build_scorer(default_scorer(len(tools))[0], tools)
        assert isinstance(scorer, HybridScorer), "the default scorer is hybrid"
        RECORDED.clear()
        best = np.array([max(s) for s in scorer.scores_many(asked)])
        before = shows_nothing(best, MIN_SCORE,
                               [r is not None for r in scorer.away_reasons(asked)])
        read = list(RECORDED)
        nats = dict(zip(read, scorer.evidence(read).max(axis=1).tolist(), strict=True)) \
            if read else {}
        for request, label, away in zip(asked, labels, before, strict=True):
            found = RECORDED.get(request)
            rows.append((name, label, bool(away),
                         {} if found is None else {**found, "nats": nats[request]}))
        print(f"{name}: {len(read)} requests read", flush=True)
    for floor, gap, strength in itertools.product((5.0, 6.0, 7.0, 8.5), (0.1, 0.15, 0.2, 0.25),
                                                  (0.2, 0.3, 0.4)):
        more = lost = 0
        for _, label, away, f in rows:
            if not away and f and not f["question"] and f["nats"] < floor \
                    and f["gap"] > gap and f["strength"] < strength:
                more += label == "off"
                lost += label == "needed"
        print(f"FLOOR {floor} GAP {gap} STRENGTH {strength}: missing services +{more}, "
              f"needed -{lost}")


if __name__ == "__main__":
    main()
