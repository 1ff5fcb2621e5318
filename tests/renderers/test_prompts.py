"""The bot's questions as Block Kit: the answer controls of the structured fields and of action items."""

from __future__ import annotations

from typing import Any

import pytest

from postmortem.model import Lang
from postmortem.sections import ACTION_ITEMS_NONE
from renderers.prompts import ACTION_CHECKS, ACTION_CHOOSE, ACTION_DONE, answer_of_action, notice

pytestmark = pytest.mark.unit


def actions(message: dict[str, Any]) -> list[dict[str, Any]]:
    return [e for b in message["blocks"] if b["type"] == "actions" for e in b["elements"]]


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_repro_rate_is_asked_with_one_button_an_option(lang: Lang) -> None:
    message = notice("ask_field_as", lang, field="repro_rate", reason="r", session="abc")
    buttons = actions(message)
    assert [b["action_id"] for b in buttons] == [
        f"{ACTION_CHOOSE}:repro_rate:{v}" for v in ("every_run", "high_frequency", "rarely")
    ]
    assert all(b["type"] == "button" and b["value"] == "abc" for b in buttons)
    assert buttons[0]["text"]["text"] == {"en": "Every run", "ja": "毎回"}[lang]


def test_validation_kinds_is_asked_with_checkboxes_and_a_done_button() -> None:
    checks, done = actions(notice("ask_field_as", "ja", field="validation_kinds", reason="r", session="abc"))
    assert checks["type"] == "checkboxes" and checks["action_id"] == f"{ACTION_CHECKS}:validation_kinds"
    assert [o["value"] for o in checks["options"]][:2] == ["original_repro_passes", "failing_test_passes"]
    assert done["action_id"] == f"{ACTION_DONE}:validation_kinds" and done["text"]["text"] == "完了"
    assert done["value"] == "abc"


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_action_items_question_offers_the_seeds_none_sentence_beside_typing(lang: Lang) -> None:
    message = notice("ask_optional_as", lang, field="action_items", session="abc")
    (button,) = actions(message)
    assert button["text"]["text"] == ACTION_ITEMS_NONE[lang] and len(button["text"]["text"]) <= 75
    assert button["action_id"] == f"{ACTION_CHOOSE}:action_items:none"
    assert "skip" in message["text"]  # skip still leaves the section out


def test_text_questions_and_other_notices_have_no_controls() -> None:
    assert actions(notice("ask_field_as", "en", field="summary", reason="r", session="abc")) == []
    assert actions(notice("ask_field_as", "en", field="repro_rate", reason="r")) == []  # no session: no buttons
    assert actions(notice("cancelled", "en")) == []


def test_answers_are_read_from_a_button_or_from_the_boxes_ticked_when_done() -> None:
    assert answer_of_action(f"{ACTION_CHOOSE}:repro_rate:every_run", None) == ("repro_rate", ["every_run"])
    state = {
        "values": {
            "ask_validation_kinds": {
                f"{ACTION_CHECKS}:validation_kinds": {
                    "type": "checkboxes",
                    "selected_options": [{"value": "perf_restored"}, {"value": "stress_soak"}],
                }
            }
        }
    }
    assert answer_of_action(f"{ACTION_DONE}:validation_kinds", state) == (
        "validation_kinds",
        ["perf_restored", "stress_soak"],
    )
    assert answer_of_action(f"{ACTION_DONE}:validation_kinds", {}) == ("validation_kinds", [])
    assert answer_of_action("postmortem_edit", state) is None
    assert answer_of_action(f"{ACTION_CHOOSE}:repro_rate", None) is None
