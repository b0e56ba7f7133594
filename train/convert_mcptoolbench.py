"""Convert MCPToolBench++'s single-call requests over MCP servers' tools (browser, file
system, finance, search) into benchdata's layout: `catalog.json` (every MCP tool offered to
any request, with its server) and `queries.jsonl` (each request with the tool its label calls
and the tools the label names as equally right). The repository states no licence, so the
converted set is not committed: it is written outside the repository and only measured by
`train/tool_model.py --measured DIR`, never trained on.

    python train/convert_mcptoolbench.py /path/to/MCPToolBenchPP /work/cache-model/data/mcptoolbench
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

from written import write_set  # train/written.py: run as `python train/<this file>`

FILES = ("data/browser/browser_0724_single_v3.json",
         "data/file_system/filesystem_0723_single.json",
         "data/finance/finance_0724_single_v3.json",
         "data/search/search_0725_single_v2.json")


def read(repo: Path, path: str) -> list[dict]:
    import json

    text = subprocess.run(["git", "--git-dir", str(repo), "show", f"HEAD:{path}"],
                          check=True, capture_output=True, text=True).stdout
    rows = json.loads(text)
    assert isinstance(rows, list)
    return rows


def literal(text: object) -> object:
    """The set's fields are Python literals written as strings (read, never run)."""
    return ast.literal_eval(text) if isinstance(text, str) else text


def main(repo: Path, out: Path) -> None:
    tools: dict[str, dict] = {}
    queries = []
    for path in FILES:
        for row in read(repo, path):
            servers = literal(row["mcp_tools_dict"])
            assert isinstance(servers, dict)
            server_of = {name: server for server, names in servers.items() for name in names}
            offered = literal(row["tools"])
            assert isinstance(offered, list)
            for tool in offered:
                description = re.sub(r"\s+", " ", str(tool.get("description", ""))).strip()
                tools.setdefault(tool["name"], {
                    "name": tool["name"], "description": description,
                    "parameters": tool.get("input_schema") or {"type": "object"},
                    "server": server_of.get(tool["name"], "mcp")})
            labels = literal(row["function_call_label"])
            assert isinstance(labels, list)
            relevant = {label["name"] for label in labels}
            relevant |= {same["name"] for label in labels for same in label["similar_tools"]}
            relevant &= tools.keys()
            if relevant:
                queries.append({"id": row["uuid"], "query": row["query"].strip(),
                                "relevant": sorted(relevant)})
    write_set(out, tools.values(), queries)


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
