"""What a search_tools answer costs the model, in characters and o200k_base tokens: the JSON
answer (the reference, measured in the same run) against the compact markdown of `serve
--answers compact`, in add mode (names and descriptions) and call mode (whole definitions),
on the demo catalog's labeled queries that find something.

    python benchmarks/answer_sizes.py
    python benchmarks/answer_sizes.py --queries 30
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from toolcat.catalog.load import load_catalog  # noqa: E402
from toolcat.providers.tokens import count_tokens  # noqa: E402
from toolcat.resolution.profile import Profile  # noqa: E402
from toolcat.serve.answers import markdown_answer  # noqa: E402
from toolcat.serve.gate import Gate  # noqa: E402
from toolcat.serve.proxy import ProxyGate  # noqa: E402
from toolcat.serve.server import definition_json  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--queries", type=int, default=50)
    args = parser.parse_args()
    catalog = load_catalog(REPO / "catalogs")
    profile = Profile(name="fast", scorer="bm25")
    gates = {"add": Gate(catalog, profile),
             "call": ProxyGate(catalog, profile, define=definition_json)}
    lines = (REPO / "catalogs" / "demo-queries.jsonl").read_text().splitlines()
    queries = [json.loads(line)["query"] for line in lines if line.strip()][:args.queries]
    figures: dict[tuple[str, str], list[tuple[int, int]]] = {}
    for query in queries:
        for mode, gate in gates.items():
            response: Any = gate.search(query).response
            if not response.get("found"):
                continue
            for form, text in (("json", json.dumps(response, ensure_ascii=False)),
                               ("compact", markdown_answer(response))):
                figures.setdefault((mode, form), []).append(
                    (len(text), count_tokens(text, "o200k_base")))
    count = len(figures[("call", "json")])
    print(f"search_tools answers on the demo catalog, {count} queries with results "
          "(medians; tokens o200k_base):")
    for mode in gates:
        chars, tokens = (statistics.median(f[i] for f in figures[(mode, "json")])
                         for i in (0, 1))
        print(f"  {mode} mode, reference (json): {chars:7.0f} chars {tokens:6.0f} tokens")
        c_chars, c_tokens = (statistics.median(f[i] for f in figures[(mode, "compact")])
                             for i in (0, 1))
        print(f"  {mode} mode, compact:          {c_chars:7.0f} chars {c_tokens:6.0f} tokens"
              f"  ({1 - c_tokens / tokens:.0%} fewer tokens)")


if __name__ == "__main__":
    main()
