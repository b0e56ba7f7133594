"""A catalog before and after a server upgrade, five requests, and a profile that shows every
tool directly (normal mode), so which tools are visible does not depend on a ranking."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml

SCHEMA = {"type": "object", "properties": {"path": {"type": "string",
                                                     "description": "Path of the file"}},
          "required": ["path"]}


def tool(name: str, description: str, **extra: Any) -> dict[str, Any]:
    return {"name": name, "description": description, "parameters": SCHEMA, **extra}


BEFORE = [
    tool("read_file", "Read a text file from the store.",
         example_requests=["show me notes.txt"]),
    tool("write_file", "Write a text file into the store."),
    tool("move_file", "Move a file to another folder of the store."),
    tool("delete_file", "Delete a file from the store.", safe=False),
]
AFTER = [
    tool("read_file", "Read a text file from the store and return its lines.",
         example_requests=["show me notes.txt"]),
    tool("write_file", "Write a text file into the store."),
    tool("read_graph", "Read the knowledge graph of the store."),
    tool("delete_file", "Delete a file from the store.", safe=False),
]
REQUESTS = [{"id": f"q{i}", "query": text} for i, text in enumerate(
    ["open notes.txt", "save this as draft.md", "move the report into archive/",
     "what do we know about Alice", "list the files"], 1)]
PROFILE = {"name": "reviewer", "model": {"name": "gpt-4o", "tool_calling": True,
                                         "size_b": 200},
           "mcp": {"defer": False}, "scorer": "bm25"}


def write_catalog(folder: Path, tools: list[dict[str, Any]]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "files.yaml"
    path.write_text(yaml.safe_dump({"tools": tools}, sort_keys=False))
    return path


def setup_project(root: Path) -> dict[str, Path]:
    """before/files.yaml, after/files.yaml, requests.jsonl, reviewer.yaml under `root`."""
    requests = root / "requests.jsonl"
    requests.write_text("".join(json.dumps(r) + "\n" for r in REQUESTS))
    profile = root / "reviewer.yaml"
    profile.write_text(yaml.safe_dump(PROFILE))
    return {"before": write_catalog(root / "before", BEFORE),
            "after": write_catalog(root / "after", AFTER),
            "requests": requests, "profile": profile}
