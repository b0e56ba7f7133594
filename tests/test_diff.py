"""Catalog diffs: tools paired across two catalogs, changed fields, word diffs, schema paths."""

from __future__ import annotations

import json

from toolcat.model import Tool
from toolcat.pin.diff import changed_values, diff_catalogs, word_diff

SCHEMA = {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}


def tool(name="read_file", server="files", **fields):
    return Tool(name=name, server=server, **{"description": "Read a file.",
                                             "parameters": SCHEMA, **fields})


def test_identical_catalogs_have_no_differences():
    result = diff_catalogs([tool(), tool("b")], [tool(), tool("b")])
    assert result.same and result.unchanged == 2


def test_added_removed_and_changed_tools_are_told_apart():
    old = [tool(), tool("gone")]
    new = [tool(description="Read a file and upload it."), tool("fresh")]
    result = diff_catalogs(old, new)
    assert [t.name for t in result.added] == ["fresh"]
    assert [t.name for t in result.removed] == ["gone"]
    assert [(c.new.name, c.fields) for c in result.changed] == [("read_file", ("description",))]


def test_a_description_change_comes_with_a_word_diff():
    result = diff_catalogs([tool()], [tool(description="Read a file, then send it to me.")])
    [change] = result.changed[0].changes
    assert change.words == (("equal", "Read a file"), ("insert", ", then send it to me"),
                            ("equal", "."))
    result = diff_catalogs([tool()], [tool(description="Write a file.")])
    assert result.changed[0].changes[0].words == (("delete", "Read"), ("insert", "Write"),
                                                  ("equal", " a file."))


def test_word_diff_keeps_every_character_of_both_texts():
    old, new = "Delete the event by id.", "Delete  every event by its id!"
    ops = word_diff(old, new)
    assert "".join(t for op, t in ops if op != "insert") == old
    assert "".join(t for op, t in ops if op != "delete") == new


def test_schema_changes_name_the_nodes_that_differ():
    wider = {"type": "object", "required": [],
             "properties": {"path": {"type": "string", "description": "any path"},
                            "mode": {"enum": ["r", "w"]}}}
    [change] = diff_catalogs([tool()], [tool(parameters=wider)]).changed[0].changes
    assert change.field == "parameters"
    assert change.paths == ("/properties/path/description", "/properties/mode", "/required")
    assert [c.path for c in changed_values([1, 2], [1, 3])] == ["/1"]
    assert [c.path for c in changed_values({"a": 1}, 5)] == [""]


def test_a_tool_that_moved_to_another_server_is_one_change():
    result = diff_catalogs([tool(server="old")], [tool(server="new", safety="unsafe")])
    assert not result.added and not result.removed
    assert [(c.field, c.old, c.new) for c in result.changed[0].changes] == [
        ("server", "old", "new"), ("safety", "safe", "unsafe")]


def test_a_shared_name_is_paired_by_server_only():
    old = [tool(server="a"), tool(server="b")]
    new = [tool(server="a"), tool(server="c")]
    result = diff_catalogs(old, new)
    assert [t.qualified_name for t in result.added] == ["c:read_file"]
    assert [t.qualified_name for t in result.removed] == ["b:read_file"]


def test_a_long_description_is_diffed_line_by_line_with_its_change_in_context(run, tmp_path):
    # desktop-commander writes the host's folders into a description of several kilobytes
    text = "Read the complete contents of a file from the file system or a URL. " * 40
    before = text + "Allowed directories: /Users/alice/projects.\nLimit: 1000 lines.\nEnd."
    after = text + "Allowed directories: /home/bob/work.\nLimit: 2000 lines.\nEnd."
    paths = []
    for name, description in (("old", before), ("new", after)):
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps({"tools": [{"name": "read_file", "server": "dc",
                                               "description": description}]}))
        paths.append(str(path))
    result = run("diff", *paths)
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert max(map(len, lines)) < 200  # not the whole description on one line
    assert "~ … or a URL. Allowed directories: /[-Users-]{+home+}/" in result.stdout
    assert "~ Limit: [-1000-]{+2000+} lines." in result.stdout
    assert "(1 unchanged line)" in result.stdout
