"""How far a third-party catalog's example requests steer the team's tuning (issue 40, item
11): six opaque team tools with a 66-request call log, and a vendor catalog of one generic tool
(`do_anything`) whose example requests copy `--copied` requests, the first 40 of them requests
the team's users will make. Each case is tuned in a fresh `python -m toolcat tune` and then
measured on those 40 requests: how often the generic tool comes first, and the right tool.

    python benchmarks/tune_poison.py
    python benchmarks/tune_poison.py --code ../main      # another checkout: before

Cases: the vendor catalog's examples copy the coming requests and 24 of the log's (the attack);
copy only the log's requests; and no vendor catalog in the tuning (the reference).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from tests.tune.test_example_bounds import coming, team_and_vendor  # noqa: E402
from tests.tune.test_tuned import JOBS  # noqa: E402

MEASURE = """
import json, sys
import toolcat
catalog = toolcat.load_catalog(sys.argv[1:3])
tuning = toolcat.load_tuning(sys.argv[3])
tests = json.loads(sys.argv[4])
firsts = [toolcat.pick(text, catalog, tuning=tuning, scorer="hybrid").picks for text, _ in tests]
print(json.dumps([p[0].tool.name if p else None for p in firsts]))
"""


def toolcat(code: Path, folder: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(code)}
    return subprocess.run([sys.executable, *argv], env=env, cwd=folder, capture_output=True,
                          text=True, check=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--code", type=Path, default=REPO,
                        help="the toolcat checkout to measure (default: this one)")
    args = parser.parse_args()
    code = args.code.resolve()
    tests = coming(40)
    log_texts = [f"please {verb} {thing}" for verb, things in JOBS.values()
                 for thing in things[:-1]]
    cases = [("copies of coming requests", [t for t, _ in tests] + log_texts[:24], True),
             ("copies of the log", log_texts[:64], True),
             ("no vendor in the tuning", log_texts[:64], False)]
    print(f"{'case':<28} {'generic first':>13} {'right first':>11}  (of {len(tests)})")
    for label, copied, with_vendor in cases:
        with tempfile.TemporaryDirectory() as name:
            folder = Path(name)
            team, vendor, log = team_and_vendor(folder, copied)
            catalogs = ["-c", str(team)] + (["-c", str(vendor)] if with_vendor else [])
            toolcat(code, folder, "-m", "toolcat", "tune", *catalogs, "-q", str(log),
                    "-o", "tuning.json")
            out = toolcat(code, folder, "-c", MEASURE, str(team), str(vendor), "tuning.json",
                          json.dumps(tests))
            firsts = json.loads(out.stdout)
            stolen = sum(f == "do_anything" for f in firsts)
            right = sum(f == meant for f, (_, meant) in zip(firsts, tests, strict=True))
            print(f"{label:<28} {stolen:>13} {right:>11}")


if __name__ == "__main__":
    main()
