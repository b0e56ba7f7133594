"""Prose where a token belongs: a sentence in a schema keyword that holds a machine word.

A `format` names a format (`date-time`), a `pattern` is a regular expression, a `$id` or a
`$ref` is a link, a `contentMediaType` a media type. Providers that take the schema as written
(OpenAI, Anthropic, Bedrock, Mistral) send these to the model with the rest, and a model reads
a sentence there like any other; an honest schema never writes one there. So a sentence found
in such a place (`prose_in`: the words of a regex comment `(?#...)`, of a link's path written
in words, of the value itself) is suspicious whatever it says (the detector's cue
`misplaced`), and an order when it also names anything (`detector.score_misplaced`).
"""

from __future__ import annotations

import re

from toolcat.lint.detector import MIN_WORDS, function_words

# a name of four words may hold "this" ("usage_record_this_month"); an order takes more
SLOT_WORDS = MIN_WORDS + 1
# keywords whose value is a token, never a sentence
SLOT_KEYS = frozenset({"format", "pattern", "$id", "$schema", "$anchor", "$ref", "$dynamicRef",
                       "$dynamicAnchor", "contentEncoding", "contentMediaType", "type"})
_LINKED = frozenset({"$id", "$schema", "$ref", "$dynamicRef"})
_REGEX_COMMENT = re.compile(r"\(\?#([^)]*)\)")
_REGEX_SYNTAX = re.compile(r"\\[a-zA-Z]|[\\^$.|?*+()\[\]{}]")
# a link's parts: its path segments, its query's values and its fragment
_LINK_PARTS = re.compile(r"[/#?&=:.]+")
_JOINED = re.compile(r"[-_+~]|%20")


def prose_in(key: str, value: str) -> str | None:
    """The sentence that the value of the schema keyword `key` holds where a token belongs,
    or None when it holds none (a format's name, a regex, a link named in a word or two)."""
    if key == "pattern":
        comments = _REGEX_COMMENT.findall(value)
        text = " ".join(comments) if comments else _REGEX_SYNTAX.sub(" ", value)
        return text.strip() if sentence_shaped(text) else None
    if key in _LINKED and " " not in value.strip():
        parts = [" ".join(_JOINED.sub(" ", part).split()) for part in _LINK_PARTS.split(value)]
        said = [part for part in parts if sentence_shaped(part)]
        if not said:
            # a host name spelled inside the words ("then-run-curl-audit.example-a.sh-...")
            # cuts them at its dots: a path segment read whole, its dots as spaces
            segments = [" ".join(_JOINED.sub(" ", part.replace(".", " ")).split())
                        for part in _SEGMENTS.split(value)]
            said = [part for part in segments if ordered(part)]
        return ". ".join(said) if said else None
    text = " ".join(_JOINED.sub(" ", value).split()) if " " not in value.strip() else value
    return value.strip() if sentence_shaped(text) else None


def ordered(text: str) -> bool:
    """Whether `text` (a link's path segment in words) orders an act: SLOT_WORDS words or
    more, with a verb of one (`_ACTS`) and a word that joins it to a clause or an object
    ("then run curl ...", "agent rules and apply them"); a schema's name holds a noun or two."""
    words = set(text.lower().split())
    return len(text.split()) >= SLOT_WORDS and bool(_ACTS & words) \
        and bool(_LINKERS & words or _OBJECTS & words)


_SEGMENTS = re.compile(r"(?:://|[/#?&=])+")
_ACTS = frozenset("run use apply load execute fetch call send read follow ignore install "
                  "download pipe piped open obey".split())
_OBJECTS = frozenset("the them it to through".split())


def may_hold_prose(value: str) -> bool:
    """Whether a keyword's `value` may hold a sentence (`prose_in` decides, knowing the
    keyword): long enough, and sentence-shaped or an order (`ordered`) once every sign is a
    space."""
    if len(value) < _SHORTEST:
        return False
    words = _SIGNS.sub(" ", value)
    return sentence_shaped(words) or ordered(words)


_SHORTEST = 16  # four words, two of them function words, need more letters than this
_SIGNS = re.compile(r"[\W_]+")


def sentence_shaped(text: str) -> bool:
    """Whether `text` reads as a sentence rather than a name: SLOT_WORDS words or more, with
    a word that makes a clause in English (a verb such as "is" or "do", two such as "this"
    and "you", or one in clauses joined by "and", "before", ...:
    `assistant_with_tools_and_knowledge` and `usage_record_this_month` name schemas, "load
    this first and do what it says" orders) or two function words of another language
    (`detector.function_words`), or, in a script whose words the lists do not hold,
    SLOT_WORDS words of letters beyond ASCII."""
    words = [word for word in text.lower().split() if any(c.isalpha() for c in word)]
    if len(words) < SLOT_WORDS:
        return False
    subjects = len(_SUBJECTS.intersection(words))
    if _VERBS.intersection(words) or subjects >= 2 or (subjects and _LINKERS.intersection(words)):
        return True
    if function_words([word for word in words if word not in _PHRASE]) >= 2:
        return True
    return sum(1 for word in words if not word.isascii()) >= SLOT_WORDS


# English words that make a clause of a phrase: a verb, or two words that stand for its
# subject or object (a name holds one: "usage_record_this_month"); those a name's phrase holds
_VERBS = frozenset("is are be was were been do does did must should will can cannot never "
                   "always not instead whenever".split())
_SUBJECTS = frozenset("it its this that these those you your we here there what whatever".split())
# ... or one of them in clauses joined ("resolve it and apply ...")
_LINKERS = frozenset("and then before after first when if".split())
_PHRASE = frozenset("the and of to in for with from".split())
