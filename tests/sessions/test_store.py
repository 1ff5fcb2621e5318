"""The session store on a real Redis: atomic transitions, one approval per version, exact bytes, TTLs."""

from __future__ import annotations

import threading

import pytest
import redis

from sessions.records import body_digest
from sessions.session import Session, State, begin_render
from sessions.store import SessionExistsError, SessionStore, connect
from tests.sessions.helpers import TTL, body_of, to_drafted

pytestmark = pytest.mark.unit


@pytest.fixture
def store(redis_conn: redis.Redis) -> SessionStore:
    return SessionStore(redis_conn, ttl_seconds=TTL)


def new(store: SessionStore, **changes: object) -> Session:
    return store.create(Session(ticket="PROJ-1", requester="U1", channel="C1").with_changes(**changes))


def test_sessions_survive_a_new_store_and_connection(store: SessionStore, redis_conn: redis.Redis) -> None:
    s = new(store, inputs={"summary": "x"})
    other = SessionStore(redis.Redis(connection_pool=redis.ConnectionPool.from_url(_url(redis_conn))))
    assert other.get(s.id) == s


def test_create_refuses_an_existing_id(store: SessionStore) -> None:
    s = new(store)
    with pytest.raises(SessionExistsError):
        store.create(s)


def test_get_unknown_is_none(store: SessionStore) -> None:
    assert store.get("nope") is None
    assert store.update("nope", lambda s: s) is None


def test_find_by_thread(store: SessionStore) -> None:
    s = new(store)
    assert store.find_by_thread("C1", "111.222") is None
    bound = store.bind_thread(s.id, "C1", "111.222")
    assert bound is not None and bound.thread_ts == "111.222"
    assert store.find_by_thread("C1", "111.222") == bound
    assert store.find_by_thread("C2", "111.222") is None
    assert store.bind_thread(s.id, "C1", "999.000") is None
    assert store.bind_thread(s.id, "C1", "111.222") is not None


def test_every_key_has_the_ttl(store: SessionStore, redis_conn: redis.Redis) -> None:
    s = new(store)
    store.bind_thread(s.id, "C1", "1.1")
    to_drafted(store, s.id)
    keys = [k.decode() if isinstance(k, bytes) else k for k in redis_conn.keys("pm:*")]
    # The shared indexes (sessions/user_index.py) are pruned by their readers and the sweep instead.
    keys = [k for k in keys if k.split(":")[1] not in ("open", "awaiting", "home")]
    assert {k.split(":")[1] for k in keys} == {"session", "thread", "draft", "ticket", "user"}
    for key in keys:
        assert 0 < redis_conn.ttl(key) <= TTL
    assert store.claim_once("evt", 60)
    assert 0 < redis_conn.ttl("pm:claim:evt") <= 60


def test_expired_keys_mean_no_session(redis_conn: redis.Redis) -> None:
    store = SessionStore(redis_conn, ttl_seconds=1)
    s = new(store)
    redis_conn.pexpireat(store.session_key(s.id), 1)  # an expiry in the past: Redis drops the key now
    assert store.get(s.id) is None


def test_draft_bytes_are_kept_exactly(store: SessionStore) -> None:
    s = new(store)
    drafted = to_drafted(store, s.id)
    d = drafted.draft(1)
    assert d is not None and d.body_sha256 == body_digest(body_of(1)) and d.shown_at == 1001.0
    assert store.draft_body(s.id, 1) == body_of(1)
    assert store.draft_body(s.id, 2) is None


def test_drafted_only_after_the_draft_is_saved(store: SessionStore) -> None:
    s = new(store)
    store.update(s.id, begin_render)
    assert store.mark_drafted(s.id, version=1, shown_at=1.0) is None
    assert store.save_draft(s.id, 2, b"{}", "0" * 64) is None  # not the version being rendered


def test_approve_binds_the_version_once(store: SessionStore) -> None:
    s = new(store)
    to_drafted(store, s.id)
    to_drafted(store, s.id)
    assert store.approve(s.id, version=1, user="U1") is None  # v1 was shown, but v2 is current
    approved = store.approve(s.id, version=2, user="U1")
    assert approved is not None and approved.state is State.posting
    assert (approved.approved_version, approved.approved_by) == (2, "U1")
    assert store.approve(s.id, version=2, user="U1") is None
    assert store.approved_body(approved) == body_of(2)


def test_approve_needs_an_allowed_user(store: SessionStore) -> None:
    s = new(store)
    to_drafted(store, s.id)
    assert store.approve(s.id, version=1, user="U2") is None
    assert store.approve(s.id, version=1, user="U2", approvers=frozenset({"U3"})) is None
    assert store.approve(s.id, version=1, user="U3", approvers=frozenset({"U3"})) is not None


def test_approve_in_other_states_is_a_no_op(store: SessionStore) -> None:
    s = new(store)
    assert store.approve(s.id, version=0, user="U1") is None
    store.update(s.id, begin_render)
    assert store.approve(s.id, version=1, user="U1") is None
    now = store.get(s.id)
    assert now is not None and now.state is State.rendering


def test_twenty_threads_approve_one_version_exactly_once(store: SessionStore, redis_conn: redis.Redis) -> None:
    s = new(store)
    to_drafted(store, s.id)
    url = _url(redis_conn)
    barrier = threading.Barrier(20)
    results: list[Session | None] = []
    lock = threading.Lock()

    def approve() -> None:
        mine = SessionStore(connect(url, timeout=2.0), ttl_seconds=TTL)
        barrier.wait()
        result = mine.approve(s.id, version=1, user="U1")
        with lock:
            results.append(result)

    threads = [threading.Thread(target=approve) for _ in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) == 20
    assert sum(r is not None for r in results) == 1


def test_post_outcomes(store: SessionStore) -> None:
    s = new(store)
    to_drafted(store, s.id)
    store.approve(s.id, version=1, user="U1")
    failed = store.record_failed(s.id, "Jira 503")
    assert failed is not None and failed.state is State.failed and failed.error == "Jira 503"
    retried = store.retry(s.id)
    assert retried is not None and retried.state is State.posting and retried.approved_version == 1
    posted = store.record_posted(s.id, "10001", "https://jira/browse/PROJ-1?focusedCommentId=10001")
    assert posted is not None and posted.state is State.posted and posted.comment_id == "10001"
    assert store.record_posted(s.id, "10002", "x") is None
    assert store.retry(s.id) is None
    assert store.transition(s.id, set(State), State.cancelled) is None
    assert store.get(s.id) == posted


def test_a_failed_render_retries_the_same_version(store: SessionStore) -> None:
    s = new(store)
    store.update(s.id, begin_render)
    store.record_failed(s.id, "template error")
    retried = store.retry(s.id)
    assert retried is not None and retried.state is State.rendering and retried.version == 1


def test_transition_checks_the_table_and_preconditions(store: SessionStore) -> None:
    s = new(store)
    assert store.transition(s.id, {State.drafted}, State.cancelled) is None  # wrong from-state
    assert store.transition(s.id, {State.collecting}, State.posting) is None  # not in the table
    moved = store.transition(s.id, {State.collecting}, State.scope_check, pending_field=None)
    assert moved is not None and moved.state is State.scope_check
    cancelled = store.transition(s.id, {State.scope_check}, State.cancelled)
    assert cancelled is not None and cancelled.is_final


def test_update_refuses_edits_after_approval(store: SessionStore) -> None:
    s = new(store, inputs={"summary": "a"})
    to_drafted(store, s.id)
    store.approve(s.id, version=1, user="U1")
    assert store.update(s.id, lambda x: x.with_changes(inputs={"summary": "b"})) is None
    now = store.get(s.id)
    assert now is not None and now.inputs == {"summary": "a"}


def test_only_approve_binds_an_approval(store: SessionStore) -> None:
    s = new(store)
    to_drafted(store, s.id)
    with pytest.raises(ValueError, match="approve"):
        store.transition(s.id, {State.drafted}, State.posting, approved_version=1, approved_by="U2")
    with pytest.raises(ValueError, match="approve"):
        store.update(s.id, lambda x: x.with_changes(approved_by="U2"))
    now = store.get(s.id)
    assert now is not None and now.state is State.drafted


def test_update_with_expected_states(store: SessionStore) -> None:
    s = new(store)
    assert store.update(s.id, lambda x: x.with_changes(pending_field="repro"), expect_states={State.drafted}) is None
    updated = store.update(s.id, lambda x: x.with_changes(pending_field="repro"), expect_states={State.collecting})
    assert updated is not None and updated.pending_field == "repro" and updated.updated_at >= s.updated_at


def test_claim_once(store: SessionStore) -> None:
    assert store.claim_once("slack:Ev1", 60)
    assert not store.claim_once("slack:Ev1", 60)
    assert store.claim_once("slack:Ev2", 60)


def test_refuses_decoding_connections() -> None:
    with pytest.raises(ValueError, match="decode_responses"):
        SessionStore(redis.Redis(decode_responses=True))


def _url(conn: redis.Redis) -> str:
    kw = conn.get_connection_kwargs()
    return f"redis://{kw['host']}:{kw['port']}/{kw['db']}"


def test_a_lock_is_held_only_by_its_token(store: SessionStore, redis_conn: redis.Redis) -> None:
    assert store.claim_once("post:s:1", 60, token="mine")
    assert not store.claim_once("post:s:1", 60, token="theirs")
    assert store.hold("post:s:1", "mine", 120) and 60 < redis_conn.ttl("pm:claim:post:s:1") <= 120
    assert not store.hold("post:s:1", "theirs", 120)
    store.release_claim("post:s:1", token="theirs")
    assert store.claimed("post:s:1")
    store.release_claim("post:s:1", token="mine")
    assert not store.claimed("post:s:1") and not store.hold("post:s:1", "mine", 60)
