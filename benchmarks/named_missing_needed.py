"""The requests that need a tool and name, in a service's slot, a service their catalog never
mentions (toolcat.search.services.naming, CatalogMentions): what a rule that turns such a
request away whatever its fit would lose, read without the model (the names and the
catalog's text only). Every request of the labeled public sets is read (not a sample), and
the needed requests of the real-server halves named (never heldout, fresh7, fresh8); with
`--offcatalog`, the halves' requests for a missing service too, for what it would catch.

    nice -n 5 python benchmarks/named_missing_needed.py --halves dev fresh fresh2 \
        --sets metatool toolalpaca_eval bfcl_v4 seal_tools --offcatalog
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from abstention_real import DATA, HALVES, PUBLIC, SMALL_TALK, queries

from toolcat.catalog.load import load_catalog
from toolcat.search.abstain import without_quotes
from toolcat.search.services import CatalogMentions, naming

MEASURE = ("heldout", "fresh7", "fresh8")  # the halves held out: never read here


def missing(requests: list[str], mentions: CatalogMentions) -> list[tuple[str, list[str]]]:
    """Each of `requests` that names in a service's slot a service no tool mentions, with
    those services."""
    found = []
    for request in requests:
        names = [s for s, strong in naming(request, without_quotes).items()
                 if strong and not mentions.mentions(s)]
        if names:
            found.append((request, names))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--halves", nargs="*", default=(),
                        choices=[h for h in HALVES if h not in MEASURE])
    parser.add_argument("--sets", nargs="*", choices=tuple(PUBLIC), default=())
    parser.add_argument("--offcatalog", action="store_true",
                        help="the halves' requests for a missing service too")
    args = parser.parse_args()
    groups = [(f"{half} needed", DATA / f"{half}-catalog.json",
               queries(DATA / f"{half}-queries.jsonl")) for half in args.halves]
    if args.offcatalog:
        groups += [(f"{half} off-catalog", DATA / f"{half}-catalog.json",
                    queries(DATA / f"{half}-offcatalog.jsonl")[SMALL_TALK:])
                   for half in args.halves]
    groups += [(name, PUBLIC[name] / "catalog.json", queries(PUBLIC[name] / "queries.jsonl"))
               for name in args.sets]
    for name, catalog, asked in groups:
        mentions = CatalogMentions(list(load_catalog(catalog).tools))
        found = missing(asked, mentions)
        print(f"{name}: {len(found)} of {len(asked)} name a missing service in a slot",
              flush=True)
        for request, names in found:
            print(f"  {len(request.split())} words {names}: {request[:160]}")


if __name__ == "__main__":
    main()
