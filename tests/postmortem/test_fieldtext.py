"""Reading a person's typed text as §2 values: action items, choices, yes/no, tickets, limits."""

from __future__ import annotations

from typing import Any

import pytest

from postmortem.fieldtext import (
    ANSWERABLE_FIELDS,
    MODAL_MAX_CHARS,
    THREAD_MAX_CHARS,
    format_action_items,
    parse_action_items,
    ticket_from_text,
    updates_from_text,
)
from postmortem.model import TEXT_FIELDS, ActionItem, InputError, PostMortem

pytestmark = pytest.mark.unit


def item(what: str, owner: str | None = None, tracking: str | None = None) -> dict[str, str | None]:
    return {"what": what, "owner": owner, "tracking": tracking}


@pytest.mark.parametrize(
    ("text", "items", "none"),
    [
        ("", [], False),
        ("  \n\n ", [], False),
        ("none", [], True),
        ("None.", [], True),
        ("  NONE  ", [], True),
        ("なし", [], True),
        ("なし。", [], True),
        ("- none", [], True),
        ("Add a test", [item("Add a test")], False),
        ("Add a test | Alex | JIRA-2", [item("Add a test", "Alex", "JIRA-2")], False),
        ("Add a test | | JIRA-2", [item("Add a test", None, "JIRA-2")], False),
        ("Add a test | Alex |", [item("Add a test", "Alex")], False),
        (
            "- a | b\n• c\n1. d | e | f\n2) g\n・h",
            [item("a", "b"), item("c"), item("d", "e", "f"), item("g"), item("h")],
            False,
        ),
        ("a\n\n\nb", [item("a"), item("b")], False),
        ("1.5x faster reads", [item("1.5x faster reads")], False),
        (r"check `a \| b` | Alex", [item("check `a | b`", "Alex")], False),
        ("none | Alex", [item("none", "Alex")], False),
        ("回帰テストを追加 | Alex | PR #5751", [item("回帰テストを追加", "Alex", "PR #5751")], False),
    ],
)
def test_parse_action_items(text: str, items: list[dict[str, Any]], none: bool) -> None:
    assert parse_action_items(text) == (items, none)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("a | b | c | d", "line 1: 4 parts"),
        ("ok\n\nx | y | z | w | v", "line 3: 5 parts"),
        ("| Alex | JIRA-1", "line 1: the item itself"),
        ("ok\n- ", "line 2: the item itself"),
        ("Add a test\nnone", "line 2: 'none' must be the only line"),
    ],
)
def test_parse_action_items_errors(text: str, expected: str) -> None:
    with pytest.raises(InputError) as exc:
        parse_action_items(text)
    assert exc.value.field == "action_items"
    assert exc.value.message.startswith(expected)


def test_parse_action_items_error_in_japanese() -> None:
    with pytest.raises(InputError, match="2 行目"):
        parse_action_items("ok\n| x", lang="ja")


@pytest.mark.parametrize(
    "items",
    [
        [item("a")],
        [item("a", "b", "c"), item("d", None, "f"), item("g", "h")],
        [item("pipe | inside", "x|y")],
        [item("none")],
        [item("NONE.", None, "JIRA-1")],
    ],
)
def test_format_action_items_round_trips(items: list[dict[str, Any]]) -> None:
    assert parse_action_items(format_action_items(items)) == (items, False)


def test_format_action_items_none_and_models() -> None:
    assert format_action_items([], True) == "none"
    assert format_action_items([], True, lang="ja") == "なし"
    assert format_action_items([], False) == ""
    assert format_action_items([ActionItem(what="a\nb", tracking="T-1")]) == "a b | | T-1"


@pytest.mark.parametrize(
    ("field", "text", "updates"),
    [
        ("summary", "  It broke.\n", {"summary": "It broke."}),
        ("root_cause", "x" * THREAD_MAX_CHARS, {"root_cause": "x" * THREAD_MAX_CHARS}),
        ("ticket", "proj-12", {"ticket": "PROJ-12"}),
        ("ticket", "<https://x.atlassian.net/browse/ABC-9>", {"ticket": "ABC-9"}),
        ("why_missed_category", "ci_gap", {"why_missed_category": "ci_gap"}),
        ("why_missed_category", "CI gap", {"why_missed_category": "ci_gap"}),
        ("why_missed_category", "Latent-Code", {"why_missed_category": "latent_code"}),
        ("why_missed_category", "レビューでの見落とし", {"why_missed_category": "review_miss"}),
        ("why_missed_category", "no good reason", {"why_missed_category": "no_good_reason"}),
        ("destination", "PR_DESCRIPTION", {"destination": "pr_description"}),
        ("destination", "wiki", {"destination": "wiki"}),
        ("destination", "Jira コメント", {"destination": "jira_comment"}),
        ("lang", "JA", {"lang": "ja"}),
        ("lang", "日本語", {"lang": "ja"}),
        ("lang", "English", {"lang": "en"}),
        ("customer_impacting", "Yes", {"customer_impacting": True}),
        ("customer_impacting", "いいえ。", {"customer_impacting": False}),
        ("trivial", "no", {"trivial": False}),
        ("trivial", "はい", {"trivial": True}),
        ("action_items", "none", {"action_items": [], "action_items_none": True}),
        ("action_items", "a | b", {"action_items": [item("a", "b")], "action_items_none": False}),
    ],
)
def test_updates_from_text(field: str, text: str, updates: dict[str, Any]) -> None:
    assert updates_from_text(field, text) == updates


@pytest.mark.parametrize(
    ("field", "text", "expected"),
    [
        ("colour", "blue", "not a field that can be set"),
        ("action_items_none", "true", "not a field that can be set"),
        ("summary", "   ", "the answer is empty"),
        ("summary", "x" * (THREAD_MAX_CHARS + 1), f"{THREAD_MAX_CHARS + 1} characters; at most {THREAD_MAX_CHARS}"),
        (
            "why_missed_category",
            "bad luck",
            "'bad luck' is not one of: ci_gap, latent_code, workload_gap, incomplete_fix, review_miss, no_good_reason",
        ),
        ("destination", "email", "'email' is not one of: jira_comment"),
        ("lang", "fr", "'fr' is not one of: en, ja"),
        ("trivial", "maybe", "answer yes or no"),
        ("ticket", "12345", "'12345' is not a Jira issue key: expected a key like PROJ-123"),
        ("action_items", "a | b | c | d", "line 1: 4 parts"),
    ],
)
def test_updates_from_text_errors(field: str, text: str, expected: str) -> None:
    with pytest.raises(InputError) as exc:
        updates_from_text(field, text)
    assert exc.value.field == field
    assert exc.value.message.startswith(expected)


def test_updates_from_text_modal_limit_and_japanese() -> None:
    with pytest.raises(InputError, match="at most 3000"):
        updates_from_text("fix", "x" * (MODAL_MAX_CHARS + 1), limit=MODAL_MAX_CHARS)
    with pytest.raises(InputError, match="「はい」か「いいえ」"):
        updates_from_text("trivial", "maybe", lang="ja")


def test_answerable_fields_are_the_model_fields() -> None:
    assert set(TEXT_FIELDS) < set(ANSWERABLE_FIELDS)
    assert set(ANSWERABLE_FIELDS) == set(PostMortem.model_fields) - {"action_items_none"}


def test_every_answer_validates_into_the_model() -> None:
    answers = {
        "summary": "s",
        "why_missed_category": "CI gap",
        "action_items": "a | b",
        "trivial": "no",
        "destination": "docs_file",
        "lang": "ja",
        "customer_impacting": "yes",
    }
    fields: dict[str, Any] = {"ticket": ticket_from_text("abc-1")}
    for field, text in answers.items():
        fields.update(updates_from_text(field, text))
    pm = PostMortem.model_validate(fields)
    assert pm.action_items == (ActionItem(what="a", owner="b"),)
    assert pm.why_missed_category == "ci_gap"


@pytest.mark.parametrize(
    ("text", "kinds"),
    [
        ("original repro passes, 失敗していたテストが成功", ["original_repro_passes", "failing_test_passes"]),
        ("- stress_soak\n- 性能が回復", ["perf_restored", "stress_soak"]),
        ("Workload completes; workload_completes", ["workload_completes"]),
    ],
)
def test_several_options_are_typed_as_values_or_labels_separated_by_commas(text: str, kinds: list[str]) -> None:
    assert updates_from_text("validation_kinds", text) == {"validation_kinds": kinds}


@pytest.mark.parametrize(
    ("field", "text"),
    [("validation_kinds", "reviewed, merged"), ("validation_kinds", "、"), ("repro_rate", "once in production")],
)
def test_an_option_nobody_declared_is_refused_naming_the_choices(field: str, text: str) -> None:
    with pytest.raises(InputError) as raised:
        updates_from_text(field, text, lang="ja")
    assert raised.value.field == field and "次のいずれでもありません" in raised.value.message
