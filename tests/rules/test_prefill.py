"""What a debugging thread and its issue give the shortcut's modal: one key or none, fix links by shape only, code
blocks verbatim and cut at a line boundary; and the view built from them, evidence inputs empty."""

from __future__ import annotations

from typing import Any

import pytest

from postmortem.fieldtext import MODAL_MAX_CHARS
from postmortem.messages import say
from renderers.prefill import PREFILLED, STATUS_BLOCK, Found, Note, prefilled_view
from rules.prefill import (
    cut_fenced,
    description_code_blocks,
    fenced,
    fix_urls,
    is_fix_url,
    slack_code_blocks,
    ticket_of,
    urls_in,
)

pytestmark = pytest.mark.unit

FIXES = [
    "https://github.com/acme/trainer/pull/5751",
    "https://github.com/acme/trainer/pull/5751/files",
    "https://github.com/acme/trainer/commit/3f2a9c1d",
    "https://github.example.com/acme/trainer/pull/12/commits/0123abcd",
    "https://gitlab.com/acme/platform/trainer/-/merge_requests/88",
    "https://gitlab.internal/acme/trainer/-/commit/0123456789abcdef0123456789abcdef01234567",
    "https://bitbucket.org/acme/trainer/pull-requests/7",
    "https://bitbucket.org/acme/trainer/commits/abcdef1",
    "https://bitbucket.example.com/projects/ACME/repos/trainer/pull-requests/31/overview",
    "https://bitbucket.example.com/projects/ACME/repos/trainer/commits/abcdef12",
]
NOT_FIXES = [
    "https://github.com/acme/trainer/issues/5751",
    "https://github.com/acme/trainer/tree/fix-eviction",
    "https://github.com/acme/trainer/compare/main...fix",
    "https://github.com/acme/trainer",
    "https://gitlab.com/acme/trainer/-/issues/3",
    "https://bitbucket.org/acme/trainer/branch/fix",
    "https://acme.atlassian.net/browse/PAY-12",
    "https://grafana.example.com/d/abc/pull/3?x=1#commit",
    "ftp://github.com/acme/trainer/pull/1",
    "https://github.com/acme/trainer/commit/nothex!",
]


@pytest.mark.parametrize("url", FIXES)
def test_pull_merge_request_and_commit_shapes_are_fixes(url: str) -> None:
    assert is_fix_url(url)


@pytest.mark.parametrize("url", NOT_FIXES)
def test_other_links_are_never_fixes(url: str) -> None:
    assert not is_fix_url(url)


def test_urls_are_read_from_slack_links_and_lose_trailing_punctuation() -> None:
    text = "merged <https://github.com/a/b/pull/9|the fix>, see https://github.com/a/b/commit/abcdef1. And <https://x.io/y>"
    assert urls_in(text) == ["https://github.com/a/b/pull/9", "https://github.com/a/b/commit/abcdef1", "https://x.io/y"]
    assert fix_urls(urls_in(text) * 2) == ["https://github.com/a/b/pull/9", "https://github.com/a/b/commit/abcdef1"]


def test_the_one_key_of_the_message_else_of_the_thread() -> None:
    assert ticket_of("PAY-12 hangs", ["TRN-1 earlier"]) == ("PAY-12", "message")
    assert ticket_of("it hangs again", ["PAY-12: trainer hangs", "still PAY-12"]) == ("PAY-12", "thread")


def test_two_different_keys_give_no_ticket() -> None:
    assert ticket_of("PAY-12 or PAY-13?", []) == (None, None)
    assert ticket_of("it hangs", ["PAY-12 hangs", "dup of PAY-13"]) == (None, None)


def test_slack_code_blocks_are_verbatim_with_slack_escapes_undone() -> None:
    text = "look:\n```\nError: a &lt; b &amp;&amp; c &gt; d\n  at f()\n```\nand ```x = 1```"
    assert slack_code_blocks(text) == ["Error: a < b && c > d\n  at f()", "x = 1"]


def test_description_code_blocks_of_adf_and_of_wiki_markup() -> None:
    adf = {
        "type": "doc",
        "version": 1,
        "content": [
            {"type": "paragraph", "content": [{"type": "text", "text": "prose is not copied"}]},
            {
                "type": "codeBlock",
                "attrs": {"language": "text"},
                "content": [{"type": "text", "text": "E42 timeout\n"}],
            },
            {"type": "panel", "content": [{"type": "codeBlock", "content": [{"type": "text", "text": "nested"}]}]},
        ],
    }
    assert description_code_blocks(adf) == ["E42 timeout", "nested"]
    wiki = "prose\n{code:java}\nthrow new X();\n{code}\n{noformat}\nraw log\n{noformat}"
    assert description_code_blocks(wiki) == ["throw new X();", "raw log"]
    assert description_code_blocks(None) == []


def test_code_blocks_over_the_limit_are_cut_at_a_line_boundary() -> None:
    lines = [f"line {i:04d} of the trace" for i in range(400)]
    cut = cut_fenced(["\n".join(lines)], MODAL_MAX_CHARS)
    assert cut.total == len(fenced(["\n".join(lines)])) and cut.total > MODAL_MAX_CHARS
    assert len(cut.text) <= MODAL_MAX_CHARS
    body = cut.text.split("\n")
    assert body[0] == "```" and body[-1] == "```"
    assert all(line in lines for line in body[1:-1])  # whole lines only
    assert body[1:-1] == lines[: len(body) - 2]


def test_short_blocks_are_not_cut() -> None:
    assert cut_fenced(["a", "b"], MODAL_MAX_CHARS).total is None


def _block(view: dict[str, Any], block_id: str) -> dict[str, Any]:
    return next(b for b in view["blocks"] if b.get("block_id") == block_id)


def test_the_view_fills_only_references_and_verbatim_text_each_with_its_source() -> None:
    found = Found(
        ticket="PAY-12",
        ticket_from="thread",
        owner="Priya Raman",
        jira_fix=("https://github.com/a/b/pull/9",),
        thread_fix=("https://github.com/a/b/pull/9", "https://github.com/a/b/commit/abcdef1"),
        jira_code=("E42",),
        message_code=("trace",),
        notes=(Note("prefill_jira_failed", {"ticket": "PAY-12", "why": Note("prefill_jira_down")}),),
    )
    view = prefilled_view(found, lang="en", private_metadata="{}")
    filled = {
        b["block_id"]: b["element"]["initial_value"]
        for b in view["blocks"]
        if b["type"] == "input" and "initial_value" in b["element"]
    }
    assert set(filled) == PREFILLED
    assert filled["fix_ref"] == "https://github.com/a/b/pull/9 https://github.com/a/b/commit/abcdef1"
    assert filled["symptom"] == "```\nE42\n```\n\n```\ntrace\n```"
    assert _block(view, "owner")["hint"]["text"] == say("hint_owner", "en", ticket="PAY-12")
    assert _block(view, "fix_ref")["hint"]["text"] == say("hint_fix_both", "en", ticket="PAY-12", jira=1, thread=1)
    assert _block(view, "ticket")["hint"]["text"] == say("hint_ticket_thread", "en")
    status = _block(view, STATUS_BLOCK)["elements"][0]["text"]
    assert "Jira did not answer" in status


def test_the_japanese_view_says_its_sources_in_japanese() -> None:
    view = prefilled_view(Found(ticket="PAY-12", ticket_from="message", owner="Priya"), lang="ja", private_metadata="")
    assert _block(view, "owner")["hint"]["text"] == "Jira の PAY-12 の担当者から。"
