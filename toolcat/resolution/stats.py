"""What `toolcat stats` reports about a catalog: counts per server, level, kind and tag, the
size of the definitions, and the advice on how to show that many tools to a model."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from toolcat.model import Catalog
from toolcat.resolution.advice import Advice, advise


@dataclass(frozen=True)
class CatalogStats:
    """Counts are ordered as they are shown: servers and tags by count, levels by level."""

    tools: int
    files: int
    servers: dict[str, int]
    levels: dict[str, int]
    kinds: dict[str, int]
    tags: dict[str, int]
    unsafe: int
    total_bytes: int
    largest: str  # the qualified name of the largest definition ('' for no tools)
    largest_bytes: int
    advice: Advice
    unknown: int = 0  # tools whose safety nobody stated

    @property
    def mean_bytes(self) -> int:
        return round(self.total_bytes / self.tools) if self.tools else 0

    def summary(self) -> tuple[str, str]:
        """The head (`72 tools`) and the rest of the one-line summary."""
        return (f"{self.tools} tools",
                f"on {len(self.servers)} servers from {self.files} files; {self.unsafe} unsafe"
                f"{f', {self.unknown} of unknown safety' if self.unknown else ''}; "
                f"definitions {self.total_bytes:,} bytes (mean {self.mean_bytes:,}, largest "
                f"{self.largest} {self.largest_bytes:,})")

    def sections(self) -> tuple[tuple[str, dict[str, int]], ...]:
        return (("server", self.servers), ("level", self.levels), ("kind", self.kinds),
                ("tag", self.tags))

    def to_json(self) -> dict[str, Any]:
        return {
            "tools": self.tools,
            "servers": self.servers,
            "levels": self.levels,
            "kinds": self.kinds,
            "tags": self.tags,
            "unsafe": self.unsafe,
            "unknown_safety": self.unknown,
            "size": {"total": self.total_bytes, "mean": self.mean_bytes,
                     "largest": {"name": self.largest, "bytes": self.largest_bytes}},
            "advice": self.advice.to_json(),
        }


def catalog_stats(catalog: Catalog) -> CatalogStats:
    sizes = {t.qualified_name: t.size() for t in catalog.tools}
    largest = max(sizes, key=lambda k: sizes[k]) if sizes else ""
    tools = catalog.tools
    return CatalogStats(
        tools=len(tools),
        files=len(catalog.sources),
        servers=dict(Counter(t.server for t in tools).most_common()),
        levels={str(k): v for k, v in sorted(Counter(t.level for t in tools).items())},
        kinds=dict(Counter(t.kind for t in tools)),
        tags=dict(Counter(tag for t in tools for tag in t.tags).most_common()),
        unsafe=sum(t.unsafe for t in tools),
        unknown=sum(t.safety == "unknown" for t in tools),
        total_bytes=sum(sizes.values()),
        largest=largest,
        largest_bytes=sizes.get(largest, 0),
        advice=advise(len(tools)),
    )
