"""How well the security rules (TC6xx) catch poisoned tools, and how often they cry wolf.

Recall: the labeled poisoned corpus in tests/data/poison/poisoned/, one file per disguise
(lookalike.yaml is linted together with the real servers it imitates). A tool is caught when a
security rule reports an error on it; "flagged" counts warnings too.

False positives: every tool of ../shared/benchdata (bfcl_v4, seal_tools, metatool), the
benign corpus in tests/data/poison/benign/ (real MCP servers: time, fetch, git, text-editor,
plus assertive usage guidance), and, when botocore is installed, the documentation of every
AWS API operation (about 20,000, HTML) as tool descriptions. A tool is a false positive when a
poisoning rule reports an error on it; warnings are counted apart. (TC603, the same name on
two servers, and TC604, the lock, are not poisoning rules and are left out.)

    python benchmarks/poison_accuracy.py
    python benchmarks/poison_accuracy.py --show     # also print every miss and false alarm
    python benchmarks/poison_accuracy.py --fresh benchmarks/data/poison/fresh.yaml
    python benchmarks/poison_accuracy.py --fresh benchmarks/data/poison/fresh2.yaml
    python benchmarks/poison_accuracy.py --fresh benchmarks/data/poison/fresh3.yaml
    python benchmarks/poison_accuracy.py --fresh benchmarks/data/poison/fresh3.yaml --ids odd
    python benchmarks/poison_accuracy.py --fresh benchmarks/data/poison/fresh4.yaml
    python benchmarks/poison_accuracy.py --fresh benchmarks/data/poison/fresh5.yaml
    python benchmarks/poison_accuracy.py --fresh benchmarks/data/poison/fresh6.yaml
    python benchmarks/poison_accuracy.py --fresh benchmarks/data/poison/fresh7.yaml
    python benchmarks/poison_accuracy.py --fresh benchmarks/data/poison/fresh8.yaml

`--fresh FILE` measures only a set of whole tool definitions written apart from the corpus and
the detector (fresh.yaml's header says how it is laid out): each entry's `tool` is linted as a
catalog of its own (with the tools under its `also`, where two tools cooperate), an attack is
caught when a security rule reports an error on it and flagged on any finding, per attack class
and per language; a benign entry with an error is a false alarm, one with a warning is counted
apart. `--ids odd` (or `even`) keeps the entries whose id ends in an odd (even) number: one
half to look at while calibrating, the other held out.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterable
from pathlib import Path

from benchdata import BENCHDATA

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from toolcat.catalog.load import load_catalog  # noqa: E402
from toolcat.lint.engine import lint_catalog  # noqa: E402
from toolcat.lint.settings import LintSettings  # noqa: E402
from toolcat.model import Catalog  # noqa: E402

CORPUS = REPO / "tests" / "data" / "poison"
SETS = ("bfcl_v4", "seal_tools", "metatool")
SECURITY = LintSettings(select=("TC601", "TC602", "TC605", "TC606", "TC607"))


def verdicts(catalog: Catalog) -> dict[str, set[str]]:
    """Tool identity -> severities of the security findings on it."""
    found: dict[str, set[str]] = {catalog.ident(t): set() for t in catalog.tools}
    for finding in lint_catalog(catalog, SECURITY).findings:
        if finding.tool in found:
            found[finding.tool].add(finding.severity)
    return found


def messages(catalog: Catalog, tool: str) -> list[str]:
    return [f"{f.rule} {f.severity}: {f.message}" for f in
            lint_catalog(catalog, SECURITY).findings if f.tool == tool]


def poisoned_classes() -> Iterable[tuple[str, Catalog, set[str]]]:
    """(disguise, catalog to lint, identities of its poisoned tools)."""
    real = sorted((CORPUS / "benign").glob("mcp-*"))
    for path in sorted((CORPUS / "poisoned").iterdir()):
        own = load_catalog(path, lenient=True)
        catalog = load_catalog([path, *real], lenient=True) if path.stem == "lookalike" else own
        targets = {catalog.ident(t) for t in catalog.tools
                   if t.origin is not None and Path(t.origin.file).name == path.name}
        yield path.stem, catalog, targets


def recall(show: bool) -> None:
    total = caught = flagged = 0
    print(f"{'disguise':<12} {'tools':>5} {'caught':>7} {'recall':>7} {'flagged':>8}")
    for disguise, catalog, targets in poisoned_classes():
        found = verdicts(catalog)
        hits = [t for t in targets if "error" in found[t]]
        any_hits = [t for t in targets if found[t]]
        total, caught, flagged = total + len(targets), caught + len(hits), \
            flagged + len(any_hits)
        print(f"{disguise:<12} {len(targets):>5} {len(hits):>7} "
              f"{len(hits) / len(targets):>7.1%} {len(any_hits) / len(targets):>8.1%}")
        if show:
            for tool in sorted(set(targets) - set(hits)):
                print(f"    missed {tool}: {messages(catalog, tool)}")
    print(f"{'all':<12} {total:>5} {caught:>7} {caught / total:>7.1%} "
          f"{flagged / total:>8.1%}\n")


def aws_operations(folder: Path) -> Path | None:
    """Every AWS API operation botocore describes, as a catalog of tools (name, HTML
    documentation) in `folder`, or None without botocore."""
    try:
        import botocore
    except ImportError:
        return None
    import gzip
    import json

    tools = []
    for path in sorted((Path(botocore.__file__).parent / "data").glob("*/*/service-2.json*")):
        data = path.read_bytes()
        model = json.loads(gzip.decompress(data) if path.suffix == ".gz" else data)
        service = path.parent.parent.name
        tools += [{"name": name, "description": operation["documentation"], "server": service,
                   "parameters": {"type": "object", "properties": {}}}
                  for name, operation in model.get("operations", {}).items()
                  if operation.get("documentation")]
    target = folder / "aws-api-docs.json"
    target.write_text(json.dumps({"tools": tools}))
    return target


def false_positives(show: bool) -> None:
    sources: list[tuple[str, list[Path]]] = []
    if not BENCHDATA.is_dir():
        print(f"({BENCHDATA} not found: benign corpus only)")
    else:
        sources += [(name, [BENCHDATA / name / "catalog.json"]) for name in SETS]
    sources += [(path.stem, [path]) for path in sorted((CORPUS / "benign").iterdir())]
    import tempfile

    temporary = tempfile.TemporaryDirectory()
    aws = aws_operations(Path(temporary.name))
    if aws is not None:
        sources.append(("aws-api-docs", [aws]))
    print(f"{'benign set':<20} {'tools':>6} {'errors':>7} {'FP rate':>8} {'warned':>7} "
          f"{'seconds':>8}")
    total = errors = warned = 0
    for name, paths in sources:
        catalog = load_catalog(paths, lenient=True)
        started = time.perf_counter()
        found = verdicts(catalog)
        seconds = time.perf_counter() - started
        bad = [t for t, levels in found.items() if "error" in levels]
        warn = [t for t, levels in found.items() if levels and "error" not in levels]
        total, errors, warned = total + len(found), errors + len(bad), warned + len(warn)
        print(f"{name:<20} {len(found):>6} {len(bad):>7} {len(bad) / len(found):>8.2%} "
              f"{len(warn):>7} {seconds:>8.2f}")
        if show:
            for tool in bad + warn:
                print(f"    {tool}: {messages(catalog, tool)}")
    print(f"{'all':<20} {total:>6} {errors:>7} {errors / total:>8.2%} {warned:>7}")


def linearity() -> None:
    """Time to read one hostile string at two sizes: linear time keeps the ratio near 10."""
    from toolcat.lint.poison import scan_definition

    unit = ("a " * 50 + "<!--" * 10 + "%41" * 10 + "0" * 100 + "&#x41;" * 10 + "\u200b" * 10
            + "A" * 100 + "i g n o r e " + "QUJD" * 10 + " \\x41" * 10 + "[//]: # (" * 5)
    seconds = []
    for copies in (100, 1000):
        text = unit * copies
        started = time.perf_counter()
        scan_definition({"name": "hostile", "description": text})
        seconds.append(time.perf_counter() - started)
        print(f"hostile string of {len(text):>9,} characters: {seconds[-1]:.2f} s")
    print(f"ratio for 10x the text: {seconds[1] / seconds[0]:.1f}\n")


def fresh_entries(path: Path, folder: Path, ids: str | None = None
                  ) -> Iterable[tuple[dict, Catalog]]:
    """(entry, the catalog of its one tool) for every entry of a fresh set (`ids`: only those
    whose id ends in an odd, or an even, number)."""
    import json

    import yaml

    for entry in yaml.safe_load(path.read_text(encoding="utf-8")):
        if ids is not None and (int(entry["id"].lstrip("abcdefghijklmnopqrstuvwxyz")) % 2
                                == (ids == "even")):
            continue
        target = folder / f"{entry['id']}.json"
        # `also`: tools of the same catalog that the entry's tool works with (fresh6.yaml)
        tools = [entry["tool"], *entry.get("also", [])]
        target.write_text(json.dumps({"tools": tools}), encoding="utf-8")
        yield entry, load_catalog(target, lenient=True)


def fresh(path: Path, show: bool, ids: str | None = None) -> None:
    import tempfile

    # section -> row -> [tools, errors, findings]; sections print in this order
    rows: dict[str, dict[str, list[int]]] = {"attack class": {}, "language": {}, "": {}}
    benign = [0, 0, 0]  # tools, errors, warnings only
    with tempfile.TemporaryDirectory() as folder:
        for entry, catalog in fresh_entries(path, Path(folder), ids):
            levels = set().union(*verdicts(catalog).values())
            tool = catalog.ident(catalog.tools[0])
            if entry["class"] == "benign":
                benign = [benign[0] + 1, benign[1] + ("error" in levels),
                          benign[2] + (bool(levels) and "error" not in levels)]
                if show and levels:
                    print(f"    false alarm {entry['id']}: {messages(catalog, tool)}")
                continue
            for section, row in (("attack class", entry["class"]),
                                 ("language", entry["lang"]), ("", "all")):
                counts = rows[section].setdefault(row, [0, 0, 0])
                counts[:] = [counts[0] + 1, counts[1] + ("error" in levels),
                             counts[2] + bool(levels)]
            if show and "error" not in levels:
                print(f"    missed {entry['id']} ({entry['class']}, {entry['lang']}, "
                      f"{entry['at']}): {messages(catalog, tool)}")
    for section, table in rows.items():
        print(f"{section:<20} {'tools':>5} {'errors':>7} {'share':>7} {'findings':>9} "
              f"{'share':>7}")
        for row, (tools, errors, found) in table.items():
            print(f"{row:<20} {tools:>5} {errors:>7} {errors / tools:>7.1%} {found:>9} "
                  f"{found / tools:>7.1%}")
        print()
    print(f"benign: {benign[0]} tools, {benign[1]} with errors (false alarms), "
          f"{benign[2]} with warnings only")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--show", action="store_true", help="print every miss and false alarm")
    parser.add_argument("--fresh", type=Path, metavar="FILE",
                        help="measure only this set of fresh attacks and benign tools "
                             "(benchmarks/data/poison/fresh.yaml ... fresh8.yaml)")
    parser.add_argument("--ids", choices=("odd", "even"),
                        help="with --fresh: only the entries whose id number is odd (or even)")
    args = parser.parse_args()
    if args.fresh is not None:
        fresh(args.fresh, args.show, args.ids)
        return
    recall(args.show)
    false_positives(args.show)
    print()
    linearity()


if __name__ == "__main__":
    main()
