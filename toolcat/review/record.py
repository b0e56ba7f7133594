"""What one request looks like to the model under one profile: the record a review keeps,
built from what resolve decided and what render wrote, and the files it is written as.

A record stays small at any catalog size: every visible tool is listed with the rule behind
it; deferred and excluded tools are grouped by rule, each group with its count, its token
cost and its first LISTED tools (the trace lists the rest by count).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from toolcat.model import Tool
from toolcat.render.renderer import Rendered
from toolcat.resolution import Brief, Resolution
from toolcat.review.requests import Request
from toolcat.review.trace import trace_markdown

LISTED = 25  # tools named per group of deferred or excluded tools
SCORE_DIGITS = 3  # as resolve prints them: a review must not churn on float noise


@dataclass(frozen=True)
class Placed:
    """A visible tool: how the model knows it, its identity, the rule and reason, its cost."""

    name: str
    tool: str
    rule: str
    reason: str
    score: float | None
    tokens: int


@dataclass(frozen=True)
class Group:
    """Deferred or excluded tools that share a rule (and, deferred, the search tool that can
    still reveal them): how many, what they would cost, the first LISTED of them."""

    status: str
    rule: str
    via: str | None
    count: int
    tokens: int
    tools: tuple[str, ...]


@dataclass(frozen=True)
class Cost:
    """Tokens of the request for one target: "prompt" (no provider) or a provider's name."""

    target: str
    system: int
    tools: int
    overhead: int
    total: int
    method: str


@dataclass(frozen=True)
class Record:
    """One request under one profile. `folder` is its place in the review folder (`id/profile`);
    `payloads` maps each provider to its request payload as JSON text."""

    request: Request
    profile: str
    folder: str
    format: str
    format_reason: str
    cap: str
    scorer: str
    visible: tuple[Placed, ...]
    groups: tuple[Group, ...]
    costs: tuple[Cost, ...]
    prompt: str
    payloads: Mapping[str, str] = field(default_factory=dict)
    notes: tuple[str, ...] = ()
    trace: str = ""
    embedding_model: str = ""  # the one its scorer ranked with ("" for a scorer without one)

    @property
    def total(self) -> int:
        """The first target's total tokens: what the list of requests shows and sorts by."""
        return self.costs[0].total if self.costs else 0

    def placement(self, tool: str) -> str | None:
        """Where `tool` (qualified) ended, as far as the record names it: `visible [rule]`,
        `deferred [rule]` or `excluded [rule]`; None when a group holds it past its list."""
        for placed in self.visible:
            if placed.tool == tool:
                return f"visible [{placed.rule}] — {placed.reason}"
        for group in self.groups:
            if tool in group.tools:
                return f"{group.status} [{group.rule}]"
        return None


def build_record(request: Request, folder: str, resolution: Resolution,
                 rendered: Sequence[Rendered], model: str | None = None) -> Record:
    """The record of one resolution and its renders (one per provider, or one without);
    `model`: the embedding model its scorer ranked with."""
    visible = tuple(Placed(v.name, t.qualified_name, v.rule, _marked(t, v.reason),
                           _score(v.score), v.tokens)
                    for t in resolution.visible for v in (resolution.verdict_of(t),))
    # the rest by brief: their reasons are not shown, and at 43,000 tools writing them cost
    # most of a request's record
    rest = (*resolution.deferred, *resolution.excluded)  # each by relevance
    groups: dict[tuple[str, str, str | None], list[tuple[Tool, Brief]]] = {}
    for tool, b in zip(rest, resolution.briefs(rest), strict=True):
        key = (b.status, b.rule, b.via if b.status == "deferred" else None)
        groups.setdefault(key, []).append((tool, b))
    grouped = tuple(
        Group(status, rule, via, len(members), sum(b.tokens for _, b in members),
              tuple(t.qualified_name for t, _ in members[:LISTED]))
        for (status, rule, via), members in sorted(
            groups.items(), key=lambda item: (item[0][0] != "deferred", item[0][1],
                                              item[0][2] or "")))
    costs = tuple(Cost(r.provider or "prompt", r.tokens.system, r.tokens.tools,
                       r.tokens.overhead, r.tokens.total, r.tokens.method.label)
                  for r in rendered)
    payloads = {r.provider: json.dumps(r.payload, indent=2, ensure_ascii=False,
                                       allow_nan=False) + "\n"
                for r in rendered if r.provider is not None}
    cap = resolution.cap
    return Record(
        request=request, profile=resolution.profile.name, folder=folder,
        format=rendered[0].format, format_reason=resolution.format.reason,
        cap=("none" if cap.limit is None else str(cap.limit)) + f" — {cap.reason}",
        scorer=resolution.scorer, visible=visible, groups=grouped, costs=costs,
        prompt=rendered[0].system_prompt, payloads=payloads,
        notes=tuple(dict.fromkeys(n for r in rendered for n in r.summary)),
        trace=trace_markdown(resolution.trace), embedding_model=model or "",
    )


def _marked(tool: Tool, reason: str) -> str:
    """A visible tool's reason, saying when nobody stated its safety (docs/safety.md)."""
    if tool.safety != "unknown" or "safety not stated" in reason:
        return reason
    return f"{reason}; safety not stated"


def _score(score: float | None) -> float | None:
    return None if score is None else round(score, SCORE_DIGITS)
