"""OpenAPI 2.0 (Swagger) documents read as the OpenAPI 3 document they would be.

Slack's, Kubernetes' and Docker's references, and many older APIs, are still written in 2.0.
`as_openapi3` rewrites one, as the official converters do, so that toolcat.catalog.openapi
reads its operations as tools with no second reader:

- `definitions` and `responses` become `components/schemas` and `/responses`, every `$ref`
  to them rewritten, and a reference to a shared parameter is followed;
  `securityDefinitions` become `components/securitySchemes` (`basic` as HTTP basic); `host`,
  `basePath` and `schemes` the server URL (https when the document allows it).
- A parameter's type, format, items, enum, default and bounds move into its `schema`, and
  its `collectionFormat` becomes a style (`multi` exploded, `ssv` space-, `pipes`
  pipe-delimited, `csv` not exploded).
- An `in: body` parameter becomes the request body, in the first JSON media type the
  operation `consumes` (application/json when it says none); `in: formData` parameters become
  a form body whose fields they are (`multipart/form-data` when one is a file or the
  operation consumes only that, else `application/x-www-form-urlencoded`), path-level ones
  merged into each operation, an operation's own winning by name.
- A response's `schema` becomes its content in the first JSON type the operation
  `produces`.

Each object is rewritten once and shared wherever the document shared it, so the work is
linear in the document. `written_at` finds where the 2.0 document writes a tool's text, so a
finding is placed at the text itself.
"""

from __future__ import annotations

from typing import Any

from toolcat.catalog.openapi import METHODS
from toolcat.source.positions import join, unescape

_MOVED = {"#/definitions/": "#/components/schemas/", "#/responses/": "#/components/responses/"}
# what a 2.0 parameter (not in the body) says of its value, which 3.0 keeps in `schema`
_SCHEMA_KEYS = ("type", "format", "items", "enum", "default", "maximum", "minimum",
                "exclusiveMaximum", "exclusiveMinimum", "maxLength", "minLength", "pattern",
                "maxItems", "minItems", "uniqueItems", "multipleOf")
_PARAMETER_KEYS = ("name", "in", "description", "required", "deprecated", "allowEmptyValue")
_STYLES = {"multi": ("form", True), "csv": ("form", False), "ssv": ("spaceDelimited", False),
           "pipes": ("pipeDelimited", False)}
_FORM = "application/x-www-form-urlencoded"
_MULTIPART = "multipart/form-data"


def is_swagger2(data: dict[str, Any]) -> bool:
    version = data.get("swagger")
    return isinstance(version, str) and version.startswith("2") and isinstance(
        data.get("paths"), dict)


def as_openapi3(data: dict[str, Any]) -> dict[str, Any]:
    """The OpenAPI 3.0 document `data`, an OpenAPI 2.0 one, would be (see the module)."""
    refs = _Refs()
    consumes, produces = _list(data.get("consumes")), _list(data.get("produces"))
    shared_parameters = _mapping(data.get("parameters"))
    components: dict[str, Any] = {
        "schemas": {name: refs.schema(schema)
                    for name, schema in _mapping(data.get("definitions")).items()},
        "responses": {name: _response(response, produces, refs)
                      for name, response in _mapping(data.get("responses")).items()},
        "securitySchemes": {name: _scheme(scheme)
                            for name, scheme in _mapping(data.get("securityDefinitions")).items()
                            if isinstance(scheme, dict)}}
    paths: dict[str, Any] = {}
    for path, item in _mapping(data.get("paths")).items():
        if not isinstance(item, dict):
            continue
        common = [_resolved(p, shared_parameters) for p in _list(item.get("parameters"))]
        converted: dict[str, Any] = {"parameters": [_parameter(p, refs) for p in common
                                                    if _plain(p)]}
        for method in METHODS:
            operation = item.get(method)
            if isinstance(operation, dict):
                converted[method] = _operation(operation, common, shared_parameters,
                                               consumes, produces, refs)
        paths[str(path)] = converted
    document: dict[str, Any] = {
        "openapi": "3.0.3", "info": _mapping(data.get("info")), "paths": paths,
        "components": {key: value for key, value in components.items() if value}}
    server = _server(data)
    if server is not None:
        document["servers"] = [{"url": server}]
    if isinstance(data.get("security"), list):
        document["security"] = data["security"]
    return document


def _operation(operation: dict[str, Any], common: list[Any], shared: dict[str, Any],
               consumes: list[Any], produces: list[Any], refs: _Refs) -> dict[str, Any]:
    own = _list(operation.get("parameters"))
    resolved = [_resolved(p, shared) for p in own]
    named = {(p.get("name"), p.get("in")) for p in resolved if isinstance(p, dict)}
    # the path's parameters first, those the operation redefines left to it
    every = [p for p in common if not (isinstance(p, dict) and
                                       (p.get("name"), p.get("in")) in named)] + resolved
    consumed = _list(operation.get("consumes")) or consumes
    produced = _list(operation.get("produces")) or produces
    out = {key: value for key, value in operation.items()
           if key not in ("parameters", "responses", "consumes", "produces")}
    out["parameters"] = [_parameter(p, refs) for p in resolved if _plain(p)]
    body = next((p for p in every if isinstance(p, dict) and p.get("in") == "body"), None)
    form = [p for p in every if isinstance(p, dict) and p.get("in") == "formData"]
    if body is not None and isinstance(body.get("schema"), dict):
        out["requestBody"] = _described(body, {
            "content": {_json(consumed): {"schema": refs.schema(body["schema"])}}})
    elif form:
        required = [str(p.get("name")) for p in form if p.get("required") is True]
        schema = {"type": "object",
                  "properties": {str(p.get("name")): _value_schema(p, refs) for p in form}}
        # a form with a field it requires is required
        out["requestBody"] = {"content": {_form_media(form, consumed): {"schema": schema}}}
        if required:
            schema["required"] = required
            out["requestBody"]["required"] = True
    out["responses"] = {code: _response(response, produced, refs)
                        for code, response in _mapping(operation.get("responses")).items()}
    return out


def _plain(parameter: Any) -> bool:
    """Whether a parameter (its shared one's reference followed) stays a parameter: not the
    body, not a form field, not a reference that leads nowhere."""
    return isinstance(parameter, dict) and "$ref" not in parameter \
        and parameter.get("in") not in ("body", "formData")


def _parameter(parameter: dict[str, Any], refs: _Refs) -> dict[str, Any]:
    """A parameter not in the body, as 3.0 writes it."""
    out: dict[str, Any] = {key: parameter[key] for key in _PARAMETER_KEYS if key in parameter}
    out.update({key: value for key, value in parameter.items() if key.startswith("x-")})
    out["schema"] = _value_schema(parameter, refs)
    style = _STYLES.get(str(parameter.get("collectionFormat")))
    if style is not None and parameter.get("type") == "array" and parameter.get("in") in (
            "query", "header", "path", "cookie"):
        if parameter.get("in") == "query":
            out["style"], out["explode"] = style
        else:
            out["explode"] = style[1]
    return out


def _value_schema(parameter: dict[str, Any], refs: _Refs) -> dict[str, Any]:
    schema = {key: refs.schema(parameter[key]) for key in _SCHEMA_KEYS if key in parameter}
    if schema.get("type") == "file":
        schema.update(type="string", format="binary")
    if isinstance(parameter.get("description"), str):
        schema.setdefault("description", parameter["description"])
    return schema


def _response(response: Any, produced: list[Any], refs: _Refs) -> Any:
    if not isinstance(response, dict):
        return response
    if isinstance(response.get("$ref"), str):
        return {"$ref": refs.moved(response["$ref"])}
    out = {key: value for key, value in response.items() if key not in ("schema", "examples")}
    out.setdefault("description", "")
    if isinstance(response.get("schema"), dict):
        out["content"] = {_json(produced): {"schema": refs.schema(response["schema"])}}
    return out


def _scheme(scheme: dict[str, Any]) -> dict[str, Any]:
    if scheme.get("type") == "basic":
        return {"type": "http", "scheme": "basic"}
    return {key: value for key, value in scheme.items()
            if key in ("type", "in", "name", "description")}


def _server(data: dict[str, Any]) -> str | None:
    host, base = data.get("host"), data.get("basePath")
    base = base if isinstance(base, str) else ""
    if not isinstance(host, str) or not host:
        return base or None
    schemes = [s for s in _list(data.get("schemes")) if isinstance(s, str)]
    scheme = "https" if not schemes or "https" in schemes else schemes[0]
    return f"{scheme}://{host}{base}"


def _described(parameter: dict[str, Any], body: dict[str, Any]) -> dict[str, Any]:
    if isinstance(parameter.get("description"), str):
        body["description"] = parameter["description"]
    if parameter.get("required") is True:
        body["required"] = True
    return body


def _json(media: list[Any]) -> str:
    found = [m for m in media if isinstance(m, str)
             and (m.split(";")[0].strip() == "application/json" or "+json" in m)]
    return found[0] if found else "application/json"


def _form_media(form: list[dict[str, Any]], consumed: list[Any]) -> str:
    if any(p.get("type") == "file" for p in form) or (
            _MULTIPART in consumed and _FORM not in consumed):
        return _MULTIPART
    return _FORM


def _resolved(parameter: Any, shared: dict[str, Any]) -> Any:
    """A parameter, its reference to the document's shared ones followed."""
    ref = parameter.get("$ref") if isinstance(parameter, dict) else None
    if isinstance(ref, str) and ref.startswith("#/parameters/"):
        return shared.get(ref.removeprefix("#/parameters/")) or parameter
    return parameter


class _Refs:
    """Rewrites schemas with their references moved, each object of the document once."""

    def __init__(self) -> None:
        self._done: dict[int, tuple[Any, Any]] = {}  # id -> (object, rewritten)

    @staticmethod
    def moved(ref: str) -> str:
        for old, new in _MOVED.items():
            if ref.startswith(old):
                return new + ref.removeprefix(old)
        return ref

    def schema(self, node: Any) -> Any:
        if not isinstance(node, (dict, list)):
            return node
        done = self._done.get(id(node))
        if done is not None:
            return done[1]
        out: Any
        if isinstance(node, list):
            out = [self.schema(item) for item in node]
        else:
            out = {key: self.schema(value) for key, value in node.items()}
            if isinstance(out.get("$ref"), str):
                out["$ref"] = self.moved(out["$ref"])
            if out.get("type") == "file":
                out.update(type="string", format="binary")
        self._done[id(node)] = (node, out)
        return out


def _mapping(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def written_at(data: dict[str, Any], pointer: str) -> str:
    """The pointer in the 2.0 document `data` of the text a tool's `pointer` names (a
    parameter's, a body's or form field's, a definition's), or the nearest place that holds
    it; `pointer` itself when it is not a tool's."""
    key = "#key" if pointer.endswith("#key") else ""
    tokens = [unescape(t) for t in pointer.removesuffix("#key").split("/")[1:]]
    item = _mapping(data.get("paths")).get(tokens[1]) if len(tokens) > 2 else None
    operation = _mapping(item).get(tokens[2]) if isinstance(item, dict) else None
    if not isinstance(operation, dict):
        return pointer
    at = join("", "paths", tokens[1], tokens[2])
    rest = tokens[3:]
    if rest == ["description"]:
        text = "description" if isinstance(operation.get("description"), str) else "summary"
        return join(at, text) + key
    if rest[:1] in (["parameters"], ["outputSchema"]) and rest[1:2] == ["$defs"]:
        return join("/definitions", *rest[2:]) + key
    if rest[:1] == ["outputSchema"]:  # the first success response's schema
        for code, response in _mapping(operation.get("responses")).items():
            if str(code).startswith("2") and isinstance(_mapping(response).get("schema"), dict):
                return join(at, "responses", str(code), "schema", *rest[1:]) + key
    if rest[:1] != ["parameters"] or rest[1:2] != ["properties"] or len(rest) < 3:
        return at
    name, inner = rest[2], rest[3:]
    shared = _mapping(data.get("parameters"))
    field = inner[1] if name == "body" and inner[:1] == ["properties"] and len(inner) > 1 \
        else None
    for parameters, base in ((operation.get("parameters"), join(at, "parameters")),
                             (_mapping(item).get("parameters"),
                              join("", "paths", tokens[1], "parameters"))):
        for i, written in enumerate(_list(parameters)):
            parameter = _resolved(written, shared)
            if not isinstance(parameter, dict):
                continue
            where = join(base, i) if parameter is written else \
                join("/parameters", str(written["$ref"]).removeprefix("#/parameters/"))
            if name == "body" and parameter.get("in") == "body":
                return join(where, "schema", *inner) + key
            if field is not None and parameter.get("in") == "formData" \
                    and parameter.get("name") == field:
                return join(where, *inner[2:]) + key
            if parameter.get("name") == name and parameter.get("in") not in ("body",
                                                                              "formData"):
                return join(where, *inner) + key
    return at
