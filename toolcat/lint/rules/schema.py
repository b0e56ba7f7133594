"""TC1xx: the parameters schema itself: valid, present, consistent, self-contained."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any, TypeGuard

from toolcat.lint.findings import Context, Problem, catalog_rule, tool_rule
from toolcat.lint.metaschema import schema_errors
from toolcat.lint.walk import type_names, written_schema
from toolcat.model import Catalog, Tool
from toolcat.providers.types import foreign_types
from toolcat.wording import schema_message


@tool_rule("TC101", "invalid-schema", "error", per_schema=True, example="""
    tools:
      - name: create_ticket
        description: Open a support ticket for a customer problem.
        parameters:
          type: object
          properties:
  -         priority: {type: urgent, description: How soon it needs an answer.}
  -       required: priority
  +         priority:
  +           type: string
  +           enum: [low, normal, urgent]
  +           description: How soon it needs an answer.
  +       required: [priority]
    """)
def invalid_schema(tool: Tool, ctx: Context) -> Iterator[Problem]:
    """The parameters are not a valid JSON Schema.

    The schema is checked against the meta-schema its `$schema` names (draft 2020-12 when it
    names none). A schema that breaks its meta-schema is rejected by strict providers and by
    every validator, so calls to the tool can never be checked. Each finding points at the
    keyword that is wrong.
    """
    if tool.parameters is None:
        return
    for pointer, message in schema_errors(tool.parameters):
        yield Problem(f"not a valid JSON Schema: {message}", schema=pointer)


@tool_rule("TC102", "missing-schema", "error", example="""
    tools:
      - name: restart_service
        description: Restart a service on the production cluster by its name.
  +     parameters:
  +       type: object
  +       properties:
  +         service: {type: string, description: Name of the service to restart.}
  +       required: [service]
  +   - name: clear_cache
  +     description: Drop every cached page of the web front end.
  +     safe: true
  +     allow_no_schema: true
  +     no_schema_mode: human-approval
    """)
def missing_schema(tool: Tool, ctx: Context) -> Iterator[Problem]:
    """A tool has no parameters schema (fail-closed).

    The schema is the contract that every call the model returns is validated against before
    the tool runs. Without one, a call cannot be validated, so it is refused (fail-closed).
    A tool that takes no arguments declares an empty object schema. To run a tool without a
    schema on purpose, set `allow_no_schema: true` together with a `no_schema_mode`
    (read-only, human-approval or full) that limits what such a call may do.
    """
    if tool.parameters is not None:
        return
    if not tool.allow_no_schema:
        yield Problem("no parameters schema: calls to this tool cannot be validated and are "
                      "refused; add one (an empty object schema if it takes no arguments), or "
                      "set allow_no_schema with a no_schema_mode")
    elif tool.no_schema_mode is None:
        yield Problem("allow_no_schema is set without a no_schema_mode (read-only, "
                      "human-approval or full) to limit what an unvalidated call may do",
                      field="allow_no_schema")


@tool_rule("TC103", "required-undefined", "error", per_schema=True, example="""
    tools:
      - name: send_invoice
        description: Email an invoice to a customer as a PDF attachment.
        parameters:
          type: object
          properties:
            invoice_id: {type: string, description: "Invoice number, e.g. INV-0042."}
  +         email: {type: string, format: email, description: Address to send it to.}
          required: [invoice_id, email]
          additionalProperties: false
    """)
def required_undefined(tool: Tool, ctx: Context) -> Iterator[Problem]:
    """`required` names a property the schema does not define.

    The model is told the argument is required but is never told what it is, so it guesses a
    value, or the call fails validation every time. Usually a typo or a property that was
    renamed. Objects that may take properties from elsewhere (`patternProperties`, open
    `additionalProperties`, `allOf`, `$ref` and similar) are not checked.
    """
    nodes = ctx.nodes(tool)
    by_pointer = {node.pointer: node for node in nodes}
    for node in nodes:
        required = node.schema.get("required")
        properties = node.schema.get("properties", {})
        if not isinstance(required, list) or not isinstance(properties, dict):
            continue
        if _open_object(node.schema):
            continue
        defined = set(properties)
        if node.via in _BRANCHES:  # `oneOf: [{required: [a]}, ...]` refers to the parent's
            parent = by_pointer.get(_parent(node.pointer, node.via))
            if parent is None or isinstance(parent.schema.get("additionalProperties"), dict) \
                    or "patternProperties" in parent.schema:
                continue
            parent_properties = parent.schema.get("properties", {})
            defined |= set(parent_properties) if isinstance(parent_properties, dict) else set()
        for i, name in enumerate(required):
            if isinstance(name, str) and name not in defined:
                yield Problem(f"'{name}' is required but is not among the properties",
                              schema=f"{node.pointer}/required/{i}")


_BRANCHES = ("allOf", "anyOf", "oneOf", "if", "then", "else", "not")


def _parent(pointer: str, via: str) -> str:
    steps = 2 if via in ("allOf", "anyOf", "oneOf") else 1
    return pointer.rsplit("/", steps)[0]


_COMPOSITION = ("allOf", "anyOf", "oneOf", "$ref", "$dynamicRef", "if", "then", "else",
                "dependentSchemas", "patternProperties", "unevaluatedProperties")


def _open_object(schema: Mapping[str, Any]) -> bool:
    """Whether properties may come from somewhere other than `properties`."""
    return any(k in schema for k in _COMPOSITION) or isinstance(
        schema.get("additionalProperties"), dict)


_VALUE_KEYWORDS = ("type", "enum", "const", "minimum", "maximum", "exclusiveMinimum",
                   "exclusiveMaximum", "multipleOf", "minLength", "maxLength", "pattern",
                   "minItems", "maxItems", "uniqueItems", "minProperties", "maxProperties")
_BOUNDS = (("minimum", "maximum"), ("minLength", "maxLength"), ("minItems", "maxItems"),
           ("minProperties", "maxProperties"))


@tool_rule("TC104", "contradictory-values", "error", per_schema=True, example="""
    tools:
      - name: set_volume
        description: Set the speaker volume of a room in the office.
        parameters:
          type: object
          properties:
            level:
              type: integer
              minimum: 0
              maximum: 10
  -           default: 11
  +           default: 5
              description: Volume from 0 (mute) to 10.
          required: [level]
    """)
def contradictory_values(tool: Tool, ctx: Context) -> Iterator[Problem]:
    """`type`, `enum`, `const`, `default` or `examples` contradict each other.

    A `default` or example the schema itself rejects, an enum value of the wrong type, an
    empty enum, or a lower bound above the upper bound: the model copies defaults and
    examples into its calls, and a schema that no value can satisfy makes the tool uncallable.
    Values are checked against the keywords of their own schema node (type, enum, const,
    bounds, pattern). A `default` of null is not reported: it is how pydantic writes
    `Optional[X] = None` (null means "not given"), and a call may send it.
    """
    for node in ctx.nodes(tool):
        schema = node.schema
        enum = schema.get("enum")
        if isinstance(enum, list) and not enum:
            yield Problem("enum is empty: no value can be valid", schema=f"{node.pointer}/enum")
        for low, high in _BOUNDS:
            a, b = schema.get(low), schema.get(high)
            if _number(a) and _number(b) and a > b:
                yield Problem(f"{low} {a} is above {high} {b}: no value can be valid",
                              schema=f"{node.pointer}/{low}")
        # `default: null` is pydantic's `Optional[X] = None`: null stands for "not given",
        # which servers accept and check-call accepts too (calls.check.without_null_defaults)
        values = [(f"{node.pointer}/{key}", key, schema[key])
                  for key in ("default", "const", "example") if key in schema
                  and not (key == "default" and schema[key] is None)]
        if isinstance(enum, list):
            values += [(f"{node.pointer}/enum/{i}", "enum value", v) for i, v in enumerate(enum)]
        if isinstance(schema.get("examples"), list):
            values += [(f"{node.pointer}/examples/{i}", "example", v)
                       for i, v in enumerate(schema["examples"])]
        if not values:
            continue
        own = _own_rules(schema)
        for pointer, label, value in values:
            checks = own
            if label == "enum value":  # an enum value is checked against the type only
                checks = {k: v for k, v in own.items() if k == "type"}
            elif label == "const":
                checks = {k: v for k, v in own.items() if k != "const"}
            reason = _rejection(checks, value)
            if reason:
                yield Problem(f"{label} {_short(value)} contradicts the schema: {reason}",
                              schema=pointer)


def _own_rules(schema: Mapping[str, Any]) -> dict[str, Any]:
    rules = {k: schema[k] for k in _VALUE_KEYWORDS if k in schema}
    pattern = rules.get("pattern")
    if pattern is not None and (not isinstance(pattern, str) or not _compiles(pattern)):
        rules.pop("pattern")
    return rules


def _rejection(rules: dict[str, Any], value: Any) -> str | None:
    from jsonschema import Draft202012Validator

    if not rules or next(schema_errors(rules), None) is not None:
        return None  # TC101 reports a broken keyword; nothing sound to compare against
    error = next(iter(Draft202012Validator(rules).iter_errors(value)), None)
    return schema_message(error) if error is not None else None


def _compiles(pattern: str) -> bool:
    try:
        re.compile(pattern)
    except re.error:
        return False
    return True


def _number(value: object) -> TypeGuard[int | float]:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _short(value: Any, limit: int = 40) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


@catalog_rule("TC105", "remote-ref", "error", example="""
    tools:
      - name: create_order
        description: Place an order for products from the catalogue.
        parameters:
          type: object
          properties:
            address:
  -           $ref: https://example.com/schemas/address.json
  +           $ref: "#/$defs/address"
              description: Where to deliver the order.
          required: [address]
  +       $defs:
  +         address:
  +           type: object
  +           description: A postal address.
  +           properties:
  +             street: {type: string, description: Street and house number.}
  +             city: {type: string, description: City name.}
  +           required: [street, city]
    """)
def remote_ref(catalog: Catalog, ctx: Context) -> Iterator[Problem]:
    """A `$ref` points at a URL.

    toolcat never downloads a schema: a remote reference would make the definition depend on
    a server at run time, and on whatever that server returns that day. Copy the schema next
    to the catalog and refer to the file, or into `$defs`.
    """
    for issue in catalog.issues:
        if issue.code == "remote-ref":
            yield Problem(issue.message, tool=ctx.tool_at(issue.where), where=issue.where)


@catalog_rule("TC106", "unresolved-ref", "error", example="""
    tools:
      - name: create_order
        description: Place an order for products from the catalogue.
        parameters:
          type: object
          properties:
            address:
  -           $ref: "#/$defs/adress"
  +           $ref: "#/$defs/address"
              description: Where to deliver the order.
          required: [address]
          $defs:
            address:
              type: object
              description: A postal address.
              properties:
                city: {type: string, description: City name.}
    """)
def unresolved_ref(catalog: Catalog, ctx: Context) -> Iterator[Problem]:
    """A `$ref` points nowhere, at a file that cannot be read, out of the catalog, or loops.

    The schema cannot be resolved, so neither a provider nor a validator can use it. A chain
    of references that comes back to itself without reaching a schema is a loop; a recursive
    schema (a reference to an enclosing schema) is fine. A file reference that leaves the
    catalog file's folder tree (symlinks resolved) is refused unread unless toolcat.yaml
    allows its folder under `refs: roots:` (see docs/security.md).
    """
    for issue in catalog.issues:
        if issue.code in ("unresolved-ref", "ref-cycle", "ref-outside"):
            yield Problem(issue.message, tool=ctx.tool_at(issue.where), where=issue.where)


@tool_rule("TC107", "root-not-object", "error", per_schema=True, example="""
    tools:
      - name: tag_photo
        description: Add one or more tags to a photo in the library.
        parameters:
  -       type: array
  -       items: {type: string, description: A tag.}
  +       type: object
  +       properties:
  +         tags:
  +           type: array
  +           items: {type: string, description: A tag.}
  +           description: Tags to add.
  +       required: [tags]
    """)
def root_not_object(tool: Tool, ctx: Context) -> Iterator[Problem]:
    """The root of the parameters schema is not `type: object`.

    Arguments are always an object of named values. OpenAI, Anthropic, Bedrock and Gemini
    all require the root schema to say `type: object`, and reject a request otherwise.
    """
    schema = tool.parameters
    if schema is None:
        return
    if not isinstance(schema, dict):
        yield Problem(f"parameters is `{str(schema).lower()}`, not an object schema",
                      schema="")
        return
    types = type_names(schema)
    if "type" not in schema:
        yield Problem("the root schema has no `type: object`; providers require it",
                      schema="")
    elif types != ("object",):
        shown = ", ".join(types) or repr(schema["type"])
        yield Problem(f"the root schema is of type {shown}, not object", schema="/type")


@tool_rule("TC108", "foreign-type-name", "warning", example="""
    tools:
      - name: get_weather
        description: Current temperature and conditions for a city.
        parameters:
          type: object
          properties:
  -         city: {type: str, description: City name.}
  -         days: {type: int, description: Days of forecast to add.}
  +         city: {type: string, description: City name.}
  +         days: {type: integer, description: Days of forecast to add.}
          required: [city]
    """)
def foreign_type_name(tool: Tool, ctx: Context) -> Iterator[Problem]:
    """A schema uses a type name JSON Schema does not have (`str`, `int`, `dict`, `float`).

    toolcat reads Python, Java and BFCL type names as the JSON Schema types they mean, so its
    own payloads are right; the file is not. Every provider rejects `"type": "str"` when the
    file is sent as written (an OpenAI tools file passed to the SDK, an MCP server's schema),
    and a validator cannot compile it. Write the JSON Schema name.
    """
    written = written_schema(tool)
    if written is None or written is tool.parameters:
        return  # nothing was mapped: the schema is the file's own object
    for pointer, name, meant in foreign_types(written):
        instead = f"'{meant}'" if meant else "no `type` (any value)"
        yield Problem(f"type '{name}' is not a JSON Schema type: read as {instead}, but a "
                      f"provider given this file as written rejects it; write {instead}",
                      where=ctx.catalog.locate(tool, pointer))
