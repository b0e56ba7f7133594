"""OpenAPI 3 operations read as tools, as function-calling frameworks turn them into functions.

Each operation (`paths: {/pets/{petId}: {get: {...}}}`) becomes one tool: its `operationId`
(else `get_pets_petId`) as the name, `summary` and `description` as the description, and one
parameters object holding its path, query and header parameters by name and its request body
(JSON, else a form: `application/x-www-form-urlencoded` or `multipart/form-data`) as `body`.
`$ref`s into `components` are followed: parameters and request bodies are inlined, and the
schemas they use are placed under the tool's `$defs` (references rewritten to `#/$defs/Name`),
so each tool's schema stands alone.

Each component schema, and each object of a parameter or request body that operations share,
is rewritten once and the same object is shared by every tool that reaches it (nothing reads a
tool's schema to change it), so an import costs the input's size plus one slot per (operation,
schema it reaches) and one per object it reuses; that work is bounded (MAX_WORK), so a document
whose every operation reaches a long chain of schemas is refused rather than expanded.

Each tool also records how to call its operation (`openapi:` `{method, path, parameters: [{name,
in, style, explode}], body, security, output}`), and the document's server the API's address
and security schemes (`openapi:` `{url, security_schemes, security}`): `toolcat serve` sends
the HTTP request from them (toolcat.serve.openapi_calls). A server URL whose scheme is not
http or https is refused where it is written.

Safety comes from the method and the operation, as MCP annotations the catalog keeps (and
`toolcat serve` lists): GET, HEAD and OPTIONS are safe methods in HTTP (RFC 9110 9.2.1),
`readOnlyHint: true`; DELETE is `destructiveHint: true` (unsafe); POST, PUT and PATCH are
`readOnlyHint: false` (unknown: asked about before each call) unless the operation reads as a
read (`search`, `query`, `list`... first in its operationId or summary, no write word in
either: a POST search endpoint) or states its own hints in `x-mcp-annotations`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from typing import Any, NamedTuple

from toolcat.errors import CatalogError
from toolcat.source.positions import PositionIndex, join, locate_many, unescape
from toolcat.urls import split_url

METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
SAFE_METHODS = frozenset({"get", "head", "options"})
PLACES = ("path", "query", "header", "cookie")
# header parameters that are not arguments: those OpenAPI says to ignore (the request's own),
# and those that frame the request (an argument must not pick the host or the body's length)
IGNORED_HEADERS = frozenset({"accept", "content-type", "authorization", "host",
                             "content-length", "transfer-encoding", "connection"})
API_SCHEMES = ("http", "https")
HINTS = ("readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint")
# the first word of an operationId or summary that says the operation only reads, and words
# that say it writes (either anywhere makes it no read)
READ_WORDS = frozenset({"search", "query", "list", "find", "get", "lookup", "fetch", "read",
                        "retrieve", "count", "describe", "show"})
WRITE_WORDS = frozenset({"create", "add", "insert", "update", "set", "put", "patch", "delete",
                         "remove", "drop", "destroy", "write", "upload", "send", "post",
                         "cancel", "reset", "replace", "move", "rename", "execute", "run",
                         "purge", "clear", "modify", "edit", "save", "submit", "publish",
                         "import", "apply", "approve", "revoke", "archive", "merge"})
# in an operationId, two operations in one (getOrCreate); a summary's prose may say them
JOINS = frozenset({"and", "or", "then"})
_SCHEMAS = "#/components/schemas/"
_DEFS = "#/$defs/"
# references followed to gather the tools' `$defs` and objects reused, each counted once per
# operation that reaches it: far above real APIs (the largest public ones need a few hundred
# thousand), and a bound on what every tool's standalone schema takes together
MAX_WORK = 1_000_000


def is_openapi3(data: dict[str, Any]) -> bool:
    version = data.get("openapi")
    return isinstance(version, str) and version.startswith("3") and isinstance(
        data.get("paths"), dict)


class ServerUrlError(Exception):
    """A server URL of the document that serve could not call, at `pointer`."""

    def __init__(self, message: str, pointer: str) -> None:
        super().__init__(message)
        self.pointer = pointer


def api_settings(data: dict[str, Any]) -> dict[str, Any]:
    """What the document's server keeps for `toolcat serve`: `url` (its first server's, the
    variables given their defaults; relative when the document says so), `security_schemes`
    (where each credential goes: type, scheme, in, name) and `security` (the alternatives of
    scheme names every operation requires unless it says otherwise).

    Raises:
        ServerUrlError: a server URL is not http(s), or a variable in it has no default.
    """
    settings: dict[str, Any] = {}
    for i, server in enumerate(_items(data.get("servers"))):
        if not isinstance(server, dict) or not isinstance(server.get("url"), str):
            continue
        url = _with_defaults(server, join("", "servers", i))
        parts = split_url(url)
        if parts is None:
            raise ServerUrlError(f"the API's server URL '{_short(url)}' is not a URL",
                                 join("", "servers", i, "url"))
        if parts.scheme and parts.scheme.lower() not in API_SCHEMES:
            raise ServerUrlError(f"the API's server URL '{_short(url)}' is not http or https: "
                                 "toolcat calls HTTP APIs only", join("", "servers", i, "url"))
        settings.setdefault("url", url)
    components = _mapping(data.get("components"))
    schemes = {str(name): {key: value for key, value in scheme.items()
                           if key in ("type", "scheme", "in", "name") and isinstance(value, str)}
               for name, scheme in _mapping(components.get("securitySchemes")).items()
               if isinstance(scheme, dict)}
    if schemes:
        settings["security_schemes"] = schemes
    if isinstance(data.get("security"), list):
        settings["security"] = _requirements(data["security"])
    return settings


def _with_defaults(server: dict[str, Any], pointer: str) -> str:
    variables = _mapping(server.get("variables"))

    def value(match: re.Match[str]) -> str:
        variable = variables.get(match.group(1))
        default = variable.get("default") if isinstance(variable, dict) else None
        if not isinstance(default, str):
            raise ServerUrlError(f"the server URL's variable '{match.group(1)}' has no "
                                 "default", join(pointer, "url"))
        return default

    return re.sub(r"\{([^{}]*)\}", value, server["url"])


def _requirements(value: list[Any]) -> list[list[str]]:
    """Security requirements as alternatives, each the scheme names it needs together."""
    return [[str(name) for name in alternative] for alternative in value
            if isinstance(alternative, dict)]


def _short(text: str, limit: int = 80) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def operations(data: dict[str, Any], shared: Shared | None = None,
               ) -> Iterator[tuple[dict[str, Any], str]]:
    """Each operation of the document as a toolcat tool entry, with the JSON pointer of the
    operation it was read from. `shared` collects the rewritten component schemas the tools
    share (a fresh one when not given)."""
    components = _mapping(data.get("components"))
    if shared is None:
        shared = Shared(_mapping(components.get("schemas")))
    for path, item in data["paths"].items():
        if not isinstance(item, dict):
            continue
        common = _items(item.get("parameters"))
        for method in METHODS:
            operation = item.get(method)
            if not isinstance(operation, dict):
                continue
            pointer = join("", "paths", str(path), method)
            yield _tool(str(path), method, operation, common, components, shared), pointer


class Shared:
    """The component schemas of one document, each rewritten once, with the references each
    one meets in the order a walk meets them, so that a tool's `$defs` are gathered without
    walking the schemas again for every operation that reaches them."""

    def __init__(self, schemas: dict[str, Any]) -> None:
        self.schemas = schemas
        self.rewritten: dict[str, Any] = {}  # name -> its schema, refs pointing at #/$defs/
        self._events: dict[str, list[_Event]] = {}
        self.work = 0
        self._memo: dict[int, tuple[Any, Any, int]] = {}  # id -> (object, rewritten, size)

    def definitions(self, schema: Any) -> dict[str, Any]:
        """The component schemas `schema` reaches, each once, in the order of a depth-first
        walk that walks each one where it is first referenced, after that node's members."""
        found: dict[str, Any] = {}
        stack: list[tuple[Iterator[_Event], set[int]]] = [(iter(_events(schema)), set())]
        while stack:
            events, pending = stack[-1]
            event = next(events, None)
            if event is None:
                stack.pop()
                continue
            enter, name, mark = event
            if enter:
                if mark in pending:
                    stack.append((iter(self._events[name]), set()))
                continue
            self._spend(1)
            if name not in found and isinstance(self.schemas.get(name), dict):
                found[name] = self._rewritten(name)
                pending.add(mark)
        return found

    def _rewritten(self, name: str) -> Any:
        if name not in self.rewritten:
            self.rewritten[name] = self.rewrite(self.schemas[name])
            self._events[name] = _events(self.rewritten[name])
        return self.rewritten[name]

    def rewrite(self, node: Any) -> Any:
        """`node` with references to component schemas pointing at `#/$defs/` instead. Each
        object of the document is rewritten once and then shared: a parameter or request
        body that many operations reference is not copied into each; every reuse counts its
        size toward the bound."""
        return self._rewrite(node)[0]

    def _rewrite(self, node: Any) -> tuple[Any, int]:
        if not isinstance(node, (dict, list)):
            return node, 0  # objects and arrays are counted, not the values they hold
        seen = self._memo.get(id(node))
        if seen is not None:
            self._spend(seen[2])
            return seen[1], seen[2]
        out: Any
        if isinstance(node, list):
            parts = [self._rewrite(v) for v in node]
            out = [p[0] for p in parts]
        else:
            parts = [self._rewrite(v) for v in node.values()]
            out = dict(zip(node, (p[0] for p in parts), strict=True))
            ref = out.get("$ref")
            if isinstance(ref, str) and ref.startswith(_SCHEMAS):
                out["$ref"] = _DEFS + ref.removeprefix(_SCHEMAS)
        size = 1 + sum(p[1] for p in parts)
        self._memo[id(node)] = (node, out, size)  # `node` kept: its id stays its own
        return out, size

    def _spend(self, work: int) -> None:
        self.work += work
        if self.work > MAX_WORK:
            raise CatalogError(
                f"the operations reuse more than {MAX_WORK:,} schema nodes and component "
                "schemas in all (each counted once per operation that reaches it): too many "
                "to give each tool a schema of its own; split the document")


# (walk the schema now, name, which reference): a reference met, or the point after that
# reference's node was walked, where the schema it names is walked when it was new
_Event = tuple[bool, str, int]


class _Enter(NamedTuple):
    name: str
    mark: int


def _events(schema: Any) -> list[_Event]:
    """The references to `#/$defs/` in `schema`, met in the order of a depth-first walk (last
    member first), each followed by its entry point once its node's members are walked."""
    out: list[_Event] = []
    stack: list[Any] = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, _Enter):
            out.append((True, node.name, node.mark))
        elif isinstance(node, list):
            stack.extend(node)
        elif isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.startswith(_DEFS):
                mark = len(out)
                out.append((False, ref.removeprefix(_DEFS), mark))
                stack.append(_Enter(ref.removeprefix(_DEFS), mark))
            stack.extend(v for k, v in node.items() if k != "$ref")
    return out


def _tool(path: str, method: str, operation: dict[str, Any], common: list[Any],
          components: dict[str, Any], shared: Shared) -> dict[str, Any]:
    properties: dict[str, Any] = {}
    required: list[str] = []
    placed: dict[str, dict[str, Any]] = {}
    own = _items(operation.get("parameters"))
    for parameter in [*common, *own]:
        parameter = _inline(parameter, components)
        if not isinstance(parameter, dict) or parameter.get("in") not in PLACES \
                or not isinstance(parameter.get("name"), str) or (
                    parameter["in"] == "header" and parameter["name"].lower() in IGNORED_HEADERS):
            continue
        placed[parameter["name"]] = {"name": parameter["name"], "in": parameter["in"], **{
            key: parameter[key] for key in ("style", "explode")
            if isinstance(parameter.get(key), (str, bool))}}
        schema = dict(parameter["schema"]) if isinstance(parameter.get("schema"), dict) else {}
        if isinstance(parameter.get("description"), str) and "description" not in schema:
            schema["description"] = parameter["description"]
        properties[parameter["name"]] = schema
        if parameter.get("required") is True or parameter["in"] == "path":
            required.append(parameter["name"])
    body = _inline(operation.get("requestBody"), components)
    media = _body_media(body) if isinstance(body, dict) else None
    if media is not None:
        schema = dict(body["content"][media]["schema"])
        if isinstance(body.get("description"), str) and "description" not in schema:
            schema["description"] = body["description"]
        properties["body"] = schema
        if body.get("required") is True:
            required.append("body")
    wiring: dict[str, Any] = {"method": method, "path": path,
                              "parameters": list(placed.values())}
    if media is not None:
        wiring["body"] = _media_kind(media)
    if isinstance(operation.get("security"), list):
        wiring["security"] = _requirements(operation["security"])
    if _json_response(operation, components):
        wiring["output"] = "json"
    output = _output_schema(operation, components, shared)
    if output is not None and output.get("type") != "object":  # a non-object result
        wiring["wrap"] = "result"
        output = {"type": "object", "properties": {"result": output}, "required": ["result"]}
    parameters: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        parameters["required"] = list(dict.fromkeys(required))
    parameters = shared.rewrite(parameters)
    used = shared.definitions(parameters)
    if used:
        parameters["$defs"] = used
    text = [t for t in (operation.get("summary"), operation.get("description"))
            if isinstance(t, str) and t.strip()]
    name = _name(operation, method, path)
    entry = {"name": name, "description": "\n\n".join(text), "parameters": parameters,
             "annotations": _hints(method, operation), "openapi": wiring}
    if output is not None:
        used = shared.definitions(output)
        entry["outputSchema"] = {**output, "$defs": used} if used else output
    return entry


def _hints(method: str, operation: dict[str, Any]) -> dict[str, Any]:
    """The MCP annotations that carry the operation's safety (see the module's docstring)."""
    hints: dict[str, Any]
    if method in SAFE_METHODS or (method != "delete" and _reads(operation)):
        hints = {"readOnlyHint": True}
    elif method == "delete":
        hints = {"readOnlyHint": False, "destructiveHint": True}
    else:
        hints = {"readOnlyHint": False}
    stated = operation.get("x-mcp-annotations")
    if isinstance(stated, dict):
        hints.update({key: stated[key] for key in HINTS if isinstance(stated.get(key), bool)})
    return hints


def _reads(operation: dict[str, Any]) -> bool:
    """Whether the operation's operationId or summary clearly reads as a read: a read word
    first, no write word in either (a name made from the method says nothing)."""
    given = operation.get("operationId")
    summary = operation.get("summary")
    named = _words(given) if isinstance(given, str) else []
    said = _words(summary) if isinstance(summary, str) else []
    if WRITE_WORDS.intersection(named) or JOINS.intersection(named) \
            or WRITE_WORDS.intersection(said):
        return False
    return any(words[:1] and words[0] in READ_WORDS for words in (named, said))


def _words(text: str) -> list[str]:
    spaced = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", text)
    return re.findall(r"[a-z]+", spaced.lower())[:50]


def _success_schemas(operation: dict[str, Any], components: dict[str, Any]
                     ) -> Iterator[list[dict[str, Any]]]:
    """For each success (2xx) response the operation declares, the schemas of its JSON
    bodies (empty when it has none)."""
    for bodies in _success_bodies(operation, components):
        yield [schema for schema, _ in bodies]


def _success_bodies(operation: dict[str, Any], components: dict[str, Any], at: str = ""
                    ) -> Iterator[list[tuple[dict[str, Any], str]]]:
    """`_success_schemas`, each schema with the pointer where it is written (the operation
    at `at`; the response followed through its `$ref`)."""
    for status, response in _mapping(operation.get("responses")).items():
        if not str(status).startswith("2"):
            continue
        found, written = _inline_at(response, join(at, "responses", status), components)
        yield [(described["schema"], join(written, "content", media, "schema"))
               for media, described in _mapping(_mapping(found).get("content")).items()
               if _is_json(str(media)) and isinstance(described, dict)
               and isinstance(described.get("schema"), dict)]


def _json_response(operation: dict[str, Any], components: dict[str, Any]) -> bool:
    """Whether a success response of the operation declares a JSON body with a schema."""
    return any(_success_schemas(operation, components))


def _output_schema(operation: dict[str, Any], components: dict[str, Any], shared: Shared
                   ) -> dict[str, Any] | None:
    """The schema of the operation's JSON success body (references rewritten to `#/$defs/`;
    a reference to an object component inlined, so that the top says `type: object`), when
    every success response it declares has one and they agree: MCP's outputSchema promises
    structured content on every success, which a 204 without a body could not keep."""
    found: list[Any] = []
    for schemas in _success_schemas(operation, components):
        if not schemas:
            return None
        found.append(schemas[0])
    if not found or any(schema != found[0] for schema in found[1:]):
        return None
    schema = shared.rewrite(found[0])
    if not isinstance(schema, dict):
        return None
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith(_DEFS) and len(schema) == 1:
        target = shared.definitions(schema).get(ref.removeprefix(_DEFS))
        if isinstance(target, dict) and _is_object(target):
            return {**target, "type": "object"}
    return {**schema, "type": "object"} if _is_object(schema) else dict(schema)


def _is_object(schema: dict[str, Any]) -> bool:
    """Whether every value `schema` allows is a JSON object (null included, when nullable)."""
    if schema.get("nullable") is True:
        return False
    return schema.get("type") == "object" or ("type" not in schema and "properties" in schema
                                              and not any(k in schema for k in (
                                                  "anyOf", "oneOf", "allOf", "$ref")))


def _is_json(media: str) -> bool:
    kind = _media_kind(media)
    return kind == "application/json" or kind.endswith("+json")


def _media_kind(media: str) -> str:
    """A media type without its parameters (`; charset=utf-8`), in lower case."""
    return media.split(";")[0].strip().lower()


def _mapping(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _items(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _name(operation: dict[str, Any], method: str, path: str) -> str:
    given = operation.get("operationId")
    if isinstance(given, str) and given:
        return given
    return re.sub(r"_+", "_", re.sub(r"[^A-Za-z0-9_]", "_", f"{method}_{path}")).strip("_")


def _inline(value: Any, components: dict[str, Any]) -> Any:
    """A parameter or request body, its `$ref` into components followed (a few hops)."""
    return _inline_at(value, "", components)[0]


class WrittenPositions:
    """The positions of an OpenAPI document, a tool's text found where it is written.

    A tool's schema is assembled from several places (its parameters, a request body, the
    component schemas under `$defs`), each of which may be a `$ref` into `components`; a
    pointer into that schema (`/paths/~1pets/post/parameters/$defs/Pet/properties/note`) is
    turned into the pointer of the text in the document (`/components/schemas/Pet/properties
    /note`) before it is located. `data` gives the parsed document, asked for only when such a
    pointer is."""

    def __init__(self, index: PositionIndex, data: Callable[[], Any],
                 written: Callable[[Any, str], str] | None = None) -> None:
        self._index = index
        self._data = data
        self._written = written or written_at  # an OpenAPI 2.0 document's own

    def locate(self, pointer: str) -> tuple[int, int]:
        if pointer.startswith("/paths/"):
            pointer = self._written(self._data(), pointer)
        return self._index.locate(pointer)

    def locate_many(self, pointers: Sequence[str]) -> list[tuple[int, int]]:
        return locate_many(self._index, [self._written(self._data(), pointer)
                                         if pointer.startswith("/paths/") else pointer
                                         for pointer in pointers])


def written_at(data: Any, pointer: str) -> str:
    """The pointer in the OpenAPI document `data` of the text a tool's `pointer` names (see
    `_tool` for how a tool is made of the document); `pointer` itself when it is not one."""
    key = ""
    if pointer.endswith("#key"):
        pointer, key = pointer.removesuffix("#key"), "#key"
    tokens = [unescape(t) for t in pointer.split("/")[1:]]
    if len(tokens) < 3 or not isinstance(data, dict) or not is_openapi3(data):
        return pointer + key
    item = data["paths"].get(tokens[1])
    operation = item.get(tokens[2]) if isinstance(item, dict) else None
    if not isinstance(operation, dict):
        return pointer + key
    at = join("", "paths", tokens[1], tokens[2])
    rest = tokens[3:]
    if rest == ["description"] and not isinstance(operation.get("description"), str):
        return join(at, "summary") + key
    if rest[:1] == ["outputSchema"]:
        return _output_written(operation, at, rest[1:], _mapping(data.get("components"))) + key
    if rest[:1] != ["parameters"] or len(rest) < 3:
        return pointer + key
    if rest[1] == "$defs":
        return join("/components/schemas", *rest[2:]) + key
    if rest[1] != "properties":
        return pointer + key
    name, inner = rest[2], rest[3:]
    components = _mapping(data.get("components"))
    if name == "body" and "requestBody" in operation:
        body, written = _inline_at(operation["requestBody"], join(at, "requestBody"),
                                   components)
        if isinstance(body, dict):
            if inner == ["description"] and isinstance(body.get("description"), str) and \
                    not isinstance(_body_schema(body).get("description"), str):
                return join(written, "description") + key
            media = _body_media(body)
            if media is not None:
                return join(written, "content", media, "schema", *inner) + key
    places = [(operation.get("parameters"), join(at, "parameters")),
              (item.get("parameters"), join("", "paths", tokens[1], "parameters"))]
    for parameters, base in places:  # the operation's own override the path item's
        for i, parameter in enumerate(_items(parameters)):
            found, written = _inline_at(parameter, join(base, i), components)
            if isinstance(found, dict) and found.get("name") == name \
                    and found.get("in") in PLACES:
                schema = _mapping(found.get("schema"))
                if inner == ["description"] and isinstance(found.get("description"), str) \
                        and not isinstance(schema.get("description"), str):
                    return join(written, "description") + key
                return join(written, "schema", *inner) + key
    return pointer + key


def _body_media(body: dict[str, Any]) -> str | None:
    """The media type of the request body a tool takes as its `body` argument: JSON first,
    else a form (`application/x-www-form-urlencoded`, as Twilio's and Stripe's APIs take
    every write, or `multipart/form-data`), one with a schema; None when there is none."""
    content = _mapping(body.get("content"))
    found = [media for media, value in content.items()
             if isinstance(value, dict) and isinstance(value.get("schema"), dict)
             and (_is_json(media) or _is_form(media))]
    return next((media for media in found if _is_json(media)), found[0] if found else None)


def _is_form(media: str) -> bool:
    return _media_kind(media) in FORMS


FORMS = ("application/x-www-form-urlencoded", "multipart/form-data")


def _body_schema(body: dict[str, Any]) -> dict[str, Any]:
    media = _body_media(body)
    return _mapping(body["content"][media]["schema"]) if media else {}


def _output_written(operation: dict[str, Any], at: str, inner: list[str],
                    components: dict[str, Any]) -> str:
    """Where the document writes the text at `inner` of the operation's `outputSchema`
    (`_output_schema`): a shared component's in `components/schemas` (`$defs/<name>`), the
    rest in the schema of its first JSON success body, followed through its references."""
    if inner[:1] == ["$defs"] and len(inner) > 1:
        return join("/components/schemas", *inner[1:])
    for bodies in _success_bodies(operation, components, at):
        for schema, written in bodies[:1]:
            return join(_inline_at(schema, written, components)[1], *inner)
    return join(at, "outputSchema", *inner)


def _inline_at(value: Any, pointer: str, components: dict[str, Any]) -> tuple[Any, str]:
    """`_inline`, with the pointer of where the value it ends at is written."""
    for _ in range(8):
        ref = value.get("$ref") if isinstance(value, dict) else None
        if not isinstance(ref, str) or not ref.startswith("#/components/"):
            return value, pointer
        kind, _, name = ref.removeprefix("#/components/").partition("/")
        group = components.get(kind)
        value = group.get(name) if isinstance(group, dict) else None
        pointer = f"/components/{kind}/{name}"  # the reference's tokens, escaped already
    return value, pointer
