"""Two training options of train/tool_model.py (docs/search.md, "Round 13 (model8)"): requests
written with a login beside the need (`--login`), and every needed tool a positive of its own
(`--each-positive`). Built from API-Bank's real converted set, without the model."""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from types import ModuleType

import numpy as np
import pytest

from tests.conftest import REPO
from toolcat.catalog.load import load_catalog

APIBANK = REPO / "train" / "data" / "apibank"


def tool_model() -> ModuleType:
    spec = importlib.util.spec_from_file_location("tool_model", REPO / "train" / "tool_model.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["tool_model"] = module  # its dataclass looks its module up
    spec.loader.exec_module(module)
    return module


def apibank(module: ModuleType) -> object:
    """API-Bank as load_set splits it (a third of the requests measured), with no vectors."""
    tools = list(load_catalog(str(APIBANK / "catalog.json")).tools)
    index = {t.name: i for i, t in enumerate(tools)}
    rows = [json.loads(line) for line in (APIBANK / "queries.jsonl").read_text().splitlines()
            if line.strip()]
    texts = [row["query"] for row in rows]
    relevant = [sorted(index[n] for n in row["relevant"]) for row in rows]
    test = list(range(0, len(rows), 3))
    train = [i for i in range(len(rows)) if i % 3]
    return module.LabeledSet("apibank", tools, texts, relevant, np.zeros((len(tools), 384)),
                             train, test, np.arange(len(tools)))


@pytest.mark.skipif(not APIBANK.is_dir(), reason="train/data is not in this checkout")
def test_a_login_is_written_beside_training_requests_only_and_their_tools_kept():
    module = tool_model()
    data = apibank(module)
    written = module.with_credentials(data)
    assert written.name == "apibank+login" and not written.test
    assert 0 < len(written.texts) <= module.LOGIN_PER_SET
    originals = {data.texts[i].strip(): data.relevant[i] for i in data.train}
    measured = {data.texts[i].strip() for i in data.test} - set(originals)
    for text, needed in zip(written.texts, written.relevant, strict=True):
        source = [o for o in originals if o in text]
        assert source, text  # the need is there whole, before or after the clause
        assert needed == originals[source[0]]
        assert not any(m in text for m in measured)
        clause = text.replace(source[0], "")
        assert module.CREDENTIAL_WORDS.search(clause) or re.search("account|logged in", clause,
                                                                    re.IGNORECASE), clause
        names = " ".join(data.tools[t].name for t in needed)
        assert not module.CREDENTIAL_WORDS.search(names)  # ForgotPassword's own are left out
        assert not module.CREDENTIAL_WORDS.search(source[0])
    # seeded: the same requests again, other ones under another seed
    assert module.with_credentials(data).texts == written.texts
    assert module.with_credentials(data, seed=39).texts != written.texts


def test_each_needed_tool_is_its_own_positive():
    """A request needing two tools, one ranked first and the other under a negative: their
    loss together hardly notices the second; each alone does, and falls as it rises."""
    torch = pytest.importorskip("torch")
    module = tool_model()
    positive = torch.tensor([[True, True, False, False]])
    low = torch.tensor([[6.0, 0.0, 2.0, 0.0]])
    risen = torch.tensor([[6.0, 3.0, 2.0, 0.0]])
    together = float(module.positives_loss(low, positive, each=False))
    alone = float(module.positives_loss(low, positive, each=True))
    assert together < 0.05 < 1.0 < alone
    assert float(module.positives_loss(risen, positive, each=True)) < alone / 2
    # one positive: both read the same
    single = torch.tensor([[True, False, False, False]])
    assert float(module.positives_loss(low, single, each=False)) == pytest.approx(
        float(module.positives_loss(low, single, each=True)), abs=1e-5)
