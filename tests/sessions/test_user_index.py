"""The per-person, open and awaiting indexes are written with every session write; Home refreshes coalesce."""

from __future__ import annotations

import pytest
import redis

from sessions.session import Session, State
from sessions.store import SessionStore
from sessions.user_index import APPROVERS
from tests.sessions.helpers import TTL, to_drafted

pytestmark = pytest.mark.unit


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def store(redis_conn: redis.Redis, clock: Clock) -> SessionStore:
    return SessionStore(redis_conn, ttl_seconds=TTL, clock=clock)


def new(store: SessionStore, user: str = "U1", created: float = 0.0, **changes: object) -> Session:
    session = Session(ticket="PROJ-1", requester=user, channel="C1", created_at=1000.0 + created)
    return store.create(session.with_changes(**changes))


def test_a_persons_sessions_newest_first_and_only_theirs(store: SessionStore) -> None:
    older, newer = new(store, created=1), new(store, created=2)
    other = new(store, user="U2", created=3)
    assert [s.id for s in store.users.sessions("U1")] == [newer.id, older.id]
    assert [s.id for s in store.users.sessions("U2")] == [other.id]
    assert store.users.sessions("U3") == []


def test_the_list_is_capped_and_expired_sessions_drop_out(store: SessionStore, redis_conn: redis.Redis) -> None:
    made = [new(store, created=i) for i in range(25)]
    assert len(store.users.sessions("U1")) == 20
    redis_conn.delete(store.session_key(made[-1].id))  # its TTL ran out
    listed = store.users.sessions("U1", 100)
    assert made[-1].id not in {s.id for s in listed} and len(listed) == 24
    assert made[-1].id not in store.users.session_ids("U1", 100)


def test_a_session_written_before_the_index_existed_is_listed_after_its_next_write(
    store: SessionStore, redis_conn: redis.Redis
) -> None:
    legacy = Session(ticket="PROJ-9", requester="U1", channel="C1")
    redis_conn.set(store.session_key(legacy.id), legacy.model_dump_json(), ex=TTL)
    assert store.users.sessions("U1") == []
    assert store.update(legacy.id, lambda s: s.with_changes(pending_field="repro")) is not None
    assert [s.id for s in store.users.sessions("U1")] == [legacy.id]


def test_open_and_awaiting_follow_the_state(store: SessionStore, clock: Clock) -> None:
    session = new(store)
    assert store.users.idle_since(session.updated_at - 1) == []
    assert store.users.idle_since(session.updated_at) == [session.id]
    to_drafted(store, session.id)
    assert [s.id for s in store.users.awaiting()] == [session.id]
    assert store.transition(session.id, {State.drafted}, State.cancelled) is not None
    assert store.users.awaiting() == [] and store.users.idle_since(clock.now + 10**9) == []


def test_changes_make_the_home_due_once_after_the_window(store: SessionStore, clock: Clock) -> None:
    session = new(store)
    assert store.users.take_due() == []  # due only after the coalescing window
    clock.now += 1
    store.update(session.id, lambda s: s.with_changes(pending_field="repro"))  # no state change
    to_drafted(store, session.id)  # a state change, later in the burst: still due at the first time
    clock.now += store.users.coalesce_seconds - 1
    assert store.users.take_due() == ["U1"]  # one refresh for the whole burst
    assert store.users.take_due() == []
    clock.now += 1  # the approvers' Home: due a window after the draft appeared
    assert store.users.take_due() == [APPROVERS]


def test_opening_the_home_makes_it_due_now(store: SessionStore) -> None:
    new(store)
    store.users.request_home("U1")
    assert store.users.take_due() == ["U1"]


def test_at_most_one_publish_per_window(store: SessionStore, clock: Clock) -> None:
    store.users.coalesce_seconds = 60
    assert store.users.may_publish("U1")
    assert not store.users.may_publish("U1")
    assert store.users.take_due() == []  # made due again for when the window ends (≈60 s from now)
    clock.now += 61
    assert store.users.take_due() == ["U1"]
