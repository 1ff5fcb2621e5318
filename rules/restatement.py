"""A root cause that only says the symptom again, in either language: "the index returns zero hits because the
queries do not match anything", 「PDF が空になるのは、生成処理が空のデータを出力しているため」. Its cause half
names no new element, or repeats the symptom's own state word (docs/rules.md#what-each-input-must-state).
"""

from __future__ import annotations

import re

from rules import english, japanese, japanese_verbs

#: "EFFECT because CAUSE" (en); 「EFFECT のは、CAUSE ため」 and 「CAUSE ため、EFFECT」 (ja).
_BECAUSE_EN = re.compile(r"^(?P<effect>.+?)\b(?:because|since)\b(?P<cause>.+)$", re.IGNORECASE | re.ASCII)
_BECAUSE_JA = (
    re.compile(
        "^(?P<effect>.+?)のは[、,]?(?P<cause>.+?)(?:ため|せい|から|ことが原因)(?:である|です|だ|でした)?[。.]?$"
    ),
    re.compile("^(?P<cause>.+?)(?:ため|ので|から)[、,](?P<effect>.+)$"),
)
#: The states a symptom is described by; the same one on both sides is the symptom said twice.
_STATE = re.compile(
    r"\b(?:empty|blank|wrong|incorrect|zero|null|missing|duplicated?|twice|stale|slow|garbled|corrupt\w*|\d{3})\b"
    r"|空|白紙|間違|誤っ|ゼロ|0\s*件|欠落|重複|二重|古い|遅い|遅く|文字化け|破損|\d{3}",
    re.IGNORECASE,
)
#: A condition or a code identifier in the cause: it says when or what, so it is more than a restatement.
_SPECIFIC = re.compile(r"\bQ\b|\b(?:when|if|unless|while|after|before|once|whenever)\b|場合|とき|時に|たら|れば|と、")
#: Words that add nothing to a restated symptom.
_FILLER = frozenset(
    "the a an in on of to for at by with it its this that is are was were be been do does did not don't doesn't"
    " didn't any anything nothing something all match matches matched work works properly correctly at as expected"
    " and or so there their they them".split()
)
#: A symptom said of another part: it stops, fails or does not answer, match or finish.
_SYMPTOM_CAUSE = re.compile(
    r"\b(?:isn't|is not|aren't|are not|wasn't|weren't|doesn't|does not|didn't|did not|won't|never|no longer|stops?"
    r"|stopped) (?:\w+ )?(?:respond|work|load|start|finish|complet|return|connect|sync|match|updat|refresh|render"
    r"|answer|react|reply|progress)\w*"
    r"|\b(?:hangs?|hung|freez\w*|froze|crash\w*|lock(?:s|ed)? up|times? out|timed out|fail(?:s|ed|ing)?)\b"
    r"|(?:一致|応答|反応|動作|接続|完了|同期|更新|返答)(?:し|でき|され)(?:ない|ません|ず|なかった|なくな)"
    r"|(?:動か|終わら|返ら|届か|繋がら|つながら)(?:ない|ず|なかった)"
    r"|(?:失敗|フリーズ|ハング|クラッシュ)(?:する|した|して)|(?:落ち|止ま|固ま)(?:る|った|って)",
    re.IGNORECASE,
)
_WORD = re.compile(r"[a-z0-9']+", re.IGNORECASE)


def restated(sentence: str) -> bool:
    """Whether a masked sentence's cause half only says its effect half again."""
    parts = _halves(sentence)
    if parts is None:
        return False
    effect, cause = parts
    if _SPECIFIC.search(cause):
        return False
    if _SYMPTOM_CAUSE.search(cause):
        rest = _SYMPTOM_CAUSE.sub(" 、 ", cause)
        if not english.action_verbs(rest) and not japanese_verbs.action_verbs(rest):
            return True  # "locks up because the pinpad isn't responding": a second symptom, no mechanism
    effect_states = {m.group(0).lower() for m in _STATE.finditer(effect)}
    if any(m.group(0).lower() in effect_states for m in _STATE.finditer(cause)):
        return True
    if japanese.JA_RE.search(cause):
        return False
    seen = {_stem(w) for w in _WORD.findall(effect)}
    new = {_stem(w) for w in _WORD.findall(cause) if w.lower() not in _FILLER} - seen
    return not new


def _halves(sentence: str) -> tuple[str, str] | None:
    """The effect and the cause of a "because" sentence; None when it has no such shape."""
    for pattern in (_BECAUSE_EN, *_BECAUSE_JA):
        m = pattern.search(sentence.strip())
        if m is not None:
            return m.group("effect"), m.group("cause")
    return None


def _stem(word: str) -> str:
    return word.lower()[:5]
