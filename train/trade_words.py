"""Build toolcat/search/lists/trade-words.tsv.gz: words that tool texts state together.

A network admin says "wifi", the tool says "wireless"; "forward port 8443" where it says NAT;
"bill the client" where it says invoice. Over tens of thousands of public tool texts, the
trade's words occur in the same tool's text far more often than chance. For each pair of word
stems (toolcat.search.text.stems: a tool's name, description, parameters' names and
descriptions) this counts the tools whose text holds both, and keeps a pair whose pointwise
mutual information is at least --pmi and whose tools number at least --support; for each word,
its --keep strongest associates (by PMI times the share of the word's tools that hold the other,
so a pair seen once in two rare texts does not outrank one seen in forty).

The corpus is tool texts only, never a request (`--list` prints its sources and counts):
- ../shared/benchdata: bfcl_v4 (Apache-2.0), seal_tools (Apache-2.0), metatool (MIT);
- train/data: toolbench (StableToolBench, Apache-2.0), apibank (API-Bank, Apache-2.0),
  restbench (RestGPT, MIT), toolalpaca_eval (ToolAlpaca, Apache-2.0): their catalogs only;
- catalogs/*.yaml and tests/data/poison/benign (toolcat's own, and MCP's reference servers);
- botocore's service models (Apache-2.0, the installed version): each AWS operation's name and
  documentation, tags stripped, as one tool;
- the catalogs of the real-server halves benchmarks/data/real-servers that are development
  halves (dev, fresh .. fresh6, fresh9 .. fresh16): tool texts only. The measuring halves
  heldout, fresh7 and fresh8 are never read, nor any fresh17 file. `--leave-out HALF ...`
  builds a table without those halves' catalogs too (what predicts a catalog it never saw).

    python train/trade_words.py                        # the shipped table
    python train/trade_words.py --leave-out fresh16 --out /tmp/no-fresh16.tsv.gz
"""

from __future__ import annotations

import argparse
import gzip
import html
import json
import math
import re
import sys
from collections import Counter, defaultdict
from collections.abc import Iterator
from datetime import date
from itertools import combinations
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from toolcat.catalog.load import load_catalog  # noqa: E402
from toolcat.search.text import parameter_texts, split_name, stem, terms  # noqa: E402

OUT = REPO / "toolcat" / "search" / "lists" / "trade-words.tsv.gz"
BENCHDATA = REPO.parent / "shared" / "benchdata"
REAL = REPO / "benchmarks" / "data" / "real-servers"
DEV_HALVES = ("dev", "fresh", "fresh2", "fresh3", "fresh4", "fresh5", "fresh6", "fresh9",
              "fresh10", "fresh11", "fresh12", "fresh13", "fresh14", "fresh15", "fresh16")
MEASURED = ("heldout", "fresh7", "fresh8")  # never read: their figures are the measure
_TAG = re.compile(r"<[^>]+>")
MAX_TERMS = 60  # a tool's distinct stems at most: a long manual page is not one job's words


def _text(name: str, description: str, parameters: Any) -> str:
    parts = [split_name(name), description]
    for pname, pdesc in parameter_texts(parameters):
        parts += [split_name(pname), pdesc]
    return " ".join(parts)


def _json_tools(path: Path, source: str) -> Iterator[tuple[str, str, str]]:
    for tool in json.loads(path.read_text(encoding="utf-8")):
        server = tool.get("server") or tool["name"]
        yield source, f"{source}/{server}", _text(tool["name"], tool.get("description") or "",
                                                  tool.get("parameters") or {})


def _catalog_tools(path: Path, source: str) -> Iterator[tuple[str, str, str]]:
    for tool in load_catalog(path, lenient=True).tools:
        yield (source, f"{source}/{tool.server or path.stem}",
               _text(tool.name, tool.description, tool.parameters or {}))


def _botocore() -> Iterator[tuple[str, str, str]]:
    import botocore.session

    session = botocore.session.get_session()
    loader = session.get_component("data_loader")
    for service in session.get_available_services():
        model = loader.load_service_model(service, "service-2")
        for name, operation in model.get("operations", {}).items():
            doc = html.unescape(_TAG.sub(" ", operation.get("documentation", "")))
            yield "botocore", f"aws/{service}", f"{split_name(name)} {doc}"


def tool_texts(leave_out: frozenset[str]) -> Iterator[tuple[str, str, str]]:
    """(source, server, text) for every tool of the corpus."""
    for name in ("bfcl_v4", "seal_tools", "metatool"):
        yield from _json_tools(BENCHDATA / name / "catalog.json", name)
    for name in ("toolbench", "apibank", "restbench", "toolalpaca_eval"):
        yield from _json_tools(REPO / "train" / "data" / name / "catalog.json", name)
    for path in [*sorted((REPO / "catalogs").glob("*.yaml")),
                 *sorted((REPO / "tests" / "data" / "poison" / "benign").iterdir())]:
        yield from _catalog_tools(path, "toolcat")
    yield from _botocore()
    for half in DEV_HALVES:
        if half not in leave_out:
            yield from _catalog_tools(REAL / f"{half}-catalog.json", f"real-{half}")


def associations(texts: list[tuple[str, str, str]], support: int, pmi: float, keep: int
                 ) -> tuple[dict[str, list[tuple[str, float]]], dict[str, str]]:
    """stem -> its `keep` strongest associates (stem, strength), as the module docstring
    says; and stem -> the word the corpus writes it as most often."""
    docs: dict[str, set[str]] = defaultdict(set)
    spelled: dict[str, Counter[str]] = defaultdict(Counter)
    for _, server, text in texts:
        found: dict[str, None] = {}
        for word in terms(text):
            if word.isascii() and word.isalpha() and len(word) > 2:
                own = stem(word)
                spelled[own][word] += 1
                found[own] = None
        docs[f"{server}\0{text[:200]}"].update(list(found)[:MAX_TERMS])  # repeated: once
    df: Counter[str] = Counter()
    for found_terms in docs.values():
        df.update(found_terms)
    pairs: Counter[tuple[str, str]] = Counter()
    for found_terms in docs.values():
        kept = sorted(t for t in found_terms if df[t] >= support)
        pairs.update(combinations(kept, 2))
    n = len(docs)
    table: dict[str, list[tuple[str, float]]] = defaultdict(list)
    for (a, b), both in pairs.items():
        if both < support:
            continue
        strength = math.log(both * n / (df[a] * df[b]))
        if strength < pmi:
            continue
        table[a].append((b, strength * both / df[a]))
        table[b].append((a, strength * both / df[b]))
    words = {own: forms.most_common(1)[0][0] for own, forms in spelled.items()}
    return ({word: sorted(found, key=lambda p: -p[1])[:keep] for word, found in table.items()},
            words)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--support", type=int, default=3)
    parser.add_argument("--pmi", type=float, default=1.0)
    parser.add_argument("--keep", type=int, default=10)
    parser.add_argument("--leave-out", nargs="*", default=[], choices=DEV_HALVES)
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--each-left-out", type=Path, metavar="DIR",
                        help="write DIR/HALF.tsv.gz for each development half, built without "
                             "that half's catalog (the leave-one-half-out measure)")
    parser.add_argument("--list", action="store_true", help="print the corpus' sources")
    args = parser.parse_args()
    texts = list(tool_texts(frozenset(args.leave_out)))
    counts = Counter(source for source, _, _ in texts)
    if args.list:
        for source, count in sorted(counts.items()):
            print(f"{source:<20} {count:>7} tools")
        print(f"{'all':<20} {len(texts):>7} tools")
        return
    if args.each_left_out:
        args.each_left_out.mkdir(parents=True, exist_ok=True)
        for half in DEV_HALVES:
            kept = [row for row in texts if row[0] != f"real-{half}"]
            write(args.each_left_out / f"{half}.tsv.gz", kept, args, [*args.leave_out, half])
        return
    write(args.out, texts, args, args.leave_out)


def write(path: Path, texts: list[tuple[str, str, str]], args: argparse.Namespace,
          left_out: list[str]) -> None:
    table, spelled = associations(texts, args.support, args.pmi, args.keep)
    with gzip.open(path, "wt", encoding="utf-8", compresslevel=9) as out:
        out.write(f"# built by train/trade_words.py on {date.today()} from {len(texts)} tool "
                  f"texts (--support {args.support} --pmi {args.pmi} --keep {args.keep}"
                  f"{' --leave-out ' + ' '.join(left_out) if left_out else ''})\n")
        for word in sorted(table):
            out.write(word + "\t" + " ".join(f"{spelled[other]}:{score:.2f}"
                                            for other, score in table[word]) + "\n")
    print(f"{len(table)} words, {path} {path.stat().st_size} bytes")


if __name__ == "__main__":
    main()
