"""The exact prompt of every format and the exact request of every provider for the demo
scenario, compared with reviewed snapshots in tests/data/render/.

After an intended change, regenerate with `TOOLCAT_UPDATE_SNAPSHOTS=1 python -m pytest
tests/render/test_snapshots.py` and review the diff line by line against
../shared/reference/provider-formats.md before committing it.
"""

from __future__ import annotations

import json
import os
from dataclasses import replace
from pathlib import Path

import pytest

from tests.conftest import DATA
from toolcat.render import FORMATS, REQUEST_PROVIDERS, render

SNAPSHOTS = DATA / "render"
UPDATE = os.environ.get("TOOLCAT_UPDATE_SNAPSHOTS") == "1"


def matches_snapshot(path: Path, text: str) -> None:
    if UPDATE:
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"no snapshot {path.name}; run with TOOLCAT_UPDATE_SNAPSHOTS=1"
    assert text == path.read_text(encoding="utf-8"), f"{path.name} differs from its snapshot"


@pytest.mark.parametrize("fmt", list(FORMATS))
def test_every_format_renders_the_demo_prompt_exactly(scenario, fmt):
    rendered = render(replace(scenario, format=fmt))
    notes = "".join(f"# note: {n}\n" for n in rendered.notes)
    matches_snapshot(SNAPSHOTS / f"prompt-{fmt}.txt", notes + rendered.system_prompt + "\n")


@pytest.mark.parametrize("provider", REQUEST_PROVIDERS)
def test_every_provider_builds_the_demo_request_exactly(scenario, provider):
    rendered = render(scenario, provider=provider)
    body = {"notes": list(rendered.notes), "payload": rendered.payload}
    text = json.dumps(body, indent=2, ensure_ascii=False) + "\n"
    matches_snapshot(SNAPSHOTS / f"request-{provider}.json", text)


def test_a_text_format_request_carries_the_prompt_and_no_tools(scenario):
    rendered = render(replace(scenario, format="hermes"), provider="openai")
    assert set(rendered.payload) == {"messages"}
    assert rendered.payload["messages"][0] == {"role": "system",
                                               "content": rendered.system_prompt}
    assert "<tools>" in rendered.system_prompt
