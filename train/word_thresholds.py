"""Refit the word-level thresholds of toolcat.search.verbs for an embedding model.

NEAR (a request's verb mapped to a catalog's verb), CLASS_NEAR and CLASS_MARGIN (a verb read as
a group of the action table) were chosen on the dev half with the base model, by no script.
Here they are refitted for another model by agreement: over the real-server halves' requests
whose verb the table lacks (`CatalogVerbs.asked`), both sides encoded by the model's request
encoder as toolcat encodes them, the grid's values whose decisions (`mapped`, `classified`)
agree most with the base model's at the shipped values. Only halves no measurement reports on
are read (HALVES): heldout, fresh7 and fresh8, the halves measured at the start and end of a
round, never.

    nice -n 10 python train/word_thresholds.py --model minilm-tools \\
        --out train/results-word-thresholds.json
"""

from __future__ import annotations

import argparse
import itertools
import json
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
REAL = ROOT / "benchmarks" / "data" / "real-servers"
HALVES = ("dev", "fresh", "fresh2", "fresh3", "fresh4", "fresh5", "fresh6", "fresh9", "fresh10")
NEARS = (0.46, 0.48, 0.5, 0.52, 0.54, 0.56, 0.58, 0.6)
CLASS_NEARS = (0.45, 0.48, 0.5, 0.52, 0.55)
CLASS_MARGINS = (0.03, 0.05)


def main() -> None:
    import sys

    sys.path.insert(0, str(ROOT))
    import toolcat.search.verbs as verbs
    from toolcat.catalog.load import load_catalog
    from toolcat.search.embeddings import BASE_MODEL, load_embedder

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", default="minilm-tools")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    cases = []
    for half in HALVES:
        catalog = load_catalog(str(REAL / f"{half}-catalog.json"))
        found = verbs.CatalogVerbs(catalog.tools)
        for line in (REAL / f"{half}-queries.jsonl").read_text(encoding="utf-8").splitlines():
            if line.strip() and found.asked(text := json.loads(line)["query"]):
                cases.append((found, text))
    shipped = (verbs.NEAR, verbs.CLASS_NEAR, verbs.CLASS_MARGIN)

    def decisions(model: str, values: tuple[float, float, float]) -> list[Any]:
        embedder = load_embedder(model)
        verbs.NEAR, verbs.CLASS_NEAR, verbs.CLASS_MARGIN = values
        verbs._GROUPS.clear()
        out = []
        for catalog_verbs, text in cases:
            catalog_verbs._last = None
            catalog_verbs._vectors = {}  # the catalog's verbs, encoded again
            out.append((catalog_verbs.mapped(text, embedder),
                        catalog_verbs.classified(text, embedder)))
        return out

    try:
        reference = decisions(BASE_MODEL, shipped)
        grid = []
        for values in itertools.product(NEARS, CLASS_NEARS, CLASS_MARGINS):
            found = decisions(args.model, values)
            grid.append({"near": values[0], "class_near": values[1], "class_margin": values[2],
                         "agree": sum(a == b for a, b in zip(found, reference, strict=True)),
                         "mapped": sum(m is not None for m, _ in found),
                         "classified": sum(c is not None for _, c in found)})
    finally:
        verbs.NEAR, verbs.CLASS_NEAR, verbs.CLASS_MARGIN = shipped
    grid.sort(key=lambda row: -row["agree"])
    report = {"model": args.model, "halves": HALVES, "requests": len(cases),
              "base model": {"mapped": sum(m is not None for m, _ in reference),
                             "classified": sum(c is not None for _, c in reference)},
              "best": grid[0], "grid": grid}
    print(json.dumps({k: v for k, v in report.items() if k != "grid"}), flush=True)
    args.out.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
