"""How the words no tool mentions (toolcat.search.unmentioned) would turn requests away at
other values of its two settings: the Zipf rarity under which a word has weight (RARE) and
the best tool's evidence a request naming such a word needs (FLOOR, in nats of hybrid
evidence). Per half of benchmarks/data/real-servers (needed requests, small talk, requests for
a missing service) and per labeled public set (needed requests, a seeded sample), the count
turned away by the shipped abstention's other parts or by the rule at each setting.

    nice -n 10 python benchmarks/unmentioned_choice.py --halves dev fresh fresh2 fresh3 \\
        fresh4 fresh5 fresh6 --sets bfcl_v4 seal_tools metatool toolalpaca_eval
    nice -n 10 python benchmarks/unmentioned_choice.py --halves dev --model minilm-tools
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

from abstention_real import DATA, PUBLIC, SMALL_TALK, queries

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from toolcat.catalog.load import load_catalog  # noqa: E402
from toolcat.search import build_scorer, default_scorer  # noqa: E402
from toolcat.search import unmentioned as rule  # noqa: E402
from toolcat.search.abstain import without_quotes  # noqa: E402
from toolcat.search.hybrid import HybridScorer  # noqa: E402

RARES = (4.0, 4.5, 5.0, 9.0)  # 9: every word no tool has
FLOORS = (2.5, 2.75, 3.0, 3.25)  # nats (0.111, 0.143, 0.178, 0.216 as scores)
OWN = "nothing in this catalog mentions"  # the rule's own reasons: not counted as before


def rows(scorer: HybridScorer, asked: list[str]) -> list[tuple[bool, float, list[float]]]:
    """Per request: turned away by the other parts, its best evidence, and the Zipf
    frequencies of the words no tool has (every such word, whatever its rarity)."""
    reasons = scorer.away_reasons(asked)
    best = scorer.evidence(asked, cached=True).max(axis=1)
    out = []
    for text, reason, top in zip(asked, reasons, best, strict=True):
        words = rule.unmentioned(text, scorer.lexical, without_quotes)
        out.append((reason is not None and not reason.startswith(OWN), float(top),
                    [rule.zipf(w.lower(), "en") for w in words]))
    return out


def away(row: tuple[bool, float, list[float]], rare: float, floor: float) -> bool:
    before, top, zipf = row
    return before or (top < floor and any(z < rare for z in zipf))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--halves", nargs="*", default=())
    parser.add_argument("--sets", nargs="*", choices=tuple(PUBLIC), default=())
    parser.add_argument("--sample", type=int, default=300)
    parser.add_argument("--model")
    args = parser.parse_args()
    rule.RARE = 99.0  # `rows` reads every word no tool has, its rarity apart
    groups: dict[str, list[tuple[bool, float, list[float]]]] = {}
    options = {} if args.model is None else {"model": args.model}
    for half in args.halves:
        tools = list(load_catalog(DATA / f"{half}-catalog.json").tools)
        scorer = build_scorer(default_scorer(len(tools))[0], tools, **options)
        assert isinstance(scorer, HybridScorer)
        off = queries(DATA / f"{half}-offcatalog.jsonl")
        for kind, asked in (("needed", queries(DATA / f"{half}-queries.jsonl")),
                            ("small talk", off[:SMALL_TALK]),
                            ("missing service", off[SMALL_TALK:])):
            groups.setdefault(f"halves, {kind}", []).extend(rows(scorer, asked))
    for name in args.sets:
        tools = list(load_catalog(PUBLIC[name] / "catalog.json").tools)
        scorer = build_scorer(default_scorer(len(tools))[0], tools, **options)
        assert isinstance(scorer, HybridScorer)
        asked = queries(PUBLIC[name] / "queries.jsonl")
        random.Random(0).shuffle(asked)
        groups[f"{name}, needed"] = rows(scorer, asked[:args.sample])
    for label, found in groups.items():
        before = sum(r[0] for r in found)
        print(f"{label} ({len(found)}): turned away before {before}")
        for rare in RARES:
            print(f"  rare < {rare:g}: " + ", ".join(
                f"floor {floor:g} {sum(away(r, rare, floor) for r in found)}"
                for floor in FLOORS))


if __name__ == "__main__":
    main()
