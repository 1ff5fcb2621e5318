"""The field registry: the model agrees with it, everything derives from it, and one entry adds a field."""

from __future__ import annotations

import json
import re
import types
import typing
from collections.abc import Callable
from pathlib import Path
from typing import Any, get_args

import pytest
from pydantic import BaseModel

from postmortem import fields as fields_module
from postmortem import messages, sections
from postmortem.field_table import REGISTRY
from postmortem.fields import Field, Registry, SectionHead
from postmortem.model import TEXT_FIELDS, Lang, PostMortem, model_for
from renderers.adf import render_adf
from renderers.markdown import render_markdown
from renderers.modal import INPUT_FIELDS, MULTILINE, build_modal, fields_from_view_state
from renderers.slack import render_slack
from rules import gate, lint
from sessions import conversation

pytestmark = pytest.mark.unit

Validate = Callable[[Any], Any]

NOTES = Field(
    "incident_notes",
    "multiline",
    "usually_included",
    "incident_notes",
    {"en": "Incident notes", "ja": "インシデントのメモ"},
    {"en": "Anything the on-call wrote down.", "ja": "当番が書き留めたこと。"},
)
NOTES_HEAD = SectionHead("incident_notes", {"en": "Incident notes", "ja": "インシデントのメモ"})


def _choice_values(annotation: Any) -> set[str]:
    """The Literal values inside `Literal[...] | None` or `tuple[Literal[...], ...]`."""
    values: set[str] = set()
    for arg in get_args(annotation):
        if typing.get_origin(arg) is typing.Literal:
            values |= set(get_args(arg))
        else:
            values |= _choice_values(arg)
    if typing.get_origin(annotation) is typing.Literal:
        values |= set(get_args(annotation))
    return values


def _shape(annotation: Any) -> str:
    """A model field's type in the words of the checklist in postmortem/fields.py."""
    origin, args = typing.get_origin(annotation), get_args(annotation)
    if origin in (typing.Union, types.UnionType) and type(None) in args:
        (inner,) = [a for a in args if a is not type(None)]
        return f"{_shape(inner)} | None"
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        return f"tuple[{_shape(args[0])}, ...]"
    if origin is typing.Literal:
        return "Literal"
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return "model"
    return getattr(annotation, "__name__", repr(annotation))


#: What each kind is in the model (postmortem/fields.py, "Adding a field takes", step 2): type and default.
KIND_SHAPES: dict[str, tuple[str, object]] = {
    "text": ("str | None", None),
    "multiline": ("str | None", None),
    "select": ("Literal | None", None),
    "multiselect": ("tuple[Literal, ...]", ()),
    "list": ("tuple[model, ...]", ()),
    "flag": ("bool", False),
}


# The model and the registry agree -----------------------------------------------------------------


def test_model_fields_are_the_registry_fields_in_registry_order() -> None:
    assert tuple(PostMortem.model_fields) == REGISTRY.model_order


@pytest.mark.parametrize("field", REGISTRY.fields, ids=REGISTRY.names)
def test_the_model_types_each_field_as_its_kind_says(field: Field) -> None:
    def actual(name: str) -> tuple[str, object]:
        info = PostMortem.model_fields[name]
        return _shape(info.annotation), "required" if info.is_required() else info.default

    expected: tuple[str, object]
    if field.role == "meta":  # the session's identity, and choices that always have a value
        expected = ("Literal", field.options[0].value) if field.options else ("str", "required")
    else:
        expected = KIND_SHAPES[field.kind]
    assert actual(field.name) == expected
    assert all(actual(name) == ("bool", False) for name in field.also)


def test_the_checklist_for_a_new_field_names_files_that_exist() -> None:
    root = Path(__file__).resolve().parents[2]
    doc = fields_module.__doc__ or ""
    named = set(re.findall(r"\b(?:postmortem|renderers|rules|docs|tests)/[\w/.]+\.(?:py|md|j2)\b", doc))
    assert {"postmortem/field_table.py", "postmortem/model.py", "docs/architecture.md"} <= named
    assert [p for p in sorted(named) if not (root / p).is_file()] == []


@pytest.mark.parametrize("name", list(REGISTRY.choices))
def test_model_choices_are_the_registry_options(name: str) -> None:
    assert _choice_values(PostMortem.model_fields[name].annotation) == set(REGISTRY.choices[name])


def test_every_field_has_a_label_and_a_hint_in_both_languages() -> None:
    for f in REGISTRY.fields:
        for texts in (f.label, f.hint, *(o.label for o in f.options)):
            assert set(texts) == {"en", "ja"} and all(texts.values()), f.name


def test_a_registry_refuses_a_field_twice_or_a_section_nobody_declared() -> None:
    with pytest.raises(ValueError, match="twice"):
        REGISTRY.extended(REGISTRY.field("summary"))
    with pytest.raises(ValueError, match="incident_notes"):
        REGISTRY.extended(NOTES)
    with pytest.raises(ValueError, match="flag cannot be shown in a section: urgent"):
        REGISTRY.extended(Field("urgent", "flag", "scope", "summary", NOTES.label, NOTES.hint))


def test_sections_show_their_own_text_first_and_a_lead_line_above_it() -> None:
    def before(section: str, first: str, then: str) -> bool:
        names = [f.name for f in REGISTRY.shown_in(section)]
        return names.index(first) < names.index(then)

    assert before("how_found", "how_found", "confirmed_by")  # confirmed_by is declared first (§2)
    assert before("fix", "fix", "fix_ref")
    assert before("why_missed", "why_missed_category", "why_missed")
    assert before("symptom", "symptom", "repro") and before("symptom", "repro", "repro_rate")
    displays = {f.name: f.display for f in REGISTRY.fields}
    assert displays["validation"] == "text" and displays["validation_kinds"] == "line"
    assert displays["validation_scope"] == "labelled" and displays["action_items"] == "items"
    assert NOTES.display == "text"


# Everything derives from it ------------------------------------------------------------------------


def test_the_vocabulary_everywhere_is_the_registry() -> None:
    assert TEXT_FIELDS == REGISTRY.text_fields and "confirmed_by" in TEXT_FIELDS
    assert gate.GATE_FIELDS == REGISTRY.required
    assert [s for s, _ in conversation.OPTIONAL_ASKS] == list(REGISTRY.usually_included)
    assert [s.key for s in sections.SECTIONS] == [h.key for h in REGISTRY.heads]
    assert all(messages.field_label(f.name, "ja") == f.label["ja"] for f in REGISTRY.fields)
    assert INPUT_FIELDS == tuple(n for n in REGISTRY.names if n not in REGISTRY.flags)
    assert {"repro", "confirmed_by", "action_items"} <= MULTILINE and "owner" not in MULTILINE


def test_the_structured_fields_are_required_inputs_with_their_questions() -> None:
    assert REGISTRY.field("repro_rate").ask == "buttons"
    assert REGISTRY.field("validation_kinds").ask == "checkboxes"
    assert {"repro_rate", "confirmed_by", "validation_kinds"} <= set(REGISTRY.required)
    hint = REGISTRY.field("confirmed_by").hint
    assert "reverting it brings the failure back" in hint["en"] and "修正を戻すと再び失敗する" in hint["ja"]


# One more field is one entry ------------------------------------------------------------------------


@pytest.fixture
def extended() -> Registry:
    return REGISTRY.extended(NOTES, heads=(NOTES_HEAD,))


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_one_extra_text_field_renders_lints_and_appears_in_the_modal(
    extended: Registry, validate_adf: Validate, example: Callable[[str], PostMortem], lang: Lang
) -> None:
    model = model_for(extended)
    base = example("cache-eviction.en").model_dump()
    pm = model.model_validate({**base, "lang": lang, "incident_notes": "The pager fired twice; it might recur."})
    heading = NOTES_HEAD.heading[lang]

    markdown = render_markdown(pm)
    assert markdown.endswith(f"## {heading}\n\nThe pager fired twice; it might recur.\n")
    adf = render_adf(pm)
    validate_adf(adf)
    assert heading in json.dumps(adf, ensure_ascii=False)
    slack = json.dumps(render_slack(pm), ensure_ascii=False)
    assert heading in slack and "The pager fired twice" in slack

    assert ("incident_notes", "hedging") in [(w.field, w.rule) for w in lint.lint(pm)]
    emptied = pm.replace(incident_notes=None)
    assert ("incident_notes", "empty_section") in [(w.field, w.rule) for w in lint.lint(emptied)]

    view = build_modal(ticket="PROJ-1", values=pm.model_dump(), lang=lang, registry=extended)
    block = next(b for b in view["blocks"] if b.get("block_id") == "incident_notes")
    assert block["label"]["text"] == NOTES.label[lang] and block["element"]["multiline"] is True
    assert block["element"]["initial_value"].startswith("The pager fired twice")
    state = {"incident_notes": {"incident_notes": {"type": "plain_text_input", "value": "written in the form"}}}
    fields, errors = fields_from_view_state(state, registry=extended)
    assert errors == {"ticket": fields_from_view_state({})[1]["ticket"]}
    assert fields["incident_notes"] == "written in the form"


def test_the_product_model_and_modal_know_nothing_of_the_extra_field(extended: Registry) -> None:
    assert "incident_notes" not in PostMortem.model_fields
    assert all(b.get("block_id") != "incident_notes" for b in build_modal(ticket="PROJ-1")["blocks"])
    assert model_for(REGISTRY) is PostMortem
    with pytest.raises(ValueError, match="only optional text fields"):
        model_for(REGISTRY.extended(Field("severity", "select", "meta", None, NOTES.label, NOTES.hint)))
