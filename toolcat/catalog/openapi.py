"""OpenAPI 3 operations read as tools, as function-calling frameworks turn them into functions.

Each operation (`paths: {/pets/{petId}: {get: {...}}}`) becomes one tool: its `operationId`
(else `get_pets_petId`) as the name, `summary` and `description` as the description, and one
parameters object holding its path, query and header parameters by name and its JSON request
body as `body`. `$ref`s into `components` are followed: parameters and request bodies are
inlined, and the schemas they use are copied under the tool's `$defs` (references rewritten to
`#/$defs/Name`), so each tool's schema stands alone. GET, HEAD and OPTIONS are safe methods
in HTTP (RFC 9110 9.2.1); an operation of any other method is marked unsafe.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from toolcat.source.positions import join

METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
SAFE_METHODS = frozenset({"get", "head", "options"})
PLACES = ("path", "query", "header")
_SCHEMAS = "#/components/schemas/"


def is_openapi3(data: dict[str, Any]) -> bool:
    version = data.get("openapi")
    return isinstance(version, str) and version.startswith("3") and isinstance(
        data.get("paths"), dict)


def operations(data: dict[str, Any]) -> Iterator[tuple[dict[str, Any], str]]:
    """Each operation of the document as a toolcat tool entry, with the JSON pointer of the
    operation it was read from."""
    components = _mapping(data.get("components"))
    schemas = _mapping(components.get("schemas"))
    for path, item in data["paths"].items():
        if not isinstance(item, dict):
            continue
        shared = _items(item.get("parameters"))
        for method in METHODS:
            operation = item.get(method)
            if not isinstance(operation, dict):
                continue
            pointer = join("", "paths", str(path), method)
            yield _tool(str(path), method, operation, shared, components, schemas), pointer


def _tool(path: str, method: str, operation: dict[str, Any], shared: list[Any],
          components: dict[str, Any], schemas: dict[str, Any]) -> dict[str, Any]:
    properties: dict[str, Any] = {}
    required: list[str] = []
    own = _items(operation.get("parameters"))
    for parameter in [*shared, *own]:
        parameter = _inline(parameter, components)
        if not isinstance(parameter, dict) or parameter.get("in") not in PLACES \
                or not isinstance(parameter.get("name"), str):
            continue
        schema = dict(parameter["schema"]) if isinstance(parameter.get("schema"), dict) else {}
        if isinstance(parameter.get("description"), str) and "description" not in schema:
            schema["description"] = parameter["description"]
        properties[parameter["name"]] = schema
        if parameter.get("required") is True or parameter["in"] == "path":
            required.append(parameter["name"])
    body = _inline(operation.get("requestBody"), components)
    if isinstance(body, dict) and isinstance(body.get("content"), dict):
        media = body["content"].get("application/json")
        if isinstance(media, dict) and isinstance(media.get("schema"), dict):
            schema = dict(media["schema"])
            if isinstance(body.get("description"), str) and "description" not in schema:
                schema["description"] = body["description"]
            properties["body"] = schema
            if body.get("required") is True:
                required.append("body")
    parameters: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        parameters["required"] = list(dict.fromkeys(required))
    parameters = _rewritten(parameters)
    used = _definitions(parameters, schemas)
    if used:
        parameters["$defs"] = used
    text = [t for t in (operation.get("summary"), operation.get("description"))
            if isinstance(t, str) and t.strip()]
    return {"name": _name(operation, method, path), "description": "\n\n".join(text),
            "parameters": parameters, "safe": method in SAFE_METHODS}


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
    for _ in range(8):
        ref = value.get("$ref") if isinstance(value, dict) else None
        if not isinstance(ref, str) or not ref.startswith("#/components/"):
            return value
        kind, _, name = ref.removeprefix("#/components/").partition("/")
        group = components.get(kind)
        value = group.get(name) if isinstance(group, dict) else None
    return value


def _rewritten(node: Any) -> Any:
    """`node` with references to component schemas pointing at `#/$defs/` instead."""
    if isinstance(node, list):
        return [_rewritten(v) for v in node]
    if not isinstance(node, dict):
        return node
    out = {k: _rewritten(v) for k, v in node.items()}
    ref = out.get("$ref")
    if isinstance(ref, str) and ref.startswith(_SCHEMAS):
        out["$ref"] = "#/$defs/" + ref.removeprefix(_SCHEMAS)
    return out


def _definitions(schema: Any, schemas: dict[str, Any]) -> dict[str, Any]:
    """The component schemas `schema` reaches, rewritten, each once."""
    found: dict[str, Any] = {}
    stack = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, list):
            stack.extend(node)
        elif isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.startswith("#/$defs/"):
                name = ref.removeprefix("#/$defs/")
                if name not in found and isinstance(schemas.get(name), dict):
                    found[name] = _rewritten(schemas[name])
                    stack.append(found[name])
            stack.extend(v for k, v in node.items() if k != "$ref")
    return found
