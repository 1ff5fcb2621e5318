"""What a confirming experiment's text says after its result (docs/rules.md#what-each-input-must-state): more of
the same work to come ("next I'll add the 2015 case too"), another thing also planned (「来月は照明の交換も予定
されています」), an aside (「ちなみに」) — none of which makes the experiment a plan — what is still to be found out,
which does, and a plan said done after all ("the matinee got cancelled so we went ahead").
"""

from __future__ import annotations

import re

from rules.evidence_other_matter import AFTER_THE_FIX, ANOTHER_MATTER, IMPACT_ELSEWHERE
from rules.textmask import MASKED_CODE

#: A side remark, by its opening word: 「ちなみに」, "by the way", "side note".
ASIDE = re.compile(
    r"\s*(?:ちなみに|余談(?:です)?が|ついでに|(?:by the way|btw|side note|unrelated(?:ly)?)\b)", re.IGNORECASE
)


#: More work after a stated result: "next I'll add the 2015 case too", 「次は負荷試験環境でも流す予定です」.
_MORE = re.compile(
    r"\b(?:next|also|too|as well|another|more|additional|further|later|afterwards|eventually|at some point"
    r"|the other|on my (?:list|todo))\b"
    r"|\bto the (?:test )?suite\b|次は|次に|今後|追加で|(?:で|に)も|後で(?!す)|あとで(?!す)|いずれ"
    r"|も(?:見|試|確認|流|回|やる|やり)"
    # The fix taken further, not the experiment: "roll it out to production next week", 「本番機への展開は来週」.
    r"|\b(?:roll(?:ing)? (?:it |this |the fix )?out|rollout|deploy\w*|ship\w*|release\w*)\b"
    r"|展開|デプロイ|リリース|本番"
    # The result written up: "will write this up in RING-311", 「結果は RING-311 にまとめます」.
    r"|\bwrite (?:it|this|that|them) up\b|\bwrite-?up\b|\bdocument (?:it|this|that)\b|まとめ|記録"
    # The test or the code tidied: "will tidy the test up tomorrow", 「テストは明日整理します」.
    r"|\b(?:tidy|clean|neaten|polish)(?:ing)? (?:\w+ ){0,3}?up\b|\b(?:tidy|polish|refactor)\w* (?:the|this|that|it)\b"
    r"|整理|清書"
    r"|\b(?:share|post|send|attach|upload) (?:the |my |our )?(?:logs?|results?|captures?|data|traces?|numbers"
    r"|plots?)\b",
    re.IGNORECASE,
)


#: What is still to be found out: a plan for it means the mechanism is not confirmed yet.
_STILL_OPEN = re.compile(
    r"\b(?:figure out|find out|understand|work out|why|confirm|verify|prove|investigate|look into|dig into"
    r"|root[- ]cause)\b|確認|検証|調査|原因|理由|なぜ|特定|裏付け",
    re.IGNORECASE,
)


#: The experiment's own doing: a run, a check, a change; a plan that names none of these, nor the code, is another.
_OWN_DOING = re.compile(
    r"\b(?:re-?run|run|repeat|replay|try|test|measure|check|verify|confirm|revert|patch|bisect|repro)\w*"
    r"|\bcompar\w*|\b(?:do|does|did|done|doing)\b|\bcarr(?:y|ied) out|\b(?:look|watch|see|observe|inspect)\w*"
    r"|回し|流し|試|確認|検証|計測|測定|再現|戻し|パッチ|テスト|実験|比較|比べ|やる|やり|やっ|実施|行う|行い|行っ|見|調べ|観察",
    re.IGNORECASE,
)


def other_plan(sentence: str) -> bool:
    """「来月は照明の交換も予定されています」「色見本は来週返却予定です」: something else planned, naming nothing of the
    experiment (no code, no run, check or comparison, no bare "do", no results or steps left)."""
    return not any(p.search(sentence) for p in (MASKED_CODE, _OWN_DOING, _STILL_OPEN, _WORK_LEFT))


#: What a plan about the experiment itself names: its results, the steps left, the fix, "it".
_WORK_LEFT = re.compile(
    r"\b(?:results?|steps?|remaining|rest|fix|it|this|that|them|findings?|numbers|outcome|answer|builds?|versions?"
    r"|firmware|patch\w*|flash\w*)\b|結果|残り|修正|続き|それ|これ|答え|ビルド|版|ファーム|パッチ",
    re.IGNORECASE,
)


def more_to_come(sentence: str) -> bool:
    """More of the same work planned after the result ("next I'll add the 2015 case too"), not the finding-out."""
    # 「ソロ曲への影響は来週確認します」: what the fix does to other things; 「ちなみに来週は…」: an aside.
    if IMPACT_ELSEWHERE.search(sentence) is not None or ASIDE.match(sentence):
        return True
    if _SEPARATELY.search(sentence):
        return True  # 「料金計算の確認は別途行います」: a check of something else, done apart from this one
    if (_SAME_AGAIN.search(sentence) and _MORE.search(sentence)) or _ALSO_ON.search(sentence):
        return True  # 「来週、池 2 でも同じ確認をする予定です」「本番機でも確認する予定」: the same check, elsewhere
    more = any(p.search(sentence) is not None for p in (_MORE, AFTER_THE_FIX, ANOTHER_MATTER))
    return more and _STILL_OPEN.search(sentence) is None


#: The check on another machine too: 「本番機でも確認する」.
_ALSO_ON = re.compile("[^。、\\s]{1,6}?(?:機|台|環境|号機|ライン)(?:で|に)も(?:同じ)?(?:確認|検証|試|テスト)")
#: The same work once more: 「同じ確認」, "the same test".
_SAME_AGAIN = re.compile(
    r"同じ(?:確認|試験|テスト|実験|手順|計測|測定|比較)"
    r"|\bthe same (?:check|test|run|experiment|comparison|procedure)s?\b",
    re.IGNORECASE,
)
_SEPARATELY = re.compile(r"別途|別件|別チケット|\bseparately\b|\bas a separate\b", re.IGNORECASE)


#: A past intention, then the run all the same: "I had meant to do this last week, but it happened on Monday", "the
#: matinee got cancelled so we went ahead on Sunday night", "The plan was to … rerun the replay; that's done now".
_DONE_LATER = re.compile(
    r"\b(?:had|'d) (?:planned|meant|intended|hoped|wanted) to\b[^.;]{0,80}?\bbut (?:it |this |that |we |i |they )?"
    r"(?:happened|did|ran|got (?:it |this )?done|managed|went ahead)\b"
    r"|\b(?:we|i) (?:went ahead|did it anyway|ran it anyway|did it regardless)\b"
    r"|\b(?:plan|idea)\b[^.;:]{0,60}?\bwas to [^.;:]{1,40}?, and (?:we|i) did\b"  # "… was to bisect, and we did"
    r"|\b(?:that's|that is|this is|it's|it is|which is|both are) (?:all |now )?done\b|^\W*(?:done|did (?:it|that))\b"
    # 「来週まとめて検証するつもりでしたが、今日評価機が空いたので実施しました」: the plan overtaken.
    r"|(?:つもり|予定)(?:でした|だった)(?:が|けど)[^。]{0,60}?(?:実施|実行|検証|確認|試|流|やり|回|確かめ|測|済ませ|終え)"
    r"(?:しました|ました|した)",
    re.IGNORECASE,
)


def done_later(said: list[str], phrase: str) -> bool:
    """Whether the sentence of a plan or a not-done phrase, or the next one, says it was done after all."""
    for i, sentence in enumerate(said):
        if phrase in sentence and any(_DONE_LATER.search(s) for s in said[i : i + 2]):
            return True
    return False


#: The result kept somewhere else, not stated: 「比較の記録は共有フォルダの `x.xlsx` にまとめてある」, "the numbers are
#: in the attached sheet".
_RESULT_ELSEWHERE = re.compile(
    r"(?:記録|結果|データ|ログ|数値|比較|詳細)(?:は|を)[^。]{0,40}?(?:にまとめ|に置い|に載せ|に貼っ|に残し|に保存し|に添付"
    r"|を参照)"
    r"|\b(?:results?|numbers|data|logs?|details|figures|comparison|outputs?)\b[^.;]{0,20}?\b(?:are|is) (?:all )?"
    r"(?:in|on|attached|recorded in|saved (?:in|to)|uploaded)\b"
    r"|\bsee (?:the )?(?:attached|spreadsheet|sheet|doc|report|link)\b",
    re.IGNORECASE,
)


#: A result in so many words, for `result_elsewhere`'s caller: passed, failed, stayed, went away.
PLAIN_RESULT = re.compile(
    r"\b(?:pass\w*|succeed\w*|clean|green|ok|fine|correct\w*|stay\w*|stayed|held|went away|gone|dropped|lost)\b"
    r"|通[っりる]|通過|成功|正常|問題(?:は)?(?:な|無)|(?:出|起き|落ち|止ま|固まら)(?:な|ず|っ|り|る)|消え|減っ|増え|ずれ|一致"
    # A count of outcomes, not of runs: "20 of 20", "0/50", 「100 回中 0 回」「40 回とも」; "no muted carrier".
    r"|\d\s*(?:of|out of|/|in)\s*\d|回中|のうち|(?:回|件|台|本)とも|すべて|全て|全部"
    r"|\bno [a-z]|\b(?:zero|none|all|both)\b",
    re.IGNORECASE,
)


def result_elsewhere(masked: str) -> str | None:
    """Where the text says its result is kept instead of saying it (the caller checks that no clause says it)."""
    m = _RESULT_ELSEWHERE.search(masked)
    return None if m is None else m.group(0)


#: The symptom not seen again while watching: no result of a check ("the 504s never came back", 「再発なし」).
QUIET = re.compile(
    r"\b(?:never|didn't|did not|haven't|have not|hasn't|has not) (?:came|come|coming) back\b"
    r"|\bnever (?:recurred|returned|reappeared|showed up again)\b|\bno (?:recurrence|repeats?)\b"
    # "watched Grafana for two days; no overflow errors showed up": nothing seen while watching, no result.
    r"|\bno (?:\w+ ){0,3}?(?:showed up|appeared|fired|came in|popped up|turned up"
    r"|were (?:seen|logged|reported|raised))\b"
    # "Nobody reported a wrong weight for the rest of the week", "no double-watering events on any of the 24 zones".
    r"|\b(?:nobody|no one|no-one) (?:has )?(?:reported|complained|raised|flagged|noticed|called)\b"
    r"|\bno (?:[\w-]+ ){0,3}?(?:events?|errors?|alarms?|alerts?|incidents?|faults?|reports?|complaints?)"
    r" (?:on|in|across|at|from) any of the\b"
    r"|再発(?:して)?(?:いない|いません|なし|しなかった|しませんでした)"
    # 「…と出た件は一件も報告されていません」「2 週間が経ちました」: no report came, time passed.
    r"|報告(?:され|が上が)(?:て)?(?:い)?(?:ない|ません|なかった)|(?:問い合わせ|クレーム|苦情)(?:は|が|も)?(?:なく|ない|ありません)"
    r"|(?<![\d.])\d+\s*(?:日|週間|か月|ヶ月|カ月)(?:間)?(?:が|ほど)?(?:経ち|経過し|たち|経っ)"
    # 「その間、FAULT の取りこぼしは 0 件です」, "since then, zero misses": none seen while time passed.
    r"|(?:その間|それ以来)(?:に|も)?[、,]?[^。]{0,40}?(?<![\d.])(?:0|ゼロ|一度も|なし|ありません)"
    r"|\b(?:since then|in that time|during that time|over that period|in the meantime)\b[^.;]{0,40}?\b(?:0|zero|no"
    r"|none|nothing)\b",
    re.IGNORECASE,
)
