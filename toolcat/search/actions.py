"""Action agreement: a request that asks for a tool's action in other words.

Sibling tools of one server often differ only in their action: `get_pipeline_job_output`,
`retry_pipeline_job` and `erase_pipeline_job` share every other word, and their descriptions
and embeddings are near each other. A request says which action it wants, often with another
verb than the tool's name: "remove the old branch" for `delete_branch`, "grab the text of this
article" for `fetch`, "show me the job log" for a `get_`. BM25F matches only the same stem,
and the embedding of a long request hardly moves with one verb, so the wrong sibling could
win by a few tenths of a nat.

ACTIONS groups common verbs by the action they ask for. A tool whose name's verb is in a group
of the request's verb gets AGREEMENT nats of evidence, when the request says that verb in
other words (what saying the tool's verb would have earned, about), or says it as the name
does and also names something the name acts on (`read_file` for "read the file notes.txt":
else `get_file_info`, a synonym, would pass the tool the request names word for word). A tool
that shares only the verb with the request earns what BM25F gave it, no more: "find the
coordinates of Berlin" is not about `find_free_time`. It breaks near-ties, it filters nothing:
a tool whose name says another action loses nothing, and a request without a verb of the
table changes nothing. Both sides are read narrowly, where the words
are verbs:

- the request's verb is its first word that is in the table, as written (base form: "remove",
  not "removed"): an order opens with its verb ("show me what changed" is about showing, and
  "who last changed each line" gives no order to change);
- a tool's verb is the first word of its name, or the first verb of the table among the
  MAX_PREFIX words after a first word that three or more tools of its server share
  (`kubectl_get`, `slack_post_message`, `collections_items_create_item`,
  `boond_candidates_delete`: `verb_positions`), and only on a server that names at least
  half of its tools by an action (`delete_branch`, `list_issues`). In
  other catalogs a verb in a name is a topic (`find_agency`, `ProductSearch`): MetaTool lost
  0.004 hit@1 when every name counted.

A word may be in several groups: "show" asks to read one thing or list many, "open" a merge
request is to create it, a file to read it.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

from toolcat.model import Tool
from toolcat.search.orders import Verb, verbs
from toolcat.search.text import STOPWORDS, stem, stems, words

if TYPE_CHECKING:
    import numpy as np

# One nat, about what a common name word shared with the request earns (idf 1.5-2 among a
# few hundred tools, times its saturation); 1.5 and 2 measured in docs/ranking.md.
AGREEMENT = 1.0
PREFIX = 3  # tools of one server that share a first name word, making it a prefix
MAX_PREFIX = 3  # words after a shared first word among which a name's verb may stand
SHARE = 0.5  # of a server's tools named by an action, for its names' actions to count

ACTIONS: dict[str, tuple[str, ...]] = {
    "create": ("create", "add", "make", "insert", "open"),
    # "nuke", "trash", "scrap", "ditch": to get rid of, in everyday and software slang
    "delete": ("delete", "remove", "erase", "drop", "destroy", "purge", "nuke", "trash",
               "scrap", "ditch"),
    "read": ("get", "read", "fetch", "show", "view", "display", "retrieve", "grab", "open",
             "describe"),
    "list": ("list", "enumerate", "show", "view", "display"),
    # "reschedule": to change the time of something that exists (a meeting, a job)
    "update": ("update", "edit", "modify", "change", "rename", "patch", "set", "reschedule",
               "amend", "adjust"),
    "stop": ("stop", "cancel", "abort", "kill", "terminate", "halt"),
    "search": ("search", "find", "query", "lookup"),
    "run": ("run", "execute", "start", "launch", "trigger", "play", "evaluate", "exec",
            "invoke"),
    "send": ("send", "post", "reply"),
    # verbs without a synonym here: as a request's first verb they are its action, so that
    # a later verb does not speak for it ("merge MR !42", "close the issue and add a label")
    "merge": ("merge",),
    "close": ("close",),
    "approve": ("approve",),
    "copy": ("copy",),
    "move": ("move",),
    "upload": ("upload",),
    "download": ("download",),
    "retry": ("retry",),
}

# the words a name opens with, camelCase split (`getFlightInfo`, `kubectl_get`, `HTTPGet`)
_HEAD = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[0-9]+")

ASKED: dict[str, frozenset[str]] = {}  # a verb as a request writes it -> its groups
_NAMED: dict[str, frozenset[str]] = {}  # the stem of a verb in a tool's name -> its groups
for _group, _verbs in ACTIONS.items():
    for _verb in _verbs:
        ASKED[_verb] = ASKED.get(_verb, frozenset()) | {_group}
for _verb, _groups in ASKED.items():
    _NAMED[stem(_verb)] = _NAMED.get(stem(_verb), frozenset()) | _groups


# after a verb of the table, a particle that makes another verb of it ("get rid of", "put it
# back", "turn off"): toolcat.search.verbs maps those to the catalog's verbs
PARTICLES = frozenset(("rid", "back", "off"))

# phrasal verbs whose particle makes another action of the verb, read as that action of the
# table: the dictionary's sense of the phrase (Merriam-Webster), in the sense an API acts on
PHRASAL: dict[tuple[str, str], str] = {
    ("set", "up"): "create",  # "set up" 1: to establish ("set up a webhook", "a login")
    ("spin", "up"): "create",  # computing: to create and start (a server, an environment)
    ("turn", "off"): "stop",  # "turn off": to stop the operation of
    ("switch", "off"): "stop",
    ("shut", "off"): "stop",
    ("shut", "down"): "stop",  # "shut down": to cause to stop operating
    ("turn", "on"): "run",  # "turn on": to cause to operate
    ("switch", "on"): "run",
    ("kick", "off"): "run",  # "kick off": to begin, start
    ("take", "down"): "delete",  # "take down" 1: to remove (a post, a listing)
    ("tear", "down"): "delete",  # "tear down": to destroy (an environment, a stack)
}


def phrasal(verb: Verb) -> frozenset[str]:
    """The action group of `verb` with its particle right after it, when PHRASAL holds it
    ("set up a webhook", "turn off the flag"); else no group."""
    group = PHRASAL.get((verb.word, verb.particle or ""))
    return frozenset((group,)) if group else frozenset()


def phrasal_read(request: str) -> tuple[str, str] | None:
    """The phrasal verb `asked` reads `request`'s action from and its group ("set up",
    "create"), when it reads it from one; else None (explain says it)."""
    for verb in verbs(request):
        if phrasal(verb):
            return f"{verb.word} {verb.particle}", PHRASAL[(verb.word, verb.particle or "")]
        if ASKED.get(verb.word) and verb.particle not in PARTICLES:
            return None
    return None


def asked(request: str) -> frozenset[str]:
    """The action groups of the first word of `request` that stands as an order's verb
    (toolcat.search.orders) and is a verb of ACTIONS, unless a particle follows it, or a
    phrasal verb of PHRASAL."""
    for verb in verbs(request):
        if phrasal(verb):
            return phrasal(verb)
        found = ASKED.get(verb.word)
        if found and verb.particle not in PARTICLES:
            return found
    return frozenset()


def name_words(tools: Sequence[Tool]) -> list[list[str]]:
    """Each tool's name as its words, lower case, read from its first 80 characters
    (`create_pull_request`, `createPullRequest` -> create, pull, request)."""
    return [[w.lower() for w in _HEAD.findall(t.name, 0, 80)] for t in tools]


def groups_of(verb: str) -> frozenset[str]:
    """The action groups of the stem of a verb a tool's name opens with (see `named`)."""
    return _NAMED.get(verb, frozenset())


# the last tools `named` read and what it found: hybrid's parts (the actions, the catalog's
# verbs, the verb phrases, number agreement, nouns as verbs) each read the same catalog's names
_LAST_NAMED: tuple[Sequence[Tool], tuple[int, ...], list[tuple[str, frozenset[str]] | None]] \
    | None = None


def named(tools: Sequence[Tool]) -> list[tuple[str, frozenset[str]] | None]:
    """For each tool, the stem of the verb its name opens with and the stems of the name's
    words after it (what it acts on: `delete_branch` -> `delet`, {`branch`}), when the verb is
    one of ACTIONS and its server names its tools by action (see the module docstring), else
    None. Kept for the same sequence of the same tools (by identity) until another is read."""
    global _LAST_NAMED
    last = _LAST_NAMED  # read once: serve's threads may replace it
    ids = tuple(map(id, tools))
    if last is not None and last[0] is tools and last[1] == ids:
        return list(last[2])
    found = _named(tools)
    _LAST_NAMED = (tools, ids, found)
    return list(found)


def verb_positions(tools: Sequence[Tool], heads: Sequence[Sequence[str]] | None = None
                   ) -> list[int | None]:
    """For each tool, where its name's verb of ACTIONS stands among its words (`name_words`):
    the first word, or the first verb of ACTIONS among the MAX_PREFIX words after a first word
    that PREFIX or more tools of its server share (`kubectl_get`,
    `collections_items_create_item`, `boond_candidates_delete`); None when there is none."""
    heads = name_words(tools) if heads is None else heads
    firsts = Counter((t.server, h[0]) for t, h in zip(tools, heads, strict=True) if h)
    stemmed: dict[str, str] = {}

    def verb(word: str) -> bool:
        if word not in stemmed:
            stemmed[word] = stem(word)
        return stemmed[word] in _NAMED

    found: list[int | None] = []
    for tool, head in zip(tools, heads, strict=True):
        if not head or verb(head[0]):
            found.append(0 if head else None)
            continue
        shared = firsts[(tool.server, head[0])] >= PREFIX
        found.append(next((k for k in range(1, min(len(head), MAX_PREFIX + 1))
                           if verb(head[k])), None) if shared else None)
    return found


def _named(tools: Sequence[Tool]) -> list[tuple[str, frozenset[str]] | None]:
    heads = name_words(tools)
    found: list[tuple[str, frozenset[str]] | None] = []
    for head, at in zip(heads, verb_positions(tools, heads), strict=True):
        # what it acts on: the words after the verb, and those of a longer prefix after its
        # first word (`boond_candidates_delete` deletes candidates)
        found.append(None if at is None else (
            stem(head[at]),
            frozenset(stem(w) for w in [*head[1:at], *head[at + 1:]] if w not in STOPWORDS)))
    size = Counter(t.server for t in tools)
    acting = Counter(t.server for t, v in zip(tools, found, strict=True) if v)
    return [v if acting[t.server] >= SHARE * size[t.server] else None
            for t, v in zip(tools, found, strict=True)]


class Actions:
    """AGREEMENT evidence for the tools whose name's verb the request asks for (see the
    module docstring)."""

    def __init__(self, tools: Sequence[Tool]) -> None:
        import numpy as np

        self._size = len(tools)
        members: dict[str, list[int]] = {}  # verb -> the tools whose name opens with it
        objects: dict[str, dict[str, list[int]]] = {}  # verb -> a word after it -> tools
        for i, action in enumerate(named(tools)):
            if action is not None:
                verb, after = action
                members.setdefault(verb, []).append(i)
                for word in after:
                    objects.setdefault(verb, {}).setdefault(word, []).append(i)
        self._members = {verb: np.array(found, dtype=np.int64)
                         for verb, found in members.items()}
        self._objects = {verb: {word: np.array(found, dtype=np.int64)
                                for word, found in by_word.items()}
                         for verb, by_word in objects.items()}

    def agreeing(self, request: str) -> np.ndarray:
        """The indices of the tools `evidence` gives AGREEMENT."""
        import numpy as np

        return np.flatnonzero(self.evidence(request))

    def evidence(self, request: str) -> np.ndarray:
        """AGREEMENT for every tool whose name's verb is in a group of the request's verb:
        said in other words, or said as the name says it and with a word of what the name
        acts on (see the module docstring); else 0."""
        return self.of_groups(asked(request), request)

    def of_groups(self, groups: frozenset[str], request: str) -> np.ndarray:
        """`evidence` for a request whose action is in `groups` (the table's groups of its
        verb, or the group `toolcat.search.verbs` reads a verb the table lacks as)."""
        import numpy as np

        found = np.zeros(self._size)
        if not groups:
            return found
        said = {stem(word) for word in words(request)}
        about = set(stems(request))
        for verb, members in self._members.items():
            if not _NAMED[verb] & groups:
                continue
            if verb not in said:
                found[members] = AGREEMENT
                continue
            by_word = self._objects.get(verb, {})
            for word in about & by_word.keys():
                found[by_word[word]] = AGREEMENT
        return found
