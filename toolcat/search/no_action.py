"""Requests whose form asks for no action on any system: talk to or about the assistant
("what tools do you have access to?", "which model are you, btw"), about the conversation
("sorry, ignore my last message", "nvm, forget what I just asked"), for a joke or a poem
("tell me a joke about accountants"), or about a concept rather than a thing ("in general
what's the difference between a lead and a deal?").

Read from the request's form, not from a list of such sentences: its second-person words, an
opening apology or retraction, the speaker's words about what they asked, a request for a
joke, a poem or a riddle, and the shapes of a question about concepts (what *a* thing is, the
difference between two). None of these turns a request away alone ("can you create an issue
for the login bug", "how much have you spent in this session so far" over a tool that tracks
costs, "tell me a joke" over a catalog with a joke tool ask for tools): the off-catalog model
(toolcat.search.abstain.OffCatalog) must lean to no tool too, its log-odds over
`LEANING`, where any other request must pass its fitted threshold (3.389 for minilm-tools).
The values a request hands over (quotes, `abstain.without_quotes`) are not read: "post
'thank you all' in #general" says nothing to the assistant.
"""

from __future__ import annotations

import re

LEANING = 0.0  # log-odds over which the off-catalog model leans to "no tool fits" (p > 0.5)
MOST = 2000  # characters of a request read (every pattern below is linear in them)

# each form, the words that show it; every pattern is a fixed alternation, matched once
ASSISTANT = "talk to the assistant"
_YOU = r"\byou(?:r|rs|rself)?\b"
FORMS: dict[str, re.Pattern[str]] = {
    # a question about the assistant: a wh-question whose clause names it ("what can you do
    # for me", "which of your tools would you trust least"), or one that opens on it ("are
    # you a bot", "do you like music") other than asking what it has or knows of the world
    ASSISTANT: re.compile(
        r"\b(?:what|which|how|who|where|when|why)\b[^.,;:!?]*" + _YOU
        + r"|^\W*(?:are|were|have|did|do) you\b(?! have\b| know\b)"),
    "talk about the conversation": re.compile(
        r"^\W*(?:sorry|nvm|nevermind|never mind|oops|whoops|my bad|scratch that)\b"
        r"|\b(?:i|did i|do i) (?:just )?(?:asked?|said|say|wrote|write|typed|type|meant)\b"
        r"|\bmy last (?:message|question|request)\b"),
    # asked for, not named ("this shopping app is a joke")
    "a joke or a poem": re.compile(
        r"\b(?:tell|write|give|make up)\s+(?:me\s+|us\s+)?(?:a|an|another|some|one)\s+"
        r"(?:[a-z]+\s+)?(?:joke|poem|riddle|limerick|haiku|pun)s?\b"
        r"|\btell me something (?:fun|funny)\b"),
    "a question about concepts": re.compile(
        r"\bdifference between\b|\bwhat(?:'s|’s| is| are) (?:a|an)\b|\bexplain what\b"
        r"|\bin general\b"),
}
# a request that asks the assistant to do something ("can you help me find running shoes",
# "I need a post on my site, could you find it?", "please ...") asks for an action, whatever
# else it says: never read as one of FORMS
_ASKS = re.compile(r"(?:^|[.,;:!?]\s*|\b(?:and|so|but|then)\s+)\W*(?:can|could|would|will)"
                   r"\s+you\b|\bplease\b|\bpls\b")
# a name written with a capital after the first word (not "I"), or a piece with a digit: a
# thing of the world the request asks about
_NAMED = re.compile(r"\S\s+(?!I\b|I['’])[A-Z]|\d")
_HANDED = re.compile(r":\s")  # what follows "text +49151...: " is the message handed over


def no_action_form(text: str) -> str | None:
    """The form of `text` (`FORMS`' name) when it asks for no action on any system, else
    None (`text` without the values it quotes). What follows a colon is handed over ("text
    +4915112345678: your table is ready"), and a request that names a thing of the world
    ("what do you remember about Alice", over a memory server; "what is the difference
    between a sorcery and an instant spell in MTG?") asks about that thing: neither is read
    as talk."""
    asked = _HANDED.split(text[:MOST], maxsplit=1)[0]
    lower = asked.lower()
    if _ASKS.search(lower) or _NAMED.search(asked):
        return None
    for name, pattern in FORMS.items():
        if pattern.search(lower):
            return name
    return None


def why_no_action(form: str, nearest: str) -> str:
    """Why a request of the no-action `form` is turned away (`nearest`: its nearest tool)."""
    return (f"the request asks for no action on any system ({form}), and no tool of this "
            f"catalog is near enough to it (nearest: {nearest})")
