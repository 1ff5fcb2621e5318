"""A promise read from Japanese grammar: a conditional ("as soon as", "once") before a non-past check
verb (「空き次第、確認します」「終わったら計測します」) says the check is still to come. Also an expectation
(はず), which says what should be, not what was seen, and まだ before a negated verb (「まだ試していません」), which
says it is not done yet."""

from __future__ import annotations

import re

from rules.japanese import Morph, near, pieces, word_at, word_is

#: The check verbs (サ変 nouns) whose non-past form after a condition is a promise, not a description.
_CHECK_NOUNS = frozenset(
    {"確認", "検証", "計測", "測定", "実施", "報告", "共有", "更新", "再実行", "試験", "実験", "再試行", "調査", "連絡"}
)
_HINT = re.compile("次第|たら|れば|後に|のち")


def promise(text: str) -> str | None:
    """「…次第」 after a verb; or a condition (たら, ば, 後に) whose main verb is a check in the non-past; or a check
    by some means, in the non-past, ending the sentence (「TSAN ビルドで確認する」: the writer's check to come)."""
    for words in near(text, _HINT, before=4, after=16):
        found = _promise(words)
        if found is not None:
            return found
    for words in pieces(text) if _CHECK_HINT.search(text) else ():
        found = _check_by_means(words)
        if found is not None:
            return found
    return None


def _check_by_means(words: tuple[Morph, ...]) -> str | None:
    """A check by some means in the non-past, ending its sentence, with no subject before it (「TSAN ビルドで確認
    する。」; not 「`tick()` は…時点で `last_defrost` を確認します」, what the code does, nor 「…で確認した」)."""
    start = 0  # where the sentence of word i starts
    for i, w in enumerate(words):
        if w.surface == "。":
            start = i + 1
            continue
        before = words[start:i] if w.lemma in _CHECK_NOUNS else ()
        if not any(v.surface == "で" for v in before[-4:]) or any(
            v.pos == "助詞" and v.surface in ("は", "が") for v in before
        ):
            continue
        if word_is(words, i + 1, "する"):
            verb, end = "する", word_at(words, i + 2)
        elif word_is(words, i + 1, "し") and word_is(words, i + 2, "ます"):
            verb, end = "します", word_at(words, i + 3)
        else:
            continue
        if end is None or end.surface == "。":
            return w.surface + verb
    return None


_CHECK_HINT = re.compile("確認|検証|計測|測定|試験|実験")


def _promise(words: tuple[Morph, ...]) -> str | None:
    for i, w in enumerate(words):
        if w.surface == "次第" and i > 0 and words[i - 1].pos == "動詞":
            return words[i - 1].surface + w.surface
        conditional = (w.surface == "たら" and w.pos == "助動詞") or (w.surface == "ば" and w.pos == "助詞")
        if conditional or (w.surface == "後" and i + 1 < len(words) and words[i + 1].surface == "に"):
            main = _main_check(words[i + 1 :])
            if main is not None:
                return w.surface + "…" + main
    return None


def _main_check(rest: tuple[Morph, ...]) -> str | None:
    """The clause's check verb in the non-past (確認します, 計測する), up to the sentence's end."""
    for j, v in enumerate(rest):
        if v.surface == "。":
            return None
        if v.lemma in _CHECK_NOUNS:
            forms = "".join(t.surface for t in rest[j + 1 : j + 3])
            if forms in ("します", "する", "する。"):
                return v.surface + forms
    return None


_SHOULD_HINT = re.compile("はず|筈")


def expectation(text: str) -> str | None:
    """はず (an expectation), as a word: never the はず of 外す, nor 「…はずの N」 naming a thing by what it should
    have been (欠落していたはずの 1 時間)."""
    for words in near(text, _SHOULD_HINT):
        for i, w in enumerate(words):
            if w.lemma == "筈" and not (
                (nxt := word_at(words, i + 1)) is not None
                and nxt.surface == "の"
                and (n := word_at(words, i + 2))
                and n.pos == "名詞"
            ):
                return w.surface
    return None


def not_yet(text: str) -> str | None:
    """まだ with a negated verb in the same clause: "not done yet" (まだ試していません)."""
    for words in near(text, _YET_HINT, before=2, after=40):
        found = _not_yet(words)
        if found is not None:
            return found
    return None


_YET_HINT = re.compile("まだ|未だ")


def _not_yet(words: tuple[Morph, ...]) -> str | None:
    for i, w in enumerate(words):
        if w.lemma == "未だ" and w.pos == "副詞":
            rest = words[i + 1 :]
            if not rest or rest[0].pos == "補助記号" or rest[0].surface in ("です", "だ"):
                return w.surface  # "repro まだ。": not there yet
            for j, v in enumerate(rest):
                if v.pos == "補助記号" and v.surface in ("。", "、"):
                    break
                if v.pos == "助動詞" and v.lemma in ("ない", "ず", "ぬ"):
                    return w.surface + "".join(x.surface for x in rest[: j + 1])
    return None
