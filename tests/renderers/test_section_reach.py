"""Every field a section declares reaches that section's body in the Markdown, the ADF and the Slack preview,
including a field declared later: none can be silently left out of the document."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from postmortem.field_table import REGISTRY
from postmortem.fields import Field, Registry
from postmortem.model import Lang, PostMortem, model_for
from postmortem.sections import ACTION_ITEMS_NONE
from renderers.adf import render_adf
from renderers.markdown import render_markdown
from renderers.slack import render_slack

pytestmark = pytest.mark.unit

Validate = Callable[[Any], Any]
SECTION_KEYS = [h.key for h in REGISTRY.heads]
LANGS: list[Lang] = ["en", "ja"]


def marker(name: str) -> str:
    """A text no label, heading or other field holds, and that Markdown, ADF and Slack leave as it is."""
    return f"Qz{name.replace('_', '')}Marker"


def cases(field: Field, lang: Lang) -> list[tuple[dict[str, Any], list[str]]]:
    """(model values, texts its section's body must show) for the field and each name it also sets."""
    if field.kind in ("text", "multiline"):
        return [({field.name: marker(field.name)}, [marker(field.name)])]
    if field.kind == "select":
        last = field.options[-1]
        return [({field.name: last.value}, [last.label[lang]])]
    if field.kind == "multiselect":
        two = field.options[-2:]
        return [({field.name: [o.value for o in two]}, [o.label[lang] for o in two])]
    if field.kind == "list":
        explicit_none = [({name: True}, [ACTION_ITEMS_NONE[lang]]) for name in field.also]
        return [({field.name: [{"what": marker(field.name)}]}, [marker(field.name)]), *explicit_none]
    raise AssertionError(f"{field.name}: no case for a {field.kind} in a section")


def _markdown_body(md: str, heading: str, headings: list[str]) -> str:
    after = md.split(f"\n## {heading}\n", 1)[1]
    ends = [after.find(f"\n## {h}\n") for h in headings if h != heading]
    return after[: min([e for e in ends if e >= 0], default=len(after))]


def _texts(node: Any) -> str:
    if isinstance(node, dict):
        return str(node.get("text", "")) + "".join(_texts(child) for child in node.get("content", []))
    return "".join(_texts(child) for child in node)


def _adf_body(doc: dict[str, Any], heading: str) -> str:
    body: list[str] = []
    inside = False
    for node in doc["content"]:
        if node["type"] == "heading" and node["attrs"]["level"] == 2:
            inside = _texts(node) == heading
        elif inside:
            body.append(_texts(node))
    return "\n".join(body)


def _slack_body(messages: list[dict[str, Any]], heading: str) -> str:
    body: list[str] = []
    inside = False
    for block in (b for m in messages for b in m["blocks"]):
        if block["type"] == "header":
            inside = block["text"]["text"] == heading
        elif inside:
            body.append(block["text"]["text"])
    return "\n".join(body)


def assert_in_section(pm: PostMortem, registry: Registry, section: str, expected: list[str]) -> None:
    heading = registry.heading(section, pm.lang)
    headings = [h.heading[pm.lang] for h in registry.heads]
    adf = render_adf(pm)
    bodies = {
        "markdown": _markdown_body(render_markdown(pm), heading, headings),
        "adf": _adf_body(adf, heading),
        "slack": _slack_body(render_slack(pm, adf=adf), heading),
    }
    for rendering, body in bodies.items():
        for text in expected:
            assert text in body, f"{text!r} is not in the {rendering} of section {section!r}: {body!r}"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("section", SECTION_KEYS)
def test_every_field_of_a_section_reaches_its_body(section: str, lang: Lang) -> None:
    fields = [f for f in REGISTRY.fields if f.section == section]
    assert fields, f"section {section!r} declares no field"
    for field in fields:
        for values, expected in cases(field, lang):
            pm = PostMortem.model_validate({"ticket": "A-1", "lang": lang, **values})
            assert_in_section(pm, REGISTRY, section, expected)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("section", SECTION_KEYS)
def test_a_field_added_to_a_section_reaches_its_body(section: str, lang: Lang, validate_adf: Validate) -> None:
    text = REGISTRY.field("validation_scope")
    added = [
        Field(f"{section}_{kind}_probe", kind, "optional", section, text.label, text.hint)
        for kind in ("text", "multiline")
    ]
    registry = REGISTRY.extended(*added)
    full = {f.name: marker(f.name) for f in registry.fields if f.is_text}
    pm = model_for(registry).model_validate({"ticket": "A-1", "lang": lang, **full})
    validate_adf(render_adf(pm))
    assert_in_section(pm, registry, section, [marker(f.name) for f in added])
