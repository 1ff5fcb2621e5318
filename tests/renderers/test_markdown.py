"""The Markdown document: section order, labels, fixed sentences, verbatim user text, golden files."""

from __future__ import annotations

from collections.abc import Callable

import pyromark
import pytest

from postmortem.model import ActionItem, Lang, PostMortem
from postmortem.sections import ACTION_ITEMS_NONE, SECTIONS
from renderers.adf import render_adf
from renderers.markdown import contained, render_markdown, section_bodies
from tests.renderers.helpers import (
    BLOCK_OPENERS,
    GOLDEN,
    INLINE_FIELDS,
    STEMS,
    blocks,
    check_golden,
    headings,
    read_markdown,
    section_headings,
    title_of,
    with_field,
)

pytestmark = pytest.mark.unit


@pytest.mark.parametrize("stem", STEMS)
def test_golden_markdown(example: Callable[[str], PostMortem], stem: str) -> None:
    check_golden(GOLDEN / f"{stem}.md", render_markdown(example(stem)))


def test_sections_in_fixed_order_with_title(example: Callable[[str], PostMortem]) -> None:
    pm = example("tada-hang.ja")
    md = render_markdown(pm)
    assert md.startswith("# 事後分析：JIRA-12345\n")
    headings = [line[3:] for line in md.splitlines() if line.startswith("## ")]
    assert headings == [s.heading["ja"] for s in SECTIONS]
    assert render_markdown(pm, "en").startswith("# Post-mortem: JIRA-12345\n")


def test_summary_ends_with_ticket_fix_ref_and_owner(example: Callable[[str], PostMortem]) -> None:
    summary = section_bodies(example("cache-eviction.en"))[0][2]
    assert summary.splitlines()[-1] == (
        "**Ticket:** CACHE-88 · **Fix reference:** <https://github.com/example/storage/pull/412>"
        " · **Owner:** Priya (storage team)"
    )


def test_fix_section_carries_refs_as_links_or_code() -> None:
    refs = "org/repo#12 and https://x.example/pull/3, abc1234f"
    pm = PostMortem(ticket="A-1", fix="Changed it.", fix_ref=refs)
    fix = dict((k, b) for k, _, b in section_bodies(pm))["fix"]
    assert fix.endswith("**Fix reference:** `org/repo#12` and <https://x.example/pull/3>, `abc1234f`")


def test_optional_sections_left_out_and_nothing_invented() -> None:
    pm = PostMortem(ticket="A-1", root_cause="`f()` returns early.")
    md = render_markdown(pm)
    assert md == ("# Post-mortem: A-1\n\n## Summary\n\n**Ticket:** A-1\n\n## Root cause\n\n`f()` returns early.\n")


def test_action_items_only_parts_given_and_none_sentence() -> None:
    pm = PostMortem(
        ticket="A-1", action_items=(ActionItem(what="Add test", owner="Bo"), ActionItem(what="Audit", tracking="A-2"))
    )
    items = section_bodies(pm)[-1][2]
    assert items == "- Add test (owner: Bo)\n- Audit (tracking: A-2)"
    none = section_bodies(PostMortem(ticket="A-1", action_items_none=True), "ja")[-1][2]
    assert none == ACTION_ITEMS_NONE["ja"]


def test_why_missed_label_then_text_and_validation_scope() -> None:
    pm = PostMortem(
        ticket="A-1",
        why_missed_category="ci_gap",
        why_missed="No runner had it.",
        validation="Ran it.",
        validation_scope="Only x86.",
    )
    bodies = {k: b for k, _, b in section_bodies(pm)}
    assert bodies["why_missed"] == "**Category:** CI gap\n\nNo runner had it."
    assert bodies["validation"] == "Ran it.\n\n**Scope:** Only x86."


def test_repro_verbatim_under_its_label() -> None:
    repro = "1. `make x`\n2. run:\n\n   ```\n   ./go --n 3\n   ```"
    pm = PostMortem(ticket="A-1", repro=repro)
    assert section_bodies(pm)[1][2] == f"**Reproduction:**\n\n{repro}"


def test_a_fence_info_string_is_the_first_code_line_in_its_list_item() -> None:
    # Slack shows what follows the backticks as code: so does every format, in the item the fence was typed in.
    pm = PostMortem(ticket="A-1", repro="1. `make x`\n2. run:\n\n   ```sh\n   ./go --n 3\n   ```")
    expected = "1. `make x`\n2. run:\n\n   ```\n   sh\n   ./go --n 3\n   ```"
    assert section_bodies(pm)[1][2] == f"**Reproduction:**\n\n{expected}"


def test_multiline_action_item_stays_in_its_list_item() -> None:
    pm = PostMortem(ticket="A-1", action_items=(ActionItem(what="Do this:\n```\ncode\n```", owner="Bo"),))
    assert [kind for kind, _ in blocks(section_bodies(pm)[-1][2])] == ["List"]


@pytest.mark.parametrize(
    "text",
    [
        "```\nno end",
        "~~~~\nx\n~~~",
        "<!-- open",
        "<pre>\nx",
        "a\n\n<script>",
        "<pre>\nx\n</script>",
        "```\nx\n```\t",
        "<!-- a\r-->\r```",
    ],
)
def test_unclosed_blocks_cannot_swallow_later_sections(text: str) -> None:
    pm = PostMortem(ticket="A-1", symptom=text, root_cause="`cause`")
    headings = [text for kind, text in blocks(render_markdown(pm)) if kind == "Heading"]
    assert headings == ["Post-mortem: A-1", "Summary", "Symptom", "Root cause"]


def test_contained_leaves_closed_blocks_and_markdown_alone() -> None:
    text = "**b** `c`\n\n```py\nx\n```\n\n<!-- ok -->\n- <b>x</b>"
    assert contained(text) == text


def test_contained_closes_where_commonmark_and_pulldown_cmark_both_close() -> None:
    # CommonMark closes a fence at "```<tab>", pulldown-cmark does not: a fence appended after it would open a
    # new block for CommonMark readers, so the blanks go instead.
    assert contained("```\nx\n```\t") == "```\nx\n```"
    # CommonMark ends a <pre> block at any of </pre> </script> </style> </textarea>; pulldown-cmark only at </pre>.
    assert contained("<pre>\nx\n</script>") == "\\<pre>\nx\n</script>"


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("opener", BLOCK_OPENERS)
@pytest.mark.parametrize("field", INLINE_FIELDS)
def test_inline_values_cannot_swallow_later_sections(field: str, opener: str, lang: str) -> None:
    pm = with_field(field, "Alex" + opener, lang)
    nine = [title_of(pm)] + [s.heading[lang] for s in SECTIONS]
    found = headings(render_markdown(pm))
    assert found == section_headings(pm)
    assert [h for h in found if h in nine] == nine
    if field not in ("fix_ref", "validation_scope"):  # these two are a block of their own when multi-line
        assert found == nine


@pytest.mark.parametrize("field", ["owner", "fix_ref", "item_owner", "item_tracking"])
def test_inline_values_keep_every_character_on_their_line(field: str) -> None:
    value = "Zed\n```\r\n<!-- x\r# h"
    pm = with_field(field, value)
    md = render_markdown(pm)
    assert "# h" in next(line for line in md.split("\n") if "Zed" in line)  # the whole value on one line
    line = next(line for line in read_markdown(md).lines if "Zed" in line)
    assert "Zed ``` <!-- x # h" in line


def test_action_item_suffix_after_a_closing_fence_goes_on_its_own_line() -> None:
    pm = PostMortem(ticket="A-1", action_items=(ActionItem(what="Do:\n```\ncode", owner="Bo"), ActionItem(what="Two")))
    body = section_bodies(pm)[-1][2]
    assert body == "- Do:\n  ```\n  code\n  ```\n  (owner: Bo)\n- Two"
    assert [kind for kind, _ in blocks(body)] == ["List"]


def test_lone_carriage_returns_are_line_breaks_for_labels_and_items() -> None:
    pm = PostMortem(
        ticket="A-1",
        validation="v",
        validation_scope="Only\r# x86",
        action_items=(ActionItem(what="a\r```", owner="Bo"),),
    )
    bodies = {k: b for k, _, b in section_bodies(pm)}
    # Line ends are normalised to `\n` by the text rule, and the `#` after the break stays text, not a heading.
    assert bodies["validation"] == "v\n\n**Scope:**\n\nOnly\\\n\\# x86"
    # A fence with nothing after it is the backticks as typed (no empty code block), on a line of its own.
    assert bodies["action_items"] == "- a\\\n  \\`\\`\\` (owner: Bo)"


@pytest.mark.timeout(10)
@pytest.mark.parametrize("opener", ["<!--", "<pre>", "<?x", "<!DOCTYPE", "<script>"])
def test_many_unclosed_html_blocks_are_contained_at_once(opener: str) -> None:
    pm = PostMortem(ticket="A-1", summary="s", symptom=f"{opener}\n" * 2000, root_cause="`cause`")
    headings = [line for line in render_markdown(pm).splitlines() if line.startswith("## ")]
    assert headings == ["## Summary", "## Symptom", "## Root cause"]


def test_japanese_labels_use_full_width_colons_without_a_space_after(example: Callable[[str], PostMortem]) -> None:
    md = render_markdown(example("tada-hang.ja"))
    assert md.startswith("# 事後分析：JIRA-12345\n")
    assert "**チケット**：JIRA-12345、**修正の参照**：" in md and "**検証範囲**：他の" in md
    assert "： " not in md and ": " not in md.split("\n", 1)[0]
    bold = [
        n["text"]
        for block in render_adf(example("tada-hang.ja"))["content"]
        for n in block.get("content", [])
        if n.get("marks") == [{"type": "strong"}]
    ]
    assert bold[:3] == ["チケット", "修正の参照", "担当者"]  # the bold closes before the full-width colon


@pytest.mark.parametrize(
    ("lang", "plain", "bracketed"),
    [
        ("ja", "- A（担当：Bo、追跡：X-1）", "- A — 担当：Bo、追跡：PR #5751（マージ済み）"),
        ("en", "- A (owner: Bo, tracking: X-1)", "- A — owner: Bo, tracking: PR #5751 (merged)"),
    ],
)
def test_no_doubled_parentheses_after_an_action_item(lang: Lang, plain: str, bracketed: str) -> None:
    tracking = "PR #5751（マージ済み）" if lang == "ja" else "PR #5751 (merged)"
    pm = PostMortem(
        ticket="A-1",
        lang=lang,
        action_items=(
            ActionItem(what="A", owner="Bo", tracking="X-1"),
            ActionItem(what="A", owner="Bo", tracking=tracking),
        ),
    )
    body = section_bodies(pm)[-1][2]
    assert body.splitlines() == [plain, bracketed]
    assert "））" not in body and "))" not in body


@pytest.mark.parametrize("text", ["first line\nsecond line", "run `make`\nthen *check*", "- a\n  b", "> a\n> b"])
def test_a_typed_line_break_is_a_line_break_in_a_markdown_reader(text: str) -> None:
    """Slack and Jira show a line break where the person typed one; a Markdown file (a PR description, a doc page)
    must too, so each is written as a hard break, not a soft one that a reader joins into one line."""
    html = pyromark.html(render_markdown(PostMortem(ticket="A-1", root_cause=text)))
    assert html.count("<br />") >= 1, html
