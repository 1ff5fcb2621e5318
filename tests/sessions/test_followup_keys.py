"""A created follow-up issue's key in the session's record (sessions/followup_keys.py, the guard in
sessions/session.py `valid_move`): written while posting, only over an item still marked new, and nothing else."""

from __future__ import annotations

from typing import Any

import pytest
import redis

from sessions.followup_keys import record_keys, records_keys
from sessions.session import Session, State, valid_move
from sessions.store import SessionStore
from tests.sessions.helpers import complete_pm, to_drafted

pytestmark = pytest.mark.unit

ITEMS = [
    {"what": "Alert when the eviction queue stalls", "owner": "Priya", "tracking": "new"},
    {"what": "Fuzz `evict_range`", "owner": "Sam", "tracking": "PAY-77"},
    {"what": "Soak the cache for 24 h", "owner": "Lee", "tracking": "新規"},
]


@pytest.fixture
def store(redis_conn: redis.Redis) -> SessionStore:
    return SessionStore(redis_conn, ttl_seconds=3600)


def posting(store: SessionStore, items: list[dict[str, Any]] = ITEMS) -> Session:
    inputs = complete_pm(action_items=items, action_items_none=False)
    s = store.create(Session(ticket="CACHE-1", requester="U1", channel="C1", thread_ts="1.0", inputs=inputs))
    to_drafted(store, s.id)
    approved = store.approve(s.id, version=1, user="U1")
    assert approved is not None and approved.state is State.posting
    return approved


def test_each_created_item_says_its_key_and_nothing_else_changes(store: SessionStore) -> None:
    s = posting(store)
    made = {1: (ITEMS[0]["what"], "CACHE-901"), 3: (ITEMS[2]["what"], "CACHE-902")}
    recorded = store.update(s.id, lambda x: record_keys(x, made), expect_states={State.posting})
    assert recorded is not None and recorded.state is State.posting
    assert [i["tracking"] for i in recorded.inputs["action_items"]] == ["CACHE-901", "PAY-77", "CACHE-902"]
    assert [i["what"] for i in recorded.inputs["action_items"]] == [i["what"] for i in ITEMS]
    assert (recorded.approved_version, recorded.drafts, recorded.version) == (1, s.drafts, 1)
    assert record_keys(recorded, made) is None  # once: a rerun writes nothing


def test_an_item_whose_text_is_not_the_issues_summary_or_not_new_keeps_its_tracking(store: SessionStore) -> None:
    s = posting(store)
    assert record_keys(s, {1: ("Another text", "CACHE-901"), 2: (ITEMS[1]["what"], "CACHE-902")}) is None


@pytest.mark.parametrize(
    "change",
    [
        {"summary": "A different summary. Fixed by PR 9."},  # another input
        {"action_items": [{**ITEMS[0], "tracking": "CACHE-901", "what": "edited"}, *ITEMS[1:]]},  # the text too
        {"action_items": [{**ITEMS[0], "tracking": "not a key"}, *ITEMS[1:]]},
        {"action_items": [ITEMS[0], {**ITEMS[1], "tracking": "CACHE-903"}, ITEMS[2]]},  # a key that was not new
        {"action_items": [{**ITEMS[0], "tracking": "CACHE-901"}, *ITEMS[1:2]]},  # an item dropped
    ],
)
def test_no_other_change_to_the_approved_inputs_passes(store: SessionStore, change: dict[str, Any]) -> None:
    s = posting(store)
    after = s.with_changes(inputs={**s.inputs, **change})
    assert not records_keys(s, after) and not valid_move(s, after)


def test_only_while_posting_and_only_the_inputs(store: SessionStore) -> None:
    s = posting(store)
    keyed = {**s.inputs, "action_items": [{**ITEMS[0], "tracking": "CACHE-901"}, *ITEMS[1:]]}
    assert records_keys(s, s.with_changes(inputs=keyed)) and valid_move(s, s.with_changes(inputs=keyed))
    assert not valid_move(s, s.with_changes(inputs=keyed, error="x"))
    assert not valid_move(s, s.with_changes(inputs=keyed, state=State.failed))
    drafted = s.with_changes(state=State.drafted, approved_version=None, approved_by=None)
    assert not records_keys(drafted, drafted.with_changes(inputs=keyed))
