"""A root cause declared to be a symptom: "Root cause is `bwa mem` getting OOM-killed", 「原因は…タイムアウトして
いたことです」, 「- 原因: `DmxMerge` が frame を受け取れなくなっているため」. The declaration names no element doing
anything wrong, whatever follows it (docs/rules.md#what-each-input-must-state). Linear.
"""

from __future__ import annotations

import re

from rules import english, japanese_symptoms, japanese_verbs
from rules.restatement import CONDITION, CONSEQUENCE, WHILE_DOING
from rules.symptom_words import EXHAUSTED, HITTING, SYMPTOM_CAUSE

#: "Root cause is X getting OOM-killed": the cause declared, in a sentence of its own.
_DECLARED = re.compile(
    r"\b(?:the )?(?:root[- ]?cause|cause)\s*(?:is|was|:)\s*(?P<cause>[^.;。]+)"
    # 「原因は `ffmpeg` のプロセスがタイムアウトし、…504 を返していたことです」
    r"|原因は[、,]?\s*(?P<cause_ja>[^。]{1,120}?)(?:こと|の)(?:です|だ|でした|である|[。.]|$)"
    # 「- 原因: `DmxMerge` が frame を受け取れなくなっているため」: a label, then the cause.
    r"|原因\s*[:：]\s*(?P<labelled_ja>[^。\n]{1,120}?)(?:ため|から|こと)?(?:です|だ|でした)?\s*(?:[。.\n]|$)"
    # 「…のは、`LegManager` が例外を投げるのが原因です」: the cause named, then declared.
    r"|(?:^|(?<=のは、)|(?<=。))\s*(?P<named_ja>[^。、]{1,80}?)(?:の|こと)が(?:根本)?原因(?:です|でした|だ)",
    re.IGNORECASE,
)


_WHEN = re.compile(r"when|whenever|once|after|if|場合|とき|時に|たら|れば", re.I)
_DECLARATION_END = re.compile(r"\s*[:：—–]\s*|\s+-\s+")


def declared_symptom(masked: str) -> str | None:
    """The words when the text declares the root cause to be a symptom ("Root cause is `bwa mem` getting
    OOM-killed"), with no element doing anything in that declaration: what follows from it is not the cause."""
    if (named := japanese_symptoms.cause_named_symptom(masked)) is not None:
        return named
    for m in _DECLARED.finditer(masked):
        # The declaration ends at a colon or a dash: what follows it is the explanation, which does not make a
        # symptom declared the cause into a mechanism ("Root cause is X getting OOM-killed: `f` loads …").
        cause = CONSEQUENCE.sub(
            "",
            _DECLARATION_END.split(
                m.group("cause") or m.group("cause_ja") or m.group("labelled_ja") or m.group("named_ja"), maxsplit=1
            )[0],
        )
        if HITTING.search(cause) and not CONDITION.search(cause.split(",")[0]):
            return m.group(0).strip()  # "Root cause is the driver hitting `OutOfMemoryError`": an error met
        cause = WHILE_DOING.sub(" ", cause)  # "while parsing the 2 GB CSV": what it was doing, not what went wrong
        condition = CONDITION.search(cause)
        if condition is not None and EXHAUSTED.search(cause, 0, condition.start()) and _WHEN.match(condition.group(0)):
            cause = cause[: condition.start()]  # memory running out "once a flight passes 40,000 samples": when it
            condition = None  # runs out, not what holds it
        if SYMPTOM_CAUSE.search(cause) is None or condition is not None:
            continue  # "… `parse()` failing when the header is empty": a condition names when
        rest = _WHERE_IT_HAPPENED.sub(" ", SYMPTOM_CAUSE.sub(" 、 ", cause))
        if not english.action_verbs(rest) and not japanese_verbs.action_verbs(rest):
            return m.group(0).strip()
    return None


#: Where or on what the declared symptom happened ("getting OOM-killed on the 8k print layouts"): no verb is read.
_WHERE_IT_HAPPENED = re.compile(
    r"、\s*(?:on|in|at|for|with|under|during|across|over|from|inside|by (?:the|a|an|its|their|our))\s"
    r"(?:(?!\b(?:because|since|as|when|whenever|if|that|which|who|and|but|so|while|by|once|until)\b)[^,;、])*",
    re.I,
)


#: An error's name in code: `ERR_TEMP_RANGE`, `DonorTimeout`, `InfeasibleLegError`, `E-55`.
_ERROR_NAME = (
    r"`[^`\n]*(?:(?i:err|exception|timeout|fault|failure|invalid|reject|denied|refused|nack)|\bE-?\d{2,4}\b"
    r"|\bE_[A-Z0-9]{2,}|_NOT_[A-Z]|(?-i:_(?:LOST|BUSY|DENIED|REFUSED|ABORTED|FAILED)\b))[^`\n]*`"
)
#: The cause declared to be an error returned or raised, in code, with nothing said of when or why: 「原因は、
#: `HaccpChecker.verify()` が `ERR_TEMP_RANGE` を返すことです」, "because `assign()` raises `NoChuteError`".
_ERROR_DECLARED = re.compile(
    r"(?:原因は|のは)[、,]?(?:(?!場合|とき|時に|たら|れば|なら|と[、,]|ので|ため)[^。`]|`[^`\n]+`){0,60}?"
    rf"{_ERROR_NAME}\s*(?:を|が)\s*(?:返す|返し|返る|出る|投げ|発生する|送出する)(?:こと|ため|から|の)"
    r"|\b(?i:root cause(?: is|:)|cause(?: is|:)|because)\s+`[^`\n]+`\s+(?:returns|raises|throws|emits|reports|gets)\s+"
    rf"{_ERROR_NAME}(?=\s*(?:[.;,:]|$|which|so|and then))",
)


def error_declared(text: str) -> str | None:
    """The words when the cause given is an error returned or raised, with no condition saying when or why: that
    is what failed, not why (docs/rules.md#mechanism)."""
    m = _ERROR_DECLARED.search(text)
    return None if m is None else m.group(0)
