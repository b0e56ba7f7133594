"""Approval at run time: serve asks the user, by MCP elicitation, before it calls a tool that
needs it, and calls the tool only when the user accepts.

A call needs approval when its tool is marked `human-approval` (`no_schema_mode`: its
author wants each call approved first), whatever else allows it; when the tool is marked
unsafe and serve's unsafe policy (`unsafe_policy`) is `ask`; or when nobody stated the tool's
safety (an MCP tool without readOnlyHint or destructiveHint) and the policy is not `allow`
(the user's `mcp: {unannotated: safe}` makes such tools safe: no question). Every call that
reaches an upstream server passes `approve` first (`Serving._relay`), so a direct tools/call
and a call made through a discovery tool are asked about the same way.

How the question travels depends on the connection's protocol era:

- handshake era (2025 and before): an `elicitation/create` request to the client, related to
  the tools/call it interrupts, answered before the call goes on;
- 2026-07-28: the tools/call is answered with an `input_required` result carrying the
  question; the client asks its user and sends the tools/call again with the answer. The
  answer counts only with the `requestState` serve minted for that question, which the SDK's
  RequestStateBoundary seals and binds to the tool name and the exact arguments (and expires),
  so an answer cannot be made up, nor carried over to other arguments.

A client that did not declare the elicitation capability (form mode) cannot ask: the call is
refused, never run silently. Every question and decision is written to the session log
(`approval` events).

The message shown to the user names the tool, its server and the arguments. The arguments
come from the model, which may have read hostile text: they are shown as JSON, cut to a
bound, with control, format (bidirectional overrides, zero-width characters), separator,
private-use and unassigned characters written as their code point (`\\u202e`), so the
message reads as it is.
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Mapping
from contextvars import ContextVar
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from toolcat.model import Tool
from toolcat.serve.log import ms_since
from toolcat.wording import escaped

if TYPE_CHECKING:
    from toolcat.resolution.profile import Approval, Profile
    from toolcat.serve.log import SessionLog

MAX_ARGUMENTS = 1_000  # characters of argument values shown in the question, shared
MIN_VALUE = 40  # characters of each value shown, however many arguments there are
MAX_KEY = 100  # characters of an argument's name shown
MAX_NAME = 200  # characters of a tool or server name shown
ANSWER_KEY = "toolcat-approval"  # the question's key in an input_required result
STATE = "toolcat-approval-v1."  # + a nonce: the requestState of a question (sealed by the SDK)
STATE_TTL = 600.0  # seconds the SDK's seal lasts (RequestStateSecurity.ephemeral's default)
MAX_SPENT = 10_000  # answers remembered as used, so that none counts twice
# a form with no fields: the client shows the message with accept / decline buttons
SCHEMA: dict[str, Any] = {"type": "object", "properties": {}}
WHY = {
    "human-approval": "it is marked human-approval in the catalog",
    "unsafe": "it is marked unsafe (safe: false, e.g. an MCP destructiveHint) and the "
              "profile says approval: ask",
    "unknown": "its safety is not stated (its server sends neither readOnlyHint nor "
               "destructiveHint; or an HTTP API's POST, PUT or PATCH that does not say it "
               "only reads), so it may change or delete something",
}
HOW = {
    "human-approval": "use an MCP client that supports elicitation (it shows the question "
                      "to the user), or change the tool's no_schema_mode in the catalog",
    "unsafe": "use an MCP client that supports elicitation, or start toolcat serve with "
              "--allow-unsafe (or set approval: allow in the profile) to run unsafe tools "
              "without asking",
    "unknown": "use an MCP client that supports elicitation, or, if you trust this server's "
               "tools, set mcp: {unannotated: safe} in your toolcat.yaml (in a folder of "
               "$TOOLCAT_TRUST: a cloned repository's cannot relax safety; tools whose "
               "safety is not stated then run without asking) or start toolcat serve with "
               "--allow-unsafe",
}


def unsafe_policy(profile: Profile, *, allow_unsafe: bool = False) -> Approval:
    """What serve does with tools marked unsafe: `allow` (found, added and called without
    asking: --allow-unsafe, or the profile's `approval: allow` or `allow_unsafe: true`),
    `ask` (found and added; each call asks the user), `refuse` (neither found nor added)."""
    if allow_unsafe:
        return "allow"
    if profile.approval is not None:
        return profile.approval
    return "allow" if profile.allow_unsafe else "refuse"


def needs_approval(tool: Tool, policy: Approval) -> str | None:
    """Why a call of `tool` must be approved by the user (a key of WHY), or None."""
    if tool.no_schema_mode == "human-approval":
        return "human-approval"
    if tool.unsafe and policy == "ask":
        return "unsafe"
    if tool.safety == "unknown" and policy != "allow":
        return "unknown"
    return None


@dataclass(frozen=True)
class Asking:
    """The client request a tool call came in on: the SDK's request context (session,
    protocol version, request id) and the tools/call parameters (an answer and the
    requestState on a 2026-07-28 retry)."""

    context: Any
    params: Any


# Set by the tools/call handler for the request it answers: a call relayed from a discovery
# tool is asked about on the request the client made, without every layer passing it on.
REQUEST: ContextVar[Asking | None] = ContextVar("toolcat_serve_request", default=None)


@dataclass(frozen=True)
class Verdict:
    """What approval decided: `decision` is None when the call needs none, else accepted,
    declined, cancelled, no-capability, asked (the question went out with an input_required
    result) or failed (the client answered the question with an error); `answer` is what
    the client gets instead of the call (None: call the tool)."""

    decision: str | None
    answer: Any = None


def shown(text: str, limit: int) -> str:
    """`text` cut to `limit` characters, with the characters that could change how a
    message reads written as their code point (`\\u202e`, never cut in half; the rule of
    toolcat.wording.escaped); what was cut is counted."""
    pieces: list[str] = []
    size = 0
    for char in text[:limit]:
        piece = escaped(char)
        if size + len(piece) > limit:
            break
        pieces.append(piece)
        size += len(piece)
    written = "".join(pieces)
    if len(pieces) == len(text):
        return written
    return f"{written}… ({len(text):,} characters in all)"


def question(name: str, tool: Tool, arguments: Mapping[str, Any], why: str) -> str:
    """The message the user is asked: the tool, its server, the arguments, and why."""
    return (f"toolcat asks before running a tool: {WHY[why]}.\n"
            f"Tool: {shown(name, MAX_NAME)}\n"
            f"Server: {shown(tool.server or '(none)', MAX_NAME)}\n"
            f"Arguments: {preview(arguments)}\n"
            "Allow this call?")


def preview(arguments: Mapping[str, Any]) -> str:
    """Every argument's key, each with a preview of its value: the values share
    MAX_ARGUMENTS characters (at least MIN_VALUE each), and a long value is cut on its own,
    so no value can push another key (`to`, after a long `text`) out of the question."""
    budget = max(MAX_ARGUMENTS // max(len(arguments), 1), MIN_VALUE)
    parts = []
    for key in sorted(arguments, key=str):
        try:
            value = json.dumps(arguments[key], ensure_ascii=False, sort_keys=True)
        except (TypeError, ValueError):  # arguments came as JSON: only a safeguard
            value = repr(arguments[key])
        parts.append(f"{shown(json.dumps(str(key), ensure_ascii=False), MAX_KEY)}: "
                     f"{shown(value, budget)}")
    return "{" + ", ".join(parts) + "}"


def can_elicit(capabilities: Any) -> bool:
    """Whether the client declared form elicitation (a bare `elicitation: {}`, the only
    shape before modes existed, counts; URL mode alone does not)."""
    elicitation = getattr(capabilities, "elicitation", None)
    return elicitation is not None and (elicitation.form is not None
                                        or elicitation.url is None)


async def approve(name: str, tool: Tool, arguments: Mapping[str, Any], *, policy: Approval,
                  log: SessionLog) -> Verdict:
    """Ask the user of the current request (REQUEST) whether `tool` may be called with
    `arguments` when it needs approval; the decision, and the answer the client gets when
    the call is not made."""
    why = needs_approval(tool, policy)
    if why is None:
        return Verdict(None)
    began = time.perf_counter()
    entry: dict[str, Any] = {"tool": name, "server": tool.server, "reason": why}
    asking = REQUEST.get()
    if asking is None or not can_elicit(asking.context.session.client_capabilities):
        log.write("approval", **entry, decision="no-capability")
        return Verdict("no-capability", _refused(
            f"tool '{name}' was not called: it needs the user's approval ({WHY[why]}), and "
            "this MCP client cannot ask the user (it did not declare the elicitation "
            f"capability). To run it, {HOW[why]}."))
    message = question(name, tool, arguments, why)
    if _modern(asking.context):
        answer = _answer(asking.params)
        if answer is None:
            log.write("approval", **entry, decision="asked")
            return Verdict("asked", _input_required(message))
        action = str(answer.action)
    else:
        log.write("approval", **entry, decision="asked")
        try:
            result = await asking.context.session.elicit_form(
                message, SCHEMA, related_request_id=asking.context.request_id)
        except Exception as exc:  # the client's error, a broken answer, no back channel
            problem = " ".join(str(exc).split())[:300] or type(exc).__name__
            log.write("approval", **entry, decision="failed", error=problem,
                      ms=ms_since(began))
            return Verdict("failed", _refused(
                f"tool '{name}' was not called: asking the user for approval failed "
                f"({problem})."))
        action = str(result.action)
    decision = {"accept": "accepted", "decline": "declined"}.get(action, "cancelled")
    # ms: how long the user took (a 2026-07-28 answer comes with a request of its own)
    log.write("approval", **entry, decision=decision,
              **({} if _modern(asking.context) else {"ms": ms_since(began)}))
    if decision == "accepted":
        return Verdict(decision)
    return Verdict(decision, _refused(
        f"tool '{name}' was not called: the user "
        + ("declined it." if decision == "declined" else
           "dismissed the approval request without answering.")
        + " Do not call it again unless the user asks for it."))


def audited(tool: Tool, verdict: Verdict) -> dict[str, Any]:
    """What a `call` log event records about approval and validation: the decision when the
    user was asked, and for a call accepted without a schema, `validated: false` and the
    tool's no_schema_mode (such calls are flagged in the audit log)."""
    fields: dict[str, Any] = {}
    if verdict.decision is not None:
        fields["approval"] = verdict.decision
    if tool.parameters is None and tool.no_schema_mode is not None:
        fields.update(validated=False, no_schema_mode=tool.no_schema_mode)
    return fields


def _modern(context: Any) -> bool:
    from mcp_types.version import MODERN_PROTOCOL_VERSIONS

    return context.protocol_version in MODERN_PROTOCOL_VERSIONS


def _answer(params: Any) -> Any:
    """The user's answer on a 2026-07-28 retry: counted only with the requestState serve
    minted for the question (verified and bound to these arguments by the SDK's boundary),
    and only once."""
    import mcp_types as types

    responses = getattr(params, "input_responses", None) or {}
    answer = responses.get(ANSWER_KEY)
    state = getattr(params, "request_state", None)
    if not isinstance(state, str) or not state.startswith(STATE) or not isinstance(
            answer, types.ElicitResult) or not SPENT.spend(state):
        return None
    return answer


class Spent:
    """The question states whose answers were used: a state counts once. At most MAX_SPENT
    are kept; those older than the seal's lifetime are forgotten (the SDK refuses them
    anyway); when all are younger, no more answers count until some expire (fail closed)."""

    def __init__(self) -> None:
        self._used: dict[str, float] = {}  # state -> when its answer was used, oldest first

    def spend(self, state: str) -> bool:
        now = time.monotonic()
        if state in self._used:
            return False
        while self._used and now - next(iter(self._used.values())) > STATE_TTL:
            del self._used[next(iter(self._used))]
        if len(self._used) >= MAX_SPENT:
            return False
        self._used[state] = now
        return True


SPENT = Spent()


def _input_required(message: str) -> Any:
    import mcp_types as types

    request = types.ElicitRequest(params=types.ElicitRequestFormParams(
        message=message, requested_schema=SCHEMA))
    return types.InputRequiredResult(input_requests={ANSWER_KEY: request},
                                     request_state=STATE + secrets.token_urlsafe(16))


def _refused(message: str) -> Any:
    import mcp_types as types

    return types.CallToolResult(content=[types.TextContent(type="text", text=message)],
                                is_error=True)
