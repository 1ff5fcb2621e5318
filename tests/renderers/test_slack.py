"""Slack: one message when it fits, split (never truncated) when limits force it, and nothing can ping."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from postmortem.model import TEXT_FIELDS, ActionItem, PostMortem
from postmortem.sections import SECTIONS
from renderers import adf_mrkdwn, slack
from renderers.adf import markdown_to_adf
from renderers.markdown import contained, render_markdown, title
from renderers.mrkdwn import escape_mrkdwn, mrkdwn_line
from renderers.slack import HEADER_LIMIT, MAX_BLOCKS, MESSAGE_CHARS_LIMIT, SECTION_TEXT_LIMIT, render_slack
from renderers.usertext import faithful
from tests.renderers.helpers import BLOCK_OPENERS, GOLDEN, INLINE_FIELDS, check_golden, headings, with_field
from tests.renderers.strategies import postmortems

pytestmark = pytest.mark.unit

_LIVE = re.compile(r"<(?!(?:https?://|mailto:))")


def texts(messages: list[dict[str, Any]]) -> list[str]:
    return [m["text"] for m in messages] + [b["text"]["text"] for m in messages for b in m["blocks"]]


def assert_within_limits(messages: list[dict[str, Any]]) -> None:
    for message in messages:
        assert message["text"].strip()
        assert 0 < len(message["blocks"]) <= MAX_BLOCKS
        assert sum(len(b["text"]["text"]) for b in message["blocks"]) <= MESSAGE_CHARS_LIMIT
        for block in message["blocks"]:
            limit = HEADER_LIMIT if block["type"] == "header" else SECTION_TEXT_LIMIT
            assert 0 < len(block["text"]["text"].strip()) and len(block["text"]["text"]) <= limit


def squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


def adf_text(node: Any) -> str:
    """The text a reader sees in an ADF document (line breaks as newlines)."""
    if isinstance(node, list):
        return "".join(adf_text(child) for child in node)
    if node.get("type") == "hardBreak":
        return "\n"
    return str(node.get("text", "")) + adf_text(node.get("content", []))


def shown(value: str) -> str:
    """What a field's text shows in the preview's plain fallback once read by the text rule (bullets included)."""
    lines = adf_mrkdwn.adf_lines(markdown_to_adf(contained(faithful(value))))
    return "\n".join(adf_mrkdwn.line_text(line) for line, _code in lines if line != [adf_mrkdwn.FENCE])


#: Fields shown after a bold label (renderers/markdown.labelled): a one-line value continues the label's line.
LABELLED = frozenset(f.name for f in PostMortem.registry.fields if f.display == "labelled")


def shown_in(name: str, value: str) -> str:
    """What a field's text shows where the template puts it: a one-line labelled value is read mid-line."""
    if name in LABELLED and "\n" not in value and "\r" not in value:
        return shown("x " + value)[2:]
    return shown(value)


def test_golden_slack(example: Callable[[str], PostMortem]) -> None:
    messages = render_slack(example("tada-hang.ja"))
    assert len(messages) == 1
    golden = json.dumps(messages, ensure_ascii=False, indent=2) + "\n"
    check_golden(GOLDEN / "tada-hang.ja.slack.json", golden)


def test_example_is_one_message_with_headers(example: Callable[[str], PostMortem]) -> None:
    [message] = render_slack(example("cache-eviction.en"))
    assert_within_limits([message])
    headers = [b["text"]["text"] for b in message["blocks"] if b["type"] == "header"]
    assert headers[:3] == ["Post-mortem: CACHE-88", "Summary", "Symptom"]


def test_escape_neutralises_mentions_and_links() -> None:
    assert (
        escape_mrkdwn("<!channel> <@U1> a&b <https://x|y>")
        == "&lt;!channel&gt; &lt;@U1&gt; a&amp;b &lt;https://x|y&gt;"
    )


def test_mrkdwn_translation_is_minimal_and_builds_safe_links() -> None:
    assert mrkdwn_line("**b** `<!here>` ~~s~~") == "*b* `&lt;!here&gt;` ~s~"
    assert (
        mrkdwn_line("[a <@U1>](https://x.example/?q=1&r=a|b)") == "<https://x.example/?q=1&amp;r=a%7Cb|a &lt;@U1&gt;>"
    )
    assert mrkdwn_line("[ping](!here) <https://x.example>") == "[ping](!here) <https://x.example>"


def test_long_fields_split_across_messages_without_losing_text() -> None:
    words = " ".join(f"word{i}" for i in range(3000))
    lines = "\n".join(f"line {i} <@U{i}> & more" for i in range(900))
    pm = PostMortem(
        ticket="A-1",
        summary=words,
        symptom=lines,
        root_cause="x" * 7000,
        fix="```\n" + "\n".join(f"code {i}" for i in range(1200)) + "\n```",
        validation="ok",
    )
    messages = render_slack(pm)
    assert len(messages) > 1 and pm.fix is not None
    assert_within_limits(messages)
    joined = squash(html.unescape("".join(m["text"] for m in messages)))
    for value in (words, lines, "x" * 7000, (pm.fix or "").strip("`")):
        assert squash(value) in joined
    blocks = squash(html.unescape("".join(b["text"]["text"] for m in messages for b in m["blocks"])))
    assert squash(words) in blocks and "x" * 7000 in blocks
    assert all(not _LIVE.search(t) for t in texts(messages))


def test_many_sections_respect_block_limit() -> None:
    items = tuple(ActionItem(what=f"item {i} " + "y " * 1400) for i in range(40))
    messages = render_slack(PostMortem(ticket="A-1", action_items=items))
    assert len(messages) > 1
    assert_within_limits(messages)


@settings(max_examples=120, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(postmortems())
def test_any_input_never_pings_and_keeps_every_field(pm: PostMortem) -> None:
    messages = render_slack(pm)
    assert_within_limits(messages)
    for text in texts(messages):
        assert not _LIVE.search(text), text
    joined = squash(html.unescape("\n".join(m["text"] for m in messages)))
    for name in TEXT_FIELDS:
        value = pm.text(name)
        if value and name not in ("fix_ref", "owner"):
            assert squash(shown_in(name, value)) in joined, name


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("opener", BLOCK_OPENERS)
@pytest.mark.parametrize("field", INLINE_FIELDS)
def test_inline_values_show_the_same_sections_as_the_document(field: str, opener: str, lang: str) -> None:
    pm = with_field(field, "Alex" + opener, lang)
    messages = render_slack(pm)
    assert_within_limits(messages)
    headers = [b["text"]["text"] for m in messages for b in m["blocks"] if b["type"] == "header"]
    assert headers == [title(pm)] + [s.heading[lang] for s in SECTIONS]
    # The document posted to Jira has the same sections (and the summary line the same text, on one line).
    assert [h for h in headings(render_markdown(pm)) if h in headers] == headers


#: Lines that made the code-span regex backtrack (cubic in a run of backticks) or the bold/strike
#: patterns rescan (quadratic in openers that never close), and the word-by-word split re-convert its part.
PATHOLOGICAL = [
    "`" * 12000,
    "`a" * 4000,
    "``" * 6000,
    "`` `" * 3000,
    " **a" * 3000,
    " ~~a" * 3000,
    "a " * 6000,
    "**a** " * 2000,
    "[a" * 6000,
    "<https://a" * 1200,
]


@pytest.mark.timeout(10)  # a regression fails by timeout; timing goals themselves live in the benchmarks
@pytest.mark.parametrize("text", PATHOLOGICAL, ids=lambda t: repr(t[:6]))
def test_pathological_lines_render_in_linear_time(text: str) -> None:
    pm = PostMortem(
        ticket="A-1",
        summary=text,
        root_cause=text,
        owner=text[:3000],
        fix_ref=text,
        action_items=(ActionItem(what=text, owner=text[:3000]),),
    )
    messages = render_slack(pm)
    assert_within_limits(messages)
    fallback = squash(html.unescape("".join(m["text"] for m in messages)))
    assert squash(shown(text)) in fallback


@pytest.mark.parametrize("text", ["`" * 12000, "`a" * 4000, "``" * 6000, "a " * 6000, " **a" * 3000])
def test_splitting_a_long_line_converts_each_character_a_bounded_number_of_times(
    monkeypatch: pytest.MonkeyPatch, text: str
) -> None:
    converted = [0]
    real = adf_mrkdwn.Span.mrkdwn

    def counting(span: adf_mrkdwn.Span) -> str:
        converted[0] += len(span.text)
        return real(span)

    monkeypatch.setattr(adf_mrkdwn.Span, "mrkdwn", counting)
    pieces = slack._split_body(text)
    unsplit = adf_mrkdwn.adf_lines(markdown_to_adf(text))  # the body as read, before any cut
    assert "".join("".join(p.md) for p in pieces) == "\n".join(
        adf_mrkdwn.line_text(line) for line, _code in unsplit if line != [adf_mrkdwn.FENCE]
    )
    assert converted[0] <= 20 * len(text)  # converting the part again for each word took ~1,500 per character


def test_code_spans_read_as_before() -> None:
    # The scan replacing the regex `(`+).+?(?P=ticks)` keeps its reading, including where it differs from
    # CommonMark: a closer may be part of a longer run, and a run of three or more can close on itself.
    assert mrkdwn_line("`a **b** `") == "`a **b** `"
    assert mrkdwn_line("``x` **b**") == "``x` *b*"
    assert mrkdwn_line("```` **b**") == "```` *b*"
    assert mrkdwn_line("`a``` **b** ``") == "`a``` **b** ``"  # `a` then ``` **b** `` (two of the three)
    assert mrkdwn_line("**a***b**") == "*a**b**"
    assert mrkdwn_line("** a** ~~x~~ **y**") == "** a** ~x~ *y*"


def test_slack_parses_nothing_in_the_preview_by_itself() -> None:
    """Without `verbatim`, Slack would link bare URLs and channel names and parse some mentions in plain text
    ("www.example.com", "#general", "@channel"), which the ADF shows as text."""
    pm = PostMortem(ticket="A-1", root_cause="See www.example.com and #general, @channel, dev@example.com.")
    sections = [b["text"] for m in render_slack(pm) for b in m["blocks"] if b["type"] == "section"]
    assert sections and all(t["type"] != "mrkdwn" or t.get("verbatim") is True for t in sections)


def _section_text(pm: PostMortem) -> str:
    return "\n".join(b["text"]["text"] for m in render_slack(pm) for b in m["blocks"] if b["type"] == "section")


def test_three_backticks_inside_a_code_block_stay_in_it() -> None:
    """Slack ends a code block at any three backticks: the ones the person typed inside the block do not."""
    pm = PostMortem(ticket="A-1", root_cause="Run:\n```\necho ```x``` and ````\nmore\n```\nafter")
    text = _section_text(pm)
    assert len(re.findall("```", text)) == 2  # the block's own fences, nothing the person typed between them
    assert "echo ```x``` and ````" in text.replace(adf_mrkdwn.WORD_JOINER, "")


def test_a_code_block_in_a_list_item_keeps_its_lines_as_typed() -> None:
    """The item's indentation goes before the opening fence only: inside the block Slack would show it."""
    pm = PostMortem(
        ticket="A-1",
        root_cause="- step\n  ```\n  make test\n    indented\n  ```\n- next\n  - deeper\n    ```\n    c2\n    ```",
    )
    lines = _section_text(pm).split("\n")
    assert "    ```" in lines and "        ```" in lines  # each opening fence under its item
    for typed in ("make test", "  indented", "c2"):
        assert typed in lines
    assert lines.count("```") == 2  # the closing fences, not indented


def test_a_link_with_a_code_label_is_a_link_and_a_typed_quote_mark_is_text() -> None:
    """Slack shows `<url|label>` inside backticks as typed, and quotes any line that starts with `>`."""
    pm = PostMortem(ticket="A-1", root_cause="see [`c`](https://e.example/x)\n> not a quote here\nb")
    text = _section_text(pm)
    assert "<https://e.example/x|c>" in text and "`<https" not in text
    assert f"\n{adf_mrkdwn.WORD_JOINER}&gt; not a quote here" in text
