"""Failures counted after the fix are not a pass (docs/rules.md#completed-check): "2 failures", "3 runs hung",
"failed twice". A count is before the fix only when a before-word governs it: the nearest marker to its left says
before ("down from 30") and no after-word comes between, or a before-word follows it ("12 of 20 on the old build")."""

from __future__ import annotations

import re
from collections.abc import Iterable
from itertools import islice

from rules import evidence_count_shapes as shapes
from rules import evidence_count_words as counts
from rules import evidence_went_wrong as wrong
from rules.evidence_count_words import (
    ENOUGH,
    FAIL_NOUN,
    FAIL_VERB,
    FAILURE_WORD,
    NOT_A_UNIT,
    STIMULUS,
)
from rules.evidence_went_wrong import SPLIT_TALLY
from rules.regex_guard import compile_guarded

_N = r"(?:[1-9]\d*|once|twice|one|two|three|four|five|a couple of|a few|several|a handful of|a dozen)"
#: What a failure noun can modify: "30 repro runs", "2 crash dumps" count runs and files, not failures.
_MODIFIED = (
    r"runs?|tests?|steps?|cases?|paths?|scripts?|jobs?|suites?|handling|handlers?|rates?|modes?|budgets?|counts?"
    r"|counters?|logs?|messages?|codes?|reports?|dumps?|loops?|iterations?|attempts?|harness\w*|rigs?|builds?"
)
#: Failures counted: "failed 1 time in 20", "2 crashes", "3 of 50 runs hung", "two more timeouts", "3 runs hung".
_NOT_TOTAL = r"(?<!\d of )(?<!\d out of )(?<!\d/)"  # not the total of a pair: "0 of 500 runs fail"
_FAIL_COUNT = re.compile(
    rf"\b(?:fail\w*|crash\w*|hung|hangs?|timed out|times out|errored|reproduc\w*|broke|stalled|dropped|lost|diverged"
    rf"|panicked|aborted|froze|deadlocked|showed up|turned up|came up|popped up|tripped|jammed|misfired|glitched"
    rf"|desynced|wedged|locked up|went red|blew up|fell over|died|(?:went|goes|turned|came(?: up)?) (?:flat|dark|silent"
    rf"|blank|dead|missing|negative|wrong))\s+(?:again\s+)?(?:only\s+|just\s+)?{_N}\b"
    r"(?:\s*(?:/|of|in|out of)\s*\d[\d,]*)?"
    # Not the number in a name: "the bed-2 repro", "R2 errors".
    rf"|(?<![/\d])(?<![\w-])(?<!\d[,.])(?<!\d of )(?<!\d out of )(?<!\bnot )(?<!\bnever )(?<!\ball )"
    rf"\b{_N}\s+{NOT_A_UNIT}(?:[a-z-]+\s+){{0,2}}?{FAIL_NOUN}\b"
    rf"(?![ -](?:{_MODIFIED})\b)"
    # "2 NaN runs, down from 19", "3 red builds": runs counted by what went wrong in them.
    rf"|(?<![/\d.])(?<!\d,)\b{_N}\s+(?:NaN|Q|failed|failing|red|broken|bad|crashed|hung|flaky|diverged)\s+"
    r"(?:runs?|builds?|jobs?|tests?|iterations?|seeds?|boots?|replays?)\b"
    # "2 pockets came out unsealed": things counted by how they came out.
    rf"|(?<![/\d.])(?<!\d,)\b{_N}\s+(?:[a-z-]+\s+){{0,2}}?(?:came out|were left|ended up|went out)\s+"
    r"(?:un[a-z]+ed|wrong|bad|broken|blank|empty|torn|crooked|short|open|missing)\b"
    # "40 runs: 3 hung": the count as the subject of a failing verb.
    rf"|(?<![/\d.])(?<!\d,){_NOT_TOTAL}\b{_N}\s+(?:of them\s+)?(?:hung|crashed|failed|froze|timed out|errored"
    rf"|deadlocked|panicked|stalled)\b"
    rf"|{_NOT_TOTAL}\b{_N}\s+(?:of (?:them|those|these)\s+|(?:[a-z-]+\s+)?(?:runs?|iterations?|attempts?|tries|boots?"
    rf"|jobs?|builds?|replays?|cycles?|nights?)\s+)(?:still\s+)?{FAIL_VERB}\b"
    rf"|\b[1-9]\d*\s*(?:/|of|out of|in)\s*\d+\s+(?:\w+\s+)?(?:{FAIL_VERB}|fail\w*|crash\w*|hang\w*)"
    # 「2 回失敗した」「3 件エラー」「失敗は 2 回」
    r"|(?<![\d.])[1-9]\d*\s*(?:回|件|度)(?:だけ|ほど)?(?:は|が|で)?\s*(?:失敗|落ち|エラー|クラッシュ|ハング|タイムアウト|再現|発生"
    r"|赤|レッド|NG|(?i:fail))(?!(?:し)?(?:ず|ない|なかっ|ません|なし))"
    r"|(?:失敗|エラー|クラッシュ|ハング|タイムアウト|再発)(?:は|が)\s*[1-9]\d*\s*(?:回|件|度)"
    # 「こちらは 2 回、弁が開いたままになりました」: the count, then what went wrong in those runs.
    r"|(?<![\d.])[1-9]\d*\s*回[、,]\s*[^。、]{1,20}?(?:開いたまま|閉じたまま|閉じ(?:ず|なかった|ません)|止まっ|停止し|固まっ"
    r"|ずれ|外れ|落ち|飛ん|抜け)",
    re.I | re.A,
)
#: Words that put a count before the fix when they govern it.
_BEFORE_LEFT = re.compile(
    r"\b(?:before|previously|prior|without the (?:fix|patch|change)|unpatched|old (?:build|code|version)|original build"
    r"|on main|revert\w*|down from|versus|vs\.?|compared (?:to|with)|was|were|used to|main|master|baseline"
    r"|previous (?:build|release|version)|without|(?:earlier|first|previous|initial) (?:fix|attempt|patch|version)"
    r"|parent commit|previous commit|(?:buggy|faulty|affected) (?:build|firmware|version|code|release))\b"
    r"|不具合(?:の)?(?:ある|あった|入りの|を含む)(?:ファーム|版|ビルド|コード|バージョン)|修正前|(?i:fix|patch)\s*前|(?<![\u4e00-\u9fff])(?:以)?前(?:は|[:：])|元の(?:ビルド|コード|版)|戻した|外した|旧(?:版|ビルド|バージョン|コード|ファーム)|(?:最初|前|初回|当初)の(?:修正|対応|パッチ|案)",
    re.I | re.A,
)
_BEFORE_THE_FIX = re.compile(r"\bbefore the (?:fix|patch|change)\b|修正前|(?:fix|patch)\s*前", re.I)
#: Words that put what follows after the fix: "after the fix", "now", "down from 60 to 2", "60 → 2".
_AFTER_LEFT = re.compile(
    r"\b(?:after|afterwards|now|with the (?:fix|patch|change)|patched|fixed (?:build|version)|(?<!used )to)\b|→"
    r"|->|修正後|適用後",
    re.I | re.A,
)
#: A before-word just after the count, with no other figure between: "12 of 20 on the old build".
_BEFORE_RIGHT = re.compile(
    r"^[^.;,(\d]{0,30}?\b(?:before|previously|on main|on master|without the (?:fix|patch)|on the old|unpatched"
    r"|pre-?fix)\b(?!\s*[:=]?\s*~?\d)"
    # "20/20 crashes → 0/200": the figure an arrow leads from is the before.
    r"|^\s*(?:[a-z-]+\s+){0,2}?(?:→|->)"
    # 「16 回中 7 回出ていた」: the past progressive puts the failures before the fix.
    r"|^[^。、.;\d]{0,8}?(?:出|失敗し|落ち|発生し|再現し|起き|こけ|止まっ|固まっ)(?:てい(?:た|ました)|てた)"
    r"|^(?:てい(?:た|ました)|てた)"
    # "the job that failed 12 nights in a row … has completed on each of the 5 nights since the fix".
    r"|^[^.;]{0,60}?\b(?:has|have|now) (?:\w+ )?(?:completed|passed|succeeded|finished|run clean"
    r"|been green)\b[^.;]{0,40}?\b(?:since|after) the (?:fix|patch|change)\b",
    re.I | re.A,
)
_NOW_RIGHT = re.compile(r"^\s*(?:[a-z]+\s+){0,2}?now\s+(?!fails|crash|hangs|errors|times)[a-z]+(?:s|ed)\b", re.I | re.A)
_FROM_JUST_BEFORE = re.compile(r"\bfrom\s+(?:about\s+|~\s*)?$", re.I)

#: A failure that outlived the fix: "still fails", 「今も…出ます」, "two readings still came back off".
STILL_FAILS = compile_guarded(
    r"\bstill (?:fails?|failed|failing|crash\w*|hangs?|hung|hanging|times? out|timed out|errors?|errored|breaks?"
    r"|broke|reproduces|reproduced|flak\w*|red|trips|hits|throws|raises|triggers|shows the|freez\w*|froze|stalls?"
    r"|stalled|locks up|locked up|resets|reboots|jumps|skips|drops|overshoots|misses|missed|slips|slipped|sticks"
    r"|jams|jammed|leaks|drifts|drifted|loses|lost|overruns|overflows|overheats|undershoots|sags|stutters|latch(?:es|ed))\b"
    r"|\bthe same (?:[\w-]+ ){1,3}?(?:crashes|fails|hangs|errors out|times out|aborts|throws|freezes|stalls)\b"
    r"|\bstill (?:produces|gives|shows|logs|reports|raises|throws)\b[^.;]{0,30}?\b(?:faults?|errors?|failures?|crash\w*"
    r"|exceptions?|alarms?)\b"
    r"|\b(?:[1-9]\d*|two|three|four|five|six|seven|eight|nine|ten|a few|several|some) (?:[\w-]+ )?[a-z]+s still"
    r" (?!(?:pass|succeed|work|complet|finish|run|clean|match|agree|look|read|show|came back (?:clean|fine|ok))\w*)"
    r"(?:[a-z]+ed|came|went|got|fell|broke|froze|hit|stuck|threw)\b"
    # Still wrong in some runs, whatever the symptom is called: "on the ARM node it still shifts in 2 of 10".
    r"|\bstill (?!(?:pass|succeed|work|complet|finish|run|clean|match)\w*)[a-z]+s [1-9]\d* (?:of|out of) (?:the )?\d+"
    r"|\bstill \w+ (?:[\w-]+ ){0,3}?(?:in|on) [1-9]\d* ?(?:of|in|out of|/) ?\d+"
    # Still happening, counted, whatever it is called: "it still blanked twice", 「まだ早期解除が 2 回出ています」.
    r"|\bstill (?!(?:pass|succeed|work|complet|finish|run|ran|clean)\w*)(?:[a-z]+ed|got|hit|threw|saw|had|showed|put"
    r"|sent)\s+(?:[\w-]+\s+){0,3}?(?:once|twice|thrice|[1-9]\d* (?!of\b)[a-z-]+s\b"
    r"|(?:[1-9]\d*|two|three|four|five|six|seven|eight|nine|ten|several|a few) times)\b"
    # Still doing it on the same steps: "bay 3 still starts the cycle … on the same steps", 「同じ手順でまだ…」.
    r"|\bstill (?!(?:pass|succeed|work|complet|finish|run|clean|has|have|need|must|want)\w*)[a-z]+s? [^.;]{0,80}?"
    r"\b(?:on|with|under|using|following) the (?:very )?same (?:steps|repro|sequence|input|procedure|scenario|recipe)\b"
    r"|同じ(?:手順|条件|操作|シナリオ)(?:で|でも|では)(?:まだ|依然として?|相変わらず)"
    # Still doing it on another board, whatever it is called: "it still crosses the wire on the Model X board".
    r"|\bstill (?!(?:pass|succeed|work|complet|finish|run|clean|has|have|need|must|want|look|seem)\w*)[a-z]+s\b"
    r"[^.;]{0,60}?\b(?:on|with) the [\w. -]{1,30}?(?:board|unit|device|model|rig|node|machine|bench|runner|host|bay"
    r"|line|controller|build)s?\b"
    # Still off the mark, said any way: "zone 4 still fires 3–4 s late", "the tonnage still goes negative".
    r"|\bstill (?!(?:pass|succeed|work|complet|finish|run|clean|has|have|need|must|want)\w*)[a-z]+s? "
    r"(?:[\w.–-]+ ){0,3}?(?:late|early|wrong|slow|short|negative|blank|dead|flat|missing|silent|backwards)\b"
    r"|\bstill (?!(?:pass|succeed|work|complet|finish|run|clean|has|have|need|must|want)\w*)[a-z]+s (?:back |out )?"
    r"(?:0|zero|nothing|null|none|nan|blank|empty)\b"
    r"|(?:まだ|依然として?|相変わらず)\s*(?:0|ゼロ)\s*[A-Za-z%]{0,3}\s*(?:のまま|を示|と表示|が表示|になり|でした|です)"
    # A success rate short of all: 「成功率は 99.5% でした」, "a pass rate of 98%".
    r"|(?:成功率|合格率|通過率|(?:正しく|正常に)[^。、]{0,20}?割合|\b(?:success|pass|passing) rate)[^\d。.;]{0,8}"
    r"(?<![\d.])\d{1,2}(?:\.\d+)?\s*(?:%|パーセント)"
    r"|(?:まだ|依然として?|相変わらず)[^。、]{0,24}?(?<!\d)[1-9]\d*\s*(?:回|件|度)\s*(?:出|発生|起き|見られ)(?:て|た|ま)"
    # 「10 回中 2 回まだリセットします」「3 回まだ紙詰まりします」: counted, still happening.
    r"|(?<!\d)[1-9]\d*\s*(?:回|件)\s*(?:は|が)?\s*(?:まだ|依然として?)[^。、]{0,10}?(?:リセット|失敗|落ち|止ま|発生|出|起き"
    r"|します|しました|して(?:い|お))"
    r"|(?:まだ|依然として?|相変わらず)\s*(?:\d+\s*(?:回|件|度)\s*)?(?:失敗|落ち|ハング|クラッシュ|再現|エラー)"
    r"|(?:今も|いまだに|未だに)[^。、]{0,16}?(?:出ます|出ています|発生|起き|失敗|落ち|エラー)"
    # 「修正後も 20 回中 20 回 `X` が出る」, "returns 409 on the second loan as before": the failure, after the fix too.
    r"|(?:修正後|適用後|修正版)(?:で)?も[^。]{0,30}?(?:出(?:る|ます|ています|た|ました)|(?:発生|失敗|再現)(?:する|します|した"
    r"|しました|しています)|落ち(?:る|ます|た|ました))"
    r"|\b(?:returns?|throws?|raises?|shows?|gives?|fails?|hangs?|crash(?:es)?|rejects?|drops?|jams?)\b[^.;]{0,60}?"
    r"\bas (?:before|it did before(?: the (?:fix|patch|change))?)\b"
    r"|(?:まだ|依然として?|相変わらず)[^。、]{0,6}?\d+\s*回中\s*[1-9]\d*\s*回"
    # Counted after the fix, not none: "Repro after the fix: 1 reversed-current frame in 50 replays".
    r"|\bafter the (?:fix|patch|change)\b[^.;(]{0,20}?(?<![\d.,])[1-9]\d* (?:[a-z-]+ ){0,3}?(?:in|out of) \d+"
    r"(?! (?:[a-z-]+ )?(?:passed|green|clean|ok|succeeded)\b)"
    # Counted after the fix, not none: 「修正後の 200 回で 31 番の先行点火は 2 回」.
    r"|(?:修正後|適用後|修正版)(?:の|で|は)?[^。]{0,10}?(?<!\d)\d+\s*回(?:の(?:うち|中で)|で)(?:[^。\d]|\d(?!\d*\s*回)){0,30}?(?<!\d)[1-9]\d*\s*回"
    r"(?!中|\s*(?:とも|すべて|全て|成功|通過|正常|パス|OK))"
    # Brought down, not to none: 「二重課金は 2 件まで減りました」.
    r"|(?<![\d.])[1-9]\d*\s*(?:件|回|台|個|枚|本|人|通)まで(?:減|下が|低下)"
    # Some of the lot still goes wrong, whatever it is called: 「50 枚投入して、まだ 2 枚が返却口に戻ってきました」.
    r"|(?:まだ|依然として?|相変わらず)\s*[1-9]\d*\s*(?:[\u4e00-\u9fff]|[\u30a1-\u30fa\u30fc]{1,6})(?:が|は|も|ほど|程度)"
    # A rate lowered but not to zero: "from 5 in 30 to 2 in 50", 「30 回中 5 回から 50 回中 2 回に」.
    r"|\bfrom \d+ (?:[a-z]+ )?(?:of|in|out of|/) ?\d[\d,]* (?:[a-z-]+ ){0,3}(?:down )?to (?:[1-9]\d*|one|a single) ?"
    r"(?:[a-z]+ )?(?:of|in|out of|/) ?\d[\d,]*"
    r"|(?<!\d)\d+\s*回中\s*\d+\s*回から\s*\d+\s*回中\s*[1-9]\d*\s*回"
    # The rate after the fix, then the one before: "now crashes in 1 of 50 runs, down from 25 of 25".
    r"|(?:(?<![\d.,])[1-9]\d*|\bone|\ba single) ?(?:of|in|out of|/) ?(?:the )?\d+(?: [a-z]+)?,? \(?(?:down|reduced"
    r"|dropped|improved) from \d+"
    # "drift in 1 of 20 seeds, versus 6 in 20 before": the rate after, set against the one before.
    r"|(?<!pass )(?<!passed )(?<!passes )(?<![\d.,])[1-9]\d* ?(?:of|in|out of|/) ?\d+(?: [a-z]+){0,2}"
    r"(?! (?:passed|passing|green|clean|succeeded|ok)\b),? \(?(?:versus|vs\.?|compared (?:to|with)|against) \d+ ?"
    r"(?:of|in|out of|/) ?\d+(?: [a-z]+)? (?:before|on the old|unpatched|without the (?:fix|patch|change))\b",
    re.IGNORECASE,
)


def _before(clause: str, start: int, end: int) -> bool:
    """Whether the figure at [start, end) is governed by a before-word."""
    left = clause[max(0, start - 40) : start]
    if _FROM_JUST_BEFORE.search(left):
        return True  # "from 60 failures to 2": the first figure is the old one
    last_before = max((m.end() for m in _BEFORE_LEFT.finditer(left)), default=-1)
    last_after = max((m.end() for m in _AFTER_LEFT.finditer(left)), default=-1)
    if last_before > last_after:
        return True
    # "which before the fix put the mower over the wire in 17 of 30 passes": said in so many words, further back.
    far = clause[max(0, start - 90) : start]
    named = max((m.end() for m in _BEFORE_THE_FIX.finditer(far)), default=-1)
    if named >= 0 and not any(m.end() > named for m in _AFTER_LEFT.finditer(far)):
        return True
    # "the sale that failed 20/20 now matches": what the fix changed comes after the count.
    return (
        _BEFORE_RIGHT.match(clause[end : end + 120]) is not None or _NOW_RIGHT.match(clause[end : end + 30]) is not None
    )


def said_before(text: str, spans: Iterable[str]) -> bool:
    """Whether every place each figure of `spans` stands in `text` is governed by a before-word ("the repro was
    ~3/10", "used to fail in 3 of 10 runs"): figures of the failure before the fix, not of runs after it.

    Each distinct figure is looked up once, and only the first `ENOUGH` of them: a text that repeats one figure
    (a pasted log) or states thousands costs work in proportion to its length, not to its length squared."""
    for span in islice(dict.fromkeys(spans), ENOUGH):
        start = text.find(span)
        while start >= 0:
            if not _before(text, start, start + len(span)):
                return False
            start = text.find(span, start + 1)
    return True


def still_before(clause: str) -> bool:
    """ "still fails on main", 「修正前のビルドではまだ失敗し」: the failure that remains is the one before the fix."""
    still = STILL_FAILS.search(clause)
    # 「修正後の 200 回で … 2 回（修正前：…）」: said after the fix in so many words, whatever follows in brackets.
    return (
        still is not None
        and not still.group(0).startswith(("修正後", "適用後", "修正版"))
        and _before(clause, still.start(), still.end())
    )


def fails_after(clause: str) -> bool:
    """A failure counted after the fix: "it failed 1 time in 20, versus 12 in 20 before" is not a pass; nor is a
    pass count or a success rate short of all ("997/1000 green", 「成功率は 99.5%」)."""
    if any(
        not _before(clause, m.start(), m.end()) and not STIMULUS.search(clause, max(0, m.start() - 60), m.start())
        for m in _FAIL_COUNT.finditer(clause)
    ):
        return True
    for m in shapes.THEN_COUNTED_JA.finditer(clause):  # 「修正後…1,000 回流し、ストローク飛びは 1 回でした」
        if int(m.group("n")) > 0 and not _before(clause, m.start(), m.end()):
            return True
    for m in wrong.RATE_JA.finditer(clause):  # 「修正後：100 回中 2 回 NaN」: a rate of something other than a pass
        if int(m.group(2)) > 0 and not _before(clause, m.start(), m.end()):
            return True
    if any(not _before(clause, m.start(), m.end()) for m in wrong.went_wrong(clause)):
        return True  # "48 runs produced all 400 letters; the other two stopped at 399", "1 short stop in 200 runs"
    return short_share(clause) or _short_part(clause) or wrong.down_not_out(clause) or wrong.after_rate(clause)


def short_share(text: str) -> bool:
    """A pass share short of all after the fix: "997/1000 green", 「1000 回…997 回は正常」, 「成功率は 99.5%」."""
    for m in wrong.PASS_SHARE.finditer(text):
        passed = m.group("n") or m.group("jn") or m.group("rn") or m.group("kn") or m.group("gn") or m.group("un")
        runs = m.group("m") or m.group("jm") or m.group("rm") or m.group("km") or m.group("gm") or m.group("um")
        share = m.group("pct") or m.group("jpct")
        short = float(share) < 100 if share else float(passed.replace(",", "")) < float(runs.replace(",", ""))
        if short and not _before(text, m.start(), m.end()):
            return True
    # 「100 回中 3 回跳ねた」「1,240 本中 2 本に減りました」: some of the lot, not all and not none, in whatever verb.
    return any(
        0 < int((m.group(3) or m.group(6)).replace(",", "")) < int((m.group(1) or m.group(4)).replace(",", ""))
        and not _before(text, m.start(), m.end())
        for m in counts.SOME_OF_JA.finditer(text)
    )


#: A part of the runs just counted: "ran it 40 times: … in order on 39 of them".
_PART_OF_RUNS = re.compile(r"\b(?:on|in|for) (?P<n>\d[\d,]*) of (?:them|those|these|the runs)\b", re.IGNORECASE)
_RUNS_COUNTED = re.compile(
    r"(?<![\d.,])(?P<m>\d[\d,]*) (?:times|runs|iterations|attempts|tries|loops)\b", re.IGNORECASE
)


def _short_part(clause: str) -> bool:
    """A part of the counted runs said to pass ("on 39 of them", of 40), or to fail ("failed in 2 of them"): not all
    runs passed after the fix."""
    for m in _PART_OF_RUNS.finditer(clause):
        runs = list(_RUNS_COUNTED.finditer(clause, max(0, m.start() - 200), m.start()))
        if not runs or _before(clause, m.start(), m.end()):
            continue
        part, total = int(m.group("n").replace(",", "")), int(runs[-1].group("m").replace(",", ""))
        failing = FAILURE_WORD.search(clause, max(runs[-1].end(), m.start() - 40), m.start()) is not None
        if (failing and part > 0) or (not failing and part < total):
            return True
    for m in SPLIT_TALLY.finditer(clause):  # "ran 100 times: 98 without a cutout, 2 tripped": the rest went wrong
        counted = list(_RUNS_COUNTED.finditer(clause, max(0, m.start() - 200), m.start()))
        made = int(counted[-1].group("m").replace(",", "")) if counted else None
        split = int(m.group("a").replace(",", "")) + int(m.group("b").replace(",", ""))
        if (made is None or split == made) and not _before(clause, m.start(), m.end()):
            return True
    return False
