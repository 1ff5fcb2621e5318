"""The text rule (DESIGN §2): what Jira shows is what was typed, and the Slack preview shows the same."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from postmortem.model import PostMortem
from renderers.adf import markdown_to_adf, render_adf
from renderers.adf_mrkdwn import WORD_JOINER, ZERO_WIDTH_SPACE
from renderers.jira import jira_request
from renderers.links import is_safe_href
from renderers.markdown import contained
from renderers.slack import render_slack
from renderers.usertext import faithful
from tests.renderers.helpers import slack_reads

pytestmark = pytest.mark.unit

Validate = Callable[[Any], Any]

#: Identifiers that once lost characters and those of the bundled example: each must reach Jira with every character.
IDENTIFIERS = [
    "Cache::__init__",
    "self.__shards__",
    "MAX_SHARDS*2",
    "*scratchBuf",
    "a*b",
    "*ptr",
    "**kwargs",
    "__init__",
    "__dict__",
    "snake_case_name",
    "_private",
    "trailing_",
    "x**2",
    "std::vector<int>*",
    "obj->field_",
    "*args",
    "a_b*c_d",
    "__m128i",
    "#define",
    "ns::*member",
    "p**q",
]


def adf_text(node: Any) -> str:
    """The text a reader sees in an ADF document: blocks and line breaks as newlines."""
    if isinstance(node, list):
        return (
            "\n".join(adf_text(child) for child in node)
            if node and "text" not in node[0] and node[0].get("type") != "hardBreak"
            else "".join(adf_text(child) for child in node)
        )
    if node.get("type") == "hardBreak":
        return "\n"
    return str(node.get("text", "")) + adf_text(node.get("content", []))


def field_adf(text: str) -> dict[str, Any]:
    return markdown_to_adf(contained(faithful(text)))


def nodes(node: Any, kind: str) -> list[dict[str, Any]]:
    if isinstance(node, list):
        return [n for child in node for n in nodes(child, kind)]
    found = [node] if node.get("type") == kind else []
    return found + nodes(node.get("content", []), kind)


_STRUCTURE_RE = re.compile(r"(?m)^(?:&gt; |> )*[ \t]*(?:• |\d+\. )?")


def comparable(text: str) -> str:
    """Text compared without layout: list bullets, quote marks and blanks set aside."""
    text = _STRUCTURE_RE.sub("", text.replace(WORD_JOINER, "").replace(ZERO_WIDTH_SPACE, ""))  # invisible
    return re.sub(r"\s+", "", text)


def preview_and_adf(text: str, validate_adf: Validate) -> tuple[str, str]:
    pm = PostMortem(ticket="PROJ-1", root_cause=text)
    blocks = [b for m in render_slack(pm) for b in m["blocks"]]
    start = next(i for i, b in enumerate(blocks) if b["type"] == "header" and b["text"]["text"] == "Root cause")
    preview = "\n".join(slack_reads(b["text"]["text"]) for b in blocks[start + 1 :] if b["type"] == "section")
    doc = render_adf(pm)
    validate_adf(doc)
    start = next(i for i, n in enumerate(doc["content"]) if n["type"] == "heading" and adf_text(n) == "Root cause")
    return preview, adf_text(doc["content"][start + 1 :])


def test_the_draft_of_issue_11_posts_every_identifier_verbatim_and_no_heading(validate_adf: Validate) -> None:
    text = "Fails in `setup`: __init__ computes a*b with *ptr and **kwargs\n# 3 failed, 1 passed in 0.2s\nFAILED"
    doc = field_adf(text)
    validate_adf(doc)
    assert not nodes(doc, "heading")
    shown = adf_text(doc)
    for token in ("__init__", "a*b", "*ptr", "**kwargs", "# 3 failed, 1 passed in 0.2s"):
        assert token in shown
    assert all("marks" not in n or n["marks"] == [{"type": "code"}] for n in nodes(doc, "text"))


@pytest.mark.parametrize("identifier", IDENTIFIERS)
def test_identifiers_keep_every_character(identifier: str, validate_adf: Validate) -> None:
    doc = field_adf(f"{identifier} and {identifier}, then ({identifier}) *and* MAX_SHARDS*2 *ptr")
    validate_adf(doc)
    assert adf_text(doc).count(identifier) >= 3


@pytest.mark.parametrize(
    ("typed", "shown"),
    [
        ("# 3 failed", "# 3 failed"),
        ("a\n===", "a\n==="),
        ("a\n---", "a\n---"),
        ("***", "***"),
        ("- - -", "- - -"),
        ("C:\\*.txt and \\_", "C:\\*.txt and \\_"),
        ("&amp; &lt;b&gt; &#42;", "&amp; &lt;b&gt; &#42;"),
        ("line\\\nnext", "line\\\nnext"),
        ("~~~x", "~~~x"),
    ],
)
def test_markdown_that_would_lose_characters_stays_text(typed: str, shown: str) -> None:
    doc = field_adf(typed)
    assert adf_text(doc) == shown
    assert not nodes(doc, "heading") and not nodes(doc, "rule")


def test_emphasis_only_where_markers_clearly_wrap_words() -> None:
    doc = field_adf("a *bold* word, _italic words_ and ~~gone~~; but x_y_z, *ptr, a * b * c and __dunder__")
    marked = {n["text"]: [m["type"] for m in n["marks"]] for n in nodes(doc, "text") if n.get("marks")}
    assert marked == {"bold": ["strong"], "italic words": ["em"], "gone": ["strike"]}  # `*x*` is bold in Slack


@pytest.mark.parametrize(
    "target",
    [
        "docs/runbook.md",
        "412",
        "data:image/png;base64,AAAA",
        "vscode://file/x",
        "intent:#Intent;end",
        "//evil.example/x",
        "javascript:alert(1)",
        "ftp://x.example",
        "https://",
        "mailto:nobody",
    ],
)
def test_only_http_and_mailto_targets_become_links(target: str, validate_adf: Validate) -> None:
    assert not is_safe_href(target)
    for typed in (f"see [PR 412]({target}) now", f"see <{target}> now", f"see ![img]({target}) now"):
        doc = field_adf(typed)
        validate_adf(doc)
        assert adf_text(doc) == typed
        assert not any(n.get("marks") for n in nodes(doc, "text"))


@pytest.mark.parametrize(
    "target", ["https://example.com/a_b*c", "http://x.example", "mailto:a@b.example", "HTTPS://X.EXAMPLE/"]
)
def test_http_and_mailto_targets_become_links(target: str) -> None:
    assert is_safe_href(target)
    doc = field_adf(f"see [the link]({target}) now")
    [link] = [n for n in nodes(doc, "text") if n.get("marks")]
    assert link["text"] == "the link" and link["marks"][0]["attrs"]["href"].lower() == target.lower()


_MARKERS = st.sampled_from(
    [
        "*",
        "_",
        "**",
        "__",
        "~~",
        "#",
        "# ",
        ">",
        "> ",
        "[",
        "]",
        "(",
        ")",
        "`",
        "\\",
        "&",
        "&amp;",
        "-",
        "- ",
        "1. ",
        "=",
        "!",
        "<",
        "https://x.example/a",
        "\n",
        " ",
        "  ",
    ]
)
_WORDS = st.sampled_from(["word", "fix", "x", "3 failed", "ok", "日本語", "a.b"])
_IDENT = st.sampled_from(IDENTIFIERS)
_TEXT = st.lists(
    st.one_of(_MARKERS, _WORDS, _IDENT.map(lambda i: f" {i} "), st.text(max_size=4)), min_size=1, max_size=30
).map("".join)


@settings(max_examples=300, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(_TEXT)
def test_preview_shows_the_text_jira_shows_and_identifiers_survive(validate_adf: Validate, text: str) -> None:
    assume(text.strip())
    preview, adf = preview_and_adf(text, validate_adf)
    assert comparable(preview) == comparable(adf)
    doc = field_adf(text)
    assert not nodes(doc, "heading")
    shown = adf_text(doc)
    for match in re.finditer(r"(?<= )\S+(?= )", text):
        if match.group(0) in IDENTIFIERS and not wrapped(text, match):
            assert match.group(0) in shown, match.group(0)


def wrapped(text: str, match: re.Match[str]) -> bool:
    """The identifier starts or ends a run the person wrapped in one emphasis marker, as Slack reads it.

    `*ptr and fix*` is bold in Slack: a marker at the start of a word with a partner at the end of a later word
    on the same line. Only then may an identifier's own marker be read as emphasis.
    """
    identifier = match.group(0)
    line_start = text.rfind("\n", 0, match.start()) + 1
    line_end = text.find("\n", match.end()) % (len(text) + 1)
    first, last = identifier[0], identifier[-1]
    if first in "*_" and re.search(rf"\S{re.escape(first)}(?!\S)", text[match.start() + 1 : line_end]):
        return True
    return last in "*_" and bool(re.search(rf"(?<!\S){re.escape(last)}\S", text[line_start : match.end() - 1]))


def test_a_whole_draft_posts_the_issue_11_tokens_verbatim_with_no_heading_added(validate_adf: Validate) -> None:
    log = "============ FAILURES ============\n# 3 failed, 12 passed in 4.2s\n> assert shards == 4"
    pm = PostMortem(
        ticket="PROJ-1",
        summary="`Cache::__init__` fix.",
        symptom=log,
        root_cause="__init__ sizes self.__shards__ as MAX_SHARDS*2 while a*b, *ptr and **kwargs alias *scratchBuf.",
    )
    body = json.loads(jira_request(render_adf(pm), session="s", version=1).body)["body"]
    validate_adf(body)
    ours = [adf_text(h) for h in nodes(body, "heading")]
    assert ours == ["Post-mortem: PROJ-1", "Summary", "Symptom", "Root cause"]
    shown = adf_text(body)
    for token in (
        "__init__",
        "self.__shards__",
        "MAX_SHARDS*2",
        "a*b",
        "*ptr",
        "**kwargs",
        "*scratchBuf",
        "# 3 failed, 12 passed in 4.2s",
        "============ FAILURES ============",
    ):
        assert token in shown, token


@pytest.mark.parametrize(
    ("typed", "shown"),
    [
        ("1. a\n1. b", "1. a\n1. b"),
        ("3. a\n1. b", "3. a\n1. b"),
        ("1) a\n2) b", "1) a\n2) b"),
        ("06. six", "06. six"),
        ("- > quoted", "> quoted"),
        ("> > nested", "> nested"),
    ],
)
def test_list_numbers_and_quote_marks_no_adf_list_or_quote_can_show_stay_text(typed: str, shown: str) -> None:
    doc = field_adf(typed)
    assert adf_text(doc).strip() == shown
    assert not nodes(doc, "orderedList")


@pytest.mark.parametrize(
    ("typed", "order", "items"), [("1. a\n2. b", 1, 2), ("3. a\n4. b", 3, 2), ("1986. a year", 1986, 1)]
)
def test_a_list_numbered_as_it_is_shown_stays_a_list(typed: str, order: int, items: int) -> None:
    (ordered,) = nodes(field_adf(typed), "orderedList")
    assert ordered.get("attrs", {}).get("order", 1) == order and len(ordered["content"]) == items
