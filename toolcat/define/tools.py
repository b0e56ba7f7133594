"""The `@tool` contract for Python: tools defined in code, checked where they are defined.

    @toolcat.tool(name="get_weather", description="...", parameters={...}, safe=True)
    class GetWeather:
        def __init__(self, args: dict) -> None: ...
        def run(self) -> str: ...

The decorator builds the canonical `Tool` (`GetWeather.definition`) from the same fields a
toolcat YAML file has, with the same checks, and compiles the JSON Schema validator once
(`GetWeather.validator`). Registration fails closed: no schema is an error unless
`allow_no_schema=True` names a `no_schema_mode`; an invalid schema and a remote `$ref` are errors
at the decorator's line, not at the first call. A plain function can be a tool too: it is called
with the validated arguments as keyword arguments.
"""

from __future__ import annotations

import copy
import inspect
import linecache
import re
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from types import ModuleType
from typing import TYPE_CHECKING, Any, Protocol, TypeGuard, TypeVar

from toolcat.calls.check import CallChecker, CallError
from toolcat.errors import CatalogError, DefinitionError, UsageError
from toolcat.model import Catalog, SourceRef, Tool
from toolcat.providers import toolcat as toolcat_shape
from toolcat.providers.reading import ReadContext
from toolcat.source.limits import value_problem
from toolcat.source.refs import RefChecker, base_uri_for

if TYPE_CHECKING:
    from jsonschema.protocols import Validator

T = TypeVar("T")
Json = Any

# Attributes the decorator puts on a class or function. `definition` and `validator` are seed
# 002's public contract; `__toolcat__` holds the whole registration for toolcat itself.
PUBLIC_ATTRIBUTES = ("definition", "validator")
MARK = "__toolcat__"


@dataclass(frozen=True)
class Registration:
    """What the decorator recorded about one tool."""

    tool: Tool
    validator: Validator | None
    target: Any  # the decorated class or function
    model: type | None = None  # the pydantic model the schema came from, if any

    @property
    def is_class(self) -> bool:
        return inspect.isclass(self.target)


def tool(
    *,
    type: str | None = None,  # the canonical definition spells its kind so
    name: str | None = None,
    description: str | None = None,
    parameters: Mapping[str, Json] | type | None = None,
    server: str | None = None,
    kind: str | None = None,
    source: str | None = None,
    level: int | None = None,
    tags: Sequence[str] | None = None,
    category: str | None = None,
    priority: int | None = None,
    safe: bool | None = None,
    strict: bool | None = None,
    allow_no_schema: bool | None = None,
    no_schema_mode: str | None = None,
    defer_loading: bool | None = None,
    cost: Mapping[str, Json] | None = None,
    constraints: Mapping[str, Json] | None = None,
    annotations: Mapping[str, Json] | None = None,
    examples: Sequence[Json] | None = None,
    implementation: Mapping[str, Json] | None = None,
) -> Callable[[T], T]:
    """Register a class (with a `run()` method) or a function as a tool.

    Takes every field of the canonical Tool, and `type="function"` as the canonical definition
    writes it (the only kind a decorated tool can be). `parameters` is the JSON Schema of the
    arguments, or a pydantic model class whose `model_json_schema()` is used (and whose
    instance a class then receives). `name` defaults to the function's name, or the class
    name in snake_case; `description` to the docstring.

    Raises:
        DefinitionError: at the decorator's file and line, when a field has the wrong type,
            the schema is missing (without `allow_no_schema` and a `no_schema_mode`), invalid,
            or has a remote or dangling `$ref`, or the class or function cannot take the
            arguments.
    """
    arguments = dict(locals())  # first statement: exactly the keyword arguments
    given = {key: value for key, value in arguments.items() if value is not None}
    frame = sys._getframe(1)
    where = _decorator_ref(frame.f_code.co_filename, frame.f_lineno)

    def decorate(target: T) -> T:
        registration = register(target, given, where)
        for attribute in (*PUBLIC_ATTRIBUTES, MARK):
            if attribute in vars(target):
                raise DefinitionError(
                    f"{_label(target)} already has an attribute '{attribute}'; "
                    "@toolcat.tool sets it", where=where)
        added: list[tuple[str, Any]] = [("definition", registration.tool),
                                        ("validator", registration.validator),
                                        (MARK, registration)]
        if inspect.isclass(target) and target.__init__ is object.__init__:
            added.append(("__init__", _store_args))
        for attribute, value in added:
            setattr(target, attribute, value)
        return target

    return decorate


def _store_args(self: Any, args: Any) -> None:
    """The constructor of a tool class that defines none: keep the validated arguments."""
    self.args = args


def register(target: Any, given: Mapping[str, Json], where: SourceRef) -> Registration:
    """Check one definition and build its Tool and validator (the decorator's work).

    Raises:
        DefinitionError: see `tool`.
    """
    if not (inspect.isclass(target) or inspect.isfunction(target)):
        raise DefinitionError(
            f"@toolcat.tool decorates a class or a function, not {type(target).__name__}",
            where=where)
    fields = dict(given)
    kind_of_definition = fields.pop("type", "function")
    if kind_of_definition != "function":
        raise DefinitionError(
            f"type must be 'function' (a decorated tool is a function tool), not "
            f"{kind_of_definition!r}", where=where)
    model = fields.get("parameters")
    if _is_model(model):
        fields["parameters"] = model.model_json_schema()
    else:
        model = None
    fields.setdefault("name", _default_name(target))
    if "description" not in fields and isinstance(target.__doc__, str):
        fields["description"] = inspect.cleandoc(target.__doc__)
    fields.setdefault("implementation", _implementation(target))
    # name and description first: `raw` reads like the decorator call, as a YAML entry would
    ordered = {"name": fields.pop("name"), **({"description": fields.pop("description")}
                                              if "description" in fields else {}), **fields}
    item = {key: list(value) if isinstance(value, tuple) else value
            for key, value in ordered.items()}
    if isinstance(item.get("parameters"), Mapping):
        item["parameters"] = copy.deepcopy(dict(item["parameters"]))
    ctx = ReadContext(where.file, "", _Fixed(where.line, where.column))
    try:
        tool = toolcat_shape.read_tool(item, ctx)
    except CatalogError as exc:
        raise DefinitionError(f"tool '{item['name']}': {exc.message}", where=where) from None
    validator = _check_schema(tool, where)
    if inspect.isclass(target):
        _check_class(target, tool, where)
    elif tool.parameters is not None:
        _check_function(target, tool, where)
    return Registration(tool, validator, target, model)


def _check_schema(tool: Tool, where: SourceRef) -> Validator | None:
    """The schema rules, enforced at registration; the compiled validator."""
    label = f"tool '{tool.name}'"
    if tool.no_schema_mode and not tool.allow_no_schema:
        raise DefinitionError(f"{label}: no_schema_mode needs allow_no_schema=True", where=where)
    if tool.parameters is None:
        if not tool.allow_no_schema:
            raise DefinitionError(
                f"{label} has no parameters schema; a tool without one is refused "
                "(fail-closed)", where=where,
                hint="give parameters=, or opt in with allow_no_schema=True and a "
                "no_schema_mode: read-only, human-approval or full")
        if not tool.no_schema_mode:
            raise DefinitionError(
                f"{label}: allow_no_schema=True needs a no_schema_mode "
                "(read-only, human-approval or full)", where=where)
        return None
    if not isinstance(tool.parameters, dict):
        raise DefinitionError(
            f"{label}: parameters must be a JSON Schema object (a dict) or a pydantic model "
            "class", where=where)
    problem = value_problem(tool.parameters)  # NaN, nesting or sizes a file could not hold
    if problem is not None:
        raise DefinitionError(f"{label}: parameters at '{problem[1] or '/'}': {problem[0]}",
                              where=replace(where, pointer="/parameters" + problem[1]))
    base_uri = base_uri_for(where.file)
    refs = RefChecker()
    for ref_problem in refs.check(tool.parameters, base_uri):
        raise DefinitionError(f"{label}: parameters at '{ref_problem.pointer or '/'}': "
                              f"{ref_problem.message}",
                              where=replace(where, pointer="/parameters" + ref_problem.pointer))
    # compiled exactly as check-call compiles a catalog tool's (bundled, formats checked)
    validator = CallChecker(Catalog(tools=(tool,), documents=refs.documents)).validator(tool)
    if isinstance(validator, CallError):
        raise DefinitionError(f"{label}: {validator.message} (at '{validator.pointer or '/'}')",
                              where=replace(where, pointer="/parameters" + validator.pointer))
    return validator


def _check_class(target: type[object], tool: Tool, where: SourceRef) -> None:
    if not callable(getattr(target, "run", None)):
        raise DefinitionError(f"tool class {target.__name__} has no run() method",
                              where=where, hint="run() is the one entry point; sync or async")
    if target.__init__ is object.__init__:
        return  # the decorator gives it a constructor that keeps the arguments
    try:
        inspect.signature(target).bind(None)
    except TypeError:
        raise DefinitionError(
            f"tool class {target.__name__} must take the validated arguments as the one "
            "argument of its constructor", where=where) from None
    except ValueError:  # no signature to inspect (a C extension type): trust it
        return


def _check_function(target: Callable[..., Any], tool: Tool, where: SourceRef) -> None:
    """The function can be called with any arguments the schema admits, as keywords."""
    try:
        signature = inspect.signature(target)
    except (TypeError, ValueError):
        return
    schema = tool.parameters if isinstance(tool.parameters, dict) else {}
    properties = schema.get("properties")
    if not isinstance(properties, dict):
        return
    required = set(schema.get("required") or ())
    params = signature.parameters
    label = f"function {target.__name__}()"
    for name, param in params.items():
        if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            continue
        if param.kind is param.POSITIONAL_ONLY and (param.default is param.empty
                                                    or name in properties):
            raise DefinitionError(f"{label}: parameter '{name}' is positional-only; tools are "
                                  "called with keyword arguments", where=where)
        if param.default is param.empty and name not in required:
            raise DefinitionError(
                f"{label}: parameter '{name}' has no default, so the schema must list it in "
                "'required'", where=where)
    if not any(p.kind is p.VAR_KEYWORD for p in params.values()):
        for name in properties:
            if name not in params:
                raise DefinitionError(f"{label} has no parameter for the schema property "
                                      f"'{name}'", where=where)


class _Model(Protocol):
    """What toolcat uses of a pydantic model class."""

    @classmethod
    def model_json_schema(cls) -> dict[str, Any]: ...


def _is_model(value: object) -> TypeGuard[type[_Model]]:
    """A pydantic (v2) model class, recognized without importing pydantic."""
    return inspect.isclass(value) and callable(getattr(value, "model_json_schema", None)) \
        and callable(getattr(value, "model_validate", None))


def _default_name(target: Any) -> str:
    name = getattr(target, "__name__", type(target).__name__)
    if inspect.isclass(target):
        return re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", "_", name).lower()
    return name


def _implementation(target: Any) -> dict[str, str]:
    """Where the code lives, in the `implementation` form."""
    key = "class" if inspect.isclass(target) else "function"
    return {"module": getattr(target, "__module__", "") or "",
            key: getattr(target, "__qualname__", _default_name(target))}


def _label(target: Any) -> str:
    return getattr(target, "__qualname__", repr(target))


class _Fixed:
    """A position index for a definition in code: every field points at its decorator."""

    def __init__(self, line: int, column: int) -> None:
        self.position = (line, column)

    def locate(self, pointer: str) -> tuple[int, int]:
        return self.position


def _decorator_ref(file: str, line: int) -> SourceRef:
    text = linecache.getline(file, line)
    at = text.find("@")
    column = at + 1 if at >= 0 and not text[:at].strip() else len(text) - len(text.lstrip()) + 1
    return SourceRef(file, line, column)


# --- finding registered tools ----------------------------------------------------------


def registration(obj: Any) -> Registration | None:
    """The registration of a decorated class or function (not inherited), else None."""
    found = vars(obj).get(MARK) if hasattr(obj, "__dict__") else None
    return found if isinstance(found, Registration) else None


def definition_of(obj: Any) -> Tool:
    """The canonical Tool of a decorated class or function; a Tool is returned as it is.

    Raises:
        UsageError: `obj` is neither a Tool nor decorated with @toolcat.tool.
    """
    if isinstance(obj, Tool):
        return obj
    found = registration(obj)
    if found is None:
        raise UsageError(f"{_label(obj)} is not a toolcat tool",
                         hint="decorate it with @toolcat.tool(...)")
    return found.tool


def registrations_in(module: ModuleType) -> list[Registration]:
    """Every tool decorated in or imported into `module`, in the order of its namespace."""
    seen: dict[int, Registration] = {}
    for value in list(vars(module).values()):
        found = registration(value)
        if found is not None:
            seen.setdefault(id(found.target), found)
    return list(seen.values())


def module_catalog(module: ModuleType, source: str, default_server: str) -> Catalog:
    """The tools a module defines (and those of a `catalog` object it exports) as a Catalog.

    A decorated tool without a server joins `default_server`, as a YAML tool joins its file's.

    Raises:
        CatalogError: the module has no tools, or its `catalog` is not a Catalog or a list of
            tools.
    """
    tools = [found.tool for found in registrations_in(module)]
    exported = vars(module).get("catalog")
    part = exported if isinstance(exported, Catalog) else Catalog()
    if exported is not None and not isinstance(exported, Catalog):
        tools += _listed_tools(exported, source)
    unique = {id(t): t for t in tools}.values()
    own = tuple(t if t.server else replace(t, server=default_server) for t in unique)
    if not own and not part.tools:
        raise CatalogError(
            f"no tools found in Python module {module.__name__}",
            where=SourceRef(source), hint="decorate classes or functions with @toolcat.tool()")
    return Catalog(
        tools=(*own, *part.tools),
        servers=part.servers,
        sources=(source, *part.sources),
        issues=part.issues,
        documents=part.documents,
        positions=part.positions,
    )


def _listed_tools(exported: Any, source: str) -> list[Tool]:
    if isinstance(exported, (str, bytes, Mapping)) or not isinstance(exported, Iterable):
        raise CatalogError(
            f"'catalog' must be a toolcat Catalog or a list of tools, not "
            f"{type(exported).__name__}", where=SourceRef(source))
    tools = []
    for i, item in enumerate(exported):
        found = registration(item)
        if found is None and not isinstance(item, Tool):
            raise CatalogError(
                f"item {i} of 'catalog' is not a tool: {_label(item)}", where=SourceRef(source),
                hint="decorate it with @toolcat.tool(...), or list toolcat Tool values")
        tools.append(found.tool if found else item)
    return tools

