"""How many development requests a reading of tools' enums or of acronyms could reach.

`enums` (the default): for each request of the real-server halves and each tool it needs,
the stems of the request that the tool's short enums (at most 8 strings, as 06cd554 read
them into BM25F's parameters field) state and nothing else of the tool does (its name,
description, title, parameters' names and descriptions): the most that reading enums as
evidence could add. `--acronyms`: each upper-case word of 2 to 5 letters of a request
(a plural "PRs" read as PR) that no tool's name, description or title states, and that is
the initials of 2 to 4 consecutive words of 3 letters or more some tool states ("PR": pull
request): how many tools spell it out, and whether a tool the request needs is one.
`--sketch` measures the acronym reading sketched and left out: a request's acronym that no
tool states, followed by the words that spell it where one phrase (in 2 tools or more) is at
least half of what the catalog's words with those initials say, scored by hybrid on the halves
where it rewrites a request. docs/ranking.md ("The needed tool outside the top 5") gives what
each found and what the enum change and the sketch measured.

    python benchmarks/outside_top5.py                  # the development halves
    python benchmarks/outside_top5.py --acronyms
    python benchmarks/outside_top5.py --sketch
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
DATA = REPO / "benchmarks" / "data" / "real-servers"
sys.path.insert(0, str(REPO))

from real_servers import measure  # noqa: E402

from toolcat.catalog.load import load_catalog  # noqa: E402
from toolcat.model import Tool  # noqa: E402
from toolcat.search.bm25 import BM25Index  # noqa: E402
from toolcat.search.text import (  # noqa: E402
    STOPWORDS,
    parameter_texts,
    schema_parameters,
    stems,
    tool_title,
)

DEVELOPMENT = ("dev", "fresh", "fresh2", "fresh3", "fresh4", "fresh5", "fresh6", "fresh9",
               "fresh10", "fresh11", "fresh12", "fresh13", "fresh14", "fresh15", "fresh16",
               "fresh17", "fresh18")
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


def spelled_out(tools: list[Tool]) -> tuple[dict[str, str], set[str]]:
    """The sketch's phrase for each initials (see the docstring), and BM25F's terms."""
    phrases: dict[str, Counter[str]] = {}
    for tool in tools:
        seen: set[tuple[str, str]] = set()
        for text in (tool.name, tool.description[:2000]):
            words = [w.lower() for w in re.findall(r"[A-Za-z]+", re.sub(
                r"([a-z])([A-Z])", r"\1 \2", text.replace("_", " ")))]
            for n in (2, 3):
                for i in range(len(words) - n + 1):
                    chunk = words[i:i + n]
                    if all(len(w) > 2 and w not in STOPWORDS for w in chunk):
                        key = ("".join(w[0] for w in chunk),
                               " ".join(w.rstrip("s") if len(w) > 3 else w for w in chunk))
                        if key not in seen:
                            seen.add(key)
                            phrases.setdefault(key[0], Counter())[key[1]] += 1
    spelled = {}
    for initials, counts in phrases.items():
        phrase, top = counts.most_common(1)[0]
        if top >= 2 and top >= 0.5 * sum(counts.values()):
            spelled[initials] = phrase
    return spelled, set(BM25Index.build(tools).terms)


def sketch(halves: list[str]) -> None:
    """The halves' figures with each request's acronyms read as the sketch reads them."""
    for half in halves:
        tools = list(load_catalog(DATA / f"{half}-catalog.json").tools)
        spelled, stated = spelled_out(tools)
        items = [json.loads(line) for line in
                 (DATA / f"{half}-queries.jsonl").read_text(encoding="utf-8").splitlines()]
        rewritten = 0
        for item in items:
            extra = [spelled[m.group(1).lower()] + ("s" if m.group(2) else "")
                     for m in re.finditer(r"\b([A-Z]{2,5})(s?)\b", item["query"])
                     if m.group(1).lower() in spelled
                     and not set(stems(m.group(1).lower())) & stated]
            if extra:
                rewritten += 1
                item["query"] = f"{item['query']} ({', '.join(extra)})"
                print(f"{half} {item['id']}: {item['query'][:100]}")
        if rewritten:
            figures = measure(tools, items, "hybrid")
            print(f"{half}: {rewritten} rewritten; first {figures['first']:.3f} top5 "
                  f"{figures['top5']:.3f} nDCG@10 {figures['ndcg@10']:.3f}")


def enums(halves: list[str]) -> None:
    """Each request a needed tool's short enums alone meet (see the docstring)."""
    requests = reached = with_enums = size = 0
    for half in halves:
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



def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--halves", nargs="+", choices=DEVELOPMENT, default=DEVELOPMENT)
    parser.add_argument("--acronyms", action="store_true",
                        help="count the acronyms the catalogs spell out instead")
    parser.add_argument("--sketch", action="store_true",
                        help="measure the acronym reading sketched and left out")
    args = parser.parse_args()
    (sketch if args.sketch else acronyms if args.acronyms else enums)(args.halves)


if __name__ == "__main__":
    main()
