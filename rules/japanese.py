"""Japanese read by its grammar: the analyser tells the auxiliary らしい from the end of あたらしい, and whose
negation ends a clause, so the gate and the lint decide on auxiliaries and endings, not on substrings.

One tagger per process, loaded on first use (fugashi + unidic-lite: about 30 ms and 13 MB; see
docs/architecture.md). Text with no Japanese never loads it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from rules.evidence_words import any_of

JA_RE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")  # kana or kanji: the only text worth analysing
#: Each analysed piece stays short, so a 250 kB field costs linear time in pieces, not one huge lattice.
_PIECE = 2000


@dataclass(frozen=True)
class Morph:
    """One word: as written, its part of speech (two levels) and its dictionary form."""

    surface: str
    pos: str
    pos2: str
    lemma: str
    pos3: str = ""


@cache
def _tagger() -> Any:
    import fugashi

    return fugashi.Tagger()


@lru_cache(maxsize=1024)
def _analyse(piece: str) -> tuple[Morph, ...]:
    out: list[Morph] = []
    for word in _tagger()(piece):
        # The raw feature string: building fugashi's named tuple for every word costs twice as much.
        fields = word.feature_raw.split(",", 8)
        lemma = fields[7] if len(fields) > 7 and fields[7] not in ("", "*") else word.surface
        pos2 = fields[1] if len(fields) > 1 else ""
        pos3 = fields[2] if len(fields) > 2 else ""
        out.append(Morph(word.surface, fields[0], pos2, lemma.split("-")[0], pos3))
    return tuple(out)


def analyse(piece: str) -> tuple[Morph, ...]:
    """The words of one short piece of text (cached)."""
    return _analyse(piece)


def pieces(text: str) -> Iterator[tuple[Morph, ...]]:
    """The words of `text`, a piece (a sentence, at most `_PIECE` characters) at a time; none without Japanese."""
    if not JA_RE.search(text):
        return
    start = 0
    while start < len(text):
        end = min(len(text), start + _PIECE)
        cut = max(text.rfind("。", start, end), text.rfind("\n", start, end))
        end = cut + 1 if end < len(text) and cut > start else end
        yield _analyse(text[start:end])
        start = end


def near(text: str, hint: re.Pattern[str], before: int = 16, after: int = 12) -> Iterator[tuple[Morph, ...]]:
    """The words around each place `hint` matches (windows merged, in order): only where a marker could be."""
    if not JA_RE.search(text):
        return
    lo = hi = -1
    for m in hint.finditer(text):
        if lo >= 0 and m.start() - before <= hi and hi - lo < _PIECE:
            hi = max(hi, m.end() + after)
            continue
        if lo >= 0:
            yield _analyse(text[lo:hi])
        lo, hi = max(0, m.start() - before), m.end() + after
    if lo >= 0:
        yield _analyse(text[lo:hi])


def morphs(text: str) -> tuple[Morph, ...]:
    """All the words of `text` (empty when it has no Japanese)."""
    return tuple(w for piece in pieces(text) for w in piece)


#: Characters every marker of `modality` contains: a text without any is not analysed for it.
_MODAL_HINT = re.compile(
    "らし|こと|よう|様|みたい|そう|だろ|でしょ|かも|思|考|見|推|感じ|ぽい|言|いっ|多分|たぶん|恐らく|おそらく|きっと|どうやら|によ"
)


def modality(text: str) -> tuple[str, str] | None:
    """Hearsay, conjecture or appearance marked by grammar (らしい, とのこと, と思われる, ようだ, みたい, だろう,
    かもしれない, おそらく), with the words that mark it and the auxiliaries after; None when plain."""
    for words in near(text, _MODAL_HINT):
        for i in range(len(words)):
            found = _hearsay(words, i) or _conjecture(words, i)
            if found is not None:
                kind, end = found
                while end < len(words) and words[end].pos == "助動詞":
                    end += 1  # quote the whole ending: かもしれ + ません, と思わ + れ + ます
                return (kind, "".join(w.surface for w in words[i:end]))
    return None


_CONJECTURE_ADVERBS = frozenset({"恐らく", "多分", "たぶん", "きっと", "どうやら"})
_THINK = frozenset({"思う", "考える", "見る", "推測", "推定", "推察"})
_COPULA = ("だ", "です", "でした", "だった")
_SEEM = frozenset({"見える", "思う", "思える", "感じる"})

#: A marker found at a word: its kind and the index just past it.
Span = tuple[str, int]


def word_at(words: tuple[Morph, ...], i: int) -> Morph | None:
    return words[i] if 0 <= i < len(words) else None


def word_is(words: tuple[Morph, ...], i: int, *surfaces: str) -> bool:
    w = word_at(words, i)
    return w is not None and w.surface in surfaces


def _ends(words: tuple[Morph, ...], i: int, *surfaces: str) -> bool:
    """The clause ends at word i: punctuation, the end, or one of `surfaces`."""
    w = word_at(words, i)
    return w is None or w.pos == "補助記号" or w.surface in surfaces


def _hearsay(words: tuple[Morph, ...], i: int) -> Span | None:
    w, nxt = words[i], word_at(words, i + 1)
    if w.pos == "助動詞" and w.lemma == "らしい":
        return ("hearsay", i + 1)
    if w.surface == "と" and word_is(words, i + 1, "の") and word_is(words, i + 2, "こと"):
        return ("hearsay", i + 3)
    if w.surface == "に" and nxt is not None and nxt.lemma in ("因る", "依る") and word_is(words, i + 2, "と", "ば"):
        return ("hearsay", i + 3)
    # "…って言ってた", "…と言われた": a report; "という" before a noun only names something.
    if w.surface in ("って", "と") and nxt is not None and nxt.lemma == "言う" and nxt.surface[-1] in "っわ":
        return ("hearsay", i + 2)
    return None


def _conjecture(words: tuple[Morph, ...], i: int) -> Span | None:
    w, nxt = words[i], word_at(words, i + 1)
    # Not 「影響が出ないよう、…」 (よう before a comma is a purpose), nor 「10 回ともそう」 ("so, every time").
    if w.pos2 == "助動詞語幹" and w.lemma in ("様", "みたい", "そう") and _ends(words, i + 1, *_COPULA, "で"):
        purpose = w.lemma == "様" and word_is(words, i + 1, "、")
        if purpose or (w.surface == "そう" and word_is(words, i - 1, "とも", "も")):
            return None
        return ("appearance", i + 1)
    # 「…ように見える」「…ように思います」: how it looks to the writer; not a look naming a thing (「…ように見えるのが
    # 厄介」「…ように見えるストリーム」) nor one held before (「…ように見えていたのは」).
    seem, after = word_at(words, i + 2), word_at(words, i + 3)
    if (
        w.lemma == "様"
        and word_is(words, i + 1, "に")
        and seem is not None
        and seem.lemma in _SEEM
        and seem.pos == "動詞"
    ):
        named = after is not None and after.pos == "名詞" and after.lemma not in ("為", "所為")  # not 「見えるため」
        return None if named or word_is(words, i + 3, "の", "て") else ("appearance", i + 3)
    if w.lemma == "感じ" and _ends(words, i + 1, *_COPULA) and not (i and words[i - 1].surface in ("って", "という")):
        return ("appearance", i + 1)  # not 「なんで？って感じだけど」: a reaction quoted, not an impression
    if w.pos == "接尾辞" and w.lemma == "ぽい":
        return ("appearance", i + 1)  # 「OK っぽい」
    if w.pos == "助動詞" and w.surface.startswith(("だろ", "でしょ")):
        return ("conjecture", i + 1)
    if w.surface == "か" and word_is(words, i + 1, "も"):
        after = word_at(words, i + 2)
        if after is not None and after.lemma == "知れる":
            return ("conjecture", i + 3)
        if _ends(words, i + 2, "です", "ね", "な"):
            return ("conjecture", i + 2)
    if w.pos == "副詞" and w.lemma in _CONJECTURE_ADVERBS:
        return ("conjecture", i + 1)
    if w.surface == "と" and nxt is not None and nxt.lemma in _THINK and nxt.pos == "動詞" and not _held(words, i + 2):
        if (
            nxt.lemma == "見る"
            and word_is(words, i + 2, "て")
            and not word_is(words, i + 3, "い", "いる", "います", "お")
        ):
            return None  # 「未実行と見てもう一度実行します」: what the code takes it for, then does
        return ("conjecture", i + 2)
    return None


def _held(words: tuple[Morph, ...], i: int) -> bool:
    """「原因と見ていた Q を revert した」: a view once held, naming what was then tested (past, before a noun)."""
    j = i + 2 if word_is(words, i, "て") and word_is(words, i + 1, "い") else i
    after = word_at(words, j + 1)
    return word_is(words, j, "た") and after is not None and after.pos == "名詞"


#: An action still to come: a plan, an intention, a time ahead.
_PLANNED = frozenset(
    {"予定", "つもり", "積もり", "これから", "今後", "後日", "明日", "来週", "次回", "後で", "あとで", "後ほど"}
)


_PLANNED_HINT = re.compile("|".join(sorted(_PLANNED)))


def planned(text: str) -> str | None:
    """A plan or intention (予定, つもり, これから, 明日): the action is not done."""
    for words in near(text, _PLANNED_HINT, after=40):
        for i, w in enumerate(words):
            pair = w.surface + (words[i + 1].surface if i + 1 < len(words) else "")
            if (w.lemma in _PLANNED or w.surface in _PLANNED) and not _schedule_noun(words, i):
                return w.surface
            after_something = i > 0 and words[i - 1].surface in ("の", "た", "だ", "て", "この", "その")
            if pair in _PLANNED and not after_something:  # 後で is two words; デプロイの後で is "after", no plan
                return pair
    return None


def _schedule_noun(words: tuple[Morph, ...], i: int) -> bool:
    """予定 naming a thing, not a plan: 「乗務予定の差し替えを直した」 modifies a noun of a clause whose own verb
    comes later; 予定通り is "as planned", done; a 「title」 quotes someone's words."""
    if words[i].surface != "予定":
        return False
    if sum(w.surface == "「" for w in words[:i]) > sum(w.surface == "」" for w in words[:i]):
        return True  # inside 「…」: a title or a quoted name
    rest = [w for w in words[i + 1 :] if w.pos != "補助記号" or w.surface not in "（()）"]
    if rest and (rest[0].surface == "通り" or rest[0].pos == "名詞"):
        return True  # 予定通り: as planned; 「予定時刻に消灯した」: a compound noun, the scheduled time
    t = next((k for k in range(1, min(len(rest), 5)) if rest[k].surface == "た"), len(rest))
    if rest[:1] and rest[0].lemma in ("する", "為る") and t + 1 < len(rest) and rest[t + 1].pos == "名詞":
        return True  # 「予定していた 50 回をすべて実施した」: the runs once planned, named by it
    if len(rest) > 1 and rest[0].surface in ("は", "が") and rest[1].pos == "名詞" and rest[1].surface[:1].isdigit():
        return True  # 「3/31 の予定は 1 件だけになりました」: the scheduled items, counted
    depth = 0
    for j, w in enumerate(words[i + 1 :]):
        depth += (w.surface in "（(") - (w.surface in "）)")
        if depth == 0 and w.pos != "補助記号":
            if w.surface != "の":
                return False
            after = words[i + 2 + j :]
            return any(
                v.pos == "動詞" for v in after[: next((k for k, v in enumerate(after) if v.surface == "。"), None)]
            )
    return False


#: Japanese: an inference or a review standing in for an experiment.
INFERENCE_JA = any_of(
    # Reading or tracing the code, a diff or a trace, in any wording.
    # Not 「修正前のコードでは失敗し、修正後のコードでは成功することを確認」: the code before and after, run.
    "(?<!修正前の)(?<!修正後の)(?<!修正版の)(?<!適用前の)(?<!適用後の)"
    "(?:コード|ソース|実装|差分|diff|処理|ロジック)(?:を|の)?(?:[^。、]{0,12}(?:を|の))?(?:読|追(?!加|記)|精査|眺め|目視|確認|見直)",
    "(?:スタックトレース|バックトレース|クラッシュダンプ|ダンプ)[^。]{0,40}(?:一致|同じ|同一)",
    "一致(?:する|した|している|していた)?(?:ので|ため|から)",
    "机上",
    "計算上",
    "レビュー",
    "合意",
    # 「ベンダーのエンジニアにもコードを見てもらい、同じ結論になった」「全員の意見が一致」: an agreement, not a run.
    "(?:意見|見解|結論)(?:が|は)[^。]{0,6}?(?:一致|同じ)|同じ結論|(?:コード|ソース|実装|差分)(?:を|も)[^。、]{0,8}?見て(?:もら|いただ|くれ)",
    "一致するので",
    "説明(?:が)?(?:つく|つきます|できる|できます)",
    "コード上",
    "に違いない",
    # A coincidence in time is a correlation, not an experiment.
    "(?:時刻|時間|タイミング|タイムスタンプ|時期)[^。]{0,60}(?:一致|重な|符合|揃)",
    "(?:時刻|時間|タイムスタンプ|ログ)[^。]{0,20}?(?:突き合わせ|照合|照らし合わせ|見比べ|並べ)",
    "直後(?:（[^）]{0,20}）)?に(?:起き|発生し|出)ていた",
    "相関",
    # 「…の定義を突き合わせて読み」「設計者も同じ見解です」: definitions read side by side, a shared view.
    "(?:定義|仕様|宣言|コメント)[^。]{0,10}?(?:突き合わせ|照らし合わせ|見比べ)|同じ見解|同意見|見解(?:が|も)?一致",
)
