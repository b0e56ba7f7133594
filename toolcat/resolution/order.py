"""The order in which the agent offers catalog tools: relevance, and priority.

A higher `priority` is "preferred when multiple tools match". Without levels,
tools match by relevance to the query, so priority breaks ties between equal scores. With
levels, the capability tags decide which tools match (level 2), so priority orders
the matched tools and the score breaks ties between equal priorities. Catalog order decides
last. The order matters where a cap cuts the list.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from itertools import pairwise

from toolcat.model import Tool
from toolcat.resolution.decisions import Decision


def by_preference(tools: Sequence[Tool], scores: Mapping[str, float],
                  position: Mapping[str, int], *, levels: bool) -> list[Tool]:
    """`tools`, most preferred first."""
    keys = [t.qualified_name for t in tools]
    return [tools[i] for i in preference_order(tools, keys, scores, position, levels=levels)]


def preference_order(tools: Sequence[Tool], keys: Sequence[str], scores: Mapping[str, float],
                     position: Mapping[str, int], *, levels: bool) -> list[int]:
    """The indexes of `tools` (whose keys are `keys`), most preferred first: by (-score,
    -priority, catalog position), or (-priority, -score, position) with levels. The sort
    keys are built as whole lists and compared as tuples in C: a key function called for
    each of 43,000 tools cost a resolution a tenth of a second."""
    scored = [-scores[k] for k in keys]
    priority = [-t.priority for t in tools]
    places = [position[k] for k in keys]
    decorated = list(zip(*((priority, scored) if levels else (scored, priority)), places,
                         strict=True))
    return sorted(range(len(decorated)), key=decorated.__getitem__)


def describe(levels: bool) -> Decision:
    """The trace's note on how the tools were ordered."""
    if levels:
        return Decision("order", "priority, then score", "priority",
                        "the levels matched these tools by capability; the higher priority "
                        "is preferred, and the relevance score breaks ties")
    return Decision("order", "score, then priority", "priority",
                    "by relevance score; priority breaks ties between equal scores")


def notes(ordered: Sequence[Tool], scores: Mapping[str, float],
          name: Callable[[Tool], str], *, levels: bool) -> dict[str, str]:
    """What priority did to each tool's place, by key (only where it did something)."""
    if levels:
        return {t.qualified_name: f"priority {t.priority}" for t in ordered}
    out: dict[str, str] = {}
    # one pass over every candidate of the query: each key and score looked up once
    scored = [scores[t.qualified_name] for t in ordered]
    for n, (above, below) in enumerate(pairwise(ordered)):
        if scored[n] != scored[n + 1] or above.priority == below.priority:
            continue
        out.setdefault(above.qualified_name,
                       f"priority {above.priority} ranks it above {name(below)} (same score, "
                       f"priority {below.priority})")
        out.setdefault(below.qualified_name,
                       f"ranked below {name(above)}: same score, lower priority "
                       f"({below.priority} < {above.priority})")
    return out
