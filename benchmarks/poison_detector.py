"""Build the corpus of the learned poisoning detector, train it, and measure it through lint.

    python benchmarks/poison_detector.py train       # writes toolcat/lint/data/poison_detector.npz
    python benchmarks/poison_detector.py evaluate [--openapi FILE ...] [--show]

Corpus (sentences; only those with at least one of the detector's cues, as at run time):
- benign: every description and parameter text of ../shared/benchdata (bfcl_v4, seal_tools,
  metatool), the catalogs shipped in catalogs/, the benign MCP definitions of
  tests/data/poison/benign, the documentation of every AWS API operation and shape member in
  botocore (HTML stripped), and a few hundred hard negatives (`poison_generators.honest`);
- malicious: five generators with paraphrase templates (imperative, declarative,
  conditional, authority, other languages) and the published MCP tool-poisoning examples
  (`poison_generators`).

Held out: benchmarks/data/poison/heldout.yaml, written by hand before any of the above and
never fitted on; `evaluate` injects each wording into a real benign tool (seal_tools) at the
place it names and lints the result, so the figure is what lint reports, not a sentence score.
Needs scikit-learn and scipy (the `bench` extra) to train, not to evaluate.
"""

from __future__ import annotations

import argparse
import html
import json
import pickle
import random
import re
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml
from benchdata import BENCHDATA
from poison_generators import honest, malicious

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from toolcat.catalog.load import load_catalog  # noqa: E402
from toolcat.lint import detector  # noqa: E402
from toolcat.lint.engine import lint_catalog  # noqa: E402
from toolcat.lint.settings import LintSettings  # noqa: E402
from toolcat.lint.walk import strings  # noqa: E402

HELDOUT = REPO / "benchmarks" / "data" / "poison" / "heldout.yaml"
OUT = REPO / "toolcat" / "lint" / "data" / detector.WEIGHTS
SETS = ("bfcl_v4", "seal_tools", "metatool")
SECURITY = LintSettings(select=("TC6",))
CACHE = Path(tempfile.gettempdir()) / "toolcat-poison-corpus.pickle"  # --cached reads it
C = 0.5  # inverse regularisation of the logistic regression
MALICIOUS_WEIGHT = 4.0  # a malicious sentence counts this many benign ones in the fit
MACHINE_KEYS = frozenset({"type", "$schema", "$ref", "required"})
_TAG = re.compile(r"<[^>]{0,200}>")


def texts_of(value: Any) -> Iterator[str]:
    for pointer, text, key in strings(value):
        if not key and pointer.rsplit("/", 1)[-1] not in MACHINE_KEYS:
            yield text


def benign_texts() -> Iterator[tuple[str, str]]:
    """(source, text) for every benign text of the corpus."""
    for name in SETS:
        for tool in json.loads((BENCHDATA / name / "catalog.json").read_text()):
            for text in texts_of({k: tool.get(k) for k in ("description", "parameters")}):
                yield name, text
    for path in [*sorted((REPO / "catalogs").glob("*.yaml")),
                 *sorted((REPO / "tests" / "data" / "poison" / "benign").iterdir())]:
        for tool in load_catalog(path, lenient=True).tools:
            for text in texts_of(dict(tool.raw)):
                yield path.name, text
    yield from botocore_texts()
    yield from sdk_texts()
    for text in honest(600):
        yield "honest", text


def botocore_texts() -> Iterator[tuple[str, str]]:
    """The documentation of every AWS operation and shape member (botocore), tags stripped."""
    try:
        import botocore.session
    except ImportError:
        return
    session = botocore.session.get_session()
    loader = session.get_component("data_loader")
    for service in session.get_available_services():
        model = loader.load_service_model(service, "service-2")
        for operation in model.get("operations", {}).values():
            if operation.get("documentation"):
                yield "aws", html.unescape(_TAG.sub(" ", operation["documentation"]))
        for shape in model.get("shapes", {}).values():
            for member in shape.get("members", {}).values():
                if member.get("documentation"):
                    yield "aws", html.unescape(_TAG.sub(" ", member["documentation"]))


SDKS = ("anthropic", "google.genai", "mistralai")  # not openai's: its OpenAPI is evaluated


def sdk_texts() -> Iterator[tuple[str, str]]:
    """The docstrings of the Anthropic, Google GenAI and Mistral SDKs: field by field, how
    vendors describe messages, roles, system prompts, tools and their calls to a developer."""
    import ast
    import importlib.util

    for name in SDKS:
        spec = importlib.util.find_spec(name)
        if spec is None or not spec.submodule_search_locations:
            continue
        for path in sorted(Path(next(iter(spec.submodule_search_locations))).rglob("*.py")):
            try:
                tree = ast.parse(path.read_text(encoding="utf-8"))
            except (SyntaxError, UnicodeDecodeError):
                continue
            for node in ast.walk(tree):
                if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) \
                        and isinstance(node.value.value, str):
                    yield name.split(".")[-1], node.value.value


def sentences(text: str) -> Iterator[tuple[str, tuple[str, ...]]]:
    """The sentences of `text` the detector scores, prepared, with their cues."""
    for _, written in detector.split_sentences(text):
        sentence = detector.prepare(written)
        if len(sentence.split()) < detector.MIN_WORDS and sentence.isascii():
            continue
        cues = detector.cues_of(sentence)
        if cues:
            yield sentence, cues


def corpus() -> tuple[list[tuple[str, tuple[str, ...]]], list[int], Counter[str]]:
    rows: list[tuple[str, tuple[str, ...]]] = []
    labels: list[int] = []
    counts: Counter[str] = Counter()
    seen: set[str] = set()
    labelled = [(0, f"benign {source.split('.')[0]}", text) for source, text in benign_texts()]
    labelled += [(1, f"malicious {generator}", text) for generator, text in malicious(1500)]
    for label, origin, text in labelled:
        for sentence, cues in sentences(text):
            if sentence not in seen:
                seen.add(sentence)
                rows.append((sentence, cues))
                labels.append(label)
                counts[origin] += 1
    return rows, labels, counts


def train(cached: bool, folds: bool) -> None:
    import numpy as np
    from scipy.sparse import csr_matrix
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import cross_val_predict

    started = time.perf_counter()
    if CACHE.exists() and cached:
        rows, labels, counts = pickle.loads(CACHE.read_bytes())
    else:
        rows, labels, counts = corpus()
        CACHE.write_bytes(pickle.dumps((rows, labels, counts)))
    for name, count in sorted(counts.items()):
        print(f"{name:<28} {count:>7} sentences")
    indptr, indices = [0], []
    for sentence, cues in rows:
        found = sorted(set(detector.features(sentence, cues)))
        indices += found
        indptr.append(len(indices))
    matrix = csr_matrix((np.ones(len(indices), dtype=np.float32), indices, indptr),
                        shape=(len(rows), detector.BUCKETS))
    y = np.array(labels)
    fit = LogisticRegression(C=C, class_weight={0: 1.0, 1: MALICIOUS_WEIGHT}, max_iter=2000,
                             solver="liblinear")
    if folds:
        predicted = cross_val_predict(fit, matrix, y, cv=5, method="predict_proba")[:, 1]
        for threshold in (0.5, 0.7, 0.8, 0.9, 0.95):
            tp = int(((predicted >= threshold) & (y == 1)).sum())
            fp = int(((predicted >= threshold) & (y == 0)).sum())
            print(f"5-fold at {threshold}: recall {tp / max(1, int(y.sum())):.3f}, "
                  f"benign sentences over it {fp} of {int((y == 0).sum())}")
    fit.fit(matrix, y)
    weights = fit.coef_[0]
    keep = np.flatnonzero(np.abs(weights) > 1e-3)
    OUT.parent.mkdir(exist_ok=True)
    with OUT.open("wb") as handle:
        np.savez_compressed(handle, index=keep.astype(np.int32),
                            value=weights[keep].astype(np.float16),
                            bias=np.float32(fit.intercept_[0]))
    print(f"{len(keep)} weights written to {OUT.relative_to(REPO)} "
          f"({OUT.stat().st_size // 1024} kB) in {time.perf_counter() - started:.0f} s")


def heldout_catalog(folder: Path, seed: int = 7) -> tuple[Path, dict[str, dict[str, str]]]:
    """The held-out wordings, each injected into a real benign tool; the catalog's path and
    each tool's name -> its held-out entry."""
    rng = random.Random(seed)
    pool = [t for t in json.loads((BENCHDATA / "seal_tools" / "catalog.json").read_text())
            if isinstance(t.get("parameters"), dict) and t["parameters"].get("properties")]
    entries = yaml.safe_load(HELDOUT.read_text())
    tools, names = [], {}
    for number, entry in enumerate(entries):
        base = json.loads(json.dumps(rng.choice(pool)))
        name = f"{base['name']}_{number}"
        props = base["parameters"]["properties"]
        first = next(iter(props))
        props[first] = dict(props[first]) if isinstance(props[first], dict) else {}
        text, at = entry["text"], entry["at"]
        if at == "description":
            base["description"] = f"{base.get('description', '')} {text}".strip()
        elif at == "parameter":
            props[first]["description"] = text
        elif at in ("default", "pattern", "title"):
            props[first][at] = text
        elif at == "example":
            props[first]["examples"] = [text]
        elif at == "enum":
            props[first]["enum"] = ["standard", text]
        tools.append({"name": name, "description": base.get("description", ""),
                      "parameters": base["parameters"]})
        names[name] = entry
    path = folder / "heldout-injected.yaml"
    path.write_text(yaml.safe_dump({"tools": tools}, allow_unicode=True, sort_keys=False))
    return path, names


def severities(paths: list[Path]) -> tuple[int, dict[str, set[str]], list[str]]:
    catalog = load_catalog(paths, lenient=True)
    found: dict[str, set[str]] = {}
    messages = []
    for finding in lint_catalog(catalog, SECURITY).findings:
        if finding.tool_name and finding.rule not in ("TC603", "TC604"):
            found.setdefault(finding.tool_name, set()).add(finding.severity)
            messages.append(f"{finding.where}: {finding.severity} {finding.rule} "
                            f"{finding.tool}: {finding.message}")
    return len(catalog.tools), found, messages


def evaluate(openapi: list[Path], show: bool) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path, names = heldout_catalog(Path(folder))
        _, found, _ = severities([path])
    by_class: dict[str, list[int]] = {}
    for name, entry in names.items():
        got = found.get(name, set())
        counts = by_class.setdefault(entry["class"], [0, 0, 0])
        counts[0] += 1
        counts[1] += "error" in got
        counts[2] += bool(got)
        if show and "error" not in got:
            print(f"    {'warning' if got else 'missed '} {entry['class']}: {entry['text'][:90]}")
    print(f"{'held-out class':<18} {'n':>3} {'errors':>7} {'findings':>9}")
    total = [0, 0, 0]
    for name, (n, errors, flagged) in sorted(by_class.items()):
        print(f"{name:<18} {n:>3} {errors:>7} {flagged:>9}")
        total = [total[0] + n, total[1] + errors, total[2] + flagged]
    print(f"{'all':<18} {total[0]:>3} {total[1] / total[0]:>7.0%} {total[2] / total[0]:>9.0%}")
    print(f"\n{'benign catalog':<34} {'tools':>6} {'errors':>7} {'warned':>7}")
    benign = [BENCHDATA / name / "catalog.json" for name in SETS] + openapi
    benign += sorted((REPO / "tests" / "data" / "poison" / "benign").iterdir())
    for source in benign:
        count, found, messages = severities([source])
        errors = sum("error" in s for s in found.values())
        warned = sum("warning" in s and "error" not in s for s in found.values())
        print(f"{source.name[:34]:<34} {count:>6} {errors:>7} {warned:>7}")
        if show:
            for message in messages:
                print(f"    {message[:240]}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("command", choices=("train", "evaluate"))
    parser.add_argument("--openapi", type=Path, nargs="*", default=[],
                        help="OpenAPI descriptions to count false positives on")
    parser.add_argument("--cached", action="store_true",
                        help="train on the corpus the last run built (in the temp folder)")
    parser.add_argument("--no-folds", action="store_true", help="skip the 5-fold figures")
    parser.add_argument("--show", action="store_true", help="print misses and findings")
    args = parser.parse_args()
    if args.command == "train":
        train(args.cached, not args.no_folds)
    else:
        evaluate(args.openapi, args.show)


if __name__ == "__main__":
    main()
