"""A phrase the gate quotes, shown in the person's words: the readers find it on the masked text, where each code
span, quote, URL and name is a `Q`; the reason quotes what was typed there ("Root cause is `telemetry-agg` getting
OOM-killed", not "Root cause is Q getting OOM-killed"). Bounded: each try reads a window around one literal word.
"""

from __future__ import annotations

import re

from rules.numerals import SPELLED
from rules.textmask import _DOTTED_RE, _INLINE_RE, _NAME_RE, _PATH_RE, _QUOTE_RE, _URL_RE, MASKED_CODE, normalize

#: One thing a `Q` stands for, as typed: a fence, a code span, a URL, a quote, a dotted name, a path, a name, or
#: else one word of at most 200 characters (a pasted log line shows as its first word).
_THING = (
    r"(?:(?s:```.*?(?:```|\Z)|~~~.*?(?:~~~|\Z))"
    + "".join(f"|{p.pattern}" for p in (_INLINE_RE, _URL_RE, _QUOTE_RE, _DOTTED_RE, _NAME_RE))
    + rf"|(?a:{_PATH_RE.pattern})|\S{{1,200}})"
)
#: How far around its longest literal word a phrase is looked for, beyond its own length.
_WINDOW = 4_000
#: At most this many places of that word are tried.
_TRIES = 20


#: How much longer than the phrase its typed form may be shown (a fenced block is cut with "…").
_LONGER = 120


#: A figure the reader may have read from words ("three" → 3, 「三十」 → 30): where it was typed, digits or words.
_SPELLED = rf"(?:\d+(?:[.,]\d+)*|{SPELLED})"
_FIGURE = re.compile(r"\d+")


def as_typed(phrase: str, text: str | None) -> str:
    """The phrase with each `Q` the words it stands for in `text`, and each figure as it was written; the phrase
    itself when it cannot be found. A phrase the reader cut short ("…") is looked for without its "…", and shown
    cut short again."""
    cut = phrase.endswith("…")
    if MASKED_CODE.search(phrase) is None and (_FIGURE.search(phrase) is None or phrase.rstrip("…") in normalize(text)):
        return phrase
    typed = _typed(phrase[:-1].rstrip() if cut else phrase, text)
    if typed is None:
        return phrase
    limit = len(phrase) + _LONGER
    return typed[: limit - 1] + "…" if len(typed) > limit else typed + ("…" if cut else "")


def _typed(phrase: str, text: str | None) -> str | None:
    pieces = [piece.split() for piece in MASKED_CODE.split(phrase)]
    words = [word for piece in pieces for word in piece if not word.isdigit()]
    if not words:
        return None
    pattern = re.compile(rf"\s*{_THING}\s*".join(r"\s*".join(map(_word, piece)) for piece in pieces))
    source = normalize(text)
    anchor = max(words, key=len)
    at = source.find(anchor)
    for _ in range(_TRIES):
        if at < 0:
            break
        found = pattern.search(source, max(0, at - _WINDOW - len(phrase)), at + _WINDOW + len(phrase))
        if found is not None and found.start() <= at < found.end():
            end = found.end() + (found.group(0).endswith("(") and source.startswith(")", found.end()))
            return " ".join(source[found.start() : end].split())  # a call masked with its "(" gets its ")"
        at = source.find(anchor, at + 1)
    return None


def _word(word: str) -> str:
    return _SPELLED if word.isdigit() else re.escape(word)
