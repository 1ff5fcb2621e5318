"""What says that runs went wrong, for the readers of failures after the fix (docs/rules.md#completed-check): the
rest of the runs in a verb of their own, a part of the runs counted by what it showed, the runs told apart in two, a
count set against the one before the fix, a failure counted with no word for it, a rate after the fix short of none,
a count brought down but not to none, and the shares of passes a reader sets against the runs. Built on the lexicon
of `rules.evidence_count_words`; every pattern is linear.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from rules.evidence_count_words import DOWN_TO, FAIL_NOUN, FAIL_VERB, FAILURE_WORD, NUM, REPEAT_NOUN, UNIT_AFTER
from rules.regex_guard import compile_guarded

#: A part of the runs counted by what they showed, in the writer's own noun: "1 short stop in 200 runs".
_PART_SHOWED = re.compile(
    r"(?<![\d.,/])\b(?P<n>[1-9][\d,]*)\s+(?P<what>(?:[a-z-]+\s+){1,3}?)(?:in|out of|across|over)\s+(?:the\s+)?"
    r"(?P<m>\d[\d,]*)\s+(?:runs|playbacks|tries|attempts|iterations|cycles|replays|boots|loops|shows|sessions|trials"
    r"|builds|jobs|passes|goes|starts)\b",
    re.IGNORECASE,
)
#: What a good run shows: not a failure, whatever the count.
_GOOD_NOUN = re.compile(
    r"\b(?:pass\w*|green|clean|ok|okay|success\w*|good|correct\w*|complet\w*|fine|normal|on[- ]time|intact|right"
    r"|perfect|full|valid|expected|matching|matched)\b",
    re.IGNORECASE,
)


def part_showed(text: str) -> Iterator[re.Match[str]]:
    """Each part of the runs, not all, counted by something other than a pass ("1 short stop in 200 runs")."""
    for m in _PART_SHOWED.finditer(text):
        n, total = int(m.group("n").replace(",", "")), int(m.group("m").replace(",", ""))
        if n < total and not _GOOD_NOUN.search(m.group("what")):
            yield m


#: A count set against the count before the fix, in so many words: "2 misregistered sheets (before: 140)", "a handful
#: of labels stayed on the pad, against hundreds per shift before", 「二重決済 1 件（修正前 50 回中 50 回）」. What was
#: counted before the fix is the failure; the same thing counted after it, fewer but not none, is the failure still.
_AGAINST_BEFORE = compile_guarded(
    r"(?<![\d.,/])\b(?P<n>[1-9][\d,]*|a handful of|a few|a couple of|several)\s+(?P<what>[a-z][a-z-]*)\b"
    r"(?P<gap>[^.;:\d()]{0,60}?)(?:\(\s*(?:before|pre-?fix|previously|unpatched)\s*[:=]?\s*"
    r"|,?\s*\(?(?:against|versus|vs\.?|compared (?:to|with)|down from)\s+)(?:~\s*|about\s+|roughly\s+)?"
    r"(?P<m>\d[\d,]*|hundreds|dozens|thousands|scores|tens)\b(?P<tail>[^.;)\d]{0,30}?\b(?:before|previously"
    r"|pre-?fix|unpatched|on the old \w+|without the (?:fix|patch|change))\b)?"
    r"|(?<![\d.,/])(?P<jn>[1-9][\d,]*)\s*(?:件|回|枚|個|台|本|通|匹|頭|羽|袋|箱)(?!\s*(?:とも|すべて|全て|中|のうち))"
    r"[^。（(]{0,6}?[（(]\s*(?:修正前|以前)(?:は|が|の|で|[:：]|\s*\d)",
    re.IGNORECASE,
)
#: What a measure or the runs are counted in, not a failure: "120 ms (before: 900 ms)", "5 runs, down from 40 min".
_MEASURE_WORD = re.compile(
    rf"[a-z]{{1,2}}|sec\w*|min\w*|hours?|days?|weeks?|bytes?|fps|rpm|percent|with|without|{REPEAT_NOUN}", re.IGNORECASE
)
#: A good outcome beside a Japanese count: 「50 回中 50 回成功（修正前は…）」.
_GOOD_JA = re.compile("成功|正常|問題な|通過|通り|通っ|パス|OK|開き|正しく|連続")
#: What says the figure in brackets or after "against" is the one before the fix, when no before-word follows it.
_BEFORE_FIGURE = re.compile(r"\s*\(|\s*,?\s*down from")
#: None said of the counted thing: "3 with no late glue shot (before: …)".
_NONE_SAID = re.compile(r"\b(?:no|zero|none|without|all|every)\b", re.IGNORECASE)


def against_before(text: str) -> Iterator[re.Match[str]]:
    """Each count of a thing after the fix set against its count before, fewer but not none (`_AGAINST_BEFORE`)."""
    for m in _AGAINST_BEFORE.finditer(text):
        if m.group("jn"):
            if not _GOOD_JA.search(text, max(0, m.start() - 20), m.end()):
                yield m
            continue
        if m.group("tail") is None and not _BEFORE_FIGURE.match(text, m.end("gap")):
            continue  # "3 cameras, against 4 racks": a comparison, not the figure before the fix
        said = m.group("what") + m.group("gap")
        if _MEASURE_WORD.fullmatch(m.group("what")) or _GOOD_NOUN.search(said) or _NONE_SAID.search(said):
            continue
        n, before = (m.group(k).replace(",", "") for k in ("n", "m"))
        if not (n.isdigit() and before.isdigit() and int(n) >= int(before)):
            yield m


def went_wrong(text: str) -> Iterator[re.Match[str]]:
    """The runs said to have gone wrong: the rest in a verb of their own, a part counted by what it showed, or a count
    set against the one before the fix."""
    yield from OTHERS_WENT_WRONG.finditer(text)
    yield from part_showed(text)
    yield from against_before(text)


def failure_said(text: str) -> bool:
    """Whether the text says something went wrong at all, named ("2 failures") or only counted ("after it, 1 of 40",
    「999 分の表示は 2 回でした」, "98 without a cutout, 2 tripped"): read once, before the clauses are read for
    failures after the fix."""
    return (
        FAILURE_WORD.search(text) is not None
        or _COUNTED_ONLY.search(text) is not None
        or SPLIT_TALLY.search(text) is not None
        or next(went_wrong(text), None) is not None
    )


#: The runs told apart in two: the good ones, then the others in a verb of their own ("98 without a cutout, 2 tripped").
SPLIT_TALLY = re.compile(
    r"(?<![\d.,])(?P<a>\d[\d,]*) (?:without|with no|free of|clean|fine|ok|good|passed|normal)\b[^,;.]{0,40}[,;]\s*"
    r"(?:and |but )?(?P<b>[1-9][\d,]*) (?!(?:passed|ok|fine|good|clean|normal)\b)"
    r"(?:[a-z]+(?:ed|t)|[a-z]+ (?:out|up|off))\b",
    re.IGNORECASE,
)


#: The rest of the runs in a verb of their own, no pass said of them: "48 runs produced all 400 letters; the other two
#: stopped at 399" (not "the other two also passed", "the remaining 10 used the debug build and passed").
OTHERS_WENT_WRONG = re.compile(
    rf"\b(?:the )?(?:other|remaining|last) (?:(?!one\b){NUM}) (?:(?:runs?|times|passes|iterations|of them) )?"
    r"(?!(?:also |too |each |all )?(?:pass|succeed|complet|finish|work|match|clean|came back (?:clean|fine|ok|correct)"
    r"|ran clean|went through|got through|printed all|produced all|read (?:right|correctly))\w*)"
    r"(?:[a-z]+ed|hung|froze|broke|fell over|got stuck|blew up|ran out|threw|lost|came back (?:wrong|short|empty))\b"
    r"(?![^.;]{0,60}?\b(?:pass\w*|ok|clean|correct(?:ly)?|fine|succe\w+)\b)"
    # "came back clean apart from two more timeouts": the exceptions counted.
    rf"|\b(?:apart from|except for|other than|save for|but for) (?:{NUM}) (?:more )?(?:[\w-]+ )?{FAIL_NOUN}"
    # 「199 バッチは正しく記録…。残る 1 バッチは記録の途中で PLC が再起動しました」: the rest went wrong.
    r"|(?:残る|残りの?|他の)\s*[1-9]\d*\s*(?:回|件|本|台|個|バッチ|ロット|ジョブ|ラン|セット)?\s*(?:は|が)"
    r"(?![^。]{0,30}?(?:正常|成功|問題な|パス|通[りっ]|OK))[^。]{0,30}?(?:失敗|再起動|止ま|停止|落ち|エラー|異常|欠け|ずれ"
    r"|固ま|リセット|ハング|クラッシュ|途切れ|抜け|超え|上回|オーバー|外れ)(?!ず|ない|なかっ|ません)",
    re.IGNORECASE,
)


#: A failure counted with no word for it: "after it, 1 of 40", 「999 分の表示は 2 回でした」「無音の混入は 2 回（…）」.
_COUNTED_ONLY = re.compile(
    r"\bafter(?: the fix| it| that)?\s*[:：,]?\s*[1-9]\d*\s*(?:in|of|/|out of)\s*\d"
    r"|(?:は|が)\s*[1-9]\d*\s*回(?:だけ|のみ)?(?=\s*[（(]|でした|です|っす|だった)",
    re.IGNORECASE,
)


#: A rate said after the fix, short of none: "After: 1 in 50", "with the fix, 2/100".
_AFTER_RATE = re.compile(
    r"\b(?:after(?: the fix| it| that)?|with the fix|patched|now)\s*[:：,]?\s*(?P<n>\d[\d,]*)\s*(?:in|of|/|out of)\s*"
    r"(?P<m>\d[\d,]*)(?!\s*(?:\w+\s+)?(?:green|pass\w*|succe\w*|ok|clean|good|correct))",
    re.IGNORECASE,
)


def after_rate(clause: str) -> bool:
    """ "After: 1 in 50": a failure rate after the fix, not none (and not a pass count, "After: 100/100 green")."""
    for m in _AFTER_RATE.finditer(clause):
        n, total = int(m.group("n").replace(",", "")), int(m.group("m").replace(",", ""))
        if 0 < n < total:
            return True
    return False


def down_not_out(clause: str) -> bool:
    """Failures counted down after the fix but not to none: "down from 60 to 2", 「5 回から、50 回中 2 回に」."""
    failures = FAILURE_WORD.search(clause) is not None or "回から" in clause
    for m in DOWN_TO.finditer(clause) if failures or " from " in clause else ():
        if not failures and UNIT_AFTER.match(clause, m.end()):
            continue  # "latency from 400 to 120 ms" is a measure; "deviations … down from 38 to 3" counts them
        before, after = (next(m.group(k) for k in keys if m.group(k)) for keys in ("aceg", "bdfh"))
        if 0 < int(after.replace(",", "")) < int(before.replace(",", "")):
            return True
    return False


#: A Japanese rate not of passes: 「100 回中 2 回 NaN」 (not 「20 回中 20 回成功」).
RATE_JA = re.compile(
    r"(?<![\d.,])(\d+)\s*回中\s*(\d+)\s*回(?!\s*(?:とも|すべて|全て)?\s*(?:は|が)?\s*(?:成功|通過|通っ|通り|パス|(?i:pass)|OK|ok|正常|完了"
    r"|問題な|グリーン|緑|完走)|\s*[^\s。、\d]{0,6}?(?:なし|無し|ゼロ))"
)
#: Passes counted, or a success rate: "997/1000 green", "passed 498 of 500", "success rate 99.5%", 「成功率 99.5%」.
PASS_SHARE = re.compile(
    r"(?<![\d.,])(?P<n>\d[\d,]*)\s*(?:/|of|out of)\s*(?P<m>\d[\d,]*)\s+(?:\w+\s+)?"
    r"(?:green|pass(?:ed|es)?|succeed(?:ed|s)?|ok|clean|completed?|matched|went through|came out (?:right|fine|clean)"
    r"|(?:were|was) (?:fine|correct|right)"
    r"|(?:committed|got|gave|showed|printed|read|recorded) the (?:right|correct)"
    r"|(?:read|ran|[a-z]+ed) (?:correctly|cleanly|properly|fine))\b"
    # "passed the weight check in 9 of the 10 batches": what passed may stand between.
    r"|\b(?:pass(?:ed|es)?|succeed(?:ed|s)?|green)\s+(?:(?:the\s+)?[\w-]+\s+[\w-]+\s+)?(?:on\s+|in\s+)?(?P<jn>\d[\d,]*)\s*"
    r"(?:/|of|out of)\s*(?:the\s+)?(?P<jm>\d[\d,]*)"
    r"|\b(?:success|pass|green)(?:\s+rate)?\s*(?:of|is|was|at|:|=)?\s*(?P<pct>\d{1,2}(?:\.\d+)?)\s*%"
    # 「1000 回流して、997 回成功」「…997 回は全スライスが正常」: the runs, then how many passed (what, between).
    r"|(?<![\d.,])(?P<km>\d[\d,]*)\s*(?:回|ケース|件|本|晩)(?:[^。\d]|。\s*){0,20}?(?P<kn>\d[\d,]*)\s*(?:回|ケース|件|本|晩)"
    r"(?:だけ)?(?:(?:が|は)?|(?:が|は)[^。、\d]{1,10}?(?:が|は|も))(?:成功|通過|パス|OK|正常|正しく|正しい|問題なく|最後まで通)"
    # 「1000 ロット中 997 ロットで正しい体重が確定」: any counter, the same on both sides.
    r"|(?<![\d.,])(?P<um>\d[\d,]*)\s*(?P<unit>[\u30a1-\u30fa\u30fc]{1,6}|[\u4e00-\u9fff])(?:中|のうち)\s*(?P<un>\d[\d,]*)\s*"
    r"(?P=unit)(?:で|が|は)[^。\d]{0,8}?(?:成功|通過|パス|OK|正常|正しく|正しい|問題なく)"
    # "Replayed the 2,000 captured sessions …: 1,994 completed": things counted, then how many came through.
    r"|(?<![\d.,])(?P<gm>\d[\d,]*)\s+(?:[\w-]+\s+){0,3}?[a-z][\w-]*s\b[^.;\d]{0,60}?:\s*(?P<gn>\d[\d,]*)\s+"
    # "…: 997 exports had unique Bates numbers": what each run gave, said of the things it made.
    r"(?:[a-z-]+s\s+had (?:unique|correct|the (?:right|correct)|valid|matching|no duplicate)\b"
    r"|completed|passed|succeeded|ok|finished|matched|arrived|landed|got through|made it|went through|delivered"
    # "… with the fix: 997 opened the barrier": what each did, in the trade's own verb.
    rf"|(?!{FAIL_VERB}\b)[a-z]+ed (?:the|a|an|its|their|on|in|at|cleanly|correctly|properly)\b)\b"
    # "1000 runs: 997 completed": the runs, then how many came through.
    r"|(?<![\d.,])(?P<rm>\d[\d,]*)(?:\s+|-)(?:runs?|iterations?|attempts?|times|jobs?|trials?|builds?)\b[^.;:\d]{0,60}?[:,;]\s*"
    r"(?P<rn>\d[\d,]*)\s+"
    r"(?:\w+\s+)?(?:completed|passed|succeeded|green|ok|finished|clean)\b"
    # 「読取率は 20 セット合計で 99.5%」: the share that came through, whatever the trade calls it.
    r"|(?:成功|通過|合格|読取|読み取り|認識|検出|正答|到達)率(?:は|が|:|：)?[^。%]{0,16}?(?<![\d.])(?P<jpct>\d{1,2}(?:\.\d+)?)\s*%",
    re.I | re.A,
)
