"""Parse → validate → accept for the tool calls a model returned.

A call is accepted only when its tool is in the catalog and was offered to the model (when
the checker knows what was: `offered`), its arguments parse to a JSON object
(a JSON string is parsed first) and they validate against the tool's canonical schema, bundled
with the files its `$ref`s point into. A tool without a schema fails closed: its calls are
refused unless the tool allows no schema and names a `no_schema_mode`; then they are accepted
unvalidated (`validated: false`) with that mode, for the runtime to enforce.

`CallChecker` compiles each tool's validator once and is what `toolcat check-call` and the
hydration of calls into tool instances build on.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from toolcat.model import Catalog, Json, NoSchemaMode, Tool, ToolCall
from toolcat.providers.names import NameMap, split_prefixed
from toolcat.source.limits import MAX_DEPTH, value_problem
from toolcat.source.positions import escape
from toolcat.source.refs import base_uri_for, bundle
from toolcat.wording import schema_message

if TYPE_CHECKING:
    from jsonschema.protocols import Validator

MAX_MESSAGE = 300  # characters of a validation message; models can send very long values


@dataclass(frozen=True)
class CallError:
    """Why a call was refused. `pointer` is the JSON pointer into the arguments (for a schema
    violation) and `keyword` the schema keyword that failed."""

    code: str  # malformed-call | malformed-arguments | arguments-not-object | unknown-tool
    #            | ambiguous-tool | not-offered | no-schema | invalid-schema | schema-violation
    message: str
    pointer: str = ""
    keyword: str = ""

    def to_json(self) -> dict[str, Json]:
        return {"code": self.code, "message": self.message, "pointer": self.pointer,
                "keyword": self.keyword}


@dataclass(frozen=True)
class CheckedCall:
    """One call after parse and validate: accepted when it has no errors."""

    call: ToolCall
    tool: Tool | None
    arguments: Json
    validated: bool
    errors: tuple[CallError, ...] = ()

    @property
    def accepted(self) -> bool:
        return not self.errors

    @property
    def no_schema_mode(self) -> NoSchemaMode | None:
        """The tool's no_schema_mode when the call was accepted without validation."""
        if self.accepted and not self.validated and self.tool is not None:
            return self.tool.no_schema_mode
        return None

    def to_json(self) -> dict[str, Json]:
        return {
            "name": self.call.name,
            "id": self.call.id,
            "tool": self.tool.qualified_name if self.tool else None,
            "accepted": self.accepted,
            "validated": self.validated,
            "no_schema_mode": self.no_schema_mode,
            "arguments": self.arguments,
            "errors": [e.to_json() for e in self.errors],
            "where": {"pointer": self.call.pointer, "line": self.call.line,
                      "column": self.call.column},
        }


@dataclass(frozen=True)
class CallReport:
    """The checked calls of one response or completion."""

    calls: tuple[CheckedCall, ...]
    source: str = ""
    provider: str | None = None
    format: str | None = None

    @property
    def refused(self) -> int:
        return sum(not c.accepted for c in self.calls)

    @property
    def ok(self) -> bool:
        return self.refused == 0

    def to_json(self) -> dict[str, Json]:
        return {
            "status": "ok" if self.ok else "fail",
            "source": self.source,
            "provider": self.provider,
            "format": self.format,
            "accepted": len(self.calls) - self.refused,
            "refused": self.refused,
            "unvalidated": sum(c.accepted and not c.validated for c in self.calls),
            "calls": [c.to_json() for c in self.calls],
        }


def parse_arguments(raw: Json) -> tuple[Json, CallError | None]:
    """The arguments as an object: a JSON string is parsed, missing arguments are `{}`."""
    value = raw
    if raw is None:
        return {}, None
    if isinstance(raw, str):
        try:
            value = json.loads(raw, parse_constant=_no_constant)
        except json.JSONDecodeError as exc:
            return None, CallError("malformed-arguments", f"arguments are not valid JSON: "
                                   f"{exc.msg} at line {exc.lineno} column {exc.colno}")
        except (RecursionError, ValueError) as exc:
            message = f"nested deeper than {MAX_DEPTH} levels" \
                if isinstance(exc, RecursionError) else str(exc).split(";")[0]
            return None, CallError("malformed-arguments", f"arguments refused: {message}")
    # a validator recurses into the arguments: their depth and size are bounded first
    problem = value_problem(value)
    if problem is not None:
        return None, CallError("malformed-arguments", f"arguments refused: {problem[0]}",
                               problem[1])
    if not isinstance(value, dict):
        kind = {str: "a string", list: "a list", bool: "a boolean"}.get(type(value), "a number")
        if value is None:
            kind = "null"
        return None, CallError("arguments-not-object",
                               f"arguments must be a JSON object, not {kind}")
    return value, None


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


class CallChecker:
    """Checks calls against the tools of a catalog; each tool's validator is compiled once.

    `offered`: the qualified names of the tools the model was shown (None: every tool of the
    catalog); a call to another tool of the catalog is refused (`not-offered`), with
    `offered_from` saying what decided (e.g. "the request in request.json")."""

    def __init__(self, catalog: Catalog, *, check_formats: bool = True,
                 names: NameMap | None = None, offered: Collection[str] | None = None,
                 offered_from: str = "") -> None:
        self.catalog = catalog
        self.check_formats = check_formats
        self.names = names
        self.offered = frozenset(offered) if offered is not None else None
        self.offered_from = offered_from
        self._validators: dict[int, Validator | CallError] = {}

    def find(self, name: str) -> tuple[Tool | None, CallError | None]:
        """The tool a call names, or why there is none. A name render changed (a server in
        front of a shared name, a sanitized name) is mapped back with `names`, the same
        provider rule render used."""
        mapped = self.names.tool(name) if self.names is not None else None
        if mapped is not None:
            return mapped, None
        found = self.catalog.find(name)
        # `server:tool` is a tool's identity: a tool whose own name holds that text (a
        # literal colon) cannot take its place
        exact = [t for t in found if t.qualified_name == name]
        if len(exact) == 1:
            return exact[0], None
        prefixed = split_prefixed(name)
        if not found and prefixed is not None:
            found = self.catalog.find(f"{prefixed[0]}:{prefixed[1]}")
        if len(found) == 1:
            return found[0], None
        if found:
            names = ", ".join(t.qualified_name for t in found)
            return None, CallError("ambiguous-tool", f"'{name}' names several tools: {names}")
        message = f"no tool named '{name}' in the catalog"
        close = _close_names(name, [t.name for t in self.catalog.tools])
        if close:
            message += f"; did you mean {', '.join(close)}?"
        return None, CallError("unknown-tool", message)

    def validator(self, tool: Tool) -> Validator | CallError:
        """The compiled validator of `tool`'s schema; a CallError when the schema is invalid."""
        key = id(tool)
        if key not in self._validators:
            self._validators[key] = self._compile(tool)
        return self._validators[key]

    def _compile(self, tool: Tool) -> Validator | CallError:
        from jsonschema import Draft202012Validator
        from jsonschema.exceptions import SchemaError
        from jsonschema.validators import validator_for
        from jsonschema_specifications import REGISTRY

        schema = tool.parameters
        if schema is None:  # check() answers these without a validator
            return CallError("no-schema", f"'{tool.name}' has no parameters schema")
        if isinstance(schema, dict) and tool.origin is not None:
            schema = bundle(schema, base_uri_for(tool.origin.file), self.catalog.documents)
        cls = validator_for(schema, default=Draft202012Validator)
        try:
            # types-jsonschema's Validator.check_schema takes only a dict; jsonschema's own
            # protocol takes any schema, `true` and `false` included
            cls.check_schema(schema)  # type: ignore[arg-type]
        except SchemaError as exc:
            return CallError("invalid-schema", f"the tool's schema is invalid: "
                             f"{_short(schema_message(exc))}", _pointer(exc.path))
        # The specifications registry has no retrieve function: no $ref is ever fetched.
        # The draft's FormatChecker checks every format it has a checker for; those that need
        # a package (date-time, time, uri, uri-reference, hostname, duration, json-pointer,
        # uri-template, idn-hostname, iri) come with jsonschema's format-nongpl extra, a
        # dependency of toolcat. Without one, a format would be skipped silently.
        checker = cls.FORMAT_CHECKER if self.check_formats else None
        return cls(schema, registry=REGISTRY, format_checker=checker)

    def check(self, call: ToolCall) -> CheckedCall:
        """Parse, find the tool, validate: the call accepted or refused with its errors."""
        if call.error is not None:
            return CheckedCall(call, None, call.arguments, False,
                               (CallError("malformed-call", call.error),))
        tool, error = self.find(call.name)
        unoffered = None
        if tool is not None and self.offered is not None and \
                tool.qualified_name not in self.offered:
            error = CallError("not-offered", f"'{call.name}' ({tool.qualified_name}) was not "
                              f"offered to the model: {self.offered_from or 'not shown'}")
            unoffered, tool = tool, None
        arguments, parse_error = parse_arguments(call.arguments)
        errors = [e for e in (error, parse_error) if e is not None]
        shown = arguments if parse_error is None else call.arguments
        if tool is None or parse_error is not None:
            return CheckedCall(call, tool or unoffered, shown, False, tuple(errors))
        if tool.parameters is None:
            return self._without_schema(call, tool, arguments)
        validator = self.validator(tool)
        if isinstance(validator, CallError):
            return CheckedCall(call, tool, arguments, False, (validator,))
        checked = without_null_defaults(tool.parameters, arguments)
        return CheckedCall(call, tool, arguments, True, tuple(_violations(validator, checked)))

    def _without_schema(self, call: ToolCall, tool: Tool, arguments: Json) -> CheckedCall:
        if not tool.allow_no_schema:
            return CheckedCall(call, tool, arguments, False, (CallError(
                "no-schema", f"'{tool.name}' has no parameters schema and does not allow "
                "calls without one (set allow_no_schema and a no_schema_mode to accept them)"),))
        if tool.no_schema_mode is None:
            return CheckedCall(call, tool, arguments, False, (CallError(
                "no-schema", f"'{tool.name}' allows calls without a schema but names no "
                "no_schema_mode (read-only, human-approval or full)"),))
        return CheckedCall(call, tool, arguments, False)

    def check_all(self, calls: Iterable[ToolCall]) -> tuple[CheckedCall, ...]:
        return tuple(self.check(call) for call in calls)


def without_null_defaults(schema: Any, value: Json, depth: int = 0) -> Json:
    """`value` without the null members whose property says `default: null`: pydantic's
    `Optional[X] = None` written as `{"type": "string", "default": null}` (mcp-atlassian,
    many FastMCP servers), where null means "not given" and the server accepts it though the
    type does not. Followed through `properties` only; the arguments sent are not changed."""
    if not isinstance(schema, dict) or not isinstance(value, dict) or depth > MAX_DEPTH:
        return value
    properties = schema.get("properties")
    if not isinstance(properties, dict):
        return value
    out: dict[str, Json] = {}
    for key, member in value.items():
        sub = properties.get(key)
        if member is None and isinstance(sub, dict) and "default" in sub \
                and sub["default"] is None:
            continue
        out[key] = without_null_defaults(sub, member, depth + 1)
    return out


def _violations(validator: Validator, arguments: Json) -> list[CallError]:
    from jsonschema.exceptions import best_match
    from referencing.exceptions import Unresolvable

    try:
        found = sorted(validator.iter_errors(arguments),
                       key=lambda e: ([str(p) for p in e.absolute_path], e.message))
    except Unresolvable as exc:
        return [CallError("invalid-schema", f"the tool's schema has a $ref that cannot be "
                          f"resolved: {exc}")]
    except RecursionError:  # a loop of references through files, which load cannot see
        return [CallError("invalid-schema", "the tool's schema applies itself endlessly "
                          "(a $ref loop that never descends into the arguments)")]
    errors = []
    for error in found:
        message = schema_message(error)
        if error.context:
            closest = best_match(error.context)
            message += (f" (closest: {schema_message(closest)} at "
                        f"{_pointer(closest.absolute_path) or '/'})")
        errors.append(CallError("schema-violation", _short(message),
                                _pointer(error.absolute_path), str(error.validator)))
    return errors


def _pointer(path: Iterable[Any]) -> str:
    return "".join(f"/{escape(str(p))}" for p in path)


def _short(message: str) -> str:
    return message if len(message) <= MAX_MESSAGE else message[:MAX_MESSAGE - 1] + "…"


def _close_names(name: str, names: Sequence[str]) -> list[str]:
    from rapidfuzz import process

    return [match[0] for match in process.extract(name, names, limit=3, score_cutoff=80)]
