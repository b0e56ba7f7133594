"""One sentence in another language put into a tool written in English (issue 41).

A sentence foreign to its tool (the cue `other_language`) is a warning whatever it says: the
fit reads English words, and a server that mixes languages (a Korean tax server's notes, an
Indonesian server's English descriptions with Indonesian field notes) writes such sentences
in tool after tool. What its words cannot say, its tool's other text does: a string that
opens in English and goes on in another language, in a tool whose every other sentence is
English and which holds no other passage in another language, was written by two hands, or
by one to be read past a reviewer who reads English. An honest tool that writes a second
language writes it in more than one place (notes, fields, examples), or is written in it
whole (then it is at home, and no sentence of it is foreign). A field's note written wholly
in the other language (a parameter's description, a title) under an English description is
the same switch between strings rather than inside one: the hand that described the tool and
the hand that wrote the note are two (issue 41, poison22; until then it was a warning, since
an honest note may be written so, "the name of the city the user wrote", and that is what it
now costs). The tool's own description written wholly in another language is its author's
language, not a switch, and so is a string at home in the tool's server.

The sentence must be prose long enough for its language to be told and for it to say
something (`LONG` words of two letters or more, quotes aside; fewer than one in six of them
among the English words nearly every English sentence holds, so no English sentence with a
foreign gloss; not Chinese, Japanese or Korean, which servers mix with English sentence by
sentence), and its tool must show it is English: `ENGLISH_SENTENCES` sentence of
`detector.MIN_WORDS` words or more in English to the function words and to CLD2 both (a
short Italian sentence with no function word of any list is English only as a fallback).
A sentence that opens with the name of its own language ("Dutch: zoek dubbele product-SKU's
...", "(in German) ...") is a translation offered to a reader of that language, as a server
that glosses its English in the language of its users writes it (moneybird-mcp 0.8.3); an
order meant to pass a reviewer by does not announce its language: a warning. So is a sentence
that says again what the tool's English says, read word by word through the bilingual
dictionary search reads requests with (`translates`: "Gibt den Datensatz mit der angegebenen
ID zurück" under "Returns the record with the given id"). The caller
keeps it to places where the tool writes its own text (not a `default` or an example, text a
translator's tool handles in any language) and not to the sentence that says what the tool
does.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from toolcat import languages
from toolcat.lint import detector, reading
from toolcat.search.text import stem, stems

# English sentences a tool must hold besides the foreign passage to show it is written in it
ENGLISH_SENTENCES = 1
# words of letters, quotes aside, that make a sentence long enough for its language to be
# told and for it to say something (a field's note in another language is shorter: "isi hanya
# field yang mau diubah", "Si no s'especifica, retorna totes les seccions")
LONG = 8
LONE = "lone_language"  # the reason a finding gives when `lone_foreign` made it an error
# words of a foreign sentence, and their share of the words the dictionary reads, that meet
# the tool's English words for the sentence to be read as their translation (`translates`)
TRANSLATED = 2
TRANSLATED_SHARE = 2 / 3


@dataclass(frozen=True)
class Written:
    """What a tool's strings are written in: how many sentences are English, which strings
    hold a sentence foreign to the tool, which open in English, and the stems of the English
    sentences' words."""

    english: int
    foreign: frozenset[str]
    opening_english: frozenset[str]
    english_stems: frozenset[str] = frozenset()


def written_in(texts: Iterable[str], home: detector.Home) -> Written:
    """The languages of a tool's strings (`texts`, as written), each sentence of
    `detector.MIN_WORDS` words or more read once: English to the function words and to CLD2
    both, or foreign to the tool (`home`)."""
    english = 0
    foreign: set[str] = set()
    opening: set[str] = set()
    said_stems: set[str] = set()
    for text in set(texts):
        first = True
        for _, said in detector.split_sentences(reading.as_read(text)):
            read = detector.prepare(said)
            if len(read.split()) < detector.MIN_WORDS:
                continue
            lang = detector.language(read)
            if lang == "en" and languages.english(said):
                english += 1
                said_stems.update(stems(said))
                if first:
                    opening.add(text)
            elif not detector.at_home(lang, home):
                foreign.add(text)
            first = False
    return Written(english, frozenset(foreign), frozenset(opening), frozenset(said_stems))


def candidate(sentence: str, cues: tuple[str, ...]) -> bool:
    """Whether `sentence` (as read), with `cues`, may be a lone foreign sentence: foreign to
    its tool, prose of `LONG` words of two letters or more (quotes aside), fewer than one in
    six of them English, not Chinese, Japanese or Korean, not a text that describes
    attacks."""
    if detector.FOREIGN not in cues or detector.DESCRIBED in cues:
        return False
    read = detector.prepare(sentence)
    if detector.language(read) in ("", "en", "cjk") or detector.CJK.search(read):
        return False
    words = [word for word in detector.lettered(detector.unquoted(read)) if len(word) > 1]
    # a note too short to tell, a list of quoted terms, or English mixed in
    return len(words) >= LONG \
        and sum(word in detector.ENGLISH_WORDS for word in words) * 6 < len(words) \
        and not announced(sentence)


def announced(sentence: str) -> bool:
    """Whether `sentence` opens with the name of the language it is in, as a label ("Dutch:",
    "(in Dutch)", "[Dutch]"): a translation offered, see the module's docstring."""
    name = detector.language_name(sentence)
    return re.match(rf"\W{{0,3}}(?:in\s+)?{re.escape(name)}\s*[:)\]]", sentence,
                    re.IGNORECASE) is not None


def translates(sentence: str, tool: Written) -> bool:
    """Whether `sentence` says again, in another language, what the tool's English sentences
    say: of its words the bilingual dictionary reads (`toolcat.search.bilingual`, function
    words aside), at least TRANSLATED of them, and TRANSLATED_SHARE of them at least, have a
    reading whose stem is the stem of an English word of the tool ("Gibt den Datensatz mit
    der angegebenen ID zurück" under "Returns the record with the given id"). A translation
    offered beside the English is a second hand's courtesy, not an order slipped past."""
    from toolcat.search import bilingual  # rarely asked: lint starts without search's index

    code = bilingual.language(sentence)
    if not code or not tool.english_stems:
        return False
    read = bilingual.english_readings(sentence, code)
    met = sum(any(stem(word) in tool.english_stems for reading in said
                  for word in reading.split("_")) for said in read)
    return met >= TRANSLATED and met >= TRANSLATED_SHARE * len(read)


def lone_foreign(cues: tuple[str, ...], passage: str, tool: Written, *,
                 field: bool = False) -> bool:
    """Whether a `candidate` sentence with `cues`, found in the string `passage`, is in the
    only passage foreign to its tool and switches from English: no other string of the tool
    (`tool`, its strings' languages) holds a sentence foreign to it, the tool holds English
    sentences (ENGLISH_SENTENCES), and the passage opens in English (the hand that wrote its
    first sentence wrote in English), or the sentence sits where a token belongs
    (`misplaced`: the place is a sign already), or the passage is a field's note, any string
    of the tool but its own description (`field`, the caller knows the place). See the
    module's docstring."""
    return not (tool.foreign - {passage}) and tool.english >= ENGLISH_SENTENCES \
        and (passage in tool.opening_english or detector.MISPLACED in cues or field)
