"""How every converter in train/ writes a set: benchdata's layout, `catalog.json` (the tools)
and `queries.jsonl` (one labeled request a line), read by train/tool_model.py."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any


def write_set(out: Path, tools: Iterable[Mapping[str, Any]],
              queries: Iterable[Mapping[str, Any]]) -> None:
    """Write the set to the folder `out` (made if missing) and say how large it is."""
    tools, queries = list(tools), list(queries)
    out.mkdir(parents=True, exist_ok=True)
    (out / "catalog.json").write_text(json.dumps(tools, indent=1) + "\n")
    (out / "queries.jsonl").write_text("".join(json.dumps(q) + "\n" for q in queries))
    print(f"{len(tools)} tools, {len(queries)} queries")
