"""Finding one's sessions again, end to end: `/post-mortem help`, `/post-mortem list` and the App Home tab
(views.publish), each showing a person only their own sessions; approvers see the drafts awaiting them."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import pytest

from bot.localstack import LocalStack
from renderers.prompts import ACTION_CANCEL, ACTION_EDIT
from sessions.user_index import HOME_COALESCE_SECONDS
from tests.e2e.helpers import Conversation, command, example_fields, new_ticket, running_stack

pytestmark = pytest.mark.e2e

APPROVER = "UAPP"


@pytest.fixture(scope="module")
def stack() -> Iterator[LocalStack]:
    with running_stack({"POSTMORTEM_APPROVERS": APPROVER}) as local:
        for user, locale in (("U1", "en-US"), ("U2", "en-US"), ("UJA", "ja-JP"), ("U3", "en-US"), (APPROVER, "en-US")):
            local.slack.add_user(user, locale=locale)
        yield local


def drafted(stack: LocalStack, user: str, ticket: str | None = None) -> Conversation:
    ticket = ticket or new_ticket("HOME")
    stack.jira.add_issue(ticket)
    chat = Conversation(stack, user=user, ticket=ticket)
    chat.start(example_fields("cache-eviction.en", why_symptom="a", how_found="b"))
    chat.wait_text("Reply `post it`")
    return chat


def published(stack: LocalStack, user: str, after: int = 0) -> dict[str, Any]:
    """The newest Home view published for `user` after the first `after` publishes to them."""

    def home(s: Any) -> dict[str, Any] | None:
        mine = [c for c in s.calls_to("views.publish") if c["user_id"] == user]
        return mine[-1]["view"] if len(mine) > after else None

    view: dict[str, Any] = stack.slack.wait_for(home, timeout=15)
    return view


def publish_count(stack: LocalStack, user: str) -> int:
    return len([c for c in stack.slack.calls_to("views.publish") if c["user_id"] == user])


def test_help_is_ephemeral_opens_nothing_and_follows_the_callers_language(stack: LocalStack) -> None:
    english = command(stack, "help", "U1")
    assert english["response_type"] == "ephemeral"
    assert "How /post-mortem works" in english["text"] and "post it" in english["text"]
    assert "投稿してください" in english["text"] and "/post-mortem list" in english["text"]
    japanese = command(stack, "help", "UJA")
    assert "/post-mortem の使い方" in japanese["text"]


def test_list_shows_only_the_callers_sessions_newest_first_with_thread_links(stack: LocalStack) -> None:
    first, second = drafted(stack, "U1"), drafted(stack, "U1")
    theirs = drafted(stack, "U2")
    listed = command(stack, "list", "U1")
    text = listed["text"]
    assert listed["response_type"] == "ephemeral"
    assert text.index(second.ticket) < text.index(first.ticket)
    assert theirs.ticket not in text
    assert f"/archives/{first.channel}/p{first.thread_ts.replace('.', '')}" in text
    assert "drafted, awaiting approval · v1" in text
    assert theirs.ticket in command(stack, "list", "U2")["text"]
    assert first.ticket not in command(stack, "list", "U2")["text"]
    assert "no post-mortem sessions" in command(stack, "list", "U3")["text"]


def test_app_home_lists_own_sessions_and_its_buttons_go_through_the_threads_checks(stack: LocalStack) -> None:
    mine = drafted(stack, "U1")
    other = drafted(stack, "U2")
    before = publish_count(stack, "U1")
    assert stack.driver().app_home_opened("U1").status_code == 200
    view = published(stack, "U1", before)
    assert view["type"] == "home" and mine.ticket in json.dumps(view) and other.ticket not in json.dumps(view)
    stranger_before = publish_count(stack, "U3")
    assert stack.driver().app_home_opened("U3").status_code == 200
    stranger = json.dumps(published(stack, "U3", stranger_before))
    assert mine.ticket not in stranger and other.ticket not in stranger and "Nothing open" in stranger

    session_id = cancel_value(view, mine.ticket)
    home = {"type": "view", "view_id": view.get("id", "VHOME")}
    # Someone else pressing that button is refused exactly as in the thread.
    stack.driver().block_action(ACTION_CANCEL, session_id, user_id="U2", channel_id=mine.channel, container=home)
    refusal = stack.slack.wait_for(lambda s: s.ephemerals(channel=mine.channel, user="U2"), timeout=15)
    assert "Only <@U1>" in refusal[0]["text"]
    after = publish_count(stack, "U1")
    stack.driver().block_action(ACTION_CANCEL, session_id, user_id="U1", channel_id=mine.channel, container=home)
    mine.wait_text("Cancelled. Nothing was posted.")
    refreshed = published(stack, "U1", after)  # the state change refreshes the Home by itself
    assert mine.ticket not in json.dumps(refreshed)


def test_edit_from_the_home_reopens_the_prefilled_form(stack: LocalStack) -> None:
    mine = drafted(stack, "U1")
    before = publish_count(stack, "U1")
    assert stack.driver().app_home_opened("U1").status_code == 200
    view = published(stack, "U1", before)
    opened = len(stack.slack.views)
    session_id = button_value(view, mine.ticket, ACTION_EDIT)
    stack.driver().block_action(
        ACTION_EDIT, session_id, user_id="U1", channel_id=mine.channel, container={"type": "view", "view_id": "VHOME"}
    )
    modal = stack.slack.wait_for(lambda s: s.views[opened]["view"] if len(s.views) > opened else None, timeout=15)
    assert modal["callback_id"] == "postmortem" and json.loads(modal["private_metadata"])["session"] == session_id


def test_an_approver_sees_the_drafts_awaiting_approval_in_their_own_section(stack: LocalStack) -> None:
    waiting = drafted(stack, "U2")
    before = publish_count(stack, APPROVER)
    assert stack.driver().app_home_opened(APPROVER).status_code == 200
    view = json.dumps(published(stack, APPROVER, before))
    assert "Drafts awaiting your approval" in view and waiting.ticket in view and "<@U2>" in view
    plain_before = publish_count(stack, "U3")
    assert stack.driver().app_home_opened("U3").status_code == 200
    assert waiting.ticket not in json.dumps(published(stack, "U3", plain_before))


def test_a_burst_of_changes_is_at_most_one_publish_per_window(stack: LocalStack) -> None:
    before, started = publish_count(stack, "U2"), time.monotonic()
    chats = [drafted(stack, "U2") for _ in range(3)]  # each: created, collecting → rendering → drafted
    for chat in chats:
        chat.reply("cancel")
        chat.wait_text("Cancelled")
    last = published(stack, "U2", before)
    elapsed = time.monotonic() - started
    count = publish_count(stack, "U2") - before
    assert 1 <= count <= elapsed / HOME_COALESCE_SECONDS + 2, (count, elapsed)  # 12 state changes
    final = stack.slack.wait_for(
        lambda s: (
            (s.home_view("U2") or {}).get("blocks")
            and all(c.ticket not in json.dumps(s.home_view("U2")) for c in chats)
        ),
        timeout=HOME_COALESCE_SECONDS + 10,
    )
    assert final and last["type"] == "home"


def button_value(view: dict[str, Any], ticket: str, action_id: str) -> str:
    blocks = view["blocks"]
    for i, block in enumerate(blocks):
        if block["type"] == "section" and ticket in block["text"]["text"]:
            for element in blocks[i + 1]["elements"]:
                if element["action_id"] == action_id:
                    return str(element["value"])
    raise AssertionError(f"no {action_id} button for {ticket}")


def cancel_value(view: dict[str, Any], ticket: str) -> str:
    return button_value(view, ticket, ACTION_CANCEL)
