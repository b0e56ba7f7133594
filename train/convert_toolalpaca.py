"""Convert ToolAlpaca's evaluation sets (real and simulated APIs) into benchdata's layout:
`catalog.json` (one tool per API function) and `queries.jsonl` (each instruction with the
functions its golden answer calls). Used only to measure (never trained on): a public set of
tools no choice of the tool-retrieval model saw.

    python train/convert_toolalpaca.py /path/to/ToolAlpaca train/data/toolalpaca_eval
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from written import write_set  # train/written.py: run as `python train/<this file>`

FILES = ("data/eval_real.json", "data/eval_simulated.json")


def read(repo: Path, path: str) -> list[dict]:
    """A file of the repository's HEAD (a bare mirror or a work tree)."""
    text = subprocess.run(["git", "--git-dir", str(repo), "show", f"HEAD:{path}"],
                          check=True, capture_output=True, text=True).stdout
    return list(json.loads(text))


def tool(api: dict, name: str, text: str) -> dict:
    first, _, rest = text.partition("\nParameters: ")
    params = rest.split("\nOutput:")[0].strip()
    try:
        fields = json.loads(params) if params else {}
    except json.JSONDecodeError:
        fields = {}
    properties = {key: {"type": "string", "description": str(value)}
                  for key, value in fields.items()}
    return {"name": name, "description": first.strip(),
            "parameters": {"type": "object", "properties": properties},
            "server": api["Name"]}


def main(repo: Path, out: Path) -> None:
    tools: dict[str, dict] = {}
    queries = []
    for path in FILES:
        for api in read(repo, path):
            # two APIs may share a function name: the API's name makes it unique
            named = {fn: fn if fn not in tools else f"{api['Name']}_{fn}".replace(" ", "_")
                     for fn in api["Function_Description"]}
            for fn, text in api["Function_Description"].items():
                tools[named[fn]] = tool(api, named[fn], text)
            for n, (request, answer) in enumerate(zip(api["Instructions"],
                                                      api["Golden_Answers"], strict=True)):
                relevant = sorted({named[step["Action"]] for step in answer
                                   if step["Action"] in named})
                if relevant:
                    queries.append({"id": f"{Path(path).stem}-{api['Name']}-{n}",
                                    "query": request, "relevant": relevant})
    write_set(out, tools.values(), queries)


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
