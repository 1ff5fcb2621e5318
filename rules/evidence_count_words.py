"""The lexicon of counts (docs/rules.md#observed-rates): number words, how a count is written, the nouns that
count runs and failures, the verbs of failing, the labels whose numbers count nothing, and the words that say
something went wrong at all. `rules.evidence_rates` and the readers of failures after the fix build on these.
"""

from __future__ import annotations

import re

from rules.regex_guard import compile_guarded

#: More figures (rates, summaries) than any real text states: past them a text is a pasted blob of "1 in 1 in …",
#: or a log, and is not read further. Every reader of figures stops there, so its work stays linear in the text.
ENOUGH = 64

NUMBER_WORDS = {
    "a single": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "seventeen": 17,
    "eighteen": 18,
    "nineteen": 19,
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "sixty": 60,
    "seventy": 70,
    "eighty": 80,
    "ninety": 90,
    "a hundred": 100,
    "hundred": 100,
    "a thousand": 1000,
    "once": 1,
    "twice": 2,
    "thrice": 3,
    "一": 1,
    "二": 2,
    "三": 3,
    "四": 4,
    "五": 5,
    "十": 10,
}
#: A count: digits (with separators, a decimal or a `k`), a range's first figure, or a number word.
NUM = (
    r"(?:\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)(?!\d)(?:[kKM]\b|\s+(?:thousand|million|billion)\b)?"
    r"(?:\s*[〜~\-–]\s*\d+(?:\.\d+)?(?!\d))?"
    r"|\b(?:a single|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen"
    r"|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|a hundred|hundred"
    r"|a thousand)\b"
)
ABOUT = (
    r"(?:(?:about|around|roughly|approximately|approx\.?|some|nearly|almost|over|more than|under|every|each|the|last"
    r"|past|first|latest|previous)\s+|~\s*){0,3}"
)
#: A go of something a person does again and again, each a run: "Forty trips", "one test-pass scan in eight".
_GOES = r"trips|rides|goes|takes|plays|scans?|swipes?|taps?|presses"
#: Things a repro is run as: the unit of a total.
RUN_NOUN = (
    r"(?:runs?|times|x|iterations?|attempts?|tries|trials?|replays?|executions?|loops?|cycles?|repetitions?|repeats?"
    r"|restarts?|reboots?|boots?|starts?|builds?|invocations?|passes|rounds?|nights?|jobs?|sessions?|launches"
    r"|requests?|calls?|sends?|uploads?|imports?|deploys?|cold starts?|reloads?|clicks?|submissions?|transactions?"
    r"|messages?|queries|orders?|tests?|test runs?|CI runs?|pipelines?|seeds?|shots?|captures?|connections?"
    rf"|{_GOES})"
)
#: Repetitions of a run only, not the things one run handles: "3 of 10 runs", not "12 of the 500 orders".
REPEAT_NOUN = (
    r"(?:runs?|times|iterations?|attempts?|tries|trials?|replays?|executions?|loops?|cycles?|repetitions?|repeats?"
    r"|restarts?|reboots?|boots?|starts?|builds?|invocations?|passes|rounds?|nights?|jobs?|launches|deploys?"
    r"|cold starts?|reloads?|test runs?|CI runs?|pipelines?|seeds?|shots?|captures?|sends?|submissions?|batches"
    rf"|power cycles?|{_GOES})"
)
#: Things that count failures.
FAIL_NOUN = (
    r"(?:failures?|fails|crash(?:es)?|hangs?|errors?|timeouts?|time-?outs?|repros?|reproductions?|hits?|panics?"
    r"|deadlocks?|stalls?|drops?|mismatch(?:es)?|occurrences?|segfaults?|aborts?|assert(?:ion)?s?|flakes?|reds?"
    r"|corruptions?|divergences?|freezes?|incidents?|desyncs?)"
)
FAIL_VERB = (
    r"(?:fail(?:ed|s)?|crash(?:ed|es)?|hung|hangs?|hit|broke|errored|timed out|dropped|lost|diverged|deadlocked"
    r"|blew up|fell over|went down|died|exploded|misbehaved|failed over|wedged|locked up|stuck"
    r"|panicked|aborted|froze|stalled|reproduced|repro'd|tripped|fired|showed up|turned up|happened|occurred"
    r"|went red|were red|was red|came back|jammed|misfired|glitched|desynced|desynched|stopped short|overshot)"
)


#: Not a setting's size: "the 300 ms vacuum timeout".
NOT_A_UNIT = r"(?!(?:ms|s|secs?|seconds?|minutes?|mins?|hours?|h|us|ns|mm|cm|kb|mb|gb)\b)"
#: A unit right after a figure: "from 400 to 120 ms" measures, it counts nothing.
UNIT_AFTER = re.compile(r"\s*(?:%|(?:ms|s|secs?|seconds?|minutes?|mins?|hours?|h|us|ns|mm|cm|[kmg]i?b)\b)", re.I)
#: A failure made on purpose, then counted: "pulled J3 to simulate a filament failure eight times".
STIMULUS = re.compile(
    r"\b(?:simulat|inject|forc|induc|provok|introduc|emulat|fak)\w*\s+(?:an?\s+|the\s+)?(?:[\w-]+\s+){0,3}$"
    # What the repro does, in brackets after its name: "Repro (25 WITS link drops at 2,812 m): 0 of 25 froze".
    r"|\b(?:repro|reproduction|the original repro)\s*[(（]\s*$",
    re.IGNORECASE,
)


#: The words a label's number follows, which then counts nothing: "jams on page 2 in 12 of 12 attempts", "step 3 of
#: 10", "the berth 4/5 boundary", "dock 3/4".
_LABELS = (
    "page step line frame stage slot tray level row column berth lane bay gate zone track platform stand dock pier"
)
_LABELS += " aisle sector shelf channel"
#: Lookbehinds, one per label, to put before a figure that must not be a label's.
NOT_A_LABEL = "".join(f"(?<!{label} )" for label in _LABELS.split())


#: A word for something going wrong, counted or named: one lexicon for every reader of failures after the fix.
FAILURE_WORD = re.compile(
    r"\b(?:fail\w*|crash\w*|error\w*|time[ds]?[ -]?outs?|hung|hang\w*|duplicat\w*|desync\w*|mismatch\w*|corrupt\w*"
    r"|reject\w*|reds?|spikes?|pauses?|drops?|dropped|dropouts?|nan|leak\w*|stalls?|resets?|hitch\w*|stutter\w*|broke|wrong"
    r"|jam\w*|freez\w*|froze)\b"
    r"|失敗|落ち|エラー|クラッシュ|ハング|タイムアウト|赤|重複|欠損|不一致|開いたまま|閉じたまま|未(?:起動|作動|点灯|応答|検知)|不発",
    re.IGNORECASE,
)


#: Runs made, counted with the verb that made them: no outcome ("ran it 20 more times", "repeated the chase 20 times").
RUNS_MADE = re.compile(
    r"\b(?:ran|re-?ran|repeated|played|replayed|executed|tried)\b[^.;,:]{0,60}?(?<![\d,.])\d[\d,]* (?:more )?"
    r"(?:times|runs|iterations|cycles|rounds)\b(?!\s*[:：(])",
    re.IGNORECASE,
)
#: No failure at all over the counted runs: "it never failed", "not once", 「一度も失敗しなかった」.
NONE_FAILED = re.compile(
    r"\b(?:never|not once|didn't|did not|no|zero|has not|hasn't|have not|haven't)\s+(?:\w+\s+)?(?:failed|fail|fails"
    r"|failures?|crash\w*|hung|hangs?|reproduc\w*|errors?|broke|shown up|showed up|happened|occurred|appeared|recurred"
    r"|come back|came back)\b|一度も(?:失敗|落ち|再現|発生|エラー|起き|出て)"
    # "at no point did the upload actually hang", "none of them failed".
    r"|\bat no point did\b|\bnone of (?:them|those|the \w+) (?:\w+ )?(?:failed|crashed|hung|reproduced|broke)\b"
    # "I've run those steps 12 times since then without the door sticking".
    r"|\b(?:times|runs|tries|attempts)\b[^.;]{0,30}?\bwithout (?:the |a |an |any |it |them )?"
    r"(?:[\w-]+ ){0,2}?[a-z]+ing\b",
    re.IGNORECASE,
)


#: The figure before the fix, set aside in brackets: 「500 回すべて ok（修正前は 200 回中 41 回失敗）」.
BEFORE_ASIDE = re.compile(
    r"[（(][^（）()]{0,80}?(?:修正前|直す前|(?<![\u4e00-\u9fff])前は|以前は|before the fix|before|on main)"
    r"[^（）()]{0,80}[）)]",
    re.I,
)
#: Some of a counted lot, in Japanese: 「100 回中 3 回」「1,240 本中 2 本」 (the same counter on both sides).
SOME_OF_JA = re.compile(
    r"(?<![\d.,])(\d[\d,]*)\s*(回|本|件|個|枚|台|晩|日|夜|セット|サイクル|ロット)(?:中|のうち)\s*(\d[\d,]*)\s*\2"
    # 「再生を 1,000 回行い、997 回は船名が入りました」: the runs made, then a part of them, in the same sentence.
    r"|(?<![\d.,])(\d[\d,]*)\s*(回)(?:行い|行って|実行し|実行して|流し|流して|回し|回して|再生し|再生して|試し|試して)"
    r"[、,]\s*(?:その)?(?:うち)?\s*(\d[\d,]*)\s*回(?:は|が|で)"
)


#: Past tenses not in -ed or -t: "Out of 500 imports, one came back with the liner zeroed".
_IRREGULAR = "came|went|gave|broke|threw|froze|fell|showed|blew|stuck|took|had|ran|tore|wrote|drew|slid|shook|rang|sank"
#: A share of runs said as "(out) of": "Out of forty syncs I ran yesterday, fourteen produced a duplicate".
OUT_OF = compile_guarded(
    rf"\b(?:out of (?:the |all |my |our )?|of (?:those|these) )(?P<total>{NUM})\s+(?:[\w-]+\s+){{0,3}}?[\w-]+s\b"
    rf"[^,;.]{{0,40}}?,\s*"
    rf"(?:only |just |exactly )?(?P<hits>{NUM})\s+(?:of them\s+)?(?:[\w-]+\s+)?(?:[a-z]+(?:ed|t)|{_IRREGULAR})\b",
    re.IGNORECASE,
)


#: A count of failures brought down, not to zero: "duplicate rows: down from 60 to 2", "errors 40 → 3".
DOWN_TO = re.compile(
    r"\bfrom (?P<a>\d[\d,]*)(?: [a-z]+)?(?: (?:per|in|of|out of) [\d,]+(?: [a-z]+)?)? (?:down )?to (?P<b>\d[\d,]*)\b"
    r"|(?<![\d.,])(?P<c>\d[\d,]*)\s*(?:→|->)\s*(?P<d>\d[\d,]*)"
    r"(?!\s*(?:%|ms|s\b|sec|seconds?|minutes?|min\b|hours?|h\b|[KMG]i?B|x\b|fps|rps|qps))"
    r"|回中\s*(?P<e>\d+)\s*回から[、,]?\s*\d+\s*回中\s*(?P<f>\d+)\s*回(?:に|まで)(?:減|下が|改善|落ち)"
    # "skipped on 2 nights, down from 48": the count after, then the count before.
    r"|\b(?P<h>\d[\d,]*) (?:nights?|days?|runs?|times|batches|builds|jobs|cycles|trials|attempts|replays?|boots?"
    r"|iterations?),? (?:down|reduced) from (?P<g>\d[\d,]*)\b",
    re.IGNORECASE,
)
