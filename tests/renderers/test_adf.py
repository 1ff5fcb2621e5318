"""ADF: golden files, the tricky conversions, determinism, and schema validity for any input."""

from __future__ import annotations

import html
import json
import unicodedata
from collections import Counter
from collections.abc import Callable
from typing import Any
from urllib.parse import unquote

import pytest
from hypothesis import HealthCheck, given, settings

from postmortem.model import TEXT_FIELDS, PostMortem
from renderers.adf import markdown_to_adf, render_adf
from tests.renderers.strategies import postmortems
from tests.renderers.test_markdown import GOLDEN, STEMS, check_golden

pytestmark = pytest.mark.unit

Validate = Callable[[Any], Any]


def blocks(md: str, validate: Validate) -> list[dict[str, Any]]:
    doc = markdown_to_adf(md)
    validate(doc)
    assert doc["version"] == 1 and doc["type"] == "doc"
    return doc["content"]


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
    assert code == {"type": "codeBlock", "attrs": {"language": "python"},
                    "content": [{"type": "text", "text": "if a < b: **x**"}]}


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


def test_deterministic(example: Callable[[str], PostMortem]) -> None:
    pm = example("tada-hang.ja")
    assert json.dumps(render_adf(pm)) == json.dumps(render_adf(pm))


def _visible(text: str) -> Counter[str]:
    """Letters and symbols (what Markdown syntax never consumes), as CommonMark reads them."""
    text = html.unescape(text.replace("\x00", "\ufffd"))
    return Counter(c for c in text if unicodedata.category(c)[0] in "LS" and c not in "`*_~|<>=+^$")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
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
    content = blocks("[ref]: https://example.com \"t\"\n[REF]: /b\n\nsee [ref]\n\n> [q]: /r", validate_adf)
    assert content[0]["content"] == [
        {"type": "text", "text": '[ref]: https://example.com "t"'}, {"type": "hardBreak"},
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
    para = blocks("[](https://a.example/x)[a](https://a.example/1)[b](https://a.example/2) "
                  "<x@y.example> <https://a.example/%C3%A4> [c](<https://日本.example/ä b>) "
                  "[d](javascript:alert(1))", validate_adf)[0]
    hrefs = [n["marks"][0]["attrs"]["href"] for n in para["content"] if n.get("marks")]
    assert hrefs == ["https://a.example/x", "https://a.example/1", "https://a.example/2", "mailto:x@y.example",
                     "https://a.example/%C3%A4", "https://xn--wgv71a.example/%C3%A4%20b"]
    texts = [n["text"] for n in para["content"]]
    assert texts[0] == "https://a.example/x" and "https://a.example/ä" in texts
    assert texts[-1].endswith("[d](javascript:alert(1))")


def test_line_ends_nul_and_surrogates_normalised(validate_adf: Validate) -> None:
    content = blocks("a\r\nb\x00\ud800\r\n\r\n```\r\nx\r\ny\r\n```", validate_adf)
    assert content[0]["content"] == [{"type": "text", "text": "a"}, {"type": "hardBreak"},
                                     {"type": "text", "text": "b\ufffd\ufffd"}]
    assert content[1]["content"] == [{"type": "text", "text": "x\ny"}]
