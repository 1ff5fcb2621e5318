"""A sighting is not a repro (docs/rules.md#observed-rates): a failure seen once or twice with no runs counted
around it ("failed once", "it blew up last Thursday", 一度だけ), the quiet after it ("haven't seen it since"), or
most runs passing ("most nights it's fine"). Read on masked text; linear.
"""

from __future__ import annotations

import re

from rules.evidence_clauses import sentence_around
from rules.evidence_count_words import FAIL_VERB as _FAIL_VERB
from rules.evidence_count_words import REPEAT_NOUN as _REPEAT_NOUN
from rules.regex_guard import compile_guarded

#: A failure seen once or twice, said as a count with nothing run around it: "failed once", "a single time",
#: 「一度だけ」; and the quiet after it: "haven't seen it since", 「その後は再現していません」.
_SIGHTING = compile_guarded(
    rf"\b{_FAIL_VERB}\s+(?:it\s+)?(?:only\s+|just\s+)?(?:once(?!\s+(?:the|a|an|it|we|i|they|its|our|this|that|Q"
    r"|every|each|per|in every|out of)\b)|one time|a single time|twice|two times)\b"
    r"|\b(?:just |only )?the one time\b|\bfinally (?:it )?" + _FAIL_VERB + r"\b"
    r"|\b(?:only|just)\s+(?:once|one time|a single time|the first time)\b"
    # "got the crossed book once": what was seen, then a count of one with nothing run around it.
    r"|\b(?:got|saw|hit|caught|triggered|observed|spotted|seen)\s+(?:the|a|an|that|this)\s+(?:[\w-]+\s+){0,6}?once"
    r"(?=\s*(?:[.;,!)]|$))"
    r"|\bthe first time (?:i|we) (?:tried|ran it|ran)\b"
    # The steps done a single time: "I did this once, at Friday's rig check".
    r"|\b(?:i|we) (?:did|ran|tried|went through|performed) (?:this|it|that|these steps|the steps)(?: only| just)? once"
    r"(?!\s+(?:more|again|per|a|an|every|each)\b)"
    r"|\b(?:haven't|have not|hasn't|has not|never|not)\s+(?:been\s+)?(?:seen|hit|reproduced|repro'd|observed|gotten"
    r"|got|managed to \w+)\s+(?:it\s+)?(?:since|again)\b"
    r"|\bnever (?:again|since|came back|recurred)\b|\b(?:nothing|none|not) since\b"
    # A failure with a date, not a rate: "it blew up last Thursday", "crashed yesterday".
    rf"|\b{_FAIL_VERB}\s+(?:\w+\s+){{0,3}}?(?:last (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|week"
    r"|night|month)|yesterday|this morning|on (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday))\b"
    # Most runs fine: "most nights it's fine", "usually passes", 「普段は問題ない」.
    r"|\b(?:most|usually|normally|mostly|typically|generally|often|nearly always|almost always|the majority of"
    r"|the vast majority of|the bulk of)\b"
    r"[^.;\n]{0,40}?\b(?:fine|pass(?:es)?|works?|succeeds?|ok|okay|green|clean|completes?)\b"
    r"|(?:普段|通常|たいてい|大抵|ほとんど|大体|だいたい|多くの場合|大半|大部分|基本的に)(?:の\w{0,6}?)?(?:は)?[^。\n]{0,20}?"
    r"(?:問題な|正常|成功|通る|通り|動く|動き)"
    r"|(?:一度|1度|一回|1回|1 回)(?:だけ|きり|のみ)(?:の)?\s*(?:発生|再現|起き|観測|見られ|失敗|落ち|確認され|出)"
    r"|(?:発生|再現|起き|観測|失敗|落ち|出)(?:した|しました|た|ました)?(?:の|こと)?(?:は|が|も)?\s*"
    r"(?:一度|1度|一回|1回|1 回)(?:だけ|きり|のみ)"
    r"|(?:その後|以降|それ以来)(?:は|、)?(?:一度も)?(?:再現|発生|起き)(?:して|し)?(?:い)?(?:ない|ません|ず)",
    re.IGNORECASE,
)


def sighting(masked: str) -> str | None:
    """A failure seen once (or twice) with no runs counted around it, or seen at a point in time: not a repro."""
    if _WHEN.search(masked) is not None:
        for dated in _DATED.finditer(masked):
            if not _RUNS_COUNTED.search(sentence_around(masked, dated.start(), dated.end() - dated.start())):
                return dated.group(0).strip()  # not "ran it 40 times this morning": a session of counted runs
    if _SIGHTING_HINT.search(masked) is None:
        return None
    m = _SIGHTING.search(masked)
    return None if m is None else m.group(0).strip()


#: Runs counted in the sentence of a date: "I ran the drill 40 times this morning", "on each of the 25 runs".
_RUNS_COUNTED = re.compile(rf"(?<![\d.,])\d[\d,]*\s*{_REPEAT_NOUN}\b|回(?:中|のうち|実行|繰り返|試)", re.IGNORECASE)


#: A point in time: a day, a date, a clock time ("last Tuesday", "on 3 March", "at 14:02", 「昨日」「11 月 3 日」).
_DAY = r"(?:mon|tues|wednes|thurs|fri|satur|sun)day"
_MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
_WHEN_EN = (
    # "Replayed yesterday's 1,000 authorisations": a day naming the data set, not the time of a failure.
    rf"(?:last (?:{_DAY}|night|week|weekend|month)(?!'s\s+[\d,]+\b)(?:'s)?|yesterday(?!'s\s+[\d,]+\b)(?:'s)?"
    r"|this morning(?:'s)?|earlier today"
    r"|(?:a|an|one|two|three|a few|several|\d+) (?:days?|weeks?|months?|hours?) ago"
    # A clock time, not one a step sets or names ("set the clock to 23:05", "book the 18:00 slot").
    r"|(?<![\d:])(?<!to )(?<!the )(?<!until )(?<!till )(?<!from )\d{1,2}:\d{2}(?![\d:])"
    r"|the (?:night|morning|evening|afternoon|day) of|the \d{1,2}(?:st|nd|rd|th)\b"
    rf"|(?:on |during |in )?{_DAY}(?:'s| night| morning| evening| afternoon)|on {_DAY}|on (?:the )?\d{{1,2}}"
    rf"(?:st|nd|rd|th)(?:(?: of)? {_MONTH})?|on \d{{1,2}} {_MONTH}|on {_MONTH} \d{{1,2}}|on \d{{4}}-\d{{2}}-\d{{2}}"
    r"|on \d{1,2}/\d{1,2}|at \d{1,2}:\d{2}|at \d{1,2}\s*(?:am|pm))"
)
_WHEN_JA = (
    r"(?:昨日|昨夜|昨晩|今朝|先日|先週|先月|(?<!毎)(?<!毎週)[月火水木金土日]曜(?:日)?|\d{1,2}\s*月\s*\d{1,2}\s*日"
    r"|\d{4}-\d{2}-\d{2}|(?<![\d/])\d{1,2}/\d{1,2}(?![\d/])|\d{1,2}:\d{2})"
)
#: A verb in the past: a sighting verb, a verb of failing, or any "-ed" form ("was processed twice").
_SAW = (
    rf"(?:saw|seen|spotted|noticed|observed|caught|got|had|came|went|fell|broke|froze|blew|threw|ran|lost|took"
    # Not the writer's session, dated: "Reproduction (performed 2024-06-03, 09:10-11:40, bench rig …)".
    rf"|{_FAIL_VERB}|(?!(?:perform|conduct|schedul|book|start|finish|complet|plann)ed\b)[a-z]{{3,}}ed)"
)
#: A failure seen at a point in time, the time on either side of the verb: "we saw it … last Tuesday at 14:02",
#: "on 3 March the import crashed", 「昨日 14:02 に本番で発生した」. A date is when it was seen, not how often.
_DATED = compile_guarded(
    rf"\b{_SAW}\b[^.;\n]{{0,60}}?\b{_WHEN_EN}\b|\b{_WHEN_EN}\b[^.;\n]{{0,40}}?\b{_SAW}\b"
    # "That was Tuesday's nightly, around 16:40": the one time, dated.
    rf"|\b(?:that|it|this) was\s+(?:on\s+|in\s+)?{_WHEN_EN}"
    rf"|{_WHEN_JA}[^。\n]{{0,90}}?(?:発生|起き|見(?:られ|え|つか|かけ)|観測|落ち|出(?:た|ま)|確認され|検知|失敗|クラッシュ"
    r"|ハング|止ま|(?:た|ました)(?=[。、\n]|$))",
    re.IGNORECASE,
)

#: A point in time, which every dated sighting holds: most texts have none, and then `_DATED` is not run.
_WHEN = compile_guarded(rf"\b(?:{_WHEN_EN})|{_WHEN_JA}", re.IGNORECASE)

#: A word every sighting above contains: the pattern runs only on a text that has one.
_SIGHTING_HINT = re.compile(
    r"\b(?:once|one time|single|twice|two times|first time|since|again|recurred|last|yesterday|this morning|on"
    r" (?:mon|tues|wednes|thurs|fri|satur|sun)day|most|usually|normally|mostly|typically|generally|often|nearly|almost"
    r"|majority)\b|だけ|きり|のみ|その後|以降|それ以来|普段|通常|たいてい|大抵|ほとんど|大体|だいたい|多くの場合|大半|大部分"
    r"|基本的に",
    re.IGNORECASE,
)
