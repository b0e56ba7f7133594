"""`toolcat serve --mode call`: one-step discovery and a call proxy (FastMCP's search
transforms), for clients that ignore `notifications/tools/list_changed`.

In `add` mode (the default) a client searches, adds what it found with add_tool,
and calls it once its tool list has been refreshed. A client that never refreshes its list
never sees the added tools. In `call` mode:

- search_tools answers each found tool's whole MCP definition (name, title, description,
  inputSchema, outputSchema, annotations, ...), as tools/list would show it;
- `call_tool {name, arguments}` calls any tool search_tools can find; add_tool is not offered,
  since nothing needs adding.

A call through call_tool takes the path of a direct call (`Serving.call`): the name resolved as
a direct call's (the shown name, or the older `server:tool`), the arguments checked against the
tool's schema by check-call's checker, withheld and unsafe tools refused with the same reasons,
the same timeout and result cap, a `call` or `refused` event in the log. What call mode can
call is exactly what add mode could add: the gate's pool (the profile's filters and levels, the
unsafe rule, the withheld tools) and the tools visible from the start. Every log event of a
session says its mode; a call through call_tool also says `"via": "call_tool"`.
"""

from __future__ import annotations

import contextvars
from collections.abc import Awaitable, Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Protocol

from toolcat.calls.check import CallChecker
from toolcat.model import Catalog, Tool, ToolCall
from toolcat.search.find import FOUND, FOUND_FUZZY
from toolcat.serve.gate import UNSAFE, Gate, SearchAnswer
from toolcat.serve.log import SessionLog

if TYPE_CHECKING:
    import mcp_types as types

MODES = ("add", "call")
CALL_TOOL = Tool(
    name="call_tool", server="builtin", source="virtual", category="discovery", level=1,
    description=("Call a tool found with search_tools: give its name and its arguments, "
                 "which must follow the inputSchema search_tools returned for it."),
    parameters={
        "type": "object",
        "properties": {
            "name": {"type": "string", "minLength": 1, "maxLength": 300,
                     "description": "The tool's name as search_tools returned it."},
            "arguments": {"type": "object", "description": "The tool's arguments."},
        },
        "required": ["name"],
        "additionalProperties": False,
    },
    annotations={"openWorldHint": True})
SEARCH_DESCRIPTION = (
    "Search for tools by name or description (a regex, or a few words). Returns up to 5 "
    "matching tools with their full definitions (inputSchema included); call one with "
    "call_tool.")
FOUND_CALL = ("Found matching tools. Call one with call_tool, giving its name and "
              "arguments that follow its inputSchema.")
FOUND_FUZZY_CALL = ("No tool matches the pattern; these are the closest by fuzzy search. "
                    "Call one with call_tool, giving its name and arguments that follow its "
                    "inputSchema.")
INSTRUCTIONS = (
    "This server fronts a large catalog of tools that are not loaded by default. Call "
    "search_tools with a regex or a few words describing the task; it returns the matching "
    "tools with their input schemas. Call one with call_tool, giving its name and arguments. "
    "show_all_tools lists every name.")
Define = Callable[[str, Tool], dict[str, Any]]  # (name shown, tool) -> its MCP definition
_via: contextvars.ContextVar[str | None] = contextvars.ContextVar("toolcat_serve_via",
                                                                default=None)


class Caller(Protocol):
    """What call_tool needs of the server (toolcat.serve.server.Serving), which imports this
    module."""

    log: SessionLog
    discovery: Mapping[str, str]

    def say(self, text: str) -> str: ...

    async def call(self, name: str, arguments: Mapping[str, Any] | None,
                   notify: Callable[[], Awaitable[None]], gate: Gate | None = None
                   ) -> types.CallToolResult | types.InputRequiredResult: ...


def check_mode(mode: str, where: str = "--mode") -> str:
    """`mode`, when it is one serve knows."""
    from toolcat.errors import UsageError

    if mode not in MODES:
        raise UsageError(f"{where} '{mode}' is not a serve mode; known: {', '.join(MODES)}")
    return mode


class ProxyGate(Gate):
    """A gate in call mode: search_tools answers whole definitions, call_tool replaces
    add_tool, and every tool of the pool is callable without being added.

    `define(name, tool)` writes the MCP definition the client is shown (the server's, so that
    search results and tools/list show a tool alike).
    """

    mode = "call"

    def __init__(self, catalog: Catalog, *args: Any, define: Define, **kwargs: Any) -> None:
        super().__init__(catalog, *args, **kwargs)
        self.define = define
        proxy = self._call_tool()
        builtins: dict[str, Tool] = {}
        for name, tool in self._builtins.items():  # call_tool in add_tool's place
            if name == "add_tool":
                builtins[proxy.name] = proxy
            else:
                builtins[name] = replace(tool, description=SEARCH_DESCRIPTION) \
                    if name == "search_tools" else tool
        builtins.setdefault(proxy.name, proxy)
        self._builtins = builtins
        self.proxy_checker = CallChecker(Catalog(tools=(CALL_TOOL,)))

    def _call_tool(self) -> Tool:
        """call_tool, hinted as destructive unless every tool it can reach is stated safe: a
        catalog tool's "safe" is a default unless someone wrote it (Tool.safety_stated), and
        a tool of unknown safety may destroy (serve asks first, but the client's own
        confirmation rests on this hint)."""
        harmless = all(t.safe and t.safety_stated
                       and (t.annotations or {}).get("destructiveHint") is not True
                       for t in self.pool)
        return replace(CALL_TOOL, safety="safe" if harmless else "unsafe", annotations={
            **(CALL_TOOL.annotations or {}), "destructiveHint": not harmless})

    def screen(self, withheld: Mapping[str, str]) -> None:
        super().screen(withheld)
        self._builtins[CALL_TOOL.name] = self._call_tool()  # the pool it reaches is smaller

    def callable(self, name: str) -> Tool | None:
        """The tool called `name` that a call may reach: a visible one, or any one search
        can find (nothing needs adding in call mode)."""
        return super().callable(name) or self._pool_tool(name)

    def unavailable(self, name: str) -> str:
        return super().unavailable(name).replace(UNSAFE, UNSAFE.replace(" to add it",
                                                                         " to call it"))

    def left_out_reason(self, tool: Tool) -> str:
        return super().left_out_reason(tool).replace(UNSAFE, UNSAFE.replace(" to add it",
                                                                            " to call it"))

    def search(self, query: str) -> SearchAnswer:
        """search_tools, each found tool with its whole MCP definition."""
        answer = super().search(query)
        if "tools" not in answer.response:
            return answer
        response = dict(answer.response)
        response["tools"] = [self._defined(entry) for entry in response["tools"]]
        message = str(response.get("message", ""))
        for found, call in ((FOUND, FOUND_CALL), (FOUND_FUZZY, FOUND_FUZZY_CALL)):
            if message.startswith(found):  # the rest: the safety note, the tools left out
                response["message"] = call + message[len(found):]
                break
        return replace(answer, response=response)

    def _defined(self, entry: Mapping[str, Any]) -> dict[str, Any]:
        name = str(entry["name"])
        tool = self.builtin(name) or self.callable(name)
        return dict(entry) if tool is None else self.define(name, tool)


class ModeLog(SessionLog):
    """The session log with the session's `mode` in every event, and `via` in the events of
    a call made through call_tool."""

    def __init__(self, *args: Any, mode: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.mode = mode

    def write(self, event: str, **fields: Any) -> None:
        via = _via.get()
        super().write(event, **{"mode": self.mode, **fields, **({"via": via} if via else {})})


@contextmanager
def _through(name: str) -> Iterator[None]:
    token = _via.set(name)
    try:
        yield
    finally:
        _via.reset(token)


async def call_through(serving: Caller, gate: Gate, arguments: Mapping[str, Any],
                       notify: Callable[[], Awaitable[None]]
                       ) -> types.CallToolResult | types.InputRequiredResult:
    """call_tool {name, arguments}: the call a client would make directly, made for it."""
    if not isinstance(gate, ProxyGate):  # not offered in add mode; never reached
        return _error("call_tool is not offered in this mode")
    shown = serving.say("call_tool")
    checked = gate.proxy_checker.check(ToolCall(CALL_TOOL.name, dict(arguments)))
    if checked.errors:
        problems = [e.message for e in checked.errors]
        serving.log.write("refused", tool=CALL_TOOL.name, reason="invalid arguments",
                          errors=problems)
        return _error(f"invalid arguments for {shown}: " + "; ".join(problems))
    target = str(arguments["name"])
    inner = arguments.get("arguments") or {}
    if target in serving.discovery.values() or (
            target not in serving.discovery and gate.builtin(target) is not None):
        reason = f"'{target}' is a discovery tool; call it directly, not through {shown}"
        serving.log.write("refused", tool=target, reason=reason, via=CALL_TOOL.name)
        return _error(f"tool '{target}' cannot be called: {reason}")
    with _through(CALL_TOOL.name):
        return await serving.call(target, inner, notify, gate)


def _error(message: str) -> types.CallToolResult:
    import mcp_types as types

    return types.CallToolResult(content=[types.TextContent(type="text", text=message)],
                                is_error=True)
