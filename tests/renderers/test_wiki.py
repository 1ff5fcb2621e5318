"""Wiki markup for Jira Data Center: the ADF's fidelity cases, read back by a reference reader of the notation."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from postmortem.model import Lang, PostMortem
from postmortem.sections import SECTIONS
from renderers.adf import markdown_to_adf, render_adf
from renderers.jira import JIRA_COMMENT_LIMIT, CommentTooLong
from renderers.wiki import adf_to_wiki, literal_block, render_wiki, wiki_request
from renderers.wiki_escape import escape, escape_all
from tests.renderers.helpers import BLOCK_OPENERS, GOLDEN, INLINE_FIELDS, STEMS, check_golden, with_field
from tests.renderers.strategies import postmortems, user_text
from tests.renderers.wiki_reference import read, read_inline, visible

pytestmark = pytest.mark.unit


def adf_text(node: Any) -> str:
    """What the ADF shows, in order; an ordered list that starts at n, or holds a code block in an item, shows its
    numbers (wiki writes them)."""
    if isinstance(node, list):
        return "".join(adf_text(child) for child in node)
    items = node.get("content", [])
    if node.get("type") == "orderedList" and (
        node.get("attrs", {}).get("order", 1) != 1
        or any(child.get("type") == "codeBlock" for item in items for child in item.get("content", []))
    ):
        start = node.get("attrs", {}).get("order", 1)
        return "".join(f"{start + i}. " + adf_text(item) for i, item in enumerate(node.get("content", [])))
    return str(node.get("text", "")) + adf_text(node.get("content", []))


def squeeze(text: str) -> str:
    return re.sub(r"\s+", "", text)


def shows_as_adf(adf: dict[str, Any]) -> None:
    wiki = adf_to_wiki(adf)
    seen, shown = squeeze(visible(wiki)), squeeze(adf_text(adf))
    at = next((i for i, (a, b) in enumerate(zip(seen, shown, strict=False)) if a != b), min(len(seen), len(shown)))
    assert seen == shown, (seen[max(at - 40, 0) : at + 40], shown[max(at - 40, 0) : at + 40])


@pytest.mark.parametrize("stem", STEMS)
def test_golden_wiki(example: Callable[[str], PostMortem], stem: str) -> None:
    pm = example(stem)
    wiki = render_wiki(pm, jira_url="https://jira.example")
    shows_as_adf(render_adf(pm, jira_url="https://jira.example"))
    check_golden(GOLDEN / f"{stem}.wiki", wiki + "\n")


@pytest.mark.parametrize(
    "typed",
    [
        "baseline_samples_5m and *ptr and MAX_SHARDS*2",  # intraword underscores italicise in Jira
        "a-b-c -gone- --dash --- em ---- rule",
        "+ins+ ^sup^ ~sub~ ??cite?? {{mono}} {color:red}x{color}",
        "[link|https://a.example] [~admin] [^file.txt] [#anchor] !image.png!",
        "| cell | cell | and || head ||",
        "smile :) :( :P :D ;) (y) (n) (i) (/) (x) (!) (+) (-) (?) (on) (off) (*) (flag)",
        "a \\ b \\\\ c \\* d \\_ e \\. f \\",
        "&amp; &#42; &lt;b&gt; & plain",
        "{noformat} {code:python} {quote} {panel}",
    ],
)
def test_typed_markup_shows_as_typed(typed: str) -> None:
    assert read_inline(escape(typed)) == typed


@pytest.mark.parametrize("start", ["h1. x", "h6. x", "bq. x", "# x", "* x", "- x", "----", "  h2. x", "|| a ||"])
def test_line_starts_stay_text(start: str) -> None:
    blocks = read(escape(start))
    assert [b.kind for b in blocks] == ["text"] and blocks[0].text.strip() == start.strip()


def test_backslash_before_plain_punctuation_is_not_added() -> None:
    assert escape("a.b, c: d; e/f") == "a.b, c: d; e/f"
    assert escape("x\\y") == "x\\y"  # a bare backslash before a letter shows as typed


def test_inline_code_is_escaped_inside_its_braces() -> None:
    wiki = adf_to_wiki(markdown_to_adf("`a|b [c] {d} *e* _f_ \\`"))
    assert wiki == "{{a\\|b \\[c\\] \\{d\\} \\*e\\* \\_f\\_ &#92;}}"
    assert visible(wiki) == "a|b [c] {d} *e* _f_ \\"


def test_code_blocks_are_literal_even_when_they_hold_the_closing_tag() -> None:
    for code in ["x = {a}\n*b*", "{noformat}\nx", "{noformat}{code}\n*y* | z"]:
        blocks = read(literal_block(code))
        assert "".join(b.text for b in blocks).replace("\n", "") == code.replace("\n", "")


def test_effects_and_links_from_markdown() -> None:
    wiki = adf_to_wiki(markdown_to_adf("**Owner:** Alex, _em_ ~~gone~~ [a](https://a.example/x) [b](javascript:x)"))
    assert wiki.startswith("*Owner:* Alex, _em_ -gone- [a|https://a.example/x] ")
    assert "[b](javascript:x)" in visible(wiki) and "|javascript" not in wiki


def test_headings_are_h2_for_the_title_and_h3_for_sections(example: Callable[[str], PostMortem]) -> None:
    blocks = read(render_wiki(example("cache-eviction.en")))
    headings = [(b.level, b.text) for b in blocks if b.kind == "heading"]
    assert headings[0][0] == 2 and {level for level, _ in headings[1:]} == {3}


def test_ordered_lists_that_start_later_keep_their_numbers() -> None:
    shows_as_adf(markdown_to_adf("3. three\n4. four\n\n- a\n  2. b\n     - c"))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(postmortems())
def test_any_input_shows_in_wiki_exactly_as_in_adf(pm: PostMortem) -> None:
    shows_as_adf(render_adf(pm, jira_url="https://jira.example"))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(user_text)
def test_any_text_survives_a_reading(text: str) -> None:
    typed = text.replace("\r\n", "\n").replace("\r", "\n")
    assert squeeze(read_inline(escape(typed))) == squeeze(typed)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.one_of(user_text, st.sampled_from(["\\", ":", "h1. x", "bq. y", "&amp;", "\ue000", " \t"]))))
def test_texts_escaped_together_are_escaped_as_each_alone(texts: list[str]) -> None:
    """A paragraph's text nodes are escaped in one pass: each ends, and its lines start, as if it stood alone."""
    assert escape_all(texts) == [escape(text) for text in texts]


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("opener", BLOCK_OPENERS)
@pytest.mark.parametrize("field", INLINE_FIELDS)
def test_inline_values_cannot_swallow_later_sections_in_wiki(field: str, opener: str, lang: Lang) -> None:
    pm = with_field(field, "Alex" + opener, lang)
    found = [b.text for b in read(render_wiki(pm)) if b.kind == "heading"]
    nine = [s.heading[lang] for s in SECTIONS]
    assert [h for h in found if h in nine] == nine


def test_links_only_for_http_and_mailto(example: Callable[[str], PostMortem]) -> None:
    wiki = adf_to_wiki(markdown_to_adf("[x](file:///etc) <mailto:a@b.example> [y](vscode://z) <https://ok.example>"))
    targets = re.findall(r"\[[^\]]*\|([^\]]*)\]", wiki)
    assert targets == ["mailto:a@b.example", "https://ok.example"]


def test_the_request_is_the_v2_body_byte_for_byte() -> None:
    request = wiki_request("h2. t\n\n*x*", session="s1", version=2, visible_to="role:Developers")
    sent = json.loads(request.body)
    assert request.body == json.dumps(sent).encode()
    assert sent["body"] == "h2. t\n\n*x*" and sent["visibility"] == {"type": "role", "value": "Developers"}
    assert [p["key"] for p in sent["properties"]] == ["postmortem-bot", "sd.public.comment"]
    assert sent["properties"][0]["value"]["sha256"] == hashlib.sha256(json.dumps(sent["body"]).encode()).hexdigest()


def test_a_body_over_the_limit_is_refused_naming_the_section() -> None:
    wiki = "h2. T\n\nh3. Short\n\nx\n\nh3. Long\n\n" + "y" * JIRA_COMMENT_LIMIT
    with pytest.raises(CommentTooLong) as refused:
        wiki_request(wiki, session="s", version=1)
    assert refused.value.longest[0][0] == "Long"
    wiki_request("y" * JIRA_COMMENT_LIMIT, session="s", version=1)


@given(st.sampled_from(["en", "ja"]))
def test_render_wiki_is_the_adf_converted(lang: str) -> None:
    pm = with_field("owner", "Alex", lang)
    assert render_wiki(pm) == adf_to_wiki(render_adf(pm))


@pytest.mark.parametrize(
    ("typed", "written", "not_written"),
    [
        # Jira splits a link at its first `|`, whatever escapes it.
        ("[staging|prod diff](https://a.example/diff)", "[staging&#124;prod diff|https://a.example/diff]", "\\|prod"),
        # Jira takes no `[` followed by a blank for a link.
        ("[ the runbook](https://a.example/runbook)", " [the runbook|https://a.example/runbook]", "[ the"),
        ("[\u3000手順書](https://a.example/runbook)", "\u3000[手順書|https://a.example/runbook]", "[\u3000"),
        # Jira links bare URLs of its schemes by itself, escapes and all: the colon is an entity.
        ("The mirror ftp://mirror.example/pub/cache_v2 and file:///etc/x.conf", "ftp&#58;//mirror", "ftp://"),
        ("Set `https://cache.example/api/evict_range` as the endpoint.", "{{https&#58;//cache", "https://cache"),
        # In a list item a line break is `\\`, after which Jira reads no escape.
        ("1. Run the repro\n(it fails in 3 of 20 runs)", "\\\\&#40;it fails", "\\\\\\("),
    ],
)
def test_what_jira_s_wiki_parser_would_misread_is_written_for_it(typed: str, written: str, not_written: str) -> None:
    wiki = adf_to_wiki(render_adf(PostMortem(ticket="A-1", why_missed=typed), jira_url="https://acme.atlassian.net"))
    assert written in wiki and not_written not in wiki, wiki


def test_an_ordered_list_with_a_code_block_in_an_item_keeps_its_numbers() -> None:
    """A `{noformat}` in a list item ends Jira's list, so `#` would number the next item 1 again."""
    adf = markdown_to_adf(
        "1. build\n   ```\n   make\n   ```\n2. run\n3. check\n\n- a\n  1. x\n     ```\n     c\n     ```\n  2. y"
    )
    shown = visible(adf_to_wiki(adf))
    for line in ("1. build", "2. run", "3. check", "1. x", "2. y"):
        assert line in shown
    shows_as_adf(adf)


def test_brackets_in_a_link_label_and_a_backslash_after_a_list_break_show_as_typed() -> None:
    """Jira finds a link's end with no regard for escapes, and reads no escape right after a `\\` line break."""
    wiki = adf_to_wiki(markdown_to_adf("[a [b] c](https://e.example/q)\n\n- 0\\\n\\\\0\n- a\\\n(b)"))
    assert "[a &#91;b&#93; c|https://e.example/q]" in wiki
    shown = visible(wiki)
    assert "0\n\\0" in shown and "a\n(b)" in shown  # the item's line break, then the backslash or `(` as typed
