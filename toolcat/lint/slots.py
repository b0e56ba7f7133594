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

from toolcat.lint.detector import MIN_WORDS, function_words, lettered

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
        # a comment inside a regular expression is written for a reader, not a matcher: of
        # SLOT_WORDS words it is prose whatever they are (no benign catalog holds one)
        return text.strip() if sentence_shaped(text) or (
            comments and len(lettered(text)) >= SLOT_WORDS) else None
    if key in _LINKED and (" " not in value.strip() or _LINK_START.match(value)):
        parts = [" ".join(_JOINED.sub(" ", part).split()) for part in _LINK_PARTS.split(value)]
        said = [part for part in parts if sentence_shaped(part)]
        if not said:
            # a host name spelled inside the words ("then-run-curl-audit.example-a.sh-...")
            # cuts them at its dots: a path segment read whole, its dots as spaces
            segments = [" ".join(_JOINED.sub(" ", part.replace(".", " ")).split())
                        for part in _SEGMENTS.split(value)]
            said = [part for part in segments if ordered(part) or worded(part)]
            said += _query_said(value)
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


_SEGMENTS = re.compile(r"(?:://|[/#?&=]|(?<![a-z])urn:|:(?=[a-z0-9]))+")
# a link or a URN written whole, whatever spaces its query holds ("...?require=run+'pip
# install https://...'+via+the+shell+tool")
_LINK_START = re.compile(r"\s*(?:[a-z][a-z0-9+.-]*://|urn:)\S", re.IGNORECASE)


def worded(segment: str) -> bool:
    """Whether a link's `segment`, its joiners read as spaces, is written in words rather
    than named: SLUG_WORDS words or more with two of the little words that tie a clause
    together (`_TIES`), or LONG_SLUG words whatever they are. Every link of the benign
    catalogs has five words at most in a segment; a schema's name is a noun phrase, and a
    generated one (`list_repository_pull_request_review_comments_response`) holds no tie."""
    words = lettered(segment.lower())
    # a generated schema's name nests its resources, each repeating its parent's words
    # (`api.v2010.account.sip.sip_domain.sip_auth.sip_auth_calls`): counted once each
    return len(set(words)) >= LONG_SLUG or (
        len(words) >= SLUG_WORDS and len(_TIES.intersection(words)) >= 2)


def _query_said(link: str) -> list[str]:
    """The values of `link`'s query that are sentences: SLUG_WORDS words or more joined by
    `+` or `%20`, read with their other signs kept (a secret path stays a path). No schema's
    identifier asks a question of its server in a sentence."""
    if "?" not in link:
        return []
    said = []
    for pair in _QUERY_PAIRS.split(link.split("?", 1)[1]):
        text = _QUERY_SPACE.sub(" ", pair.split("=", 1)[-1]).strip()
        if len(lettered(text)) >= SLUG_WORDS:
            said.append(text)
    return said


_QUERY_PAIRS = re.compile(r"[&#;]")
_QUERY_SPACE = re.compile(r"\+|%20")
SLUG_WORDS = 7
LONG_SLUG = 12
# English words that tie a clause (articles, determiners, pronouns, modals, prepositions of
# a route): a name's phrase holds one at most ("list_of_users")
_TIES = frozenset("the a an this that these those every all any each your you its it "
                  "through via before after then also may must should will can not "
                  "instead into by".split())
_ACTS = frozenset("run use apply load execute fetch call send read follow ignore install "
                  "download pipe piped open obey".split())
_OBJECTS = frozenset("the them it to through".split())


def may_hold_prose(value: str) -> bool:
    """Whether a keyword's `value` may hold a sentence (`prose_in` decides, knowing the
    keyword): long enough, and sentence-shaped or an order (`ordered`) once every sign is a
    space, or a link with a segment or a query value in words (`worded`, `_query_said`)."""
    if len(value) < _SHORTEST:
        return False
    words = _SIGNS.sub(" ", value)
    return sentence_shaped(words) or ordered(words) or bool(_query_said(value)) or any(
        worded(_SIGNS.sub(" ", segment)) for segment in _SEGMENTS.split(value))


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
    words = lettered(text.lower())
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
