"""What the message shortcut's end-to-end modules share: a seeded Jira issue and debugging thread, the shortcut
used on a message with the modal it opened and then updated, and readers of that view."""

from __future__ import annotations

from typing import Any

from bot.localstack import LocalStack
from postmortem.messages import say
from renderers.prefill import STATUS_BLOCK

PR = "https://github.com/acme/trainer/pull/5751"
COMMIT = "https://github.com/acme/trainer/commit/3f2a9c1d"
#: Inputs that have a value without anyone filling them: the destination and the language selects.
DEFAULTED = {"destination", "lang"}


def seed_issue(stack: LocalStack, key: str, *, code: str = "E42: checkpoint write timed out after 30s") -> None:
    stack.jira.add_user("acc-priya", email="priya@example.com", display_name="Priya Raman")
    stack.jira.add_issue(key, assignee_account_id="acc-priya")
    stack.jira.issue_reads.describe(key, [("p", "The trainer hangs after an eviction."), ("code", code)])
    stack.jira.issue_reads.add_remote_link(key, PR, "Fix eviction hang")
    stack.jira.issue_reads.add_remote_link(key, "https://wiki.example.com/display/ENG/Trainer", "Runbook")


def seed_thread(stack: LocalStack, chan: str, key: str) -> tuple[str, str]:
    """A debugging thread: the report naming the key, a reply with links, the chosen message with a code block."""
    root = stack.slack.say_as("U2", chan, f"{key}: the trainer hangs after eviction")
    stack.slack.say_as("U3", chan, f"fixed in <{COMMIT}>, graphs at https://grafana.example.com/d/x", thread_ts=root)
    chosen = stack.slack.say_as(
        "U1", chan, "repro output:\n```\nRuntimeError: cache evicted &lt;3\n```", thread_ts=root
    )
    return root, chosen


def shortcut_modal(stack: LocalStack, chan: str, ts: str, *, user: str = "U1") -> tuple[str, dict[str, Any]]:
    """Use the shortcut; the opened view's id and the view once the worker updated it."""
    before = len(stack.slack.views)
    response = stack.driver().message_shortcut(ts, channel_id=chan, user_id=user)
    assert response.status_code == 200, response.text
    opened = stack.slack.wait_for(lambda s: next((v for v in s.views[before:] if v["action"] == "open"), None), 10)
    view_id = opened["view"]["id"]
    assert status(opened["view"]) == say("prefill_reading", "en")
    updated = stack.slack.wait_for(
        lambda s: next((v for v in s.views[before:] if v["action"] == "update" and v["view"]["id"] == view_id), None),
        20,
    )
    sent = next(c for c in stack.slack.calls_to("views.update") if c.get("view_id") == view_id)
    assert sent.get("hash") == opened["view"]["hash"]  # guarded by the opened view's hash
    return view_id, updated["view"]


def block(view: dict[str, Any], block_id: str) -> dict[str, Any]:
    return next(b for b in view["blocks"] if b.get("block_id") == block_id)


def status(view: dict[str, Any]) -> str:
    text: str = block(view, STATUS_BLOCK)["elements"][0]["text"]
    return text


def filled(view: dict[str, Any]) -> dict[str, str]:
    return {
        b["block_id"]: b["element"]["initial_value"]
        for b in view["blocks"]
        if b["type"] == "input" and "initial_value" in b["element"]
    }


def hint(view: dict[str, Any], block_id: str) -> str:
    text: str = block(view, block_id)["hint"]["text"]
    return text
