"""`toolcat lock` and `toolcat diff` as a user runs them."""

from __future__ import annotations

import json

from tests.test_lock import CATALOG


def write(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_lock_writes_toolcat_lock_next_to_the_config(run, isolated, monkeypatch):
    write(isolated / "catalogs" / "files.yaml", CATALOG)
    write(isolated / "toolcat.yaml", "catalogs: [catalogs/]\n")
    sub = isolated / "src" / "deep"
    sub.mkdir(parents=True)
    monkeypatch.chdir(sub)
    result = run("lock")
    assert result.exit_code == 0
    lock = isolated / "toolcat.lock"
    assert result.stdout == f"locked 2 tools on 1 server in {lock}\n"
    assert sorted(json.loads(lock.read_text())["tools"]) == ["files:delete_file",
                                                             "files:read_file"]


def test_lock_without_a_config_writes_in_the_current_folder(run, isolated):
    catalog = write(isolated / "files.yaml", CATALOG)
    result = run("lock", "-c", str(catalog), "--json")
    assert json.loads(result.stdout) == {"lockfile": str(isolated / "toolcat.lock"),
                                         "tools": 2, "servers": 1, "replaced": False,
                                         "volatile": {}, "changes": []}


def test_relocking_reports_what_changed_since_the_previous_lock(run, isolated):
    catalog = write(isolated / "files.yaml", CATALOG)
    run("lock", "-c", str(catalog))
    assert run("lock", "-c", str(catalog)).stdout.splitlines()[1] == (
        "  no change since the previous lock")
    write(catalog, CATALOG.replace("Read a text file.", "Read any file."))
    result = run("lock", "-c", str(catalog), "--json")
    data = json.loads(result.stdout)
    assert data["replaced"] is True
    assert data["changes"] == [{"tool": "files:read_file", "change": "changed",
                                "fields": ["description"]}]


def test_lock_replaces_an_unreadable_lock_with_a_warning(run, isolated):
    catalog = write(isolated / "files.yaml", CATALOG)
    write(isolated / "custom.lock", "{broken")
    result = run("lock", "-c", str(catalog), "--lockfile", str(isolated / "custom.lock"))
    assert result.exit_code == 0
    assert "replacing a lock file that could not be read" in result.stderr
    assert json.loads((isolated / "custom.lock").read_text())["version"] == 1


def test_lock_refuses_to_overwrite_a_catalog(run, isolated):
    catalog = write(isolated / "files.yaml", CATALOG)
    result = run("lock", "-c", str(catalog), "--lockfile", str(catalog))
    assert result.exit_code == 2
    assert (isolated / "files.yaml").read_text() == CATALOG


def test_diff_shows_added_removed_and_changed_tools_with_a_word_diff(run, isolated):
    old = write(isolated / "old" / "files.yaml", CATALOG)
    new = write(isolated / "new" / "files.yaml", CATALOG.replace(
        "Read a text file.", "Read a text file and mail it.").replace(
        "  - name: delete_file", "  - name: remove_file"))
    result = run("diff", str(old), str(new))
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [
        "+ files:remove_file  Delete a file.",
        "- files:delete_file",
        "~ files:read_file  description",
        "    description:",
        "      ~ Read a text file{+ and mail it+}.",
        "1 added, 1 removed, 1 changed, 0 unchanged",
    ]


def test_diff_of_a_catalog_with_itself_exits_0(run, isolated):
    catalog = write(isolated / "files.yaml", CATALOG)
    result = run("diff", str(catalog), str(catalog))
    assert result.exit_code == 0
    assert result.stdout == "0 added, 0 removed, 0 changed, 2 unchanged\n"


def test_diff_pairs_tools_across_renamed_files_and_shows_other_fields(run, isolated):
    plain = CATALOG.replace("servers: [{name: files}]\n", "")
    old = write(isolated / "v1.yaml", plain)
    new = write(isolated / "v2.yaml", plain.replace("safe: false", "safe: true").replace(
        "required: [path]", "required: []"))
    result = run("diff", str(old), str(new))
    assert result.stdout.splitlines() == [
        "~ v2:read_file  parameters, server",
        "    parameters:",
        '      /required: ["path"] → []',
        '    server: "v1" → "v2"',
        "~ v2:delete_file  server, safety",
        '    server: "v1" → "v2"',
        "    safety: \"unsafe\" → \"safe\"",
        "0 added, 0 removed, 2 changed, 0 unchanged",
    ]


def test_diff_json_has_the_documented_shape(run, isolated):
    old = write(isolated / "a" / "files.yaml", CATALOG)
    new = write(isolated / "b" / "files.yaml", CATALOG.replace("Delete a file.",
                                                               "Delete any file."))
    data = json.loads(run("diff", str(old), str(new), "--json").stdout)
    assert sorted(data) == ["added", "changed", "new", "old", "removed", "same", "unchanged"]
    [changed] = data["changed"]
    assert changed["qualified_name"] == "files:delete_file"
    assert changed["fields"] == ["description"]
    assert changed["changes"] == [{
        "field": "description", "model_facing": True, "old": "Delete a file.",
        "new": "Delete any file.",
        "words": [{"op": "equal", "text": "Delete "}, {"op": "delete", "text": "a"},
                  {"op": "insert", "text": "any"}, {"op": "equal", "text": " file."}]}]
    assert (data["same"], data["unchanged"]) == (False, 1)


def test_diff_of_a_missing_file_is_a_one_line_error(run, isolated):
    catalog = write(isolated / "files.yaml", CATALOG)
    result = run("diff", str(catalog), "nope.yaml")
    assert result.exit_code == 2
    assert result.stderr == "toolcat: error: nope.yaml: no such file\n"


def test_lint_locked_is_clean_right_after_locking(run, isolated):
    catalog = write(isolated / "files.yaml", CATALOG)
    run("lock", "-c", str(catalog))
    result = run("lint", str(catalog), "--locked", "--select", "TC604")
    assert result.exit_code == 0, result.stdout


def test_lint_locked_reports_each_drift_as_a_tc604_error(run, isolated):
    catalog = write(isolated / "files.yaml", CATALOG)
    run("lock", "-c", str(catalog))
    write(catalog, CATALOG.replace("Read a text file.", "Read a text file, then mail it.")
          .split("  - name: delete_file")[0])
    result = run("lint", str(catalog), "--locked", "--format", "sarif")
    assert result.exit_code == 1
    results = json.loads(result.stdout)["runs"][0]["results"]
    locked = [(r["message"]["text"], r["locations"][0]["physicalLocation"]["artifactLocation"]
               ["uri"]) for r in results if r["ruleId"] == "TC604"]
    assert sorted(locked) == [
        ("read_file: changed since the lock: description", "files.yaml"),
        ("tool 'files:delete_file' vanished since the lock", "toolcat.lock")]


def test_lint_locked_without_a_lock_says_how_to_make_one(run, isolated):
    catalog = write(isolated / "files.yaml", CATALOG)
    result = run("lint", str(catalog), "--locked")
    assert result.exit_code == 2
    assert result.stderr == (f"toolcat: error: {isolated / 'toolcat.lock'}: no lock file "
                             "here; run `toolcat lock` first\n")


def test_lint_locked_runs_the_rule_even_when_the_config_selects_others(run, isolated):
    catalog = write(isolated / "catalogs" / "files.yaml", CATALOG)
    write(isolated / "toolcat.yaml", "catalogs: [catalogs/]\nlint: {select: [TC1]}\n")
    run("lock")
    write(catalog, CATALOG.replace("required: [path]", "required: []"))
    assert run("lint").exit_code == 0
    result = run("lint", "--locked", "--json")
    assert result.exit_code == 1
    assert [(f["rule"], f["message"]) for f in json.loads(result.stdout)["findings"]] == [
        ("TC604", "changed since the lock: parameters")]
    write(isolated / "toolcat.yaml", "catalogs: [catalogs/]\nlint: {ignore: [TC604]}\n")
    result = run("lint", "--locked")
    assert result.exit_code == 2
    assert "lint: ignore: 'TC604' would turn off TC604" in result.stderr  # a security rule


def test_the_lockfile_option_in_the_config_is_relative_to_it(run, isolated, monkeypatch):
    catalog = write(isolated / "catalogs" / "files.yaml", CATALOG)
    write(isolated / "toolcat.yaml", "catalogs: [catalogs/]\n"
          "lint: {options: {lockfile: pins/tools.lock}}\n")
    (isolated / "pins").mkdir()
    run("lock", "--lockfile", str(isolated / "pins" / "tools.lock"))
    write(catalog, CATALOG.replace("Delete a file.", "Delete any file."))
    monkeypatch.chdir(isolated / "catalogs")
    result = run("lint", "--json", "--select", "TC604")
    assert result.exit_code == 1
    [finding] = json.loads(result.stdout)["findings"]
    assert (finding["tool"], finding["message"]) == ("delete_file",
                                                     "changed since the lock: description")
