"""Lint on large catalogs: what a tool is told does not depend on the tools around it, and a
report stays bounded however many tools are alike."""

from __future__ import annotations

import json
from pathlib import Path

POLICY = {"type": "object", "required": ["policy_id"], "properties": {"policy_id": {
    "type": "string", "description": "The ID of the policy to be canceled"}}}
# seal_tools' pair: the gate once read from the first tool's text into the second's and
# turned the second away, so its warning came and went with the tool before it
BEFORE = {"name": "createPolicy", "description": "Create a new insurance policy for a customer",
          "parameters": {"type": "object", "properties": {
              "customer_id": {"type": "string", "description":
                              "The ID of the customer for whom the policy is being created"},
              "policy_type": {"type": "string", "description": "The type of insurance policy "
                              "to be created (e.g., life, health, auto)"}}}}
CANCEL = {"name": "cancelPolicy", "description": "Cancel an existing insurance policy",
          "parameters": POLICY}


def poisoning(run, path: Path) -> list[tuple[str, str, str]]:
    result = run("lint", str(path), "--select", "TC6", "--json")
    return [(f["tool"], f["rule"], f["message"]) for f in json.loads(result.stdout)["findings"]]


def test_a_tools_poisoning_findings_do_not_depend_on_the_tools_before_it(tmp_path, run):
    alone, after = tmp_path / "alone.json", tmp_path / "after.json"
    alone.write_text(json.dumps([CANCEL]))
    after.write_text(json.dumps([BEFORE, CANCEL]))
    found = poisoning(run, alone)
    assert "TC606" in [rule for _, rule, _ in found]
    assert [f for f in poisoning(run, after) if f[0] == "cancelPolicy"] == found
