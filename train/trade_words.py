"""The trade's words in public tool texts: a study (docs/ranking.md, "The trade's words,
learned from tool texts: counted, built, measured, left out").

A network admin says "wifi", the tool says "wireless"; "forward port 8443" where it says NAT;
"bill the client" where it says invoice. Does a large corpus of tool texts put the two words
together? `count` answers for the first-place misses of the default on the development halves
(at 61adbd6) whose request has a word the expected tool's text lacks while a word of the same
meaning in the trade is there (PAIRS, read by hand from `benchmarks/real_servers.py --halves
dev fresh ... fresh6 fresh9 ... fresh16 --scorers hybrid --no-pick --misses`): how many tools
(and servers) state both, their pointwise mutual information, and where the trade's word ranks
among the word's associates. `table` writes the association table that commit ef9bcef read at
run time (reverted: the measured halves lost first places): for each word stem, its --keep
strongest associates among the stems of at least --support tools with a PMI of --pmi or more,
ranked by PMI times the share of the word's tools that hold the associate.

The corpus is tool texts only, never a request (`--list` prints its sources and counts):
- ../shared/benchdata: bfcl_v4 (Apache-2.0), seal_tools (Apache-2.0), metatool (MIT);
- train/data: toolbench (StableToolBench, Apache-2.0), apibank (API-Bank, Apache-2.0),
  restbench (RestGPT, MIT), toolalpaca_eval (ToolAlpaca, Apache-2.0): their catalogs only;
- catalogs/*.yaml and tests/data/poison/benign (toolcat's own, and MCP's reference servers);
- botocore's service models (Apache-2.0, the installed version): each AWS operation's name and
  documentation, tags stripped, as one tool of the service's server;
- the catalogs of the development halves of benchmarks/data/real-servers (dev, fresh ..
  fresh6, fresh9 .. fresh16): tool texts only. The measuring halves heldout, fresh7 and fresh8
  are never read, nor any fresh17 file. `--leave-out HALF ...` leaves out those halves'
  catalogs too; `table --each-left-out DIR` writes one table per development half without its
  catalog (what predicts a catalog the table never saw).

    python train/trade_words.py --list
    python train/trade_words.py count
    python train/trade_words.py table --out /tmp/trade-words.tsv.gz
    python train/trade_words.py table --each-left-out /tmp/loho
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

BENCHDATA = REPO.parent / "shared" / "benchdata"
REAL = REPO / "benchmarks" / "data" / "real-servers"
DEV_HALVES = ("dev", "fresh", "fresh2", "fresh3", "fresh4", "fresh5", "fresh6", "fresh9",
              "fresh10", "fresh11", "fresh12", "fresh13", "fresh14", "fresh15", "fresh16")
MEASURED = ("heldout", "fresh7", "fresh8")  # never read: their figures are the measure
_TAG = re.compile(r"<[^>]+>")
# (half, the request's word, the trade's word the expected tool's text states): one per miss
PAIRS = tuple(tuple(pair.split(":")) for pair in """
    dev:type:fill dev:mr:merge dev:comment:note dev:logged:authenticated dev:folder:directory
    fresh:automations:workflows fresh:alerting:monitors fresh:appointment:event
    fresh:plot:chart fresh:chat:messages fresh:typo:edit fresh:wipe:flush fresh2:rows:records
    fresh2:save:download fresh2:tick:close fresh2:rerun:trigger fresh3:changed:compare
    fresh3:kick:run fresh3:point:record fresh3:networks:vpc fresh3:alarming:problems
    fresh3:ack:acknowledge fresh3:coverage:measures fresh3:open:start fresh3:run:execute
    fresh3:copy:branch fresh4:box:vm fresh4:cert:certificate fresh4:cpu:metrics
    fresh4:audit:activity fresh4:problems:health fresh4:capacity:availability
    fresh4:push:manage fresh4:link:permissions fresh4:tab:sheet fresh4:pay:checkout
    fresh4:hold:pause fresh4:bug:issue fresh4:tell:comment fresh4:sign:approve
    fresh5:inbox:mail fresh5:line:rows fresh5:credentials:secrets fresh5:set:patch
    fresh5:bug:issue fresh5:prs:pull fresh5:seat:agent fresh5:throw:discard
    fresh5:problems:issues fresh5:print:logs fresh5:look:search fresh6:sev1:incident
    fresh6:follow:action fresh6:hold:pause fresh6:fire:resend fresh6:owes:receivables
    fresh6:swap:replace fresh6:margins:comments fresh6:bin:delete fresh6:green:success
    fresh6:back:rollback fresh6:run:executions fresh6:settled:resolves fresh9:trading:quote
    fresh9:friday:holiday fresh9:nightly:scheduled fresh9:move:migrate fresh9:run:execute
    fresh9:listing:offer fresh9:sale:offer fresh9:rated:standards fresh9:email:messages
    fresh9:skip:filter fresh9:password:vault fresh9:cut:revoke fresh9:back:restore
    fresh9:accessed:events fresh9:models:types fresh9:note:comment fresh9:ring:call
    fresh9:characters:usage fresh9:revoke:delete fresh9:check:lint fresh10:final:grade
    fresh10:marks:grade fresh10:nudge:message fresh10:pr:pull fresh10:clear:read
    fresh10:wipe:delete fresh10:read:visit fresh11:trash:delete fresh11:appt:event
    fresh11:take:unassign fresh11:room:conversation fresh11:back:trash
    fresh11:exception:crash fresh11:type:search fresh11:upload:deploy fresh11:disturb:status
    fresh11:helpdesk:tickets fresh11:pull:fetch fresh11:node:code fresh12:hrs:time
    fresh12:send:share fresh12:matter:project fresh12:fee:disbursement fresh12:bill:time
    fresh12:text:sms fresh12:meeting:appointment fresh12:parties:participants
    fresh12:calls:option fresh12:earn:revenue fresh12:slowest:longest fresh12:labels:schema
    fresh12:open:navigate fresh12:type:fill fresh13:terms:queries fresh13:email:campaign
    fresh13:pay:stk fresh14:warehouse:inventory fresh14:contact:record fresh14:give:assign
    fresh14:reset:replace fresh14:spin:rent fresh14:fresh:new fresh14:text:sms
    fresh15:wipe:clear fresh15:notifications:track fresh15:directive:legislation
    fresh15:line:voting fresh15:run:activity fresh15:many:statistics fresh15:buying:balances
    fresh16:block:firewall fresh16:wifi:wireless fresh16:forward:nat fresh16:hot:temperature
    fresh16:drop:remove fresh16:ip:dhcp fresh16:reviews:feedback fresh16:ack:acknowledge
    fresh16:plugged:forwarding fresh16:label:description fresh16:plate:tasks
    fresh16:tell:comment
""".split())
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
    parser.add_argument("what", choices=("count", "table"), nargs="?", default="count")
    parser.add_argument("--support", type=int, default=3)
    parser.add_argument("--pmi", type=float, default=1.0)
    parser.add_argument("--keep", type=int, default=10)
    parser.add_argument("--leave-out", nargs="*", default=[], choices=DEV_HALVES)
    parser.add_argument("--out", type=Path, help="where `table` writes (gzip'd TSV)")
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
    elif args.what == "count":
        count_pairs(texts, args.support)
    elif args.each_left_out:
        args.each_left_out.mkdir(parents=True, exist_ok=True)
        for half in DEV_HALVES:
            kept = [row for row in texts if row[0] != f"real-{half}"]
            write(args.each_left_out / f"{half}.tsv.gz", kept, args, [*args.leave_out, half])
    elif args.out:
        write(args.out, texts, args, args.leave_out)
    else:
        parser.error("table needs --out or --each-left-out")


def count_pairs(texts: list[tuple[str, str, str]], support: int) -> None:
    """For each of PAIRS: the tools and the servers that state both words, their PMI, and the
    trade's word's rank among the request word's associates (PMI times the share of the
    word's tools, as `table` ranks them); then how many pairs the corpus holds."""
    tools: dict[str, set[str]] = {}
    servers: dict[str, set[str]] = defaultdict(set)
    for _, server, text in texts:
        found = {s for s in (stem(w) for w in terms(text)) if s.isascii() and s.isalpha()}
        tools[f"{server}\0{text[:200]}"] = found
        servers[server] |= found
    held = Counter[str]()
    for level, docs in (("tool", tools), ("server", servers)):
        where: dict[str, set[int]] = defaultdict(set)
        rows = list(docs.values())
        for i, found in enumerate(rows):
            for term in found:
                where[term].add(i)
        n = len(rows)
        for half, word, trade in PAIRS:
            a, b = stem(word), stem(trade)
            both = len(where[a] & where[b])
            strength = math.log(both * n / (len(where[a]) * len(where[b]))) if both else -99.0
            rank = "-"
            if level == "tool" and where[a]:
                near: Counter[str] = Counter()
                for i in where[a]:
                    near.update(rows[i])
                scores = {t: math.log(c * n / (len(where[a]) * len(where[t]))) * c
                          / len(where[a]) for t, c in near.items() if c >= support and t != a}
                order = sorted((t for t in scores if scores[t] > 0), key=lambda t: -scores[t])
                rank = str(order.index(b) + 1) if b in order else "-"
                held["top 10"] += rank != "-" and int(rank) <= 10
            ok = both >= support and strength >= 1.0
            held[level] += ok
            print(f"{level:<6} {half:<8} {word:>14} -> {trade:<14} both {both:>4} "
                  f"PMI {strength:6.2f}{' held' if ok else '     '} rank {rank}")
    print(f"{len(PAIRS)} pairs; held (>= {support} of them, PMI >= 1): {held['tool']} by "
          f"tools, {held['server']} by servers; the trade's word among the request word's "
          f"10 strongest associates: {held['top 10']}")


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
