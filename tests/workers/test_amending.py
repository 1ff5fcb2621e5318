"""Amendments in the workers: an idle amendment ends and leaves the posted record as it was (workers/reminders.py),
and the items an amendment repeats carry the keys of the issues made before (workers/amending.py)."""

from __future__ import annotations

import json

import pytest

from sessions import amendment
from sessions.conversation import apply_step, model_of
from sessions.lifetime import Lifetime
from sessions.session import Session, State
from tests.sessions.helpers import complete_pm, to_drafted
from tests.workers.helpers import World
from workers import amending, reminders
from workers.context import current
from workers.followups import Marks

pytestmark = pytest.mark.unit

LIFE = Lifetime(idle_seconds=1000.0, reminder_seconds=300.0)
ITEMS = [
    {"what": "Alert on a stalled eviction queue", "owner": "Priya", "tracking": "new"},
    {"what": "Fuzz evict_range", "owner": "Sam", "tracking": "new"},
]


def amending_draft(world: World) -> Session:
    """Posted v1, then an amendment drafted as v2."""
    store = world.store
    s = store.create(
        Session(
            ticket="AMD-1",
            requester="U1",
            channel="C1",
            thread_ts="1.1",
            inputs=complete_pm(action_items=ITEMS, action_items_none=False),
        )
    )
    to_drafted(store, s.id)
    assert store.approve(s.id, version=1, user="U1") is not None
    assert store.record_posted(s.id, "10001", "https://jira/browse/AMD-1?focusedCommentId=10001") is not None
    apply_step(
        store,
        s.id,
        lambda x: amendment.on_reply(
            x, "summary: A corrected summary of what broke. Fixed by PR 42.", user="U1", approvers=frozenset(), ts=9.0
        ),
    )
    assert store.save_draft(s.id, 2, b'{"body": 2}', "0" * 64) is not None
    drafted = store.mark_drafted(s.id, version=2, shown_at=10.0)
    assert drafted is not None and drafted.amending and drafted.state is State.drafted
    return drafted


def test_an_idle_amendment_ends_and_the_posted_record_stays(world: World) -> None:
    session = amending_draft(world)
    assert reminders.sweep(current(), LIFE, now=session.updated_at + 1001) == [f"expire:{session.id}"]
    stored = world.store.get(session.id)
    assert stored is not None
    assert (stored.state, stored.approved_version, stored.amending, stored.comment_id) == (
        State.posted,
        1,
        False,
        "10001",
    )
    assert world.slack.texts[-1] == "Amendment cancelled. The record on AMD-1 stays as posted (v1)."


def test_items_made_into_issues_before_are_not_new_again(world: World) -> None:
    session = amending_draft(world)
    marks = Marks(session.id, 1)
    plan = [{"item": 1, "n": 1, "slot": "s1", "summary": ITEMS[0]["what"], "body": "{}"}]
    world.store.note(marks.plan(), json.dumps(plan), 3600)
    world.store.note(marks.key(1), "AMD-7", 3600)
    pm = amending.with_earlier_issues(current(), session, model_of(session))
    assert [i.tracking for i in pm.action_items] == ["AMD-7", "new"]  # the second was never made: still new
