"""Another matter than the fix and its check (docs/rules.md#completed-check): the fix's effect on other things, another
problem or piece of work ("a separate issue", 「別件」), and work for after the fix (a regression job, the rollout). A
not-done clause about one of these is not the check left undone. Read by the scope, repro and validation readers.
"""

from __future__ import annotations

import re

from rules.regex_guard import compile_guarded

#: The fix's effect on other things, to be looked at: 「ソロ曲への影響は来週確認します」, "the impact on the other
#: models".
IMPACT_ELSEWHERE = re.compile(
    r"(?:への|に対する|に与える)影響|影響範囲|\b(?:impact|effect)s? on (?:the )?(?:other|rest of|remaining)\b"
    r"|\bside[- ]effects?\b",
    re.IGNORECASE,
)
#: Another problem or piece of work than this one, named as such: "a separate issue", 「別件」「今回の修正とは別」.
_ANOTHER_PROBLEM = (
    r"\b(?:a |an )?(?:separate|unrelated|different|another|independent) (?:\w+ )?(?:issue|ticket|matter|change|build"
    r"|bug|task|story|piece of work|project|feature|request|item|topic|question|problem|fault|defect)\b"
    r"|(?:\b(?:is|are|was|were)|'s|'re) (?:a |an |entirely |completely |totally )?(?:separate|unrelated|independent)\b"
    r"|別件|別(?:の)?(?:チケット|課題|タスク|話|問題|作業|案件|質問|論点|トピック|不具合|障害)"
    r"|(?:修正|変更|対応|不具合|本件|今回の件|この不具合)(?:と|とは)(?:は)?(?:無関係|関係(?:ない|なく|の(?:ない|無い)|ありません)|別)"
)
ANOTHER_PROBLEM = re.compile(_ANOTHER_PROBLEM, re.IGNORECASE)
#: What is not done said to be another matter than the fix: "but that is a separate build", 「今回の修正とは別件です」.
ANOTHER_MATTER = compile_guarded(
    _ANOTHER_PROBLEM
    + r"|\bunrelated to (?:the|this|our) (?:fix|bug|change|patch|issue)\b|\b(?:has|have|had) nothing to do with\b"
    r"|\b(?:is|are|was|were) not (?:a )?part of (?:this|the|our) (?:check|fix|change|validation|verification|test"
    r"|scope)\b"
    # Not affected in the first place: "the summer scenario wasn't re-run; it never failed in the first place".
    r"|\b(?:it|they|that|those|which) (?:never|didn't|did not|doesn't|does not|don't|do not) (?:\w+ )?"
    r"(?:fail|failed|break|broke|crash|crashed|hang|hung|show(?:ed)? (?:it|the bug)"
    r"|ha(?:ve|d) (?:the bug|it|that bug|this bug)|hit it)\b"
    r"[^.;]{0,30}?\b(?:in the first place|before(?: either| the fix)?|to begin with|either)\b"
    r"|(?:もともと|元々|最初から|修正前から)(?:[^。、]{0,12}?)(?:失敗|発生|再現|落ち)(?:して)?(?:い)?(?:ない|ません|なかった)"
    # Not touched by the change: "the SMS gateway integration, which the change doesn't touch".
    r"|\b(?:the (?:fix|change|patch)|this (?:fix|change|patch)?|it) (?:doesn't|does not|didn't|did not|never) (?:touch"
    r"|change|affect|modify|reach)\b|(?:修正|変更)(?:は|が|で)?[^。]{0,10}?(?:触|影響し|関係し)(?:ていない|ない|ません)"
    # Telling or showing people, not checking: "we have not yet told the league", 「ビル管理会社への報告は来週です」.
    r"|\b(?:told|tell|inform(?:ed)?|notif(?:y|ied)|present(?:ed)? (?:it )?to)\b"
    r"|(?:報告|共有|周知|連絡)(?:は|を|も|します|する予定|予定)|レビュー(?:して)?もら"
    # Not affected: 「25fps の素材は影響がないので再テストしていない」.
    r"|影響(?:が|は|を)?(?:ない|なく|ありません|受けない|受けません|しない|しません)"
    r"|本番(?:環境)?(?:に|へ)(?:は)?(?:まだ)?(?:出して|反映して|展開して|リリースして|デプロイして)(?:い)?(?:ない|ません)"
    r"|(?:には|とは|に)(?:は)?関係(?:し)?(?:ない|ません|ありません)"
    # The fix taken to the rest, later: "the old rev B docks get the same firmware next month",
    # 「本番機への展開は来週」.
    r"|\b(?:gets?|getting|receives?|will get) (?:the )?(?:same|new|fixed|patched|updated) (?:firmware|build|release"
    r"|fix|image|version|code)\b|\b(?:roll(?:ing)? (?:it |this |the fix )?out|rollout|deploy(?:ing|ment)?)"
    r" (?:it |the fix )?to (?:the )?(?:rest|other|remaining|old|production|prod)\b"
    r"|" + IMPACT_ELSEWHERE.pattern + r"|(?:展開|デプロイ|入れ替え|反映|適用)(?:は|する|します|を)?[^。]{0,12}?予定"
    r"|(?:展開|デプロイ|適用|反映)(?:は|も)まだ"
    r"|別途"
    # Paperwork, not a check: "haven't written the changelog entry yet", 「手順書はまだ更新していません」.
    r"|\b(?:changelog|release notes?|docs|documentation|runbook|wiki|readme|write-?up|handbook|manual)\b"
    r"|手順書|ドキュメント|マニュアル|リリースノート|変更履歴|報告書|議事録",
    re.IGNORECASE,
)


#: Work for after the fix or the result, not the check: a regression job, a follow-up, the rollout ("I will add the
#: replay as a nightly CI job after the fix lands", "roll it out to production next week", 「本番機への展開は来週」).
AFTER_THE_FIX = re.compile(
    r"\b(?:after|once|when) (?:the fix|this|it|the change) (?:lands|is merged|is in|ships|goes in)\b|\bnightly\b"
    r"|\bci job\b|\bregression (?:test|job|suite)\b|\bfollow-?up\b"
    r"|修正(?:後|が入ったら|のマージ後|がマージされたら)|回帰テスト|夜間ジョブ|(?i:CI)\s*(?:に|へ)(?:追加|組み込)",
    re.IGNORECASE,
)
