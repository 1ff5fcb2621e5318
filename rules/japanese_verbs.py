"""What Japanese verbs say, read by the analyser (`rules.japanese`): whether a clause has an element doing
something (a mechanism) or only a symptom, whether a failure is said not to happen, and whether a person is
named and blamed without an honorific.
"""

from __future__ import annotations

import re

from rules.japanese import Morph, near, pieces, word_at

#: Verbs that describe a failure from outside, or only link a cause to its effect: not a mechanism.
_SYMPTOM_JA = frozenset(
    {
        "落ちる",
        "止まる",
        "停止",
        "失敗",
        "発生",
        "起きる",
        "起こる",
        "クラッシュ",
        "フリーズ",
        "ハング",
        "固まる",
        "壊れる",
        "エラー",
        "例外",
        "タイムアウト",
        "引き起こす",
        "繋がる",
        "成る",
        "為る",
        "有る",
        "居る",
        "見える",
        "思う",
        "考える",
        "言う",
        "悪い",
        "異常",
    }
)


_FAILURE_JA = frozenset(
    {"落ちる", "止まる", "停止", "失敗", "発生", "再発", "再現", "クラッシュ", "フリーズ", "ハング", "固まる", "壊れる"}
)


_NEGATION_HINT = re.compile("な[いくかけ]|ず|ませ|ぬ")


def failure_negated(text: str) -> str | None:
    """A failure verb negated (発生しておりません, 落ちなくなった, 再現しなかった): the failure did not happen."""
    for words in near(text, _NEGATION_HINT, before=12, after=2):
        found = _failure_negated(words)
        if found is not None:
            return found
    return None


def _failure_negated(words: tuple[Morph, ...]) -> str | None:
    for i, w in enumerate(words):
        lemma = words[i - 1].lemma if w.lemma == "為る" and i > 0 else w.lemma
        if w.pos != "動詞" or lemma not in _FAILURE_JA:
            continue
        for v in words[i + 1 : i + 6]:
            if v.pos == "助動詞" and v.lemma in ("ない", "ず", "ぬ"):
                return w.surface + v.surface
            if v.pos in ("名詞", "補助記号"):
                break
    return None


def action_verbs(text: str) -> list[str]:
    """Verbs (a サ変 noun with する counts as its noun) that say what something does, not how it failed."""
    found: list[str] = []
    for words in pieces(text):
        found.extend(_verbs(words))
        if found:
            break
    return found


def _verbs(words: tuple[Morph, ...]) -> list[str]:
    found: list[str] = []
    for i, w in enumerate(words):
        if w.pos != "動詞":
            continue
        lemma = w.lemma
        if lemma == "為る" and i > 0 and words[i - 1].pos in ("名詞", "接尾辞"):
            lemma = words[i - 1].lemma
        if lemma not in _SYMPTOM_JA:
            found.append(lemma)
    return found


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
