"""The planning flow from Python: the tool calls of a model response, hydrated into
instances of the classes (and functions) decorated with `@toolcat.tool`.

    result = toolcat.hydrate(response, [GetWeather, get_time], provider="anthropic")
    for tool in result.instances:
        tool.run()                  # the executor decides when; hydrate never calls run()

Each call goes through toolcat.calls.check (parse, find the tool, validate, fail closed without a
schema), using the validator compiled when the tool was decorated; then it is instantiated: a
class gets the validated arguments as the one argument of its constructor (the pydantic model's
instance when `parameters` was a model), a function is bound to them (`BoundTool`). A call that
fails any step comes back refused with its errors, never as an instance.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, Any

from toolcat.calls.check import CallChecker, CallError, CheckedCall
from toolcat.define.tools import Registration, definition_of, registration, registrations_in
from toolcat.errors import UsageError
from toolcat.model import Catalog, Json, Tool, ToolCall
from toolcat.source.positions import join

if TYPE_CHECKING:
    from jsonschema.protocols import Validator

# instantiated: validated and built; unvalidated: built without validation under the tool's
# no_schema_mode; refused: not built, see the errors; no-class: valid, but the tool is not
# defined in Python (a YAML, JSON or built-in tool), so there is nothing to build.
STATUSES = ("instantiated", "unvalidated", "refused", "no-class")


@dataclass(frozen=True)
class BoundTool:
    """A function tool bound to its validated arguments; `run()` calls it with them.

    What a call of a function tool hydrates into, as a call of a class tool does into an
    instance of the class.
    """

    function: Callable[..., Any]
    args: Mapping[str, Json]

    @property
    def definition(self) -> Tool:
        return definition_of(self.function)

    def run(self) -> Any:
        """Call the function (for an async function: the coroutine to await)."""
        return self.function(**self.args)


@dataclass(frozen=True)
class Hydrated:
    """One call after parse → validate → instantiate."""

    checked: CheckedCall
    status: str  # one of STATUSES
    instance: Any = None
    errors: tuple[CallError, ...] = ()
    implementation: str | None = None  # `module.Class` (or function) of the tool

    @property
    def accepted(self) -> bool:
        return self.status != "refused"

    def to_json(self) -> dict[str, Json]:
        """check-call's shape of a call, plus `status` and `implementation`."""
        return {**self.checked.to_json(), "accepted": self.accepted,
                "errors": [e.to_json() for e in self.errors], "status": self.status,
                "implementation": self.implementation}


@dataclass(frozen=True)
class Hydration:
    """The hydrated calls of one response, in order."""

    calls: tuple[Hydrated, ...]
    source: str = ""
    provider: str | None = None
    format: str | None = None

    @property
    def instances(self) -> list[Any]:
        """The tool instances, in call order: validated ones and those of no-schema tools."""
        return [c.instance for c in self.calls if c.status in ("instantiated", "unvalidated")]

    @property
    def refused(self) -> list[Hydrated]:
        return [c for c in self.calls if c.status == "refused"]

    @property
    def ok(self) -> bool:
        return not self.refused

    def count(self, status: str) -> int:
        return sum(c.status == status for c in self.calls)

    def to_json(self) -> dict[str, Json]:
        """check-call's report shape, plus the counts per status."""
        return {
            "status": "ok" if self.ok else "fail",
            "source": self.source,
            "provider": self.provider,
            "format": self.format,
            "accepted": len(self.calls) - len(self.refused),
            "refused": len(self.refused),
            "unvalidated": self.count("unvalidated"),
            "instantiated": self.count("instantiated") + self.count("unvalidated"),
            "no_class": self.count("no-class"),
            "calls": [c.to_json() for c in self.calls],
        }


def hydrate(response: Any, tools: Catalog | ModuleType | Iterable[Any], *,
            provider: str) -> Hydration:
    """Parse the tool calls of a provider response, validate each against its tool's schema
    and build the tool instances; `run()` is never called.

    `response` is the response as JSON data, JSON text, or an SDK object with pydantic's
    `model_dump()`. `tools` are decorated classes and functions (and plain `Tool` values, whose
    valid calls come back as `no-class`), a module defining them, or a Catalog (its Python
    tools are found through their `implementation` in modules already imported).

    Raises:
        UsageError: an unknown provider, or something in `tools` that is not a tool.
        ResponseError: the response is not of the provider's shape.
    """
    from toolcat.providers import PROVIDERS

    target = PROVIDERS.get(provider)
    if target is None or target.parse_calls is None:
        known = ", ".join(n for n, p in PROVIDERS.items() if p.parse_calls)
        raise UsageError(f"unknown provider '{provider}'; known: {known}")
    return hydrate_calls(target.parse_calls(_as_json(response)), tools, provider=provider)


def hydrate_calls(calls: Iterable[ToolCall], tools: Catalog | ModuleType | Iterable[Any], *,
                  source: str = "", provider: str | None = None,
                  fmt: str | None = None) -> Hydration:
    """Validate and instantiate calls already read (from a response or a text completion).

    Raises:
        UsageError: something in `tools` that is not a tool.
    """
    catalog, registered = _resolve(tools)
    checker = _RegisteredChecker(catalog, registered)
    hydrated = tuple(_instantiate(checker.check(call), registered) for call in calls)
    return Hydration(hydrated, source, provider, fmt)


class _RegisteredChecker(CallChecker):
    """check-call's checker, using the validator each tool was decorated with."""

    def __init__(self, catalog: Catalog, registered: Mapping[int, Registration]) -> None:
        super().__init__(catalog)
        self.registered = registered

    def validator(self, tool: Tool) -> Validator | CallError:
        found = self.registered.get(id(tool))
        if found is not None and found.validator is not None:
            return found.validator
        return super().validator(tool)


def _resolve(tools: Catalog | ModuleType | Iterable[Any]
             ) -> tuple[Catalog, dict[int, Registration]]:
    """The catalog to check calls against, and the registration of each Python tool in it."""
    if isinstance(tools, Catalog):
        registered = {id(t): found for t in tools if (found := implementation_of(t))}
        return tools, registered
    items = registrations_in(tools) if isinstance(tools, ModuleType) else list(tools)
    listed: list[Tool] = []
    registered = {}
    for item in items:
        found = item if isinstance(item, Registration) else registration(item)
        tool = found.tool if found is not None else definition_of(item)
        listed.append(tool)
        if found is not None:
            registered[id(tool)] = found
    return Catalog(tools=tuple(listed)), registered


def implementation_of(tool: Tool) -> Registration | None:
    """The decorated class or function a catalog tool came from, if its module is imported.

    Looks `implementation: {module, class | function}` up in the modules already imported,
    and only accepts a decorated tool of the same name; never imports anything itself.
    """
    import sys

    where = tool.implementation or {}
    module = sys.modules.get(str(where.get("module", "")))
    path = where.get("class") or where.get("function")
    if module is None or not isinstance(path, str):
        return None
    obj: Any = module
    for part in path.split("."):
        obj = getattr(obj, part, None)
    found = registration(obj) if obj is not None else None
    return found if found is not None and found.tool.name == tool.name else None


def _instantiate(checked: CheckedCall, registered: Mapping[int, Registration]) -> Hydrated:
    found = registered.get(id(checked.tool))
    name = f"{found.target.__module__}.{found.target.__qualname__}" if found else None
    if not checked.accepted:
        return Hydrated(checked, "refused", errors=checked.errors, implementation=name)
    if found is None:
        return Hydrated(checked, "no-class")
    target = found.target
    status = "instantiated" if checked.validated else "unvalidated"
    arguments = checked.arguments
    if found.model is not None and checked.validated:
        arguments, errors = _model_instance(found.model, arguments)
        if errors:
            return Hydrated(checked, "refused", errors=errors, implementation=name)
    if not found.is_class:
        if found.model is not None:
            arguments = {key: getattr(arguments, key) for key in type(arguments).model_fields}
        return Hydrated(checked, status, BoundTool(target, arguments), implementation=name)
    try:
        instance = target(arguments)
    # Constructors are the tool's own last check: whatever one raises refuses the
    # call with its message, as a validation error does.
    except Exception as exc:
        error = CallError("instantiation-failed",
                          f"{target.__qualname__}(arguments) raised {type(exc).__name__}: {exc}")
        return Hydrated(checked, "refused", errors=(error,), implementation=name)
    return Hydrated(checked, status, instance, implementation=name)


def _model_instance(model: Any, arguments: Json) -> tuple[Any, tuple[CallError, ...]]:
    """The pydantic model built from the arguments, or its validation errors at their
    pointers (for validators that go beyond the JSON Schema)."""
    from pydantic import ValidationError

    try:
        return model.model_validate(arguments), ()
    except ValidationError as exc:
        return None, tuple(
            CallError("model-violation", str(error["msg"]),
                      join("", *error["loc"]), str(error["type"]))
            for error in exc.errors())


def _as_json(response: Any) -> Json:
    if isinstance(response, (str, bytes)):
        import json

        from toolcat.errors import ResponseError

        try:
            return json.loads(response)
        except json.JSONDecodeError as exc:
            raise ResponseError(f"the response is not valid JSON: {exc.msg} at line "
                                f"{exc.lineno} column {exc.colno}") from None
        except RecursionError:
            raise ResponseError("the response is nested too deeply to read") from None
    dump = getattr(response, "model_dump", None)
    if callable(dump):  # an SDK response object: its wire form, with wire (alias) names
        return dump(mode="json", by_alias=True, exclude_none=True)
    return response
