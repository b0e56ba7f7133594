"""What `toolcat serve --mode call` costs and saves against `--mode add` (the reference,
measured in the same run):

- steps: a real MCP client (the SDK's, over stdio) goes from a search to a call of
  mcp-server-time's get_current_time, `rounds` times in one session: add mode's search_tools,
  add_tool, tools/list, call against call mode's search_tools, call_tool. Medians of the
  whole sequence; the upstream is started before timing.
- size: the characters of search_tools answers (what the model reads) on the demo catalog,
  in process, for its labeled queries: call mode carries whole definitions.

    python benchmarks/serve_modes.py
    python benchmarks/serve_modes.py --rounds 50 --queries 30
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from toolcat.catalog.load import load_catalog  # noqa: E402
from toolcat.resolution.profile import Profile  # noqa: E402
from toolcat.serve.gate import Gate  # noqa: E402
from toolcat.serve.proxy import ProxyGate  # noqa: E402
from toolcat.serve.server import definition_json  # noqa: E402

PROFILE = "name: fast\ndescription: bm25, for speed\nscorer: bm25\n"


async def steps(catalog: Path, profile: Path, mode: str, rounds: int) -> list[float]:
    from mcp import Client, StdioServerParameters, stdio_client

    env = {**os.environ, "PYTHONPATH": str(REPO)}
    params = StdioServerParameters(command=sys.executable, args=[
        "-m", "toolcat", "serve", "-c", str(catalog), "-p", str(profile), "--mode", mode],
        env=env)
    arguments = {"timezone": "Asia/Tokyo"}
    out = []
    with tempfile.TemporaryFile("w+") as errlog:
        async with Client(stdio_client(params, errlog=errlog), cache=None) as client:
            for round_ in range(rounds + 1):  # the first round starts the upstream: not timed
                began = time.perf_counter()
                await client.call_tool("search_tools", {"query": "current time"})
                if mode == "add":
                    await client.call_tool("add_tool", {"tool_names": ["get_current_time"]})
                    await client.list_tools()
                    result = await client.call_tool("get_current_time", arguments)
                else:
                    result = await client.call_tool("call_tool", {
                        "name": "get_current_time", "arguments": arguments})
                assert not result.is_error, result
                if round_:
                    out.append((time.perf_counter() - began) * 1000)
    return out


def sizes(count: int) -> tuple[list[int], list[int]]:
    catalog = load_catalog(REPO / "catalogs")
    profile = Profile(name="fast", scorer="bm25")
    add = Gate(catalog, profile)
    call = ProxyGate(catalog, profile, define=definition_json)
    lines = (REPO / "catalogs" / "demo-queries.jsonl").read_text().splitlines()
    queries = [json.loads(line)["query"] for line in lines if line.strip()][:count]
    size = {"add": [], "call": []}  # type: dict[str, list[int]]
    for query in queries:
        for name, gate in (("add", add), ("call", call)):
            response: Any = gate.search(query).response
            if response.get("found"):
                size[name].append(len(json.dumps(response, ensure_ascii=False)))
    return size["add"], size["call"]


def main() -> None:
    import anyio

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--queries", type=int, default=50)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        catalog, profile = Path(folder) / "time.yaml", Path(folder) / "fast.yaml"
        profile.write_text(PROFILE)
        subprocess.run([sys.executable, "-m", "toolcat", "import", "mcp", "-o", str(catalog),
                        "--", "mcp-server-time"], check=True, capture_output=True,
                       env={**os.environ, "PYTHONPATH": str(REPO)})
        timed = {mode: anyio.run(steps, catalog, profile, mode, args.rounds)
                 for mode in ("add", "call")}
    add, call = (statistics.median(timed[m]) for m in ("add", "call"))
    print(f"search to call, stdio, {args.rounds} rounds (medians):")
    print(f"  reference, add mode (search, add_tool, tools/list, call): {add:7.2f} ms")
    print(f"  call mode (search, call_tool):                             {call:7.2f} ms"
          f"  ({add / call:.2f}x faster)")
    add_size, call_size = sizes(args.queries)
    a, c = statistics.median(add_size), statistics.median(call_size)
    print(f"search_tools answer on the demo catalog, {len(add_size)} queries with results "
          "(median characters):")
    print(f"  reference, add mode: {a:8.0f}")
    print(f"  call mode:           {c:8.0f}  ({c / a:.1f}x larger)")


if __name__ == "__main__":
    main()
