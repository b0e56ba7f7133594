"""An acronym's plural is one word, its singular (toolcat.search.text.acronym_plurals): "GPUs"
meets `gpu`, where the camelCase split read it as "GP" and "Us". Model-free, but for the last
test, which ranks a real catalog of benchmarks/data/real-servers with the real model."""

from __future__ import annotations

from pathlib import Path

import pytest

from toolcat.catalog.load import load_catalog
from toolcat.model import Tool
from toolcat.search.bm25 import BM25Scorer
from toolcat.search.text import acronym_plurals, located, split_camel, stems, words

DATA = Path(__file__).resolve().parents[2] / "benchmarks" / "data" / "real-servers"


@pytest.mark.parametrize(("written", "read"), [
    ("GPUs", ["gpu"]), ("VMs", ["vm"]), ("PRs", ["pr"]), ("IDs", ["id"]), ("URLs", ["url"]),
    ("CVEs", ["cve"]), ("APIs", ["api"]), ("UUIDs", ["uuid"]),
    ("getAPIsForUser", ["api", "user"]), ("listPRs", ["list", "pr"]),
])
def test_an_acronyms_plural_is_read_as_the_acronym(written: str, read: list[str]) -> None:
    assert stems(written) == read


@pytest.mark.parametrize(("written", "read"), [
    ("HTTPServer", ["http", "server"]), ("OAuth", ["auth"]), ("iOS", ["os"]),
    ("GPUS", ["gpus"]), ("Ms", ["ms"]), ("PhDs", ["ph", "ds"]), ("gpus", ["gpus"]),
    ("AKS", ["ak"]), ("S3s", ["s3s"]), ("ALARMs", ["alarm"]), ("DNSsec", ["dn", "ssec"]),
])
def test_other_words_split_as_before(written: str, read: list[str]) -> None:
    assert stems(written) == read


def test_the_plural_keeps_its_span_and_lint_splits_as_before() -> None:
    assert list(located("open PRs, VMs")) == [(0, 4, "open"), (5, 8, "pr"), (10, 13, "vm")]
    assert words("which GPUs") == ["which", "gpu"]
    assert split_camel("GPUs") == "GP Us"  # lint's reading of names is its own


def test_the_plurals_a_request_holds_each_once() -> None:
    assert acronym_plurals("which GPUs and VMs, and more GPUs? getAPIsForUser") == [
        ("GPUs", "GPU"), ("VMs", "VM"), ("APIs", "API")]
    assert acronym_plurals("GPUS gpus Ms the PhDs") == []
    assert acronym_plurals("") == []


def test_a_plural_no_longer_meets_a_duration_in_ms() -> None:
    tools = [Tool(name="list_servers", description="List the virtual machines (VMs).",
                  server="s"),
             Tool(name="ping", description="Round-trip time in ms.", server="s")]
    scorer = BM25Scorer(tools)
    evidence = scorer.evidence("list my VMs")[0]
    assert evidence[0] > 0 and evidence[1] == 0
    reason, details = scorer.explain("list my VMs", 0)
    assert "'VMs' read as the plural of VM" in reason
    assert details["plurals"] == {"VMs": "VM"}


def test_a_plural_meets_the_singular_in_a_real_catalog() -> None:
    """fresh14's RunPod server: `list-gpu-types` and `get-gpu-type` say "GPU"; "GPUs" met
    neither before."""
    tools = [t for t in load_catalog(DATA / "fresh14-catalog.json").tools
             if t.server == "runpod"]
    scorer = BM25Scorer(tools)
    evidence = scorer.evidence("which GPUs can we rent")[0]
    names = {t.name for t, e in zip(tools, evidence, strict=True) if e > 0}
    assert {"list-gpu-types", "get-gpu-type"} <= names


def test_hostile_text_reads_in_linear_time() -> None:
    long = "AB" * 50_000 + "s"
    assert stems(long) == [long[:-1].lower()]
    assert acronym_plurals("Xs " * 10_000) == []


@pytest.mark.semantic
@pytest.mark.usefixtures("shared_cache")  # the servers' tools are encoded once a session
@pytest.mark.parametrize(("request_", "expected"), [
    ("list GPUs with at least 80GB", {"list-gpu-types"}),
    ("what GPUs are there", {"list-gpu-types", "get-gpu-type"}),
    ("which CVEs does the checkout project have", {"snyk_list_project_cves"}),
])
def test_a_plural_puts_the_tool_of_its_singular_first_and_says_why(
        request_: str, expected: set[str]) -> None:
    from toolcat.search import build_scorer, rank

    # three servers of fresh14, not its 712 tools: encoding them is the test's cost. Before,
    # `set-endpoint-gpus` and `snyk_list_container_image_cves` led on "gpus" and "cves" alone
    tools = [t for t in load_catalog(DATA / "fresh14-catalog.json").tools
             if t.server in {"runpod", "snyk", "qdrant"}]
    found = rank(build_scorer("hybrid", tools), request_, limit=3)
    assert found[0].tool.name in expected
    assert "read as the plural of" in found[0].reason
