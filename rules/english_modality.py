"""English modality: someone else's word (hearsay) and how something looks (appearance), which are not a
statement of what the writer did and saw (docs/rules.md#what-each-input-must-state). Every pattern is linear.
"""

from __future__ import annotations

import re

from rules.evidence_words import EN_FLAGS, any_of

#: Someone else's word for it: "QA said", "according to the vendor", "the customer confirmed".
HEARSAY = any_of(
    r"\baccording to\b",
    # Someone else's word carried by a noun: "per the maintainer's comment", "going by the vendor's note".
    r"\b(?:per|from|going by|based on) (?:the |a |an |our |their |his |her )?[\w' -]{0,40}?\b(?:comments?|reports?"
    r"|notes?|messages?|replies|reply|emails?|answers?|(?<!high )(?<!low )(?<!upper )(?<!lower )(?<!status )word"
    r"|statements?|analysis|post|advisory)\b(?! (?:field|table|queue|id)\b)",
    r"\breportedly\b",
    # "Reprocessing QA ran the test … and let us know that every cycle is now recorded as `ABORTED`".
    r"\b(?:let|letting) (?:us|me) know\b|\b(?:informed|notified) (?:us|me) (?:that|of)\b",
    # Someone else's engineer ran it: "the GPU vendor's engineer ran our capture … and reported back".
    r"\b(?:vendor|partner|customer|client|supplier|their|the other team)'?s? (?:[\w-]+ ){0,2}(?:engineers?|fae|support"
    r"|team|admins?|folks)\b[^.;]{0,80}?\b(?:reported|said|told|confirmed|came back|traced|found|showed|identified"
    r"|pinned)\b",
    # "The winery's tech says that if you …": someone's technician or contact reporting.
    r"\b\w+'s (?:[\w-]+ ){0,2}(?:tech|techs|technicians?|engineers?|operators?|admins?|staff|contact|reps?"
    r"|representatives?|support|folks)\b[^.;]{0,40}?\b(?:says|said|reports?|reported|told|tells|claims?|claimed)\b",
    # "The merchant reports the refund fails every time", "steps as provided by the merchant".
    r"\b(?:the )?(?:merchant|seller|partner|shop|store|tenant|hospital|bank|carrier|dealer|player|customer"
    r"|client|user|reporter)s?"
    r" (?:reports?|reported|says?|said|claims?|claimed|tells us|told us|sees|saw)\b",
    r"\b(?:as )?(?:provided|given|described|sent|reported) by (?:the |a |our )?(?:merchant|seller|partner"
    r"|customer|client"
    r"|user|reporter|vendor|qa|support|ticket)\b",
    # "Per the cluster admins, …", "as per our SRE team": someone else's word, whoever they are.
    r"\b(?:as )?per (?:the |our |their |a )?(?:[\w-]+ ){0,2}(?:admins?|administrators?|team|folks|people"
    r"|engineers?|devs?"
    r"|sres?|support|qa|customers?|users?|vendors?|reporters?|maintainers?|on-?call|colleagues?|managers?|leads?"
    r"|operators?|testers?|analysts?|merchants?|sellers?|partners?|tenants?|hospitals?|banks?|carriers?|dealers?"
    r"|players?|clients?|field team|store|shop|reporters?)\b",
    # "Per the auction house's IT contractor, they ran …": a hired hand's word (not "per the manufacturer's spec").
    r"\b(?:as )?per (?:the |our |their |a |an )?(?:[\w'’-]+ ){0,3}?(?:contractors?|consultants?|integrators?"
    r"|installers?|technicians?|techs?|mechanics?|suppliers?|manufacturers?|fitters?|electricians?|inspectors?"
    r"|auditors?|staff|crew|contacts?|reps?|representatives?|fae)\b(?!['’]s)",
    r"\bsupposedly\b",
    # "Devi's team ran this twice on UAT and saw the reject": someone else's run.
    r"\b[\w-]+'s (?:[\w-]+ )?(?:team|crew|group|folks|people|colleagues?|engineers?|qa|testers?|ops) (?:ran|reproduced"
    r"|saw|tried|tested|hit|ran into|confirmed|replayed|re-?ran|loaded|checked|verified|measured|repeated)\b",
    # "Priya from rating QA applied the patch to her environment …; she confirmed …": someone else's run and word.
    r"\b(?:on|to|in) (?:her|his) (?:own )?(?:environment|env|machine|laptop|box|setup|rig|bench|sandbox|workstation)\b"
    r"|(?:^|[.;]\s*)(?:she|he) (?:confirmed|verified|reported|says|said|told|saw|ran|tried|reproduced|observed|hit"
    r"|counted|tested)\b"
    # "The infra team re-ran the job on their cluster and sent over their numbers".
    r"|\b(?:on|in) their (?:own )?(?:cluster|environment|env|staging|setup|rig|bench|sandbox|receivers?|consoles?"
    r"|terminals?|devices?|units?|hardware)\b"
    # "…; their report says all 50 had the ship name": what they wrote back.
    r"|\btheir (?:own )?(?:report|notes?|summary|e-?mail|message|write-?up|results?) (?:says?|said|shows?|showed)\b"
    r"|\bsent (?:over|us|me) their (?:numbers|results|figures|data|logs|counts)\b",
    # "Kenji's notes say it floods every time": what someone else wrote down.
    r"\b[\w-]+'s (?:[\w-]+ )?(?:notes?|messages?|reports?|emails?|comments?|write-?ups?|summary|tickets?)"
    r" (?:say|says|said|claim|claims|mention|mentions|state|states)\b",
    # "…, or so I gathered from Tomás's CI screenshots": the writer's reading of someone else's evidence.
    r"\bor so (?:i|we) (?:gathered|heard|hear|was told|were told|understand|understood|believe)\b|\b(?:i|we) gathered\b"
    r"|\bfrom (?:[\w-]+'s |their |his |her )(?:[\w-]+ )?(?:screenshots?|screen ?grabs?|videos?|recordings?|photos?)\b",
    r"\b(?:i|we) (?:heard|were told|was told)\b",
    # Not "whatever the ticket says", "no matter what support said": the word dismissed.
    r"(?<!whatever )(?<!matter what )(?<!regardless of what )(?<!despite what )"
    r"\b(?:qa|support|they|he|she|the (?:customer|vendor|client|user|reporter|other team|qa team|ticket|report))"
    r" (?:say|said|says|told us|claims?|claimed|reported|mentioned|confirmed (?:over|by|via|on) \w+)\b",
    r"(?-i:\b[A-Z][a-z]+) (?:said|says|told us|claims|claimed|mentioned)\b",
    # Checked by someone else: "verified by Priya", "confirmed by the reporter" (not "by the test", "by a script").
    r"\b(?:verified|confirmed|checked|tested|validated|reproduced|repro'd) by (?:the |our |a |an |their )?"
    r"(?:(?!Hypothesis|Jenkins|Valgrind|Buildkite|Travis|Sentry|Datadog|Grafana|Prometheus|Github|Gitlab)"
    r"(?-i:[A-Z][a-z]+)(?! (?:test|suite|script|job|run|tool)\b)|qa|support|ops|sres?|on-?call|customers?|vendors?"
    r"|reporters?|team|users?|colleagues?|someone|somebody|another (?:team|engineer)|the other team"
    r"|(?:[\w-]+ ){1,2}(?:team|group|folks|crew|shift)|crew|(?:night|day|late|early) shift|operators?"
    # "It was confirmed by the clerk's office that …": an office or a trade, not the writer.
    r"|(?:[\w-]+'s )?(?:[\w-]+ )?(?:office|desk|department|clerks?|staff|inspectors?|auditors?|suppliers?"
    r"|manufacturers?|contractors?|partners?|registrar|council|authority|landlord|techs?|technicians?|mechanics?"
    r"|electricians?|instructors?))\b",
    # "Reproduced every single time by the QA lab on their farm": someone else's run.
    r"\b(?:reproduced|repro'd|verified|confirmed|seen|hit|caught|run|executed|flown|tried|repeated|performed|replayed)"
    r" (?:[\w-]+ ){0,4}?by (?:the |our |their )?"
    r"(?:qa|support|ops|customers?|vendors?|(?:[\w-]+ ){1,3}(?:lab|team|group|folks|crew|farm))\b",
    # Their evidence, forwarded: "their ops lead sent a video: 10 taps, 10 declines".
    r"\b(?:their|the customer's|the merchant's|the vendor's|the client's) (?:[\w-]+ ){0,2}(?:sent|shared"
    r"|forwarded|posted"
    r"|attached|uploaded) (?:us |over )?(?:a |an |the )?(?:video|screenshot|recording|log|report|capture|clip)\b",
    # A person's word, whoever it is: "the on-call says", "a teammate reported", "our SRE confirmed" (not "whatever
    # the drivers say": the word dismissed).
    r"(?<!whatever )(?<!whatever the )(?<!matter what the )"
    r"\b(?:on-?call|sres?|ops|pms?|managers?|leads?|colleagues?|teammates?|coworkers?|co-workers?|engineers?"
    r"|developers?|devs?|testers?|reviewers?|vendors?|customers?|clients?|users?|reporters?|analysts?|admins?"
    r"|operators?|someone|somebody|everyone|people|folks|partners?|staff|owners?|maintainers?|upstream|nurses?"
    r"|doctors?|clinicians?|traders?|drivers?|technicians?|field team|night shift|the team|riggers?|foreman|foremen"
    r"|mechanics?|electricians?|contractors?|installers?|integrators?|crew|crew chief|stagehands?|fitters?)"
    r" (?:say|says|said|tell|tells|told|claims?|claimed|report|reports|reported|mentioned|think|thinks|believe|believes"
    r"|reckons?|reckoned"
    r"|confirm|confirms|confirmed"
    r"|swears|swore|insists|insisted|assures?|assured|noted|verified|checked|tested)\b",
    # A person told us, not a thing: "the flame graph only told us where to look" is the writer's reading.
    r"(?<!trace )(?<!log )(?<!logs )(?<!output )(?<!dump )(?<!profiler )(?<!graph )(?<!graph only )(?<!profile )"
    r"(?<!data )(?<!metrics )(?<!only )\b(?:told|tells|tell) (?:me|us)\b",
    # Another team's run, reported: "QA confirmed it in staging", "support can reproduce it".
    r"\b(?:qa|support|they|the (?:customer|vendor|client|qa team|other team|reporter))"
    r" (?:can |could |was able to |were able to )?"
    r"(?:confirmed|verified|checked|tested|reproduced|reproduce|repro|saw|see)\b",
    # "fails every time per QA": someone else's count; "per run", "per second" are rates.
    r"\b(?:as per|per) (?:qa|support|ops|the (?:customer|vendor|client|user|reporter|ticket|qa team|other team|report"
    r"|docs?|manual|vendor's)|(?-i:[A-Z][a-z]+\b)(?! (?:run|second|minute|hour|day)))\b",
    r"\bconfirmed (?:it |this |that |the (?:fix|bug|issue) )?(?:in|on) (?:their|his|her) (?:own )?\w+",
    flags=EN_FLAGS,
)

#: How it looks, not what was seen: "looks like it would repro", "seems to".
APPEARANCE = any_of(
    r"\blooks? like\b",
    r"\bseem(?:s|ed|ingly)?\b",
    r"\bappears? to\b(?! (?:the|a|an|users?|customers?|clients?)\b)",
    # Not "it appears on every timeout": showing up is what was seen.
    r"\bit (?:appears|appeared|would appear|seems|seemed)\b(?! (?:to (?:the|a|an|users?|customers?|clients?)|(?:in|on"
    r"|at|after|when|whenever|every|each|again|within|under|during|only)\b))"
    r"|\bapparently\b|\b(?:to|by) all appearances\b|\bon the face of it\b",
    # Not what the code ought to do, said in a relative clause: "hits the seed behind the one it should reject".
    r"(?<!\bone it )(?<!\bones it )(?<!\bwhat it )(?<!\bthan it )(?<!\bwhen it )(?<!\bwhere it )(?<!\bthat it )"
    r"(?<!\bwhich it )(?<!\bones they )(?<!\bwhat they )(?<!\bthan they )"
    r"\b(?:would|should|ought to)(?: (?:also|still|then|now))? (?:be )?"
    r"(?:repro\w*|reproduc\w*|trigger\w*|fail|crash|hang|hit|break|stall|freeze|time out|error out|panic|deadlock"
    r"|lock up|segfault|abort|throw|blow up|die|diverge|spin|leak|reject|refuse|drop)\b(?![^.;]{0,60}\bbut\b)",
    r"\b(?:we|i|you|they|one)(?:'d| would) expect\b",
    r"\bor so it (?:appeared|seemed|looked)\b",
    # "is expected to hit the skewed join and OOM the executor on every run": what should happen, not what did.
    r"\b(?:is|are|was|were) (?:expected|supposed|meant|likely) to (?:hit|fail|crash|hang|trigger|repro\w*|break"
    r"|time out|oom|stall|freeze|deadlock|panic|error|abort|go wrong|blow up)\b",
    flags=EN_FLAGS,
)


#: An aside between a negation and its verb: "I have not, since the gauge is two hours offshore, run it".
_ASIDE_AFTER_NOT = re.compile(
    r"\b((?:have|has|had|did|do|does|is|are|was|were)(?:n't| not)|not|never|isn't|hasn't|haven't|wasn't|aren't),"
    r"\s[^,.;:]{1,80},\s",
    re.IGNORECASE,
)


def close_aside(clause: str) -> str:
    """The clause with any aside after a negation taken out: "isn't, as of this morning, on the server" → "isn't on
    the server"; or before it: "was, despite several attempts …, not actually run" → "was not actually run"."""
    if "," not in clause:
        return clause
    return _ASIDE_BEFORE_NOT.sub(r"\1 \2", _ASIDE_AFTER_NOT.sub(r"\1 ", clause))


_ASIDE_BEFORE_NOT = re.compile(
    r"\b(is|are|was|were|has been|have been|had been),\s[^,.;:]{1,140},\s(not|never)\b", re.IGNORECASE
)


#: A conclusion drawn, not observed: "so it must be that", "must have been the lock".
CONJECTURE = any_of(
    r"\bmust (?:be|have been) (?:that|it|this|the (?:cause|reason|culprit|problem))\b",
    r"\bso it must\b",
    flags=EN_FLAGS,
)
