"""What asking the user costs a call through `toolcat serve`: the round trip of a tool call
that needs approval (answered at once by the SDK client's elicitation callback) against the
same server's call that needs none, measured in the same session. The reference is the call
without approval; the ratio is approval / reference.

    python benchmarks/approval_speed.py                 # both protocol eras, 30 calls each
    python benchmarks/approval_speed.py --calls 100 --mode legacy
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
import yaml

REPO = Path(__file__).resolve().parent.parent
SERVER = REPO / "tests" / "serve" / "servers" / "records_server.py"


def catalog(folder: Path) -> Path:
    """The records server imported, with send_message marked human-approval."""
    out = folder / "records.yaml"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    subprocess.run([sys.executable, "-m", "toolcat", "import", "mcp", "--name", "records",
                    "-o", str(out), "--", sys.executable, str(SERVER), str(folder)],
                   env=env, check=True, capture_output=True)
    document = yaml.safe_load(out.read_text())
    for tool in document["tools"]:
        if tool["name"] == "send_message":
            tool.update(allow_no_schema=True, no_schema_mode="human-approval")
    out.write_text(yaml.safe_dump(document, sort_keys=False))
    return out


async def measure(path: Path, profile: Path, mode: str, calls: int) -> dict[str, list[float]]:
    from mcp import Client, StdioServerParameters, stdio_client

    async def accept(context: Any, params: Any) -> types.ElicitResult:
        return types.ElicitResult(action="accept", content={})

    params = StdioServerParameters(command=sys.executable, args=[
        "-m", "toolcat", "serve", "-c", str(path), "-p", str(profile)],
        env={**os.environ, "PYTHONPATH": str(REPO)})
    times: dict[str, list[float]] = {"reference": [], "approval": []}
    async with Client(stdio_client(params), mode=mode, cache=None,
                      elicitation_callback=accept) as client:
        await client.call_tool("add_tool", {"tool_names": ["send_message", "count_records"]})
        await client.call_tool("count_records", {})  # the upstream starts
        for i in range(calls):
            for name, tool, arguments in (("reference", "count_records", {}),
                                          ("approval", "send_message",
                                           {"to": "ana", "text": f"message {i}"})):
                began = time.perf_counter()
                result = await client.call_tool(tool, arguments)
                times[name].append((time.perf_counter() - began) * 1000)
                assert not result.is_error, result
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=30)
    parser.add_argument("--mode", choices=["legacy", "2026-07-28", "both"], default="both")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        path = catalog(folder)
        profile = folder / "profile.yaml"
        profile.write_text("name: bench\nscorer: bm25\n")
        for mode in (["legacy", "2026-07-28"] if options.mode == "both" else [options.mode]):
            times = anyio.run(measure, path, profile, mode, options.calls)
            reference = statistics.median(times["reference"])
            approval = statistics.median(times["approval"])
            print(f"{mode:>10}: call without approval {reference:.1f} ms, with approval "
                  f"{approval:.1f} ms (median of {options.calls}; ratio "
                  f"{approval / reference:.2f}x)")


if __name__ == "__main__":
    main()
