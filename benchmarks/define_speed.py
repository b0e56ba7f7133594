"""Speed of tools defined in Python: registering `@toolcat.tool` classes (schema checks and the
validator compiled once each), loading a module of them as a catalog in a fresh process next
to loading the same tools from JSON, and hydrating calls into instances next to only checking
them (check-call's CallChecker).

The tools are the 769 of the bfcl_v4 set (real schemas), written as decorated classes; the
calls are 1,000 OpenAI tool calls with stringified arguments, a tenth of them invalid.
Usage: python benchmarks/define_speed.py [--runs N]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))  # this checkout's toolcat, not an installed one
BFCL = REPO.parent / "shared" / "benchdata" / "bfcl_v4" / "catalog.json"

LOAD = """
import sys, time
sys.path.insert(0, sys.argv[2])
t = time.perf_counter()
from toolcat.catalog.load import load_catalog
c = load_catalog(sys.argv[1])
print(len(c.tools), time.perf_counter() - t)
"""


def module_text(tools: list[dict]) -> str:
    lines = ["import toolcat", ""]
    for i, tool in enumerate(tools):
        lines += [
            f"@toolcat.tool(name={tool['name']!r}, description={tool['description']!r},",
            f"              parameters={tool['parameters']!r})",
            f"class Tool{i}:",
            "    def run(self):",
            "        return self.args",
            "",
        ]
    return "\n".join(lines)


def in_process(folder: Path, runs: int) -> list[float]:
    """Seconds to execute the module body (every decorator) once, fresh each run."""
    code = compile((folder / "bfcl_tools.py").read_text(), str(folder / "bfcl_tools.py"), "exec")
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        exec(code, {"__name__": "bench_tools"})
        times.append(time.perf_counter() - started)
    return times


def fresh(source: str, folder: Path, runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        out = subprocess.run([sys.executable, "-c", LOAD, source, str(folder)], check=True,
                             capture_output=True, text=True, cwd=REPO).stdout.split()
        times.append(float(out[1]))
    return times


def calls_timing(runs: int) -> tuple[list[float], list[float], int]:
    """Seconds to hydrate 1,000 calls, and to only check them, on a decorated class."""
    import toolcat
    from toolcat.calls.check import CallChecker
    from toolcat.model import Catalog
    from toolcat.providers import PROVIDERS

    @toolcat.tool(name="get_weather", description="Current weather for a city.", parameters={
        "type": "object", "required": ["location"], "additionalProperties": False,
        "properties": {"location": {"type": "string", "minLength": 1},
                       "unit": {"enum": ["celsius", "fahrenheit"]},
                       "days": {"type": "integer", "minimum": 1, "maximum": 14}}})
    class GetWeather:
        def run(self):
            return self.args

    calls = [{"id": f"c{i}", "type": "function", "function": {
        "name": "get_weather", "arguments": json.dumps(
            {"location": f"city {i}", "unit": "celsius", "days": 20 if i % 10 == 0 else 3})}}
        for i in range(1000)]
    response = {"choices": [{"message": {"role": "assistant", "tool_calls": calls}}]}
    hydrate_times, check_times = [], []
    for _ in range(runs):
        started = time.perf_counter()
        result = toolcat.hydrate(response, [GetWeather], provider="openai")
        hydrate_times.append(time.perf_counter() - started)
        started = time.perf_counter()
        checker = CallChecker(Catalog(tools=(GetWeather.definition,)))
        checker.check_all(PROVIDERS["openai"].parse_calls(response))
        check_times.append(time.perf_counter() - started)
    assert len(result.instances) == 900 and len(result.refused) == 100
    return hydrate_times, check_times, len(calls)


def report(label: str, times: list[float], count: int | None = None) -> None:
    per = f"  ({statistics.median(times) / count * 1e6:.0f} µs each)" if count else ""
    print(f"{label:<58} median {statistics.median(times):.3f} s  min {min(times):.3f} s{per}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    tools = json.loads(BFCL.read_text())
    # imported first: the cost of importing is not part of registering
    import jsonschema  # noqa: F401

    import toolcat.define.tools  # noqa: F401

    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        (folder / "bfcl_tools.py").write_text(module_text(tools))
        (folder / "bfcl_tools.json").write_text(json.dumps(tools))
        n = len(tools)
        report(f"register {n} decorated classes (in process)", in_process(folder, args.runs), n)
        report(f"load_catalog('bfcl_tools'), {n} Python tools, fresh process",
               fresh("bfcl_tools", folder, args.runs), n)
        report(f"load_catalog('bfcl_tools.json'), {n} JSON tools, fresh process",
               fresh(str(folder / "bfcl_tools.json"), folder, args.runs), n)
    hydrated, checked, n = calls_timing(args.runs)
    report(f"hydrate {n} OpenAI calls (parse, validate, instantiate)", hydrated, n)
    report(f"check the same {n} calls only (CallChecker)", checked, n)


if __name__ == "__main__":
    main()
