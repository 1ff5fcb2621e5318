"""The reply classifier: explicit approval only, in both languages, and the near misses that must not post."""

from __future__ import annotations

import pytest

from postmortem.model import TEXT_FIELDS
from rules.classifier import REPLY_FIELDS, Kind, Reply, classify_reply

pytestmark = pytest.mark.unit

APPROVALS = [
    "yes",
    "Yes",
    "YES",
    "Yes!",
    "yes.",
    "yes 👍",
    "yes :+1:",
    "yes :+1::skin-tone-2:",
    "👍 yes",
    "yes please",
    "Yes, please!",
    "post it",
    "POST IT.",
    "please post it",
    "post it please",
    "go ahead",
    "Go ahead :+1:",
    "go ahead, please",
    "ok post it",
    "OK, post it.",
    "okay go ahead",
    "yes, post it",
    "yes please post it",
    "ｙｅｓ",
    "  yes  ",
    "yes!!",
    "yes ✅",
    "<@UBOT> yes",
    "<@UBOT|postmortem-bot> post it",
    "<@UBOT>, go ahead",
    "はい",
    "はい。",
    "はい！",
    "はい!",
    "はい🙏",
    "はい、投稿してください",
    "はい 投稿してください",
    "投稿してください",
    "投稿してください。",
    "投稿して下さい",
    "投稿してください🙏",
    "進めてください",
    "進めてください！",
    "はい、進めてください。",
    "はい、お願いします",
    "はい :pray:",
]

NOT_APPROVALS = [
    # near misses in English
    "yes but fix the summary",
    "not yet",
    "no",
    "nope",
    "yes?",
    "post it?",
    "go ahead?",
    "Yes ?",
    "don't post it",
    "do not post it",
    "yesterday",
    "yess",
    "ye s",
    "go ahead and fix X",
    "post it now",
    "post it to wiki",
    "ok",
    "okay",
    "lgtm",
    "sure",
    "y",
    "please",
    "yes no",
    "no, yes",
    "yes post",
    "> yes",
    "&gt; yes",
    "yes :)",
    "I said yes earlier",
    "is it ok to post it",
    "",
    "   ",
    ":+1:",
    "👍",
    # near misses in Japanese
    "お願いします",
    "はい？",
    "はい?",
    "はい、でも概要を直して",
    "投稿しないでください",
    "投稿して",
    "進めて",
    "いいえ",
    "まだです",
    "はいはい",
    "投稿してください？",
    "投稿をお願いします",
    "はいですか",
]


@pytest.mark.parametrize("text", APPROVALS)
def test_explicit_approvals(text: str) -> None:
    assert classify_reply(text, bot_user_id="UBOT") == Reply(Kind.approve)


@pytest.mark.parametrize(
    "text",
    [
        "<@U0ALICE> yes",
        "<@U123ABC|alice> post it",
        "@alice yes",
        "@bot, go ahead",
        "<@UBOT> <@U2> yes",
        "<!channel> post it",
        "<!here> yes",
        "<@U1> owner: Alex (cache team)",
    ],
)
def test_a_reply_addressed_to_someone_else_is_not_a_command(text: str) -> None:
    assert classify_reply(text, bot_user_id="UBOT") == Reply(Kind.other)


@pytest.mark.parametrize("text", NOT_APPROVALS)
def test_near_misses_are_not_approvals(text: str) -> None:
    assert classify_reply(text).kind is not Kind.approve


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("cancel", Kind.cancel),
        ("Cancel.", Kind.cancel),
        ("please cancel", Kind.cancel),
        ("キャンセル", Kind.cancel),
        ("中止", Kind.cancel),
        ("中止してください", Kind.cancel),
        ("ｷｬﾝｾﾙ", Kind.cancel),
        ("cancel?", Kind.other),
        ("cancel the meeting", Kind.other),
        ("continue", Kind.continue_),
        ("Continue!", Kind.continue_),
        ("続行", Kind.continue_),
        ("続けてください", Kind.continue_),
        ("続行します", Kind.continue_),
        ("continue?", Kind.other),
        ("skip", Kind.skip),
        ("Skip.", Kind.skip),
        ("スキップ", Kind.skip),
        ("スキップしてください", Kind.skip),
        ("skip?", Kind.other),
    ],
)
def test_commands(text: str, kind: Kind) -> None:
    assert classify_reply(text).kind is kind


def test_skip_may_name_a_field() -> None:
    assert classify_reply("skip how_found") == Reply(Kind.skip, "how_found")
    assert classify_reply("skip everything").kind is Kind.other


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        ("summary: The cache evicted hot keys.", "summary", "The cache evicted hot keys."),
        ("Root_Cause:  `evict()` skips the LRU tail ", "root_cause", "`evict()` skips the LRU tail"),
        ("<@UBOT> owner: Alex (cache team)", "owner", "Alex (cache team)"),
        ("fix_ref: <https://github.com/o/r/pull/7|o/r#7>", "fix_ref", "https://github.com/o/r/pull/7"),
        ("validation: a &lt; b &amp;&amp; c &gt; d", "validation", "a < b && c > d"),
        ("repro：make test", "repro", "make test"),
        ("*symptom*: line 1\nline 2", "symptom", "line 1\nline 2"),
        ("lang: ja", "lang", "ja"),
        ("destination: wiki", "destination", "wiki"),
        ("why_missed_category: ci_gap", "why_missed_category", "ci_gap"),
        ("action_items: add test | Alex | JIRA-2", "action_items", "add test | Alex | JIRA-2"),
    ],
)
def test_field_answers(text: str, field: str, value: str) -> None:
    assert classify_reply(text, bot_user_id="UBOT") == Reply(Kind.field_answer, field, value)


@pytest.mark.parametrize(
    "text", ["foo: bar", "ticket: PROJ-2", "trivial: true", "https://example.com", "summary:", "fix:  "]
)
def test_unknown_or_empty_fields_are_other(text: str) -> None:
    assert classify_reply(text).kind is Kind.other


def test_an_unknown_field_holding_an_approval_phrase_is_told_how_to_approve() -> None:
    assert classify_reply("note: yes").kind is Kind.unclear_approval


def test_field_answer_wins_over_words_that_look_like_commands() -> None:
    assert classify_reply("summary: yes") == Reply(Kind.field_answer, "summary", "yes")


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ("yes but fix the summary", "summary"),
        ("go ahead and fix X", None),
        ("please reword the root cause", "root_cause"),
        ("can you change why it was missed?", "why_missed"),
        ("the fix section is wrong, please change it", "fix"),
        ("revise", None),
        ("概要を直してください", "summary"),
        ("根本原因を修正してください", "root_cause"),
        ("はい、でも概要を直して", "summary"),
        ("検証範囲を追加して", "validation_scope"),
    ],
)
def test_revision_requests_name_a_section_when_they_can(text: str, field: str | None) -> None:
    assert classify_reply(text) == Reply(Kind.revise, field)


def test_reply_fields_are_design_fields() -> None:
    assert set(TEXT_FIELDS) < set(REPLY_FIELDS)
    assert "ticket" not in REPLY_FIELDS and "customer_impacting" not in REPLY_FIELDS


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ("validation_kinds: original repro passes, 性能が回復", "validation_kinds"),
        ("repro_rate: 毎回", "repro_rate"),
        ("confirmed_by: reverting it fails", "confirmed_by"),
    ],
)
def test_the_structured_fields_can_be_answered_by_name(text: str, field: str) -> None:
    reply = classify_reply(text)
    assert reply.kind is Kind.field_answer and reply.field == field


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        ("検証：8 GPU で 6 時間の連続稼働テスト", "validation", "8 GPU で 6 時間の連続稼働テスト"),
        (
            "根本原因（メカニズム）: `evict_range` skips the last shard",
            "root_cause",
            "`evict_range` skips the last shard",
        ),
        ("根本原因：`evict_range`", "root_cause", "`evict_range`"),
        ("Validation: 0 failures in 200 runs", "validation", "0 failures in 200 runs"),
        ("*Owner of the fix*: Priya", "owner", "Priya"),
        ("再現手順：make cluster", "repro", "make cluster"),
    ],
)
def test_a_field_can_be_answered_by_its_label_in_either_language(text: str, field: str, value: str) -> None:
    assert classify_reply(text) == Reply(Kind.field_answer, field, value)


def test_a_label_without_text_or_an_unknown_label_is_no_answer() -> None:
    assert classify_reply("検証：").kind is Kind.other
    assert classify_reply("気づき: なし").kind is Kind.other
