"""Idle sessions end with words, not silence: one reminder with Resume (Edit) and Cancel, then the expiry notice
(a short lifetime set through the settings); and the Jira offer for a Bug in a Japanese site or without a
reachable assignee."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from bot.localstack import LocalStack
from emulators.driver import modal_values
from renderers.prompts import ACTION_CANCEL, ACTION_EDIT
from sessions.lifetime import Lifetime
from tests.e2e.helpers import (
    SECRET,
    Conversation,
    button_value_in,
    command,
    example_fields,
    new_ticket,
    running_stack,
    start_value,
    unique,
    webhook,
)
from tests.handlers.helpers import jira_event

pytestmark = pytest.mark.e2e

#: 0.0002 days = 17.3 s idle lifetime; the reminder 0.0025 h = 9 s before it, so after 8.3 s idle.
SESSION_DAYS, REMINDER_HOURS = "0.0002", "0.0025"
LIFE = Lifetime.of(session_days=float(SESSION_DAYS), reminder_hours=float(REMINDER_HOURS))


@pytest.fixture(scope="module")
def stack() -> Iterator[LocalStack]:
    env = {
        "POSTMORTEM_SESSION_DAYS": SESSION_DAYS,
        "POSTMORTEM_REMINDER_HOURS": REMINDER_HOURS,
        "POSTMORTEM_WATCHDOG_SECONDS": "0.5",
        "JIRA_WEBHOOK_SECRET": SECRET,
        "POSTMORTEM_OFFER_FALLBACK_CHANNEL": "CFALL",
    }
    with running_stack(env) as local:
        yield local


def test_one_reminder_then_the_expiry_says_so_in_the_thread(stack: LocalStack) -> None:
    ticket = new_ticket("IDLE")
    stack.jira.add_issue(ticket)
    chat = Conversation(stack, ticket=ticket)
    chat.start(example_fields("cache-eviction.en", why_symptom="a", how_found="b"))
    shown = chat.wait_text("Reply `post it`")
    drafted_at = time.monotonic()
    reminder = chat.wait_text("expires", timeout=LIFE.idle_seconds)
    assert time.monotonic() - drafted_at >= LIFE.remind_after - 2  # not before the lead time
    assert "<@U1>" in reminder["text"]
    assert button_value_in(reminder, ACTION_EDIT) and button_value_in(reminder, ACTION_CANCEL)
    expired = chat.wait_text("expired after", timeout=LIFE.idle_seconds + 10)
    assert time.monotonic() - drafted_at >= LIFE.idle_seconds - 2
    assert "Nothing was posted" in expired["text"]
    reminders = [m for m in chat.thread() if "expires" in m["text"]]
    assert len(reminders) == 1, "never more than one reminder per session"
    listed = command(stack, "list", "U1")["text"]
    assert f"*{ticket}* · expired · v1" in listed
    assert stack.jira.comments(ticket) == [] and shown


def test_resume_from_the_reminder_finishes_a_session_still_collecting(stack: LocalStack) -> None:
    ticket = new_ticket("RESUME")
    stack.jira.add_issue(ticket)
    chat = Conversation(stack, ticket=ticket)
    fields = example_fields("cache-eviction.en", why_symptom="a", how_found="b")
    repro = fields.pop("repro")
    chat.start(fields)
    chat.wait_text("(`repro`)")
    reminder = chat.wait_text("expires", timeout=LIFE.idle_seconds)
    opened = len(stack.slack.views)
    chat.click(ACTION_EDIT, message=reminder)
    modal = stack.slack.wait_for(lambda s: s.views[opened]["view"] if len(s.views) > opened else None, timeout=15)
    answer = chat.driver.view_submission(
        values=modal_values({**fields, "repro": repro, "ticket": ticket}), view_id=modal["id"]
    )
    assert answer.status_code == 200 and b"errors" not in answer.content, answer.text
    chat.wait_text("Reply `post it`")
    chat.reply("post it")
    chat.wait_text(f"Posted to {ticket}")
    assert len(stack.jira.comments(ticket)) == 1


def test_a_resolved_bug_in_a_japanese_jira_gets_the_offer(stack: LocalStack) -> None:
    key = unique("BUG")
    stack.slack.add_user("U81", email="dev81@example.com", locale="ja-JP")
    response = webhook(stack, jira_event(key, issue_type="バグ", account_id="acc-81", email="dev81@example.com"))
    assert (response.status_code, response.json()) == (202, {"ok": True, "offered": key})
    dm = stack.slack.wait_for(lambda s: s.messages(channel="U81"), timeout=15)[0]
    assert key in dm["text"] and start_value(dm) == {"ticket": key, "channel": "", "lang": "ja"}


def test_an_assignee_without_a_slack_user_is_named_in_the_fallback_channel(stack: LocalStack) -> None:
    key = unique("BUG")
    stack.jira.add_user("acc-82")  # Jira hides the e-mail
    payload = jira_event(key, account_id="acc-82", email=None)
    payload["issue"]["fields"]["assignee"]["displayName"] = "Hanako Yamada"
    assert webhook(stack, payload).status_code == 202
    fallback = stack.slack.wait_for(lambda s: s.messages(channel="CFALL"), timeout=15)
    assert len(fallback) == 1 and "Hanako Yamada" in fallback[0]["text"] and key in fallback[0]["text"]
