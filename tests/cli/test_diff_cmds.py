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


def test_each_changed_schema_node_shows_its_old_and_new_value(run, isolated):
    """Issue 29: `diff` names the node and what it was and became, not only its pointer."""
    schema = {"type": "object",
              "properties": {"path": {"type": "string",
                                      "description": "The path of the file to read"},
                             "mode": {"type": "string"}},
              "required": ["path"]}
    tool = {"name": "read_file", "description": "Read a file.", "parameters": schema}
    wider = json.loads(json.dumps(schema))
    wider["properties"]["path"]["description"] = "The absolute path of the file to read"
    del wider["properties"]["mode"]
    wider["properties"]["encoding"] = {"enum": ["utf-8"]}
    wider["required"] = ["path", "encoding"]
    (isolated / "a").mkdir()
    (isolated / "b").mkdir()
    old, new = isolated / "a" / "files.json", isolated / "b" / "files.json"
    old.write_text(json.dumps([tool]))
    new.write_text(json.dumps([{**tool, "parameters": wider}]))
    lines = run("diff", str(old), str(new)).stdout.splitlines()
    assert lines[1:6] == [
        "    parameters:",
        '      /properties/path/description: "The{+ absolute+} path of the file to read"',
        '      /properties/mode: {"type": "string"} → (absent)',
        '      /properties/encoding: (absent) → {"enum": ["utf-8"]}',
        '      /required: ["path"] → ["path", "encoding"]']
    data = json.loads(run("diff", str(old), str(new), "--json").stdout)
    [change] = data["changed"][0]["changes"]
    assert change["values"] == [
        {"path": "/properties/path/description", "old": "The path of the file to read",
         "new": "The absolute path of the file to read"},
        {"path": "/properties/mode", "old": {"type": "string"}},
        {"path": "/properties/encoding", "new": {"enum": ["utf-8"]}},
        {"path": "/required", "old": ["path"], "new": ["path", "encoding"]}]
