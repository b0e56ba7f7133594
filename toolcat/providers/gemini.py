"""Google Gemini: `tools: [{functionDeclarations: [{name, description, parameters |
parametersJsonSchema}]}]`.

`parameters` is Gemini's OpenAPI-style subset (upper-case types, `nullable`); it is read into
plain JSON Schema (the file keeps the original in `raw`). Converted catalogs are written with
`parametersJsonSchema`, which carries the canonical schema unchanged.

A request (`systemInstruction`, `contents`, `tools`) sends each tool's schema as `parameters`,
translated into the subset that every Gemini model and Vertex accept (`to_subset`); every change
the translation makes is a note. A response carries its calls as
`candidates[].content.parts[].functionCall = {id?, name, args}`, where `args` is an object.
"""

from __future__ import annotations

from collections.abc import Mapping

from toolcat.model import Tool, ToolCall
from toolcat.providers.contract import UNREPORTED_KEYWORDS, Limits, Provider, SchemaChange
from toolcat.providers.names import NameRule
from toolcat.providers.reading import BASE_FIELDS, Fields, ReadContext
from toolcat.providers.replies import locate, named_call
from toolcat.providers.targets import LintTarget
from toolcat.providers.tokens import TokenRule
from toolcat.providers.types import Json
from toolcat.providers.writing import (
    Note,
    Notes,
    RequestInput,
    Written,
    deferred_left_out,
    drop_none,
    own_extra,
)
from toolcat.source.positions import escape, unescape
from toolcat.source.refs import resolve_pointer

KEYS = {"name", "description", "parameters", "parametersJsonSchema"}
# parameter names Gemini accepts (a letter or `_`, then letters, digits, `_`; 64 at most): one
# rule, read by lint (TC406) and by render, which reports a schema it would send with others
PROPERTY_NAMES = NameRule("A-Za-z0-9_", letter_first=True, max_length=64)
_RENAMED = {"defs": "$defs", "ref": "$ref"}


def claims(item: Mapping[str, Json]) -> int:
    return 3 if "parametersJsonSchema" in item else 0


def subset_to_json_schema(schema: Json) -> Json:
    """Gemini's OpenAPI-style Schema as standard JSON Schema (a new object)."""
    if isinstance(schema, list):
        return [subset_to_json_schema(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out: dict[str, Json] = {}
    key: str  # the keys of a JSON object
    for key, value in schema.items():
        key = _RENAMED.get(key, key)
        if key == "type" and isinstance(value, str):
            out[key] = value.lower()
        elif key in ("properties", "$defs") and isinstance(value, dict):
            out[key] = {k: subset_to_json_schema(v) for k, v in value.items()}
        elif key in ("items", "anyOf"):
            out[key] = subset_to_json_schema(value)
        elif key == "$ref" and isinstance(value, str) and not value.startswith("#"):
            out[key] = f"#/$defs/{value}"
        elif key != "nullable":
            out[key] = value
    if schema.get("nullable") is True and isinstance(out.get("type"), str):
        out["type"] = [out["type"], "null"]
        if isinstance(out.get("enum"), list) and None not in out["enum"]:
            out["enum"] = [*out["enum"], None]
    return out


def read_tool(item: Mapping[str, Json], ctx: ReadContext) -> Tool:
    fields = Fields(item, ctx)
    if "parametersJsonSchema" in item:
        if "parameters" in item:
            raise ctx.fail("'parameters' and 'parametersJsonSchema' cannot be combined",
                           "parameters")
        parameters = fields.schema("parametersJsonSchema")
        pointer = ctx.pointer_to("parametersJsonSchema")
    else:
        parameters = subset_to_json_schema(fields.schema("parameters"))
        pointer = ctx.pointer_to("parameters")
    return ctx.tool(
        item, "gemini", pointer,
        name=fields.name(),
        description=fields.text("description"),
        parameters=parameters,
        extra=fields.rest(KEYS),
    )


def write_tool(tool: Tool) -> Written:
    return {
        **drop_none({
            "name": tool.name,
            "description": tool.description or None,
            "parametersJsonSchema": tool.parameters,
        }),
        **own_extra(tool, "gemini"),
    }, []


# The fields of the SDK's Schema class that the translation keeps as they are
# (../shared/reference/provider-formats.md, section 8.4).
KEPT = frozenset({
    "title", "description", "default", "example", "pattern", "minLength", "maxLength",
    "minimum", "maximum", "minItems", "maxItems", "minProperties", "maxProperties",
    "propertyOrdering", "required",
})
FORMATS = {"STRING": {"enum", "date-time"}, "NUMBER": {"float", "double"},
           "INTEGER": {"int32", "int64"}}
Change = tuple[str, str]  # (JSON pointer in the canonical schema, what changed)
MAX_INLINED_DEPTH = 16  # references inlined inside one another
MAX_INLINED = 1000  # references inlined in one schema


def to_subset(schema: Json) -> tuple[Json, list[Change]]:
    """A translated copy of a JSON Schema in Gemini's OpenAPI subset, and every change made.

    Local `$ref`s are inlined (a recursive one becomes a free-form object), `type` lists and
    `anyOf` branches of null become `nullable`, `oneOf` becomes `anyOf` (or is dropped when its
    branches are constraints without types, such as `required` alone), a one-branch `allOf` is
    merged, `const` becomes a one-value enum, and keywords the subset has no field for
    (`additionalProperties`, `$defs`, `not`, `exclusiveMinimum`, non-string enums, formats
    other than the ones listed in FORMATS, ...) are dropped. The input is never modified.
    """
    changes: list[Change] = []
    return _translate(schema, "", schema, (), changes), changes


def _translate(node: Json, at: str, root: Json, refs: tuple[str, ...],
               changes: list[Change]) -> Json:
    if node is True or node == {}:
        return {}
    if not isinstance(node, dict):
        changes.append((at, "a boolean schema became a free-form schema"))
        return {}
    ref = node.get("$ref")
    if isinstance(ref, str):
        return _inline(node, ref, at, root, refs, changes)
    out: dict[str, Json] = {}
    nullable = False
    for key, value in node.items():
        here = f"{at}/{escape(key)}"
        if key == "type":
            kind, nullable_type = _type(value, here, changes)
            nullable = nullable or nullable_type
            if isinstance(kind, str):
                out["type"] = kind
            elif kind:
                out["anyOf"] = [{"type": t} for t in kind]
        elif key == "properties" and isinstance(value, dict):
            out[key] = {name: _translate(sub, f"{here}/{escape(name)}", root, refs, changes)
                        for name, sub in value.items()}
        elif key == "items" and isinstance(value, (dict, bool)):
            out[key] = _translate(value, here, root, refs, changes)
        elif key in ("anyOf", "oneOf") and isinstance(value, list):
            branches = [_translate(b, f"{here}/{i}", root, refs, changes)
                        for i, b in enumerate(value)]
            kept = [b for b in branches if b != {"type": "NULL"}]
            if len(kept) < len(branches):
                nullable = True
                changes.append((here, "a null branch became nullable: true"))
            if kept and not any("type" in b or "anyOf" in b for b in kept):
                changes.append((here, f"{key} of constraints only (no types) dropped: "
                                "Gemini's anyOf branches must be schemas of their own"))
                continue
            if key == "oneOf":
                changes.append((here, "oneOf became anyOf (Gemini has no oneOf)"))
            if len(kept) == 1:
                out.update({k: v for k, v in kept[0].items() if k not in out})
            elif kept:
                out["anyOf"] = kept
        elif key == "allOf" and isinstance(value, list) and len(value) == 1:
            changes.append((here, "a one-branch allOf was merged into its schema"))
            merged = _translate(value[0], f"{here}/0", root, refs, changes)
            out.update({k: v for k, v in merged.items() if k not in out})
        elif key == "enum" and isinstance(value, list):
            values = [v for v in value if v is not None]
            if len(values) < len(value):
                nullable = True
                changes.append((here, "null in enum became nullable: true"))
            if all(isinstance(v, str) for v in values):
                out[key] = values
            else:
                changes.append((here, "enum dropped: Gemini enums hold strings only"))
        elif key == "const":
            if isinstance(value, str):
                out["enum"] = [value]
                changes.append((here, "const became a one-value enum"))
            else:
                changes.append((here, "const dropped: Gemini enums hold strings only"))
        elif key in KEPT:
            out[key] = value
        elif key in ("$defs", "definitions"):
            changes.append((here, f"{key} dropped: its schemas are inlined where referenced"))
        elif key != "format" and key not in UNREPORTED_KEYWORDS:
            changes.append((here, f"{key} dropped: not in Gemini's schema subset"))
    _format(node, out, at, changes)
    if nullable:
        out["nullable"] = True
    return out


def _type(value: Json, at: str, changes: list[Change]) -> tuple[str | list[str] | None, bool]:
    """The subset's type (or types, for an anyOf) and whether null was one of them."""
    if isinstance(value, str):
        return value.upper(), False
    if not isinstance(value, list):
        changes.append((at, "type dropped: not a string or a list"))
        return None, False
    kinds = [str(t).upper() for t in value if t != "null"]
    nullable = len(kinds) < len(value)
    if nullable:
        changes.append((at, "null in a type list became nullable: true"))
    if len(kinds) == 1:
        return kinds[0], nullable
    if kinds:
        changes.append((at, "a type list became anyOf"))
    return kinds, nullable


def _format(node: Mapping[str, Json], out: dict[str, Json], at: str,
            changes: list[Change]) -> None:
    fmt = node.get("format")
    if fmt is None:
        return
    if fmt in FORMATS.get(out.get("type", ""), ()):
        out["format"] = fmt
    else:
        kind = str(out.get("type", "")).lower() or "untyped"
        changes.append((f"{at}/format", f"format {fmt!r} dropped: Gemini does not support it "
                        f"for {kind} values"))


def _inline(node: Mapping[str, Json], ref: str, at: str, root: Json, refs: tuple[str, ...],
            changes: list[Change]) -> Json:
    here = f"{at}/$ref"
    target = resolve_pointer(root, ref[1:]) if ref.startswith("#") else None
    if not isinstance(target, (dict, bool)):
        changes.append((here, f"$ref {ref!r} cannot be inlined; a free-form schema was sent"))
        inlined: Json = {}
    elif ref in refs:
        changes.append((here, f"recursive $ref {ref!r} became a free-form object"))
        inlined = {"type": "OBJECT"}
    elif len(refs) >= MAX_INLINED_DEPTH or _inlined(changes) >= MAX_INLINED:
        # chains of references expand without bound (each definition using the next twice
        # doubles the schema): past these limits the rest is sent free-form
        changes.append((here, f"$ref {ref!r} not inlined (over {MAX_INLINED_DEPTH} nested "
                        f"or {MAX_INLINED} in all); a free-form object was sent"))
        inlined = {"type": "OBJECT"}
    else:
        changes.append((here, f"$ref {ref!r} was inlined"))
        inlined = _translate(target, at, root, (*refs, ref), changes)
    siblings = {k: v for k, v in node.items() if k != "$ref"}
    if not siblings:
        return inlined
    return {**inlined, **_translate(siblings, at, root, refs, changes)}


def _inlined(changes: list[Change]) -> int:
    return sum(1 for _, what in changes if what.endswith("was inlined"))


def schema_changes(schema: Json) -> list[SchemaChange]:
    """What a request does to `schema` (see `to_subset`): every drop and translation."""
    return [SchemaChange(pointer, unescape(pointer.rsplit("/", 1)[-1]) if pointer else "",
                         message, "dropped" in message or "free-form" in message)
            for pointer, message in to_subset(schema)[1]]


def parameterless(subset: Json) -> bool:
    """An OBJECT without properties: Gemini answers 400 ("properties: should be non-empty for
    OBJECT type"), so such a tool is sent with no `parameters` at all."""
    return isinstance(subset, dict) and subset.get("type") == "OBJECT" \
        and not subset.get("properties") and "anyOf" not in subset


def declaration(tool: Tool) -> Written:
    """A function declaration as a request sends it, with the schema in the subset."""
    item = {"name": tool.name}
    if tool.description:
        item["description"] = tool.description
    notes: Notes = []
    if tool.parameters is not None:
        subset, changes = to_subset(tool.parameters)
        if not parameterless(subset):
            item["parameters"] = subset
        notes = [Note(f"{tool.name}: Gemini schema: {what} (at {where or '/'})",
                      f"Gemini schema: {what}", tool.name)
                 for where, what in _grouped(changes)]
    return item, notes


def _grouped(changes: list[Change]) -> list[tuple[str, str]]:
    """One note per kind of change, listing every place it was made."""
    places: dict[str, list[str]] = {}
    for where, what in changes:
        places.setdefault(what, []).append(where)
    return [(", ".join(dict.fromkeys(where)), what) for what, where in places.items()]


def request(req: RequestInput) -> Written:
    notes: Notes = []
    body: dict[str, Json] = {}
    if req.system:
        body["systemInstruction"] = {"parts": [{"text": req.system}]}
    body["contents"] = [{"role": "user", "parts": [{"text": req.query}]}]
    if req.tools:
        declarations = []
        for tool in req.tools:
            item, tool_notes = declaration(tool)
            declarations.append(item)
            notes += tool_notes
        body["tools"] = [{"functionDeclarations": declarations}]
    deferred_left_out(req, "Gemini", notes)
    return body, notes


CALL_PATHS = ("candidates/*/content/parts/*", "content/parts/*", "parts/*", "*")


def parse_calls(response: Json) -> list[ToolCall]:
    found = locate(response, CALL_PATHS, "Gemini")
    calls = []
    for part, pointer in found:
        if isinstance(part, dict) and "functionCall" in part:
            call = part["functionCall"]
            call_id = call.get("id") if isinstance(call, dict) else None
            calls.append(named_call(call, "name", "args", pointer + "/functionCall",
                                    call_id=call_id))
    return calls


PROVIDER = Provider(
    name="gemini",
    label="Google Gemini",
    carries=BASE_FIELDS,
    claims=claims,
    read_tool=read_tool,
    write_tool=write_tool,
    wrap=lambda items, servers: {"tools": [{"functionDeclarations": items}]},
    limits=Limits(names=NameRule("a-zA-Z0-9_.:-", letter_first=True, max_length=128),
                  property_names=PROPERTY_NAMES, max_tools=512),
    request=request,
    parse_calls=parse_calls,
    request_tool=declaration,
    schema_changes=schema_changes,
    lint_targets=(LintTarget(
        name="gemini", label="Google Gemini",
        property_name_pattern=PROPERTY_NAMES.pattern,
        max_tools_note="Gemini API docstring; Vertex AI documents 128",
    ),),
    tokens=TokenRule(basis="Gemini's local tokenizer needs Gemma tokenizer files toolcat does "
                           "not download"),
)
