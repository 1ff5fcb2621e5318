"""A failure after the fix said, in so many words, not to be the fix's ("the unrelated `test_db` suite, which also
fails on main", 「既知の不安定テスト」), and not only guessed so ("probably unrelated"). Linear patterns.
"""

from __future__ import annotations

import re

#: A failure that is not the fix's: "the unrelated `test_db` suite, which also fails on main", 「既知の不安定テスト」.
#: Called "unrelated" alone, it is still a failure (docs/rules.md#completed-check): it must be shown to fail without
#: the fix too.
NOT_THE_FIXS = re.compile(
    r"\b(?:fails?|failing|red|broken) (?:\w+ ){0,3}on\s+(?:main|master|trunk)\b"
    r"|\bwithout (?:the|this|my|our|that) (?:fix|patch|change),? (?:as well|too)\b"
    r"|\bfails? (?:\w+\s+){0,6}?without (?:the|this|my|our|that) (?:fix|patch|change)\b|\bpre-?existing\b"
    r"|\bknown[- ](?:flaky|flake|failure|issue)"
    r"|既知の|修正前から|既存の(?:問題|不具合|失敗|バグ|障害)"
    # 「main の同じコミットでも同じ理由（…）で失敗しており」
    r"|(?:main|master|trunk|修正前)[^。]{0,30}?(?:で|上で)も[^。]{0,30}?(?:落ち|失敗|赤)",
    re.IGNORECASE,
)
#: A guess said just before such an excuse, which then excuses nothing: "probably unrelated", "which we think is
#: unrelated", 「たぶん関係ない」.
GUESSED = re.compile(
    r"\b(?:probably|likely|maybe|perhaps|presumably|possibly|seems?|looks?|appears?"
    r"|(?:i|we) (?:think|believe|reckon|suspect|assume|guess|feel))(?: (?:it|this|that|they|these|those))?"
    r"(?: (?:is|are|was|were|to be)|'s|'re)?\s*(?:an? |to be |entirely |completely |totally )?$"
    r"|(?:たぶん|多分|おそらく|恐らく)[^。、]{0,15}$",  # 「おそらく今回の変更とは無関係」
    re.IGNORECASE,
)


def excused(masked: str) -> bool:
    """A failure said, in so many words, not to be the fix's ("fails the same way on `main` without the fix"), and not
    only guessed so ("probably unrelated")."""
    excuse = NOT_THE_FIXS.search(masked)
    return (
        excuse is not None
        and not GUESSED.search(masked, max(0, excuse.start() - 30), excuse.start())
        and not _GUESSED_AFTER.match(masked, excuse.end())  # "unrelated, as far as we can tell"
    )


_GUESSED_AFTER = re.compile(
    r"[\s,;:—-]*(?:as far as (?:i|we) (?:can tell|know)|i think|we think|probably|i guess|afaict)\b"
    r"|[、\s]*(?:だと思|と思われ|かもしれ|のはず|のよう)",
    re.IGNORECASE,
)
