"""The `/post-mortem` modal: Slack's limits, prefill, and reading the submitted state back into §2 fields."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from emulators.driver import modal_values
from postmortem.messages import field_label
from postmortem.model import PostMortem
from renderers.modal import CALLBACK_ID, build_modal, fields_from_view_state

pytestmark = pytest.mark.unit

EXAMPLES = ("cache-eviction.en", "tada-hang.ja", "refused-missing.en")
FIELDS = set(PostMortem.model_fields) - {"action_items_none", "customer_impacting", "trivial"}


def state_of(view: dict[str, Any]) -> dict[str, Any]:
    """What Slack sends back as `view.state.values` when the person submits without touching anything."""
    state: dict[str, Any] = {}
    for block in view["blocks"]:
        if block["type"] != "input":
            continue
        el = block["element"]
        if el["type"] == "plain_text_input":
            action = {"type": el["type"], "value": el.get("initial_value")}
        elif el["type"] == "static_select":
            action = {"type": el["type"], "selected_option": el.get("initial_option")}
        else:
            action = {"type": el["type"], "selected_options": el.get("initial_options", [])}
        state[block["block_id"]] = {el["action_id"]: action}
    return state


def typed(block_id: str, value: Any) -> dict[str, Any]:
    return {block_id: {block_id: {"type": "plain_text_input", "value": value}}}


def select(block_id: str, value: str | None) -> dict[str, Any]:
    option = None if value is None else {"text": {"type": "plain_text", "text": value}, "value": value}
    return {block_id: {block_id: {"type": "static_select", "selected_option": option}}}


def inputs(view: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {b["block_id"]: b for b in view["blocks"] if b["type"] == "input"}


@pytest.mark.parametrize("stem", EXAMPLES)
def test_round_trip_through_slack_state(example: Callable[[str], PostMortem], stem: str) -> None:
    pm = example(stem)
    view = build_modal(ticket=None, values=pm.model_dump(), lang=pm.lang)
    fields, errors = fields_from_view_state(state_of(view))
    assert errors == {}
    back = PostMortem.model_validate(fields)
    assert back == pm
    assert back.model_dump(exclude_defaults=True) == pm.model_dump(exclude_defaults=True)


def test_round_trip_of_scope_flags_and_choices(example: Callable[[str], PostMortem]) -> None:
    pm = example("cache-eviction.en").replace(
        customer_impacting=True, trivial=True, destination="wiki", lang="ja", why_missed_category=None
    )
    fields, errors = fields_from_view_state(state_of(build_modal(ticket=None, values=pm.model_dump())))
    assert errors == {}
    assert PostMortem.model_validate(fields) == pm


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_view_respects_slack_limits(example: Callable[[str], PostMortem], lang: Any) -> None:
    view = build_modal(
        ticket="JIRA-12345", values=example("tada-hang.ja").model_dump(), lang=lang, private_metadata="session-1"
    )
    assert view["type"] == "modal" and view["callback_id"] == CALLBACK_ID
    assert view["private_metadata"] == "session-1"
    assert len(view["blocks"]) <= 100
    assert len(view["title"]["text"]) <= 24
    assert len(view["submit"]["text"]) <= 24 and len(view["close"]["text"]) <= 24
    assert len(json.dumps(view).encode()) < 250_000
    blocks = inputs(view)
    assert set(blocks) == FIELDS | {"scope"}
    assert all("block_id" not in b or b["block_id"] in blocks for b in view["blocks"])
    for block_id, block in blocks.items():
        el = block["element"]
        assert el["action_id"] == block_id
        assert block["optional"] is (block_id != "ticket")
        assert len(block["label"]["text"]) <= 2000 and len(block["hint"]["text"]) <= 2000
        if el["type"] == "plain_text_input":
            assert el["max_length"] == 3000
            assert len(el.get("initial_value", "")) <= 3000
        for option in el.get("options", []):
            assert len(option["text"]["text"]) <= 75
        if "initial_option" in el:
            assert el["initial_option"] in el["options"]
        for option in el.get("initial_options", []):
            assert option in el["options"]
    assert [o["value"] for o in blocks["scope"]["element"]["options"]] == ["customer_impacting", "trivial"]
    assert [o["value"] for o in blocks["why_missed_category"]["element"]["options"]] == [
        "ci_gap",
        "latent_code",
        "workload_gap",
        "incomplete_fix",
        "review_miss",
        "no_good_reason",
    ]


def test_blank_modal_defaults() -> None:
    view = build_modal(ticket="PROJ-7", lang="ja")
    blocks = inputs(view)
    assert blocks["ticket"]["element"]["initial_value"] == "PROJ-7"
    assert blocks["destination"]["element"]["initial_option"]["value"] == "jira_comment"
    assert blocks["lang"]["element"]["initial_option"]["value"] == "ja"
    assert "initial_option" not in blocks["why_missed_category"]["element"]
    assert "initial_options" not in blocks["scope"]["element"]
    assert all("initial_value" not in b["element"] for k, b in blocks.items() if k != "ticket")
    fields, errors = fields_from_view_state(state_of(view))
    assert errors == {}
    assert PostMortem.model_validate(fields) == PostMortem(ticket="PROJ-7", lang="ja")


def test_japanese_labels() -> None:
    view = build_modal(ticket=None, lang="ja")
    blocks = inputs(view)
    assert view["title"]["text"] == "事後分析"
    assert blocks["root_cause"]["label"]["text"] == "根本原因（メカニズム）"
    # One vocabulary: the modal's labels are the ones the bot uses when it asks in the thread.
    assert {b: blocks[b]["label"]["text"] for b in blocks} == {b: field_label(b, "ja") for b in blocks}
    assert blocks["action_items"]["hint"]["text"].endswith("「なし」とだけ書きます。")
    labels = [o["text"]["text"] for o in blocks["why_missed_category"]["element"]["options"]]
    assert "CI のギャップ" in labels
    assert build_modal(ticket=None)["title"]["text"] == "Post-mortem"
    assert inputs(build_modal(ticket=None))["root_cause"]["hint"]["text"].startswith("The mechanism")


def test_action_items_prefill_is_one_line_each(example: Callable[[str], PostMortem]) -> None:
    view = build_modal(ticket=None, values=example("tada-hang.ja").model_dump(), lang="ja")
    text = inputs(view)["action_items"]["element"]["initial_value"]
    assert text.splitlines()[1] == "CI の不足：夜間テストに単一ストリーム＋IPC の組み合わせを追加 | Alex | JIRA-12346"
    # The example's fourth item names no owner: its owner part stays empty.
    assert text.splitlines()[3].endswith("バグがないか監査 | | JIRA-12347 として起票済み")
    none_view = build_modal(ticket=None, values=example("cache-eviction.en").model_dump())
    assert inputs(none_view)["action_items"]["element"]["initial_value"] == "none"


def test_too_long_value_is_not_prefilled_and_kept_when_left_empty() -> None:
    long = "log line\n" * 400
    items = [{"what": f"item {i} " + "x" * 60, "owner": "me"} for i in range(60)]
    pm = PostMortem.model_validate({"ticket": "PROJ-1", "symptom": long, "action_items": items})
    previous = pm.model_dump()
    view = build_modal(ticket=None, values=previous)
    blocks = inputs(view)
    for field in ("symptom", "action_items"):
        assert "initial_value" not in blocks[field]["element"]
        assert "is kept unless you type a replacement" in blocks[field]["hint"]["text"]
    state = state_of(view)
    fields, errors = fields_from_view_state(state, previous=previous)
    assert errors == {}
    assert PostMortem.model_validate(fields).model_dump() == previous
    # Without `previous` nothing is known to keep: an empty input is an empty field.
    assert fields_from_view_state(state)[0]["symptom"] is None
    # A replacement typed into the empty input wins.
    fields, _ = fields_from_view_state({**state, **typed("symptom", "short")}, previous=previous)
    assert fields["symptom"] == "short" and len(fields["action_items"]) == 60


@pytest.mark.parametrize(
    ("patch", "block_id", "expected"),
    [
        (typed("ticket", "not a key"), "ticket", "'not a key' is not a Jira issue key: expected a key like PROJ-123"),
        (typed("ticket", None), "ticket", "enter the Jira issue key"),
        (typed("ticket", "   "), "ticket", "enter the Jira issue key"),
        (typed("action_items", "ok\na | b | c | d"), "action_items", "line 2: 4 parts"),
        (typed("action_items", "fix it\nnone"), "action_items", "line 2: 'none' must be the only line"),
        (typed("summary", "x" * 3001), "summary", "3001 characters; at most 3000"),
        (typed("root_cause", "- " * 248 + "x"), "root_cause", "lists or quotes are nested more than 20 levels"),
        (select("destination", "email"), "destination", "'email' is not one of: jira_comment"),
        (select("why_missed_category", "bad_luck"), "why_missed_category", "'bad_luck' is not one of: ci_gap"),
        ({"scope": {"scope": {"selected_options": [{"value": "outage"}]}}}, "scope", "'outage' is not one of"),
    ],
)
def test_errors_by_block_id(patch: dict[str, Any], block_id: str, expected: str) -> None:
    state = {**state_of(build_modal(ticket="PROJ-1")), **patch}
    fields, errors = fields_from_view_state(state)
    assert list(errors) == [block_id]
    assert errors[block_id].startswith(expected)
    assert block_id not in fields


def test_errors_in_the_language_selected_in_the_form() -> None:
    state = {**state_of(build_modal(ticket="PROJ-1", lang="ja")), **typed("ticket", "abc")}
    assert "PROJ-123 のような形式" in fields_from_view_state(state)[1]["ticket"]


def test_ticket_is_normalised() -> None:
    state = {**state_of(build_modal(ticket=None)), **typed("ticket", " proj-42 ")}
    assert fields_from_view_state(state)[0]["ticket"] == "PROJ-42"


@pytest.mark.parametrize(
    "garbage",
    [
        None,
        [],
        "values",
        42,
        {},
        {"ticket": None, "summary": [], "owner": "x", "scope": {"scope": {"selected_options": "trivial"}}},
        {
            "ticket": {"ticket": []},
            "lang": {"lang": {"selected_option": "ja"}},
            "destination": {"destination": {"selected_option": {"value": 3}}},
        },
        {"scope": {"scope": {"selected_options": [None, 1, {"value": None}, {"value": "trivial"}]}}},
        {"ticket": {"odd_action": {"value": "PROJ-5"}}, "unknown_block": {"x": {"value": "y"}}},
    ],
)
def test_garbage_payloads_never_raise(garbage: Any) -> None:
    fields, errors = fields_from_view_state(garbage)
    assert set(errors) <= {"ticket"}
    assert "destination" not in fields and "lang" not in fields
    if "ticket" in fields:
        assert fields["ticket"] == "PROJ-5" and errors == {}
    assert isinstance(fields["trivial"], bool)


def test_private_metadata_limit() -> None:
    with pytest.raises(ValueError, match="3,000"):
        build_modal(ticket=None, private_metadata="x" * 3001)


def test_the_structured_evidence_is_a_select_and_a_checkboxes_input() -> None:
    blocks = inputs(
        build_modal(
            ticket="PROJ-1", values={"repro_rate": "every_run", "validation_kinds": ["perf_restored"]}, lang="ja"
        )
    )
    rate, kinds = blocks["repro_rate"]["element"], blocks["validation_kinds"]["element"]
    assert rate["type"] == "static_select" and rate["action_id"] == "repro_rate"
    assert [o["value"] for o in rate["options"]] == ["every_run", "high_frequency", "rarely"]
    assert rate["initial_option"]["text"]["text"] == "毎回"
    assert kinds["type"] == "checkboxes" and kinds["action_id"] == "validation_kinds"
    assert len(kinds["options"]) == 6 and [o["value"] for o in kinds["initial_options"]] == ["perf_restored"]
    assert blocks["confirmed_by"]["element"]["multiline"] is True
    assert "修正を戻すと再び失敗する" in blocks["confirmed_by"]["hint"]["text"]
    assert "optional" in blocks["repro_rate"] and blocks["repro_rate"]["optional"] is True


def test_the_structured_evidence_is_read_back_from_the_form() -> None:
    state = modal_values(
        {
            "ticket": "PROJ-1",
            "repro_rate": "high_frequency",
            "validation_kinds": ["original_repro_passes", "stress_soak"],
        }
    )
    fields, errors = fields_from_view_state(state)
    assert errors == {}
    assert fields["repro_rate"] == "high_frequency"
    assert fields["validation_kinds"] == ["original_repro_passes", "stress_soak"]
    blank, _ = fields_from_view_state(modal_values({"ticket": "PROJ-1"}))
    assert blank["repro_rate"] is None and blank["validation_kinds"] == []
    _, bad = fields_from_view_state(modal_values({"ticket": "PROJ-1", "validation_kinds": ["hope"]}))
    assert "hope" in bad["validation_kinds"]
