"""Held-out scenarios for the shortcut's reading (issue 22): link shapes people really paste (PR tabs and anchors,
commits inside a PR, self-hosted forges, Bitbucket Data Center under a context path), links that are not fixes,
links in Slack markup, attachments and rich-text blocks, keys in every place people write them, and code blocks."""

from __future__ import annotations

import pytest

from postmortem.fieldtext import MODAL_MAX_CHARS
from postmortem.messages import say
from renderers.prefill import STATUS_BLOCK, Found, prefill_values, prefilled_view
from rules.prefill import (
    adf_code_blocks,
    cut_fenced,
    description_code_blocks,
    fix_urls,
    is_fix_url,
    message_links,
    slack_code_blocks,
    ticket_of,
    urls_in,
)

pytestmark = pytest.mark.unit

FIX_SHAPES = [
    "https://github.com/acme/pay/pull/812/files",
    "https://github.com/acme/pay/pull/812/files#diff-1f2e3d",
    "https://github.com/acme/pay/pull/812#discussion_r1499912",
    "https://github.com/acme/pay/pull/812/",
    "https://github.com/acme/pay/commit/9be1c0ffee",
    "https://github.com/acme/pay/commit/9be1c0ffee?diff=split",
    "https://github.com/acme/pay/pull/812/commits/9be1c0ffee",
    "https://www.github.com/acme/pay/pull/812",
    "http://GitHub.com/acme/pay/pull/812",
    "https://github.corp.example/payments/ledger/pull/41",
    "https://ghe.corp.example/payments/ledger/commit/0a1b2c3d",
    "https://gitlab.com/acme/pay/-/merge_requests/77",
    "https://gitlab.com/acme/group/sub/pay/-/merge_requests/77/diffs#note_9",
    "https://gitlab.com/acme/pay/-/merge_requests/77/diffs?commit_id=0a1b2c3d4e",
    "https://gitlab.com/acme/pay/-/commit/0a1b2c3d4e5f",
    "https://git.corp.example/acme/pay/-/merge_requests/77",
    "https://gitlab.corp.example/acme/pay/merge_requests/77",
    "https://bitbucket.org/acme/pay/pull-requests/5",
    "https://bitbucket.org/acme/pay/pull-requests/5/diff",
    "https://bitbucket.org/acme/pay/commits/0a1b2c3d",
    "https://bitbucket.corp.example/projects/PAY/repos/ledger/pull-requests/19",
    "https://bitbucket.corp.example/projects/PAY/repos/ledger/pull-requests/19/overview",
    "https://bitbucket.corp.example/projects/PAY/repos/ledger/commits/0a1b2c3d",
    "https://bitbucket.corp.example/users/jdoe/repos/ledger/pull-requests/3",
    "https://tools.corp.example/bitbucket/projects/PAY/repos/ledger/pull-requests/19",
]
NOT_FIXES = [
    "https://github.com/acme/pay/issues/812",
    "https://github.com/acme/pay/compare/main...fix-ledger",
    "https://github.com/acme/pay/compare/0a1b2c3...0a1b2c4",
    "https://github.com/acme/pay/actions/runs/7712345",
    "https://github.com/acme/pay/pulls",
    "https://github.com/acme/pay/pull/new/fix-ledger",
    "https://github.com/acme/pay/blob/0a1b2c3d/src/ledger.py#L10",
    "https://github.com/acme/pay/commits/main",
    "https://github.com/acme/pay/releases/tag/v2.1.0",
    "https://github.com/acme/pay/pull/812abc",
    "https://gitlab.com/acme/pay/-/pipelines/5512",
    "https://gitlab.com/acme/pay/-/jobs/5512",
    "https://gitlab.com/acme/pay/-/issues/3",
    "https://gitlab.com/acme/pay/-/compare/main...fix",
    "https://gitlab.com/acme/pay/-/merge_requests",
    "https://gitlab.com/acme/pay/-/merge_requests/new",
    "https://bitbucket.org/acme/pay/issues/3",
    "https://bitbucket.org/acme/pay/pipelines/results/12",
    "https://grafana.corp.example/d/ledger/pull/3",
    "https://buildkite.com/acme/pay/builds/991",
    "https://sentry.io/organizations/acme/issues/4411/",
    "https://acme.atlassian.net/browse/PAY-12",
    "https://github.com.lookalike.example/acme/pay/pull/812",
    "https://notgithub.example/acme/pay/pull/812",
    "https://lookalike.example/github/acme/pull/812",
    "https://ci-bot:ghp_secret@github.com/acme/pay/pull/812",
]


@pytest.mark.parametrize("url", FIX_SHAPES)
def test_real_world_fix_shapes_are_taken(url: str) -> None:
    assert is_fix_url(url)


@pytest.mark.parametrize("url", NOT_FIXES)
def test_issues_dashboards_ci_runs_compares_and_lookalikes_are_never_taken(url: str) -> None:
    assert not is_fix_url(url)


@pytest.mark.parametrize(
    "text",
    [
        "<https://github.com/acme/pay/pull/812|#812>",
        "<https://github.com/acme/pay/pull/812>",
        "see (https://github.com/acme/pay/pull/812).",
        "修正：https://github.com/acme/pay/pull/812。マージ済みです",
        "「https://github.com/acme/pay/pull/812」を見てください",
        "*https://github.com/acme/pay/pull/812*",
        "_https://github.com/acme/pay/pull/812_",
        "`https://github.com/acme/pay/pull/812`",
    ],
)
def test_a_link_is_read_whole_from_slack_markup_and_japanese_text(text: str) -> None:
    assert fix_urls(urls_in(text)) == ["https://github.com/acme/pay/pull/812"]


def test_links_in_attachments_and_rich_text_blocks_count() -> None:
    forge_app = {
        "text": "",
        "attachments": [{"title": "Pull request merged", "title_link": "https://github.com/acme/pay/pull/812"}],
    }
    rich = {
        "text": "merged, see link",
        "blocks": [
            {
                "type": "rich_text",
                "elements": [
                    {
                        "type": "rich_text_section",
                        "elements": [
                            {"type": "text", "text": "merged: "},
                            {"type": "link", "url": "https://gitlab.com/acme/pay/-/merge_requests/77"},
                        ],
                    }
                ],
            }
        ],
    }
    assert message_links(forge_app) == ["https://github.com/acme/pay/pull/812"]
    assert fix_urls(message_links(rich)) == ["https://gitlab.com/acme/pay/-/merge_requests/77"]
    escaped = {"text": "<https://github.com/acme/pay/pull/812?w=1&amp;x=2|x>"}
    assert message_links(escaped) == ["https://github.com/acme/pay/pull/812?w=1&x=2"]


@pytest.mark.parametrize(
    ("message", "thread", "expected"),
    [
        ("it hangs again", ["ledger stuck", "this is PAY-12, I think"], ("PAY-12", "thread")),
        ("PAY-12 and again PAY-12", [], ("PAY-12", "message")),
        ("it hangs", ["PAY-12 opened", "dup of PAY-12"], ("PAY-12", "thread")),
        ("it hangs", ["PAY-12 opened", "or is it LEDG-3?"], (None, None)),
        ("PAY-12 or LEDG-3?", ["PAY-12"], (None, None)),
        ("filed https://acme.atlassian.net/browse/PAY-12", [], ("PAY-12", "message")),
        ("<https://acme.atlassian.net/browse/PAY-12|PAY-12: ledger hang>", [], ("PAY-12", "message")),
        ("pay-12 and Pay-12 are not keys", ["ledger-3 neither"], (None, None)),
        ("「PAY-12」の件で再発しました", [], ("PAY-12", "message")),
        ("［PAY-12］（ＰＡＹ-１２ではない）", [], ("PAY-12", "message")),
        ("課題PAY-12を修正", [], ("PAY-12", "message")),
        ("UTF-8 and SHA-256 only", ["ISO-8601 dates"], (None, None)),
        ("the log:\n```\nERROR PAY-12 ledger stuck\n```", [], ("PAY-12", "message")),
    ],
)
def test_the_one_key_wherever_people_write_it(
    message: str, thread: list[str], expected: tuple[str | None, ...]
) -> None:
    assert ticket_of(message, thread) == expected


def test_code_blocks_keep_language_tags_inline_backticks_and_blank_lines_verbatim() -> None:
    text = "```python\nraise KeyError(`x`)\n```\nthen\n```\n  a\n\n\n  b  \n```"
    assert slack_code_blocks(text) == ["python\nraise KeyError(`x`)", "  a\n\n\n  b  "]
    assert slack_code_blocks("no fence ```open only") == []


def test_links_slack_made_inside_a_code_block_are_shown_as_typed() -> None:
    text = (
        "```\ncurl <https://api.example.com/v1?a=1&amp;b=2>\n"
        "mail <mailto:ops@example.com|ops@example.com> &lt;x&gt;\n```"
    )
    assert slack_code_blocks(text) == ["curl https://api.example.com/v1?a=1&b=2\nmail ops@example.com <x>"]


def test_data_center_code_and_noformat_blocks_and_cloud_code_blocks_are_verbatim() -> None:
    wiki = "h3. Trace\n{code:java}\nint a = b < c;\n{code}\ntext *bold*\n{noformat}\n*raw* {{x}}\n{noformat}"
    assert description_code_blocks(wiki) == ["int a = b < c;", "*raw* {{x}}"]
    adf = {
        "type": "doc",
        "content": [
            {"type": "paragraph", "content": [{"type": "text", "text": "repro: run it"}]},
            {"type": "codeBlock", "attrs": {"language": "go"}, "content": [{"type": "text", "text": "panic: nil\n"}]},
        ],
    }
    assert description_code_blocks(adf) == adf_code_blocks(adf) == ["panic: nil"]
    assert description_code_blocks(None) == []


def test_a_long_block_is_cut_at_a_line_boundary_and_still_fenced() -> None:
    lines = [f"at frame {i:04d} ledger.settle()" for i in range(400)]
    cut = cut_fenced(["\n".join(lines)], 3000)
    assert cut.total is not None and len(cut.text) <= 3000 < cut.total
    body = cut.text.split("\n")
    assert body[0] == "```" and body[-1] == "```"
    assert body[1:-1] == lines[: len(body) - 2]  # whole lines, in order, none cut in the middle


def test_a_block_whose_first_line_alone_is_too_long_is_not_cut_mid_line() -> None:
    cut = cut_fenced(["{" + "x" * 5000 + "}"], 3000)
    assert cut.text == "" and cut.total is not None


def test_cloud_code_blocks_inside_panels_expands_and_tables_are_found_in_order() -> None:
    def code(text: str) -> dict[str, object]:
        return {"type": "codeBlock", "content": [{"type": "text", "text": text}]}

    doc = {
        "type": "doc",
        "content": [
            {"type": "panel", "attrs": {"panelType": "error"}, "content": [code("first")]},
            {"type": "expand", "content": [code("second")]},
            {
                "type": "table",
                "content": [{"type": "tableRow", "content": [{"type": "tableCell", "content": [code("third")]}]}],
            },
            {"type": "paragraph", "content": [{"type": "text", "text": "inline", "marks": [{"type": "code"}]}]},
        ],
    }
    assert adf_code_blocks(doc) == ["first", "second", "third"]


def test_a_block_too_long_for_any_line_boundary_is_left_out_and_the_status_says_so() -> None:
    found = Found(ticket="LED-9", ticket_from="message", jira_code=("x" * 4000,))
    view = prefilled_view(found, lang="ja", private_metadata="{}")
    symptom = next(b for b in view["blocks"] if b.get("block_id") == "symptom")
    assert "initial_value" not in symptom["element"]
    said = next(b for b in view["blocks"] if b.get("block_id") == STATUS_BLOCK)["elements"][0]["text"]
    assert say("prefill_symptom_too_long", "ja", limit=f"{MODAL_MAX_CHARS:,}") in said


def test_hints_count_their_links_in_good_grammar() -> None:
    one, two = ("https://github.com/a/b/pull/1",), ("https://github.com/a/b/pull/1", "https://github.com/a/b/pull/2")
    hints = [prefill_values(Found(ticket="LED-9", ticket_from="message", **kw), "en")[1]["fix_ref"] for kw in (
        {"thread_fix": one}, {"thread_fix": two}, {"jira_fix": one}, {"jira_fix": two})]  # fmt: skip
    assert hints == [
        say("hint_fix_thread_one", "en"),
        say("hint_fix_thread", "en", n=2),
        say("hint_fix_jira_one", "en", ticket="LED-9"),
        say("hint_fix_jira", "en", ticket="LED-9", n=2),
    ]
    assert "1 links" not in " ".join(hints)


def test_links_that_do_not_fit_are_left_whole_and_the_hint_counts_what_is_shown() -> None:
    links = tuple(f"https://github.com/acme/ledger/pull/{1000 + i}/files" for i in range(120))
    values, hints = prefill_values(Found(ticket="LED-9", ticket_from="message", thread_fix=links), "en")
    shown = values["fix_ref"].split(" ")
    assert len(values["fix_ref"]) <= MODAL_MAX_CHARS and shown == list(links[: len(shown)])
    left = len(links) - len(shown)
    assert hints["fix_ref"] == say("hint_fix_thread", "en", n=len(shown)) + say("hint_fix_cut", "en", left=left)


def test_a_trace_pasted_in_the_issue_and_in_the_message_is_shown_once_from_the_issue() -> None:
    trace = "panic: nil map\n  at ledger.go:42"
    found = Found(ticket="LED-9", ticket_from="message", jira_code=(trace,), message_code=(trace + "\n", "extra"))
    values, hints = prefill_values(found, "en")
    assert values["symptom"] == f"```\n{trace}\n```\n\n```\nextra\n```"
    same = Found(ticket="LED-9", ticket_from="message", jira_code=(trace,), message_code=(trace,))
    values, hints = prefill_values(same, "en")
    assert values["symptom"] == f"```\n{trace}\n```" and hints["symptom"] == say(
        "hint_symptom_jira", "en", ticket="LED-9"
    )
