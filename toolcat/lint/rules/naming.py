"""TC2xx: tool names: portable, accepted by each target, unique, not confusable."""

from __future__ import annotations

import re
from collections.abc import Iterator

from toolcat.lint.findings import Context, Problem, catalog_rule, tool_rule
from toolcat.model import Catalog, Tool

PORTABLE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_-]{0,63}")
_SEPARATORS = re.compile(r"[-_.:\s]+")


@tool_rule("TC201", "name-not-portable", "warning", example="""
    tools:
  -   - name: files.read
  +   - name: files_read
        description: Read a text file from the project folder and return its content.
        parameters:
          type: object
          properties:
            path: {type: string, description: Path relative to the project folder.}
          required: [path]
    """)
def name_not_portable(tool: Tool, ctx: Context) -> Iterator[Problem]:
    """The name would be rejected by at least one provider.

    The portable pattern is `^[A-Za-z_][A-Za-z0-9_-]{0,63}$`: letters, digits, `_` and `-`,
    at most 64 characters, not starting with a digit or `-`. It is what every provider
    accepts (OpenAI, Anthropic, Bedrock and Mistral reject `.`, `:` and spaces; Gemini wants
    a letter or `_` first). With `--target`, TC202 checks the names against exactly the
    providers you ship to instead, and this rule steps aside.
    """
    if ctx.targets or PORTABLE_NAME.fullmatch(tool.name):
        return
    name = tool.name
    reasons = []
    bad = sorted({c for c in name if not re.fullmatch(r"[A-Za-z0-9_-]", c)})
    if bad:
        shown = ", ".join(repr(c) if c.isprintable() and c != " " else f"U+{ord(c):04X}"
                          for c in bad)
        reasons.append(f"contains {shown}")
    if name[:1].isdigit() or name.startswith("-"):
        reasons.append(f"starts with {name[0]!r}")
    if len(name) > 64:
        reasons.append(f"is {len(name)} characters long (at most 64)")
    yield Problem(f"name '{name}' is not portable: it {' and '.join(reasons)}; use letters, "
                  "digits, '_' and '-'", field="name")


@tool_rule("TC202", "name-rejected-by-target", "error", needs_target=True,
           example_settings={"targets": ["openai"]}, example="""
    tools:
  -   - name: calendar.create_event
  +   - name: calendar_create_event
        description: Create an event in the user's calendar at a given time.
        parameters:
          type: object
          properties:
            title: {type: string, description: Title of the event.}
          required: [title]
    """)
def name_rejected_by_target(tool: Tool, ctx: Context) -> Iterator[Problem]:
    """A target provider rejects the name.

    Each provider validates tool names with its own pattern (OpenAI, Bedrock and Mistral:
    `^[a-zA-Z0-9_-]{1,64}$`; Gemini: a letter or `_` first, then letters, digits, `_ . : -`,
    at most 128; see `toolcat/providers/`). A rejected name fails the whole request with a
    400 error, not just this tool. `toolcat render` and `toolcat serve` send such a name
    sanitized (the finding says as what) and map calls back, so the rule matters for every
    other client of the catalog.
    """
    for target in ctx.targets:
        limits = target.limits
        if not limits.name_ok(tool.name):
            sent = ctx.wire_names(limits.names).wire(tool)
            yield Problem(f"{target.label} rejects the name '{tool.name}': it must match "
                          f"{limits.name_pattern}; toolcat render sends it as '{sent}' and "
                          "check-call maps it back, but a client that sends the name as "
                          "written fails the whole request", field="name", target=target.name)


@catalog_rule("TC203", "duplicate-name", "error", example="""
    servers:
      - name: crm
    tools:
      - name: find_customer
        description: Find a customer by name, email address or phone number.
        parameters:
          type: object
          properties:
            query: {type: string, description: "Name, email or phone number to look for."}
          required: [query]
  -   - name: find_customer
  +   - name: list_customer_deals
        description: Look up the open deals of a customer account in the pipeline.
        parameters:
          type: object
          properties:
            account: {type: string, description: Customer account id.}
          required: [account]
    """)
def duplicate_name(catalog: Catalog, ctx: Context) -> Iterator[Problem]:
    """Two tools of the same server have the same name.

    A model calls a tool by name, so it cannot choose between the two, and providers reject
    a request that lists a name twice. (The same name on two different servers is TC603.)
    """
    first: dict[tuple[str, str], Tool] = {}
    for tool in catalog.tools:
        key = (tool.server, tool.name)
        if key not in first:
            first[key] = tool
            continue
        earlier = first[key]
        related = (earlier.origin,) if earlier.origin else ()
        where = f" (first at {earlier.origin})" if earlier.origin else ""
        yield Problem(f"'{tool.name}' is defined twice on server '{tool.server}'{where}",
                      tool=tool, field="name", related=related)


@catalog_rule("TC204", "confusable-names", "warning", example="""
    tools:
      - name: get_user
        description: Fetch a user's profile by their numeric account id.
        parameters:
          type: object
          properties:
            id: {type: integer, description: Numeric account id.}
          required: [id]
  -   - name: getUser
  +   - name: get_user_by_login
        description: Fetch a user's profile by their login name instead of the id.
        parameters:
          type: object
          properties:
            login: {type: string, description: Login name.}
          required: [login]
    """)
def confusable_names(catalog: Catalog, ctx: Context) -> Iterator[Problem]:
    """Two names differ only by case or separators.

    `get_user`, `getUser` and `get-user` read the same to a person and nearly the same to a
    model: it will call one when it meant the other, and a reviewer will not notice. Give
    each tool a name that says how it differs.
    """
    first: dict[str, Tool] = {}
    for tool in catalog.tools:
        key = _SEPARATORS.sub("", tool.name).lower()
        earlier = first.setdefault(key, tool)
        if earlier is tool or earlier.name == tool.name:
            continue
        related = (earlier.origin,) if earlier.origin else ()
        yield Problem(f"'{tool.name}' differs from '{catalog.ident(earlier)}' only by case or "
                      "separators", tool=tool, field="name", related=related)
