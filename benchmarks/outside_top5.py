"""How many development requests two readings of a tool's text could reach.

`enums` (the default): for each request of the real-server halves and each tool it needs,
the stems of the request that the tool's short enums (at most 8 strings, as 06cd554 read
them into BM25F's parameters field) state and nothing else of the tool does (its name,
description, title, parameters' names and descriptions): the most that reading enums as
evidence could add. `--acronyms`: each upper-case word of 2 to 5 letters of a request
(a plural "PRs" read as PR) that no tool's name, description or title states, and that is
the initials of 2 to 4 consecutive words of 3 letters or more some tool states ("PR": pull
request): how many tools spell it out, and whether a tool the request needs is one.
docs/ranking.md ("The needed tool outside the top 5") gives what each found and what the
enum change measured.

    python benchmarks/outside_top5.py                  # the development halves
    python benchmarks/outside_top5.py --acronyms
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
DATA = REPO / "benchmarks" / "data" / "real-servers"
sys.path.insert(0, str(REPO))

from toolcat.catalog.load import load_catalog  # noqa: E402
from toolcat.search.text import (  # noqa: E402
    parameter_texts,
    schema_parameters,
    stems,
    tool_title,
)

DEVELOPMENT = ("dev", "fresh", "fresh2", "fresh3", "fresh4", "fresh5", "fresh6", "fresh9",
               "fresh10", "fresh11", "fresh12", "fresh13", "fresh14", "fresh15", "fresh16",
               "fresh17")
MAX_CHOICES = 8


def choices(schema: Any) -> Iterator[str]:
    """The string values of every property's enum of at most MAX_CHOICES values."""
    for _, sub in schema_parameters(schema):
        values = sub.get("enum") if isinstance(sub, dict) else None
        if isinstance(values, list) and len(values) <= MAX_CHOICES:
            yield from (v for v in values if isinstance(v, str) and len(v) <= 40)


def needed_of(item: dict) -> set[str]:
    return {n.split(":")[-1] for n in set(item.get("relevant", [])).union(
        *item.get("relevant_groups", []))}


def acronyms(halves: list[str]) -> None:
    """Each acronym a request types that the catalog spells out (see the docstring)."""
    read = reached = 0
    for half in halves:
        tools = load_catalog(DATA / f"{half}-catalog.json").tools
        spelled: dict[str, set[str]] = {}  # initials -> the tools stating such words
        stated: set[str] = set()
        for tool in tools:
            for text in (tool.name, tool.description, tool_title(tool)):
                words = [w.lower() for w in re.findall(
                    r"[A-Za-z]+", re.sub(r"([a-z])([A-Z])", r"\1 \2", text))]
                stated.update(stems(" ".join(words)))
                for n in (2, 3, 4):
                    for i in range(len(words) - n + 1):
                        if all(len(w) > 2 for w in words[i:i + n]):
                            spelled.setdefault("".join(w[0] for w in words[i:i + n]),
                                               set()).add(tool.name)
        for line in (DATA / f"{half}-queries.jsonl").read_text(encoding="utf-8").splitlines():
            item = json.loads(line)
            for word in re.findall(r"\b([A-Z]{2,5})s?\b", item["query"]):
                lower = word.lower()
                if set(stems(lower)) & stated or lower not in spelled:
                    continue
                read += 1
                hit = bool(needed_of(item) & spelled[lower])
                reached += hit
                print(f"{half} {item['id']} {word}: {len(spelled[lower])} tools"
                      f"{', one needed' if hit else ''}  | {item['query'][:80]}")
    print(f"{read} acronyms the catalog spells out; a needed tool spells {reached} of them")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--halves", nargs="+", choices=DEVELOPMENT, default=DEVELOPMENT)
    parser.add_argument("--acronyms", action="store_true",
                        help="count the acronyms the catalogs spell out instead")
    args = parser.parse_args()
    if args.acronyms:
        acronyms(args.halves)
        return
    requests = reached = with_enums = size = 0
    for half in args.halves:
        tools = {t.name: t for t in load_catalog(DATA / f"{half}-catalog.json").tools}
        size += len(tools)
        with_enums += sum(1 for t in tools.values() if next(choices(t.parameters), None))
        for line in (DATA / f"{half}-queries.jsonl").read_text(encoding="utf-8").splitlines():
            item = json.loads(line)
            asked = set(stems(item["query"]))
            needed = needed_of(item)
            requests += 1
            for name in sorted(needed):
                tool = tools.get(name)
                if tool is None:
                    continue
                said = set(stems(" ".join([tool.name, tool.description, tool_title(tool)] + [
                    f"{n} {d}" for n, d in parameter_texts(tool.parameters)])))
                only = (set(stems(" ".join(choices(tool.parameters)))) - said) & asked
                if only:
                    reached += 1
                    print(f"{half} {item['id']} {name}: {' '.join(sorted(only))}"
                          f"  | {item['query'][:80]}")
                    break
    print(f"{requests} requests; {reached} need a tool whose short enums alone state one of "
          f"their words; {with_enums} of {size} tools have a short enum")


if __name__ == "__main__":
    main()
