"""Hostile and edge cases on the real processes: approvals only in plain words, an Edit that cannot move a draft
to a ticket its requester may not comment on, a thread whose session is gone, logs free of personal data and
people's text, and a post that survives its worker being killed twice in a row.

One stack for the module, with the Jira permission check on and the Jira webhook configured; the timings are
the ones the bot ships with (bench/recovery.py times the recovery; nothing here asserts a time).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from itertools import count

import pytest
import redis

from bot.localstack import LocalStack
from emulators.driver import modal_values
from postmortem.messages import say
from sessions.claims import post_lock
from sessions.store import SessionStore
from tests.e2e.helpers import SECRET, Conversation, comment_posts, example_fields, running_stack, wait_until, webhook
from tests.handlers.helpers import jira_event

pytestmark = pytest.mark.e2e

#: Text typed into the form and a thread reply: it must reach Slack and Jira, and never a log line.
MARKER = "Quokka-Zanzibar-7319"
#: An e-mail address anywhere in a log line.
EMAIL = re.compile(r"[\w.+-]+@[\w-]+\.[\w.]+")
_tickets = count(1)


@pytest.fixture(scope="module")
def stack() -> Iterator[LocalStack]:
    with running_stack({"POSTMORTEM_JIRA_PERMISSION_CHECK": "on", "JIRA_WEBHOOK_SECRET": SECRET}) as local:
        yield local


def person(stack: LocalStack, user: str, *tickets: str) -> None:
    """A Slack member with an e-mail, who may comment on `tickets` in Jira (each added to Jira)."""
    email = f"{user.lower()}@example.com"
    stack.slack.add_user(user, email=email)
    for ticket in tickets:
        stack.jira.add_issue(ticket)
        stack.jira.grant(f"acc-{user.lower()}", ticket, email=email)


def held_searches(stack: LocalStack, path: str) -> int:
    """Delayed answers to `GET path` still to come (the emulator's queue of injected faults, read only)."""
    with stack.jira._cond:
        return len(stack.jira._injections.get(("GET", path), ()))


def open_edit(stack: LocalStack, chat: Conversation) -> None:
    opened = len(stack.slack.views)
    chat.click("postmortem_edit")
    stack.slack.wait_for(lambda s: s.views[opened:] or None)


def kill_and_take_over(stack: LocalStack, store: SessionStore, lock: str) -> None:
    """SIGKILL the worker holding the lease `lock`, start another; return once a live run holds the lease."""
    dead = store.noted(lock)
    stack.processes.pop("worker").stop(kill=True)
    stack.start_worker("worker")
    wait_until(lambda: store.noted(lock) not in (None, dead), 60, "a live run to take the post over")


def drafted(stack: LocalStack, user: str, **fields: str) -> Conversation:
    ticket = f"EDGE-{next(_tickets)}"
    person(stack, user, ticket)
    chat = Conversation(stack, user=user, ticket=ticket)
    chat.start(example_fields("cache-eviction.en", why_symptom="`evict_range` stops early.", **fields), in_jira=False)
    chat.wait_text("Reply `post it`")
    return chat


def test_approval_words_in_code_a_quote_or_beside_a_negative_sign_post_nothing(stack: LocalStack) -> None:
    chat = drafted(stack, "UAPP1", how_found="`git bisect`.")
    for text in ("`yes`", "```post it```", "&gt; yes", "post it 🚫", "go ahead :x:"):
        before = len(chat.thread())
        chat.reply(text)
        chat.wait_text("That reply approves nothing", after=before)
    assert stack.jira.comments(chat.ticket) == [] and comment_posts(stack, chat.ticket) == []
    chat.reply("yes")
    chat.wait_text(f"Posted to {chat.ticket}")
    assert len(stack.jira.comments(chat.ticket)) == 1


def test_an_edit_cannot_move_a_draft_to_a_ticket_its_requester_may_not_comment_on(stack: LocalStack) -> None:
    chat = drafted(stack, "UEDIT1", how_found="`git bisect`.")
    theirs = f"THEIRS-{next(_tickets)}"
    stack.jira.add_issue(theirs)  # exists; UEDIT1 may not comment on it
    for target in (theirs, f"NOSUCH-{next(_tickets)}"):
        open_edit(stack, chat)
        values = example_fields("cache-eviction.en", why_symptom="Moved.", how_found="`git bisect`.")
        sent = chat.driver.view_submission(values=modal_values({**values, "ticket": target}), user_id=chat.user)
        assert sent.status_code == 200 and not sent.content  # the form closes: a worker checks the ticket
        chat.wait_text(f"no issue {target} that <@{chat.user}> can comment on")
    chat.reply("post it")
    chat.wait_text(f"Posted to {chat.ticket}")
    assert len(stack.jira.comments(chat.ticket)) == 1 and stack.jira.comments(theirs) == []


def test_a_thread_whose_session_is_gone_says_so_and_other_threads_stay_silent(stack: LocalStack) -> None:
    chat = drafted(stack, "UGONE1", how_found="`git bisect`.")
    conn = redis.Redis.from_url(stack.redis_url)
    conn.delete(*conn.keys("pm:*"))  # its session is gone, as after a Redis restart that kept nothing
    chat.reply("post it")
    told = stack.slack.wait_for(lambda s: s.ephemerals(channel=chat.channel, user=chat.user) or None)
    assert told[0]["thread_ts"] == chat.thread_ts and told[0]["text"] == say("session_gone", "en")
    before = len(stack.slack.responses)
    chat.click("postmortem_cancel", message=chat.with_button("postmortem_cancel"))
    answer = stack.slack.wait_for(lambda s: s.responses[before:] or None)
    assert answer[0]["payload"]["text"] == say("session_gone", "en")
    elsewhere = chat.driver.message("yes, post it", user=chat.user, channel=chat.channel, thread_ts="1600000000.000001")
    assert elsewhere.status_code == 200
    chat.reply("yes")  # a second reply in the gone thread: told once a while, not every time
    drafted(stack, "UGONE2", how_found="`git bisect`.")  # work queued after both replies, done: they were read
    assert len(stack.slack.ephemerals(channel=chat.channel, user=chat.user)) == 1
    assert stack.jira.comments(chat.ticket) == []


def test_a_post_whose_worker_is_killed_twice_in_a_row_ends_in_one_comment_and_the_link(stack: LocalStack) -> None:
    chat = drafted(stack, "UKILL1", how_found="`git bisect`.")
    store = SessionStore(redis.Redis.from_url(stack.redis_url))
    session = store.find_by_thread(chat.channel, chat.thread_ts)
    assert session is not None
    path = f"/rest/api/3/issue/{chat.ticket}/comment"
    stack.jira.inject("POST", path, timeout_after_store=True, stall=120)  # stored; the answer never comes
    chat.reply("yes")
    stack.jira.wait_for(lambda j: j.comments(chat.ticket), timeout=30)
    # Each search for the comment is held, so the run taking over is still searching when it is killed. Two
    # of them: the first run may search too, when its stalled POST ends before it is killed.
    stack.jira.inject("GET", path, delay=120, times=2)
    lock = post_lock(session.id, 1)
    queued = held_searches(stack, path)
    kill_and_take_over(stack, store, lock)  # killed mid-post
    wait_until(lambda: held_searches(stack, path) < queued, 60, "the run that took over to be held in its search")
    kill_and_take_over(stack, store, lock)  # and the run that took over killed too
    stack.jira.release()  # the last run's search, if held, answers now
    chat.wait_text(f"Posted to {chat.ticket}", timeout=60)
    assert len(stack.jira.comments(chat.ticket)) == 1 and len(comment_posts(stack, chat.ticket)) == 1
    assert sum(f"Posted to {chat.ticket}" in m["text"] for m in chat.thread()) == 1


def test_the_logs_of_a_whole_run_hold_ids_and_keys_never_addresses_or_text(stack: LocalStack) -> None:
    bug = f"BUG-{next(_tickets)}"
    person(stack, "UASSIGN1")
    resolved = jira_event(bug, account_id="acc-assign1", email="uassign1@example.com")
    assert webhook(stack, resolved).status_code == 202
    stack.slack.wait_for(lambda s: s.messages(channel="UASSIGN1") or None, timeout=20)  # the offer, by DM
    chat = drafted(stack, "ULOG1", how_found=f"Bisected with `git bisect` ({MARKER}).")
    open_edit(stack, chat)  # an Edit's fields travel to a worker as a job's arguments
    values = example_fields("cache-eviction.en", why_symptom=f"Stops early at {MARKER}.", how_found="`git bisect`.")
    other = f"OTHER-{next(_tickets)}"
    person(stack, "ULOG1", other)
    sent = chat.driver.view_submission(values=modal_values({**values, "ticket": other}), user_id=chat.user)
    assert sent.status_code == 200
    chat.wait_text("to post v2", timeout=30)
    chat.reply(f"`yes` {MARKER}")
    chat.wait_text("That reply approves nothing")
    chat.reply("post it")
    chat.wait_text(f"Posted to {other}", timeout=30)
    assert MARKER in stack.jira.comments(other)[0].raw.decode()  # the text went where it belongs
    logs = stack.logs()
    assert MARKER not in logs
    assert EMAIL.findall(logs) == []
