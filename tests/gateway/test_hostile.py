"""Any JSON body: refused with BadRequest, or read and rewritten without an exception (the
proxy turns nothing else into a 500)."""

from __future__ import annotations

from typing import Any

from hypothesis import example, given, settings
from hypothesis import strategies as st

from toolcat.gateway.apis import APIS, BadRequest, assemble
from toolcat.gateway.outputs import shorten
from toolcat.gateway.rewrite import rewrite
from toolcat.resolution import load_profile

SCALARS = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | \
    st.sampled_from(["user", "assistant", "tool", "function", "text", "tool_use",
                     "tool_result", "function_call", "function_call_output", "custom",
                     "get_weather", "gateway_search_tools", "x" * 300])
KEYS = st.sampled_from(["model", "max_tokens", "messages", "input", "tools", "role",
                        "content", "type", "name", "description", "input_schema",
                        "parameters", "function", "text", "tool_calls", "output", "id",
                        "tool_choice", "call_id", "arguments", "stream"])
JSON = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(KEYS, inner, max_size=6), max_leaves=40)
BODIES = st.fixed_dictionaries({"model": st.just("m"), "max_tokens": st.just(5)},
                               optional={"messages": JSON, "input": JSON, "tools": JSON,
                                         "tool_choice": JSON})
GATEWAYS = [load_profile(name).gateway for name in ("gateway-relevance",
                                                    "gateway-tool-search")]


@settings(max_examples=100, deadline=None)
@given(body=BODIES | JSON, path=st.sampled_from(sorted(APIS)))
def test_any_body_is_refused_or_rewritten(body: Any, path: str):
    api = APIS[path]
    try:
        checked = api.check(body)
    except BadRequest:
        return
    api.query(checked), api.first_user(checked), api.used(checked), api.chosen(checked)
    api.shorten_results(checked, lambda text: shorten(text, {}))
    for gateway in GATEWAYS:
        assert gateway is not None
        rewrite(api, checked, gateway)
    api.calls(body), assemble(api, b"data: " + repr(body).encode() + b"\n\n")


NAMES = st.text(min_size=1, max_size=12)


def _tool(path: str) -> Any:
    if path == "/v1/messages":
        return st.fixed_dictionaries({"name": NAMES, "input_schema": JSON},
                                     optional={"description": JSON, "type": JSON})
    if path == "/v1/chat/completions":
        function = st.fixed_dictionaries({"name": NAMES}, optional={"description": JSON,
                                                                   "parameters": JSON})
        return st.fixed_dictionaries({"type": st.just("function"), "function": function})
    return st.fixed_dictionaries({"type": st.just("function"), "name": NAMES},
                                 optional={"description": JSON, "parameters": JSON})


@st.composite
def shaped(draw: Any) -> tuple[str, dict[str, Any], Any]:
    path = draw(st.sampled_from(sorted(APIS)))
    user = st.fixed_dictionaries({"role": st.just("user"), "content": JSON | st.text()})
    messages = draw(st.lists(user | st.dictionaries(KEYS, JSON, max_size=4), max_size=4))
    body = {"model": "m", "max_tokens": 5, "messages" if path != "/v1/responses" else "input":
            messages, "tools": draw(st.lists(_tool(path), max_size=6,
                                             unique_by=lambda t: str(t))),
            "tool_choice": draw(JSON)}
    return path, body, draw(JSON)


@settings(max_examples=100, deadline=None)
@given(case=shaped())
@example(case=("/v1/responses", {"model": "m", "input": [], "tools": []}, {"output": True}))
@example(case=("/v1/messages", {"model": "m", "max_tokens": 5, "messages": []},
               {"content": [{"type": "tool_use", "name": "a"}], "stop_reason": "tool_use"}))
def test_well_shaped_bodies_with_hostile_leaves_are_refused_or_rewritten(case: Any):
    path, body, reply = case
    api = APIS[path]
    try:
        checked = api.check(body)
    except BadRequest:
        return
    for gateway in GATEWAYS:
        assert gateway is not None
        done = rewrite(api, checked, gateway)
        assert len(done.body.get("tools") or ()) <= len(checked.get("tools") or ()) + 1
    calls = api.calls(reply)
    if calls and isinstance(reply, dict):
        api.go_on(checked, reply, [(call, "{}") for call in calls])
        api.strip(reply, {calls[0].name})
