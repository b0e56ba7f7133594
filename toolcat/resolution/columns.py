"""What a resolver knows of its catalog that no query changes, worked out once per resolver.

A resolution of a 43,000-tool catalog cannot ask each tool for its key, name or token count
per query: `CatalogColumns` holds them as columns in catalog order (keys, names, token counts,
priority ranks, servers) and as the maps that find a tool's place. The stages read it; only
the token counts grow, when a gateway brings a tool of its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property
from itertools import repeat
from typing import TYPE_CHECKING

from toolcat.model import Catalog, Tool
from toolcat.providers.tokens import count_tokens, definition_text, definition_tokens
from toolcat.resolution.decisions import Category
from toolcat.resolution.order import priority_ranks

if TYPE_CHECKING:
    import numpy as np



class CatalogColumns:
    """The per-catalog columns of one resolver: `catalog`'s tools and the `builtins` before
    them; `phantom` is the gateway's search tool, when the profile has a gateway."""

    def __init__(self, catalog: Catalog, builtins: Catalog, encoding: str,
                 phantom: Tool | None = None) -> None:
        self.catalog = catalog
        self.builtins = builtins
        self.encoding = encoding
        self.keys = tuple(t.qualified_name for t in catalog.tools)
        self.index = dict(zip(self.keys, range(len(self.keys)), strict=True))
        self.servers = {s.name: s for s in catalog.servers}
        self.names = {t.qualified_name: t.name for t in builtins.tools}
        self.names.update(zip(self.keys, map(catalog.ident, catalog.tools), strict=True))
        if phantom is not None:
            self.names[phantom.qualified_name] = phantom.name
        self.builtin_keys = {t.qualified_name for t in builtins.tools}
        self.by_key = {t.qualified_name: t for t in builtins.tools}
        self.by_key.update(zip(self.keys, catalog.tools, strict=True))
        self._categories: dict[int, Category] = {}

    def name(self, tool: Tool) -> str:
        """How the model knows `tool`: its name, or `server:tool` when the name is shared."""
        return self.names.get(tool.qualified_name, tool.name)

    def is_builtin(self, tool: Tool) -> bool:
        return tool.qualified_name in self.builtin_keys and tool.qualified_name not in self.index

    # ---- token counts ----------------------------------------------------------------------

    @cached_property
    def token_counts(self) -> dict[str, int]:
        """Token counts by key: every catalog tool's, read (or counted) once per catalog,
        and the built-ins' (read from the cache by their definitions' text: loading the
        tokenizer for them alone cost a resolution a tenth of a second). `tokens` adds the
        tools of a gateway."""
        counted: dict[str, int] = {}
        if not (self.catalog.tools or self.builtins.tools):
            return counted
        from toolcat.catalog.kept import (
            BUILTIN_TOKENS,
            TOKENS,
            catalog_numbers,
            text_numbers,
            token_part,
        )

        encoding = self.encoding
        part = token_part(encoding)
        texts = [definition_text(t) for t in self.builtins.tools]
        counted.update(zip((t.qualified_name for t in self.builtins.tools),
                           text_numbers(BUILTIN_TOKENS, texts, lambda: [
                               count_tokens(text, encoding) for text in texts], part),
                           strict=True))
        if self.catalog.tools:
            counted.update(zip(self.keys, catalog_numbers(TOKENS, self.catalog, lambda: [
                definition_tokens(t, encoding) for t in self.catalog.tools], part),
                               strict=True))
        return counted

    @cached_property
    def catalog_tokens(self) -> int:
        """What every catalog tool's definition costs, together."""
        counted = self.token_counts
        return sum(map(counted.__getitem__, self.keys))

    def tokens(self, tool: Tool) -> int:
        counted = self.token_counts
        key = tool.qualified_name
        if key not in counted:
            counted[key] = definition_tokens(tool, self.encoding)
        return counted[key]

    # ---- columns in catalog order ----------------------------------------------------------

    @cached_property
    def shown_names(self) -> list[str]:
        """Each catalog tool's name as the model knows it."""
        names = self.names
        return [names.get(k, t.name) for t, k in zip(self.catalog.tools, self.keys, strict=True)]

    @cached_property
    def sizes(self) -> list[int]:
        """Each catalog tool's token count."""
        return list(map(self.token_counts.__getitem__, self.keys))

    @cached_property
    def priority_ranks(self) -> np.ndarray:
        """Each catalog tool's priority as its rank among the catalog's priorities."""
        return priority_ranks(self.catalog.tools)

    @cached_property
    def _server_numbers(self) -> tuple[list[str], np.ndarray]:
        """The catalog's server names, and each tool's server as a number among them (-1:
        none)."""
        import numpy as np

        names = self.catalog.server_names()
        number = dict(zip(names, range(len(names)), strict=True))
        return names, np.fromiter(map(number.get, (t.server for t in self.catalog.tools),
                                      repeat(-1)), np.int64, len(self.catalog.tools))

    def categories(self, places: np.ndarray) -> tuple[Category, ...]:
        """The servers of the tools at catalog positions `places` (-1: not a catalog tool),
        in the catalog's order of servers, with their descriptions."""
        import numpy as np

        names, server_of = self._server_numbers
        found = np.zeros(len(names) + 1, dtype=bool)  # the last one: tools of no server
        found[server_of[places[places >= 0]]] = True
        made, servers = self._categories, self.servers
        for i in np.flatnonzero(found[:-1]).tolist():
            if i not in made:
                made[i] = Category(names[i], servers[names[i]].description
                                   if names[i] in servers else "")
        return tuple(made[i] for i in np.flatnonzero(found[:-1]).tolist())

    # ---- places in a resolution's verdicts (the built-ins, then the catalog) ----------------

    def place(self, tool: Tool, extra: Sequence[Tool] = ()) -> int | None:
        """The place of `tool`'s verdict among the built-ins, the catalog and then `extra`
        (a gateway's tools): the tool itself, else the last tool of its key."""
        found = self.ids.get(id(tool))
        if found is not None:
            return found
        last = len(self.builtins.tools) + len(self.keys)
        for j in range(len(extra) - 1, -1, -1):
            if extra[j] is tool or extra[j].qualified_name == tool.qualified_name:
                return last + j
        return self.slots.get(tool.qualified_name)

    def by_name(self, name: str, extra: Sequence[Tool] = ()) -> int | None:
        """The place of the first verdict answering to `name` (as shown, its own name, its
        key), `extra` after the built-ins and the catalog."""
        found = self.named.get(name)
        if found is None:
            last = len(self.builtins.tools) + len(self.keys)
            names = self.names
            found = next((last + j for j, tool in enumerate(extra)
                          if name in (names.get(tool.qualified_name, tool.name),
                                      tool.name, tool.qualified_name)), None)
        return found

    @cached_property
    def slots(self) -> dict[str, int]:
        """Each key's last place, as in a dict of the verdicts."""
        keys = (*(t.qualified_name for t in self.builtins.tools), *self.keys)
        return dict(zip(keys, range(len(keys)), strict=True))

    @cached_property
    def ids(self) -> dict[int, int]:
        """Each tool object's place."""
        tools = (*self.builtins.tools, *self.catalog.tools)
        return dict(zip(map(id, tools), range(len(tools)), strict=True))

    @cached_property
    def named(self) -> dict[str, int]:
        """The place of the first tool answering to each name (as shown, its own name, its
        key)."""
        named: dict[str, int] = {}
        tools = (*self.builtins.tools, *self.catalog.tools)
        for i, tool in enumerate(tools):
            key = tool.qualified_name
            for alias in (self.names.get(key, tool.name), tool.name, key):
                named.setdefault(alias, i)
        return named
