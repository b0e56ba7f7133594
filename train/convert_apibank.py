"""Convert API-Bank's level-1 dialogues into benchdata's layout: `catalog.json` (every API of
`data/all_apis.csv`, level-3 ones included, as distractors) and `queries.jsonl` (what the user
said before the first API call of each dialogue, with the APIs the dialogue calls, the login
API GetUserToken and the ToolSearcher left out: a user never asks for them). Trained on, split
by tool, by `train/tool_model.py`.

    python train/convert_apibank.py /path/to/DAMO-ConvAI train/data/apibank
"""

from __future__ import annotations

import ast
import csv
import io
import json
import subprocess
import sys
from pathlib import Path

from written import write_set  # train/written.py: run as `python train/<this file>`

ROOT = "api-bank"
SAMPLES = f"{ROOT}/lv1-lv2-samples/level-1-given-desc"
NOT_ASKED = {"GetUserToken", "ToolSearcher"}


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "--git-dir", str(repo), *args], check=True,
                          capture_output=True, text=True).stdout


def literals(source: str) -> dict[str, object]:
    """The literal assignments of an API's `api_info` (Python text, never run)."""
    found: dict[str, object] = {}
    try:
        body = ast.parse(source).body
    except SyntaxError:
        return found
    for node in body:
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
            try:
                found[node.targets[0].id] = ast.literal_eval(node.value)
            except ValueError:
                continue
    return found


def tool(row: dict[str, str]) -> dict:
    info = literals(row["api_info"])
    inputs = info.get("input_parameters", {})
    properties = {key: {"type": "string", "description": str(value.get("description", ""))}
                  for key, value in (inputs.items() if isinstance(inputs, dict) else [])
                  if isinstance(value, dict)}
    return {"name": row["类名"], "description": str(info.get("description", "")).strip(),
            "parameters": {"type": "object", "properties": properties}}


def main(repo: Path, out: Path) -> None:
    rows = csv.DictReader(io.StringIO(git(repo, "show", f"HEAD:{ROOT}/data/all_apis.csv")))
    # a few rows' api_info is not Python: those APIs have no description to rank by
    tools = {made["name"]: made for made in map(tool, rows) if made["description"]}
    queries = []
    for path in sorted(git(repo, "ls-tree", "--name-only", "HEAD", f"{SAMPLES}/").split()):
        turns = [json.loads(line) for line in git(repo, "show", f"HEAD:{path}").splitlines()
                 if line.strip()]
        said, relevant = [], set()
        for turn in turns:
            if turn["role"] == "API":
                relevant.add(turn["api_name"])
            elif turn["role"] == "User" and not relevant:
                said.append(turn["text"].strip())
        relevant = {n for n in relevant - NOT_ASKED if n in tools}
        if relevant and said:
            queries.append({"id": Path(path).stem, "query": " ".join(said),
                            "relevant": sorted(relevant)})
    write_set(out, tools.values(), queries)


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
