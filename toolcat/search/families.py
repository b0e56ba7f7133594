"""Which server, and which family of a server's tools, a request is about, each read whole.

A request's verb meets tools on many servers ("cancel my dentist appt on the 12th": Google
Play's `cancel_subscription_purchase`, Splunk's `cancel_job`), while the words that say what it
is about name no tool ("dentist", "appt") and point to a whole server, or to one part of it:
Nextcloud's 182 tools come in families named by a shared word (`nc_calendar_*`,
`nc_contacts_*`, `deck_*`, `talk_*`), Google Play's by their object (`*_subscription_*`,
`*_review*`). One tool's cosine reads the request against one tool's text; a server or a family
read whole is nearer to what the request is about than any one of its tools.

So each is scored as a whole, from the cosines the request already has to every tool (no
encoding more, one pass over the tools): a group's fit is the mean of its TOP best cosines
(fewer in a group of fewer). Not the cosine to the mean of its tools' vectors: a small, tight
group's mean lies nearer any request about its object than a large, varied one's, so the
centroid took "show the replies in this thread" from Slack to a small email server.

- A tool whose **server** fits worse than the best-fitting server loses SERVER_FIT nats per
  unit of the gap ("the server": every server with one tool or more is one).
- Inside a server, a tool whose best **family** fits worse than the server's best family loses
  FAMILY_FIT nats per unit of the gap: the family is chosen by what the request is about, the
  verb then chooses inside it. A tool in no family loses nothing for it.

A family is found from the names, zero-shot and in one pass: the stems of a tool's name words
(`toolcat.search.actions.name_words`), less the word that stands as its verb
(`verb_positions`), any verb of the action table, stop words and numbers; a stem that LEAST or
more of a server's tools share, and at most SHARE of them (not a prefix every tool has, such
as `nc` or `mattermost_mcp`), names a family of those tools. A tool may be in several families
(`nc_calendar_delete_event`: calendar, event) and counts the best.

In a catalog of one server (bfcl, metatool) the server's gap is 0 for every tool; a catalog
that groups tools by topic in twos (seal_tools) has tiny servers, whose mean is nearly their
one tool's vector.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import numpy as np

from toolcat.model import Tool
from toolcat.search.actions import name_words, verb_positions
from toolcat.search.focus import VERBS
from toolcat.search.text import STOPWORDS, stem

# Nats per unit of cosine between a group's fit and the best one's. The best three cosines of
# two servers lie closer together than their means did (0.25 and 0.21 where the centroids were
# 0.18 and 0.07), so the weight is twice the centroid's 8: a server whose best three lie 0.05
# below the best server's costs its tools 0.8 nats, under the action table's one nat, so a
# clear lead of one tool stands and near-ties go to the server the request is about. Chosen
# among 12, 16 and 24 (fixed before any ran) on the development halves (docs/ranking.md): 24
# gained most but lost two on one half.
SERVER_FIT = 16.0
FAMILY_FIT = SERVER_FIT / 4  # a family is chosen among its server's only: its gaps are smaller
LEAST = 2  # tools that share a name word, for it to name a family
SHARE = 0.5  # of a server's tools at most: a word more of them share names the server
TOP = 3  # a group's best cosines averaged: a small, tight group is not favoured for it

_VERB_STEMS = frozenset(stem(verb) for verb in VERBS)


def family_keys(tools: Sequence[Tool]) -> list[dict[str, str]]:
    """For each tool, the stems of its name that may name a family (see the module
    docstring), each with the word it stems from: not its verb, no verb of the action table,
    no stop word, no number."""
    heads = name_words(tools)
    found: list[dict[str, str]] = []
    for head, at in zip(heads, verb_positions(tools, heads), strict=True):
        found.append({key: word for k, word in enumerate(head)
                      if k != at and not word.isdigit() and word not in STOPWORDS
                      and len(key := stem(word)) > 1 and key not in _VERB_STEMS})
    return found


class Families:
    """Each tool's server and families, and their fit to a request read whole (see the module
    docstring). Built in one pass over the names."""

    def __init__(self, tools: Sequence[Tool]) -> None:
        servers: dict[str, int] = {}
        self._server = np.array([servers.setdefault(t.server, len(servers)) for t in tools],
                                dtype=np.int64)
        self._servers = len(servers)
        self._server_names = list(servers)
        keys = family_keys(tools)
        size = Counter(t.server for t in tools)
        shared = Counter((t.server, key) for t, found in zip(tools, keys, strict=True)
                         for key in found)
        families: dict[tuple[str, str], int] = {}
        said: list[str] = []  # each family's name word, as the first of its tools says it
        pairs: list[tuple[int, int]] = []  # (tool, family), in tool order
        for i, (tool, found) in enumerate(zip(tools, keys, strict=True)):
            for key in sorted(found):
                if LEAST <= shared[(tool.server, key)] <= SHARE * size[tool.server]:
                    if (tool.server, key) not in families:
                        families[(tool.server, key)] = len(families)
                        said.append(found[key])
                    pairs.append((i, families[(tool.server, key)]))
        self._names = said
        self._family_server = np.array([servers[s] for s, _ in families], dtype=np.int64)
        self._pair_tool = np.array([i for i, _ in pairs], dtype=np.int64)
        self._pair_family = np.array([f for _, f in pairs], dtype=np.int64)
        # the tools in a family, each tool's pairs one run: where each run starts
        self._members = np.unique(self._pair_tool)
        self._starts = np.searchsorted(self._pair_tool, self._members)
        order = np.argsort(self._family_server, kind="stable")  # families by server
        self._by_server = order
        self._server_of_run = np.unique(self._family_server[order])
        self._server_starts = np.searchsorted(self._family_server[order], self._server_of_run)

    def fits(self, cosine: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The fit of one request (`cosine`: its row, one value per tool) to each server and
        to each family: the mean of the group's TOP best cosines."""
        return (_top_means(cosine, self._server, self._servers),
                _top_means(cosine[self._pair_tool], self._pair_family, len(self._names)))

    def parts(self, cosine: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The evidence each tool gets for its server's fit and for its family's (each 0 or
        less: see the module docstring), for one request's `cosine` row."""
        of_server = np.zeros(len(cosine))
        of_family = np.zeros(len(cosine))
        if not len(cosine) or len(self._server) != len(cosine):
            return of_server, of_family
        servers, families = self.fits(cosine)
        if self._servers > 1:
            of_server = SERVER_FIT * (servers[self._server] - servers.max())
        if len(self._names):
            best = np.maximum.reduceat(families[self._pair_family], self._starts)
            leading = np.full(self._servers, -np.inf)
            leading[self._server_of_run] = np.maximum.reduceat(families[self._by_server],
                                                               self._server_starts)
            of_family[self._members] = FAMILY_FIT * (
                best - leading[self._server[self._members]])
        return of_server, of_family

    def evidence(self, cosine: np.ndarray) -> np.ndarray:
        """The server's and the family's evidence of every tool, one row per row of `cosine`
        (see `parts`)."""
        return np.array([sum(self.parts(row)) for row in cosine]).reshape(cosine.shape)

    def explained(self, cosine: np.ndarray, index: int) -> tuple[float, float, str]:
        """The server's and the family's evidence of `index` for one request's `cosine` row,
        and what they say: which server and which family fit best (see `parts`)."""
        of_server, of_family = (float(found[index]) for found in self.parts(cosine))
        said = []
        if of_server:
            servers = self.fits(cosine)[0]
            best = self._server_names[int(servers.argmax())]
            said.append(f"its server fits the request as a whole less well than {best!r} "
                        f"({servers[self._server[index]]:.2f} against {servers.max():.2f}, "
                        f"{of_server:+.2f})")
        if of_family:
            families = self.fits(cosine)[1]
            own = self._pair_family[self._pair_tool == index]
            mine = int(own[families[own].argmax()])
            theirs = np.flatnonzero(self._family_server == self._server[index])
            leader = int(theirs[families[theirs].argmax()])
            said.append(f"its family {self._names[mine]!r} fits less well than its server's "
                        f"{self._names[leader]!r} ({families[mine]:.2f} against "
                        f"{families[leader]:.2f}, {of_family:+.2f})")
        return of_server, of_family, "; ".join(said)


def _top_means(values: np.ndarray, group: np.ndarray, groups: int) -> np.ndarray:
    """The mean of each of `groups`' TOP largest `values` (fewer in a group of fewer)."""
    order = np.lexsort((-values, group))
    ordered = group[order]
    rank = np.arange(len(order)) - np.searchsorted(ordered, ordered)
    kept = rank < TOP
    sums = np.bincount(ordered[kept], weights=values[order][kept], minlength=groups)
    counts = np.bincount(ordered[kept], minlength=groups)
    return np.where(counts > 0, sums / np.maximum(counts, 1), 0.0)
