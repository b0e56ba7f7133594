"""The gates kept for 2026-07-28 clients over HTTP are bounded: per client, per owner, in
all, and in time."""

from __future__ import annotations

from itertools import count
from typing import Any

from toolcat.serve.clients import StatelessClients


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def clients(clock: Clock, **limits: Any) -> StatelessClients:
    made = count()
    return StatelessClients(lambda: next(made), clock=clock, **limits)  # type: ignore[arg-type, return-value]


def test_a_client_keeps_its_gate_and_others_get_their_own():
    kept = clients(Clock())
    alice = kept.gate(b"here", "alice")
    assert kept.gate(b"here", "alice") is alice
    assert kept.gate(b"here", "bob") != alice
    assert kept.gate(b"there", "alice") != alice  # another address or credential


def test_one_owner_holds_at_most_its_share_and_drops_its_oldest():
    kept = clients(Clock(), per_owner=3, limit=10)
    first = kept.gate(b"here", "c0")
    other = kept.gate(b"there", "c0")
    for i in range(1, 4):
        kept.gate(b"here", f"c{i}")
    assert len(kept) == 4
    assert kept.gate(b"there", "c0") == other  # another owner's gate is not taken
    assert kept.gate(b"here", "c0") != first  # the oldest of its own was dropped


def test_gates_are_bounded_in_all_and_forgotten_when_idle():
    clock = Clock()
    kept = clients(clock, per_owner=10, limit=3, idle=300)
    gates = [kept.gate(bytes([i]), "c") for i in range(4)]
    assert len(kept) == 3 and kept.gate(bytes([0]), "c") != gates[0]  # least recently used
    clock.now = 299
    kept.gate(bytes([3]), "c")
    clock.now = 301
    assert kept.gate(bytes([3]), "c") == gates[3]  # used 2 s ago
    assert len(kept) == 1  # the others were idle for 301 s
