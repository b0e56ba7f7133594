"""The requests for a missing service built from the real-server halves (train/real_pairs.py):
a request is asked of another half only when no server there offers what it needs, decided by
the servers' names, and the halves held out of every choice are never read."""

from __future__ import annotations

import importlib.util
from types import ModuleType

import pytest

from tests.conftest import REPO


def real_pairs() -> ModuleType:
    spec = importlib.util.spec_from_file_location("real_pairs", REPO / "train" / "real_pairs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("half", ["heldout", "fresh7", "fresh8"])
def test_the_halves_held_out_are_never_read(half):
    pairs = real_pairs()
    with pytest.raises(ValueError, match="held out"):
        pairs.needed_servers(half)
    with pytest.raises(ValueError, match="held out"):
        pairs.catalog_servers(half)


def test_a_chat_request_is_never_asked_of_another_chat_service():
    """dev's Slack requests are for a chat: a half with Zulip (fresh) or Discord (fresh2)
    could serve them, one without any chat server (fresh4) cannot."""
    pairs = real_pairs()
    asked = dict(pairs.needed_servers("dev"))
    channel = asked["what did people write in the general channel today"]
    assert channel == {"slack"}
    assert not pairs.missing_in(channel, pairs.catalog_servers("fresh"))
    assert not pairs.missing_in(channel, pairs.catalog_servers("fresh2"))
    assert pairs.missing_in(channel, pairs.catalog_servers("fresh4"))


def test_every_request_of_an_allowed_half_names_the_servers_it_needs():
    """Each labeled request keeps the servers of its labeled tools, and its own half always
    offers them (it is never a missing service there)."""
    pairs = real_pairs()
    for half in pairs.ALLOWED:
        asked = pairs.needed_servers(half)
        lines = (pairs.DATA / f"{half}-queries.jsonl").read_text(encoding="utf-8").splitlines()
        assert asked and len(asked) <= len(lines)
        own = pairs.catalog_servers(half)
        assert all(servers <= own and not pairs.missing_in(servers, own)
                   for _, servers in asked), half
