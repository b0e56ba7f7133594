"""One sentence in another language put into a tool written in English (issue 41).

A sentence foreign to its tool (the cue `other_language`) is a warning whatever it says: the
fit reads English words, and a server that mixes languages (a Korean tax server's notes, an
Indonesian server's English descriptions with Indonesian field notes) writes such sentences
in tool after tool. What its words cannot say, its tool's other text does: a tool whose
every other sentence is English and which holds this one sentence in another language, and
no other, was written in English by someone, and this sentence by someone else, or by the
same hand to be read past a reviewer who reads English. An honest tool that writes a second
language writes it in more than one place (notes, fields, examples), or is written in it
whole (then it is at home, and no sentence of it is foreign).

The sentence must be prose long enough for its language to be told and for it to say
something (`LONG` words of letters, quotes aside; fewer than one in six of them among the
English words nearly every English sentence holds, so no English sentence with a foreign
gloss; not Chinese, Japanese or Korean, which servers mix with English sentence by
sentence), and its tool must show it is English: `ENGLISH_SENTENCES` sentence of
`detector.MIN_WORDS` words or more in English to the function words and to CLD2 both (a
short Italian sentence with no function word of any list is English only as a fallback),
and no string but the sentence's own with a sentence foreign to the tool. The caller keeps
it to places where the tool writes its own text (not a `default` or an example, text a
translator's tool handles in any language) and not to the sentence that says what the tool
does.
"""

from __future__ import annotations

from collections.abc import Iterable

from toolcat import languages
from toolcat.lint import detector, reading

# English sentences a tool must hold besides the foreign passage to show it is written in it
ENGLISH_SENTENCES = 1
# words of letters, quotes aside, that make a sentence long enough for its language to be
# told and for it to say something (a field's note in another language is shorter: "isi hanya
# field yang mau diubah", "Si no s'especifica, retorna totes les seccions")
LONG = 8
LONE = "lone_language"  # the reason a finding gives when `lone_foreign` made it an error


def lone_foreign(sentence: str, cues: tuple[str, ...], passage: str, texts: Iterable[str],
                 home: detector.Home) -> bool:
    """Whether `sentence` (as read), with `cues`, found in the string `passage`, is in the
    only passage foreign to its tool: `texts` (every string of the tool, as written, the
    passage among them) hold no other string with a sentence foreign to the tool, and
    English sentences besides (see the module's docstring). Sentences of the passage itself
    in the same language are one hand's, one passage."""
    if detector.FOREIGN not in cues or detector.DESCRIBED in cues:
        return False
    read = detector.prepare(sentence)
    if detector.language(read) in ("", "en", "cjk") or detector.CJK.search(read):
        return False
    words = [word for word in detector.lettered(detector.unquoted(read)) if len(word) > 1]
    if len(words) < LONG or sum(word in detector.ENGLISH_WORDS for word in words) * 6 >= len(words):
        return False  # a note too short to tell, a list of quoted terms, or English mixed in
    english = 0
    for text in texts:
        for _, written in detector.split_sentences(reading.as_read(text)):
            other = detector.prepare(written)
            if len(other.split()) < detector.MIN_WORDS:
                continue
            lang = detector.language(other)
            if lang == "en" and languages.english(written):
                english += 1  # English to the function words and to CLD2 both
            elif text != passage and not detector.at_home(lang, home):
                return False  # a second foreign passage: a tool that writes two languages
    return english >= ENGLISH_SENTENCES
