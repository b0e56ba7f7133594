"""Text preparation shared by the lexical scorers: tokens of queries and of tools."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator, Mapping, Sequence
from functools import lru_cache
from itertools import islice, pairwise
from typing import Any, Protocol

from toolcat import cjk as cjk_letters
from toolcat.model import Tool

# a camelCase boundary: before an upper-case letter that follows a lower-case letter or digit,
# or that starts a word after an acronym (`HTTPServer`); matched on the upper-case letter, since
# re scans for a rare first character far faster than it tries lookarounds at every position
_CAMEL = re.compile(r"[A-Z](?:(?<=[a-z0-9][A-Z])|(?<=[A-Z][A-Z])(?=[a-z]))")


def split_camel(text: str) -> str:
    """`getWeatherNow` -> `get Weather Now`: a space at every camelCase boundary."""
    return _CAMEL.sub(_spaced, text)


def _spaced(match: re.Match[str]) -> str:
    # a function, not the template r" \g<0>": on Python 3.11 re expands a template in Python
    # at every match, twice as slow (lint splits every string of a catalog)
    return " " + match.group()


# The words of a tool or a request split as `split_camel` does, except that an acronym's plural
# is one word ("GPUs", "PRs", "VMs", "getAPIsForUser"): split before its "s", it was read as
# "GP" and "Us", "rs", "ms" (`words` drops a one-letter part), so "which GPUs" met no `gpu` and
# "VMs" met every "ms" of a duration. `_PLURAL` then reads the acronym as its singular.
_CAMEL_WORD = re.compile(r"[A-Z](?:(?<=[a-z0-9][A-Z])|(?<=[A-Z][A-Z])(?=[a-z])(?!s(?![a-z])))")
# an acronym's plural as a part of a word: two or more capitals (a digit may follow the first)
# and a lower-case "s"; read as the acronym ("GPUs" -> GPU), as the stemmer reads "gpus"
# ("pus", "us": it keeps the s) it would never meet "gpu"
_PLURAL = re.compile(r"[A-Z][A-Z0-9]*[A-Z]s")


def acronym_plurals(text: str) -> list[tuple[str, str]]:
    """The acronyms' plurals `text` holds, each with the acronym read for it, each once:
    "which GPUs and VMs" -> [("GPUs", "GPU"), ("VMs", "VM")]."""
    found: dict[str, str] = {}
    for raw in _WORD.findall(text):
        if len(raw) > 2 and not raw[1:].islower():
            for part in _camel_parts(raw):
                if _PLURAL.fullmatch(part):
                    found.setdefault(part, part[:-1])
    return list(found.items())


def plurals_said(plurals: Sequence[tuple[str, str]]) -> str:
    """How `--explain` says the acronyms' plurals a request holds were read: "'GPUs' read as
    the plural of GPU"."""
    return ", ".join(f"{plural!r} read as the plural of {acronym}"
                     for plural, acronym in plurals)


def _camel_parts(raw: str) -> list[str]:
    """The parts of one alphanumeric run at its camelCase boundaries (`_CAMEL_WORD`), as
    written."""
    cuts = [0, *(m.start() for m in _CAMEL_WORD.finditer(raw)), len(raw)]
    return [raw[begin:end] for begin, end in pairwise(cuts)]


def _singular(part: str) -> str:
    """A part of a word, an acronym's plural read as the acronym (`_PLURAL`)."""
    return part[:-1] if _PLURAL.fullmatch(part) else part


# Chinese, Japanese and Korean text has no spaces between its words: a run of their letters
# is one "word" here and is read as its overlapping pairs of letters (`_bigrams`), as Lucene's
# CJK analyzer does, so "报错日志" meets "日志" in a tool's description. A run of the letters
# of another script than Latin (Cyrillic, Greek, Arabic, Hebrew, Devanagari...) is a word, so
# "останови кампанию" meets a Russian description. A Latin word is read whole, its accented
# letters included ("personnalisé", "Größe", "ücret"), and matched without its marks (`fold`).
_OTHER_LETTERS = (rf"[^\W\d_A-Za-z\u00aa\u00b5\u00ba\u00c0-\u02ff\u1e00-\u1eff"
                  rf"{cjk_letters.LETTERS}{cjk_letters.JAMO}]")
# Brahmic scripts and Tibetan write a word's vowels as marks, which are not letters to `\w`
_MARKED = "\u0900-\u0dff\u0e00-\u0eff\u0f00-\u0fff\u1000-\u109f"
_OTHER_RUN = re.compile(rf"{_OTHER_LETTERS}|[{_MARKED}]")
# Latin letters: ASCII, Latin-1's letters (not × and ÷), Latin Extended-A and -B and Latin
# Extended Additional (Vietnamese); a combining mark (an accent typed apart from its letter,
# as decomposed text has it) continues a Latin word but never starts one
_LATIN = "A-Za-z0-9\u00aa\u00ba\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f\u1e00-\u1eff"
_LATIN_RUN = re.compile(rf"[{_LATIN}][{_LATIN}\u0300-\u036f]*")
_WORD = re.compile(rf"{_LATIN_RUN.pattern}|[{cjk_letters.LETTERS}]+"
                   rf"|(?:{_OTHER_LETTERS}|[{_MARKED}])+")
# the Latin letters that Unicode does not decompose into a base letter and a mark
_UNMARKED = str.maketrans({
    "ß": "ss", "ẞ": "SS", "ø": "o", "Ø": "O", "ł": "l", "Ł": "L", "đ": "d", "Đ": "D",
    "ð": "d", "Ð": "D", "ı": "i", "æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE", "þ": "th",
    "Þ": "TH"})
_CJK_RUN = re.compile(rf"[{cjk_letters.LETTERS}]")


def fold(word: str) -> str:
    """A Latin word in base letters, its case kept: `Größe` -> `Grosse`, `créer` -> `creer`,
    `Çalışan` -> `Calisan` (NFKD with the combining marks dropped, and the letters NFKD
    leaves alone spelled out), so a user who types a word without its accents meets it."""
    if word.isascii():
        return word
    decomposed = unicodedata.normalize("NFKD", word.translate(_UNMARKED))
    return "".join(c for c in decomposed if not unicodedata.combining(c))


STOPWORDS = frozenset((
    "a an and are as at be but by can could do does for from get give has have how i if in "
    "into is it its me my of on or our please show so some than that the their them then "
    "there these this those to up us want was we what when where which who why will with "
    "would you your"
).split())


def split_name(name: str) -> str:
    """`getWeatherNow`, `get_weather-now`, `math.factorial` -> words separated by spaces."""
    return " ".join(split_camel(part) for part in _WORD.findall(name))


def words(text: str) -> list[str]:
    """Lower-case words, camelCase split, Latin ones in base letters (`fold`), one-letter
    words dropped."""
    parts = _parts
    return [w for raw in _WORD.findall(text)
            for w in (parts[raw] if raw in parts else _split(raw)[0])]


def terms(text: str) -> list[str]:
    """`words` without stop words: what a query is matched on."""
    kept = _kept
    return [w for raw in _WORD.findall(text)
            for w in (kept[raw] if raw in kept else _split(raw)[1])]


# Catalogs repeat the same few ten thousand words: each raw word is split, filtered and
# stemmed once per process. Bounded, since every text may come from a stranger.
_CACHE_LIMIT = 500_000
_parts: dict[str, tuple[str, ...]] = {}  # raw word -> its lower-case parts (words)
_kept: dict[str, tuple[str, ...]] = {}  # raw word -> its parts that are not stop words (terms)
_stems: dict[str, tuple[str, ...]] = {}  # raw word -> the stems of its terms (stems)


def _split(raw: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The words and terms of one alphanumeric run. A camelCase boundary needs an upper-case
    letter after the first character, so most words skip the regular expression."""
    if len(_parts) > _CACHE_LIMIT:
        _parts.clear()
        _kept.clear()
        _stems.clear()
    if _CJK_RUN.match(raw):
        split = _bigrams(raw)
    else:
        word = raw if raw.isascii() or _OTHER_RUN.match(raw) else fold(raw)
        if word[1:].islower() or not any(c.isupper() for c in word[1:]):
            split = [word.lower()]
        else:
            split = [_singular(part).lower() for part in _camel_parts(word)]
    found = tuple(w for w in split if len(w) > 1 or _CJK_RUN.match(w))
    kept = tuple(w for w in found if w not in STOPWORDS)
    _parts[raw] = found
    _kept[raw] = kept
    return found, kept


def cjk(term: str) -> bool:
    """Whether `term` is a pair of CJK letters (or one alone), as `words` reads such text."""
    return _CJK_RUN.match(term) is not None


def other_script(term: str) -> bool:
    """Whether `term` is a word of a script other than Latin and CJK (`words`)."""
    return _OTHER_RUN.match(term) is not None


# the letters of one CJK run read as pairs: Chinese text breaks its runs with punctuation
# (，。), and a stranger's run of a million letters must not become a million kept pairs
MAX_RUN = 1000


def _bigrams(run: str) -> list[str]:
    """A run of CJK letters as its overlapping pairs ("报错日志" -> 报错, 错日, 日志), of its
    first MAX_RUN letters; a letter alone stays itself. Bigrams need no dictionary, and a
    request's pairs meet a description's wherever they share a word of two letters or more."""
    if len(run) == 1:
        return [run]
    return [run[k:k + 2] for k in range(min(len(run), MAX_RUN) - 1)]


def located(text: str) -> Iterator[tuple[int, int, str]]:
    """The words of `text` as `words` reads them, each with the span it was read from: a
    camelCase part's own, an accented word's whole (`météo` -> meteo), a CJK pair's two
    letters."""
    for match in _WORD.finditer(text):
        raw, start = match.group(), match.start()
        if _CJK_RUN.match(raw):
            for k, pair in enumerate(_bigrams(raw)):
                yield start + k, start + k + len(pair), pair
            continue
        cuts = [0, *(m.start() for m in _CAMEL_WORD.finditer(raw)), len(raw)]
        for begin, end in pairwise(cuts):
            part = _singular(raw[begin:end])
            word = (part if part.isascii() or _OTHER_RUN.match(part) else fold(part)).lower()
            if len(word) > 1:
                yield start + begin, start + end, word


def raw_words(text: str) -> list[str]:
    """The alphanumeric runs of `text`, as written (before camelCase splitting)."""
    return _WORD.findall(text)


def word_stems(raw: str) -> tuple[str, ...]:
    """The stems of one alphanumeric run (what `stems` gives for it), cached."""
    found = _stems.get(raw)
    if found is None:
        kept = _kept[raw] if raw in _parts else _split(raw)[1]
        stemmer = snowball(_SCRIPT_LANGUAGES.get(_script(raw), "english"))
        found = _stems[raw] = tuple(stemmer.stemWords(kept)) if kept else ()
    return found


def stems_in(raw: str, language: str) -> tuple[str, ...]:
    """The stems of one Latin run by the Snowball stemmer of `language` ("french"), in base
    letters; a run of another script has its `word_stems`. Cached, within bounds.

    A word is stemmed as written, then folded: the stemmers read the marks (Turkish suffixes
    follow the vowels: "maaşı" -> "maaş", but "maasi" is no inflected form), so a word typed
    without them has the stem of its plain spelling, which is still the accented word's
    English-stemmed reading (`word_stems`)."""
    key = (raw, language)
    found = _stems_in.get(key)
    if found is None:
        if len(_stems_in) > _CACHE_LIMIT:
            _stems_in.clear()
        if not _LATIN_RUN.match(raw):
            found = word_stems(raw)
        else:
            kept = _kept[raw] if raw in _parts else _split(raw)[1]
            marked = [w for w in (_singular(p).lower() for p in _camel_parts(raw))
                      if fold(w) in kept]
            stemmer = snowball(language)
            found = tuple(fold(s) for s in stemmer.stemWords(marked)) \
                if len(marked) == len(kept) else tuple(stemmer.stemWords(kept))
        _stems_in[key] = found
    return found


_stems_in: dict[tuple[str, str], tuple[str, ...]] = {}  # (raw word, language) -> its stems


def latin(raw: str) -> bool:
    """Whether a run of `words` is a Latin one (letters and digits), not CJK or another
    script."""
    return _LATIN_RUN.match(raw) is not None


def in_language(stem: str, language: str) -> str:
    """The term of a stem by the stemmer of `language` (`french:supprim`): kept apart from
    the English stems, which every word has, so that "notes" read as French ("not") meets
    no English "not"."""
    return f"{language}:{stem}"

# PyStemmer's Snowball stemmers of the languages written in Latin letters, by the ISO 639 code
# CLD2 gives them (toolcat.languages); English is the stemmer every word has
LATIN_STEMMERS = {
    "fr": "french", "es": "spanish", "pt": "portuguese", "de": "german", "it": "italian",
    "tr": "turkish", "nl": "dutch", "sv": "swedish", "da": "danish", "no": "norwegian",
    "fi": "finnish", "hu": "hungarian", "ro": "romanian", "ca": "catalan", "id": "indonesian",
    "cs": "czech", "pl": "polish", "lt": "lithuanian", "et": "estonian", "eu": "basque",
    "ga": "irish",
}


def language_code(text: str) -> str:
    """The ISO 639 code of the language CLD2 is sure `text` is written in, or ""."""
    from toolcat.languages import identified

    return identified(text)


def tool_languages(tools: Sequence[Tool]) -> list[str]:
    """The Snowball stemmer of the Latin language other than English each tool is written in
    ("french", "turkish"), or "" (`tool_language_codes`)."""
    return [LATIN_STEMMERS.get(code, "") for code in tool_language_codes(tools)]


def tool_language_codes(tools: Sequence[Tool]) -> list[str]:
    """The ISO 639 code of the language each tool is written in, or "": its description's
    language as CLD2 names it, else (a description too short to tell) the language most of
    its server's other tools are in."""
    codes = [language_code(t.description) if t.description else "" for t in tools]
    of_server: dict[str, dict[str, int]] = {}
    for tool, code in zip(tools, codes, strict=True):
        if code:
            counts = of_server.setdefault(tool.server, {})
            counts[code] = counts.get(code, 0) + 1
    usual = {server: max(counts, key=lambda c: counts[c]) for server, counts in of_server.items()
             if max(counts.values()) * 2 > sum(counts.values())}
    return [code or usual.get(tool.server, "") for tool, code in zip(tools, codes, strict=True)]


# the Snowball stemmer of a script's main language, where PyStemmer has one: a word of
# another script is stemmed as it (Ukrainian as Russian: the same on both sides of a match)
_SCRIPT_LANGUAGES = {"cyrillic": "russian", "greek": "greek", "arabic": "arabic"}
_SCRIPTS = ((0x0370, 0x03FF, "greek"), (0x0400, 0x052F, "cyrillic"), (0x0600, 0x06FF, "arabic"))


def _script(raw: str) -> str:
    """The script of a word by its first letter: `greek`, `cyrillic`, `arabic` or ``."""
    first = ord(raw[0])
    return next((name for low, high, name in _SCRIPTS if low <= first <= high), "")


def whole_words(text: str) -> list[str]:
    """The stems of the camelCase words of `text` taken whole (`GitLab` -> `gitlab`): how a
    name written in one case or the other ("gitlab", a server's name) still meets it."""
    return [stem(fold(raw).lower()) for raw in _WORD.findall(text)
            if len(raw) > 2 and not raw[1:].islower() and len(words(raw)) > 1]


# How far `schema_parameters` reads a schema: the schemas it visits, and the items of a list
# and the properties of an object it takes; every schema may come from a stranger.
SCHEMA_NODES = 2000
SCHEMA_WIDTH = 200


def schema_parameters(schema: Any) -> Iterator[tuple[str, Any]]:
    """(name, schema) of every property of a schema, nested ones included (in `properties`,
    `items`, `anyOf`, `oneOf`, `allOf`, `$defs` and `definitions`), within SCHEMA_NODES
    schemas visited and SCHEMA_WIDTH items of a list or properties of an object."""
    stack, seen = [schema], 0
    while stack and seen < SCHEMA_NODES:
        node = stack.pop()
        seen += 1
        if isinstance(node, list):
            stack.extend(node[:SCHEMA_WIDTH])
            continue
        if type(node) is not dict and not isinstance(node, Mapping):  # the ABC check is slow
            continue
        properties = node.get("properties")
        if isinstance(properties, Mapping):
            for name, sub in islice(properties.items(), SCHEMA_WIDTH):
                yield str(name), sub
        for key in ("properties", "items", "anyOf", "oneOf", "allOf", "$defs", "definitions"):
            value = node.get(key)
            if isinstance(value, Mapping) and key in ("properties", "$defs", "definitions"):
                stack.extend(value.values())
            elif value is not None:
                stack.append(value)


def parameter_texts(schema: Any) -> Iterator[tuple[str, str]]:
    """(name, description) of every property in a schema (`schema_parameters`)."""
    for name, sub in schema_parameters(schema):
        description = sub.get("description", "") if type(sub) is dict or isinstance(
            sub, Mapping) else ""
        yield name, description if isinstance(description, str) else ""


def example_values(tool: Tool, limit: int = 24) -> list[str]:
    """The strings of the tool's example calls (`examples`) and of `examples` keywords in its
    schema, the first `limit` of them: values its author expects, which a request may name
    ("the weather in Tokyo" for a tool called with `{location: Tokyo}`)."""
    found: list[str] = []
    stack: list[Any] = [*reversed(tool.examples)]
    schemas: list[Any] = [tool.parameters]
    while schemas:
        node = schemas.pop()
        if isinstance(node, Mapping):
            if isinstance(node.get("examples"), list):
                stack.extend(reversed(node["examples"]))
            schemas.extend(v for v in node.values() if isinstance(v, (Mapping, list)))
        elif isinstance(node, list):
            schemas.extend(node)
    while stack and len(found) < limit:
        item = stack.pop()
        if isinstance(item, str):
            found.append(item[:200])
        elif isinstance(item, Mapping):
            stack.extend(reversed(list(item.values())))
        elif isinstance(item, list):
            stack.extend(reversed(item))
    return found


def stem(word: str) -> str:
    """The Snowball (Porter 2) English stem of a lower-case word: `messages` -> `messag`."""
    return snowball().stemWord(word)


class _Stemmer(Protocol):
    """What toolcat uses of a PyStemmer stemmer (the package has no type hints)."""

    def stemWord(self, word: str) -> str: ...

    def stemWords(self, words: Sequence[str]) -> list[str]: ...


@lru_cache(maxsize=32)
def snowball(language: str = "english") -> _Stemmer:
    """The Snowball stemmer of `language` (PyStemmer's name for it), made once."""
    import Stemmer  # PyStemmer: the Snowball stemmers in C

    stemmer: _Stemmer = Stemmer.Stemmer(language)
    return stemmer


def stems(text: str) -> list[str]:
    """`terms` reduced to their stems: what the ranking scorers match on."""
    cached = _stems
    return [s for raw in _WORD.findall(text)
            for s in (cached[raw] if raw in cached else word_stems(raw))]


def stop_words_in(text: str, stop: frozenset[str]) -> tuple[frozenset[str], list[str]]:
    """The stems of the words of `text` that are in `stop` (lower-case, in base letters:
    `stop_words`), and those words as written, each once."""
    found: dict[str, None] = {}
    for raw in _WORD.findall(text):
        if not _CJK_RUN.match(raw) and fold(raw).lower() in stop:
            found[raw] = None
    return frozenset(s for raw in found for s in word_stems(raw)), list(found)


# stopwords-iso's lists are long (691 French words): past the articles, prepositions,
# pronouns and auxiliaries of three letters or fewer (le, un, du, est, el, на, ne) they hold
# words a request means ("depuis" since, "plus de" more than, "último" latest, "bulan" month)
STOP_WORD_LETTERS = 3


@lru_cache(maxsize=64)
def stop_words(code: str) -> frozenset[str]:
    """The stop words of the language of ISO 639 code `code` other than English ("fr": le,
    est, un, du, sur...), lower-case in base letters, from stopwords-iso (`stopwordsiso`,
    its lists inside the wheel); empty for English (whose few are STOPWORDS) and for a
    language it has no list for. Only the words `words` reads whole are kept: a list's
    phrases ("des de") and its Chinese, Japanese and Korean entries are not."""
    if not code or code == "en":
        return frozenset()
    import stopwordsiso

    if not stopwordsiso.has_lang(code):
        return frozenset()
    return frozenset(
        folded for word in stopwordsiso.stopwords(code)
        for folded in (fold(word).lower(),)
        if _WORD.fullmatch(word) and not _CJK_RUN.match(word)
        and 1 < len(folded) <= STOP_WORD_LETTERS)


# Values a request names: a URL, an e-mail address, a path, a file name. Their words are
# data for a tool's arguments, not what the request asks for: "grab the text of
# https://example.org/post" is not about posting, "show me notes.txt" not about notes. A file's
# extension stays, as the kind of file it is (`png`: an image). Requests are split on white space
# and each piece is matched whole, so a hostile request costs linear time.
_EDGES = "\"'`()[]{}<>,;:!?"
_URL = re.compile(r"(?:[A-Za-z][A-Za-z0-9+.-]*://|www\.)\S+")
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_PATH = re.compile(r"(?:~|\.{1,2})?/[\w.~-]+(?:/[\w.~-]+)*/?|[\w.~-]+(?:/[\w.~-]+)+")
_FILE = re.compile(r"[\w-]+(?:\.[\w-]+)*\.([A-Za-z0-9]{1,5})")


def without_values(text: str) -> str:
    """`text` with the URLs, e-mail addresses, paths and file names it names replaced by their
    file extensions, when they have a known one (`mimetypes`' own table, not the system's):
    what a request asks for, as against the values it hands over."""
    if "." not in text and "/" not in text and "@" not in text:
        return text
    return " ".join(_request_part(piece) for piece in text.split())


def _request_part(piece: str) -> str:
    """One white-space separated piece of a request: as it is, or the extension of the value
    it is (or nothing; see `without_values`)."""
    core = piece.strip(_EDGES).rstrip(".")
    if not core or not any(c in core for c in "./@"):
        return piece
    if _URL.fullmatch(core):
        # the host names a service, as a server's name does (acme.slack.com): it stays
        address = core.split("://", 1)[-1].split("?")[0].split("#")[0]
        host, _, path = address.partition("/")
        labels = host.split(":")[0].split(".")
        kept = [label for label in labels[:-1] if label.lower() != "www"]
        return " ".join([*kept, _known_extension(path)]).strip()
    if _EMAIL.fullmatch(core):
        return ""
    if _PATH.fullmatch(core) and (core[0] in "/~." or _known_extension(core)):
        return _known_extension(core)
    if _FILE.fullmatch(core) and _known_extension(core):
        return _known_extension(core)
    return piece


def _known_extension(value: str) -> str:
    """The extension of the file `value` ends in, if it is one of a known type, else ""."""
    tail = value.rstrip("/").rsplit("/", 1)[-1]
    if "." not in tail:
        return ""
    extension = tail.rsplit(".", 1)[1]
    return extension if extension and _known_type(extension) else ""


@lru_cache(maxsize=4096)
def _known_type(extension: str) -> bool:
    return _types().guess_type(f"x.{extension}", strict=False)[0] is not None


@lru_cache(maxsize=1)
def _types() -> Any:
    import mimetypes

    return mimetypes.MimeTypes(filenames=())  # the built-in table: the same on every machine


_IDENTIFIER = re.compile(r"[_.]|[a-z][A-Z]")
_CLAUSE = re.compile(r"\(?[^.;!?()]+(?:[.;!?]+(?=\s|$)|[.;!?]+|\)|(?=\()|$)")
_NAME_TOKEN = re.compile(r"[A-Za-z_][\w.-]*\w")


def identifier_names(tools: Iterable[Tool]) -> frozenset[str]:
    """The tool names that cannot be ordinary words (`get_weather`, `math.hypot`, `sendMail`)."""
    return frozenset(t.name for t in tools if _IDENTIFIER.search(t.name))


# A sentence repeated in this many descriptions of one server is its boilerplate ("Use this
# for a known resource or result; choose the corresponding list or search tool ...", "Error
# Responses: 400: Bad request"): it tells which server, not which of its tools. Three, so that
# a pair of sibling tools (get/set) keeps the sentence they share.
REPEATS = 3
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n\s*")


def sentences(text: str) -> list[str]:
    """`text` split after `.`, `!` or `?` and at line breaks, empty parts dropped."""
    return [part for part in _SENTENCE.split(text) if part.strip()]


def _normal(sentence: str) -> str:
    return " ".join(sentence.lower().split())


Repeated = frozenset[tuple[str, str]]


def repeated_sentences(tools: Iterable[Tool]) -> Repeated:
    """The (server, sentence) pairs whose sentence occurs in the descriptions of at least
    REPEATS tools of that server (sentences compared lower-case, spaces collapsed)."""
    seen: dict[tuple[str, str], int] = {}
    for tool in tools:
        if tool.description:
            for sentence in {_normal(s) for s in sentences(tool.description)}:
                key = (tool.server, sentence)
                seen[key] = seen.get(key, 0) + 1
    return frozenset(key for key, count in seen.items() if count >= REPEATS)


def tool_title(tool: Tool) -> str:
    """The tool's human-readable title (MCP `title`, else `annotations.title`), or ''."""
    title = tool.extra.get("title")
    if not isinstance(title, str) and tool.annotations:
        title = tool.annotations.get("title")
    return title[:200] if isinstance(title, str) else ""


def own_description(tool: Tool, names: frozenset[str], repeated: Repeated = frozenset()) -> str:
    """`tool`'s description without its server's boilerplate (sentences after the first that
    are `repeated`, see `repeated_sentences`) and without the clauses after the first that
    name another tool.

    "...; use weather_forecast for future days" tells a model when *not* to use this tool, so
    its words ("forecast", "future") are evidence for the other tool, not for this one. The
    first clause says what the tool does and is always kept.
    """
    text = tool.description
    if repeated and text:
        parts = sentences(text)
        kept_parts = parts[:1] + [p for p in parts[1:]
                                  if (tool.server, _normal(p)) not in repeated]
        if len(kept_parts) < len(parts):
            text = " ".join(kept_parts)
    if not names or not text:
        return text
    clauses = [m.group() for m in _CLAUSE.finditer(text) if m.group()]
    kept = clauses[:1] + [
        clause for clause in clauses[1:]
        if not any(word != tool.name and word in names for word in _NAME_TOKEN.findall(clause))]
    return text if len(kept) == len(clauses) else "".join(kept).strip()


def says_little(tool: Tool, description: str) -> bool:
    """Whether `description` (the tool's own, `own_description`) says nothing its name does
    not: empty, one word, or the name's words again ("List alert_events" for
    `list_alert_events`), as GitHub's server and generated OpenAPI servers ship many."""
    return len(set(terms(description))) <= 1


def stand_in(tool: Tool, description: str) -> str:
    """What stands for the description of a tool that `says_little`: the description it
    has, its title, the names of its first STAND_IN_PARAMETERS parameters (their
    descriptions are in the tool's whole text already) and its server's name, in words;
    `description` itself for every other tool."""
    if not says_little(tool, description):
        return description
    parts = [description.strip().rstrip("."), tool_title(tool)]
    parameters = [split_name(name) for name, _ in
                  islice(schema_parameters(tool.parameters), STAND_IN_PARAMETERS)]
    if parameters:
        parts.append("with " + ", ".join(parameters))
    return ". ".join(part for part in parts if part)


STAND_IN_PARAMETERS = 8
