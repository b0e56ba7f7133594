"""Tool search (tool search mode, the gateway): the query is a case-insensitive regular
expression.

The pattern runs over each tool's name, description, and parameter names and descriptions, on
RE2 (google-re2), whose matching time is linear in the text: a pattern such as `(a+)+$`,
which makes a backtracking engine run for hours, returns at once. RE2 has no lookaround and
no backreferences; a pattern that needs them, or that is not a valid pattern at all, falls
back to keyword search, and `problem(query)` says why. `^` and `$` match at the
start and end of each line (a name is one line), as users of `grep` expect.

The score says where the pattern matched: up to 0.6 for the name (0.3, plus 0.3 times the
share of the name the longest match covers, so `weather` ranks `get_weather` above
`weather_forecast_hourly`), 0.3 for the description, 0.1 for the parameters. 1.0 means the
pattern matches the whole name and also the description and the parameters.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Mapping, Sequence
from functools import lru_cache
from itertools import islice
from typing import Any

import re2

from toolcat.model import Tool
from toolcat.search.keyword import KeywordScorer
from toolcat.search.ranking import Scores
from toolcat.search.text import parameter_texts, split_name

NAME, DESCRIPTION, PARAMETERS = 0.6, 0.3, 0.1
NAME_MATCHES = 1000
MAX_PATTERN = 2000  # characters; RE2 also bounds the memory a pattern may take

_OPTIONS = re2.Options()
_OPTIONS.log_errors = False  # RE2 would print parse errors on stderr


@lru_cache(maxsize=64)
def compile_query(query: str) -> tuple[Any | None, str | None]:
    """The compiled case-insensitive, multi-line pattern, or None and why it cannot be used.

    The pattern is compiled over UTF-8 bytes: RE2 then matches without converting the text
    on every call.
    """
    if not query.strip():
        return None, "the pattern is empty"
    if len(query) > MAX_PATTERN:
        return None, f"the pattern is longer than {MAX_PATTERN} characters"
    try:
        return re2.compile(f"(?im){query}".encode(), _OPTIONS), None
    except re2.error as exc:
        message = exc.args[0].decode() if exc.args and isinstance(exc.args[0], bytes) else \
            str(exc)
        message = message.split(": (?im)")[0]
    try:
        re.compile(query)
    except re.error as exc:
        return None, f"invalid regex pattern: {exc}"
    return None, f"the pattern needs a feature RE2 lacks ({message}; no lookaround or " \
        "backreferences, so matching stays linear-time)"


# Texts are searched in runs of at most this many texts and bytes (a longer text is a run of its
# own). A pattern that can span line breaks (`(?s).*`) makes each search scan to the end of its
# run, so bounding the run keeps the whole search linear: at most RUN_TEXTS scans of each byte.
RUN_TEXTS = 32
RUN_BYTES = 1 << 16


# A query with none of these is plain words, matched exactly where its text is (ignoring case);
# one whose only other characters with a meaning are `.?*+^$` (most agents' queries: words
# and a full stop or a question mark) holds a run of words every match contains.
_GROUPING = frozenset("\\|()[]{}")
_QUANTIFIED = frozenset("?*")  # the character before may be absent
_OTHER = frozenset(".+^$")
# The only characters outside ASCII that RE2's case folding matches to an ASCII letter: the
# Kelvin sign (k) and the long s (s). A field holding either is searched by RE2 alone.
_FOLDS_TO_ASCII = ("\u212a".encode(), "\u017f".encode())
MAX_CANDIDATES = 2000  # texts holding the run checked one by one; beyond, RE2 scans the field
_WORD = re.compile(rb"[a-z0-9]+")


def required(query: str) -> tuple[bytes, bool] | None:
    """The longest run of characters (lower case) every match of the query holds, and
    whether the query is that run alone; None when the query has none that can be read off
    (groups, classes, alternatives, escapes, or text outside printable ASCII)."""
    if not query.isascii() or not query.isprintable() or not _GROUPING.isdisjoint(query):
        return None
    runs: list[str] = []
    run: list[str] = []
    for char in query:
        if char in _QUANTIFIED or char in _OTHER:
            if char in _QUANTIFIED and run:
                run.pop()
            runs.append("".join(run))
            run = []
        else:
            run.append(char)
    runs.append("".join(run))
    longest = max(runs, key=len)
    if not longest:
        return None
    return longest.lower().encode("ascii"), longest == query


class _Field:
    """One field of every tool as one UTF-8 buffer, lines apart, searched run by run."""

    def __init__(self, texts: Sequence[str]) -> None:
        self.texts = [t.encode() for t in texts]
        self.buffer = b"\n".join(self.texts)
        # ASCII letters lowered, the rest as is: a run of a plain-words query is found in it
        # by bytes.find (about twice as fast as RE2's scan of the whole buffer), or by `words`
        self.lowered = None if any(c in self.buffer for c in _FOLDS_TO_ASCII) \
            else self.buffer.lower()
        # lower-case word -> the texts holding it, once `index_words` has run: a run of
        # words is then looked up by a word inside it, without reading the whole field
        self.words: dict[bytes, list[int]] | None = None
        self.starts: list[int] = []
        self.runs: list[tuple[int, int]] = []  # (first text, one past the last text)
        offset, first, size = 0, 0, 0
        for i, text in enumerate(self.texts):
            if i > first and (i - first >= RUN_TEXTS or size + len(text) > RUN_BYTES):
                self.runs.append((first, i))
                first, size = i, 0
            self.starts.append(offset)
            offset += len(text) + 1
            size += len(text) + 1
        if self.texts:
            self.runs.append((first, len(self.texts)))

    def matching(self, pattern: Any, whole_text: bool,
                 needed: tuple[bytes, bool] | None = None) -> list[int]:
        """Indices of the texts the pattern matches; `needed`: what `required` reads off it.

        A match that runs over a line break into the next text is checked again on its own
        text. `\\A` and `\\z` mean the start and end of the whole buffer, so a pattern that
        uses them (`whole_text`) is run on each text separately.
        """
        if needed is not None and self.lowered is not None:
            held = self._holding(pattern, *needed)
            if held is not None:
                return held
        if whole_text:
            return [i for i, text in enumerate(self.texts) if pattern.search(text)]
        # The whole buffer at once, one search per matching text, while no match runs over a
        # line break (the usual case: a query's words or a pattern without `\n`, `\s`, ...);
        # from the first match that does, run by run, which bounds the rescans.
        found: list[int] = []
        position = 0
        while self.texts:
            match = pattern.search(self.buffer, position)
            if match is None:
                return found
            index = bisect.bisect_right(self.starts, match.start()) - 1
            if match.end() > self.starts[index] + len(self.texts[index]):
                return found + self._by_runs(pattern, index)
            found.append(index)
            if index + 1 == len(self.texts):
                break
            position = self.starts[index + 1]
        return found

    def index_words(self) -> None:
        """Make `words` (a second at 43,000 tools for the three fields; serve does it on a
        thread once the first search is answered)."""
        if self.lowered is None or self.words is not None:
            return
        words: dict[bytes, list[int]] = {}
        lowered, starts = self.lowered, self.starts
        for index, (start, text) in enumerate(zip(starts, self.texts, strict=True)):
            for word in set(_WORD.findall(lowered, start, start + len(text))):
                words.setdefault(word, []).append(index)
        self.words = words

    def _looked_up(self, pattern: Any, run: bytes, exact: bool) -> list[int] | None:
        """`_holding` by `words`: the texts holding the rarest word that lies inside `run`
        (between two of its other characters, so a text holding `run` holds it as a whole
        word), each checked; None when there is no such word, no index yet, or too many."""
        words = self.words
        if words is None:
            return None
        inner = [m.group() for m in _WORD.finditer(run) if m.start() > 0 and m.end() < len(run)]
        if not inner:
            return None
        candidates = min((words.get(word, []) for word in inner), key=len)
        if len(candidates) > MAX_CANDIDATES:
            return None
        lowered, starts, texts = self.lowered, self.starts, self.texts
        assert lowered is not None
        if exact:
            return [i for i in candidates
                    if lowered.find(run, starts[i], starts[i] + len(texts[i])) >= 0]
        return [i for i in candidates if pattern.search(texts[i])]

    def _holding(self, pattern: Any, run: bytes, exact: bool) -> list[int] | None:
        """`matching` for a pattern every match of which holds `run` (and is `run` alone when
        `exact`): the texts holding it, checked by the pattern one by one unless `exact`;
        None when more than MAX_CANDIDATES hold it. Such a pattern never matches a line
        break, so a match stays in its text."""
        looked_up = self._looked_up(pattern, run, exact)
        if looked_up is not None:
            return looked_up
        found: list[int] = []
        lowered, starts, texts, position = self.lowered, self.starts, self.texts, 0
        assert lowered is not None
        checked = 0
        while True:
            at = lowered.find(run, position)
            if at < 0:
                return found
            index = bisect.bisect_right(starts, at) - 1
            if exact:
                found.append(index)
            else:
                checked += 1
                if checked > MAX_CANDIDATES:
                    return None
                if pattern.search(texts[index]):
                    found.append(index)
            if index + 1 == len(starts):
                return found
            position = starts[index + 1]

    def _by_runs(self, pattern: Any, start: int) -> list[int]:
        """`matching` from text `start` on, run by run (see RUN_TEXTS)."""
        found: list[int] = []
        for first, last in self.runs:
            if last <= start:
                continue
            first = max(first, start)
            position = self.starts[first]
            run_end = self.starts[last - 1] + len(self.texts[last - 1])
            while True:
                match = pattern.search(self.buffer, position, run_end)
                if match is None:
                    break
                index = bisect.bisect_right(self.starts, match.start(), first, last) - 1
                end = self.starts[index] + len(self.texts[index])
                if match.end() <= end or pattern.search(self.texts[index]):
                    found.append(index)
                if index + 1 == last:
                    break
                position = self.starts[index + 1]
        return found


def parameter_field(tool: Tool) -> str:
    """The text a pattern is matched against for `tool`'s parameters: a line per property,
    its name, the name's words and its description."""
    return "\n".join(f"{n} {split_name(n)} {d}" for n, d in parameter_texts(tool.parameters))


class RegexScorer:
    """The regex search, linear-time; keyword search when the pattern is unusable."""

    name = "regex"

    def __init__(self, tools: Sequence[Tool], descriptions: Sequence[str] | None = None,
                 parameters: Sequence[str] | None = None) -> None:
        """`descriptions` and `parameters`: each tool's description and `parameter_field`,
        when the caller kept them (serve keeps a catalog's: a remembered catalog decodes a
        tool's definition when either is first read)."""
        self.tools = tools
        self._fields = (
            _Field([t.name for t in tools]),
            _Field([t.description for t in tools] if descriptions is None else descriptions),
            _Field([parameter_field(t) for t in tools] if parameters is None else parameters),
        )
        self._keyword: KeywordScorer | None = None

    def index_words(self) -> None:
        """Index the words of every field (see `_Field.index_words`): a query with words
        inside its longest run is then answered without reading the fields."""
        for field in self._fields:
            field.index_words()

    def problem(self, query: str) -> str | None:
        """Why `query` is searched by keywords instead of as a pattern (None when it is not)."""
        return compile_query(query)[1]

    def _fallback(self) -> KeywordScorer:
        if self._keyword is None:
            self._keyword = KeywordScorer(self.tools)
        return self._keyword

    def _name_score(self, pattern: Any, index: int) -> float:
        name = self._fields[0].texts[index]
        # the longest of the first NAME_MATCHES matches: a name matched more often than that
        # (a 'name' of a million letters) is scored without walking every match
        longest = max((m.end() - m.start()
                       for m in islice(pattern.finditer(name), NAME_MATCHES)), default=0)
        return NAME * (0.5 + 0.5 * (longest / len(name) if name else 1.0))

    def scores(self, query: str) -> Scores:
        pattern, _ = compile_query(query)
        if pattern is None:
            if not query.strip():
                return [0.0] * len(self.tools)
            return self._fallback().scores(query)
        import numpy as np

        whole = "\\A" in query or "\\z" in query
        out = np.zeros(len(self.tools))  # per matching tool only: no Python pass over all
        needed = required(query)
        names, descriptions, parameters = (f.matching(pattern, whole, needed)
                                           for f in self._fields)
        for i in names:
            out[i] += self._name_score(pattern, i)
        out[descriptions] += DESCRIPTION
        out[parameters] += PARAMETERS
        return np.minimum(out, 1.0)

    def explain(self, query: str, index: int) -> tuple[str, Mapping[str, Any]]:
        pattern, problem = compile_query(query)
        if pattern is None:
            reason, details = self._fallback().explain(query, index)
            return (f"keyword fallback ({problem}): {reason}",
                    {**details, "fallback": "keyword", "problem": problem})
        fields = [label for label, field in zip(("name", "description", "parameters"),
                                                self._fields, strict=True)
                  if pattern.search(field.texts[index])]
        if not fields:
            return "the pattern matches nowhere in the tool", {"fields": []}
        return f"pattern matches the {', '.join(fields)}", {"fields": fields}
