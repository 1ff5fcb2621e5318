"""A watching word that names a thing is not watching (docs/rules.md#completed-check): 「監視タスク」
「モニタリングジョブ」 are components, where 「監視している」「監視中」「監視で問題なし」 stand in for a check.
Read with the analyser: the watching noun is the head of a compound only when the next word is a noun that is
not what one watches with.
"""

from __future__ import annotations

from rules.japanese import analyse

#: What one watches with or sees by watching: 「監視ツール」「監視結果」 are still watching.
_INSTRUMENTS = frozenset(
    {
        "ダッシュボード",
        "グラフ",
        "画面",
        "ツール",
        "アラート",
        "データ",
        "結果",
        "基盤",
        "システム",
        "サービス",
        "状況",
        "期間",
    }
)
_WATCH_NOUNS = frozenset({"監視", "モニタリング", "モニター", "ウォッチ", "観察"})


def names_a_thing(clause: str, start: int, end: int) -> bool:
    """Whether the watching word at [start, end) of `clause` modifies a noun after it (「監視タスク」)."""
    words = analyse(clause[start : end + 16])
    for i, word in enumerate(words[:-1]):
        if word.surface in _WATCH_NOUNS or word.lemma in _WATCH_NOUNS:
            following = words[i + 1]
            return following.pos == "名詞" and following.surface not in _INSTRUMENTS
    return False
