"""Convert RestBench (RestGPT's TMDB and Spotify sets) into benchdata's layout:
`catalog.json` (one tool per OpenAPI operation of the two services) and `queries.jsonl` (each
request with the operations of its solution path). Trained on, split by tool, by
`train/tool_model.py`.

    python train/convert_restbench.py /path/to/RestGPT train/data/restbench
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from written import write_set  # train/written.py: run as `python train/<this file>`

SERVICES = {"tmdb": ("specs/tmdb_oas.json", "datasets/tmdb.json"),
            "spotify": ("specs/spotify_oas.json", "datasets/spotify.json")}
METHODS = ("get", "post", "put", "patch", "delete")


def read(repo: Path, path: str) -> object:
    """A JSON file of the repository's HEAD (a bare mirror or a work tree)."""
    text = subprocess.run(["git", "--git-dir", str(repo), "show", f"HEAD:{path}"],
                          check=True, capture_output=True, text=True).stdout
    return json.loads(text)


def name(service: str, method: str, path: str) -> str:
    words = re.sub(r"[^A-Za-z0-9]+", "_", path).strip("_")
    return f"{service}_{method}_{words}"


def tool(service: str, method: str, path: str, operation: dict, shared: list) -> dict:
    summary = str(operation.get("summary", "")).strip()
    detail = str(operation.get("description", "")).strip().split("\n")[0]
    description = ". ".join(p.rstrip(".") for p in (summary, detail) if p) + "."
    properties = {}
    for parameter in [*shared, *operation.get("parameters", [])]:
        if not isinstance(parameter, dict) or "name" not in parameter:
            continue  # a $ref to a shared parameter: its name is not at hand
        kind = parameter.get("schema", {}).get("type", "string")
        properties[parameter["name"]] = {
            "type": kind if kind in ("string", "integer", "number", "boolean", "array")
            else "string",
            "description": str(parameter.get("description", "")).strip()}
    return {"name": name(service, method, path), "description": description,
            "parameters": {"type": "object", "properties": properties}, "server": service}


def main(repo: Path, out: Path) -> None:
    tools: dict[str, dict] = {}
    queries = []
    for service, (spec_path, requests_path) in SERVICES.items():
        spec = read(repo, spec_path)
        assert isinstance(spec, dict)
        for path, item in spec["paths"].items():
            for method in METHODS:
                if method in item:
                    made = tool(service, method, path, item[method], item.get("parameters", []))
                    tools[made["name"]] = made
        rows = read(repo, requests_path)
        assert isinstance(rows, list)
        for n, row in enumerate(rows):
            relevant = set()
            for step in row["solution"]:
                method, _, path = step.partition(" ")
                key = name(service, method.lower(), path)
                if key in tools:
                    relevant.add(key)
            if relevant:
                queries.append({"id": f"{service}-{n}", "query": row["query"],
                                "relevant": sorted(relevant)})
    write_set(out, tools.values(), queries)


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
