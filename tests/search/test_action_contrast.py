"""train/verbs.py writes the query model's action-contrast requests from a catalog's own tool
names: only tools with a sibling that differs by the action get one, in a user's words rather
than the tool's own verb, and a tool held out of training is never named."""

from __future__ import annotations

import importlib.util
import json

import numpy as np

from tests.conftest import REPO
from toolcat.catalog.load import load_catalog


def _verbs():
    spec = importlib.util.spec_from_file_location("verbs", REPO / "train" / "verbs.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _catalog(tmp_path, names):
    path = tmp_path / "tools.json"
    path.write_text(json.dumps([{"name": n, "description": f"{n} tool",
                                 "parameters": {"type": "object"}} for n in names]))
    return list(load_catalog(str(path)).tools)


def test_siblings_that_differ_by_action_get_requests_in_a_users_words(tmp_path):
    verbs = _verbs()
    tools = _catalog(tmp_path, ["get_snapshot", "list_snapshots", "deleteSnapshot",
                                "rollback_snapshot", "send_email", "get_weather"])
    pairs = verbs.requests(tools, np.arange(len(tools)), 38)
    named = {tools[i].name for _, i in pairs}
    assert named == {"get_snapshot", "list_snapshots", "deleteSnapshot", "rollback_snapshot"}
    deleting = [text for text, i in pairs if tools[i].name == "deleteSnapshot"]
    assert len(deleting) == 2
    assert all(text.endswith("snapshot") and "delete" not in text for text in deleting)
    assert all(text.startswith(verbs.PHRASES["delete"]) for text in deleting)


def test_a_held_out_tool_is_never_named_nor_makes_its_sibling_a_pair(tmp_path):
    verbs = _verbs()
    tools = _catalog(tmp_path, ["create_room", "delete_room", "get_user", "list_users"])
    pairs = verbs.requests(tools, np.array([0, 2, 3]), 38)
    assert {tools[i].name for _, i in pairs} == {"get_user", "list_users"}
    assert verbs.requests(tools, np.array([0, 2]), 38) == []
