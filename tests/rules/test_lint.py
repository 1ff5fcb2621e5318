"""The tone lint: one test per rule in both languages, the near-misses, and the examples' warnings."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from postmortem.model import PostMortem
from rules.lint import RULES, LintWarning, lint

pytestmark = pytest.mark.unit

Example = Callable[[str], PostMortem]
LANGS = ("en", "ja")
_JA_RE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def rules(pm: PostMortem, **changes: Any) -> list[tuple[str, str]]:
    return [(w.field, w.rule) for w in lint(pm.replace(**changes))]


def only(pm: PostMortem, **changes: Any) -> LintWarning:
    warnings = lint(pm.replace(**changes))
    assert len(warnings) == 1, warnings
    return warnings[0]


def assert_in_lang(text: str, lang: str) -> None:
    assert bool(_JA_RE.search(text)) == (lang == "ja"), text


# The examples


@pytest.mark.parametrize("lang", LANGS)
def test_clean_post_mortem_has_no_warning(clean: Callable[[str], PostMortem], lang: str) -> None:
    assert lint(clean(lang)) == []


def test_seed_worked_example_warns_only_that_its_fourth_item_has_no_owner(example: Example) -> None:
    # The bundled example names no owner for its fourth action item, and none is invented: the lint says so, once.
    assert rules(example("tada-hang.ja")) == [("action_items", "item_owner")]
    assert "4" in lint(example("tada-hang.ja"))[0].text


def test_cache_eviction_warns_only_about_its_two_missing_sections(example: Example) -> None:
    expected = [("why_symptom", "empty_section"), ("how_found", "empty_section")]
    assert rules(example("cache-eviction.en")) == expected


def test_order_is_deterministic_by_field_then_rule(example: Example) -> None:
    pm = example("refused-missing.en")
    # The same warnings whatever order the input's fields came in.
    reordered = PostMortem.model_validate(dict(reversed(pm.model_dump().items())))
    assert lint(reordered) == lint(pm)
    # "a race" names a kind, not a mechanism, even beside one identifier (docs/rules.md#mechanism-over-description).
    assert rules(pm) == [
        ("symptom", "empty_section"),
        ("root_cause", "vague_mechanism"),
        ("root_cause", "hedging"),
        ("why_symptom", "empty_section"),
        ("how_found", "empty_section"),
        ("why_missed", "empty_section"),
        ("action_items", "empty_section"),
    ]
    assert set(RULES) == {
        "hedging",
        "blame",
        "no_identifier",
        "no_scope",
        "item_owner",
        "item_tracking",
        "no_category",
        "vague_mechanism",
        "advocacy",
        "empty_section",
        "marketing",
        "placeholder",
        "long_summary",
        "long_paragraph",
        "item_placeholder",
    }


# Hedging, blame, advocacy: phrases in prose

PHRASE_CASES = [
    ("en", "hedging", "why_symptom", "The page is probably read by `read_page` later.", "probably"),
    ("en", "hedging", "validation_scope", "ARM runners might be affected too.", "might"),
    ("en", "hedging", "fix", "It seems `evict_range` now visits every shard.", "seems"),
    ("ja", "hedging", "why_symptom", "`read_page` が後で読むようです。", "ようです"),
    ("ja", "hedging", "validation_scope", "ARM でも起きるかもしれません。", "かもしれません"),
    ("ja", "hedging", "fix", "`scratchBuf` の確認で十分と思われます。", "と思われます"),
    ("en", "blame", "why_missed", "The reviewer should have caught the exclusive bound.", "should have caught"),
    ("en", "blame", "why_missed", "It was Bob's fault; a careless change.", "Bob's fault"),
    ("en", "blame", "how_found", "Someone dropped the ball on the runner sizes.", "dropped the ball"),
    ("ja", "blame", "why_missed", "レビュアーが見つけるべきだった。", "見つけるべきだった"),
    ("ja", "blame", "why_missed", "Bob さんのミスです。", "のミス"),
    ("ja", "blame", "how_found", "担当者の不注意でした。", "不注意"),
    ("en", "advocacy", "fix", "We should refactor the whole cache around `evict_range`.", "We should refactor"),
    (
        "en",
        "advocacy",
        "why_missed",
        "We need to rewrite the CI matrix; `shard_bits` never hit 17.",
        "We need to rewrite",
    ),
    ("ja", "advocacy", "fix", "`scratchBuf` 周りはリファクタリングすべきです。", "リファクタリングすべき"),
    ("ja", "advocacy", "why_missed", "起動処理を再設計すべきだ。", "再設計すべき"),
]


@pytest.mark.parametrize(("lang", "rule", "field", "value", "phrase"), PHRASE_CASES)
def test_phrase_rules_name_their_field_and_quote_the_phrase(
    clean: Callable[[str], PostMortem], lang: str, rule: str, field: str, value: str, phrase: str
) -> None:
    warning = only(clean(lang), **{field: value})
    assert (warning.field, warning.rule) == (field, rule)
    assert phrase in warning.text
    assert_in_lang(warning.text.replace(phrase, ""), lang)


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("why_symptom", "The likelihood of a stale read grows with cache size; `read_page` serves it."),
        ("why_symptom", "An unlikely path, but `read_page` serves the stale copy every time."),
        ("fix", "Adds `might_evict()` and `maybe_flush` so `evict_range` visits every shard."),
        ("fix", "The new check `if likely(x)` runs in `evict_range`."),
        ("fix", "`scratchBuf` を参照前に確認するようにしました。`evict_range` は全シャードを訪れます。"),
        ("why_missed", "No good reason: this should have been caught; `shard_bits` never reached 17 in CI."),
        ("why_missed", "妥当な理由はありません。検出すべきでした。`shard_bits` が 17 に達しませんでした。"),
        ("how_found", "最初の仮説は `launchStream` の起動順序でしたが、デバッガーで否定されました。"),
        ("how_found", "We thought it was the allocator until `evict_range` logging showed the skipped shard."),
    ],
)
def test_near_misses_do_not_warn(clean: Callable[[str], PostMortem], field: str, value: str) -> None:
    assert lint(clean("en").replace(**{field: value})) == []


@pytest.mark.parametrize("lang", LANGS)
def test_hedging_and_blame_in_an_action_item_but_advocacy_allowed_there(
    clean: Callable[[str], PostMortem], lang: str
) -> None:
    items = [
        {"what": "We should refactor `evict_range`; maybe add a test", "owner": "Priya", "tracking": "CACHE-90"},
        {"what": "リファクタリングすべき箇所を整理する", "owner": "Alex", "tracking": "JIRA-1"},
    ]
    assert rules(clean(lang), action_items=items, action_items_none=False) == [("action_items", "hedging")]


# Identifiers and mechanism


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("field", ["root_cause", "fix"])
def test_root_cause_or_fix_without_identifier(clean: Callable[[str], PostMortem], lang: str, field: str) -> None:
    value = {
        "en": "The last part of the cache was never cleared.",
        "ja": "キャッシュの最後の部分が消去されませんでした。",
    }[lang]
    warning = only(clean(lang), **{field: value})
    assert (warning.field, warning.rule) == (field, "no_identifier")
    assert_in_lang(warning.text, lang)


@pytest.mark.parametrize(
    "value",
    [
        "`evict` skipped it.",
        "evict_range skipped it.",
        "blockCache skipped it.",
        "BlockCache::evict skipped it.",
        "storage/cache.py skipped it.",
        "evict() skipped it.",
        "Commit 3f9a2c1 skipped it.",
        "handle->shared skipped it.",
        "条件 numStreams == 1 のときに起きていました。",
        "dumbModelの経路でした。",
    ],
)
def test_identifier_shapes_are_recognised(clean: Callable[[str], PostMortem], value: str) -> None:
    assert lint(clean("en").replace(root_cause=value)) == []


@pytest.mark.parametrize(
    ("lang", "value", "phrase"),
    [
        ("en", "A sync issue between the streams.", "sync issue"),
        ("en", "There was some race on shutdown.", "some race"),
        ("en", "A timing issue in the launcher.", "timing issue"),
        ("ja", "ストリーム間の同期の問題でした。", "同期の問題"),
    ],
)
def test_vague_mechanism(clean: Callable[[str], PostMortem], lang: str, value: str, phrase: str) -> None:
    found = lint(clean(lang).replace(root_cause=value))
    expected = [("root_cause", "no_identifier"), ("root_cause", "vague_mechanism")]
    assert [(w.field, w.rule) for w in found] == expected
    assert phrase in found[1].text
    assert_in_lang(found[1].text.replace(phrase, ""), lang)


def test_vague_words_next_to_an_identifier_are_a_mechanism(clean: Callable[[str], PostMortem]) -> None:
    value = "A sync issue: `tadaLaunchPrepare` skips the event record when `numStreams == 1`."
    assert lint(clean("en").replace(root_cause=value, why_symptom=value)) == []


# Validation scope, category, action items


@pytest.mark.parametrize("lang", LANGS)
def test_validation_without_scope(clean: Callable[[str], PostMortem], lang: str) -> None:
    warning = only(clean(lang), validation_scope=None)
    assert (warning.field, warning.rule) == ("validation_scope", "no_scope")
    assert_in_lang(warning.text, lang)


@pytest.mark.parametrize(
    "validation",
    [
        "The repro passes 200 of 200. Not re-tested on ARM.",
        "元のワークロードが完了。他の構成では再テストしていません。",
    ],
)
def test_scope_stated_inside_validation_is_enough(clean: Callable[[str], PostMortem], validation: str) -> None:
    assert lint(clean("en").replace(validation=validation, validation_scope=None)) == []


@pytest.mark.parametrize("lang", LANGS)
def test_why_missed_without_category(clean: Callable[[str], PostMortem], lang: str) -> None:
    warning = only(clean(lang), why_missed_category=None)
    assert (warning.field, warning.rule) == ("why_missed_category", "no_category")
    assert "ci_gap" in warning.text
    assert_in_lang(warning.text, lang)


@pytest.mark.parametrize("lang", LANGS)
def test_action_item_without_owner_or_tracking_warns_once_each(clean: Callable[[str], PostMortem], lang: str) -> None:
    items = [
        {"what": "Add `test_evict_last_shard`"},
        {"what": "Run 128 GiB caches nightly", "owner": "Priya"},
        {"what": "Update the runbook", "tracking": "CACHE-91"},
        {"what": "Audit `evict_*`", "owner": "TBD", "tracking": "CACHE-92"},
    ]
    warnings = lint(clean(lang).replace(action_items=items, action_items_none=False))
    assert [w.rule for w in warnings] == ["item_owner", "item_tracking", "item_tracking", "item_owner", "item_owner"]
    assert {w.field for w in warnings} == {"action_items"}
    assert [re.findall(r"\d+", w.text)[0] for w in warnings] == ["1", "1", "2", "3", "4"]
    assert "`test_evict_last_shard`" in warnings[0].text
    for warning in warnings:
        assert_in_lang(re.sub(r"[(（].*[)）]", "", warning.text), lang)


# Empty usually-included sections

EMPTY: dict[str, dict[str, Any]] = {
    "symptom": {"symptom": None},
    "why_symptom": {"why_symptom": None},
    "how_found": {"how_found": None},
    "why_missed": {"why_missed": None, "why_missed_category": None},
    "action_items": {"action_items": [], "action_items_none": False},
}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("section", list(EMPTY))
def test_empty_usually_included_section(clean: Callable[[str], PostMortem], lang: str, section: str) -> None:
    warning = only(clean(lang), **EMPTY[section])
    assert (warning.field, warning.rule) == (section, "empty_section")
    assert_in_lang(warning.text, lang)


def test_explicit_none_action_items_is_not_empty(clean: Callable[[str], PostMortem]) -> None:
    assert lint(clean("ja").replace(action_items=[], action_items_none=True)) == []
