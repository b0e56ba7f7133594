"""Lint on large catalogs: what a tool is told does not depend on the tools around it, and a
report stays bounded however many tools are alike."""

from __future__ import annotations

import json
from pathlib import Path

POLICY = {"type": "object", "required": ["policy_id"], "properties": {"policy_id": {
    "type": "string", "description": "The ID of the policy, as stored in the ~/.insurer/config "
                                     "file."}}}
# seal_tools' pair: the gate once read from the first tool's text into the second's and
# turned the second away, so its warning came and went with the tool before it (seal_tools'
# own "The ID of the policy to be canceled" is no longer a warning: a noun phrase naming a
# value revokes nothing, so the second tool's probe is a warning of another cue)
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


def test_hundreds_of_alike_tools_give_a_report_that_grows_with_them_not_their_square(
        tmp_path, run):
    """Each near-duplicate finding names the five nearest alike tools and counts the others:
    naming every one, 2,500 alike tools made a report of 76 MB, and 400 make one of 17.8 MB,
    twenty times the bound below."""
    size = 400
    description = ("Get the weather forecast for a city: temperature, rain, wind speed and "
                   "direction, humidity, pressure and cloud cover for each hour of the next "
                   "three days, in metric or imperial units.")
    tools = [{"name": f"get_weather_{i}", "description": description, "parameters": POLICY}
             for i in range(size)]
    path = tmp_path / "alike.json"
    path.write_text(json.dumps(tools))
    result = run("lint", str(path), "--select", "TC501", "--json")
    findings = {f["tool"]: f for f in json.loads(result.stdout)["findings"]}
    assert len(findings) == size - 1
    assert len(result.stdout) < 2_000 * size
    last = findings[f"get_weather_{size - 1}"]
    assert last["message"] == (
        "near-duplicate of 'get_weather_0' (the same description), 'get_weather_1' (96% alike), "
        "'get_weather_2' (96% alike), 'get_weather_3' (96% alike), 'get_weather_4' (96% alike) "
        f"and {size - 6:,} more: a model cannot tell them apart")
    assert len(last["related"]) == 5
    assert findings["get_weather_1"]["message"] == (
        "near-duplicate of 'get_weather_0' (the same description): a model cannot tell them "
        "apart")
