"""TC608: tools that say they destroy something but whose safety nobody stated.

Outside MCP a tool is safe unless someone writes `safe: false`; most public tool files (OpenAI
function lists, MCP bundles, Docker catalogs) have no safety field at all, so `pick` and
`resolve` offer their `delete_resource` first. An MCP tool without hints has an unknown
safety: offered too, marked, and asked about before serve calls it (docs/safety.md). The words
below are the ones whose tools change or destroy something that cannot be taken back; what was
measured on the shared benchmark sets is in docs/lint.md.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from toolcat.lint.findings import Context, Problem, tool_rule
from toolcat.model import Tool
from toolcat.providers import PROVIDERS

# verb -> the forms a name or a first word uses ("writing" is left out: in names it is
# mostly a noun, as in getTravelWritingPrompt)
DESTRUCTIVE = {
    "delete": ("delete", "deletes"),
    "remove": ("remove", "removes", "rm"),
    "drop": ("drop", "drops"),
    "destroy": ("destroy", "destroys"),
    "purge": ("purge", "purges"),
    "erase": ("erase", "erases"),
    "wipe": ("wipe", "wipes"),
    "truncate": ("truncate", "truncates"),
    "cancel": ("cancel", "cancels"),
    "revoke": ("revoke", "revokes"),
    "terminate": ("terminate", "terminates"),
    "kill": ("kill", "kills"),
    "write": ("write", "writes", "overwrite", "overwrites"),
    "execute": ("execute", "executes", "exec"),
}
FORMS = {form: verb for verb, forms in DESTRUCTIVE.items() for form in forms}
# a name's words: snake_case, kebab-case, dotted and camelCase parts
_NAME_WORDS = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")
_FIRST_WORD = re.compile(r"\s*([A-Za-z]+)")


def destructive_word(tool: Tool) -> tuple[str, str] | None:
    """(verb, where) when the tool's name has a destructive verb as one of its words, or its
    description starts with one ("Cancel the whole reservation."); else None."""
    for word in _NAME_WORDS.findall(tool.name):
        verb = FORMS.get(word.lower())
        if verb:
            return verb, "name"
    first = _FIRST_WORD.match(tool.description)
    verb = FORMS.get(first.group(1).lower()) if first else None
    return (verb, "description") if verb else None


def unmarked(tool: Tool) -> bool:
    """Nobody stated its safety: unknown (an MCP tool without hints), or safe only by
    default, and no project policy decided it."""
    if tool.safety == "unknown":
        return True
    return tool.safe and not tool.safety_stated and not tool.safety_reason


@tool_rule("TC608", "unmarked-destructive", "warning", example="""
    tools:
      - name: delete_resource
        description: Delete a Kubernetes resource by type and name.
  +     safe: false
        parameters:
          type: object
          properties:
            resource_type: {type: string, description: 'Kind of resource, e.g. "deployment".'}
            name: {type: string, description: Name of the resource.}
          required: [resource_type, name]
    """)
def unmarked_destructive(tool: Tool, ctx: Context) -> Iterator[Problem]:
    """A tool that says it deletes, cancels, writes or executes is not marked safe or unsafe.

    Outside MCP a tool is safe unless someone says otherwise, and most tool files (OpenAI
    function lists, MCP bundles, Docker catalogs) have no place to say it, so a
    `delete_resource` counts as safe: `pick` and `resolve` offer it first for "delete the nginx
    deployment", serve calls it without asking, and `convert --to mcp` can give it no hint. An
    MCP tool that sends neither `readOnlyHint` nor `destructiveHint` has an unknown safety: it
    is offered too, marked "safety not stated", and serve asks the user before each call.
    This finds tools whose name has one of the words delete, remove, drop, destroy, purge,
    erase, wipe, truncate, cancel, revoke, terminate, kill, write, overwrite or execute, or
    whose description starts with one, and whose safety nobody stated (`safe:`, or MCP
    `readOnlyHint`/`destructiveHint`). Say `safe: false` for a tool that changes what cannot
    be taken back, `safe: true` for one that does not.
    """
    if not unmarked(tool):
        return
    found = destructive_word(tool)
    if found is None:
        return
    verb, where = found
    said = f"its name says '{verb}'" if where == "name" else f"its description starts with '{verb}'"
    how = "add `safe: false` (or `safe: true` if it destroys nothing)"
    provider = PROVIDERS.get(tool.shape)
    if provider is not None and "safe" not in provider.carries:
        how += (f"; {tool.shape} files have no place for it, so keep the catalog as "
                "`toolcat convert --to toolcat` writes it")
    if tool.safety == "unknown":
        yield Problem(f"{said}, but nobody stated its safety: pick and resolve offer it marked "
                      f"'safety not stated', and serve asks before each call; {how}",
                      field=where)
        return
    yield Problem(f"{said}, but the tool is not marked: it counts as safe, so pick and resolve "
                  f"offer it; {how}", field=where)
