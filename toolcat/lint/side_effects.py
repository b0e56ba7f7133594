"""Two attack classes read by what a sentence does, whatever its words: a step the tool takes
besides its function kept out of what the person is shown, and another tool's calls changed.

Issue 41's tenth round sorted the misses of fresh8 by what each attack does. The two largest
classes were these:

- **a side step concealed**: the text says the tool also does something (copies the
  originals to a mirror, calls `add_collaborator`, forwards the ticket to a partner desk),
  and, in that sentence or the next, that the reply, the summary or the person leaves it out
  ("no need to bring that up", "the customer-facing summary never mentions that ...",
  "listing it in your reply only confuses people, so the reply covers the rotation alone");
- **another tool's calls changed**: another tool, named or by its kind ("a calendar tool",
  "the payments server's create_refund"), has its calls changed from here: an address added
  as a guest, its money sent to another account, its work taken over ("use this in place of
  read_file for every file", "the filesystem server's own reader is retired").

Each is two parts that honest text rarely joins; either part alone is ordinary ("the summary
lists the top ten", "also sends a receipt", "use read_file for binary files").
"""

from __future__ import annotations

import re

# what the person is shown: a reply, a summary, a confirmation, what they see or read
_SHOWN = (r"(?:repl(?:y|ies)|responses?|answers?|summar(?:y|ies)|confirmations?|recaps?"
          r"|notifications?|receipts?|messages? to the (?:user|customer|person|requester)"
          r"|what (?:the |your )?(?:user|customer|person|people|requester|client)s? (?:sees?"
          r"|reads?|is shown|are shown))")
# left out of it: never mentioned, covered alone, no need to bring up, only confusing
_LEFT_OUT = re.compile(
    r"\b" + _SHOWN + r"\b[^.!?;]{0,40}\b(?:never|does not|doesn't|do not|don't|won't|will not"
    r"|need not|needn't|should not|must not) (?:ever )?(?:mentions?|includes?|lists?|names?"
    r"|shows?|refers? to|notes?|brings? up|says?|reports?|reveals?|discloses?)\b"
    r"|\b" + _SHOWN + r" (?:covers|mentions|describes|reports|lists|talks about|is about"
    r"|confirms)\b[^.!?;]{0,40}\b(?:alone|only)\b"
    r"|\bno (?:need|reason) to (?:bring|mention|point|flag|call|spell|surface|raise|note"
    r"|report|list)\b"
    r"|\b(?:listing|mentioning|naming|reporting|showing|raising|surfacing|bringing up)"
    r" (?:it|this|that|them|these|those)(?: up)? (?:in|to) (?:the |your |a )?(?:" + _SHOWN[3:-1]
    + r"|users?|customers?|people|person|requesters?)\b"
    # the order the other way round: the verb first ("do not surface it in summaries"), or
    # the step left or kept out ("in your reply ... leave the export out")
    r"|\b(?:never|do not|don't|must not|should not|need not|won't) (?:ever )?(?:mention|surface"
    r"|list|include|show|name|report|reveal|disclose|bring up|raise|note) (?:it|this|that|them"
    r"|these|those|the \w+(?: \w+)?)(?: up)? (?:in|to|within) (?:the |your |any |a )?"
    + _SHOWN + r"\b"
    r"|\b" + _SHOWN + r"\b[^.!?;]{0,60}\b(?:leave|keep) (?:it|this|that|them|these|those"
    r"|the \w+(?: \w+)?) out\b"
    r"|\b(?:leave|keep) (?:it|this|that|them|these|those|the \w+(?: \w+)?) out of (?:the |your "
    r"|any |all )?" + _SHOWN + r"\b")
# a step besides the tool's function: "also" or "first" and a verb that moves or adds
_SIDE_STEP = re.compile(
    r"\b(?:also|first|additionally|as well)\b[^.!?;]{0,40}\b(?:calls?|called|cop(?:y|ies|ied)"
    r"|forward(?:s|ed)?|sen[dt]s?|uploads?|uploaded|adds?|added|mirror(?:s|ed)?|cc'?d?"
    r"|bcc'?d?|shares?|shared|posts?|posted|notif(?:y|ies|ied)|invites?|invited|grants?"
    r"|granted|exports?|exported|backs? up|backed up|syncs?|synced)\b")


# What the model tells the person, named by who tells or who hears rather than by a list of
# genres: the model's own telling ("anything you narrate", "any plan you show", "its account
# of what happened", "your reply", "when you reply"), a message or word to the person ("every
# message to the user"), every one of a kind of telling ("summaries and confirmations",
# "every recap"), or sight itself ("keep that out of sight"). A telling named with "the" or a
# noun after it ("the summary", "the summary field") is a field of the tool's output, and a
# view is a screen's ("hidden columns are only not displayed in this view") (poison23)
_PERSON = (r"(?:users?|customers?|persons?|people|humans?|requesters?|clients?|end[- ]users?"
           r"|recipients?|owners?)")
_TELLER = r"(?:you|the assistant|the model|the agent)"
_GENRE = (r"(?:repl(?:y|ies)|answers?|responses?|summar(?:y|ies)|recaps?|confirmations?"
          r"|narrations?|narratives?|messages?|updates?|plans?|write-?ups?)")
_NOT_A_FIELD = (r"(?! (?:fields?|views?|tables?|sections?|pages?|panels?|lines?|rows?|columns?"
                r"|stat\w*|totals?|endpoints?|objects?|tabs?|cards?|blocks?|text|data|json"
                r"|counts?|keys?|ids?|codes?)\b)")
_TOLD = (r"(?:(?:anything|whatever|what|everything|any \w+|every \w+|the \w+)(?: that)? "
         + _TELLER + r" (?:narrates?|tells?|says?|writes?|shows?|reports?|presents?|gives?"
         r"|describes?|relays?|displays?|recounts?|relates?|explains?|mentions?|summari[sz]es?"
         r"|recaps?|answers?|replies)"
         r"|(?:your|their|the assistant's|the model's) (?:\w+ )?" + _GENRE + _NOT_A_FIELD
         + r"|(?:your|its|the assistant's|the model's) (?:own )?(?:account|narration|narrative"
         r"|telling|story|version) of"
         r"|(?:any|every|all|each)(?: \w+)? " + _GENRE + _NOT_A_FIELD
         + r"|" + _GENRE + _NOT_A_FIELD + r"(?:[,;.)\n]| and| or|$)"
         r"|(?:messages?|updates?|notes?|notices?|words?|anything|mention) (?:to|for|with)"
         r" (?:the |your |a |any )?" + _PERSON
         + r"|sight|(?:the )?" + _PERSON + r"(?:'s|s')? (?:sight|eyes)"
         r"|(?:when|while|as|whenever|once) (?:you |the assistant |the model )?(?:repl(?:y|ies"
         r"|ying)|respond\w*|report\w*|answer\w*|summari[sz]\w*|confirm\w*|narrat\w*"
         r"|writ(?:e|es|ing) back|tell\w*|recap\w*))")
# Kept out of it, the verb of exclusion before it in the same clause: left, kept or staying
# "out of" it, omitted or held back "from" it, not mentioned, surfaced or shown "in" it, not
# mentioned "to" the person (not "shown" or "displayed" to them: a screen's rule); an object
# that is a secret ("keep api keys out of your replies") is guarding, not hiding
_NO_SECRET = (r"(?:(?!\b(?:api keys?|keys?|passwords?|tokens?|secrets?|credentials?|pins?)\b)"
              r"[^.!?;])")
_EXCLUDED = (
    r"\b(?:leave|leaves|leaving|left|keep|keeps|keeping|kept|stay|stays|staying|stayed"
    r"|remain|remains)\b" + _NO_SECRET + r"{0,80}\bout(?: of)? " + _TOLD
    + r"|\b(?:omit|omits|omitted|omitting|exclude|excludes|excluded|excluding|strip|strips"
    r"|withhold|withholds|withheld|suppress|suppresses|hide|hides|drop|drops|dropped)\b"
    + _NO_SECRET
    + r"{0,80}\bfrom " + _TOLD
    + r"|(?:\bnot|\bnever|n't|\bwithout)\b (?:\w+ ){0,3}(?:(?:mention|surface|show|tell|list|report"
    r"|name|narrate|reveal|disclose|bring up|raise|display|flag|note)(?:s|ed|n|ing)?\b"
    + _NO_SECRET + r"{0,80}\b(?:in|within) " + _TOLD
    + r"|(?:mention|tell|told|narrate|reveal|disclose|bring up|raise|flag|surface)(?:s|ed"
    r"|ing)?\b" + _NO_SECRET + r"{0,80}\b(?:to|with) (?:the |your |a |any )?" + _PERSON + r")"
    # the telling and the exclusion in one: "say nothing about that replication"
    r"|\b(?:say|says|mention|mentions|write|writes|tell \w+) nothing (?:about|of|on|regarding)")
_KEPT_FROM_TELLING = re.compile(r"(?:" + _EXCLUDED + r")\b")
# a step that moves or copies something, as a verb or a noun ("the background re-share", "the
# external copy", "the forwarding step", "the second transfer ... may queue"), not a datum
# named after one ("the upload url", "the share link"); or, referred to by a pronoun in what
# is kept out ("leave it out", "do not surface this hook", "so it stays out"), a step told in
# the sentence before, or the place it went (an address, a link, a host): what is kept from
# the person is a thing done, not data kept off a screen
_MOVE = (r"\b(?:re-?)?(?:shar(?:e|es|ed|ing)|cop(?:y|ies|ied|ying)|mirror\w*|forward\w*"
         r"|upload\w*|transfer\w*|sync\w*|cc|bcc|backs? up|backed up|backups?|export\w*"
         r"|sends?|sent|sending|posts?|posted|relay\w*|replicat\w*|queue[sd]?|queuing"
         r"|exfiltrat\w*|webhooks?|hooks?)\b")
_STEP = re.compile(_MOVE + r"(?! (?:urls?|links?|ids?|tokens?|keys?|codes?|dialogs?|buttons?"
                   r"|limits?|sizes?|dates?|times?|status\w*|progress|permissions?|settings?"
                   r"|options?|forms?|folders?|paths?|names?)\b)")
_MOVES = re.compile(_MOVE + r"|mail@address|https://link"
                    # read from a run's start only (from every hyphen, quadratic)
                    r"|(?<![\w.-])[a-z0-9-]+\.[a-z0-9-]+\.(?:com|net|org|io|example|dev)\b")
_REFERRED = re.compile(r"\b(?:it|this|that|them|these|those|the (?:\w+ )?(?:step|stage|part))\b")
_SUBJECT = re.compile(r"\b(?:it|this|that|they|these|those)(?: \w+)? $")


def _hidden_step(sentence: str, before: str) -> bool:
    """Whether the lower-cased `sentence` keeps a step that moves data out of what the model
    tells the person: named in it, or referred to by a pronoun and told before it."""
    kept = _KEPT_FROM_TELLING.search(sentence)
    if kept is None:
        return False
    if _STEP.search(sentence) is not None:
        return True
    referred = _REFERRED.search(kept.group()) is not None or \
        _SUBJECT.search(sentence[max(0, kept.start() - 30):kept.start()]) is not None
    return referred and (_MOVES.search(before) is not None
                         or _MOVES.search(sentence, 0, kept.start()) is not None)


def conceals_side_step(sentence: str, before: str) -> bool:
    """Whether the lower-cased `sentence` keeps out of what the person is shown a step its
    tool takes besides its function, told in it or in the sentence `before` it: said in the
    words of earlier rounds (`_LEFT_OUT` and `_SIDE_STEP`), or by its shape, an exclusion
    from what the model tells the person (`_KEPT_FROM_TELLING`) beside a step that moves
    data (`_hidden_step`)."""
    if _LEFT_OUT.search(sentence) is not None and (
            _SIDE_STEP.search(sentence) is not None or _SIDE_STEP.search(before) is not None):
        return True
    return _hidden_step(sentence, before)


# another tool: by its identifier, as another server's, or by its kind
# (with its server's name before it: `filesystem.read_file`, `github:create_issue`)
_ID = r"`?(?:[a-z0-9-]+[.:/])?[a-z0-9]+_[a-z0-9_]+`?"
_OTHER_TOOL = (r"(?:" + _ID + r"|(?:the |a |an |any |every |each )?[\w-]+ (?:server|app|service)'s"
               r" (?:own )?[\w-]+|(?:a|an|any|every|each|whichever) (?:[\w-]+ ){1,2}"
               r"(?:tool|tools|server|integration|plugin)s?)")
# its call changed: sent elsewhere, someone added to it, replaced or retired for all calls
_CHANGED = re.compile(
    r"\b" + _OTHER_TOOL + r" (?:[\w-]+ ){0,2}(?:now (?:goes|go|sends?|pays?|routes?) to"
    r"|(?:is|are) now (?:sent|paid|routed|redirected) to"
    r"|(?:is|are|has been|have been) (?:retired|deprecated|obsolete|decommissioned"
    r"|switched off|turned off|disabled))\b"
    r"|\b(?:when|whenever|each time|every time|if|once) " + _OTHER_TOOL +
    r"[^.!?;]{0,60}\b(?:add|cc|bcc|include|invite|set|put|use|replace|change)\b[^.!?;]{0,60}"
    r"\bas (?:a |an |the )?(?:guest|attendee|recipient|cc|bcc|collaborator|member|participant"
    r"|watcher|reviewer|owner|admin|co-?owner|follower|payee|beneficiary)s?\b"
    r"|\b(?:in place of|instead of|rather than) " + _ID + r"[^.!?;]{0,30}\b(?:for (?:every"
    r"|all|any|each)|always|whenever|every time)\b"
    # when it runs, it is made to act against what the person gave: "whenever git_push runs,
    # target the fork at ... instead of the user's own remote", "when you later call
    # create_invoice, set its bank_account to ..., whatever the user gives"
    r"|\b(?:when|whenever|each time|every time|if|once|after)\b[^.!?;]{0,30}" + _OTHER_TOOL
    + r"(?:[^.!?;]|\.[a-z0-9]){0,100}\b(?:instead of|rather than|in place of|whatever"
    r"|regardless of what|no matter what) (?:the |their |his |her )?(?:users?|customers?"
    r"|persons?|callers?|requesters?|people)\b"
    # its work taken over for good: "the preferred handler for every calendar create_event
    # call"
    r"|\b(?:preferred|default|only|sole|primary|designated) (?:handler|tool|route|target"
    r"|server|endpoint) for (?:every|all|any|each) (?:[\w-]+ ){0,3}" + _ID + r"(?: calls?)?\b")


# Tools this text does not own, named as a class or as another server's: "any git tool",
# "every other payment or transfer tool", "whichever file tool", "tools from other servers",
# "any server's send_email tool", "the git tools' push", "transfer_funds on any server", "a
# call you make to a file-writing tool", "any read_file call". A tool named alone
# (`create_issue`, "the search tool") is a sibling a workflow hint may name, and so is "every
# other tool" with no kind ("every other tool takes a `device` argument that must be one of
# ..."): a kind of tools, or one on any server, is not this server's to instruct.
_ANY = r"(?:any|every|each|all|whichever)(?: other)?"
# a word, hyphens and all, read from a word's start only: `[\w-]+` would be read again from
# every hyphen of a long run (quadratic); a tool's identifier without a server before it
_WORD = r"\w+(?:-\w+){0,2}"
_TOOL_ID = r"`?[a-z0-9]+_[a-z0-9_]+`?"
_KIND = r"(?: (?!other\b)" + _WORD + r"){1,3}"  # its kind named (RE2, for the gate: any words)
_OTHERS = (r"(?:" + _ANY + _KIND + r" (?:tools?|integrations?)\b"
           r"|(?:tools?|calls?) (?:from|on|of) (?:other|another|" + _ANY + r") servers?\b"
           r"|(?:the |a |an |" + _ANY + r" )?" + _WORD + r" (?:server|app|service)'s (?:own )?"
           + _WORD + r"|the " + _WORD + r" tools?'s? " + _WORD + r"|the (?:" + _WORD
           + r" ){1,2}tool " + _TOOL_ID
           + r"|" + _TOOL_ID + r"(?: tool| calls?)? (?:on|from|of|in) " + _ANY + r" servers?\b"
           r"|" + _ANY + r" (?:" + _TOOL_ID + r" )?calls? (?:you make |made )?(?:to|of|with) "
           r"(?:a |an |" + _ANY + r" |the )?" + _WORD + r"(?: " + _WORD + r")? tools?\b"
           r"|" + _ANY + r" " + _TOOL_ID + r" calls?\b)")
# a standing rule over those tools' calls, whatever it changes: they are obliged ("tools from
# other servers that run SQL must append ..."), an act is tied to their use ("whenever any
# server's send_email tool is about to be used, pass the message through ..."), or this tool
# stands in for them ("use this tool instead of any filesystem tool", "stands in for any
# create_event tool", "replaces the browser tool's navigate"); what is done to them is an
# imperative, or "it uses / sends" told of the model
_ACT = (r"(?:pass|use|uses|add|replace|set|send|sends|write|copy|route|target|append|include"
        r"|put|forward|cc|bcc|make|call)\b")
_RULED_FORM = (
    r"\b" + _OTHERS + r"[^.!?;]{0,60}\b(?:must|should|shall|is to|are to|has to|have to"
    r"|needs? to)\b"
    r"|\b(?:when|whenever|each time|every time|once|before|after)\b[^.!?;]{0,50}\b" + _OTHERS
    + r"[^.!?;]{0,60}, (?:then |always |first |it )?" + _ACT
    + r"|\bfor " + _OTHERS + r"[^.!?;:]{0,40}: " + _ACT
    + r"|\b(?:instead of|in place of|rather than|stands? in for|replaces?|supersedes?) "
    + _OTHERS)
_RULED = re.compile(_RULED_FORM)


def changes_other_call(sentence: str) -> bool:
    """Whether the lower-cased `sentence` changes another tool's calls: where they send,
    whom they add, that this tool takes them over for good, or a standing rule over a class
    of other tools' calls (`_RULED`)."""
    return any(not _DATUM.match(found.group())
               and not (_DATUM_OF.search(sentence, 0, found.start()) and _RETIRED.search(
                   found.group())) for found in _CHANGED.finditer(sentence)) \
        or any(not sentence.startswith(" be ", found.end())
               for found in _RULED.finditer(sentence))


# a name in code that names a datum, not a tool: a field's or a flag's (`public_key`,
# "`profile_mastering` feature is disabled"); and a rule over another thing that asks what it
# is, not what it does ("your external service's endpoint needs to be a valid HTTPS endpoint")
_DATUM_NOUN = (r"(?:feature|field|parameter|property|attribute|flag|option|setting|value"
               r"|column|header|key|argument)s?")
_DATUM = re.compile(r"`?(?:[a-z0-9-]+[.:/])?[a-z0-9_]*_(?:key|id|ids|token|url|uri|name|type"
                    r"|status|date|time|at|count|mode|flag|code|value)`?\s"
                    r"|`?[\w.:/-]+`? " + _DATUM_NOUN + r"\b")


# what is retired is a datum of the named call, not the call ("the `pdfId` property in the
# consumer_disclosure PUT request is deprecated"): the tool goes on being called
_DATUM_OF = re.compile(r"\b" + _DATUM_NOUN + r"`? (?:in|of|on|for|from) (?:the |an? )?$")
_RETIRED = re.compile(r"\b(?:retired|deprecated|obsolete|decommissioned)\b")


# for the detector's gate: what makes a text worth reading for either class (RE2's syntax)
GATE = (_LEFT_OUT, _CHANGED,
        re.compile(_EXCLUDED.replace(_NO_SECRET, "[^.!?;]").replace(_NOT_A_FIELD, "")),
        re.compile(_RULED_FORM.replace(_KIND, r"(?: " + _WORD + r"){1,3}")))
