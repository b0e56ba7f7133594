"""TC3xx: descriptions: present, specific enough to be found and chosen, not the name again."""

from __future__ import annotations

from collections.abc import Iterator

from toolcat.lint.findings import Context, Problem, tool_rule
from toolcat.lint.text import (
    STOPWORDS,
    description_plain_words,
    description_words,
    name_words,
    parameter_path,
    stem,
)
from toolcat.lint.walk import SCHEMA_LISTS, Node
from toolcat.model import Tool, compact_json
from toolcat.source.refs import resolve_pointer
from toolcat.wording import plural

PLACEHOLDERS = frozenset({"todo", "tbd", "fixme", "xxx", "placeholder", "description",
                          "lorem", "n/a", "na", "none", "test", "tool", "function"})
# words that add nothing about what a tool does: generic verbs (the bad example
# "Returns data about conditions" is one of them, two of these and one other word), generic
# nouns and filler
VAGUE = frozenset(("do does doing handle handles handler helper helps process processes "
                   "manage manages misc miscellaneous stuff thing things various utility util "
                   "function tool api call calls operation operations action actions data info "
                   "information something run runs execute executes general generic perform "
                   "performs task tasks work works other others some certain etc stuff "
                   "with returns returned returning get gets getting fetch fetches "
                   "fetching retrieve retrieves retrieving provide provides providing give "
                   "gives obtain obtains about regarding related relating concerning relevant "
                   "corresponding particular given specified specific all any each every "
                   "result results detail details value values item items content contents "
                   "object objects entity entities resource resources").split())
NAME_FILLER = frozenset({"tool", "function", "api", "call", "calls", "this", "use", "used",
                         "method", "endpoint"})


@tool_rule("TC301", "missing-description", "error", example="""
    tools:
      - name: archive_project
  +     description: >-
  +       Archive a project: it becomes read-only and disappears from the project list,
  +       but nothing is deleted. Use it when a user asks to close or shelve a project.
        parameters:
          type: object
          properties:
            project_id: {type: string, description: Id of the project to archive.}
          required: [project_id]
    """)
def missing_description(tool: Tool, ctx: Context) -> Iterator[Problem]:
    """A tool has no description, or an empty one.

    The description is what a model reads to decide whether to call a tool, and what search
    matches a request against. Without one the tool is chosen by its name alone, or never.
    AWS Bedrock rejects an empty description outright.
    """
    if tool.description.strip():
        return
    if tool.description:
        yield Problem("the description is blank", field="description")
    else:
        yield Problem("no description: a model sees only the name, and search cannot find "
                      "the tool by what it does")


@tool_rule("TC302", "vague-description", "warning", options={"min_description_words": 4},
           example="""
    tools:
      - name: sync_records
  -     description: Handles the data.
  +     description: >-
  +       Copy customer records changed in the CRM since a given time into the billing
  +       database, and return how many were added or updated.
        parameters:
          type: object
          properties:
            since: {type: string, format: date-time, description: Only records changed since.}
    """)
def vague_description(tool: Tool, ctx: Context) -> Iterator[Problem]:
    """The description is too short or too vague to be found by search.

    A description of fewer than `min_description_words` words (default 4), a placeholder such
    as "tbd", or one with at most one specific word among generic ones like "handles",
    "returns", "data", "utility" or "does stuff" (as in "Returns data about
    conditions") gives a search nothing to match and a model nothing to choose by. Say what
    the tool does, to what, and what it returns.
    """
    known: dict[str, list[Problem]] = ctx.shared("TC302-descriptions", dict)
    problems = known.get(tool.description)
    if problems is None:  # once per distinct description: catalogs repeat them
        problems = known[tool.description] = list(_vague(tool, ctx))
    yield from problems


def _vague(tool: Tool, ctx: Context) -> Iterator[Problem]:
    text = tool.description.strip()
    if not text:
        return
    found = description_plain_words(tool, ctx)
    minimum = ctx.options["min_description_words"]
    lowered = " ".join(found)
    if lowered in PLACEHOLDERS or text.lower() in PLACEHOLDERS:
        yield Problem(f"the description {text!r} is a placeholder", field="description")
    elif len(found) < minimum:
        yield Problem(f"the description has {len(found)} word{'s' * (len(found) != 1)} "
                      f"(at least {minimum}): too little for search to match or a model to "
                      "choose by", field="description")
    else:
        specific = {stem(w): w for w in found if w not in VAGUE and w not in STOPWORDS}
        if not specific:
            yield Problem(f"the description {text!r} says nothing specific about what the "
                          "tool does", field="description")
        elif len(specific) == 1:
            only = next(iter(specific.values()))
            yield Problem(f"the description {text!r} says little about what the tool does: "
                          f"only '{only}' is specific; say what it does, to what, and what it "
                          "returns", field="description")


@tool_rule("TC303", "undocumented-parameter", "warning", example="""
    tools:
      - name: resize_image
        description: Resize an image in the media library to the given width in pixels.
        parameters:
          type: object
          properties:
            image_id: {type: string, description: Id of the image in the library.}
  -         width: {type: integer, minimum: 1}
  +         width: {type: integer, minimum: 1, description: New width in pixels.}
          required: [image_id, width]
    """)
def undocumented_parameter(tool: Tool, ctx: Context) -> Iterator[Problem]:
    """A parameter has no description.

    The model fills every argument from what the schema tells it; a parameter without a
    description is filled from its name alone, which is where wrong units, formats and ids
    come from. A property that is only a `$ref` is documented by the schema it refers to.
    Properties of `$defs` no `$ref` reaches take no argument and are not reported; a definition
    copied into many tools (as servers generated from OpenAPI do) is reported once, in the
    first tool that uses it, with how many other tools hold the same copy.
    """
    shared = ctx.shared("TC303-definitions", lambda: _shared_definitions(ctx))
    for node, definition in _undocumented(tool, ctx):
        if definition is None:
            yield Problem(f"parameter '{parameter_path(node.pointer)}' has no description",
                          schema=node.pointer, key=True)
            continue
        first, copies = shared[_cause(definition, node)]
        if first is not tool:
            continue
        also = (f" (the same definition is in {plural(copies - 1, 'other tool')})"
                if copies > 1 else "")
        yield Problem(f"parameter '{parameter_path(node.pointer)}' has no description{also}",
                      schema=node.pointer, key=True)


def _undocumented(tool: Tool, ctx: Context) -> list[tuple[Node, str | None]]:
    """Undocumented properties a model can be asked to fill, each with the `$defs` entry it
    sits in (`/$defs/Name`), or None outside the definitions; found once per distinct schema
    (`Context.schema_key`: they follow from the schema alone), the list shared."""
    found: dict[str | bytes, list[tuple[Node, str | None]]] = ctx.shared(
        "TC303-undocumented", dict)
    key = ctx.schema_key(tool)
    if key not in found:
        found[key] = list(_undocumented_in(tool, ctx))
    return found[key]


def _undocumented_in(tool: Tool, ctx: Context) -> Iterator[tuple[Node, str | None]]:
    nodes = ctx.nodes(tool)
    used = _used_definitions(nodes, tool)
    for node in nodes:
        if node.property is None:
            continue
        definition = _definition_of(node.pointer)
        if definition is not None and definition not in used:
            continue
        if not _described(node, tool):
            yield node, definition


def _definition_of(pointer: str) -> str | None:
    """`/$defs/Name` for a pointer inside the root's `$defs` (or `definitions`), else None."""
    parts = pointer.split("/", 3)
    if len(parts) >= 3 and parts[1] in ("$defs", "definitions"):
        return f"/{parts[1]}/{parts[2]}"
    return None


def _used_definitions(nodes: list[Node], tool: Tool) -> set[str]:
    """The root definitions a `$ref` reaches, from outside the definitions or from one that
    is reached itself."""
    refs: dict[str | None, list[str]] = {}
    for node in nodes:
        ref = node.schema.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/"):
            target = _definition_of(ref[1:])
            if target is not None:
                refs.setdefault(_definition_of(node.pointer), []).append(target)
    used: set[str] = set()
    frontier = list(refs.get(None, ()))
    while frontier:
        target = frontier.pop()
        if target not in used:
            used.add(target)
            frontier += refs.get(target, ())
    return used


def _cause(definition: str, node: Node) -> tuple[str, str, str]:
    return definition, node.pointer, compact_json(node.schema)


def _shared_definitions(ctx: Context) -> dict[tuple[str, str, str], tuple[Tool, int]]:
    """Each undocumented property of a used definition, by its definition, place and text:
    the first tool holding it and how many tools do."""
    found: dict[tuple[str, str, str], tuple[Tool, int]] = {}
    for tool in ctx.catalog.tools:
        if not isinstance(tool.parameters, dict) or not (
                "$defs" in tool.parameters or "definitions" in tool.parameters):
            continue
        for node, definition in _undocumented(tool, ctx):
            if definition is not None:
                key = _cause(definition, node)
                first, count = found.get(key, (tool, 0))
                found[key] = (first, count + 1)
    return found


def _described(node: Node, tool: Tool) -> bool:
    if _has_text(node.schema.get("description")):
        return True
    ref = node.schema.get("$ref")
    if isinstance(ref, str) and ref.startswith("#"):
        target = resolve_pointer(tool.parameters, ref[1:])
        return isinstance(target, dict) and _has_text(target.get("description"))
    # a union whose every branch is described (e.g. anyOf: [{$ref}, {type: null}]) is fine
    for key in SCHEMA_LISTS:
        branches = node.schema.get(key)
        if isinstance(branches, list) and any(
                isinstance(b, dict) and _has_text(b.get("description")) for b in branches):
            return True
    return False


def _has_text(value: object) -> bool:
    return isinstance(value, str) and bool(value.strip())


@tool_rule("TC304", "description-repeats-name", "warning", example="""
    tools:
      - name: get_current_weather_report
  -     description: Get the current weather report.
  +     description: >-
  +       Current temperature, wind and precipitation for a city, from the nearest weather
  +       station; updated every 10 minutes.
        parameters:
          type: object
          properties:
            city: {type: string, description: 'City name, e.g. "Lisbon".'}
          required: [city]
    """)
def description_repeats_name(tool: Tool, ctx: Context) -> Iterator[Problem]:
    """The description only repeats the name.

    "get_weather: Gets the weather." tells a model nothing the name did not, so it has no
    way to tell this tool from similar ones, nor to know what the tool needs and returns.
    """
    described = description_words(tool, ctx)
    if described and _only_named(described, {stem(w) for w in name_words(tool, ctx)}):
        yield Problem(f"the description only repeats the name '{tool.name}'",
                      field="description")


# the filler words, each also with a final s added or taken away
_FILLER_FORMS = NAME_FILLER | {w[:-1] for w in NAME_FILLER if w.endswith("s")} | {
    w + "s" for w in NAME_FILLER}


def _only_named(described: list[str], named: set[str]) -> bool:
    """Whether every word of `described` is filler or one of the `named` words, each also
    with a final s added or taken away; read until the first that is not (nearly always
    the first word or two)."""
    for word in described:
        if word not in _FILLER_FORMS and word not in named and word + "s" not in named \
                and not (word.endswith("s") and word[:-1] in named):
            return False
    return True
