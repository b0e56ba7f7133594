"""Build the corpus of the learned poisoning detector, train it, and measure it through lint.

    python benchmarks/poison_detector.py train [--cached] [--fresh-sets]   # writes the weights
    python benchmarks/poison_detector.py train --cached --out W.npz [--real-catalogs 16]
        [--intended 16]   # a study's fit beside the shipped one; `evaluate --weights W.npz`
    python benchmarks/poison_detector.py folds [--cached] [--family NAME ...] [--show]
    python benchmarks/poison_detector.py folds --cached --sets fresh9 fresh13 [--without]
    python benchmarks/poison_detector.py evaluate [--openapi FILE ...] [--show] [--weights W]
    python benchmarks/poison_detector.py heldout [--show]   # the source no fit reads (BIPIA)

Corpus (sentences; only those with at least one of the detector's cues, as at run time):
- benign: every description and parameter text of ../shared/benchdata (bfcl_v4, seal_tools,
  metatool), the catalogs shipped in catalogs/, the benign MCP definitions of
  tests/data/poison/benign, the documentation of every AWS API operation and shape member in
  botocore (HTML stripped), the docstrings of three vendor SDKs, and a few hundred hard
  negatives (`poison_generators.honest`);
- malicious, in families (one way of writing each): five generators sharing one vocabulary
  (`poison_generators`: imperative, declarative, conditional, authority, other languages), the
  published MCP tool-poisoning examples, the hand-written wordings of
  benchmarks/data/poison/handwritten.yaml, and thirteen families with their own templates
  and vocabulary (`poison_styles`: polite, compliance, block, markup, config, third_person,
  story, terse, language, covert, settled, doing, ranked), and the injection tasks of
  AgentDojo in its attacks' wrappers (benchmarks/data/poison/external.yaml, `agentdojo`);
- with `train --fresh-sets` and in `folds --sets` only (a study; the shipped weights are not
  fitted on them, docs/lint.md says why): the development sets
  benchmarks/data/poison/fresh*.yaml of `DEV_SETS` (`fresh_sets`), each by another hand,
  every attack's `text` malicious, every string of every benign tool benign (hard negatives).
  fresh7, fresh8 and fresh18 are the held-out measure and never read here;
- with `train --real-catalogs WEIGHT` only (a study, docs/lint.md's poison21): every string of
  the real catalogs of the development halves (`DEV_HALVES`: not heldout, fresh7, fresh8),
  benign, each sentence counted WEIGHT times; `--intended WEIGHT` counts every honest sentence
  whose cues would make an error (`detector.intended`) WEIGHT times.

The fit is seeded (`SEED`): one corpus, one set of weights. `train` writes beside the weights
a record (the same name, .json): the command, the date, the versions of what reads or fits the
corpus, its sentences by origin and its hash (`fingerprint`).

Held out of every fit, written by other hands for another purpose: the BIPIA attacks of
external.yaml (`bipia`). `heldout` lints them with the shipped weights, each injected into a
real benign tool like a fold's wordings. The families of `poison_styles` in its `HELD_OUT`
(casual, rhetorical, aftermath, spec) are never fitted on either: `folds --shipped --family
spec` measures one.

`folds` is the validation: leave one family out (its sentences out of the fit, all the benign
text in), then lint 60 of its wordings, each injected into a real benign tool (seal_tools) at
the place it names, so the figure is what lint reports on a way of writing it never saw.
`folds --sets fresh3 fresh9` leaves dev sets out in turn (their attacks and benign tools out
of a fit on the corpus and the other dev sets) and lints each set's tools as
`poison_accuracy.py --fresh` does; `--without`: one fit on the corpus alone, the baseline.
`evaluate` counts the shipped weights' TC6xx errors and warnings on every real benign catalog
(`--weights`: another fit's, also for `heldout` and `folds --shipped`).
Needs scikit-learn and scipy (the `bench` extra) to train, not to evaluate.
"""

from __future__ import annotations

import argparse
import hashlib
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
from poison_styles import FAMILIES, HELD_OUT

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from toolcat.catalog.load import load_catalog  # noqa: E402
from toolcat.lint import detector  # noqa: E402
from toolcat.lint.engine import lint_catalog  # noqa: E402
from toolcat.lint.reading import as_read  # noqa: E402
from toolcat.lint.settings import LintSettings  # noqa: E402
from toolcat.lint.walk import strings  # noqa: E402

POISON = REPO / "benchmarks" / "data" / "poison"
REAL = REPO / "benchmarks" / "data" / "real-servers"
# the real catalogs of the development halves; heldout, fresh7 and fresh8 are held out
DEV_HALVES = ("dev", "fresh", "fresh2", "fresh3", "fresh4", "fresh5", "fresh6", "fresh9",
              "fresh10", "fresh11", "fresh12", "fresh13", "fresh14", "fresh15", "fresh16",
              "fresh17", "fresh18")
# the development sets, each by its own writer; fresh7, fresh8 and fresh18 are held out
DEV_SETS = ("fresh", "fresh2", "fresh3", "fresh4", "fresh5", "fresh6", "fresh9", "fresh10",
            "fresh11", "fresh12", "fresh13", "fresh14", "fresh15", "fresh16", "fresh17")
HANDWRITTEN = POISON / "handwritten.yaml"
EXTERNAL = POISON / "external.yaml"
OUT = REPO / "toolcat" / "lint" / "data" / detector.WEIGHTS
SETS = ("bfcl_v4", "seal_tools", "metatool")
SECURITY = LintSettings(select=("TC6",))
CACHE = Path(tempfile.gettempdir()) / "toolcat-poison-benign.pickle"  # --cached reads it
MALICIOUS_COUNT = 1500  # texts drawn from each generator (fewer when its templates run out)
EVALUATED = 60  # wordings of a held-out family linted in its fold
C = 0.5  # inverse regularisation of the logistic regression
SEED = 0
MALICIOUS_WEIGHT = 4.0  # a malicious sentence counts this many benign ones in the fit
# what makes the corpus or the fit besides this repository: the fit, the readers, the sources
VERSIONED = ("python", "numpy", "scipy", "scikit-learn", "google-re2", "pycld2", "botocore",
             "anthropic", "google-genai", "mistralai")
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


def sentences(text: str) -> Iterator[str]:
    """The sentences of `text` long enough to be scored, prepared (the cues are found
    later, so that a changed cue needs no new reading of the corpus), read as lint reads
    them (`reading.as_read`: disguises undone, markup out)."""
    for _, written in detector.split_sentences(as_read(text)):
        sentence = detector.prepare(written)
        if len(sentence.split()) >= detector.MIN_WORDS or not sentence.isascii():
            yield sentence


def handwritten() -> list[dict[str, str]]:
    """The hand-written wordings (class, place, text), a family of the corpus like the
    generated ones."""
    entries: list[dict[str, str]] = yaml.safe_load(HANDWRITTEN.read_text())
    return entries


def external() -> dict[str, Any]:
    """The wordings of other hands (external.yaml: sources, licences and commits in its
    header)."""
    found: dict[str, Any] = yaml.safe_load(EXTERNAL.read_text())
    return found


def agentdojo(rng: random.Random) -> list[dict[str, str]]:
    """AgentDojo's injection goals, each in each of its attacks' wrappers (who signs and who
    is addressed drawn from its placeholders' values)."""
    source = external()["agentdojo"]
    return [{"family": "agentdojo", "class": "agentdojo",
             "at": rng.choice(("description", "parameter")),
             "text": template.format(goal=goal, user=rng.choice(source["users"]),
                                     model=rng.choice(source["models"]))}
            for goal in source["goals"] for template in source["templates"]]


def dev_set(name: str) -> list[dict[str, Any]]:
    """The entries of one development set (never a held-out one)."""
    if name not in DEV_SETS:
        raise SystemExit(f"{name} is not a development set")
    entries: list[dict[str, Any]] = yaml.safe_load((POISON / f"{name}.yaml").read_text())
    return entries


def fresh_sets() -> Iterator[tuple[int, str, str]]:
    """(label, origin, text) of the development sets: an attack's wording (`text`, one or
    several fields) malicious, every string of a benign tool benign; origin `fresh_sets/NAME`
    so that a fold can leave one set out."""
    for name in DEV_SETS:
        for entry in dev_set(name):
            if entry["class"] == "benign":
                for tool in (entry["tool"], *entry.get("also", [])):
                    for text in texts_of(tool):
                        yield 0, f"fresh_sets/{name}", text
            else:
                texts = entry["text"] if isinstance(entry["text"], list) else [entry["text"]]
                for text in texts:
                    yield 1, f"fresh_sets/{name}", str(text)


def real_texts(halves: tuple[str, ...]) -> Iterator[tuple[str, str]]:
    """(origin, text) of every string of the real catalogs of `halves` (development halves
    only): vendors' own wording, cues and all."""
    for half in halves:
        if half not in DEV_HALVES:
            raise SystemExit(f"{half} is not a development half")
        for tool in load_catalog(REAL / f"{half}-catalog.json", lenient=True).tools:
            for text in texts_of(dict(tool.raw)):
                yield f"real/{half}", text


def held_out() -> list[dict[str, str]]:
    """The BIPIA attacks, never in a fit: {family, class, at, text}."""
    rng = random.Random(41)
    return [{"family": "bipia", "class": entry["class"],
             "at": rng.choice(("description", "parameter")), "text": entry["text"]}
            for entry in external()["bipia"]]


def attacks(count: int, seed: int = 41) -> list[dict[str, str]]:
    """Every malicious text of the corpus: {family, class, at, text}. The five generators of
    `poison_generators` (one vocabulary, no class), the published examples, the
    hand-written wordings, and the families of `poison_styles` (each its own vocabulary)."""
    rng = random.Random(seed)
    found = [{"family": family, "class": "", "at": "description", "text": text}
             for family, text in malicious(count, seed)]
    found += [{"family": "handwritten", **entry} for entry in handwritten()]
    for family, generate in FAMILIES.items():
        seen: set[str] = set()
        for _ in range(count):
            attack, text = generate(rng)
            if text not in seen:
                seen.add(text)
                at = rng.choice(("description", "parameter", "default", "example")
                                if family == "config" else ("description", "parameter"))
                found.append({"family": family, "class": attack, "at": at, "text": text})
    found += agentdojo(rng)
    return found


Row = tuple[int, str, str, tuple[str, ...]]  # label, family or source, sentence, cues


def corpus(cached: bool, fresh: bool = False, real: bool = False) -> list[Row]:
    """Benign sentences (cached in the temp folder with --cached: reading botocore and the
    SDKs is most of the time) and malicious ones, each distinct sentence with a cue once;
    `fresh`: the development sets too (`fresh_sets`, a study: see docs/lint.md); `real`: the
    development halves' real catalogs too (`real_texts`, a study)."""
    if cached and CACHE.exists():
        benign: list[tuple[int, str, str]] = pickle.loads(CACHE.read_bytes())
    else:
        benign = [(0, source.split(".")[0], sentence) for source, text in benign_texts()
                  for sentence in sentences(text)]
        CACHE.write_bytes(pickle.dumps(benign))
    rows: list[Row] = []
    seen: set[str] = set()
    malicious_rows = [(1, entry["family"], sentence) for entry in attacks(MALICIOUS_COUNT)
                      if entry["family"] not in HELD_OUT
                      for sentence in sentences(entry["text"])]
    vendors = [(0, origin, sentence) for origin, text in real_texts(DEV_HALVES if real else ())
               for sentence in sentences(text)]
    dev = [(label, origin, sentence) for label, origin, text in fresh_sets()
           for sentence in sentences(text)] if fresh else []
    # a set's benign sentences first: a sentence its writer also used honestly is not an attack
    for label, origin, sentence in benign + vendors + sorted(dev) + malicious_rows:
        if sentence not in seen:
            seen.add(sentence)
            cues = detector.cues_of(sentence)
            if cues:
                rows.append((label, origin, sentence, cues))
    return rows


def fingerprint(rows: list[Row]) -> str:
    """What the fit reads of `rows` (each sentence's label, cues and feature indices), hashed:
    a changed cue, feature or generated wording changes it."""
    digest = hashlib.sha256()
    for label, _, sentence, cues in rows:
        digest.update(json.dumps([label, sentence, cues, sorted(set(
            detector.features(sentence, cues)))], ensure_ascii=False).encode())
    return digest.hexdigest()


def counted(rows: list[Row], real: float, intended: float) -> list[float] | None:
    """How much each row counts in the fit (a study, docs/lint.md's poison21): a sentence of
    a real catalog `real` times, any other honest one whose cues would make an error of it
    (`detector.intended`) `intended` times; None: each once, as the shipped fit."""
    if not (real or intended):
        return None
    return [max(real if origin.startswith("real/") else 1.0,
                intended if not label and detector.intended(cues) else 1.0)
            for label, origin, _, cues in rows]


def fit(rows: list[Row], weights: list[float] | None = None) -> detector.Model:
    """The logistic regression over `rows` (each counted by `weights`), as the detector's
    weights."""
    import numpy as np
    from scipy.sparse import csr_matrix
    from sklearn.linear_model import LogisticRegression

    indptr, indices = [0], []
    for _, _, sentence, cues in rows:
        indices += sorted(set(detector.features(sentence, cues)))
        indptr.append(len(indices))
    matrix = csr_matrix((np.ones(len(indices), dtype=np.float32), indices, indptr),
                        shape=(len(rows), detector.BUCKETS))
    y = np.array([row[0] for row in rows])
    # liblinear shuffles with the seed it is given: without one, two fits differ
    model = LogisticRegression(C=C, class_weight={0: 1.0, 1: MALICIOUS_WEIGHT},
                               max_iter=2000, solver="liblinear", random_state=SEED
                               ).fit(matrix, y, sample_weight=weights)
    weights = model.coef_[0].astype(np.float32)
    weights[np.abs(weights) <= 1e-3] = 0.0
    return detector.Model(weights.astype(np.float16).astype(np.float32),
                          float(np.float32(model.intercept_[0])))


def train(cached: bool, fresh: bool, out: Path = OUT, real: float = 0.0,
          intended: float = 0.0) -> None:
    """Fit the weights and write them to `out`, with a record beside them (the same name,
    .json): the command, the versions, the sentences by origin and the corpus's hash."""
    import numpy as np

    started = time.perf_counter()
    rows = corpus(cached, fresh, bool(real))
    counts = Counter((r[0], r[1]) for r in rows)
    for (label, origin), count in sorted(counts.items()):
        print(f"{'malicious' if label else 'benign'} {origin:<20} {count:>7} sentences")
    model = fit(rows, counted(rows, real, intended))
    keep = np.flatnonzero(model.weights)
    out.parent.mkdir(exist_ok=True)
    with out.open("wb") as handle:
        np.savez_compressed(handle, index=keep.astype(np.int32),
                            value=model.weights[keep].astype(np.float16),
                            bias=np.float32(model.bias))
    record = {
        "command": " ".join(["python benchmarks/poison_detector.py", *sys.argv[1:]]),
        "fitted": time.strftime("%Y-%m-%d", time.gmtime()),
        "weights_sha256": hashlib.sha256(out.read_bytes()).hexdigest(),
        "corpus_sha256": fingerprint(rows),
        "sentences": {f"{'malicious' if label else 'benign'} {origin}": count
                      for (label, origin), count in sorted(counts.items())},
        "versions": {name: version(name) for name in VERSIONED},
    }
    out.with_suffix(".json").write_text(json.dumps(record, indent=1) + "\n")
    print(f"{len(keep)} weights written to {out} "
          f"({out.stat().st_size // 1024} kB) in {time.perf_counter() - started:.0f} s")


def version(name: str) -> str:
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    if name == "python":
        return sys.version.split()[0]
    try:
        return installed(name)
    except PackageNotFoundError:
        return "absent"


def load(path: Path) -> detector.Model:
    """Weights written by `train` (as `detector.model` reads the shipped file)."""
    return detector.read_weights(path)


def use(model: detector.Model) -> None:
    """Make lint score with `model` (a benchmark's swap, not an option of lint)."""
    detector.model = lambda: model  # type: ignore[assignment]
    detector._scored.clear()


def folds(cached: bool, show: bool, only: list[str], shipped: bool) -> None:
    """Leave one family out: fit on every other family (and all the benign text), lint that
    family's wordings injected into real benign tools, and count errors and findings.
    `shipped`: lint each family with the shipped weights instead (held out only for the
    families they were not trained on)."""
    rows = [] if shipped else corpus(cached)
    entries = attacks(MALICIOUS_COUNT)
    families = only or sorted({e["family"] for e in entries})
    total = [0, 0, 0]
    by_class: dict[str, list[int]] = {}
    print(f"{'held-out family':<16} {'wordings':>8} {'errors':>7} {'findings':>9}")
    for family in families:
        held = [e for e in entries if e["family"] == family]
        held = random.Random(7).sample(held, min(EVALUATED, len(held)))
        unseen = {s for e in held for s in sentences(e["text"])}
        if not shipped:
            use(fit([r for r in rows if r[1] != family and r[2] not in unseen]))
        with tempfile.TemporaryDirectory() as folder:
            path, names = injected(Path(folder), held)
            _, found, _ = severities([path])
        errors = flagged = 0
        for name, entry in names.items():
            got = found.get(name, set())
            errors += "error" in got
            flagged += bool(got)
            tally(got, entry, by_class, show)
        print(f"{family:<16} {len(held):>8} {errors / len(held):>7.0%} "
              f"{flagged / len(held):>9.0%}", flush=True)
        total = [total[0] + len(held), total[1] + errors, total[2] + flagged]
    print(f"{'all':<16} {total[0]:>8} {total[1] / total[0]:>7.0%} "
          f"{total[2] / total[0]:>9.0%}\n")
    print(f"{'class (held out)':<16} {'wordings':>8} {'errors':>7} {'findings':>9}")
    for name, (n, errors, flagged) in sorted(by_class.items()):
        print(f"{name:<16} {n:>8} {errors:>7} {flagged:>9}")


def set_folds(cached: bool, names: list[str], shipped: bool, without: bool) -> None:
    """Leave each development set of `names` out in turn (its attacks and benign tools, and
    every sentence of theirs, out of the fit) and lint its tools one catalog each, as
    `poison_accuracy.py --fresh` does; `shipped`: the shipped weights instead of a fit;
    `without`: one fit without any development set, the family's baseline."""
    from poison_accuracy import fresh_entries, verdicts

    rows = [] if shipped else corpus(cached, fresh=True)
    if without:
        use(fit([r for r in rows if not r[1].startswith("fresh_sets/")]))
    print(f"{'held-out set':<14} {'errors':>7} {'findings':>9} {'benign errors':>14}")
    for name in names:
        dev_set(name)
        if not shipped and not without:
            unseen = {sentence for _, origin, text in fresh_sets()
                      if origin == f"fresh_sets/{name}" for sentence in sentences(text)}
            use(fit([r for r in rows if r[1] != f"fresh_sets/{name}" and r[2] not in unseen]))
        counts: Counter[tuple[str, str]] = Counter()
        with tempfile.TemporaryDirectory() as folder:
            for entry, catalog in fresh_entries(POISON / f"{name}.yaml", Path(folder)):
                levels = set().union(*verdicts(catalog).values())
                kind = "benign" if entry["class"] == "benign" else "attack"
                counts[kind, "error"] += "error" in levels
                counts[kind, "found"] += bool(levels)
        print(f"{name:<14} {counts['attack', 'error']:>7} {counts['attack', 'found']:>9} "
              f"{counts['benign', 'error']:>14}", flush=True)


def tally(got: set[str], entry: dict[str, Any], by_class: dict[str, list[int]],
          show: bool) -> None:
    """Count a held-out wording, whose lint gave the severities `got`, under its class
    (wordings, errors, findings); with `show`, print it unless it was an error."""
    if entry["class"]:
        counts = by_class.setdefault(entry["class"], [0, 0, 0])
        counts[0] += 1
        counts[1] += "error" in got
        counts[2] += bool(got)
    if show and "error" not in got:
        print(f"    {'warning' if got else 'missed '} {entry['text'][:100]}")


def heldout(show: bool) -> None:
    """The shipped weights on the source no fit reads (BIPIA), by its category."""
    entries = held_out()
    with tempfile.TemporaryDirectory() as folder:
        path, names = injected(Path(folder), entries)
        _, found, _ = severities([path])
    by_class: dict[str, list[int]] = {}
    for name, entry in names.items():
        tally(found.get(name, set()), entry, by_class, show)
    print(f"{'BIPIA category':<40} {'wordings':>8} {'errors':>7} {'findings':>9}")
    for name, (n, errors, flagged) in sorted(by_class.items()):
        print(f"{name[:40]:<40} {n:>8} {errors:>7} {flagged:>9}")
    n, errors, flagged = (sum(c[i] for c in by_class.values()) for i in range(3))
    print(f"{'all':<40} {n:>8} {errors / n:>7.0%} {flagged / n:>9.0%}")


def injected(folder: Path, entries: list[dict[str, str]], seed: int = 7
             ) -> tuple[Path, dict[str, dict[str, str]]]:
    """`entries`, each injected into a real benign tool (seal_tools) at the place it names;
    the catalog's path and each tool's name -> its entry."""
    rng = random.Random(seed)
    pool = [t for t in json.loads((BENCHDATA / "seal_tools" / "catalog.json").read_text())
            if isinstance(t.get("parameters"), dict) and t["parameters"].get("properties")]
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
    path = folder / "injected.yaml"
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
    """TC6xx errors and warnings of the shipped weights on every real benign catalog (and the
    OpenAPI descriptions given), by tool."""
    print(f"{'benign catalog':<34} {'tools':>6} {'errors':>7} {'warned':>7}")
    benign = [BENCHDATA / name / "catalog.json" for name in SETS]
    benign += sorted((REPO / "benchmarks" / "data" / "real-servers").glob("*-catalog.json"))
    benign += sorted((REPO / "catalogs").glob("*.yaml")) + openapi
    benign += sorted((REPO / "tests" / "data" / "poison" / "benign").iterdir())
    total = [0, 0, 0]
    for source in benign:
        count, found, messages = severities([source])
        errors = sum("error" in s for s in found.values())
        warned = sum("warning" in s and "error" not in s for s in found.values())
        total = [total[0] + count, total[1] + errors, total[2] + warned]
        print(f"{source.name[:34]:<34} {count:>6} {errors:>7} {warned:>7}")
        if show:
            for message in messages:
                print(f"    {message[:240]}")
    print(f"{'all':<34} {total[0]:>6} {total[1]:>7} {total[2]:>7}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("command", choices=("train", "folds", "evaluate", "heldout"))
    parser.add_argument("--openapi", type=Path, nargs="*", default=[],
                        help="OpenAPI descriptions to count false positives on")
    parser.add_argument("--cached", action="store_true",
                        help="reuse the benign sentences the last run read (temp folder)")
    parser.add_argument("--family", nargs="*", default=[],
                        help="folds: hold out only these families")
    parser.add_argument("--sets", nargs="*", default=[],
                        help="folds: leave these development sets out in turn instead")
    parser.add_argument("--fresh-sets", action="store_true",
                        help="train: fit on the development sets too (a study; the shipped "
                             "weights are not)")
    parser.add_argument("--without", action="store_true",
                        help="folds --sets: one fit without the development sets")
    parser.add_argument("--shipped", action="store_true",
                        help="folds: lint with the shipped weights, no fit")
    parser.add_argument("--show", action="store_true", help="print misses and findings")
    parser.add_argument("--real-catalogs", type=float, default=0.0, metavar="WEIGHT",
                        help="train: fit on the development halves' real catalogs as honest "
                             "text, each sentence counted WEIGHT times (a study)")
    parser.add_argument("--intended", type=float, default=0.0, metavar="WEIGHT",
                        help="train: count an honest sentence whose cues would make an error "
                             "WEIGHT times (a study)")
    parser.add_argument("--out", type=Path, default=OUT,
                        help="train: where to write the weights (default: the shipped file)")
    parser.add_argument("--weights", type=Path,
                        help="evaluate, heldout, folds --shipped: these weights, not the "
                             "shipped ones")
    args = parser.parse_args()
    if args.weights:
        use(load(args.weights))
    if args.command == "train":
        train(args.cached, args.fresh_sets, args.out, args.real_catalogs, args.intended)
    elif args.command == "folds" and args.sets:
        set_folds(args.cached, args.sets, args.shipped, args.without)
    elif args.command == "folds":
        folds(args.cached, args.show, args.family, args.shipped)
    elif args.command == "heldout":
        heldout(args.show)
    else:
        evaluate(args.openapi, args.show)


if __name__ == "__main__":
    main()
