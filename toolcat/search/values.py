"""Typed values a request names, as evidence of the argument a tool takes.

"give jon@acme.com view access to the roadmap deck" hands an e-mail address to a tool;
"what's in B2:F40 on the Pipeline tab" a range in A1 notation; "CHG0040021 is good to go" a
change request's number. The words of such values are no lexical evidence
(`toolcat.search.text.without_values`), but their kind is: the tool must have an argument
that takes it. A request's values are recognised by a small table of kinds (`KINDS`), each
with a recogniser built on the standard library where it has one (`ipaddress`, `uuid`,
`email.utils`, `urllib.parse`, `datetime`). A tool's parameters say which kinds they take by
their `format`, their `pattern` (compiled with RE2, whose matching time is linear: a hostile
pattern costs nothing), the words of their names and descriptions ("A1 notation", "e-mail
address", "sys_id or INC number") and the values they show (`examples`, `default`, `enum`,
and the values written in the description: "e.g., \"Sheet1!A1:D10\"", "FIRST-123"), which
are read with the same recognisers as a request; a parameter's description is also what the
tool's description says of it in a docstring's block of arguments (`documented`). A value a
request writes defanged ("hxxp://evil[.]top") is recognised as the value it stands for.

In `hybrid`, a tool whose parameters take every kind of value the request names gains TAKES
nats per nat of the kinds' idf among the catalog's tools, at most TAKES_MAX (a share of it for
some of the kinds; a kind every tool takes says nothing); an identifier whose prefix a
parameter describes (an upper-case word of its text, the prefix of a value it shows, or a word
of its name the prefix abbreviates: "CHG" and `change_id`, "INC" and `incident_id`) gives its
tools PREFIX nats more. Parameters that half or more of a server's tools have are its
boilerplate and are not read (`_common_parameters`). The tool side is read once per catalog,
on the first request that names a value: one pass over the parameters, so most requests,
which name none, cost nothing more. For a catalog read from files, the search index keeps it
(`Taken.arrays`, toolcat.search.index), so a later process reads it instead.
"""

from __future__ import annotations

import hashlib
import ipaddress
import json
import re
import sys
import threading
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from email.utils import parseaddr
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import toolcat.search.text as text_module
from toolcat.model import Tool
from toolcat.search.text import schema_parameters, split_name
from toolcat.urls import split_url

if TYPE_CHECKING:
    import numpy as np

# Nats per nat of a kind's idf for taking what the request names, at most TAKES_MAX: a kind
# that many tools take (every Google Workspace tool takes the user's e-mail) says little.
TAKES = 0.3
TAKES_MAX = 1.5
# An identifier whose prefix a parameter describes says which object the request is about.
PREFIX = 2.0

_EDGES = "\"'`()[]{}<>,;:!?*."
_LIMIT = 4000  # characters of a request read
_PIECES = 64  # white-space separated pieces of a request read
COMMON = 6  # tools of a server from which its common parameters are boilerplate
_PATTERN = 500  # characters of a schema's pattern compiled
# what a pattern that says a kind must not match: plain words, a name, a number
_PLAIN = ("plain words", "plain", "my-name_1", "12345")


@dataclass(frozen=True, slots=True)
class Value:
    """A value a request names: its kind (a key of `KINDS`), its text, and for an
    identifier the prefix that says what it identifies (lower case), else ""."""

    kind: str
    text: str
    prefix: str = ""


def _url(text: str) -> str | None:
    if "://" not in text:
        return None
    parts = split_url(text)
    return "" if parts and parts.scheme.isalpha() and parts.netloc else None


def _email(text: str) -> str | None:
    if text.count("@") != 1 or not _EMAIL.fullmatch(text):
        return None
    return "" if parseaddr(text)[1] == text else None


def _address(text: str) -> object:
    return ipaddress.ip_network(text, strict=False) if "/" in text else ipaddress.ip_address(text)


def _iso(text: str) -> object:
    return datetime.fromisoformat(text[:-1] + "+00:00" if text.endswith(("Z", "z")) else text)


def _json(text: str) -> str | None:
    if not (text.startswith("{") and text.endswith("}")) or len(text) > 2000:
        return None
    try:
        return "" if isinstance(json.loads(text), dict) else None
    except ValueError:
        return None


def _matched(pattern: re.Pattern[str], prefix: bool = False,
             parse: Callable[[str], object] | None = None) -> Callable[[str], str | None]:
    """A recogniser by a regular expression matched whole (and, with `parse`, a text it
    parses without a ValueError); with `prefix`, its first group, lower case, is the
    identifier's prefix."""
    def recognise(text: str) -> str | None:
        found = pattern.fullmatch(text)
        if found is None:
            return None
        if parse is not None:
            try:
                parse(text)
            except ValueError:
                return None
        return found.group(1).lower() if prefix else ""
    return recognise


_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_IP = re.compile(r"(?=[^.:]*[.:])[0-9A-Fa-f.:/]+")
_UUID = re.compile(r"[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}")
_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?"
                       r"(?:[Zz]|[+-]\d{2}:?\d{2})?)?")
_CELL = r"\$?[A-Z]{1,3}\$?[0-9]{1,7}"
_RANGE = re.compile(rf"(?:[\w' .-]{{1,60}}!)?{_CELL}:{_CELL}|[\w'.-]{{1,60}}!{_CELL}")
_HEX = re.compile(r"(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,64}")
_KEY = re.compile(r"([A-Z][A-Z0-9]{1,9})-[0-9]{2,9}")  # ENG-412, PROJ-123
_NUMBER = re.compile(r"([A-Z]{2,6})[0-9]{5,12}")  # CHG0040021, INC0012345, RITM0001234
_TOKEN = re.compile(r"([a-z]{2,6})_(?=[A-Za-z]*[0-9])[A-Za-z0-9]{4,40}")  # tx_8Kq2LmZ, sub_7781
# a cron field: numbers, ranges, steps, lists, ?, L, W, #, or a name (MON, JAN)
_FIELD = re.compile(r"[0-9*/,?LW#-]{1,20}|[A-Z]{3}")


@dataclass(frozen=True, slots=True)
class Kind:
    """A kind of value: how a request's piece is recognised (the prefix of an identifier,
    "" for other kinds, or None), the schema `format`s that take it, the words of a
    parameter's name or description that say it takes it, a sample a schema's `pattern`
    must match to take it, and how `--explain` names it."""

    recognise: Callable[[str], str | None]
    formats: frozenset[str]
    words: tuple[str, ...]  # lower-case words, or pairs of words
    samples: tuple[str, ...]
    said: str


# The order is the order of recognition: a URL before an e-mail address, a UUID before a hex
# digest, a range before an identifier.
KINDS: dict[str, Kind] = {
    "url": Kind(_url, frozenset(("uri", "url", "iri", "uri-reference", "iri-reference")),
                ("url", "urls", "uri", "uris", "href", "webpage", "website", "web page",
                 "web address"),
                ("https://example.com/a",), "URL"),
    "email": Kind(_email, frozenset(("email", "idn-email")),
                  ("email", "emails", "e mail", "e mails"), ("user@example.com",),
                  "e-mail address"),
    "ip": Kind(_matched(_IP, parse=_address), frozenset(("ipv4", "ipv6")),
               ("ip", "ipv4", "ipv6", "cidr", "subnet"),
               ("192.0.2.10",), "IP address"),
    "uuid": Kind(_matched(_UUID, parse=uuid.UUID), frozenset(("uuid",)),
                 ("uuid", "uuids", "guid", "guids"),
                 ("123e4567-e89b-12d3-a456-426614174000",), "UUID"),
    "date": Kind(_matched(_ISO_DATE, parse=_iso), frozenset(("date", "date-time")),
                 ("date", "dates", "datetime", "datetimes", "timestamp", "timestamps",
                  "iso8601", "iso 8601", "rfc3339", "rfc 3339"),
                 ("2025-01-15", "2025-01-15T09:30:00Z"), "date"),
    "range": Kind(_matched(_RANGE), frozenset(), ("a1 notation", "a1 style"),
                  ("A1:D10", "Sheet1!A1:D10"), "range in A1 notation"),
    "hex": Kind(_matched(_HEX), frozenset(),
                ("sha", "sha1", "sha256", "hash", "commit hash", "commit id", "sys id"),
                ("9fceb02d0ae598e95dc970b74767f19372d61af8",), "hexadecimal id"),
    "key": Kind(_matched(_KEY, prefix=True), frozenset(), (), ("ABC-123",),
                "key of the shape PROJECT-123"),
    "number": Kind(_matched(_NUMBER, prefix=True), frozenset(), (), ("ABC0001234",),
                   "number of the shape ABC0001234"),
    "token": Kind(_matched(_TOKEN, prefix=True), frozenset(), (), ("abc_1a2b3c",),
                  "id of the shape abc_123"),
    "json": Kind(_json, frozenset(("json",)), ("json",), (), "JSON object"),
    # spans several pieces of a request: read apart (`_cron`)
    "cron": Kind(lambda text: None, frozenset(), ("cron", "crontab"), ("0 3 * * *",),
                 "cron expression"),
}
# the kinds whose prefix says what they identify ("CHG": a change, "sub": a subscription)
_IDENTIFIERS = frozenset(("key", "number", "token"))


# every kind of value has a digit, an @, a brace or a scheme's ://
_MAYBE = re.compile(r"[0-9@{]|://")


# Threat reports write the URLs and addresses they name defanged, so that nothing follows
# them: "hxxp://evil[.]top", "45.133.1[.]22", "bob[@]acme.io"; read as the values they are.
_DEFANGED = re.compile(r"^hxxp|\[\.\]|\(\.\)|\{\.\}|\[:\]|\[@\]", re.IGNORECASE)


def _refanged(found: re.Match[str]) -> str:
    return "http" if found.group().lower() == "hxxp" else found.group()[1]


def recognise(text: str) -> Value | None:
    """The value `text`, one piece of a request without its enclosing punctuation, is, or
    None; a defanged one is read as the value it stands for."""
    if not _MAYBE.search(text):
        return None
    plain = _DEFANGED.sub(_refanged, text)
    for name, kind in KINDS.items():
        found = kind.recognise(plain)
        if found is not None:
            return Value(name, text, found)
    return None


def request_values(request: str) -> list[Value]:
    """The values a request names, in order, each once (a cron expression spans several
    pieces and is read apart)."""
    text = request[:_LIMIT]
    found: dict[tuple[str, str], Value] = {}
    pieces = text.split()[:_PIECES]
    for piece in pieces:
        core = piece.strip(_EDGES)
        if len(core) < 5 and ":" not in core:
            continue
        value = recognise(core)
        if value is not None:
            found.setdefault((value.kind, value.text), value)
    blob = _json_blob(text)
    if blob is not None:
        found.setdefault(("json", blob), Value("json", blob))
    cron = _cron(pieces)
    if cron:
        found.setdefault(("cron", cron), Value("cron", cron))
    return list(found.values())


def _cron(pieces: Sequence[str]) -> str:
    """The first run of five or six pieces that are cron fields, one with a `*` or a `/`
    ("0 3 * * *", "*/15 9-17 * * MON-FRI"), or ""."""
    run: list[str] = []
    for piece in [*pieces, ""]:
        if _FIELD.fullmatch(piece) and len(run) < 6:
            run.append(piece)
            continue
        if len(run) >= 5 and any("*" in p or "/" in p for p in run):
            return " ".join(run)
        run = [piece] if _FIELD.fullmatch(piece) else []
    return ""


def _json_blob(text: str) -> str | None:
    start, end = text.find("{"), text.rfind("}")
    if start < 0 or end <= start:
        return None
    return text[start:end + 1] if _json(text[start:end + 1]) is not None else None


def _says() -> dict[str, list[tuple[str, str]]]:
    """The words that say a kind (one word, or the first of two) -> (the kind, the second
    word or "")."""
    found: dict[str, list[tuple[str, str]]] = {}
    for name, kind in KINDS.items():
        for words in kind.words:
            first, _, second = words.partition(" ")
            found.setdefault(first, []).append((name, second))
    return found


_SAYS = _says()
_LOWER_WORD = re.compile(r"[a-z0-9]+")
_FORMATS = {fmt: name for name, kind in KINDS.items() for fmt in kind.formats}


@dataclass(frozen=True, slots=True)
class Taken:
    """The tool side of a catalog: for each kind, the tools a parameter of which takes it
    (indices), and for each identifier prefix a parameter describes, its tools."""

    kinds: Mapping[str, np.ndarray]
    prefixes: Mapping[str, np.ndarray]
    # first letter -> (a word naming identifier parameters, their tools), for the prefixes
    # that abbreviate the word (`abbreviates`)
    objects: Mapping[str, tuple[tuple[str, np.ndarray], ...]]

    def arrays(self) -> list[np.ndarray]:
        """The table as plain arrays (no pickles), in the order `from_arrays` reads them:
        for the kinds, the prefixes and the object words in turn, the keys as the UTF-8 text
        of their lines, where each key's tools end in the next array, and the tools."""
        import numpy as np

        found: list[np.ndarray] = []
        words = {word: members for group in self.objects.values() for word, members in group}
        for table in (self.kinds, self.prefixes, words):
            found += [np.frombuffer("\n".join(table).encode(), dtype=np.uint8),
                      np.cumsum([len(members) for members in table.values()], dtype=np.int64),
                      np.concatenate([np.zeros(0, dtype=np.int64), *table.values()])]
        return found

    @classmethod
    def from_arrays(cls, arrays: Sequence[np.ndarray], size: int) -> Taken:
        """The table `arrays()` gave, checked to fit a catalog of `size` tools (its tools'
        arrays are views of the stored entry, not copies).

        Raises:
            ValueError: the arrays hold no such table, or one that does not fit.
        """
        if len(arrays) != 9:
            raise ValueError("the stored values table does not have the arrays of one")
        kinds, prefixes, words = (_stored_table(arrays[at], arrays[at + 1], arrays[at + 2], size)
                                  for at in (0, 3, 6))
        if not set(kinds) <= set(KINDS) or "" in words:
            raise ValueError("the stored values table names unknown kinds or empty words")
        by_letter: dict[str, list[tuple[str, np.ndarray]]] = {}
        for word, members in words.items():
            by_letter.setdefault(word[0], []).append((word, members))
        return cls(kinds, prefixes, {letter: tuple(found) for letter, found in by_letter.items()})


def _stored_table(keys: np.ndarray, ends: np.ndarray, members: np.ndarray, size: int
                  ) -> dict[str, np.ndarray]:
    """One table of `Taken.arrays()`: key -> the tools (indices below `size`) it names."""
    import numpy as np

    if keys.ndim != 1 or keys.dtype != np.uint8 or ends.ndim != 1 or ends.dtype != np.int64 \
            or members.ndim != 1 or members.dtype != np.int64:
        raise ValueError("the stored values table does not have the arrays of one")
    text = keys.tobytes().decode()
    names = text.split("\n") if text else []
    if len(names) != len(ends) or len(set(names)) != len(names) \
            or (len(ends) and (ends[-1] != len(members) or (np.diff(ends) < 0).any()
                               or ends[0] < 0)) \
            or (not len(ends) and len(members)) \
            or (len(members) and (members.min() < 0 or members.max() >= size)):
        raise ValueError("the stored values table does not fit this catalog")
    starts = [0, *ends[:-1].tolist()]
    return {name: members[start:end]
            for name, start, end in zip(names, starts, ends.tolist(), strict=True)}


@lru_cache(maxsize=1)
def table_ident() -> str | None:
    """What the tool side depends on besides the tools, for the key it is kept under (see
    toolcat.search.index): the code that reads them (this module and toolcat.search.text,
    their text hashed, so that no change of either can go unnoticed) and the Python whose
    parsers recognise values (`datetime.fromisoformat` reads more from 3.11 on). None when
    that code cannot be read: the table is then made each time."""
    digest = hashlib.sha256(f"values\0{sys.version_info[0]}.{sys.version_info[1]}\0".encode())
    try:
        for module in (__file__, text_module.__file__):
            digest.update(Path(module).read_bytes())
    except (OSError, TypeError):
        return None
    return digest.hexdigest()[:16]


def abbreviates(prefix: str, word: str) -> bool:
    """Whether the lower-case `prefix` abbreviates `word`: the same first letter, and every
    letter found in order in a longer word ("chg" -> change, "inc" -> incident, "sub" ->
    subscription)."""
    if len(prefix) < 2 or len(word) <= len(prefix) or prefix[0] != word[0]:
        return False
    at = 1
    for letter in prefix[1:]:
        at = word.find(letter, at) + 1
        if not at:
            return False
    return True


_ID_WORDS = frozenset(("id", "ids", "number", "num", "no", "key", "identifier", "sysid",
                       "ref", "reference"))
_SHOWN_PIECE = re.compile(r"[^\s0-9@{:]*(?:[0-9@{]|://)\S*")  # a piece `_MAYBE` finds
_ASIDE = re.compile(r"\([^()]{0,300}\)")
_UPPER = re.compile(r"\b[A-Z][A-Z0-9]{1,9}\b")
_SHOWN = re.compile(r"""["'`]([^"'`\s]{3,80})["'`]|\be\.?g\.?,?\s+([^\s,;)]{3,80})|"""
                    r"""\b(?:like|such as)\s+([^\s,;)]{3,80})""")


def _shown(schema: Mapping[str, Any], description: str) -> list[str]:
    """The values a parameter shows: its examples, default, enum and const, and the values
    quoted or introduced by "e.g." in its description."""
    found: list[str] = []
    for key in ("examples", "enum"):
        items = schema.get(key)
        if isinstance(items, list):
            found += [item for item in items[:20] if isinstance(item, str)]
    for key in ("default", "const", "example"):
        if isinstance(schema.get(key), str):
            found.append(schema[key])
    if _MAYBE.search(description):
        for match in _SHOWN.finditer(description):
            found.append(next(group for group in match.groups() if group).strip(_EDGES))
        found += [piece.strip(_EDGES)
                  for piece in _SHOWN_PIECE.findall(description)[:40]]
    return [value[:200] for value in found[:60]]


def _pattern_kinds(pattern: object) -> frozenset[str]:
    """The kinds whose samples a schema's `pattern` matches, when it is specific: it must not
    match plain words too. Compiled with RE2 (linear time; a pattern RE2 cannot compile, with
    backreferences or lookarounds, says nothing)."""
    if not isinstance(pattern, str) or not pattern or len(pattern) > _PATTERN:
        return frozenset()
    return _compiled_kinds(pattern)


@lru_cache(maxsize=4096)  # catalogs repeat their patterns
def _compiled_kinds(pattern: str) -> frozenset[str]:
    import re2

    options = re2.Options()
    options.log_errors = False
    options.max_mem = 1 << 20
    try:
        compiled = re2.compile(pattern, options)
    except Exception:  # re2.error, or a pattern it rejects in other ways
        return frozenset()
    if any(compiled.search(plain) is not None for plain in _PLAIN):
        return frozenset()
    return frozenset(name for name, kind in KINDS.items()
                     if any(compiled.search(sample) is not None for sample in kind.samples))


def _common_parameters(tools: Sequence[Tool]) -> frozenset[tuple[str, str]]:
    """The (server, parameter name) pairs that half or more of a server's tools have, on a
    server of COMMON tools or more: its boilerplate (the user's e-mail every Google
    Workspace tool takes to sign in, Azure's subscription), which says which server, not
    which of its tools."""
    servers: dict[str, int] = {}
    seen: dict[tuple[str, str], int] = {}
    for tool in tools:
        servers[tool.server] = servers.get(tool.server, 0) + 1
        schema = tool.parameters
        properties = schema.get("properties") if isinstance(schema, Mapping) else None
        if isinstance(properties, Mapping):
            for name in list(properties)[:200]:
                key = (tool.server, str(name)[:100])
                seen[key] = seen.get(key, 0) + 1
    return frozenset(key for key, count in seen.items()
                     if servers[key[0]] >= COMMON and 2 * count >= servers[key[0]])


def _facets(schema: Mapping[str, Any], root: Any) -> list[Mapping[str, Any]]:
    """A parameter's schema and the schemas that say what its values are: its `items`, the
    branches of its `anyOf`, `oneOf` and `allOf`, and the local `$ref`s among them
    (`#/$defs/address`), at most 12."""
    found: list[Mapping[str, Any]] = []
    stack: list[Any] = [schema]
    while stack and len(found) < 12:
        node = stack.pop()
        if not isinstance(node, Mapping):
            continue
        reference = node.get("$ref")
        if isinstance(reference, str) and reference.startswith("#/") and len(found) < 11:
            target: Any = root
            for part in reference[2:].split("/")[:4]:
                target = target.get(part) if isinstance(target, Mapping) else None
            stack.append(target)
        found.append(node)
        for key in ("anyOf", "oneOf", "allOf"):
            if isinstance(node.get(key), list):
                stack.extend(node[key][:6])
        stack.append(node.get("items"))
    return found


def _said(text: str) -> set[str]:
    """The kinds whose words `text` says."""
    found: set[str] = set()
    said = _LOWER_WORD.findall(text.lower())
    for k, word in enumerate(said):
        for kind, second in _SAYS.get(word, ()):
            if not second or (k + 1 < len(said) and said[k + 1] == second):
                found.add(kind)
    return found


# A docstring's block of arguments ("Args:", then "name (type): what it is" indented under
# it): Python MCP servers (FastMCP) write their parameters' descriptions there, not in the
# schema.
_ARGS_HEAD = re.compile(r"(?:Args|Arguments|Param(?:eter)?s?)\s*:\s*")
_ARG_LINE = re.compile(r"\*{0,2}([A-Za-z_][A-Za-z0-9_]{0,99})\*{0,2}\s*(?:\([^()]{0,100}\))?\s*:"
                       r"\s*(.*)")
_DOCUMENTED = 20_000  # characters of a description read for its block of arguments


def documented(description: str) -> dict[str, str]:
    """What a description's block of arguments says of each parameter, by name: the lines
    indented under "Args:" (or "Parameters:"), each "name: text" with its continuation
    lines; the block ends at a line indented no more than its head. One pass."""
    found: dict[str, list[str]] = {}
    if "Arg" not in description and "Param" not in description:
        return {}
    head: int | None = None
    name = ""
    level = 0
    for line in description[:_DOCUMENTED].splitlines():
        stripped = line.lstrip()
        if not stripped:
            continue
        indent = len(line) - len(stripped)
        if head is None:
            if _ARGS_HEAD.fullmatch(stripped):
                head, name = indent, ""
            continue
        if indent <= head:
            head = None
            if _ARGS_HEAD.fullmatch(stripped):
                head, name = indent, ""
            continue
        entry = _ARG_LINE.fullmatch(stripped)
        if entry and (not name or indent <= level):
            name, level = entry.group(1), indent
            found.setdefault(name, []).append(entry.group(2))
        elif name:
            found[name].append(stripped)
    return {name: " ".join(lines) for name, lines in found.items()}


def _parameter_kinds(name: str, schema: Mapping[str, Any], root: Any, docstring: str = ""
                     ) -> tuple[set[str], set[str], str]:
    """The kinds of value one parameter takes, the identifier prefixes of the values it
    shows, and its description (its schema's, then what the tool's docstring says of it)."""
    taken: set[str] = set()
    prefixes: set[str] = set()
    descriptions: list[str] = []
    facets = _facets(schema, root)
    if docstring:
        facets.append({"description": docstring})
    for facet in facets:
        description = facet.get("description")
        description = description[:2000] if isinstance(description, str) else ""
        title = facet.get("title")
        descriptions.append(description)
        # what is said in parentheses is an aside ("Message text (<url|label> links)")
        aside = _ASIDE.sub(" ", description) if "(" in description else description
        said = f"{title if isinstance(title, str) else ''} {aside}"
        fmt = facet.get("format")
        if isinstance(fmt, str) and fmt in _FORMATS:
            taken.add(_FORMATS[fmt])
        taken |= _said(said)
        taken |= _pattern_kinds(facet.get("pattern"))
        for shown in _shown(facet, description):
            value = recognise(shown)
            if value is not None:
                taken.add(value.kind)
                if value.prefix:
                    prefixes.add(value.prefix)
    taken |= _said(split_name(name))
    return taken, prefixes, " ".join(descriptions)


def _tool_side(tools: Sequence[Tool]) -> Taken:
    """One pass over every tool's parameters (see the module docstring)."""
    import numpy as np

    kinds: dict[str, set[int]] = {}
    prefixes: dict[str, set[int]] = {}
    objects: dict[str, set[int]] = {}
    common = _common_parameters(tools)
    for i, tool in enumerate(tools):
        docs = documented(tool.description)
        for whole_name, schema in schema_parameters(tool.parameters):
            name = whole_name[:100]
            if not isinstance(schema, Mapping) or (tool.server, name) in common:
                continue
            taken, shown_prefixes, description = _parameter_kinds(
                name, schema, tool.parameters, docs.get(name, "")[:2000])
            for prefix in shown_prefixes:
                prefixes.setdefault(prefix, set()).add(i)
            for kind_name in taken:
                kinds.setdefault(kind_name, set()).add(i)
            words = [w.lower() for w in split_name(name).split()]
            if words and words[-1] in _ID_WORDS:
                for word in words[:-1] or split_name(tool.name[:200]).lower().split():
                    objects.setdefault(word, set()).add(i)
                for upper in _UPPER.findall(description):
                    if not upper.isdigit():
                        prefixes.setdefault(upper.lower(), set()).add(i)

    def arrays(found: dict[str, set[int]]) -> dict[str, np.ndarray]:
        return {key: np.array(sorted(members), dtype=np.int64) for key, members in found.items()}

    by_letter: dict[str, list[tuple[str, np.ndarray]]] = {}
    for word, members in arrays(objects).items():
        by_letter.setdefault(word[0], []).append((word, members))
    return Taken(arrays(kinds), arrays(prefixes),
                 {letter: tuple(found) for letter, found in by_letter.items()})


class Values:
    """TAKES and PREFIX evidence for each tool (see the module docstring). `keep`, given
    how to make the tool side, returns it from where it was kept (the persisted index,
    toolcat.search.index), or made and kept there."""

    def __init__(self, tools: Sequence[Tool],
                 keep: Callable[[Callable[[], Taken]], Taken] | None = None) -> None:
        self._tools = tools
        self._keep = keep
        self._taken: Taken | None = None
        self._building = threading.Lock()

    @property
    def taken(self) -> Taken:
        """The tool side, read on first use."""
        if self._taken is None:
            with self._building:
                if self._taken is None:
                    def make() -> Taken:
                        return _tool_side(self._tools)

                    self._taken = make() if self._keep is None else self._keep(make)
        return self._taken

    def evidence(self, request: str) -> np.ndarray:
        """Per tool: the mean over the kinds of value `request` names of each kind's weight
        (`_weight`) when the tool's parameters take it, plus PREFIX for each identifier it
        names whose prefix one of them describes."""
        import numpy as np

        found = np.zeros(len(self._tools))
        values = request_values(request)
        if not values:
            return found
        taken = self.taken
        kinds = {value.kind for value in values}
        for kind in kinds:
            members = taken.kinds.get(kind)
            if members is not None:
                found[members] += self._weight(members) / len(kinds)
        for _, members in self._prefixed(values, taken):
            found[members] += PREFIX
        return found

    def _weight(self, members: np.ndarray) -> float:
        """The evidence of taking a kind of value that `members` take: TAKES per nat of its
        idf, at most TAKES_MAX."""
        import math

        return min(TAKES_MAX, TAKES * math.log(len(self._tools) / len(members)))

    @staticmethod
    def _prefixed(values: Sequence[Value], taken: Taken) -> list[tuple[Value, np.ndarray]]:
        """Each identifier of `values` whose prefix a parameter describes, with the tools
        those parameters belong to."""
        import numpy as np

        found = []
        for value in values:
            if value.kind not in _IDENTIFIERS or not value.prefix:
                continue
            members = [taken.prefixes[value.prefix]] if value.prefix in taken.prefixes else []
            if value.kind != "key":  # a key's prefix names a project, not what it is
                members += [tools for word, tools in taken.objects.get(value.prefix[0], ())
                            if abbreviates(value.prefix, word)]
            if members:
                found.append((value, np.unique(np.concatenate(members))))
        return found

    def explained(self, request: str, index: int) -> tuple[float, str]:
        """The evidence of `index` for `request` and what it says, for `--explain` ("" when
        none)."""
        values = request_values(request)
        if not values:
            return 0.0, ""
        taken = self.taken
        kinds = list(dict.fromkeys(value.kind for value in values))
        takes = [kind for kind in kinds if kind in taken.kinds and index in taken.kinds[kind]]
        prefixed = [value.text for value, members in self._prefixed(values, taken)
                    if index in members]
        said = []
        if takes:
            said.append(f"it takes the {' and the '.join(KINDS[k].said for k in takes)} the "
                        f"request names")
        if prefixed:
            said.append(f"a parameter of it describes ids like {', '.join(prefixed)}")
        amount = sum(self._weight(taken.kinds[k]) for k in takes) / len(kinds)
        return amount + PREFIX * len(prefixed), "; ".join(said)
