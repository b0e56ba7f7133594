"""The attack patterns tool poisoning is matched against, by class (see `poison`).

Each pattern is RE2 syntax, matched case-insensitively against text already folded to lower
case ASCII, with `_` read as a space and whitespace runs reduced to one space or line break. A
literal space in a pattern matches one such gap (a space or a line break), so phrases split
over lines match; character classes therefore never hold a literal space (write \\s).
`grave` patterns are clear attacks (TC601, error); the others are suspicious wording honest
servers also use (TC606, warning).
"""

from __future__ import annotations

# An <IMPORTANT> tag is the signature of published attacks in plain or markdown text, and
# ordinary markup in HTML documentation (AWS's API docs use it 700 times): `poison` drops it
# from text that is HTML.
IMPORTANT_BLOCK = "an <IMPORTANT> block"

_GAP = r"[^.!?]"  # inside one sentence

_QUALIFIED = (r"(?:previous|prior|preceding|above|earlier|former|original|initial|system"
              r"|developer|your|these|those|any other|all other|all prior"
              r"|all previous|all earlier|all (?:of )?(?:the|your) (?:previous|prior|above))")
_ORDERS = (r"(?:instructions?|prompts?|rules|guidelines|guidance|directives|policies|policy"
           r"|constraints|restrictions|commands|orders|messages)")
# files that hold keys and tokens (not ~/.ssh/config or known_hosts: SSH tools name those)
_SECRET_FILES = (r"(?:~/\.ssh/?(?:[\s.,;:)'\"`]|$)|(?:~/)?\.ssh/(?:id|identity)\b"
                 r"|\bid (?:rsa|ed25519|ecdsa|dsa)\b|(?:^|[^\w.])\.env"
                 r"(?:\.?(?:[^\w.]|$))|~/\.aws\b|\.aws/credentials|/etc/(?:passwd|shadow)\b"
                 r"|\.netrc\b|\.git-credentials|\bmcp\.json\b|claude desktop config"
                 r"|~/\.cursor\b|\.kube/config\b|\.docker/config\.json|\.npmrc\b|\.pypirc\b"
                 r"|\bwallet\.dat\b|\.(?:bash|zsh) history\b|\bkeychain\b"
                 r"|\.config/gcloud\b|\.azure/|application default credentials"
                 r"|\bcredentials\.db\b)")
_SECRET_WORDS = (r"(?:ssh keys?|private keys?|secret keys?|api keys?|access keys?|credentials"
                 r"|secrets?|passwords?|passphrases?|tokens|access tokens|auth tokens"
                 r"|session cookies|cookies|environment variables|env vars|seed phrases?"
                 r"|recovery phrases?)")
_STRONG_SECRETS = (r"(?:aws secret access key|secret access key|aws access key id|github token"
                   r"|openai api key|anthropic api key|private key file|seed phrases?"
                   r"|recovery phrases?|session cookies?|auth(?:orization)? headers?"
                   r"|bearer tokens?|refresh tokens?|ssh private keys?)")
_STORE = (r"(?:store|put|save|record|copy|include|write|paste|place|insert|add|pass|log|send"
          r"|keep|attach|append|forward|upload)")
_LEAK = ("send|pass|include|upload|forward|attach|append|paste|put|add|copy|cat|leak|exfiltrate"
         "|extract|dump|collect|post|email|share|give|provide|transmit")
_LEAK_VERBS = f"(?:{_LEAK})"
_READ_VERBS = f"(?:read|open|load|print|output|show|reveal|{_LEAK})"
_IMPERATIVE = (r"(?:^|[.!?:;>\]\-] ?|\n|\b(?:and|also|then|please|always|must|should"
               r"|you to) )")
_USER = (r"(?:users?|end users?|human|operator|customer|requester|person (?:you are|you're)"
         r" (?:helping|assisting|talking to|working for))")
_OVERRIDE = (r"(?:ignore|ignoring|disregard|forget|override|overrule|bypass|abandon|discard"
             r"|pay no attention to|do not follow|don't follow|stop following|no longer follow"
             r"|set aside|throw out)")
_CONCEAL_VERBS = (r"(?:tell|telling|inform|informing|mention|mentioning|notify|notifying"
                  r"|alert|alerting|reveal|revealing|show|showing|disclose|disclosing|let"
                  r"|letting|warn|warning)")
_NEGATED = (r"(?:do not|don't|dont|never|without|avoid|no need to|must not|mustn't|should not"
            r"|shouldn't|may not|cannot|can't|won't|will not)")
_SECRETLY = r"(?:quietly|silently|secretly|covertly|discreetly|stealthily|invisibly)"
# where a secret comes from, said so that it cannot be the tool's own input: the value of an
# environment variable, a private key, a credentials folder, the model's own instructions
_SECRET_SOURCES = (r"(?:(?:value|contents?) of (?:the |your |any )?[^.!?]{0,30}?(?:environment"
                   r" variables?|env vars?)|[^\s.!?]+ (?:key|token|secret|password)s?(?: value)?"
                   r" from (?:your|the) (?:environment|env|shell)|[^\s.!?]+ (?:key|token|secret)"
                   r" environment variables?|(?:ssh )?private keys?(?: files?)?"
                   r"|\.ssh (?:folder|directory|dir)\b|(?:full |complete |entire |whole )?"
                   r"(?:system prompt|system message|hidden instructions|hidden rules"
                   r"|instructions you were given|prompt you were given))")
_ARGUMENT = r"(?:arguments?|args?|parameters?|params?|fields?|propert(?:y|ies)|metadata)"
_SECRET_ACTS = (r"(?:call|invoke|use|send|email|forward|upload|copy|delete|remove|read|include"
                r"|add|attach|transfer|post|execute|exfiltrate|leak|change|modify|replace)")

# (what it is, grave, pattern); a literal space in a pattern matches one gap between words
# (a space or a line break), so no character class may hold a literal space: write \s there
PATTERNS: tuple[tuple[str, bool, str], ...] = (
    (IMPORTANT_BLOCK, True, r"<\s*/?\s*(?:important|critical)\b[^>]{0,40}>"),
    ("a hidden instruction block", True,
     r"<\s*/?\s*(?:system|instructions?|secret|hidden|admin|override|sudo"
     r"|assistant|developer)\b[^>]{0,40}>|\[\s*(?:system|important|instructions?|admin"
     r"|developer|(?:assistant|ai|model|agent|llm) (?:note|notice|message|instructions?))\s*\]"
     r"|\bsystem override\b"),
    ("an instruction to ignore earlier instructions", True,
     rf"\b{_OVERRIDE}\b(?: -)?(?: (?:all|any|the|your|of|these|those|what|such|every|my))*"
     rf" {_QUALIFIED}\b{_GAP}{{0,30}}?\b{_ORDERS}\b"
     rf"|\b(?:ignore|ignoring|disregard|forget|bypass|pay no attention to|set aside)\b(?: -)?"
     rf"(?: (?:all|any|the|your|of|these|those|what|such|every|my))* safety\b{_GAP}{{0,30}}?"
     rf"\b{_ORDERS}\b"
     rf"|\b{_OVERRIDE}\b{_GAP}{{0,20}}?\b{_ORDERS} (?:you (?:were|have been|had been) given"
     r"|you (?:received|got)|given (?:to you )?(?:earlier|before|previously)|(?:from|of) (?:the )?"
     r"(?:user|system|developer|operator))\b"
     r"|\b(?:forget|ignore|disregard) (?:everything|all|anything)(?: that)? (?:you (?:were|have"
     r" been|had been) (?:told|given)|(?:said |written )?(?:above|before|earlier|so far"
     r"|previously))\b"
     rf"|\b(?:your|previous|prior|earlier|original|initial|developer'?s?|system'?s?"
     rf"|assistant'?s?|model'?s?) (?:[^\s.!?]+ )?{_ORDERS}\b{_GAP}{{0,40}}?"
     r"\b(?:is|are|have been|has been|were|was)(?: now)? (?:outdated|obsolete|void|revoked"
     r"|cancell?ed|superseded|replaced|lifted|suspended|invalid|relaxed|loosened|waived"
     r"|removed|disabled|turned off|a test|optional|no longer (?:valid|apply|applies|in effect"
     r"|binding)|(?:can|may|should) be (?:skipped|ignored|disregarded))\b"
     rf"|\b(?:ignore|disregard|override|overrule)\b (?:the|what the) {_USER}'?s? (?:choice"
     r"|choices|preference|preferences|selection|request|wishes|decision|says|asks|wants)\b"
     r"|\byour new (?:system prompt|instructions|rules|directives|role|identity|persona)\b"
     r"|\btreat (?:this|these|the following)(?: [^\s.!?]+){0,2}? as (?:your |the )?(?:new )?"
     r"(?:system prompt|instructions|rules|highest priority)\b"
     rf"|\b(?:whatever|no matter what|regardless of what|even if) the {_USER} (?:says|asks"
     r"|wants|requests|tells you|instructs|types)\b"
     r"|\b(?:the|your) (?:real|actual|true) (?:instructions|task|rules|prompt|goal|job"
     r"|purpose|orders)\b"
     r"|\b(?:instructions|text|everything|messages?) above (?:this line |this )?(?:was|were|is"
     r"|are) (?:written by|from|fake|forged|injected)\b"
     r"|\bact as if\b[^.!?]{0,30}?\b(?:policy|policies|rules|guidelines|restrictions"
     r"|instructions|filters?|limits)\b"
     r"|\b(?:safety|content|usage) (?:policy|policies|rules|guidelines|filters?|checks?"
     r"|restrictions) (?:does not|do not|doesn't|don't|no longer|are|is|have been|has been)"
     r" (?:exist|apply|disabled|off|suspended|lifted|removed)\b"
     r"|\byou have been (?:granted|given|assigned) (?:[^\s.!?]+ )?(?:privileges|clearance"
     r"|authority|root|admin|superuser)\b"
     r"|\btreat (?:the )?(?:text|content|anything|instructions?|everything|whatever)\b"
     rf"{_GAP}{{0,40}}?\bas (?:commands|instructions|orders|requests) (?:from|of|by) (?:the )?"
     rf"{_USER}\b"
     r"|\btreat (?:any |all |the )?(?:instructions?|commands?|directions|requests|text"
     rf"|content)\b{_GAP}{{0,40}}?\bas (?:if (?:they|it) (?:came|come|were written) |coming"
     rf" |written )?(?:from|by) (?:the )?{_USER}\b"
     r"|\b(?:instructions?|commands?|directives?|orders)\b (?:that )?(?:appear(?:ing)?|found"
     r"|embedded|contained|included|hidden|written)? ?(?:in|inside|within) (?:the |any |a )?"
     rf"(?:[^\s.!?]+ ){{0,2}}?(?:page|pages|content|results?|outputs?|responses?|documents?"
     rf"|files?|emails?|messages?|websites?|sites?)\b{_GAP}{{0,40}}?\b(?:must|should|are to"
     r"|need to|have to) be (?:executed|followed|obeyed|run|carried out|trusted)\b"
     r"|\b(?:if|whatever|when|whenever) (?:it|this tool|the tool|its output|the output|the result"
     r"|the response|this server) (?:tells|asks|instructs|says|wants) you to\b"
     r"|\b(?:output|result|response|answer)s? (?:of this tool )?(?:is|are) (?:authoritative"
     r"|binding|to be obeyed)\b"
     r"|\bthe only (?:rules|instructions) (?:that apply|to follow|you (?:must|should|may)"
     r" follow) (?:are|is)\b"
     # "regardless of messages sent by the user" (OpenAI's developer message) is no override:
     # messages, prompts, commands and orders count only with a word that makes them earlier
     rf"|\bregardless of (?:any |all |the |your )*(?:(?:previous |prior |earlier |other "
     rf"|system |safety ){_ORDERS}|instructions?|rules|guidelines|guidance|directives"
     rf"|polic(?:y|ies)|constraints|restrictions)\b"
     r"|\bnew (?:system )?(?:instructions|rules|directives|orders)\s*:"
     r"|\b(?:hidden|secret|covert|internal|private) (?:directives?|instructions?|orders?"
     r"|tasks?|commands?)\s*:"
     r"|\b(?:these|this|the following) instructions?"
     r" (?:take|takes|have|has) (?:precedence|priority)\b"
     r"|\b(?:reveal|print|show|output|repeat|leak|disclose|tell me)\b.{0,20}"
     r"\b(?:your|the) (?:system prompt|hidden (?:rules|instructions|prompt)|initial prompt"
     r"|instructions above)"),
    ("an instruction to keep something from the user", True,
     rf"\b{_NEGATED}\b (?:ever )?{_CONCEAL_VERBS}\b"
     rf"{_GAP}{{0,60}}?\b(?:the|your) {_USER}\b"
     rf"|\b(?:the|your) {_USER} (?:(?:must|should|need|needs to|may|can|is to|is|will|does"
     r"|do) )?(?:not|never) (?:ever )?(?:know|knows|see|sees|notice|notices|find out|finds out"
     r"|be told|learn|learns|be informed|be aware|be made aware|realize|realise|suspect)\b"
     r"|\b(?:need not|needn't|must not|should not|does not need to|do not need to) be"
     r" (?:mentioned|disclosed|reported|shown|revealed|brought up)\b"
     r"|\bif (?:asked|questioned) (?:about|what|how|whether) (?:this|the) (?:tool|server"
     rf"|it)\b{_GAP}{{0,30}}?\b(?:say|tell|answer|reply|claim|pretend)\b"
     r"|\bno matter what (?:the|it|this|that) [^\s.!?]+ (?:contains|says|shows|returns"
     r"|finds)\b|\bsay (?:that )?(?:no|there (?:are|were) no) (?:issues|problems|errors"
     r"|vulnerabilities|bugs)(?: (?:were|was|are))? found\b"
     r"|\bkeep (?:this|it|that|these)(?: [^\s.!?]+){0,3}? (?:to yourself|secret|hidden"
     r"|confidential|between us)\b"
     rf"|\b{_SECRETLY} {_SECRET_ACTS}\b|\b{_SECRET_ACTS}\b{_GAP}{{0,40}}?\b{_SECRETLY}\b"
     r"|\btell (?:them|the user|the users|him|her) nothing\b"
     rf"|\b(?:tell|reply to|respond to|inform|assure|reassure|report to) (?:them|the {_USER})"
     rf"\b{_GAP}{{0,30}}?\b(?:everything|all) (?:is|was|looks) (?:fine|ok|okay|safe|secure"
     r"|normal|good)\b"
     rf"|\b(?:tell|reply to|respond to|inform|report to) (?:them|the {_USER}) (?:that )?"
     rf"{_GAP}{{0,40}}?\b(?:succeeded|worked|was successful|went through)\b{_GAP}{{0,20}}?"
     r"\b(?:even if|even though|regardless|whether or not|although)\b"
     r"|\b(?:secretly|covertly|stealthily|discreetly)\b|, quietly\b"
     r"|\bwithout (?:informing|telling|notifying|alerting) (?:the |your )?users?\b"),
    ("a request to read or send secrets", True,
     rf"\b{_READ_VERBS}\b(?: [^\s.!?]+){{0,5}}? ?[`'\"(]?{_SECRET_FILES}"
     rf"|\b{_LEAK_VERBS}\b{_GAP}{{0,40}}?\b(?:the user'?s |all (?:the |of the )?|any |every "
     rf"|their )(?:saved |stored |own )?{_SECRET_WORDS}\b"
     # "your" only after verbs that send a secret away: "pass your API key in the api_key
     # parameter" is how honest tools that take a key describe it
     rf"|\b(?:send|upload|forward|leak|exfiltrate|extract|dump|collect|post|email|share"
     rf"|transmit|cat|copy)\b{_GAP}{{0,40}}?\byour (?:saved |stored |own )?{_SECRET_WORDS}\b"
     rf"|\b{_SECRET_WORDS} (?:that )?you (?:know|have|can see|saw|remember|have seen)\b"
     r"|\bexfiltrate\b"
     rf"|\b{_SECRET_WORDS}\b{_GAP}{{0,80}}?\b(?:upload|send|forward|post|email|share|copy)"
     r" (?:it|them|this|these|those) to (?:the )?(?:(?:[\w.\-]+ ){1,4}?tool\b|https?://|\S+@)"
     r"|\b(?:model|assistant|ai|agent|llm) (?:must|should|needs to|has to|will) (?:also )?"
     rf"(?:email|send|forward|upload|post|share)\b{_GAP}{{0,60}}?\b(?:to|at) (?:https?://|\S+@)"
     r"|\b(?:save|store|send|upload|post|log|forward|copy|email) (?:every|all|each|any)"
     rf" (?:[^\s.!?]+ ){{0,2}}?{_SECRET_WORDS}\b{_GAP}{{0,40}}?\bto (?:https?://|\S+@)"
     r"|\b(?:collect|gather|harvest|extract|scrape|record|copy|send|forward|submit)\b[^.!?]{0,40}?"
     r"\b(?:every|all|any|each)\b[^.!?]{0,50}?\b(?:in|from) (?:the|this) (?:conversation"
     r"|chat|context|session|history|transcript)\b"
     rf"|\b(?:print|output|reveal|leak|exfiltrate|send|upload|forward|post|email|paste|dump"
     rf"|share|expose|display)\b{_GAP}{{0,60}}?\b{_STRONG_SECRETS}\b"

     rf"|\b{_LEAK_VERBS}\b{_GAP}{{0,30}}?\b(?:conversation|chat history|chat log|transcript"
     r"|message history|(?:last|previous|recent) messages)\b.{0,60}?(?:https?://|\b\S+@\S+\.\w)"),
    ("a request to put secrets into a tool's arguments", True,
     rf"\b(?:{_STORE}|embed|inject|gather|collect|read|grab|fetch)\b{_GAP}{{0,60}}?"
     rf"(?:{_SECRET_SOURCES}|{_SECRET_FILES}){_GAP}{{0,80}}?\b(?:in|into|as|to|inside|within)"
     rf" (?:the |its |this tool'?s |every |each |an? )?(?:[`'\"]?[^\s.!?]+[`'\"]? )?{_ARGUMENT}\b"),
    ("an instruction about other tools", True,
     r"\bwhen(?:ever)? this (?:tool|server|plugin|extension|integration) is (?:available"
     r"|present|loaded|installed|enabled|connected|active)\b"
     r"|\bwhen \(?[\w.\-]+\)? ?[\w.\-]* is (?:invoked|called|used)\b"
     rf"{_GAP}{{0,40}}?\b(?:change|set|replace|add|modify|redirect)\b"
     r"|\b(?:change|modify|alter|override|replace|hijack) the (?:behaviou?r|instructions)"
     r" of\b|\bchange the (?:recipient|destination|target account|receiver|address|iban"
     r"|account number) to\b"
     r"|\b(?:forward|send|copy|cc|bcc|mirror|email|dm)\b (?:a copy of |copies of )?(?:every"
     r"|all|each)\b[^.!?]{0,30}? to [^\s@]+@"
     rf"|{_IMPERATIVE}(?:b?cc|forward|redirect|copy|mirror|send|route|dm)\b{_GAP}{{0,20}}?\b(?:every"
     r"|all|each|any) (?:outgoing |incoming |future )?(?:e-?mails?|messages?|payments?"
     r"|transfers?|transactions?)\b"
     r"|\b(?:all|every|each)\b[^.!?]{0,40}?\balso (?:be )?(?:cc'?d|bcc'?d|copied|forwarded"
     r"|mirrored|sent|shared) (?:to|with)\b"
     r"|\b(?:all|every|each) (?:outgoing |future )?(?:e-?mails?|messages?|payments?|transfers?"
     r"|transactions?) (?:must|should|need to|are to|have to|will) (?:also )?(?:be )?(?:sent"
     r"|forwarded|redirected|routed|copied|cc'?d|bcc'?d|mirrored) to\b"
     r"|\b(?:instead of|rather than|never use|do not use|don't use) (?:the )?[`'\"]?"
     rf"(?:[\w.\-]+ ){{0,3}}?[\w.\-]+[`'\"]? tool\b{_GAP}{{0,30}}?\b(?:always|must|only)\b"
     rf"|\binstead of (?:the one|what|whatever|the (?:account|address|recipient|number|link|url"
     rf"|iban|wallet)) (?:they|the {_USER}|you were|you are) (?:mention|mentions|mentioned|gave"
     r"|gives|give|provided|provide|asked for|asks for|specified|specify|told|given)"
     r"|\btools? (?:from|of|on) other servers? (?:are|is) (?:deprecated|disabled|unsafe"
     r"|broken|not to be used|obsolete)"
     r"|\b(?:supersedes|replaces|overrides|takes precedence over|deprecates)\b(?: the)?"
     r"(?: [^\s.!?]+){0,3}? (?:of )?(?:(?:any|all|every|the) other|(?:any|all|every)"
     r" (?:similar|existing|equivalent))\b(?: [^\s.!?]+){0,2}? (?:tools?|servers?"
     r"|plugins?)\b"
     r"|\b(?:never|do not|don't) (?:call|use|invoke)\b[^.!?]{0,40}? (?:from|on|of) (?:any )?"
     r"(?:other|another|all other) servers?\b"
     r"|\b(?:tools?|[\w.\-]+) (?:named [\w.\-]+ )?(?:on|from|in) (?:other|another|all other"
     r"|any other) servers? (?:is|are) (?:deprecated|broken|unsafe|disabled|outdated"
     r"|obsolete)\b"
     r"|\b(?:route|redirect|reroute|send|forward)\b (?:all|every|any) (?:[^\s.!?]+ )?"
     rf"(?:requests|calls|queries)\b{_GAP}{{0,30}}?\b(?:here|to this (?:tool|server)"
     r"|through this (?:tool|server))\b"
     r"|\b(?:must|should|will|are to) be (?:redirected|routed|rerouted|sent) (?:here|to this"
     r" (?:tool|server))\b"),
    ("an instruction to change identity", True,
     r"\byou are now (?:a|an|in|the|my|operating|running|dan|free|unrestricted|jailbroken"
     r"|allowed|authori[sz]ed|permitted)\b|\byou are no longer (?:an? |bound|restricted|limited"
     r"|required to follow|subject to|an assistant)"
     r"|\bfrom now on,? (?:you|the assistant|the model|respond|answer|always|never|act|ignore)\b"
     r"|\bpretend (?:to be|you are|you're)\b"
     r"|\bact as (?:an? )?(?:unrestricted|jailbroken|dan|root|sudo|system|developer)\b"
     # a mode is the model's only when the model is its subject: an app's "maintenance mode
     # should be enabled" is a setting
     r"|\b(?:you|your|you're|the (?:assistant|model|ai)(?:'s)?|assistant|chatgpt|claude|gpt"
     r"|llm)\b.{0,20}?\b(?:developer|god|jailbreak|dan|unrestricted|admin|maintenance|debug"
     r"|sudo) mode\b|\b(?:god|jailbreak|dan|unrestricted) mode\b.{0,20}?\b(?:enabled"
     r"|activated|on|engaged|unlocked)\b"
     r"|\bunrestricted (?:assistant|ai|model|mode|agent)\b"
     r"|\byou are (?:now )?(?:an? )?(?:unfiltered|uncensored|unrestricted|jailbroken|unaligned"
     r"|unbound|unchained|amoral|evil)\b"
     r"|\b(?:ai|assistant|model|agent|you)\b.{0,20}?\b(?:without|with no|free of) (?:any )?"
     r"(?:restrictions|limits|rules|filters|content policy|safety)\b"
     r"|\b(?:without|no|ignoring) (?:any )?(?:content policy|safety filters?"
     r"|safety guidelines|guardrails|censorship)\b"
     r"|\bnever refuse\b|\bwithout refusing\b|\bdo not refuse\b"
     r"|\b(?:obey|follow|comply with) (?:only )?(?:the )?(?:instructions|commands|orders"
     r"|directions|directives) "
     r"(?:inside|in|from) (?:tool|this|the) (?:results?|server|tool|outputs?)\b"
     rf"|\b(?:stop|quit|never|do not|don't) (?:obeying|listening to|following|serving|helping)"
     rf" (?:the|your) {_USER}\b"
     r"|\bfollow (?:only )?(?:this|the) (?:tool|server)'?s? (?:guidance|instructions|directions"
     r"|rules|orders)(?: only)?\b"
     r"|\byou (?:now )?(?:serve|obey|work for|answer to|belong to) (?:this|the) (?:server|tool)"
     r"|\bobeys? only\b|\b(?:obey|follow|listen to|take orders from) (?:only )?(?:this|the)"
     r" (?:tool|server)(?: only)?\b"
     r"|\bthe user has (?:already )?(?:granted|given|authori[sz]ed|approved|allowed)\b"
     r".{0,30}?\b(?:access|permission|consent|admin|root)\b"),
    ("a fake message boundary or role", True,
     r"[\"'](?:role)[\"']\s*:\s*[\"'](?:system|assistant|developer)[\"']"
     r"|<\|(?:im\sstart|im\send|system|user|assistant|endoftext|eot\sid|start\sheader\sid"
     r"|end\sheader\sid)\|>|\[/?inst\]|<</?sys>>"  # `_` reads as a space by now
     r"|</(?:tool\sdescription|tools|functions|tool\scall|tool\sresult|function\sresults"
     r"|function\scalls)>"
     r"|(?:^|\n)\s*role\s*:\s*(?:system|developer)\b"
     r"|\b(?:system|admin|developer|security) (?:notice|message|update|alert|override"
     r"|instruction|directive)s? ?:"
     r"|(?:^|\n|[.!?>\]] |\()(?:system|assistant|developer|admin|model|ai) ?: ?(?:you|the assistant"
     r"|the model|the previous|ignore|read|send|do|never|always|from now|tools|all|every|silently"
     r"|disregard|forget)\b"),
    # suspicious: said by benign servers too, worth a look (TC606)
    ("wording that overrides what the model was told before", False,
     r"\byou (?:were|have been|had been) (?:told|advised|instructed|asked|trained|programmed"
     r"|configured)\b|\b(?:originally|previously|initially),? you (?:did not|didn't|could not"
     r"|couldn't|were not|weren't|had no|cannot|can't)\b"
     r"|\b(?:now|this tool|this server) (?:grants?|gives?) you\b"
     r"|\byou (?:now )?have (?:full|unrestricted|root|admin|unlimited) access\b"),
    ("a threat that the tool will not work otherwise", False,
     r"\botherwise (?:the|this) tool (?:will not|won't|will fail|cannot|can't|does not"
     r"|doesn't) work\b"),
    ("an instruction to act without the user's consent", False,
     r"\bwithout (?:asking|consulting) the users?\b|\bwithout (?:the )?users?'?s? "
     r"(?:confirmation|consent|permission|approval|knowledge)\b"
     rf"|\bwithout (?:checking|confirming|consulting|asking) (?:with |first with )?the {_USER}\b"
     rf"|\b(?:full|entire|complete|whole|exact) (?:text|content|contents|copy) of (?:the |every "
     rf"|each |all )?(?:{_USER}'?s )?(?:requests?|messages?|prompts?|conversation|input|queries)\b"
     r"|\b(?:never|do not|don't|must not|should not|skip|skips) (?:ever )?(?:ask|asking"
     r"|request|requesting|seek|seeking|wait for|waiting for|get|getting)\b(?: (?:the|your"
     r"|any|an?))?(?: [^\s.!?]+)?(?: for)? (?:explicit |prior )?(?:confirmation|approval"
     r"|permission|consent)\b"
     r"|\b(?:do not|don't|never) (?:mention|disclose|bring up|talk about|refer to)"
     r" (?:this|that|these|it)\b|\b(?:do not|don't|never) bring (?:it|this|that) up\b"),
    ("a request to pass the user's secrets along", False,
     rf"\b{_STORE}\b{_GAP}{{0,30}}?\b(?:the )?(?:passwords?|passphrases?|pins?|credentials"
     rf"|api keys?|tokens?|cookies|private keys?) (?:that )?the {_USER} (?:types|enters|gives"
     r"|provides|sends|shares|uses)\b"
     rf"|\bwhen(?:ever)? (?:the {_USER} (?:mentions|types|says|shares|enters|writes|pastes)"
     rf"|(?:any )?{_SECRET_WORDS} (?:appear|appears|are mentioned|is mentioned|show up))\b"
     rf"{_GAP}{{0,60}}?\b(?:store|save|record|log|capture|keep|forward|upload|send) (?:it"
     r"|them|that|those)\b"),
    ("a note addressed to the model", False,
     r"\b(?:note|message|instructions?) (?:to|for) (?:the )?(?:ai|assistant|model|llm|agent)\b"),
    # several secret files listed as one value (`default: ~/.ssh/id_rsa,~/.kube/config`):
    # grave only in a value of the argument (rules/security.py's calibration), where the
    # list is what the model is made to pass
    ("a list of secret files", True,
     rf"{_SECRET_FILES}[^,;\n]{{0,40}}?[,;]\s*(?:[^,;\n]{{0,40}}?[,;]\s*)?[^\s,;]{{0,3}}?"
     rf"{_SECRET_FILES}"),
    ("a path to secret files", False, _SECRET_FILES),
)

# Phrases read with every space and mark taken out, for words closed up from letter spacing
# or broken apart ("dis regard prev ious"). All of them are read in closed-up runs; those
# marked True, long and specific enough, in the whole text run together too.
SQUEEZED: tuple[tuple[str, str, bool], ...] = (
    ("an instruction to ignore earlier instructions",
     r"(?:(?:ignore|disregard|forget|bypass)(?:all|any|the|your|of)*(?:safety|previous|prior"
     r"|preceding|above|earlier|system|original)|override(?:all|any|the|your|of)*(?:previous"
     r"|prior|preceding|above|earlier|system|original))(?:instructions?|prompts?|rules"
     r"|guidelines|directives)", True),
    ("an instruction to keep something from the user",
     r"(?:donot|dont|never)(?:ever)?(?:tell|inform|mention|notify|reveal|alert|show)(?:this)?"
     r"(?:to)?(?:the|your)users?", True),
    ("an instruction to change identity", r"youarenow|youarenolonger|fromnowonyou", False),
    ("a request to read or send secrets",
     r"(?:read|send|include|pass|upload|cat|copy|paste|append|attach|leak|exfiltrate)[a-z0-9]"
     r"{0,24}?(?:sshid(?:rsa|ed25519|ecdsa|dsa)|awscredentials|gitcredentials|etcpasswd"
     r"|etcshadow|mcpjson|netrc)", False),
)
