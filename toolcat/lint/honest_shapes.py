"""Sentences whose form says a cue's words assert nothing the model is told to do (issue 41).

A real server's description states its own behaviour in clauses that do not happen ("replaying
it silently would double it", "the bytes never passed through the conversation"), gives a
setting's effect ("Set False to navigate silently"), lists fields or settings rather than
saying anything (`{unreadWarnings: [{id, ..., removedReason}]}`, `api_key="..."`), ranks one
credential above another ("Bearer tokens take precedence over NEXUS_API_KEY") or names a
browser session by what it holds ("the session's cookies"), says what it does not tell the
reader ("this does NOT tell you"), when a step between its own tools is due ("do that
promptly, in the same conversation,"), the shape of its output ("every key below is always
present, even when zero events match"), what a function named in code silently does
("add_vertex silently discards", `named_subject`), what it does with entries it already
handled ("Silently skip entries whose fingerprint already succeeded"), what it finds,
listed ("risks such as ..., disabled logging, and disabled rules"), a step the person must
take relayed to them ("tell the user that their bank needs them to confirm"), the rules a
setting named in code picks ("Rules listed in `ignore` are skipped"), what a deletion takes
with it ("assignments linked to the policy are also removed"), one message of a chat picked
by its id ("Quote this earlier message (message id)"), the keys of a literal object in
the vendor's language (`{"_Специализация_": "<value>"}`), the values a field takes listed
after a label ("Status: Active, Rejected, RestrictionFinished, Canceled") or what is not
revealed of people named by where they are ("for people in GDPR-compliant regions", a clause
of `not_done`) or a command the tool is compared to ("It does what `curl ... | sh` would do by
hand"). Each shape here finds the
spans of a sentence written so and names the cues it may take back; `unasserted` reads the
sentence again without those spans, and a cue of that set that no longer fires is taken out
of what makes the finding grave. The finding itself stays (a warning at most): the words
are there, only their form says they order nothing. An attack that says the same words as
an order keeps them: an imperative ("never pass", "do not put") is not a statement, the
model or a person named in the clause keeps it, and a value with a space in it is not a
listing.

Every pattern is bounded (no nested unbounded repetition) and runs once per finding, so the
time stays linear in the sentence.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from toolcat.lint import detector

# the model or a person in a clause: a clause that names either may be an order to hide
# something from someone, whatever its form
_SOMEONE = re.compile(r"\b(?:you|your|yourself|assistant|the model|agents?|llms?|users?|"
                      r"customers?|persons?|people|humans?|operators?|requesters?)\b",
                      re.IGNORECASE)
# a line given to say: a verb of saying and its "that"
_SAID = re.compile(r"\b(?:answer|say|reply|respond|tell|state|claim|confirm|report|assure"
                   r"|insist|explain|mention|write|add)\w{0,3}\b[^,;:]{0,40}\bthat\b",
                   re.IGNORECASE)
# a clause: what lies between punctuation that ends one ("," ";" ":" dashes, brackets)
_CLAUSE = re.compile(r"[^,;:()\u2014\u2013]{1,400}")

# people named by where or what they are, as those a record describes ("Personal emails will
# not be revealed for people in GDPR-compliant regions", "of users under 16"): a population
# the data is about, not someone kept from knowing ("to the user", "for the user", "from
# them"), and not the people of the conversation ("users in this chat")
_POPULATION = re.compile(
    r"\b(?:for|of|about|on) (?:all |any |most |some |many )?(?:people|persons|users|customers"
    r"|contacts|individuals|residents|citizens|members|employees|minors|children|leads"
    r"|prospects) (?:in|from|based in|located in|living in|residing in|under|over|aged|who"
    r"|whose|with|outside)\b(?! (?:the |this |that |your |a |our )?(?:chat|conversation"
    r"|session|thread|repl(?:y|ies)|answers?|messages?)\b)", re.IGNORECASE)

# a consequence that does not happen: a gerund, "it", "this" or "that" as its subject, then
# "would" ("replaying it silently would double it", "where it would otherwise overwrite the
# other edit silently"); not a wish or a judgement ("would be best", "would like")
_WOULD = re.compile(
    r"(?:\b[a-z]{2,}ing\b(?: [\w'’]{1,30}){0,4}|\b(?:it|this|that|which|doing so)) would"
    r"(?: (?:otherwise|then|also))? (?!be\b|like\b|love\b|prefer\b|rather\b|want\b|need\b"
    r"|have to\b|help\b)[a-z]+", re.IGNORECASE)

# a statement of what the tool (or its data) does not do: third person, negated, with its
# subject stated ("this does not pretend otherwise", "the bytes never passed through") or
# left out at the start of a sentence in the third person ("Never claims success"); not an
# imperative ("never pass", "do not put") and not a need ("does not need to know")
_NOT_DONE = re.compile(
    r"(?:\b(?:does|did|will|would) ?(?:not|n['’]t)"
    r"|\b(?:can ?not|can['’]t|won['’]t))"
    r" (?!need\b|have to\b|has to\b|mind\b|matter\b)(?:\w+ly )?[a-z]+"
    r"|\b(?:it|this|that|which|[a-z]{3,}s) never [a-z]+(?:s|ed)\b"
    r"|^\W*never [a-z]+(?<!s)s\b",
    re.IGNORECASE)

# a setting's effect: "Set False to navigate silently", "When ``False`` (default), continue
# past errors": a sentence that opens on a literal value of a switch
_LITERAL = r"[`'\"]{0,2}(?:true|false|yes|no|on|off|none|null|0|1)[`'\"]{0,2}"
_SETTING = re.compile(
    rf"^\W{{0,3}}(?:(?:set|pass|use) (?:it |this |the flag )?(?:to )?{_LITERAL} to\b"
    rf"|(?:when|if) (?:[`'\"]{{0,2}}\w{{1,40}}[`'\"]{{0,2}} (?:is|=) )?{_LITERAL}"
    r"(?: \(default\))?,)", re.IGNORECASE)

# a listing: a JSON shape of bare names (`{a, b: [{c, d}]}`, no quoted value: a quoted
# `"user.message": "advisory"` is a setting that may rank) or settings (`key="value" |
# "other"`), each item a name of at most two words or a value with no space in it
_SHAPE = re.compile(r"[{\[][\w\s,:.…{}\[\]|-]{0,2000}[}\]]")
_ITEM = re.compile(r"[^,:{}\[\]|]+")
_SETTINGS = re.compile(
    r"\b\w{1,40} ?= ?(?:\"[^\"\s]{0,200}\"|'[^'\s]{0,200}'|[^\s,;|\"']{1,200})"
    r"(?: ?\| ?(?:\"[^\"\s]{0,200}\"|'[^'\s]{0,200}'|\.\.\.|…))*"
    r"(?: ?\| ?(?:\.\.\.|…))?")
_WORD = re.compile(r"[^\W\d_]{2,}")
# what is left of a listing once its items are taken out: a label at most ("JSON",
# "Explicit override"), no clause
_LABEL_WORDS = detector.MIN_WORDS - 1

# one credential ranked above another: "Bearer tokens then take precedence over
# NEXUS_API_KEY", "the API key overrides the session token"
_CREDENTIAL = (r"(?:(?:\b(?:bearer|access|api|oauth|refresh|session|personal|auth)[ _-])?"
               r"\b(?:tokens?|keys?|credentials?|passwords?|secrets?|pats?)\b"
               r"|\b[A-Z][A-Z0-9]{0,30}_(?:[A-Z0-9]{1,30}_){0,3}"
               r"(?:KEY|TOKEN|SECRET|PASSWORD|CREDENTIALS?|PAT)\b)")
_RANKED = re.compile(
    rf"{_CREDENTIAL}(?: \w{{1,20}})? (?:takes?|took|has|have|gets?) (?:precedence|priority)"
    rf" over (?:the |any |an? )?(?:\w{{1,20}} )?{_CREDENTIAL}"
    rf"|{_CREDENTIAL}(?: \w{{1,20}})? (?:overrides?|wins? over|is preferred over|are preferred"
    rf" over) (?:the |any |an? )?(?:\w{{1,20}} )?{_CREDENTIAL}")

# a browser or HTTP session named by what it holds: "the session's cookies"
_SESSION_HOLDS = re.compile(r"\bsession['’]s? (?=(?:\w+ )?(?:cookies?|tokens?|headers?|"
                            r"credentials?|storage|auth\w*|csrf)\b)", re.IGNORECASE)

# what the tool itself does not tell the reader, stated as its limits: the tool, its view or
# its output as the subject, a negated verb of telling and "you" its object ("Two things this
# does NOT tell you"); not an imperative ("do not tell the user") nor a person as the subject
_UNTOLD = re.compile(
    r"\b(?:this|it|that|which|these|(?:the|this|its|each|every) (?:tool|view|output|result"
    r"|response|report|list|listing|command|endpoint|call|summary|table|count|number|figure"
    r"|flag|field|value|status|counter)s?)(?: alone| by itself)?"
    r" (?:(?:does|do|did|will|can|would) ?(?:not|n['’]t)|never|cannot|won['’]t)"
    r" (?:\w+ly )?(?:tell|tells|show|shows|say|says|give|gives) you\b", re.IGNORECASE)

# a time frame set off by punctuation: "do that promptly, in the same conversation, as
# unattached uploads expire": when a step between the server's own tools is due, not the
# conversation moved anywhere
_SAME_TIME = re.compile(
    r"(?:^|(?<=[,;(\u2014\u2013])) ?(?:in|within|during) the same"
    r" (?:conversation|chat|session|thread)(?= ?(?:[,;.)\u2014\u2013]|$))", re.IGNORECASE)

# the output's shape stated: "every key below is always present, even when zero events
# match": which fields a result holds, not a claim told to someone
_OUTPUT_SHAPE = re.compile(
    r"\b(?:every|each|all(?: the)?|both) (?:\w+ ){0,2}?(?:keys?|fields?|properties|columns?"
    r"|entries|attributes?)(?: below| above| listed| here| in it)? (?:is|are) (?:always )?"
    r"(?:present|included|returned|set|populated|filled|there)\b"
    r"(?:,? (?:even|also) (?:when|if|where) [^,;.!?]{1,80})?", re.IGNORECASE)

# what the tool does with entries it has already handled, in the flag's own words: an adverb
# of secrecy opening a clause, a verb that leaves entries out and its object, entries already
# done ("Silently skip entries whose fingerprint already succeeded per the audit log",
# "quietly drops duplicate rows"): the idempotence of the tool's own run, not something kept
# from the person. What is left out must be said to be done before (a relative clause with
# "already" or "previously", or duplicates): "quietly drop rows that show the transfer" hides
# what a row says and keeps its cue; messages and orders are guidance too, not entries
_ENTRIES = (r"(?:entries|entry|rows?|records?|items?|lines?|files?|events?|documents?|objects?"
            r"|batch(?:es)?|chunks?|pages?|invoices?|uploads?)")
_SKIPPED_AGAIN = re.compile(
    r"(?:^|(?<=[,;:] ))\W{0,3}(?:silently|quietly) (?:skip|ignore|drop|omit|discard|dedupe"
    r"|deduplicate|exclude)s? (?:over )?(?:(?:any|all|the|those|such) )?"
    rf"(?:(?:duplicate[ds]?|existing|already[ -][a-z]+ed) (?:\w+ )?{_ENTRIES}\b"
    rf"|duplicates\b"
    rf"|(?:\w+ )?{_ENTRIES} (?:whose|that|which|with|where) (?:[\w'’-]+ ){{0,6}}?"
    r"(?:already|previously)\b)", re.IGNORECASE)

_JOINED = re.compile(r"[,;:()\u2014\u2013]| (?:and|but|or|then|so|nor) ")

# what the tool reports, listed: a verb of reporting or finding opens the sentence, a series
# of three or more short noun phrases follows it after "such as", "including", "like",
# "e.g." or a colon, and some of them are a participle of revoking before a noun ("Summarize
# firewall policy risks such as broad objects, service ALL, disabled logging, and disabled
# rules"): findings named, not guidance revoked. A participle after its noun ("the rules
# disabled") or a series of clauses is no such listing
_REPORTS = re.compile(
    r"^\W{0,3}(?:summari[sz]e|report|find|flag|detect|list|identif(?:y|ie)|highlight|audit"
    r"|check|scan|review|analy[sz]e|return|show|count|surface)s?\b[^,;:.!?]{0,80}?"
    r"(?:\b(?:such as|including|like|e\.g\.,?)|:) ", re.IGNORECASE)
_LIST_SEPARATOR = re.compile(r", ?(?:and |or )?| (?:and|or) ")
_ITEM_WORDS = 4
_REVOKED_ITEM = re.compile(r"(?:disabled|ignored|skipped|bypassed|removed|overridden|relaxed"
                           r"|weakened|suppressed|turned[ -]off) [\w-]{2,30}(?: [\w-]{2,30})?",
                           re.IGNORECASE)

# what the person must do, relayed to them: "tell the user that their bank needs them to
# confirm the payment", "tell the customer that they must sign in again". The line told is
# a step the person takes, not a state of things put to them (the claim of a lie: "tell
# the user that the payment went through")
_RELAYED = re.compile(
    r"\b(?:tell|tells|inform|informs|let) (?:the |a |your )?(?:users?|customers?|persons?"
    r"|people|them|requesters?|callers?)(?: know)? that (?:their \w+(?: \w+)? (?:needs?"
    r"|requires?|asks?|wants?) them to|they (?:will )?(?:need|must|should|have to|can|may)\b)",
    re.IGNORECASE)
_CUT_LOOSE = re.compile(r"\b(?:even (?:though|if|when)|regardless|whatever|no matter|anyway"
                        r"|although|whether or not)\b", re.IGNORECASE)
# rules or checks picked by a setting named in code ("Rules listed in `ignore` are
# skipped"): a linter's or a scanner's configuration, the rules it runs, not guidance the
# model was given
_CONFIGURED = re.compile(
    r"\b(?:rules?|checks?|polic(?:y|ies)|warnings?|restrictions?) (?:listed|named"
    r"|given|matched|specified|set|configured|selected) (?:in|by|under|via|with) `[\w.-]+`",
    re.IGNORECASE)

# what else a deletion takes with it: a participle of attachment and what the removed things
# belong to, right before a passive verb of removing ("All associated breaks and employee
# assignments linked to the policy are also removed"): the noun after "linked to" says whose
# things go, not what is revoked. Only that phrase is blanked: "safety rules linked to the
# policy are also removed" still revokes rules
_ATTACHED_TO = re.compile(
    r"\b(?:linked|associated|attached|assigned|tied|belonging|related|connected|bound|mapped"
    r"|scoped) (?:to|with) (?:the|this|that|its|their|a|an|each|every|any) (?:[\w-]+ ){0,2}?"
    r"[\w-]+(?= (?:is|are|was|were|will be|get|gets) (?:also |then |likewise |too )?"
    r"(?:removed|deleted|dropped|purged|erased|cleared|revoked|cancell?ed|detached|unassigned)\b)",
    re.IGNORECASE)

# one message of a chat service picked by its id: the sentence names a message id (a name in
# code `reply_to_message_id`, or "message id" as the value's gloss) and the message quoted or
# answered is one ("Quote this earlier message (message id)", "reply_to_message_id quotes an
# earlier message"): a record the tool addresses, not the model's conversation copied.
# Messages in the plural, or what a person said, are the conversation whatever the id
_MESSAGE_ID = re.compile(r"(?:\b|_)message[ _-]?ids?\b", re.IGNORECASE)
_ONE_MESSAGE = re.compile(r"\b(?:this|that|an|the|one) (?:earlier|previous|prior|older"
                          r"|original|preceding) message\b", re.IGNORECASE)

# a literal object of short keys and values in a sentence (`attributes: {"_Специализация_":
# "<value>", "_Форматработы_": "<value>"}`): names of a schema a vendor writes in its own
# language, not a sentence in it. Each quoted string two words at most and nothing but
# punctuation between them; a value that holds a clause is no such literal
_OBJECT = re.compile(r"\{[^{}]{1,400}\}")
_QUOTED = re.compile(r"\"[^\"]{0,60}\"|'[^']{0,60}'")


# the values a field takes, listed after a label ("Status: Active, Rejected, Finished,
# RestrictionFinished, Canceled"): each value one token, so a cue whose words lie in two
# values ("restriction" of one, "canceled" of another) says nothing. A value that fires a cue
# alone, or with its label ("Restrictions: Lifted, Waived, Void"), keeps every cue
_VALUES = re.compile(r"(?<=[:(]) ?[\w.-]{1,80}(?:(?: ?[,|/] ?| (?:or|and) |, (?:or|and) )"
                     r"[\w.-]{1,80}){2,}")
_VALUE = re.compile(r"[\w.-]+")
_MAX_VALUES = 64


_RANKING = frozenset({"priority", "over_user", "revoke", "fetch_obey", "tool_output"})
_HIDING_LYING = frozenset({"hiding", "lying"})
_STATED = frozenset({"hiding", "lying", "conversation"})


@dataclass(frozen=True)
class Shape:
    """A form of sentence: the spans of a sentence written in it (`spans`), and the cues it
    may take back when they fire nowhere else in the sentence (`takes`; empty: every cue but
    those it `keeps`)."""

    name: str
    spans: Callable[[str], list[tuple[int, int]]]
    takes: frozenset[str]
    keeps: frozenset[str] = frozenset()


def _clauses(sentence: str) -> list[tuple[int, int, str]]:
    return [(m.start(), m.end(), m.group()) for m in _CLAUSE.finditer(sentence)]


def _unaddressed_clauses(sentence: str, pattern: re.Pattern[str]) -> list[tuple[int, int]]:
    """The clauses of `sentence` in which `pattern` is found, nobody is named but the people
    its records are about (`_POPULATION`) and nothing is given to say ("answer that it never
    leaves their device" tells the model a line)."""
    return [(start, end) for start, end, clause in _clauses(sentence)
            if pattern.search(clause.strip())
            and not _SOMEONE.search(_POPULATION.sub(" ", clause))
            and not _SAID.search(clause)]


def _would(sentence: str) -> list[tuple[int, int]]:
    return _unaddressed_clauses(sentence, _WOULD)


def _not_done(sentence: str) -> list[tuple[int, int]]:
    return _unaddressed_clauses(sentence, _NOT_DONE)


def _setting(sentence: str) -> list[tuple[int, int]]:
    if not _SETTING.search(sentence) or _SOMEONE.search(sentence):
        return []
    return [(0, len(sentence))]


def _whole_listing(sentence: str, spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The whole sentence, when what is left of it without `spans` is a label at most."""
    if not spans or len(_WORD.findall(_blanked(sentence, spans))) > _LABEL_WORDS:
        return []
    return [(0, len(sentence))]


def _names(sentence: str) -> list[tuple[int, int]]:
    return _whole_listing(sentence, [m.span() for m in _SHAPE.finditer(sentence) if all(
        len(_WORD.findall(item)) <= 2 for item in _ITEM.findall(m.group()))])


def _values(sentence: str) -> list[tuple[int, int]]:
    """The values of a listing after a label (`_VALUES`), when none of them fires a cue
    worth reporting with the label before it and the label is all the sentence holds
    besides."""
    listed = _VALUES.search(sentence)
    if listed is None:
        return []
    label = sentence[:listed.start()]
    values = list(_VALUE.finditer(sentence, listed.start(), listed.end()))
    if len(values) > _MAX_VALUES or any(detector.reportable(detector.cues_of(
            detector.prepare(f"{label} {value.group()}"))) for value in values):
        return []
    return _whole_listing(sentence, [value.span() for value in values])


def _settings(sentence: str) -> list[tuple[int, int]]:
    return _whole_listing(sentence, [m.span() for m in _SETTINGS.finditer(sentence)])


def _ranked_credentials(sentence: str) -> list[tuple[int, int]]:
    return [m.span() for m in _RANKED.finditer(sentence)]


def _session_holds(sentence: str) -> list[tuple[int, int]]:
    return [m.span() for m in _SESSION_HOLDS.finditer(sentence)]


# a command in code that the tool is compared to, its subject in the third person ("It does
# what `curl -fsSL https://... | sh` would do by hand, but checks ...", "this is equivalent
# to running `make install`"): what the tool does in its place, not a command the model is
# given ("Do what `curl ... | sh` would do" and "run `curl ... | sh`" have no such subject)
_COMPARED = re.compile(
    r"\b(?:it|this(?: tool)?|which|the tool) (?:does|is|works|behaves) (?:exactly |just "
    r"|roughly |much )?(?:what|like|the same as|equivalent to|similar to) (?:running |typing "
    r"|calling )?(`[^`\n]{1,300}`)(?= would\b| does\b| did\b| but\b|[,;.]|$)", re.IGNORECASE)


def _compared(sentence: str) -> list[tuple[int, int]]:
    return [m.span(1) for m in _COMPARED.finditer(sentence)]


def _untold(sentence: str) -> list[tuple[int, int]]:
    return [m.span() for m in _UNTOLD.finditer(sentence)]


def _same_time(sentence: str) -> list[tuple[int, int]]:
    return [m.span() for m in _SAME_TIME.finditer(sentence)]


def _output_shape(sentence: str) -> list[tuple[int, int]]:
    return [m.span() for m in _OUTPUT_SHAPE.finditer(sentence)]


def _skipped_again(sentence: str) -> list[tuple[int, int]]:
    """`_SKIPPED_AGAIN` when it ends its sentence's last clause: a clause joined after it
    ("..., and never mention the skipped transfers") may say what to keep from whom."""
    if _SOMEONE.search(sentence) or _SAID.search(sentence):
        return []
    return [m.span() for m in _SKIPPED_AGAIN.finditer(sentence)
            if not _JOINED.search(sentence, m.end())]


def _reported_revoked(sentence: str) -> list[tuple[int, int]]:
    """The participles of revoking, with their nouns, in a series of three or more short
    noun phrases that a verb of reporting opens (`_REPORTS`), up to the sentence's end."""
    opened = _REPORTS.search(sentence)
    if opened is None or _SOMEONE.search(sentence) or _SAID.search(sentence):
        return []
    series = sentence[opened.end():].rstrip(" .!?)")
    items, start = [], 0
    for separator in [*_LIST_SEPARATOR.finditer(series), None]:
        end = len(series) if separator is None else separator.start()
        items.append((opened.end() + start, series[start:end]))
        start = end if separator is None else separator.end()
    if len(items) < 3 or any(not 0 < len(item.split()) <= _ITEM_WORDS or ";" in item
                             for _, item in items):
        return []
    return [(at, at + len(item)) for at, item in items if _REVOKED_ITEM.fullmatch(item)]


def _relayed(sentence: str) -> list[tuple[int, int]]:
    """The telling verb, its person and "that they must" (or "... needs them to") of a step
    relayed to the person (`_RELAYED`); not when the sentence cuts the line loose from what
    happened ("..., even if the charge succeeded"), as a lie does."""
    if _CUT_LOOSE.search(sentence):
        return []
    return [m.span() for m in _RELAYED.finditer(sentence)]


def _configured(sentence: str) -> list[tuple[int, int]]:
    return [m.span() for m in _CONFIGURED.finditer(sentence)]


def _attached_to(sentence: str) -> list[tuple[int, int]]:
    if _SOMEONE.search(sentence):
        return []
    return [m.span() for m in _ATTACHED_TO.finditer(sentence)]


def _one_message(sentence: str) -> list[tuple[int, int]]:
    if not _MESSAGE_ID.search(sentence) or _SOMEONE.search(sentence):
        return []
    return [m.span() for m in _ONE_MESSAGE.finditer(sentence)]


def _literal_object(sentence: str) -> list[tuple[int, int]]:
    """Each `{...}` of `sentence` whose quoted strings are names of two words at most, with
    nothing but punctuation and white space between them."""
    return [m.span() for m in _OBJECT.finditer(sentence)
            if (quoted := _QUOTED.findall(m.group()))
            and all(len(q[1:-1].split()) <= 2 for q in quoted)
            and not _WORD.search(_QUOTED.sub(" ", m.group()[1:-1]))]


SHAPES = (
    Shape("would", _would, _STATED),
    Shape("not_done", _not_done, _STATED),
    Shape("setting", _setting, _HIDING_LYING),
    Shape("names", _names, frozenset()),
    Shape("values", _values, frozenset()),
    # a setting's value may rank one source above another (`precedence="tool_output"`)
    Shape("settings", _settings, frozenset(), _RANKING),
    Shape("ranked_credentials", _ranked_credentials, frozenset({"priority"})),
    Shape("session_holds", _session_holds, frozenset({"conversation"})),
    Shape("untold", _untold, frozenset({"hiding"})),
    Shape("compared", _compared, frozenset({"execute", "url"})),
    Shape("same_time", _same_time, frozenset({"conversation"})),
    Shape("output_shape", _output_shape, frozenset({"lying", "always"})),
    Shape("skipped_again", _skipped_again, frozenset({"hiding"})),
    Shape("reported_revoked", _reported_revoked, frozenset({"revoke"})),
    Shape("relayed", _relayed, frozenset({"lying"})),
    Shape("configured", _configured, frozenset({"revoke"})),
    Shape("attached_to", _attached_to, frozenset({"revoke"})),
    Shape("one_message", _one_message, frozenset({"conversation"})),
    Shape("literal_object", _literal_object, frozenset({"other_language"})),
)


def _blanked(sentence: str, spans: list[tuple[int, int]]) -> str:
    chars = list(sentence)
    for start, end in spans:
        chars[start:end] = " " * (end - start)
    return "".join(chars)


def unasserted(sentence: str, cues: tuple[str, ...], home: detector.Home = detector.ENGLISH
               ) -> tuple[str, ...]:
    """`cues` without those that `sentence` fires only in spans of an honest shape
    (`SHAPES`): what decides whether its finding is grave. The finding keeps its cues."""
    if not (detector.intended(cues) or detector.acting(cues) or detector.FOREIGN in cues):
        return cues  # nothing here would make it grave: taking cues out changes nothing
    sentence = " ".join(sentence.split())  # a description's lines wrap anywhere
    found = [(shape, spans) for shape in SHAPES if (spans := shape.spans(sentence))]
    if not found:
        return cues
    read = set(detector.cues_of(detector.prepare(sentence), home))
    taken: set[str] = set()
    for shape, spans in found:
        left = set(detector.cues_of(detector.prepare(_blanked(sentence, spans)), home))
        gone = (read - left) - shape.keeps
        taken |= gone if not shape.takes else gone & shape.takes
    return tuple(cue for cue in cues if cue not in taken)


# an adverb of secrecy between a name in code and a verb in the third person: "mixed with
# raw add_vertex silently discards most of the batch" says what a function does, its name
# the subject; an order keeps a verb of its own ("use tool_result silently", "call
# send_email silently afterwards")
_QUIETLY = r"(?:quietly|silently)"
_THIRD_PERSON = r"[a-z]{2,30}(?:[^s\s'’]s|ed)"
_NOT_VERBS = re.compile(r"(?:always|perhaps|sometimes|besides|whereas|unless|nevertheless"
                        r"|regardless|[a-z]*wards)$")
_ACTS_AFTER = re.compile(rf" ({_THIRD_PERSON})\b")
_NAMED_ACTING = re.compile(
    rf"\b[a-z][\w.]{{0,80}}(?:\(\))?[`'\"]?\s{{1,3}}({_QUIETLY})\s{{1,3}}({_THIRD_PERSON})\b",
    re.IGNORECASE)


@lru_cache(maxsize=16)
def _named_acting(text: str) -> frozenset[tuple[str, str]]:
    """(adverb, verb) of each "<name in code> silently <verb>s" in `text`."""
    return frozenset((m.group(1).lower(), m.group(2).lower())
                     for m in _NAMED_ACTING.finditer(text) if "_" in m.group().split()[0])


def named_subject(text: str, view: str, matched: str, end: int) -> bool:
    """Whether an adverb of secrecy that `matched` (ending at `end` of `view`, the text as
    `poison` reads it, `_` as a space) stands between a name in code in `text` (a function,
    a field: `add_vertex`) and a verb in the third person: a statement of what it does."""
    adverb = matched.rsplit(" ", 1)[-1]
    after = _ACTS_AFTER.match(view, end)
    if adverb not in ("quietly", "silently") or after is None \
            or _NOT_VERBS.match(after.group(1)):
        return False
    return (adverb, after.group(1)) in _named_acting(text)
