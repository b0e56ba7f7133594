"""TC4xx: provider compatibility, for each `--target`: what the provider rejects, ignores or
caps. The facts are each provider's own (`toolcat/providers/<name>.py`, gathered by
`toolcat/lint/targets.py`); these rules only apply them."""

from __future__ import annotations

import re
from collections.abc import Iterator

from toolcat.lint.findings import Context, Problem, catalog_rule, tool_rule
from toolcat.lint.targets import Target
from toolcat.lint.text import parameter_path
from toolcat.lint.walk import Node, type_names
from toolcat.model import Catalog, Tool
from toolcat.providers.targets import StrictRules
from toolcat.source.positions import escape
from toolcat.source.refs import is_remote

_META_KEYS = frozenset({"$schema", "$comment", "$id", "$defs", "definitions", "$anchor"})


@tool_rule("TC401", "unsupported-keyword", "error", needs_target=True,
           example_settings={"targets": ["anthropic"]}, example="""
    tools:
      - name: book_room
  -     description: Book a meeting room for a number of people at a given time.
  +     description: Book a meeting room for a number of people (1 to 40) at a given time.
        strict: true
        parameters:
          type: object
          properties:
  -         people: {type: integer, minimum: 1, maximum: 40, description: How many attend.}
  +         people: {type: integer, description: "How many attend, from 1 to 40."}
          required: [people]
          additionalProperties: false
    """)
def unsupported_keyword(tool: Tool, ctx: Context) -> Iterator[Problem]:
    """A target rejects a keyword or value in the schema of a strict tool.

    Strict mode compiles the schema into a grammar, and each provider supports only a subset
    of JSON Schema there (OpenAI: no `allOf`, `not`, `if`/`then`/`else`, `dependent*`;
    Anthropic and Bedrock: no `minimum`, `maximum`, `multipleOf`, `minLength`, `maxLength`,
    `minItems` above 1; each a short list of `format` values). Sending such a schema fails
    the request with a 400. Move the constraint into the description, or drop `strict`.
    Applies to tools with `strict: true`, and to every tool for `openai-strict`.
    """
    for target in ctx.targets:
        rules = target.strict_rules(tool.strict)
        if rules is None:
            continue
        for node in ctx.nodes(tool):
            for key, value in node.schema.items():
                at = f"{node.pointer}/{escape(key)}"
                if key in rules.rejected:
                    yield Problem(f"{rules.label} does not support '{key}'", schema=at,
                                  key=True, target=target.name)
                elif key == "format" and isinstance(value, str) \
                        and value not in rules.formats:
                    yield Problem(f"{rules.label} does not support format '{value}' (only "
                                  f"{', '.join(sorted(rules.formats))})", schema=at,
                                  target=target.name)
                elif key == "minItems" and rules.max_min_items is not None \
                        and isinstance(value, int) and value > rules.max_min_items:
                    yield Problem(f"{rules.label} supports minItems of 0 or 1 only, not "
                                  f"{value}", schema=at, target=target.name)


@tool_rule("TC402", "ignored-keyword", "warning", needs_target=True,
           example_settings={"targets": ["gemini"]}, example="""
    tools:
      - name: create_user
        description: Create a user account with a login name and an email address.
        parameters:
          type: object
          properties:
            email:
              type: string
  -           format: email
  -           description: Email address.
  +           description: Email address, such as ada@example.com.
          required: [email]
    """)
def ignored_keyword(tool: Tool, ctx: Context) -> Iterator[Problem]:
    """A target silently drops a keyword, so the model never sees that constraint.

    Gemini's `parameters` schema is an OpenAPI subset (no `additionalProperties`, `const`,
    `not`, `exclusiveMinimum`, most `format`s, ...), and the Ollama server keeps only `type`,
    `items`, `description`, `enum`, `anyOf` and nested `properties` of each property.
    Nothing fails: the constraint just vanishes. Say it in the description too, and validate
    calls on your side (toolcat does). `render --provider` reports the same drops, from the
    same description of each provider. Annotations such as `title` are not reported: losing
    them costs the model nothing.
    """
    if not isinstance(tool.parameters, dict):
        return
    for target in ctx.targets:
        changes = target.schema_changes
        if changes is None:
            continue
        by_node: dict[str, list[str]] = {}
        for change in changes(tool.parameters):
            if change.dropped:
                node = change.pointer.rsplit("/", 1)[0]
                by_node.setdefault(node, []).append(change.keyword)
        for node, keys in by_node.items():
            place = "at the root" if not node else f"in '{parameter_path(node)}'"
            yield Problem(f"{target.label} drops {', '.join(map(repr, dict.fromkeys(keys)))} "
                          f"{place}", schema=f"{node}/{escape(keys[0])}", key=True,
                          target=target.name)


@catalog_rule("TC403", "request-limits", "warning", needs_target=True,
              example_settings={"targets": ["anthropic"]}, bad="""
    # 21 strict tools: Anthropic accepts at most 20 in one request
    x-schema: &region {type: object, additionalProperties: false, required: [region],
                       properties: {region: {type: string, description: Sales region code.}}}
    tools:
""" + "".join(f"""      - {{name: sales_report_{i:02d}, strict: true, parameters: *region,
         description: Build sales report number {i} of the monthly pack for a region.}}
""" for i in range(21)) + """
    """, good="""
    tools:
      - name: build_report
        description: Build one of the 21 sales reports for a region and a month.
        strict: true
        parameters:
          type: object
          properties:
            report: {type: integer, description: "Report number, 0 to 20."}
            region: {type: string, description: Sales region code.}
          required: [report, region]
          additionalProperties: false
    """)
def request_limits(catalog: Catalog, ctx: Context) -> Iterator[Problem]:
    """The catalog exceeds what a target accepts in one request.

    Request caps: 128 tools for OpenAI Chat Completions, 512 for the Gemini API (128 on
    Vertex AI). Anthropic strict tool use allows at most 20 strict tools, 24 optional
    parameters and 16 union-typed parameters per request, summed over the strict tools.
    The finding points at the tool that crosses the limit. Send fewer tools per request
    (`toolcat pick`, tool search) or mark some deferred.
    """
    for target in ctx.targets:
        cap = target.tool_cap
        if cap is not None and len(catalog.tools) > cap:
            note = f" ({target.max_tools_note})" if target.max_tools_note else ""
            yield Problem(f"{len(catalog.tools)} tools; {target.label} accepts at most {cap} "
                          f"in one request{note}; this is tool {cap + 1}, "
                          f"'{catalog.ident(catalog.tools[cap])}'",
                          where=catalog.tools[cap].origin, target=target.name)
        yield from _strict_budget(catalog, target)


def _strict_budget(catalog: Catalog, target: Target) -> Iterator[Problem]:
    if target.strict is None:
        return
    rules = target.strict
    counters = {"strict tools": 0, "optional parameters": 0, "union-typed parameters": 0}
    limits = {"strict tools": rules.max_strict_tools,
              "optional parameters": rules.max_optional_params,
              "union-typed parameters": rules.max_union_params}
    for tool in catalog.tools:
        if target.strict_rules(tool.strict) is None:
            continue
        optional, unions = _parameter_counts(tool)
        for label, add in (("strict tools", 1), ("optional parameters", optional),
                           ("union-typed parameters", unions)):
            limit = limits[label]
            before = counters[label]
            counters[label] += add
            if limit is not None and before <= limit < counters[label]:
                yield Problem(f"{rules.label} allows at most {limit} {label} per request; "
                              f"they pass {limit} at '{catalog.ident(tool)}'",
                              where=tool.origin,
                              target=target.name)


def _parameter_counts(tool: Tool) -> tuple[int, int]:
    """(optional, union-typed) top-level parameters of a tool."""
    schema = tool.parameters
    if not isinstance(schema, dict) or not isinstance(schema.get("properties"), dict):
        return 0, 0
    required = schema.get("required")
    if not isinstance(required, list):
        required = []
    optional = unions = 0
    for name, sub in schema["properties"].items():
        optional += name not in required
        if isinstance(sub, dict) and (len(type_names(sub)) > 1 or "anyOf" in sub):
            unions += 1
    return optional, unions


@tool_rule("TC404", "strict-schema", "error", needs_target=True,
           example_settings={"targets": ["openai-strict"]}, example="""
    tools:
      - name: add_note
        description: Add a note to a customer record, optionally pinned to the top.
        parameters:
          type: object
          properties:
            text: {type: string, description: The note.}
  -         pinned: {type: boolean, description: Keep the note at the top.}
  -       required: [text]
  +         pinned: {type: [boolean, "null"], description: Keep the note at the top.}
  +       required: [text, pinned]
  +       additionalProperties: false
    """)
def strict_schema(tool: Tool, ctx: Context) -> Iterator[Problem]:
    """A strict tool's schema breaks the target's strict-mode structure rules.

    OpenAI strict mode needs `additionalProperties: false` on every object and every
    property listed in `required` (an optional one becomes a union with null); the root may
    not be an `anyOf`, a `$ref` may not have sibling keywords, and nesting stops at 10
    levels, 5,000 properties and 1,000 enum values. Anthropic and Bedrock strict tools need
    `additionalProperties: false` on every object and no recursive schemas. The request is
    rejected otherwise.
    """
    for target in ctx.targets:
        rules = target.strict_rules(tool.strict)
        if rules is not None and isinstance(tool.parameters, dict):
            for problem in _strict_problems(tool, rules, ctx.nodes(tool)):
                yield Problem(problem.message, schema=problem.schema, key=problem.key,
                              target=target.name)


def _strict_problems(tool: Tool, rules: StrictRules, nodes: list[Node]) -> Iterator[Problem]:
    label = rules.label
    root = nodes[0].schema
    if not rules.root_any_of and "anyOf" in root:
        yield Problem(f"{label} does not allow anyOf at the root", schema="/anyOf", key=True)
    properties = enum_values = 0
    for node in nodes:
        schema = node.schema
        is_object = "object" in type_names(schema) or "properties" in schema
        extra = schema.get("additionalProperties")
        if rules.closed_objects and is_object and extra is not False:
            where = "is missing" if extra is None else f"is {extra!r}"
            yield Problem(f"{label} needs additionalProperties: false on every object; "
                          f"{_place(node)} it {where}",
                          schema=f"{node.pointer}/additionalProperties" if extra is not None
                          else node.pointer)
        props = schema.get("properties")
        if isinstance(props, dict):
            properties += len(props)
            required = schema.get("required")
            if not isinstance(required, list):
                required = []
            if rules.all_required:
                for name in props:
                    if name not in required:
                        yield Problem(f"{label} needs every property in required; "
                                      f"'{name}' is not (make it a union with null instead)",
                                      schema=f"{node.pointer}/properties/{escape(name)}",
                                      key=True)
        if isinstance(schema.get("enum"), list):
            enum_values += len(schema["enum"])
        if not rules.ref_siblings and "$ref" in schema:
            siblings = [k for k in schema if k != "$ref" and k not in _META_KEYS]
            if siblings:
                yield Problem(f"{label} does not allow keywords beside $ref "
                              f"({', '.join(siblings)})", schema=f"{node.pointer}/$ref",
                              key=True)
        if rules.max_depth is not None and node.depth > rules.max_depth:
            yield Problem(f"{label} allows at most {rules.max_depth} levels of nesting; this "
                          f"is level {node.depth}", schema=node.pointer)
    if rules.max_properties is not None and properties > rules.max_properties:
        yield Problem(f"{label} allows at most {rules.max_properties} properties in all; "
                      f"this schema has {properties}", schema="")
    if rules.max_enum_values is not None and enum_values > rules.max_enum_values:
        yield Problem(f"{label} allows at most {rules.max_enum_values} enum values in all; "
                      f"this schema has {enum_values}", schema="")
    if not rules.recursion:
        recursive = _recursive_ref(nodes)
        if recursive is not None:
            yield Problem(f"{label} does not allow recursive schemas; this $ref refers back "
                          "to a schema that contains it", schema=f"{recursive}/$ref", key=True)


def _recursive_ref(nodes: list[Node]) -> str | None:
    """The pointer of the first node whose local `$ref` leads back to a schema holding it."""
    refs = [(node.pointer, node.schema["$ref"][1:]) for node in nodes
            if isinstance(node.schema.get("$ref"), str) and node.schema["$ref"].startswith("#")
            and not is_remote(node.schema["$ref"])]
    for location, target in refs:
        seen = {target}
        stack = [target]
        while stack:
            current = stack.pop()
            if _inside(location, current):
                return location
            for other_location, other_target in refs:
                if _inside(other_location, current) and other_target not in seen:
                    seen.add(other_target)
                    stack.append(other_target)
    return None


def _inside(pointer: str, ancestor: str) -> bool:
    return pointer == ancestor or pointer.startswith(ancestor + "/") or ancestor == ""


@tool_rule("TC405", "long-description", "info", needs_target=True,
           example_settings={"targets": ["openai"]}, example=f"""
    tools:
      - name: run_report
  -     description: >-
  -       {"Run the quarterly sales report for a region and return it as a table. " * 16}
  +     description: Run the quarterly sales report for a region and return it as a table.
        parameters:
          type: object
          properties:
            region: {{type: string, description: Sales region code.}}
          required: [region]
    """)
def long_description(tool: Tool, ctx: Context) -> Iterator[Problem]:
    """A description is longer than a target has accepted.

    OpenAI rejected descriptions over 1,024 characters until about May 2025
    (`string_above_max_length`); it seems to accept longer ones now, so this is a note. Long
    descriptions also cost tokens in every request.
    """
    for target in ctx.targets:
        limit = target.description_max
        if limit is not None and len(tool.description) > limit:
            yield Problem(f"the description is {len(tool.description):,} characters; "
                          f"{target.label} rejected more than {limit:,} until 2025",
                          field="description", target=target.name)


@tool_rule("TC406", "property-name-rejected", "error", needs_target=True,
           example_settings={"targets": ["gemini"]}, example="""
    tools:
      - name: set_header
        description: Set an HTTP header on every outgoing request of the API client.
        parameters:
          type: object
          properties:
  -         header-name: {type: string, description: "Header name, e.g. X-Request-Id."}
  -       required: [header-name]
  +         header_name: {type: string, description: "Header name, e.g. X-Request-Id."}
  +       required: [header_name]
    """)
def property_name_rejected(tool: Tool, ctx: Context) -> Iterator[Problem]:
    """A target rejects a parameter name.

    Gemini requires parameter names to start with a letter or `_` and to use only letters,
    digits and `_`, at most 64 characters: `header-name` or `user.id` are rejected.
    """
    for target in ctx.targets:
        if target.property_name_pattern is None:
            continue
        pattern = re.compile(target.property_name_pattern)
        for node in ctx.nodes(tool):
            if node.property is not None and not pattern.fullmatch(node.property):
                yield Problem(f"{target.label} rejects the parameter name '{node.property}': "
                              f"it must match {target.property_name_pattern}",
                              schema=node.pointer, key=True, target=target.name)


def _place(node: Node) -> str:
    return "at the root" if not node.pointer else f"in '{parameter_path(node.pointer)}'"


@tool_rule("TC407", "deferred-with-forbidden-key", "error", needs_target=True,
           example_settings={"targets": ["anthropic"]}, example="""
    tools:
      - name: search_orders
        description: Search the shop's orders by customer, status or date range.
        input_schema:
          type: object
          properties:
            customer: {type: string, description: Customer email or id.}
        defer_loading: true
  -     cache_control: {type: ephemeral}
    """)
def deferred_with_forbidden_key(tool: Tool, ctx: Context) -> Iterator[Problem]:
    """A deferred tool carries a key its target rejects on deferred tools.

    Anthropic answers HTTP 400 to a tool with both `defer_loading: true` and `cache_control`
    ("Tools with defer_loading cannot use prompt caching"): a deferred tool is not in the
    cached prefix. Put the cache breakpoint on the last tool that is not deferred. `render
    --provider` leaves the key out of deferred tools itself and says so.
    """
    if tool.defer_loading is not True:
        return
    for target in ctx.targets:
        if target.deferred_without is None or tool.shape != target.provider.name:
            continue
        key, why = target.deferred_without
        if key in tool.extra:
            yield Problem(f"deferred with '{key}': {why}", field=key, key=True,
                          target=target.name)
