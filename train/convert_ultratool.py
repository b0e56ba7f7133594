"""Convert UltraTool's English requests, as GNN4TaskPlan reformatted them, into benchdata's
layout: `catalog.json` (the 260 tools of its tool graph, each with its description and
domains) and `queries.jsonl` (each user request with the tools its solution calls, two or
more). UltraTool states no licence (GNN4TaskPlan's MIT covers its own work, not the data it
reformats), so the converted set is not committed: it is written outside the repository and
only measured by `train/tool_model.py --measured DIR`, never trained on.

    python train/convert_ultratool.py /path/to/GNN4TaskPlan /work/cache-model/data/ultratool
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from written import write_set  # train/written.py: run as `python train/<this file>`

FOLDER = "data/ultratool"


def show(repo: Path, path: str) -> str:
    return subprocess.run(["git", "--git-dir", str(repo), "show", f"HEAD:{path}"],
                          check=True, capture_output=True, text=True).stdout


def main(repo: Path, out: Path) -> None:
    nodes = json.loads(show(repo, f"{FOLDER}/tool_desc.json"))["nodes"]
    tools = {node["id"]: {"name": node["id"],
                          "description": re.sub(r"\s+", " ", str(node["desc"])).strip(),
                          "parameters": {"type": "object", "properties": {}},
                          "tags": sorted(node.get("domain", []))} for node in nodes}
    queries = []
    for line in show(repo, f"{FOLDER}/data.json").splitlines():
        if not line.strip():
            continue
        row = json.loads(line)
        relevant = {node["task"] for node in row["task_nodes"]} & tools.keys()
        if relevant:
            queries.append({"id": row["id"], "query": row["user_request"].strip(),
                            "relevant": sorted(relevant)})
    write_set(out, tools.values(), queries)


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
