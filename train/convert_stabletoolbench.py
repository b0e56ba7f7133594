"""Convert StableToolBench's solvable queries (ToolBench's test instructions over RapidAPI
APIs) into benchdata's layout: `catalog.json` (one tool per API offered to any query, named by
its RapidAPI tool and API) and `queries.jsonl` (each query with its `relevant APIs`). Trained
on, split by tool, by `train/tool_model.py`.

    python train/convert_stabletoolbench.py /path/to/StableToolBench train/data/toolbench
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from written import write_set  # train/written.py: run as `python train/<this file>`

GROUPS = ("G1_category", "G1_instruction", "G1_tool", "G2_category", "G2_instruction",
          "G3_instruction")
KINDS = {"string", "integer", "number", "boolean", "array", "object"}


def read(repo: Path, path: str) -> object:
    """A JSON file of the repository's HEAD (a bare mirror or a work tree)."""
    text = subprocess.run(["git", "--git-dir", str(repo), "show", f"HEAD:{path}"],
                          check=True, capture_output=True, text=True).stdout
    return json.loads(text)


def name(tool_name: str, api_name: str) -> str:
    words = re.sub(r"[^A-Za-z0-9]+", "_", f"{tool_name} {api_name}").strip("_").lower()
    return words[:64]


def tool(api: dict) -> dict:
    """A RapidAPI API as a function: its tool's name and category lead the description, as
    ToolBench's own retriever reads them (many APIs' descriptions are a few words)."""
    own = re.sub(r"\s+", " ", str(api.get("api_description") or "")).strip()
    description = f"{api['tool_name']} ({api.get('category_name', '')}): {own or api['api_name']}"
    properties, required = {}, []
    for key in ("required_parameters", "optional_parameters"):
        for parameter in api.get(key) or []:
            if not isinstance(parameter, dict) or not parameter.get("name"):
                continue
            kind = str(parameter.get("type", "string")).lower()
            properties[parameter["name"]] = {
                "type": kind if kind in KINDS else "string",
                "description": str(parameter.get("description") or "").strip()}
            if key == "required_parameters":
                required.append(parameter["name"])
    return {"name": name(api["tool_name"], api["api_name"]), "description": description,
            "parameters": {"type": "object", "properties": properties, "required": required},
            "server": name(api["tool_name"], "")}


def main(repo: Path, out: Path) -> None:
    tools: dict[str, dict] = {}
    queries, seen = [], set()
    for group in GROUPS:
        rows = read(repo, f"solvable_queries/test_instruction/{group}.json")
        assert isinstance(rows, list)
        for row in rows:
            for api in row["api_list"]:
                made = tool(api)
                tools.setdefault(made["name"], made)
            relevant = {name(t, a) for t, a in row["relevant APIs"]} & tools.keys()
            text = re.sub(r"\s+", " ", row["query"]).strip()
            if relevant and text not in seen:
                seen.add(text)
                queries.append({"id": f"{group}-{row['query_id']}", "query": text,
                                "relevant": sorted(relevant)})
    write_set(out, tools.values(), queries)


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
