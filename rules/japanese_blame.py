"""A person named and blamed without an honorific, in Japanese (田中が見落とした, 佐藤のミス), read by the analyser
(`rules.japanese`): the tone lint names it (rules/tone.py); with an honorific, the person-blame rule applies.
"""

from __future__ import annotations

import re

from rules.japanese import Morph, near, word_at

#: Blame words: forgetting, overlooking, a mistake, someone's fault.
_BLAME_WORDS = ("忘れ", "見落と", "見逃", "ミス", "せい", "責任", "不注意", "怠", "壊し", "混入", "落ち度")
#: Honorifics and titles after a name: with one, the existing person-blame rule applies (rules/tone.py).
_HONORIFICS = frozenset({"さん", "様", "氏", "くん", "君", "ちゃん", "先生", "殿"})


def blamed_person(text: str) -> str | None:
    """A person named without an honorific and blamed in the same clause (田中が見落とした, 佐藤のミス)."""
    for words in near(text, _BLAME_HINT, before=30, after=4):
        found = _blamed(words)
        if found is not None:
            return found
    return None


_BLAME_HINT = re.compile("|".join(_BLAME_WORDS))


def _blamed(words: tuple[Morph, ...]) -> str | None:
    for i, w in enumerate(words):
        if w.pos3 != "人名" or (nxt := word_at(words, i + 1)) is None or nxt.surface in _HONORIFICS:
            continue
        if nxt.surface not in ("が", "は", "の"):
            continue
        rest = ""
        for v in words[i + 2 : i + 14]:
            if v.pos == "補助記号" and v.surface in ("。", "、"):
                break
            rest += v.surface
        if any(word in rest for word in _BLAME_WORDS):
            return w.surface + nxt.surface + rest
    return None
