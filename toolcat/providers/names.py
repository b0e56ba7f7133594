"""The names tools go by on the wire, one rule per provider, shared by render and check-call.

Two servers often have a tool of the same name (`search`, `read_file`); a request may not
carry a name twice. MCP clients solve it by putting the server in front of the tool's name
(Claude Code `mcp__server__tool`, LangChain's and the OpenAI Agents SDK's opt-in
`server_tool`, Continue `server_tool`). toolcat writes `server__tool`: the double underscore
keeps the split unambiguous when server or tool names hold single underscores, and fits every
provider's character set. It is applied only to the names that collide in the catalog (so
the names a model sees stay the ones the authors chose), or to every tool of a server with
`names: always`.

A name the provider rejects (`TwoSum.twoSum` for OpenAI, a space, more than 64 characters)
is sanitized the same way every time: each character outside the provider's set becomes `_`,
a name that must start with a letter gets a leading `_`, and a name that is still too long,
or that now equals another tool's name, is cut and ends in `_` plus 8 hex digits of a hash of
the tool's `server:name`. `NameMap` holds both directions, so check-call maps a returned name
back to its tool.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Literal

from toolcat.model import Tool
from toolcat.source.fields import FieldReader

PrefixPolicy = Literal["collisions", "always"]
PREFIX_POLICIES: tuple[PrefixPolicy, ...] = ("collisions", "always")
SEPARATOR = "__"
HASH_DIGITS = 8


@dataclass(frozen=True)
class NameRule:
    """What a provider accepts as a tool name: allowed characters (a regex character class
    body), whether the first must be a letter or `_`, and the maximum length."""

    chars: str = "a-zA-Z0-9_-"
    letter_first: bool = False
    max_length: int = 64

    @property
    def pattern(self) -> str:
        if self.max_length <= 0:
            return r"^.+$"
        if self.letter_first:
            return rf"^[A-Za-z_][{self.chars}]{{0,{self.max_length - 1}}}$"
        return rf"^[{self.chars}]{{1,{self.max_length}}}$"

    def accepts(self, name: str) -> bool:
        return re.fullmatch(self.pattern, name) is not None

    def sanitize(self, name: str) -> str:
        """`name` with every character outside the set replaced by `_` (not yet shortened)."""
        return self.sanitizer()(name)

    def sanitizer(self) -> Callable[[str], str]:
        """`sanitize`, its patterns compiled once (a catalog's every name goes through it)."""
        if self.max_length <= 0:
            return lambda name: name or "_"
        outside = re.compile(f"[^{self.chars}]")
        first = re.compile(r"[A-Za-z_]")

        def fixed(name: str) -> str:
            out = outside.sub("_", name) or "_"
            return "_" + out if self.letter_first and not first.match(out) else out
        return fixed

    def shorten(self, name: str, key: str) -> str:
        """`name` cut to fit, ending in `_` and a hash of `key` (the tool's `server:name`)."""
        digest = hashlib.sha256(key.encode()).hexdigest()[:HASH_DIGITS]
        if self.max_length <= 0:
            return f"{name}_{digest}"
        return f"{name[:self.max_length - HASH_DIGITS - 1]}_{digest}"


ANY_NAME = NameRule(chars="", max_length=0)  # a provider that documents no rule


@dataclass(frozen=True)
class Renamed:
    """One tool sent under another name, and why."""

    tool: Tool
    wire: str
    reason: str  # "shared" (server prefix) | "rejected" (sanitized) | "both"


@dataclass(frozen=True)
class NameMap:
    """The wire name of every tool of a catalog for one provider, and back."""

    by_tool: Mapping[tuple[str, str], str] = field(default_factory=dict)
    by_wire: Mapping[str, Tool] = field(default_factory=dict)
    renamed: tuple[Renamed, ...] = ()

    def wire(self, tool: Tool) -> str:
        return self.by_tool.get((tool.server, tool.name), tool.name)

    def tool(self, wire: str) -> Tool | None:
        """The tool sent as `wire`, when the map renamed it or knows it by that name."""
        return self.by_wire.get(wire)

    def original(self, wire: str) -> str:
        """The name the tool sent as `wire` has in its catalog."""
        found = self.by_wire.get(wire)
        return found.name if found is not None else wire

    def back(self, tools: Iterable[Tool]) -> tuple[Tool, ...]:
        """`tools` (as sent) with their catalog names again."""
        return tuple(replace(t, name=self.original(t.name))
                     if self.original(t.name) != t.name else t for t in tools)


def shared_names(tools: Iterable[Tool]) -> frozenset[str]:
    """Names that more than one server uses."""
    servers: dict[str, set[str]] = {}
    for tool in tools:
        servers.setdefault(tool.name, set()).add(tool.server)
    return frozenset(name for name, owners in servers.items() if len(owners) > 1)


def name_map(tools: Iterable[Tool], rule: NameRule,
             prefix: PrefixPolicy = "collisions") -> NameMap:
    """Wire names for `tools` (the whole catalog, so names do not depend on which tools a
    request happens to carry) under a provider's `rule`.

    Deterministic: the same catalog, rule and policy always give the same names, whatever the
    order of the tools.
    """
    unique = {(t.server, t.name): t for t in tools}
    shared = shared_names(unique.values())
    fix = rule.sanitizer()
    wanted: dict[tuple[str, str], str] = {}
    reasons: dict[tuple[str, str], str] = {}
    for key in unique:
        server, name = key
        prefixed = bool(server) and (prefix == "always" or name in shared)
        base = f"{server}{SEPARATOR}{name}" if prefixed else name
        fixed = fix(base)
        rejected = fixed != base
        if rule.max_length > 0 and len(fixed) > rule.max_length:
            fixed = rule.shorten(fixed, f"{server}:{name}")
            rejected = True
        wanted[key] = fixed
        if prefixed or rejected:
            reasons[key] = "both" if prefixed and rejected else \
                ("shared" if prefixed else "rejected")
    counts = Counter(wanted.values())
    originals = {name for _, name in unique}
    for key in reasons:
        name = wanted[key]
        # a changed name may meet another tool's (`a.b` and `a_b`): the changed one yields
        if counts[name] > 1 or (name != key[1] and name in originals):
            wanted[key] = rule.shorten(name, f"{key[0]}:{key[1]}")
    by_wire = {wanted[key]: t for key, t in unique.items()}
    renamed = tuple(Renamed(unique[key], wanted[key], why) for key, why in reasons.items())
    return NameMap(wanted, by_wire, renamed)


def prefix_setting(section: Mapping[str, object], read: FieldReader | None = None
                   ) -> PrefixPolicy:
    """`names: {prefix: collisions | always}` of toolcat.yaml (default: collisions), read by
    `read` (the configuration file's reader), which places a mistake at its line."""
    read = read or FieldReader("toolcat.yaml")
    read.known_keys("/names", section, ("prefix",))
    return read.choice("/names/prefix", section.get("prefix", "collisions"), PREFIX_POLICIES)


def split_prefixed(wire: str) -> tuple[str, str] | None:
    """(server, tool) of a `server__tool` name, or None."""
    server, sep, name = wire.partition(SEPARATOR)
    return (server, name) if sep and server and name else None


def qualified_wire(tool: Tool, rule: NameRule, taken: Callable[[str], bool]) -> str:
    """The wire name of a tool that cannot go by its plain name (shared with another server,
    a built-in's, or outside `rule`), worked out from the tool alone, so that a server can
    name any tool of 43,000 without first naming them all: `server__tool` (the tool's name
    alone when it has no server), sanitized by `rule`. When sanitizing changed it, it is too
    long, or `taken(name)` says another tool goes by it, it ends in `_` and a hash of the
    tool's `server:name` instead, which no other tool's name can meet."""
    base = f"{tool.server}{SEPARATOR}{tool.name}" if tool.server else tool.name
    fixed = rule.sanitize(base)
    if fixed != base or (rule.max_length > 0 and len(fixed) > rule.max_length) \
            or taken(fixed):
        fixed = rule.shorten(fixed, tool.qualified_name)
    return fixed
