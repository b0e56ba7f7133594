"""What a batch of requests costs `hybrid` with each embedding model, cold and warm, in one run.

A batch's request vectors are kept in the embedding cache under the model's identity, so a
model whose requests were encoded by an earlier run (the default one, usually) answers a
labeled set in seconds while another one encodes every request first: comparing the two
across runs compares a warm cache with a cold one. Here every model starts from the same
empty cache folder (the stored ONNX query encoders copied in, so that no model loads torch)
and scores the same requests twice: cold (its requests encoded) and warm (read back).

    nice -n 10 python benchmarks/model_speed.py                      # bfcl_v4, first 300
    nice -n 10 python benchmarks/model_speed.py --set seal_tools --sample 1000
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from search_accuracy import SETS, load_set  # noqa: E402

from toolcat.search import build_scorer, score_many  # noqa: E402
from toolcat.search import onnx_encoder as onnx  # noqa: E402
from toolcat.search.embeddings import MODELS, EmbeddingCache, _locate  # noqa: E402
from toolcat.source.cache import CACHE_ENV  # noqa: E402


class Counting:
    """Counts the texts the ONNX encoder encodes (the requests, their heads and parts)."""

    def __init__(self) -> None:
        self.texts = 0
        self._encode = onnx.OnnxEncoder.encode

        def encode(encoder: onnx.OnnxEncoder, texts: list[str], batch_size: int = 64
                   ) -> object:
            self.texts += len(texts)
            return self._encode(encoder, texts, batch_size)

        onnx.OnnxEncoder.encode = encode  # type: ignore[assignment,method-assign]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--set", default="bfcl_v4", choices=SETS)
    parser.add_argument("--sample", type=int, default=300, help="the first N requests")
    parser.add_argument("--models", nargs="+", default=MODELS[::-1], choices=MODELS)
    args = parser.parse_args()
    idents = {model: _locate(model)[1] for model in args.models}
    exports = {model: onnx.export_path(EmbeddingCache(ident).folder, ident)
               for model, ident in idents.items()}
    cold = Path(tempfile.mkdtemp(prefix="toolcat-model-speed-"))
    try:
        os.environ[CACHE_ENV] = str(cold)
        for model, ident in idents.items():
            if exports[model].is_file():
                target = onnx.export_path(EmbeddingCache(ident).folder, ident)
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy(exports[model], target)
            else:
                print(f"{model}: no ONNX export stored yet; torch encodes its requests")
        tools, queries, _ = load_set(args.set, args.sample)
        print(f"{args.set}: {len(tools):,} tools, {len(queries):,} requests, one empty cache")
        print(f"  {'model':<18} {'texts':>6} {'cold s':>8} {'warm s':>8}")
        counting = Counting()
        first: float | None = None
        for model in args.models:
            scorer = build_scorer("hybrid", tools, model=model)  # the catalog: base vectors
            counting.texts = 0
            started = time.perf_counter()
            score_many(scorer, queries)
            cold_s = time.perf_counter() - started
            texts = counting.texts
            started = time.perf_counter()
            score_many(scorer, queries)
            warm_s = time.perf_counter() - started
            first = cold_s if first is None else first
            print(f"  {model:<18} {texts:6d} {cold_s:8.1f} {warm_s:8.1f}"
                  f"   cold {cold_s / first:.2f}x the first model's", flush=True)
    finally:
        shutil.rmtree(cold, ignore_errors=True)


if __name__ == "__main__":
    main()
