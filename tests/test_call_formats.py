"""check-call checks every string format jsonschema can check, the ones that need an optional
package included (they come with jsonschema's format-nongpl extra, a dependency)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from tests.conftest import CATALOGS

FORMATS = {  # format: (a valid value, an invalid one)
    "date-time": ("2025-03-10T09:00:00+01:00", "next tuesday"),
    "date": ("2025-03-10", "10/03/2025"),
    "time": ("09:00:00+01:00", "9 am"),
    "duration": ("P3DT4H", "three days"),
    "email": ("ada@example.com", "ada at example"),
    "hostname": ("api.example.com", "-bad-.example..com"),
    "ipv4": ("192.0.2.1", "192.0.2.999"),
    "ipv6": ("2001:db8::1", "2001:db8:::1::"),
    "uri": ("https://example.com/a?b=c", "not a uri"),
    "uri-reference": ("/a/b?c#d", "\\\\host\\share"),
    "uuid": ("123e4567-e89b-12d3-a456-426614174000", "123e4567"),
    "regex": ("^[a-z]+$", "([a-z]"),
    "json-pointer": ("/a/b~1c", "a/b"),
    "relative-json-pointer": ("1/a", "/a"),
    "uri-template": ("https://example.com/{id}", "https://example.com/{id"),
    "idn-hostname": ("bücher.example", "-bücher-"),
}
ENV = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}


@pytest.mark.parametrize("fmt", FORMATS)
def test_every_format_is_checked(fmt, tmp_path, run):
    valid, invalid = FORMATS[fmt]
    catalog = tmp_path / "tools.json"
    catalog.write_text(json.dumps([{"name": "take", "description": "Take a value.",
                                    "parameters": {"type": "object", "properties": {
                                        "value": {"type": "string", "format": fmt}}}}]))
    for value, accepted in ((valid, True), (invalid, False)):
        response = tmp_path / "response.json"
        response.write_text(json.dumps({"content": [
            {"type": "tool_use", "id": "t1", "name": "take", "input": {"value": value}}]}))
        result = run("check-call", str(response), "--provider", "anthropic", "-c",
                     str(catalog), "--json")
        call = json.loads(result.stdout)["calls"][0]
        assert call["accepted"] is accepted, (fmt, value, call["errors"])
        if not accepted:
            assert [(e["pointer"], e["keyword"]) for e in call["errors"]] == [
                ("/value", "format")]


def test_the_default_draft_knows_every_format():  # schemas without $schema are 2020-12
    assert set(FORMATS) <= set(jsonschema.Draft202012Validator.FORMAT_CHECKER.checkers)


def test_next_tuesday_is_not_a_time_min(run, tmp_path):
    response = tmp_path / "response.json"
    response.write_text(json.dumps({"content": [{"type": "tool_use", "id": "t1",
                                                 "name": "list_events",
                                                 "input": {"time_min": "next tuesday"}}]}))
    result = run("check-call", str(response), "--provider", "anthropic", "-c", str(CATALOGS))
    assert result.exit_code == 1
    assert "/time_min" in result.stdout and '"next tuesday" is not a "date-time"' in (
        result.stdout)


@pytest.mark.slow
def test_a_fresh_process_checks_iris_without_compiling_their_grammars_up_front(tmp_path):
    """rfc3987-syntax (the `iri` formats) compiles its grammars when imported: the CLI puts
    that off until an iri is checked (toolcat.cli.startup), and the check still happens."""
    catalog = tmp_path / "tools.json"
    catalog.write_text(json.dumps([{"name": "open", "description": "Open an address.",
                                    "parameters": {"type": "object", "properties": {
                                        "at": {"type": "string", "format": "iri"}}}}]))
    code = ("import sys, runpy; sys.argv = ['toolcat', *sys.argv[1:]]\n"
            "try:\n    runpy.run_module('toolcat', run_name='__main__')\n"
            "finally:\n    print('lark' in sys.modules, file=sys.stderr)")
    for value, accepted in (("https://bücher.example/ä", True), ("https://exa mple/", False)):
        response = tmp_path / "response.json"
        response.write_text(json.dumps({"content": [
            {"type": "tool_use", "id": "t1", "name": "open", "input": {"at": value}}]}))
        done = subprocess.run([sys.executable, "-c", code, "check-call", str(response),
                               "--provider", "anthropic", "-c", str(catalog), "--json"],
                              capture_output=True, text=True, cwd=tmp_path, env=ENV)
        assert json.loads(done.stdout)["calls"][0]["accepted"] is accepted, done.stderr
        assert done.stderr.strip().endswith("True")  # an iri was checked: the grammars loaded
    lint = subprocess.run([sys.executable, "-c", code, "lint", "-c", str(catalog)],
                          capture_output=True, text=True, cwd=tmp_path, env=ENV)
    assert lint.stderr.strip().endswith("False")  # lint checks schemas, never an iri
