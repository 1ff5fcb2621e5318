"""What an every-run marker's neighbours say of it (docs/rules.md#observed-rates): denied before it ("It does not
happen on every run"), said of something else ("unlike the Chrome path which fails reliably"), picking out which
failure rather than how often ("is always the test that failed", 「落ちるときは必ず SIGBUS」); and a vague word
that is someone else's label the writer goes on to deny ("the forum thread calls it occasional; it is not
occasional here"). Every pattern is linear.
"""

from __future__ import annotations

import re

from rules.evidence_run import ON_DEMAND

#: Before a marker, a negation that governs it: "does not happen on every run".
_DENIED_BEFORE = re.compile(
    r"\b(?:not|n't|never)\s+(?:\w+\s+){0,4}?(?:on |in |for |at |with )?$"
    # The claim disowned: "I'm not going to pretend it does this every time".
    r"|(?:\bnot|n't)\s+(?:going to |gonna )?(?:pretend|claim|say|promise|swear|guarantee)\b[^.;]{0,40}$"
    # "unlike the Chrome path which fails reliably": the marker said of something else.
    r"|\bunlike\b[^,;.]{0,60}$"
    # The structured answer named, not a rate: "Marking it every run because …", "I ticked every run".
    r"|\b(?:mark(?:ed|ing)?|tick(?:ed|ing)?|check(?:ed|ing)?|select(?:ed|ing)?|pick(?:ed|ing)?|chose|choosing"
    r"|put (?:it )?(?:down )?(?:as|under))\s+(?:it\s+|this\s+)?(?:as\s+)?[\"'“]?$",
    re.IGNORECASE,
)
#: After a marker, the structured answer named: 「毎回にチェックしました」「『毎回』を選びました」.
_THE_TICK = re.compile(r"[」』\"”]?\s*(?:に|を|として)\s*(?:チェック|選|し(?:て|ました|た)|付け|つけ|マーク)")
#: Someone else's label for the failure, which the writer goes on to deny: "the forum thread calls it occasional".
_THEIR_LABEL = re.compile(
    r"\b(?:calls?|called|describes?|described|labels?|labelled|labeled|marks?|marked) (?:it|this) (?:as )?(?:an? )?"
    r"(?:occasional|rare|intermittent|random|sporadic|flaky)\b",
    re.IGNORECASE,
)
_DENIED_LATER = re.compile(
    r"\b(?:it is|it's|it isn't|is) (?:not|far from|anything but) (?:occasional|rare|intermittent|random|sporadic|flaky"
    r"|sometimes|seldom|rarely)\b",
    re.I,
)
#: After a marker, what it picks out rather than how often: "is always the test that failed".
_WHICH_NOT_HOW_OFTEN = re.compile(r"\s+(?:the|a|an) (?:same )?(?:test|one|step|error|thing|frame|line|case)\b", re.I)
#: Before a marker, the failure as its condition: 「落ちるときは必ず SIGBUS」, "when it fails, it is always …".
_WHEN_IT_FAILS = re.compile(
    r"(?:落ちる|失敗する|死ぬ|止まる|クラッシュする|出る)(?:とき|時|場合)(?:は|に)?\s*$"
    r"|\bwhen(?:ever)? it (?:fails|crashes|dies|hangs|breaks|happens|occurs|trips|shows up)\b[^.;]{0,30}$",
    re.IGNORECASE,
)


def marker_set_aside(head: str, sentence: str, end: int) -> bool:
    """Whether the every-run marker ending at `end` is denied, said of something else, or picks out which failure;
    `head` is the text of its sentence before it."""
    return bool(
        _DENIED_BEFORE.search(head)
        or _WHICH_NOT_HOW_OFTEN.match(sentence, end)
        or _THE_TICK.match(sentence, end)
        or _WHEN_IT_FAILS.search(head)
    )


def their_label_denied(sentence: str, text: str) -> bool:
    """Whether the sentence gives someone else's word for the rate, or the text denies the vague word outright."""
    return _THEIR_LABEL.search(sentence) is not None or _DENIED_LATER.search(text) is not None


#: A negation anywhere in the marker's clause: "is not, going by my own runs, something that happens each time".
_NEGATION = re.compile(r"\b(?:not|never|no longer)\b|n't\b|(?:では|じゃ)(?:ない|なく)", re.IGNORECASE)
#: 「毎回では、少なくとも私が試した範囲では、ありません」: the negation after the marker, far from it.
_DENIED_AFTER_JA = re.compile(r"\s*(?:では|じゃ|とは)[^。]{0,60}?(?:ありません|ない|なく|なかった)")
_CLAUSE_START = re.compile(r"[.;:!?\n。]|\bbut\b", re.IGNORECASE)


def marker_stands(masked: str) -> bool:
    """An every-run marker in the text that nothing sets aside and no negation in its clause denies."""
    for m in (m for pattern in ON_DEMAND for m in pattern.finditer(masked)):
        starts = [b.end() for b in _CLAUSE_START.finditer(masked, max(0, m.start() - 300), m.start())]
        head = masked[starts[-1] if starts else max(0, m.start() - 300) : m.start()]
        if _NEGATION.search(head) is None and not marker_set_aside(head, masked, m.end()):
            if _DENIED_AFTER_JA.match(masked, m.end()) is None:
                return True
    return False
