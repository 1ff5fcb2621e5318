"""Structure limits: text nested too deep or too large is refused with the field named, never a crash."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from postmortem.fieldtext import updates_from_text
from postmortem.limits import MAX_BLOCKS, MAX_NESTING, postmortem_structure_error, structure_error
from postmortem.model import ActionItem, InputError, Lang, PostMortem
from renderers.adf import render_adf
from renderers.slack import render_slack

pytestmark = pytest.mark.unit

#: 248 nested list levels in 497 characters once raised RecursionError.
DEEP_LIST = "- " * 248 + "x"
DEEP_QUOTE = ">" * 300 + " x"
DEEP_MIXED = "".join("  " * i + ("> " if i % 2 else "- ") + "x\n" for i in range(60))


@pytest.mark.parametrize(
    "text",
    [
        DEEP_LIST,
        DEEP_QUOTE,
        "- " * (MAX_NESTING + 1) + "x",
        "\n".join("  " * i + "- x" for i in range(MAX_NESTING + 1)),
    ],
)
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_nesting_past_the_limit_is_refused_with_the_field_named(text: str, lang: Lang) -> None:
    error = structure_error("root_cause", text, lang)
    assert error is not None and error.field == "root_cause"
    assert str(MAX_NESTING) in error.message and "\n" not in error.message


def test_the_limit_itself_is_accepted_and_renders(validate_adf: Callable[[Any], Any]) -> None:
    text = "- " * MAX_NESTING + "deepest"
    assert structure_error("root_cause", text, "en") is None
    pm = PostMortem(ticket="PROJ-1", root_cause=text)
    adf = render_adf(pm)
    validate_adf(adf)
    assert "deepest" in json.dumps(adf) and render_slack(pm)


def test_too_many_blocks_are_refused() -> None:
    assert structure_error("symptom", "line\n\n" * MAX_BLOCKS, "en") is None
    error = structure_error("symptom", "line\n\n" * (MAX_BLOCKS + 1), "ja")
    assert error is not None and error.field == "symptom" and "1000" in error.message


def test_a_thread_answer_too_deep_is_refused_before_it_changes_anything() -> None:
    with pytest.raises(InputError) as raised:
        updates_from_text("root_cause", DEEP_LIST, lang="ja")
    assert raised.value.field == "root_cause" and "入れ子" in raised.value.message
    with pytest.raises(InputError):
        updates_from_text("action_items", f"{DEEP_LIST} | Bo", lang="en")


def test_the_first_refused_field_of_a_postmortem_is_named() -> None:
    pm = PostMortem(ticket="PROJ-1", summary="ok", validation=DEEP_MIXED, action_items=(ActionItem(what=DEEP_QUOTE),))
    error = postmortem_structure_error(pm)
    assert error is not None and error.field == "validation"
    pm = pm.replace(validation="fine")
    error = postmortem_structure_error(pm)
    assert error is not None and error.field == "action_items.0.what"
