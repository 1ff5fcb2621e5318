"""The tone lint's readings (docs/rules.md#tone): what it must warn on and what it must not, in both languages."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from postmortem.model import PostMortem
from rules.lint import lint

pytestmark = pytest.mark.unit


def warned(pm: PostMortem, **changes: Any) -> list[tuple[str, str, str]]:
    return [(w.field, w.rule, w.text) for w in lint(pm.replace(**changes))]


BLAME = [
    ("en", "Someone forgot to update the shard count when the cache grew."),
    ("en", "Bob introduced the exclusive bound in March."),
    ("en", "The reviewer missed it in review."),
    ("en", "Priya missed it in code review; `shard_bits` reached 17."),
    ("en", "The bound was introduced by Kenji in commit 3e9a1f2."),
    ("en", "The author forgot the last shard."),
    ("en", "It was Alex's mistake."),
    ("ja", "田中さんが上限の変更を忘れていました。"),
    ("ja", "レビュアーが排他的な上限を見落としました。"),
    ("ja", "佐藤さんのミスです。"),
    ("ja", "担当者は `shard_bits` の確認を怠りました。"),
    ("ja", "鈴木さんが 3 月にこのバグを混入させました。"),
]


@pytest.mark.parametrize(("lang", "text"), BLAME)
def test_blame_that_names_a_person_warns(clean: Callable[[str], PostMortem], lang: str, text: str) -> None:
    assert ("why_missed", "blame") in [(f, r) for f, r, _ in warned(clean(lang), why_missed=text)]


BLAMELESS = [
    ("en", "CI should have caught this: no runner had a cache over 64 GiB."),
    ("en", "The test suite should have caught this; `shard_bits` never reached 17 there."),
    ("en", "No good reason: this should have been caught; `shard_bits` never reached 17 in CI."),
    ("en", "It was missed in review: the diff to `evict_range` was one character."),
    ("en", "Compaction introduced no new code; the latent bound in `evict_range` was from March."),
    ("en", "Monitoring missed it because `cache_stats` was not exported."),
    ("ja", "妥当な理由はありません。検出すべきでした。`shard_bits` が 17 に達しませんでした。"),
    ("ja", "CI で検出すべきでした。単一ストリームの組み合わせがテストされていませんでした。"),
    ("ja", "CI が見つけるべきでした。`numStreams == 1` の経路を実行するテストがありません。"),
    ("ja", "レビューでの見落とし：変更自体はレビュー可能でしたが、その影響が見過ごされました。"),
]


@pytest.mark.parametrize(("lang", "text"), BLAMELESS)
def test_a_gap_blamed_on_a_process_is_blameless(clean: Callable[[str], PostMortem], lang: str, text: str) -> None:
    assert warned(clean(lang), why_missed=text) == []


@pytest.mark.parametrize(
    ("text", "phrase"),
    [
        ("`evict_range` が最後のシャードを飛ばしていると推定されます。", "推定"),
        ("`read_page` が古いページを返したとみられます。", "とみられ"),
        ("`evict_range` の境界が原因ではないか。", "ではないか"),
        ("`evict_range` が原因らしいです。", "らしい"),
        ("`read_page` が古いページを返すかも。", "かも"),
    ],
)
def test_japanese_inference_endings_are_hedges(clean: Callable[[str], PostMortem], text: str, phrase: str) -> None:
    found = warned(clean("ja"), why_symptom=text)
    assert [(f, r) for f, r, _ in found] == [("why_symptom", "hedging")]
    assert phrase in found[0][2]


@pytest.mark.parametrize(
    "text",
    [
        "しかも `read_page` は古いページを返します。",
        "素晴らしい速度の高速パスでしたが、`tadaLaunchPrepare` は同期を省略していました。",
        "`deviceStream` のイベント記録は `tadaLaunchPrepare` で呼ばれるはずですが、実際には呼ばれません。",
    ],
)
def test_words_that_merely_contain_a_hedge_do_not_warn(clean: Callable[[str], PostMortem], text: str) -> None:
    assert warned(clean("ja"), why_symptom=text) == []


@pytest.mark.parametrize(
    ("lang", "text", "phrase"),
    [
        ("en", "The new path is blazing fast and rock-solid; `evict_range` visits every shard.", "blazing fast"),
        ("en", "A seamless, world-class fix: `evict_range` now uses an inclusive bound.", "seamless"),
        ("ja", "画期的な修正です。`evict_range` の上限を包含的にしました。", "画期的"),
        ("ja", "`scratchBuf` の確認で性能が劇的に改善しました。", "劇的に"),
    ],
)
def test_marketing_words_warn(clean: Callable[[str], PostMortem], lang: str, text: str, phrase: str) -> None:
    found = warned(clean(lang), fix=text)
    assert ("fix", "marketing") in [(f, r) for f, r, _ in found]
    assert any(phrase in t for _, r, t in found if r == "marketing")


@pytest.mark.parametrize(
    ("lang", "text"),
    [
        ("en", "A sync issue in `tadaLaunchPrepare`."),
        ("en", "Some race in `evict_range` on shutdown."),
        ("ja", "`tadaLaunchPrepare` の同期の問題でした。"),
    ],
)
def test_vague_mechanism_warns_even_beside_an_identifier(
    clean: Callable[[str], PostMortem], lang: str, text: str
) -> None:
    assert [(f, r) for f, r, _ in warned(clean(lang), root_cause=text)] == [("root_cause", "vague_mechanism")]


@pytest.mark.parametrize(
    ("field", "text", "phrase"),
    [
        ("symptom", "Exports fail with TBD errors.", "TBD"),
        ("how_found", "Bisected to commit <sha>; `evict_range` logging showed it.", "<sha>"),
        ("why_missed", "CI runners had ??? GiB caches, so `shard_bits` never reached 17.", "???"),
        ("validation_scope", "未定", "未定"),
        ("symptom", "?", "?"),
    ],
)
def test_placeholders_in_any_section_warn(
    clean: Callable[[str], PostMortem], field: str, text: str, phrase: str
) -> None:
    found = [(f, r, t) for f, r, t in warned(clean("en"), **{field: text}) if r == "placeholder"]
    assert [(f, r) for f, r, _ in found] == [(field, "placeholder")]
    assert phrase in found[0][2]


def test_a_question_mark_inside_a_sentence_is_not_a_placeholder(clean: Callable[[str], PostMortem]) -> None:
    assert warned(clean("en"), symptom="Why did `read_page` return the old page? The checksum said so.") == []


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_summary_longer_than_one_paragraph_warns(clean: Callable[[str], PostMortem], lang: str) -> None:
    pm = clean(lang)
    found = warned(pm, summary=f"{pm.summary}\n\n{pm.summary}")
    assert [(f, r) for f, r, _ in found] == [("summary", "long_summary")]


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_very_long_paragraph_warns_anywhere(clean: Callable[[str], PostMortem], lang: str) -> None:
    pm = clean(lang)
    long = " ".join([pm.root_cause or ""] * 8)
    assert ("root_cause", "long_paragraph") in [(f, r) for f, r, _ in warned(pm, root_cause=long)]
    two = "\n\n".join([pm.root_cause or ""] * 8)
    assert ("root_cause", "long_paragraph") not in [(f, r) for f, r, _ in warned(pm, root_cause=two)]


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_action_item_with_a_placeholder_part_warns(clean: Callable[[str], PostMortem], lang: str) -> None:
    items = [
        {"what": "Add a regression test at <seam>", "owner": "Priya", "tracking": "CACHE-90"},
        {"what": "Audit `evict_*` callers", "owner": "Alex", "tracking": "JIRA-???"},
    ]
    found = warned(clean(lang), action_items=items, action_items_none=False)
    assert [(f, r) for f, r, _ in found] == [("action_items", "item_placeholder")] * 2
    assert "<seam>" in found[0][2] and "???" in found[1][2]


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_seeds_action_item_shapes_do_not_warn(clean: Callable[[str], PostMortem], lang: str) -> None:
    items = [
        {"what": "Refactor to prevent this class of bug", "owner": "Priya", "tracking": "CACHE-93"},
        {"what": "この種のバグを防ぐためにリファクタリングする", "owner": "Alex", "tracking": "JIRA-12348"},
        {"what": "Close the CI gap: run 128 GiB caches nightly", "owner": "Priya", "tracking": "PR #415"},
    ]
    assert warned(clean(lang), action_items=items, action_items_none=False) == []
