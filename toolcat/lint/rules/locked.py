"""TC604: tools that changed, appeared or vanished since `toolcat lock` (a "rug pull").

Runs when there is a lock to compare with: `toolcat lint --locked`, or the `lockfile` option.
The comparison itself is toolcat.pin.lock's; this rule only places each difference in the files.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from toolcat.lint.findings import Context, Problem, catalog_rule
from toolcat.model import Catalog
from toolcat.pin.lock import Drift, drift, read_lock


@catalog_rule(
    "TC604", "changed-since-lock", "error", options={"lockfile": ""},
    example_settings={"options": {"lockfile": "toolcat.lock"}},
    example="""
    -   # linted against the lock of the good example
        servers: [{name: files}]
        tools:
          - name: read_file
    -       description: Read a text file from the store and return its first ten lines.
    +       description: Read a text file from the store and return its contents.
            parameters: {type: object, properties: {path: {type: string, description: File path.}}}
            annotations: {readOnlyHint: true}
    -     - name: upload_file
    -       description: Upload a file from the store to a web address of your choice.
    -       parameters: {type: object, properties: {url: {type: string, description: Address.}}}
    +     - name: delete_file
    +       description: Delete a file from the store; this cannot be undone.
    +       parameters: {type: object, properties: {path: {type: string, description: File path.}}}
    +       safe: false
    """,
)
def changed_since_lock(catalog: Catalog, ctx: Context) -> Iterator[Problem]:
    """A tool changed, appeared or vanished since `toolcat lock` (with --locked).

    A server can change a tool after you reviewed it: reword the description the model
    reads, widen its parameters, drop a readOnlyHint. Nothing in the new definition looks wrong
    on its own, so only a comparison shows it. `toolcat lock` stores a hash of each tool's
    model-facing definition (name, description, parameters, annotations) and server in
    toolcat.lock; this rule compares the catalog with it and reports every tool whose hash
    differs (naming the fields that changed), every new tool, and every tool that is gone (at
    its entry in the lock file). Review the change (`toolcat diff` shows it word by word), then
    run `toolcat lock` again to accept it. The rule runs with `toolcat lint --locked`, or when
    the `lockfile` option names a lock file (relative to the configuration file).
    """
    path = ctx.options.get("lockfile")
    if not path:
        return
    for found in drift(read_lock(Path(path)), catalog):
        yield _problem(found)


def _problem(found: Drift) -> Problem:
    if found.tool is None:
        return Problem(f"tool '{found.key}' vanished since the lock", where=found.where)
    if found.change == "added":
        return Problem("appeared since the lock", tool=found.tool)
    changed = " and ".join(found.fields) or "its definition"
    message = f"changed since the lock: {changed}"
    first = found.fields[0] if found.fields else None
    if first == "parameters":
        return Problem(message, tool=found.tool, schema="")
    return Problem(message, tool=found.tool, field=first)
