"""What reading a docstring's block of arguments adds to the kinds of value tools take.

Python MCP servers (FastMCP) document their parameters in the tool's description ("Args:\n
indicator_type: One of: IPv4, IPv6, domain ..."), not in the schema, so `toolcat.search.values`
read from the schema alone could not see that `get_indicator_details` takes an IP address. For
each development half: how many tools have such a block, how many tools take a kind only through
it, and for each request that names a value, whether a tool it needs gains or loses the value
evidence (`Values.evidence`) when the block is read and defanged values are recognised.
docs/ranking.md ("fresh18's misses counted, and the values a docstring documents or a request
defangs") gives what it found and what the change measured.

    python benchmarks/documented_args.py                # the development halves
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from unittest import mock

REPO = Path(__file__).resolve().parent.parent
DATA = REPO / "benchmarks" / "data" / "real-servers"
sys.path.insert(0, str(REPO))

from toolcat.catalog.load import load_catalog  # noqa: E402
from toolcat.search import values  # noqa: E402

DEVELOPMENT = ("dev", "fresh", "fresh2", "fresh3", "fresh4", "fresh5", "fresh6", "fresh9",
               "fresh10", "fresh11", "fresh12", "fresh13", "fresh14", "fresh15", "fresh16",
               "fresh17", "fresh18")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--halves", nargs="+", choices=DEVELOPMENT, default=DEVELOPMENT)
    args = parser.parse_args()
    for half in args.halves:
        tools = list(load_catalog(DATA / f"{half}-catalog.json").tools)
        blocks = sum(1 for tool in tools if values.documented(tool.description))
        read = values.Values(tools)
        with mock.patch.object(values, "documented", lambda description: {}), \
                mock.patch.object(values, "_DEFANGED", re.compile("(?!)")):
            unread = values.Values(tools)
            before = unread.taken
            old_values = {line: values.request_values(json.loads(line)["query"])
                          for line in (DATA / f"{half}-queries.jsonl").read_text().splitlines()}
        after = read.taken
        more = sum(len(set(after.kinds.get(kind, ())) - set(before.kinds.get(kind, ())))
                   for kind in values.KINDS)
        print(f"{half}: {len(tools)} tools, {blocks} with a block of arguments, "
              f"{more} (tool, kind) pairs read only there")
        for line, old_named in old_values.items():
            item = json.loads(line)
            named = values.request_values(item["query"])
            if not named:
                continue
            new = read.evidence(item["query"])
            with mock.patch.object(values, "_DEFANGED", re.compile("(?!)")):
                old = unread.evidence(item["query"])
            needed = set(item.get("relevant", [])).union(*item.get("relevant_groups", [[]]))
            moved = [f"{tool.name} {old[i]:.2f}->{new[i]:.2f}"
                     for i, tool in enumerate(tools)
                     if (tool.name in needed or tool.qualified_name in needed)
                     and abs(new[i] - old[i]) > 1e-9]
            others = int((abs(new - old) > 1e-9).sum()) - len(moved)
            if moved or others or named != old_named:
                print(f"  {item['query'][:70]!r}: needed {moved or '-'}, "
                      f"{others} other tools moved")


if __name__ == "__main__":
    main()
