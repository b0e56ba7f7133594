"""The conversations the gateway remembers: keyed by API, credential and first user message;
an hour's life; bounded in number and in bytes."""

from __future__ import annotations

from toolcat.gateway.sessions import Sessions, session_key


def test_the_key_separates_apis_credentials_and_first_messages():
    key = session_key("anthropic", "Bearer a", "hello")
    assert key == session_key("anthropic", "Bearer a", "hello")
    assert len({key, session_key("openai", "Bearer a", "hello"),
                session_key("anthropic", "Bearer b", "hello"),
                session_key("anthropic", "Bearer a", "hello!")}) == 4


def test_a_session_lives_an_hour_after_its_last_request():
    now = [0.0]
    sessions = Sessions(clock=lambda: now[0])
    sessions.get("a").expand(["get_weather"])
    now[0] = 3000.0
    assert sessions.get("a").expanded == ("get_weather",)  # used again: another hour
    now[0] = 6500.0
    assert sessions.get("a").expanded == ("get_weather",)
    now[0] = 6500.0 + 3601
    assert sessions.get("a").expanded == ()


def test_the_store_keeps_at_most_its_number_of_sessions_least_recently_used_out_first():
    sessions = Sessions(max_sessions=3)
    for key in "abc":
        sessions.get(key).expand([key])
    sessions.get("a")
    sessions.get("d")
    assert len(sessions) == 3
    assert sessions.get("b").expanded == ()  # b was the least recently used
    assert sessions.get("a").expanded == ("a",)


def test_deferred_definitions_are_bounded_in_bytes():
    sessions = Sessions(max_bytes=10_000)
    big = {f"tool_{i}": {"name": f"tool_{i}", "description": "x" * 1000} for i in range(8)}
    first = sessions.get("first")
    sessions.defer(first, big)
    second = sessions.get("second")
    sessions.defer(second, big)  # 16 kB in all: the first conversation goes
    assert len(sessions) == 1 and len(second.deferred) == 8
    sessions.defer(second, {f"more_{i}": {"description": "y" * 1000} for i in range(8)})
    assert second.deferred == {}  # one conversation alone past the bound keeps none


def test_a_conversation_remembers_at_most_1000_found_names():
    sessions = Sessions()
    conversation = sessions.get("a")
    conversation.expand(f"tool_{i}" for i in range(1500))
    assert len(conversation.expanded) == 1000 and conversation.expanded[-1] == "tool_1499"
