"""`toolcat diff` shows a field that appeared or vanished as a value, never as a bare `/`."""

from __future__ import annotations

import json


def test_annotations_that_appear_show_their_value(run, isolated):
    tool = {"name": "reset", "description": "Reset the working tree to a commit.",
            "parameters": {"type": "object", "properties": {}}}
    old, new = isolated / "old.json", isolated / "new.json"
    old.write_text(json.dumps([tool]))
    new.write_text(json.dumps([{**tool, "annotations": {"destructiveHint": True}}]))
    result = run("diff", str(old), "--shape", "mcp", str(new))
    lines = result.stdout.splitlines()
    assert result.exit_code == 1
    assert '    annotations: null → {"destructiveHint": true}' in lines
    assert not any(line.rstrip().endswith(": /") for line in lines)
    data = json.loads(run("diff", str(old), str(new), "--shape", "mcp", "--json").stdout)
    [change] = [c for c in data["changed"][0]["changes"] if c["field"] == "annotations"]
    assert change["paths"] == [""]
