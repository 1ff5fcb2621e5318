"""ADF: golden files, the tricky conversions, determinism, and schema validity for any input."""

from __future__ import annotations

import html
import json
import os
import re
import subprocess
import sys
import unicodedata
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from postmortem.model import TEXT_FIELDS, Lang, PostMortem
from postmortem.sections import SECTIONS
from renderers.adf import markdown_to_adf, render_adf
from renderers.markdown import render_markdown, section_bodies, title
from tests.renderers.helpers import (
    BLOCK_OPENERS,
    FULL,
    GOLDEN,
    INLINE_FIELDS,
    STEMS,
    check_golden,
    headings,
    section_headings,
    with_field,
)
from tests.renderers.strategies import postmortems, user_text

pytestmark = pytest.mark.unit

Validate = Callable[[Any], Any]


def blocks(md: str, validate: Validate) -> list[dict[str, Any]]:
    doc = markdown_to_adf(md)
    validate(doc)
    assert doc["version"] == 1 and doc["type"] == "doc"
    content: list[dict[str, Any]] = doc["content"]
    return content


def strings(node: Any) -> list[str]:
    """Every string the reader can see or follow: text, link targets and titles, code languages."""
    if isinstance(node, list):
        return [s for child in node for s in strings(child)]
    if not isinstance(node, dict):
        return []
    found = [node["text"]] if "text" in node else []
    attrs = node.get("attrs", {})
    found += [unquote(attrs[k]) for k in ("href", "title", "language") if k in attrs]
    return found + strings(node.get("content", [])) + strings(node.get("marks", []))


@pytest.mark.parametrize("stem", STEMS)
def test_golden_adf(example: Callable[[str], PostMortem], validate_adf: Validate, stem: str) -> None:
    adf = render_adf(example(stem))
    validate_adf(adf)
    check_golden(GOLDEN / f"{stem}.adf.json", json.dumps(adf, ensure_ascii=False, indent=2) + "\n")


def test_code_inside_bold_keeps_only_the_code_mark(validate_adf: Validate) -> None:
    para = blocks("**a `x` b**", validate_adf)[0]
    assert para["content"] == [
        {"type": "text", "text": "a ", "marks": [{"type": "strong"}]},
        {"type": "text", "text": "x", "marks": [{"type": "code"}]},
        {"type": "text", "text": " b", "marks": [{"type": "strong"}]},
    ]


def test_code_inside_link_keeps_link_and_code(validate_adf: Validate) -> None:
    para = blocks("[`f()` *doc*](https://x.example/f)", validate_adf)[0]
    link = {"type": "link", "attrs": {"href": "https://x.example/f"}}
    assert para["content"] == [
        {"type": "text", "text": "f()", "marks": [link, {"type": "code"}]},
        {"type": "text", "text": " ", "marks": [link]},
        {"type": "text", "text": "doc", "marks": [link, {"type": "em"}]},
    ]


def test_nested_lists_and_ordered_start(validate_adf: Validate) -> None:
    content = blocks("- a\n  - b\n\n3. three\n4. four", validate_adf)
    assert content[0]["content"][0]["content"][1]["type"] == "bulletList"
    assert content[1]["type"] == "orderedList" and content[1]["attrs"] == {"order": 3}
    assert "attrs" not in blocks("1. one", validate_adf)[0]


def test_fenced_code_with_language_verbatim(validate_adf: Validate) -> None:
    code = blocks("```python\nif a < b: **x**\n```", validate_adf)[0]
    assert code == {
        "type": "codeBlock",
        "attrs": {"language": "python"},
        "content": [{"type": "text", "text": "if a < b: **x**"}],
    }


def test_html_inline_and_block_kept_as_text(validate_adf: Validate) -> None:
    content = blocks("a <b>bold?</b> c\n\n<div>\nx\n</div>", validate_adf)
    assert content[0]["content"] == [{"type": "text", "text": "a <b>bold?</b> c"}]
    assert [n.get("text") for n in content[1]["content"]] == ["<div>", None, "x", None, "</div>"]


def test_breaks_headings_quotes_rules_images(validate_adf: Validate) -> None:
    content = blocks("## H\n\na\nb  \nc\n\n> q\n\n---\n\n![alt](https://i.example/p.png)", validate_adf)
    heading = {"type": "heading", "attrs": {"level": 2}, "content": [{"type": "text", "text": "H"}]}
    assert content[0] == heading
    assert [n["type"] for n in content[1]["content"]] == ["text", "hardBreak", "text", "hardBreak", "text"]
    assert content[2]["type"] == "blockquote" and content[3] == {"type": "rule"}
    assert content[4]["content"][0]["text"] == "alt"


def test_blocks_adf_forbids_in_items_and_quotes_are_reshaped(validate_adf: Validate) -> None:
    blocks("- # h\n- > q\n  > > qq\n-\n- - first\n\n> ---\n> # h\n>", validate_adf)


@pytest.mark.parametrize("hash_seed", ["1", "2"])
def test_the_same_input_gives_the_same_bytes_in_any_process(
    example: Callable[[str], PostMortem], hash_seed: str
) -> None:
    """No set or dict order leaks into the document: other hash seeds, other processes, the same bytes."""
    program = (
        "import json, sys; from postmortem.model import load_postmortem; from renderers.adf import render_adf;"
        " sys.stdout.write(json.dumps(render_adf(load_postmortem(sys.argv[1]))))"
    )
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    path = Path(__file__).parents[2] / "examples" / "tada-hang.ja.yaml"
    done = subprocess.run(
        [sys.executable, "-c", program, str(path)], env=env, capture_output=True, text=True, check=True, timeout=60
    )
    assert done.stdout == json.dumps(render_adf(example("tada-hang.ja")))


def _visible(text: str) -> Counter[str]:
    """Letters and symbols (what Markdown syntax never consumes), as CommonMark reads them."""
    text = html.unescape(text.replace("\x00", "\ufffd"))
    return Counter(c for c in text if unicodedata.category(c)[0] in "LS" and c not in "`*_~|<>=+^$")


@settings(max_examples=150, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(postmortems())
def test_any_input_gives_valid_adf_keeping_the_text(validate_adf: Validate, pm: PostMortem) -> None:
    adf = render_adf(pm)
    validate_adf(adf)
    seen = _visible("\x01".join(strings(adf)))
    fields = [pm.text(name) or "" for name in TEXT_FIELDS]
    fields += [part or "" for item in pm.action_items for part in (item.what, item.owner, item.tracking)]
    for value in fields:
        assert not _visible(value) - seen, value


def test_reference_definitions_stay_text(validate_adf: Validate) -> None:
    content = blocks('[ref]: https://example.com "t"\n[REF]: /b\n\nsee [ref]\n\n> [q]: /r', validate_adf)
    assert content[0]["content"] == [
        {"type": "text", "text": '[ref]: https://example.com "t"'},
        {"type": "hardBreak"},
        {"type": "text", "text": "[REF]: /b"},
    ]
    assert content[1]["content"] == [{"type": "text", "text": "see [ref]"}]
    assert content[2]["content"][0]["content"] == [{"type": "text", "text": "[q]: /r"}]


def test_single_tildes_stay_text_double_tildes_strike(validate_adf: Validate) -> None:
    para = blocks("~5 min to ~10 min, ~~gone~~", validate_adf)[0]
    assert para["content"] == [
        {"type": "text", "text": "~5 min to ~10 min, "},
        {"type": "text", "text": "gone", "marks": [{"type": "strike"}]},
    ]


def test_tight_list_items_hold_paragraphs(validate_adf: Validate) -> None:
    content = blocks("- a *b*\n  c\n- ```\n  x\n  ```", validate_adf)
    first, second = content[0]["content"]
    assert first["content"][0]["type"] == "paragraph"
    assert [n["type"] for n in first["content"][0]["content"]] == ["text", "text", "hardBreak", "text"]
    assert [n["type"] for n in second["content"]] == ["codeBlock"]


def test_links_empty_adjacent_autolinks_and_refused_targets(validate_adf: Validate) -> None:
    para = blocks(
        "[](https://a.example/x)[a](https://a.example/1)[b](https://a.example/2) "
        "<x@y.example> <https://a.example/%C3%A4> [c](<https://日本.example/ä b>) "
        "[d](javascript:alert(1))",
        validate_adf,
    )[0]
    hrefs = [n["marks"][0]["attrs"]["href"] for n in para["content"] if n.get("marks")]
    assert hrefs == [
        "https://a.example/x",
        "https://a.example/1",
        "https://a.example/2",
        "mailto:x@y.example",
        "https://a.example/%C3%A4",
        "https://xn--wgv71a.example/%C3%A4%20b",
    ]
    texts = [n["text"] for n in para["content"]]
    # The URL shows as typed: an empty link's target, an autolink's text with its %-escapes.
    assert texts[0] == "https://a.example/x" and "https://a.example/%C3%A4" in texts
    assert texts[-1].endswith("[d](javascript:alert(1))")


def test_line_ends_nul_and_surrogates_normalised(validate_adf: Validate) -> None:
    content = blocks("a\r\nb\x00\ud800\r\n\r\n```\r\nx\r\ny\r\n```", validate_adf)
    assert content[0]["content"] == [
        {"type": "text", "text": "a"},
        {"type": "hardBreak"},
        {"type": "text", "text": "b\ufffd\ufffd"},
    ]
    assert content[1]["content"] == [{"type": "text", "text": "x\ny"}]


def adf_headings(adf: dict[str, Any]) -> list[str]:
    return ["".join(strings(node["content"])) for node in adf["content"] if node["type"] == "heading"]


def adf_section_headings(pm: PostMortem) -> list[str]:
    """The ADF's headings as the Slack preview shows the sections: each body converted alone."""
    found = adf_headings(markdown_to_adf(f"# {title(pm)}"))
    for _key, heading, body in section_bodies(pm):
        found += [heading, *adf_headings(markdown_to_adf(body))]
    return found


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("opener", BLOCK_OPENERS)
@pytest.mark.parametrize("field", INLINE_FIELDS)
def test_inline_values_cannot_swallow_later_sections_in_adf(
    validate_adf: Validate, field: str, opener: str, lang: Lang
) -> None:
    pm = with_field(field, "Alex" + opener, lang)
    adf = render_adf(pm)
    validate_adf(adf)
    nine = [adf_headings(render_adf(PostMortem(ticket="A-1", lang=lang)))[0]] + [s.heading[lang] for s in SECTIONS]
    found = adf_headings(adf)
    assert found == adf_section_headings(pm)
    assert [h for h in found if h in nine] == nine
    if field not in ("fix_ref", "validation_scope"):
        assert found == nine


inline_values = st.one_of(user_text, st.sampled_from(BLOCK_OPENERS).map("Alex".__add__))


@settings(max_examples=150, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["en", "ja"]), st.fixed_dictionaries({}, optional={f: inline_values for f in INLINE_FIELDS}))
def test_inline_fields_never_change_the_heading_sequence(
    validate_adf: Validate, lang: str, values: dict[str, str]
) -> None:
    data: dict[str, Any] = {**FULL, "lang": lang, "action_items": [dict(FULL["action_items"][0])]}
    for field, value in values.items():
        if field.startswith("item_"):
            data["action_items"][0][field[5:]] = value
        else:
            data[field] = value
    try:
        pm = PostMortem.model_validate(data)
    except ValidationError:
        assume(False)
        raise
    nine = [SECTIONS[0].heading[lang]] + [s.heading[lang] for s in SECTIONS[1:]]
    expected = section_headings(pm)
    assert headings(render_markdown(pm)) == expected
    adf = render_adf(pm)
    validate_adf(adf)
    assert adf_headings(adf) == adf_section_headings(pm)
    bodies = section_bodies(pm)
    assert [heading for _, heading, _ in bodies] == nine
    # Only the two fields that become a block of their own when multi-line may bring headings of their own.
    assert not any(headings(body) for key, _, body in bodies if key not in ("fix", "validation"))
    if not any(f in values and re.search(r"[\r\n]", pm.text(f) or "") for f in ("fix_ref", "validation_scope")):
        assert expected == [expected[0], *nine]
