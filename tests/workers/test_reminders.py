"""One reminder before an idle session expires, then an expiry notice in the thread instead of silence."""

from __future__ import annotations

import time

import pytest

from renderers import reminders as reminders_text
from renderers.prompts import ACTION_CANCEL, ACTION_EDIT
from sessions.lifetime import Lifetime
from sessions.session import Session, State, begin_render
from tests.sessions.helpers import to_drafted
from tests.workers.fakes import slack_error
from tests.workers.helpers import World
from workers import reminders
from workers.context import current

pytestmark = pytest.mark.unit

LIFE = Lifetime(idle_seconds=1000.0, reminder_seconds=300.0)


def new(w: World, **changes: object) -> Session:
    return w.store.create(
        Session(ticket="PROJ-1", requester="U1", channel="C1", thread_ts="1.1").with_changes(**changes)
    )


def actions(message: dict[str, object]) -> list[str]:
    blocks = message["blocks"]
    assert isinstance(blocks, list)
    return [e["action_id"] for b in blocks if b["type"] == "actions" for e in b["elements"]]


def test_one_reminder_then_the_expiry_notice(world: World) -> None:
    session = to_drafted(world.store, new(world).id)
    start = session.updated_at
    assert reminders.sweep(current(), LIFE, now=start + 600) == []
    assert reminders.sweep(current(), LIFE, now=start + 701) == [f"remind:{session.id}"]
    reminder = world.slack.posts[-1]
    assert (reminder["channel"], reminder["thread_ts"]) == ("C1", "1.1")
    assert "<@U1>" in reminder["message"]["text"] and "expires" in reminder["message"]["text"]
    assert actions(reminder["message"]) == [ACTION_EDIT, ACTION_CANCEL]
    assert reminders.sweep(current(), LIFE, now=start + 800) == []  # never twice
    assert reminders.sweep(current(), LIFE, now=start + 1001) == [f"expire:{session.id}"]
    assert world.slack.texts[-1].startswith("This post-mortem of PROJ-1 expired after 17 minutes idle")
    stored = world.store.get(session.id)
    assert stored is not None and stored.state is State.expired
    assert reminders.sweep(current(), LIFE, now=start + 5000) == []
    assert len(world.slack.posts) == 2


def test_a_collecting_session_is_reminded_with_resume_and_cancel_in_its_language(world: World) -> None:
    session = new(world, lang="ja")
    assert reminders.sweep(current(), LIFE, now=session.updated_at + 701) == [f"remind:{session.id}"]
    message = world.slack.posts[-1]["message"]
    assert actions(message) == [ACTION_EDIT, ACTION_CANCEL] and "再開（編集）" in str(message)


def test_a_failed_post_is_reminded_without_edit(world: World) -> None:
    session = new(
        world,
        state=State.failed,
        version=1,
        approved_version=1,
        approved_by="U1",
        drafts=[{"version": 1, "sha256": "a" * 64, "body_sha256": "b" * 64, "shown_at": 1.0}],
    )
    assert reminders.sweep(current(), LIFE, now=session.updated_at + 701) == [f"remind:{session.id}"]
    message = world.slack.posts[-1]["message"]
    assert actions(message) == [ACTION_CANCEL] and "Open this thread" in message["text"]


def test_activity_after_the_reminder_postpones_the_expiry(world: World) -> None:
    long_ago = time.time() - 5000
    session = new(world, updated_at=long_ago)
    assert reminders.sweep(current(), LIFE, now=long_ago + 701) == [f"remind:{session.id}"]
    touched = world.store.update(session.id, lambda s: s.with_changes(pending_field="repro"))  # the person replied
    assert touched is not None
    assert reminders.sweep(current(), LIFE, now=touched.updated_at + 999) == []
    assert reminders.sweep(current(), LIFE, now=touched.updated_at + 1001) == [f"expire:{session.id}"]


def test_in_flight_and_final_sessions_are_left_alone(world: World) -> None:
    rendering = world.store.update(new(world).id, begin_render)
    cancelled = world.store.transition(new(world).id, {State.collecting}, State.cancelled)
    assert rendering is not None and cancelled is not None
    assert reminders.sweep(current(), LIFE, now=rendering.updated_at + 10_000) == []
    assert world.slack.posts == []


def test_a_session_without_a_thread_is_told_by_dm(world: World) -> None:
    session = new(world, thread_ts=None)
    assert reminders.sweep(current(), LIFE, now=session.updated_at + 2000) == [f"expire:{session.id}"]
    assert world.slack.posts[-1]["channel"] == "U1"


def test_slack_refusing_the_notice_is_logged(world: World, caplog: pytest.LogCaptureFixture) -> None:
    session = new(world)
    world.slack.refuse_channels["C1"] = "channel_not_found"
    assert reminders.sweep(current(), LIFE, now=session.updated_at + 2000) == [f"expire:{session.id}"]
    assert "channel_not_found" in caplog.text
    assert slack_error("x") is not None


def test_lifetime_from_the_settings() -> None:
    life = Lifetime.of(session_days=0.0002, reminder_hours=0.002)
    assert round(life.idle_seconds, 2) == 17.28 and round(life.remind_after, 2) == 10.08
    assert Lifetime.of(session_days=14, reminder_hours=24).store_ttl == 15 * 24 * 3600
    assert Lifetime.of(session_days=0.5, reminder_hours=24).remind_after == 6 * 3600  # half the life at most


def test_the_expiry_time_shows_in_each_readers_time_zone_with_a_utc_fallback() -> None:
    assert reminders_text.when(1_800_000_000) == "<!date^1800000000^{date_short_pretty} {time}|2027-01-15 08:00 UTC>"
