"""The shortcut's reads at the edges: a thread is read up to 200 messages or 1 MB and says so; the Jira comment's
last paragraph links the debugging thread (and never an unsafe link)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, cast

import pytest
from slack_sdk import WebClient

from postmortem.messages import say
from renderers.jira import with_requester
from renderers.prefill import STATUS_BLOCK, prefilled_view
from workers.context import WorkerContext
from workers.jira_gateway import JiraApi, JiraError
from workers.prefill import MAX_BYTES, MAX_MESSAGES, gather, read_thread

pytestmark = pytest.mark.unit


class PagedReplies:
    """conversations.replies over `n` messages of `size` characters, `page` a call, with Slack's cursors."""

    def __init__(self, n: int, size: int, page: int = 150) -> None:
        self.messages = [{"ts": f"{i}.000100", "text": "x" * size} for i in range(n)]
        self.page, self.calls = page, 0

    def conversations_replies(self, *, channel: str, ts: str, limit: int, cursor: str | None) -> dict[str, Any]:
        self.calls += 1
        start = int(cursor or 0)
        end = start + min(limit, self.page)
        more = end < len(self.messages)
        return {
            "messages": self.messages[start:end],
            "has_more": more,
            "response_metadata": {"next_cursor": str(end) if more else ""},
        }


def test_a_long_thread_is_read_up_to_200_messages_and_says_so() -> None:
    slack = PagedReplies(5000, 10)
    thread = read_thread(cast(WebClient, slack), "C1", "0.000100")
    assert len(thread.messages) == MAX_MESSAGES and thread.bounded and slack.calls == 2


def test_a_thread_of_large_messages_is_read_up_to_one_megabyte() -> None:
    slack = PagedReplies(50, 100_000)
    thread = read_thread(cast(WebClient, slack), "C1", "0.000100")
    assert thread.bounded and thread.size <= MAX_BYTES and len(thread.messages) == MAX_BYTES // 100_000


def test_a_short_thread_is_read_whole() -> None:
    thread = read_thread(cast(WebClient, PagedReplies(3, 10)), "C1", "0.000100")
    assert len(thread.messages) == 3 and not thread.bounded


def test_the_comment_links_the_debugging_thread_too() -> None:
    doc = {"version": 1, "type": "doc", "content": []}
    debug = "https://acme.slack.com/archives/C1/p1700000000000100"
    adf = with_requester(
        doc, name="Priya", thread_url="https://acme.slack.com/archives/C1/p2", lang="en", debug_url=debug
    )
    last = adf["content"][-1]["content"]
    hrefs = [m["attrs"]["href"] for node in last for m in node.get("marks", [])]
    assert hrefs == ["https://acme.slack.com/archives/C1/p2", debug]
    unsafe = with_requester(doc, name="P", thread_url=None, lang="en", debug_url="javascript:alert(1)")
    assert "javascript" not in str(unsafe)


class Replies:
    """One readable thread: its parent names the key, the chosen reply has a code block and a PR link."""

    def __init__(self) -> None:
        self.thread = [
            {"ts": "100.1", "text": "PAY-9 hangs"},
            {"ts": "100.2", "text": "fixed in <https://github.com/a/b/pull/3>\n```\ntrace\n```", "thread_ts": "100.1"},
        ]

    def conversations_replies(self, **params: Any) -> dict[str, Any]:
        return {"messages": self.thread, "has_more": False}

    def chat_getPermalink(self, **params: Any) -> dict[str, Any]:
        return {"permalink": "https://acme.slack.com/archives/C1/p1001"}


class FailingJira:
    api = JiraApi.of("cloud")

    def __init__(self, error: JiraError) -> None:
        self.error = error

    def call(self, method: str, path: str, **kwargs: Any) -> Any:
        raise self.error


@pytest.mark.parametrize(
    ("error", "why"),
    [
        (JiraError("forbidden", status=403), "prefill_jira_forbidden"),
        (JiraError("not found", status=404), "prefill_jira_missing"),
        (JiraError("reset", ambiguous=True), "prefill_jira_down"),
    ],
)
def test_jira_unreadable_keeps_what_slack_gave_and_says_why(error: JiraError, why: str) -> None:
    ctx = cast(WorkerContext, SimpleNamespace(jira=FailingJira(error), permission_check=False))
    found, meta = gather(ctx, cast(WebClient, Replies()), "C1", "100.2", "100.1", "U1", [], {"channel": "C1"})
    view = prefilled_view(found, lang="ja", private_metadata="{}")
    status = next(b for b in view["blocks"] if b.get("block_id") == STATUS_BLOCK)["elements"][0]["text"]
    assert say("prefill_jira_failed", "ja", ticket="PAY-9", why=say(why, "ja")) in status
    assert (found.ticket, found.thread_fix, found.message_code, found.owner) == (
        "PAY-9",
        ("https://github.com/a/b/pull/3",),
        ("trace",),
        None,
    )
    assert meta["origin"] == {"channel": "C1", "ts": "100.1", "url": "https://acme.slack.com/archives/C1/p1001"}


class Person:
    def user_email(self, user: str) -> str:
        return f"{user.lower()}@example.com"


class GuardedJira(FailingJira):
    """A Jira that answers the permission search (no) and would fail any read of the issue."""

    def may_comment(self, ticket: str, email: str) -> bool:
        return False


def test_with_the_permission_check_an_issue_is_copied_only_for_who_may_comment_on_it() -> None:
    jira = GuardedJira(JiraError("read", status=500))
    ctx = cast(WorkerContext, SimpleNamespace(jira=jira, slack=Person(), permission_check=True))
    found, _ = gather(ctx, cast(WebClient, Replies()), "C1", "100.2", "100.1", "U1", [], {"channel": "C1"})
    assert found.owner is None and found.jira_code == () and found.jira_fix == ()
    why = say("prefill_jira_not_yours", "en")
    assert any(n.key == "prefill_jira_failed" and n.params["why"].key == "prefill_jira_not_yours" for n in found.notes)
    view = prefilled_view(found, lang="en", private_metadata="{}")
    assert why in next(b for b in view["blocks"] if b.get("block_id") == STATUS_BLOCK)["elements"][0]["text"]
