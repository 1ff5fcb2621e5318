"""English read clause by clause: whether an action is done, planned, ongoing or negated, whether a
claim is hearsay or an appearance, and whether a clause says what some element does (a mechanism).

Rule-based over a small lexicon of auxiliaries, negators and tense markers: no English model installs
from PyPI without downloading data at run time (docs/architecture.md). Every pattern is linear.
"""

from __future__ import annotations

import re

from rules.evidence_words import EN_FLAGS, any_of
from rules.regex_guard import compile_guarded

#: Where one clause ends and the next begins inside a sentence: a semicolon, a contrast, a dash.
_CLAUSE_RE = re.compile(
    # "yet" starts a clause only after a comma: "I have not yet managed to run them" is one clause.
    r";|\s[—–-]\s|,?\s+(?=(?:but|however|although|though|whereas)\b)|,\s+(?=(?:and|so|then|while|yet)\b)",
    re.IGNORECASE,
)

#: The action is not done: negated, or "yet to", or "not … yet", or still local / unpushed.
NOT_DONE = any_of(
    # "could not get a stale point" reports an attempt and its outcome; "could not get to it" is not done.
    r"\b(?<!could )(?<!can )(?:haven't|have not|hasn't|has not|didn't|did not|never|not)\s+"
    r"(?:(?:yet|been|even|actually)\s+){0,2}(?:gotten|got|get|managed|able|had (?:a|the|any|much|enough) chance)\b",
    r"\b(?:could|can) not get (?:to|around|a chance|the chance|time)\b",
    r"\b(?:isn't|aren't|wasn't|weren't|not|was never|were never|hasn't been|haven't been|has not been|have not been)\s+"
    r"(?:yet\s+|actually\s+)?"
    r"(?:written|pushed|opened|created|(?:re-?)?run|tried|added|landed|merged|filed|published|gone through"
    r"|repeated|redone)\b",
    # A change or ticket not raised; an alarm "not raised" is what a run showed ("`LAMP_FAIL` was not raised").
    r"\b(?:PRs?|pull requests?|MRs?|merge requests?|tickets?|issues?|bugs?|change requests?|CRs?|it|this|that|one)\s+"
    r"(?:isn't|aren't|wasn't|weren't|not|was never|were never|hasn't been|haven't been|has not been|have not been)\s+"
    r"(?:yet\s+)?raised\b",
    r"\b(?:haven't|have not|hasn't|has not|didn't|did not)\s+(?:yet\s+|actually\s+|even\s+|really\s+){0,2}(?:re-?)?"
    r"(?:run|ran|tried|tested|verified|checked|confirmed|measured|written|pushed|opened|reproduced|repro'd|hit"
    r"|triggered|count|counted|timed|tracked)\b",
    r"n't (?:[a-z-]+ ){1,8}yet\b",
    # "Not something we have actually checked against the IR dump": the check denied through its object.
    r"\bnot (?:something|anything|a thing|one) (?:we|i|anyone|they|someone)(?:'ve| have| has| had|'d)? "
    r"(?:yet |actually |really |ever ){0,2}(?:checked|verified|confirmed|tested|measured|tried|run|reproduced)\b",
    # "haven't had the rig back to re-run it", "haven't had an allocation to try it myself": not run by the writer.
    r"\b(?:haven't|have not|hasn't|has not|didn't|did not|couldn't|could not)\b[^.;]{0,50}?\bto (?:re-?run|re-?test"
    r"|re-?try|re-?check|verify|confirm|run (?:that|this|the|it))\b",
    r"\b(?:haven't|have not|hasn't|has not|didn't|did not|couldn't|could not|never)\b[^.;]{0,60}?\bto (?:try|run"
    r"|test|reproduce|repro|check|verify|confirm) (?:it|this|that|them) (?:myself|ourselves)\b",
    r"\byet to\b|\b(?:tests?|checks?|runs?|repro\w*|experiments?|soak|sessions?|trials?|jobs?|bisect|replays?|slot"
    r"|it|this|that)\s+(?:was|were|got|has been|have been) (?:postponed|put off|called off|cancell?ed|pushed back)\b",
    # A past intention, so not carried out: "We had planned to revert …, but the station was taken".
    r"\b(?:had|'d) (?:originally |first )?(?:planned|meant|intended|hoped|wanted|been (?:going|planning|hoping)) to\b"
    r"|\b(?:we|i|they) (?:was|were) going to (?:re-?run|run|re-?test|test|try|check|revert|compare|measure)\b",
    r"\bnot (?:[a-z-]+ ){1,5}yet\b",  # and "…, so that has not happened":
    r"\b(?:that|this|it)(?: (?:has|have) not| hasn't| did not| didn't)(?: yet)? happen(?:ed)?\b",
    r"\blocal(?:ly)? only\b|\bonly (?:local(?:ly)?|on my (?:machine|laptop|box|branch))\b|\bnot (?:yet )?pushed\b",
    # Still open: "still investigating the gap", "still looking into why".
    r"\bstill (?:investigating|looking into|digging|trying to (?:figure|work|find) out|working out|unexplained)\b",
    # "so that check is still to do", "the repro remains to be run".
    r"\b(?:is|are|remains?|was) (?:still )?to (?:do|be done|be run|be re-?run|be checked|be tested|be confirmed)\b"
    r"|\bremains? (?:to be )?(?:outstanding|undone)\b",
    flags=EN_FLAGS,
)

#: The action is ahead: an intention or a plan, also told in the past ("we decided to … and see whether …").
PLANNED = any_of(
    # "rolling back is the plan if the fix doesn't land": a plan named as such.
    r"\b(?:is|was) (?:the|our) (?:plan|fallback|backup plan|next step)\b(?![^.;:]{0,60}?,? and (?:we|i) did\b)",
    # A person's intention; "you will see it fail" in a repro is what the steps show, not a plan.
    r"(?:\b(?:we|i|they|someone|the team|qa)(?:'ll| will| are going to| am going to| plan to| intend to"
    r"| need to| have to| still need to)|\b(?:going to|plan(?:ning)? to)"
    # The subject dropped, as in a note: "Will revert `9b2d771` on Thursday", "… and will look at the trace".
    r"|(?:^|(?<=[.;!?]\s)|(?<=\n)|(?<=\band\s)(?=[Ww]ill(?!\s+(?:now|also|then)\b)))[Ww]ill)"
    r" (?:(?!(?:the|a|an|its|their|this|that) )\w+ )?(?:try|test"
    r"|run|re-?run"
    r"|check|verify|validate|confirm|open|create|push|file|raise|send|write|ship|add|measure|see|look|cut|rebase"
    r"|submit|put up|flash|revert|apply|deploy|build|rebuild|bisect|replay|patch|compare|instrument|capture|profile"
    r"|record|reproduce|repro|roll back|install|swap|pin|force|toggle|benchmark|soak|retest|re-?test|repeat"
    r"|find out|figure out|work out|investigate|dig into|look into|go through|read through|review|audit|inspect|reboot"
    r"|restart|power-cycle|retry|redo"
    r"|post|share|report back|write (?:it|this|that) up|log|trace|dump|monitor)\b",
    r"\bwill be (?:opened|created|pushed|merged|tested|verified|validated|run|re-?run|checked|added|written|filed"
    r"|measured|confirmed|done|tried|repeated|redone)\b",
    r"\bnext (?:sprint|week|release|month|iteration)\b",
    r"\bplanned to (?:confirm|verify|check|test|prove|run|try)\b|\b(?:plan|next steps?|to ?do)\s*:"
    r"|\b(?:the |my |our )?plan (?:\w+ ){0,3}?(?:is|was) to\b(?![^.;:]{0,60}?,? and (?:we|i) did\b)",
    r"\b(?:is|are) (?:still )?(?:building|compiling|being built|queued|running now)\b",
    # A check being set up, said with a gerund: "Adding a debug assert to catch it on the next testnet run".
    r"(?:^|[.;]\s*|\b(?:i'm|i am|we're|we are) )(?:adding|putting|running|trying|building|writing|wiring) [^.;]{0,80}?"
    r"\bto (?:catch|confirm|verify|see|check|prove)\b"
    # Not a date a step names: "book the slot for tomorrow", "shows the day after tomorrow".
    r"|\b(?:(?<!for )(?<!after )tomorrow(?!'s (?!build|release|deploy|run|nightly|test|rollout)\w)|later this week"
    r"|once (?:the next|it lands|it merges|ci is green))\b",
    r"\bwill (?:ship|land|release|publish|merge|provide|include)\b",
    r"\bnext steps? (?:is|are|will be|would be)\b",
    r"\bonce (?:i|we|they|someone|the team) (?:push|open|create|merge|land|submit|file|raise|send)\w*\b",
    r"\b(?:pr|mr|pull request|change|patch|branch|commit|number|link|repro\w*|steps?|tests?|experiment)"
    r" (?:will|would) be\b",
    # Starting with its future: "will open it once I rebase" (lookbehinds, not `^`, keep the regex_guard).
    r"(?<!\w )(?<![\w'])(?:will|going to|gonna|about to|plan to|planning to) (?:\w+ )?(?:open|create|push|cut"
    r"|submit|file|raise|send|put|merge|rebase|land|branch|run|test|try|check|write|do)\b",
    r"\b(?:i'm|i am|we're|we are) (?:still |now |currently )?(?:setting up|preparing|getting|building|writing)\b",
    r"\b(?:we|i|they|the team|someone)\s+(?:\w+\s+)?(?:decided|agreed|chose|opted|arranged|planned) to\b"
    r"(?=[^.;:]{0,80}?\band (?:see|check|find out|learn) (?:whether|if)\b)"
    r"|\b(?:went|goes|put|added) (?:in)?to (?:the |our )?(?:[\w'-]+ ){0,3}(?:plan|schedule|backlog)\b",
    flags=EN_FLAGS,
)

#: Watching instead of verifying: dashboards, monitoring, "no new X since Friday", "so far".
WATCHING = any_of(
    # Not "exported it to the dashboard": where a counter added is shown, not a way to check.
    r"(?<!exported it to the )(?<!exported them to the )(?<!exported to the )\bdashboards?\b",
    r"(?<!flame )\bgraphs?\b",
    # As a verb only: "the legality monitor" is a component, "we monitored it" is watching.
    r"\b(?:monitor(?:ing|ed)|watch(?:ing|ed))\b|\b(?:to|will|'ll|we|i|they|and|then|keep|just) (?:monitor|watch)\b",
    r"\bkeep(?:ing)? an eye\b|\b(?:kept|keeping|left) (?:the )?(?:[\w/ ]{0,20} )?(?:panels?|dashboards?"
    r"|graphs?) (?:open|up)\b",
    r"\b(?:on|in) (?:the |our |prod(?:uction)? )?(?:grafana|datadog|kibana|sentry|cloudwatch|new relic)\b",
    r"\bsince (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|yesterday|last \w+|the (?:deploy|release"
    r"|rollout))\b",
    r"\bso far\b",
    # "not a single `ECONNRESET` alert has fired since": the quiet after a deploy.
    r"\bnot (?:a single|one) (?:[\w-]+ ){0,2}(?:alerts?|pages?|errors?|incidents?|crash(?:es)?|reports?|tickets?)\b"
    r"|\b(?:has|have)(?:n't| not)? (?:fired|paged|alerted|recurred|come back) since\b",
    r"\bno (?:new|more|further) (?:\w+ )?(?:alerts?|errors?|deadlocks?|crash(?:es)?|incidents?|reports?"
    r"|occurrences?|failures?|pages?|tickets?)\b",
    flags=EN_FLAGS,
)

#: An inference standing in for an experiment: a review, reading the code, an agreement.
INFERENCE = any_of(
    # A conditional is what would happen, not what did: "would make them agree", "could explain".
    r"\b(?:would|could|might) (?:\w+ )?(?:repro|reproduce|trigger|fail|crash|hang|make|fix|explain|cause|produce"
    r"|lead|result|account|give|prevent|stop|resolve|work)\b",
    # Reading or tracing code, a trace or a diff: wherever the object sits in the clause.
    r"\b(?:read|reading|inspect(?:ed|ing)?|review(?:ed|ing)?|looked at|stepp(?:ed|ing) through|walk(?:ed|ing) through"
    r"|trac(?:ed|ing) through|went through|going through|audit(?:ed|ing)?) (?:\w+ ){0,4}?(?:the |a |our )?"
    r"(?:code|diff|source|stack ?traces?|logs|implementation|patch|changes?|Q)\b",
    r"\bin the (?:source|code|diff|implementation)\b",
    r"\bstack ?traces? (?:\w+ )?(?:match\w*|(?:is|are|was|were) (?:identical|the same)|lines? up)\b"
    r"|\bmatch\w* (?:the |our )?(?:stack ?trace|backtrace|crash dump)\b",
    r"\bon paper\b|\b(?:arithmetic|math|maths|numbers) (?:works?|worked|checks?|checked) out\b"
    r"|\b(?:the )?(?:arithmetic|calculation|maths?) (?:gives|gave|says|shows|comes to)\b|\bconcurs?\b|\bline by line\b",
    r"\b(?:agreed|agrees?|consensus|signed off|everyone (?:thinks|says|believes))\b",
    # A coincidence in time is a correlation, not an experiment.
    r"^\W*(?:that|this|it) (?:holds|is true|applies) (?:for|to) (?:both|all|each|every)\b"
    r"|\b(?:correlat\w+|coincides? with|coincided with|timestamps? (?:match|line up|overlap)\w*|timestamps? within"
    r"|lines? up (?:in time|with the (?:time|timing|timestamps?|deploy\w*|spikes?|pauses?|restarts?)))\b",
    flags=EN_FLAGS,
)

#: What a failure looks like from outside, and verbs that only link cause to effect: neither is a mechanism.
_SYMPTOM = (
    r"fail|fails|failed|failing|crash|crashes|crashed|hang|hangs|hung|freeze|freezes|froze|frozen|stall|stalls"
    r"|stalled|stop|stops|stopped|throw|throws|threw|thrown|raise|raises|raised|error|errors|errored|break|breaks"
    r"|broke|broken|die|dies|died|panic|panics|panicked|abort|aborts|aborted|misbehave|misbehaves|misbehaved"
    r"|occur|occurs|occurred|happen|happens|happened|make|makes|made|cause|causes|caused|lead|leads|led|result"
    r"|results|resulted|trigger|triggers|triggered|seems|appears|looks|has|does|was|is|as|its|this|thus|plus"
    r"|always|sometimes|perhaps|unless|across|less|yes|whereas|towards|afterwards|needs|need|seed|speed|indeed"
    r"|hundred|red|bed|kind|issues|problems|bugs|conditions|glitches|the|and|for|our|all|any|one|two|that|which|with|goes|go|went|gone|becomes|become|became|turns|turned|gets"
    r"|jitter|jitters|flicker|flickers|lag|lags|stutter|stutters|spikes|slows|degrades|shows|seen|saw"
    r"|from|into|only|also|each|every|some|more|been|being|get|have|then|when|there|their|them|they"
)
_VERB_RE = re.compile(
    r"(?<!fail )(?<!fails )(?<!failed )(?<!failing )"
    r"\b(?:does not|doesn't|did not|didn't|never|not|to|can|cannot|may|might|could|will|would|must)\s+([a-z]{3,})\b"
    r"|\b([a-z]{2,}(?:[^su\W]s|ed))\b"
    r"|\b(?:without|by|before|after|while|instead of)\s+([a-z]{3,}ing)\b"
    r"|\b(held|kept|took|sent|left|went|read|reads|wrote|got|set|ran|put|built|lost|found|hit|let|uses|skips)\b",
    re.ASCII,
)
_SYMPTOM_RE = re.compile(rf"(?:{_SYMPTOM})", re.IGNORECASE)
#: What "never" or "doesn't" turn into a symptom: the job never finishes, the call doesn't return.
_NEGATED_SYMPTOM_RE = re.compile(
    r"(?:finish|complete|respond|return|progress|proceed|terminate|exit|load|start|work|run|end|succeed|recover"
    r"|resume|arrive|appear|show)(?:s|es|ed)?",
    re.IGNORECASE,
)
_NEGATORS = ("does not", "doesn't", "did not", "didn't", "never", "not")


def clauses(sentence: str) -> list[str]:
    """The clauses of one sentence: a "but" or a semicolon starts a new claim."""
    return [c for c in _CLAUSE_RE.split(sentence) if c and c.strip()]


#: Symptoms said in more than one word: "runs out of memory", "times out", "falls over".
_SYMPTOM_PHRASE_RE = compile_guarded(
    r"\b(?:runs?|ran|running) out of \w+|\btim(?:es|ed|ing) out\b|\b(?:goes|go|went) (?:down|wrong|away|away)\b"
    r"|\b(?:falls?|fell) over\b|\b(?:blows?|blew) up\b"
    # Producing the symptom is not a mechanism: "returns a 500 error", "shows the wrong name", "throws an exception".
    r"|\b(?:returns?|returned|throws?|threw|raises?|raised|gives?|gave|shows?|showed|displays?|displayed|emits?"
    r"|emitted|responds? with|responded with|produces?|produced)\s+(?:back\s+)?(?:an?\s+|the\s+|some\s+)?(?:http\s+)?"
    r"(?:\d{3}\b|(?:[a-z]+\s+)?(?:errors?|exceptions?|failures?)\b|nothing\b|zero\b|no\s+\w+|empty\b|wrong\b"
    r"|stale\b|outdated\b|out-of-date\b|duplicated?\b|truncated\b|partial\b|corrupt\w*|invalid\b|bad\b"
    r"|incorrect\b|garbage\b|[\w -]{1,30}? (?:later|earlier|larger|smaller|greater|bigger|higher|lower|longer"
    r"|shorter|older|newer) than\b)"
    # Not doing anything at all says what is seen, not why: "queries do not match anything".
    r"|\b(?:do|does|did)(?: not|n't) \w+ (?:anything|properly|correctly|at all|as expected)\b",
    re.IGNORECASE,
)


#: Words after which an -s or -ed word is a noun or an adjective: "the affected passes", "for quizzes".
_NOUN_BEFORE = frozenset(
    "the a an its their his her our your my this these those some any all each every no both many several few"
    " of for in on at by with from to into onto between among across over under about per than and or"
    " two three four five six seven eight nine ten".split()
)
#: The words just before a position (lowercase), and whether only a clause end follows it.
_WORD_BEFORE_RE = re.compile(r"([\w'-]+)\W*$")
_ENDS_RE = re.compile(r"\s*(?:[.,;:!?)]|$)")
#: A plural subject before its own verb: "the route reflectors being OOM-killed", "the build agents are".
_PLURAL_SUBJECT_RE = re.compile(r"\s+(?:being|are|were|have|had)\b")


#: Plurals of this domain that are next to never verbs: "the worker nodes", "large files", "stale entries".
_PLURAL_NOUNS = frozenset(
    "nodes users bytes rows entries pods items events packets frames shards partitions replicas tables columns"
    " fields objects instances sessions tokens results products devices sensors samples workers servers clients"
    " connections files tasks jobs tenants customers invoices images pixels segments sockets endpoints services"
    " containers clusters regions zones disks volumes apis numbers values timestamps dates names ids spikes"
    " resources".split()
)


#: A count of more than one ("8", "8k", "1,200"): a plural noun phrase follows it, whose -s word agrees with it.
_COUNT_RE = re.compile(r"(?!1\b)\d[\d,]*k?")


def _is_noun(clause: str, start: int, end: int) -> bool:
    """An -s or -ed word read as a noun or an adjective by its neighbours, not as a verb ("validator threads.",
    "the GS-04 passes went", "for zero-minute quizzes")."""
    head = clause[max(0, start - 80) : start]
    prev = _WORD_BEFORE_RE.search(head)
    if prev is None:
        return False
    word = prev.group(1).lower()
    if word in _NOUN_BEFORE or "-" in word or any(ch.isdigit() for ch in word):
        return True
    before = _WORD_BEFORE_RE.search(head[: prev.start()])
    word2 = before.group(1).lower() if before else ""
    if _COUNT_RE.fullmatch(word2):
        return True  # "with 8 test threads", "on the 8k print layouts": a counted compound noun
    if (word.endswith(("ed", "ing")) or word in _ADJECTIVES) and word2 in _NOUN_BEFORE:
        return True  # "the affected passes", "the extra pickups"
    if word2 in _NOUN_BEFORE and word.isalpha() and _PLURAL_SUBJECT_RE.match(clause, end):
        return True  # "on the route reflectors being OOM-killed": a compound noun, then its verb
    return word2 in _NOUN_BEFORE and bool(_ENDS_RE.match(clause, end)) and word2 not in ("the", "a", "an")


#: Adjectives that only stand before a noun: "the extra pickups", "the new returns".
_ADJECTIVES = frozenset(
    "extra new old other same additional last next first second remaining missing wrong full empty late early"
    " spare duplicate double few many several".split()
)
#: A bare verb between its subject and its object: "firmware compute the id", "the layer see the conflict".
_BARE_VERB_RE = re.compile(r"\b([a-z]+)\s+([a-z]{3,})\s+(?:the|a|an|its|their|every|each|both)\b", re.ASCII)
#: Words before a determiner that are not verbs: conjunctions, prepositions, adverbs.
_NOT_VERB = frozenset(
    "because since while after before if so once until unless whether where like as about during unlike via except"
    " than what who how why onto upon near behind beyond within without against toward towards same also just even"
    " still only not never yet but nor than inside outside through throughout around along despite per whereas"
    " whenever wherever and or are were was has had have does did can could will would may might must shall should"
    " off out down away back over into then there when which with from that this".split()
)


_CAUSATIVE_RE = re.compile(
    r"\b(?:makes?|made|making|lets?|letting|causes?|caused|causing|forces?|forced)\s+(?:the\s+|a\s+|an\s+|its\s+)?$",
    re.IGNORECASE,
)


def _bare_verbs(clause: str) -> list[str]:
    """Verbs in their plain form, known by their place: after a content word, before a determiner."""
    found: list[str] = []
    for m in _BARE_VERB_RE.finditer(clause):
        subject, verb = m.group(1).lower(), m.group(2).lower()
        if subject in _NOUN_BEFORE or subject in _NOT_VERB or verb in _NOT_VERB or verb in _NOUN_BEFORE:
            continue
        if _CAUSATIVE_RE.search(clause, max(0, m.start() - 40), m.start()):
            continue  # "which makes the scheduler reject the plan": an effect down the chain
        if not _SYMPTOM_RE.fullmatch(verb) and not verb.endswith(("ly", "ing")):
            found.append(m.group(2))
    return found


def action_verbs(clause: str) -> list[str]:
    """Verbs of a clause that say what something does, leaving out symptoms and mere links (fails, causes)."""
    found: list[str] = []
    text = _SYMPTOM_PHRASE_RE.sub(" ~ ", clause)  # a mark, so no bare verb is read across the gap
    for m in _VERB_RE.finditer(text):
        verb = next(g for g in m.groups() if g is not None)
        if m.group(2) is not None and (verb.lower() in _PLURAL_NOUNS or _is_noun(text, m.start(), m.end())):
            continue
        negated = m.group(1) is not None and m.group(0).lower().startswith(_NEGATORS)
        if not _SYMPTOM_RE.fullmatch(verb) and not (negated and _NEGATED_SYMPTOM_RE.fullmatch(verb)):
            found.append(verb)
    return found or _bare_verbs(text)
