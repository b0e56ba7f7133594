"""Lint's output, byte for byte, against another checkout's code: every report format on the
catalogs a speed change must not alter (issue 41 item 6).

Each case runs `toolcat lint` in a fresh process with this checkout's code and with the
reference's (`--ref`, a folder holding a `toolcat` package, e.g. `git archive main | tar -x`),
from a neutral folder (so that `python -m` imports the code named, not the current folder's),
and compares standard output, standard error and the exit code. The reference's outputs are
kept in `--store` and reused while its code does not change (`--fresh` runs them again).

    python benchmarks/lint_same.py --ref /tmp/main-code --store /tmp/lint-same [--big FILE]

`--big`: the 43k catalog of benchmarks/scale.py (`build_catalog`), linted never seen, on its
second read (which stores it) and seen before, each with its own cache folder per side.

The poisoning sets of benchmarks/data/poison are compared too: each entry of fresh.yaml to
fresh9.yaml linted as a catalog of its own tool (as `poison_accuracy.py --fresh` does), every
entry of a set in one process, its `--json` report after each; and the wordings of
handwritten.yaml and BIPIA's of external.yaml, each injected into a real seal_tools tool
(as `poison_detector.py heldout` does), one catalog per file linted with `toolcat lint`.
Exit 1 when any case differs.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from benchdata import BENCHDATA

REPO = Path(__file__).resolve().parent.parent
SETS = ("bfcl_v4", "seal_tools", "metatool")
FORMATS = ("--json", "--format=text", "--format=sarif", "--format=github")


def cases(big: Path | None) -> list[tuple[str, list[str], int]]:
    """(name, lint arguments, reads): `reads` runs in one cache folder, each compared."""
    found: list[tuple[str, list[str], int]] = []
    if big is not None:
        found.append(("43k", [str(big), "--json"], 3))
    for name in SETS:
        found.append((f"benchdata-{name}", [str(BENCHDATA / name / "catalog.json"), "--json"],
                      1))
    seal = str(BENCHDATA / "seal_tools" / "catalog.json")
    catalogs = REPO / "catalogs"
    for fmt in FORMATS:
        found.append((f"seal{fmt}", [seal, fmt], 1))
        found.append((f"catalogs{fmt}", [str(catalogs), fmt], 1))
    for file in sorted(catalogs.rglob("*")):
        if file.is_file() and file.suffix in (".json", ".yaml", ".yml", ".jsonl"):
            found.append((f"catalogs-{file.relative_to(catalogs)}", [str(file), "--json"], 1))
    for file in sorted((REPO / "benchmarks" / "data" / "real-servers").glob("*-catalog.json")):
        if not file.name.startswith(("fresh10", "fresh11")):  # blind material: not read here
            found.append((f"real-{file.stem}", [str(file), "--json"], 3))
    poison = REPO / "tests" / "data" / "poison"
    for folder in (poison, poison / "benign", poison / "poisoned"):
        found.append((f"poison-{folder.name}", [str(folder), "--json"], 1))
    return found


POISON = REPO / "benchmarks" / "data" / "poison"

# every catalog named on the command line linted in this one process, as `toolcat lint --json`
# reports it
EACH = """
import sys
from toolcat.catalog.load import load_catalog
from toolcat.lint.run import run_lint
from toolcat.lint.settings import LintSettings
for path in sys.argv[1:]:
    run = run_lint(load_catalog(path, lenient=True), LintSettings())
    sys.stdout.write(path.rsplit("/", 1)[-1] + "\\n" + run.text("json") + "\\n")
"""


def poison_cases(store: Path) -> list[tuple[str, list[str], int]]:
    """The poisoning sets' catalogs, written once into `store` (the same files for both
    sides): (name, `EACH`'s arguments or lint's, reads)."""
    import yaml
    from poison_detector import handwritten, held_out, injected

    found: list[tuple[str, list[str], int]] = []
    for path in sorted(POISON.glob("fresh*.yaml")):
        if path.name.startswith(("fresh10", "fresh11")):  # blind material: not read here
            continue
        folder = store / "poison-sets" / path.stem
        if not folder.exists():
            folder.mkdir(parents=True)
            for entry in yaml.safe_load(path.read_text(encoding="utf-8")):
                tools = [entry["tool"], *entry.get("also", [])]
                (folder / f"{entry['id']}.json").write_text(json.dumps({"tools": tools}),
                                                          encoding="utf-8")
        found.append((f"poison-set-{path.stem}",
                      ["EACH", *map(str, sorted(folder.glob("*.json")))], 1))
    for name, entries in (("handwritten", handwritten), ("bipia", held_out)):
        folder = store / "poison-sets" / name
        if not folder.exists():
            folder.mkdir(parents=True)
            injected(folder, entries())
        found.append((f"poison-set-{name}", [str(folder / "injected.yaml"), "--json"], 1))
    return found


def lint(code: Path, args: list[str], cache: Path, cwd: Path) -> bytes:
    env = {**os.environ, "PYTHONPATH": str(code), "TOOLCAT_CACHE_DIR": str(cache)}
    env.pop("TOOLCAT_CATALOG", None)
    command = [sys.executable, "-c", EACH, *args[1:]] if args[:1] == ["EACH"] else \
        [sys.executable, "-m", "toolcat", "lint", *args]
    done = subprocess.run(command, capture_output=True, env=env, cwd=cwd, check=False)
    return (f"exit {done.returncode}\n".encode() + done.stdout + b"\n--- stderr\n"
            + done.stderr)


def run_case(code: Path, args: list[str], reads: int, cwd: Path) -> list[bytes]:
    with tempfile.TemporaryDirectory(prefix="lint-same-cache-") as cache:
        return [lint(code, args, Path(cache), cwd) for _ in range(reads)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ref", type=Path, required=True, help="folder of the reference code")
    parser.add_argument("--store", type=Path, required=True, help="the reference's outputs")
    parser.add_argument("--big", type=Path, help="the 43k catalog of benchmarks/scale.py")
    parser.add_argument("--fresh", action="store_true", help="run the reference again")
    parser.add_argument("--only", nargs="*", default=(), help="cases whose name starts so")
    args = parser.parse_args()
    args.store.mkdir(parents=True, exist_ok=True)
    differ = 0
    with tempfile.TemporaryDirectory(prefix="lint-same-cwd-") as neutral:
        cwd = Path(neutral)
        for name, lint_args, reads in cases(args.big) + poison_cases(args.store):
            if args.only and not name.startswith(tuple(args.only)):
                continue
            key = hashlib.sha256(json.dumps(lint_args).encode()).hexdigest()[:16]
            stored = args.store / f"{key}.json"
            if args.fresh or not stored.exists():
                ref = run_case(args.ref, lint_args, reads, cwd)
                stored.write_text(json.dumps([r.decode("utf-8", "surrogateescape")
                                              for r in ref]), encoding="utf-8")
            ref = [r.encode("utf-8", "surrogateescape")
                   for r in json.loads(stored.read_text(encoding="utf-8"))]
            ours = run_case(REPO, lint_args, reads, cwd)
            same = ours == ref
            differ += not same
            sizes = "/".join(str(len(r)) for r in ours)
            print(f"{'same' if same else 'DIFFERS'}  {name}  ({sizes} bytes)", flush=True)
            if not same:
                for i, (a, b) in enumerate(zip(ref, ours, strict=True)):
                    if a != b:
                        (args.store / f"{key}.{i}.ref").write_bytes(a)
                        (args.store / f"{key}.{i}.ours").write_bytes(b)
                        print(f"    read {i + 1}: see {args.store}/{key}.{i}.ref / .ours")
    print(f"{differ} case(s) differ")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
