"""Action contrast: training requests written from a catalog's own tool names, for the
siblings that differ by their action alone (get / list / delete / rollback a snapshot), each in
the words users ask with ("get rid of", "roll back", "take down", "kill").

A tool's name is split into words (snake, kebab, dotted and camel case); its first word found
in VERBS gives its action, the words after it its object. Tools of one server (or of a catalog
without servers) that share an object and differ by action are siblings; each of them gets
requests "<phrase> <object>" for PER_TOOL phrases of its action (seeded), and is trained
against its siblings like any request (tool_model.train's softmax over the whole catalog).
Applied to training catalogs only: the tools a set holds out are never named.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

import numpy as np

# a tool name's action word -> its action
VERBS = {
    **dict.fromkeys(("delete", "remove", "destroy", "drop", "purge", "erase", "trash", "unlink",
                     "uninstall", "deregister", "unregister"), "delete"),
    **dict.fromkeys(("create", "add", "new", "make", "insert", "register", "open", "post",
                     "put"), "create"),
    **dict.fromkeys(("get", "fetch", "read", "retrieve", "describe", "view", "show",
                     "lookup", "inspect", "info", "details"), "get"),
    **dict.fromkeys(("list", "enumerate", "browse", "all"), "list"),
    **dict.fromkeys(("update", "edit", "modify", "change", "patch", "set", "rename",
                     "replace"), "update"),
    **dict.fromkeys(("rollback", "revert", "restore", "undo"), "rollback"),
    **dict.fromkeys(("cancel", "abort", "stop", "terminate", "kill", "halt", "pause",
                     "disable"), "stop"),
    **dict.fromkeys(("start", "run", "launch", "trigger", "execute", "deploy", "resume",
                     "enable"), "start"),
}
# an action -> what a user says for it (none of them the tool's own word)
PHRASES = {
    "delete": ("get rid of the", "take down the", "wipe out the", "throw away the",
               "clean out the", "remove the", "nuke the"),
    "create": ("set up a new", "spin up a new", "make a new", "start a fresh", "open up a new",
               "add another"),
    "get": ("show me the", "pull up the", "look up the", "what's in the",
            "give me the details of the", "check the"),
    "list": ("show me all the", "what are all my", "give me all the", "what are all the",
             "enumerate all", "how many"),
    "update": ("change the", "tweak the", "fix up the", "edit the", "adjust the"),
    "rollback": ("roll back the", "go back to the previous", "revert the",
                 "undo the last change to the"),
    "stop": ("kill the", "call off the", "shut down the", "halt the", "abort the"),
    "start": ("kick off the", "fire up the", "launch the", "get going with the"),
}
PER_TOOL = 2  # phrases per sibling tool
WORD = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")


def words(name: str) -> list[str]:
    return [w.lower() for w in WORD.findall(name)]


def action_object(name: str) -> tuple[str, tuple[str, ...], str] | None:
    """A tool name's action, object (its words after the action word, plurals as singular:
    what siblings share) and the object as the name says it, or None when it has no action
    word or nothing after it."""
    parts = words(name)
    for at, word in enumerate(parts):
        if word in VERBS:
            rest = parts[at + 1:]
            key = tuple(w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss")
                        else w for w in rest)
            return (VERBS[word], key, " ".join(rest)) if rest else None
    return None


def requests(tools: list[Any], allowed: np.ndarray, seed: int) -> list[tuple[str, int]]:
    """(request, tool index) pairs for the tools of `allowed` that have a sibling in
    `allowed` sharing their object with another action."""
    by_object: dict[tuple[str, tuple[str, ...]], dict[str, list[tuple[int, str]]]] = {}
    for i in allowed.tolist():
        found = action_object(tools[i].name)
        if found:
            action, key, said = found
            by_object.setdefault((tools[i].server or "", key), {}).setdefault(
                action, []).append((i, said))
    rng = np.random.default_rng(seed)
    out = []
    for _, actions in sorted(by_object.items()):
        if len(actions) < 2:
            continue
        for action, members in sorted(actions.items()):
            phrases = PHRASES[action]
            for i, said in members:
                for p in rng.choice(len(phrases), min(PER_TOOL, len(phrases)), replace=False):
                    out.append((f"{phrases[int(p)]} {said}", i))
    return out


def contrast_set(data: Any, seed: int) -> Any | None:
    """A copy of the labeled set `data` whose training requests are the action-contrast
    requests of its training tools (none measured), or None when it has none."""
    pairs = requests(data.tools, data.train_tools, seed)
    if not pairs:
        return None
    return replace(data, name=f"{data.name}+verbs", texts=[t for t, _ in pairs],
                   relevant=[[i] for _, i in pairs], train=list(range(len(pairs))), test=[])
