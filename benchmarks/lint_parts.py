"""Parts of `toolcat lint` on a big catalog, each timed in process (CPU), with this checkout's
code and, with `--against DIR` (a folder holding another `toolcat` package), with that code,
in fresh processes taken in turn: what one step of a speed change moves, below the noise of
the whole command (benchmarks/lint_speed.py --big).

    python benchmarks/lint_parts.py /tmp/catalog-43k.json --against /tmp/main --runs 3

Parts: `rules` (the engine over the catalog, every default rule, and where its time goes:
each rule's loop with the engine's own work for it, then the findings placed and sorted),
`poison` (TC601 alone over every tool, and in it: `601:texts` each tool's strings read and
the patterns' quick pass, `601:homes` the languages at home, `601:worth_scoring` the
detector's gate, `601:learned_hits` the sentences scored),
`tokens` (every definition's tokens counted, as the token budget rules ask), `collector`
(the time the cyclic collector takes over the whole `toolcat lint --json` command), `load`
(the catalog loaded never seen, as lint loads it, and in it: `load:json` the strict parse
with its duplicate-key hook, `load:limits` the limits' walk, `load:parse` the file parsed
whole, both of them included, `load:tools` its tools read).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

# The start of a timing script: the imports as the CLI defers them, the catalog loaded and
# frozen out of the collector's reach, as the lint has it (toolcat.lint.collector).
START = """
{imports}
gc.disable()
catalog = load_catalog(sys.argv[1], lenient=True)
gc.freeze()
gc.enable()
spent = {{}}
"""
HEAD = """import gc, json, sys, time
from toolcat.cli.startup import defer_slow_imports
defer_slow_imports()
from toolcat.catalog.load import load_catalog
"""

RULES = START.format(imports=HEAD + """from toolcat.lint import engine
from toolcat.lint.settings import LintSettings""") + """active = LintSettings.active_rules
def timed(settings):  # each rule's loop timed from its start to the next one's
    last = [None, 0.0]
    for rule in active(settings):
        now = time.process_time()
        if last[0]:
            spent[last[0]] = spent.get(last[0], 0.0) + now - last[1]
        last[:] = [rule.id, now]
        yield rule
    spent[last[0]] = spent.get(last[0], 0.0) + time.process_time() - last[1]
LintSettings.active_rules = timed
settle = engine.settle
def settling(refs):
    started = time.process_time()
    settle(refs)
    spent["placing"] = time.process_time() - started
engine.settle = settling
started = time.process_time()
report = engine.lint_catalog(catalog, LintSettings())
spent["lint"] = time.process_time() - started
print(json.dumps(spent))
"""

TOKENS = """
import gc, inspect, json, sys, time
from toolcat.cli.startup import defer_slow_imports
defer_slow_imports()
from toolcat.catalog.load import load_catalog
from toolcat.lint.findings import Context
from toolcat.providers.tokens import count_tokens, definitions_tokens
gc.disable()  # as the lint has it (toolcat.lint.collector)
catalog = load_catalog(sys.argv[1], lenient=True)
count_tokens("warm up")
ctx = Context(catalog)
keys = [ctx.schema_key(t) for t in catalog.tools]  # the lint has them before its token rules
started = time.process_time()
if "schema_keys" in inspect.signature(definitions_tokens).parameters:
    counts = definitions_tokens(catalog.tools, schema_keys=keys)
else:
    counts = definitions_tokens(catalog.tools)
print(json.dumps({"tokens": time.process_time() - started, "total": sum(counts)}))
"""

POISON = START.format(imports=HEAD + """from toolcat.lint.findings import Context
from toolcat.lint.rules import security""") + """def timed(name):
    work = getattr(security, name)
    def run(*args, **named):
        started = time.process_time()
        try:
            return work(*args, **named)
        finally:
            spent[name] = spent.get(name, 0.0) + time.process_time() - started
    setattr(security, name, run)
for name in ("_texts", "_homes", "_worth_scoring", "learned_hits"):
    timed(name)
ctx = Context(catalog)
started = time.process_time()
for tool in catalog.tools:
    list(security.tool_poisoning.check(tool, ctx))
spent["TC601 alone"] = time.process_time() - started
print(json.dumps({f"601:{k.strip('_')}": v for k, v in spent.items()}))
"""

LOAD = HEAD + """from toolcat.catalog import load
from toolcat.source import json_text
spent = {}
def timed(owner, name, label):
    work = getattr(owner, name)
    def run(*args, **named):
        started = time.process_time()
        try:
            return work(*args, **named)
        finally:
            spent[label] = spent.get(label, 0.0) + time.process_time() - started
    setattr(owner, name, run)
timed(json_text.json, "loads", "load:json")
timed(json_text, "check_value", "load:limits")
timed(load, "parse_file", "load:parse")
timed(load._Loader, "add", "load:tools")
gc.disable()  # as `toolcat lint` reads the catalog (toolcat.lint.collector)
started = time.process_time()
load_catalog(sys.argv[1], lenient=True)
spent["load"] = time.process_time() - started
print(json.dumps(spent))
"""

COLLECTOR = """
import gc, json, sys, time
spent = [0.0, 0.0]
def watch(phase, info):
    if phase == "start":
        spent[1] = time.process_time()
    else:
        spent[0] += time.process_time() - spent[1]
gc.callbacks.append(watch)
sys.argv = ["toolcat", "lint", sys.argv[1], "--json", "--output", sys.argv[2]]
from toolcat.cli.app import main
try:
    main()
except SystemExit:
    pass
print(json.dumps({"collector": spent[0]}))
"""


def part(code: str, env: dict[str, str], *args: str) -> dict[str, float]:
    done = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                          env={**os.environ, **env}, cwd=tempfile.gettempdir(), check=False)
    if done.returncode:
        raise SystemExit(done.stderr)
    return {k: v for k, v in json.loads(done.stdout.splitlines()[-1]).items()
            if isinstance(v, float)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("catalog", type=Path)
    parser.add_argument("--against", type=Path, help="another checkout's code, in turn")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--parts", nargs="+", default=["rules", "tokens", "collector"],
                        choices=["rules", "poison", "tokens", "collector", "load"])
    args = parser.parse_args()
    # the parts run in a temporary folder (no checkout's code on their path but the one given)
    args.catalog = args.catalog.resolve()
    args.against = args.against.resolve() if args.against else None
    codes = {"this checkout": REPO} | ({str(args.against): args.against} if args.against
                                       else {})
    found: dict[str, dict[str, list[float]]] = {label: {} for label in codes}
    with tempfile.TemporaryDirectory(prefix="lint-parts-") as folder:
        for _ in range(args.runs):
            for label, code in codes.items():
                env = {"PYTHONPATH": str(code), "TOOLCAT_CACHE_DIR":
                       tempfile.mkdtemp(prefix="cache-", dir=folder)}
                times: dict[str, float] = {}
                if "rules" in args.parts:
                    times |= part(RULES, env, str(args.catalog))
                if "poison" in args.parts:
                    times |= part(POISON, env, str(args.catalog))
                if "tokens" in args.parts:
                    times |= part(TOKENS, env, str(args.catalog))
                if "load" in args.parts:
                    times |= part(LOAD, env, str(args.catalog))
                if "collector" in args.parts:
                    times |= part(COLLECTOR, env, str(args.catalog),
                                  str(Path(folder) / "report.json"))
                for name, seconds in times.items():
                    found[label].setdefault(name, []).append(seconds)
    names = list(next(iter(found.values())))
    names.sort(key=lambda name: -statistics.median(found["this checkout"][name]))
    print(f"{args.catalog.name}: CPU seconds in process, median of {args.runs} "
          f"(fresh processes, in turn)")
    print(f"  {'part':<12}" + "".join(f"{label[-28:]:>30}" for label in codes))
    for name in names:
        if all(statistics.median(found[label].get(name, [0.0])) < 0.0005 for label in codes):
            continue  # a rule that did not run (it needs a --target)
        print(f"  {name:<12}" + "".join(
            f"{statistics.median(found[label].get(name, [float('nan')])):30.3f}"
            for label in codes))


if __name__ == "__main__":
    main()
