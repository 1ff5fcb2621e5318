"""The store budget bounds the work, not only the wait: through a Redis that answers slowly, a submission is
stored and acknowledged, or it leaves nothing; and a second submission of the same ticket by the same person
finds the first session instead of starting another.

The slow Redis is a TCP proxy on loopback in front of the test database, holding every request it forwards
for a set time (the answers come back at once).
"""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlparse

import pytest
import redis

from emulators.driver import modal_values
from handlers import form
from handlers.deps import Deps
from handlers.storecalls import StoreCalls, StoreUnavailable
from sessions.session import Session
from sessions.start_script import StoreLateError
from sessions.store import SessionStore, connect
from tests.handlers.fakes import FakeQueue
from tests.helpers import TEST_REDIS_URL

pytestmark = pytest.mark.unit

BUDGET = 1.5


class SlowRedis:
    """A loopback proxy to the test Redis that holds each chunk a client sends for `delay` seconds."""

    def __init__(self) -> None:
        target = urlparse(TEST_REDIS_URL)
        self.target = (target.hostname or "127.0.0.1", target.port or 6379)
        self.database = (target.path or "/0").lstrip("/") or "0"
        self.delay = 0.0
        self._listener = socket.create_server(("127.0.0.1", 0))
        self._closing = threading.Event()
        self._sockets: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True, name="slow-redis").start()

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self._listener.getsockname()[1]}/{self.database}"

    def _accept(self) -> None:
        while not self._closing.is_set():
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            server = socket.create_connection(self.target)
            self._sockets += [client, server]
            threading.Thread(target=self._pipe, args=(client, server, True), daemon=True).start()
            threading.Thread(target=self._pipe, args=(server, client, False), daemon=True).start()

    def _pipe(self, source: socket.socket, sink: socket.socket, held: bool) -> None:
        try:
            while chunk := source.recv(65536):
                if held and self.delay:
                    self._closing.wait(self.delay)  # the fault injected: a Redis that answers late
                sink.sendall(chunk)
        except OSError:
            pass
        finally:
            for end in (source, sink):
                end.close()

    def close(self) -> None:
        self._closing.set()
        self._listener.close()
        for end in self._sockets:
            end.close()


@pytest.fixture
def slow() -> Iterator[SlowRedis]:
    proxy = SlowRedis()
    yield proxy
    proxy.close()


@pytest.fixture
def direct(redis_conn: redis.Redis) -> SessionStore:
    return SessionStore(redis_conn)


def view(ticket: str, *, channel: str = "C1") -> dict[str, Any]:
    return {
        "private_metadata": json.dumps({"channel": channel, "lang": "en"}),
        "state": {"values": modal_values({"ticket": ticket, "summary": "Reads returned stale pages."})},
    }


def through(slow: SlowRedis, queue: FakeQueue) -> Deps:
    """What the listeners get in `serve`: a store on a connection with the short timeouts of the request path."""
    return Deps(store=SessionStore(connect(slow.url)), queue=queue)


def sessions_in(conn: redis.Redis) -> list[bytes]:
    return sorted(conn.scan_iter(match="pm:session:*"))


def submit(calls: StoreCalls, deps: Deps, ticket: str, digest: str) -> form.Accepted:
    """As `on_submit` does: the store's answer within the budget, or StoreUnavailable."""

    async def go() -> form.Accepted:
        return await calls.commit(form.accept, deps, digest=digest, user="U1", view=view(ticket))

    return asyncio.run(go())


def settle(calls: StoreCalls) -> None:
    """Wait until every store call the listener gave up on has finished its work, whatever it did."""
    calls._pool.shutdown(wait=True)


def test_a_commit_that_reaches_a_slow_store_after_the_answer_leaves_nothing(
    slow: SlowRedis, redis_conn: redis.Redis, direct: SessionStore
) -> None:
    queue = FakeQueue()
    deps = through(slow, queue)
    calls = StoreCalls(BUDGET)
    assert submit(calls, deps, "WARM-1", "d0").session_id  # a quick Redis first: the script and the clock known
    slow.delay = 1.0  # now each request reaches Redis a second late: past the commit's deadline
    started = time.monotonic()
    with pytest.raises(StoreUnavailable):
        submit(calls, deps, "SLOW-1", "d1")
    assert time.monotonic() - started < BUDGET + 0.5  # the answer did not wait for the store
    settle(calls)
    assert direct.find_by_ticket("SLOW-1") is None  # the write arrived late, and was not made
    warm = direct.find_by_ticket("WARM-1")
    assert warm is not None
    assert sessions_in(redis_conn) == [direct.session_key(warm.id).encode()]  # and no duty, claim or index of it
    assert direct.duties() == [f"advance:{warm.id}"]
    assert not direct.claimed("submission:U1:SLOW-1") and not direct.claimed("view:d1")
    slow.delay = 0.0
    retried = submit(StoreCalls(BUDGET), deps, "SLOW-1", "d2")  # as the form asked: submitted again
    assert retried.session_id and not retried.found and direct.find_by_ticket("SLOW-1") is not None


def test_a_slow_store_within_the_budget_stores_once_and_a_second_submission_finds_it(
    slow: SlowRedis, redis_conn: redis.Redis, direct: SessionStore
) -> None:
    queue = FakeQueue()
    deps = through(slow, queue)
    assert submit(StoreCalls(BUDGET), deps, "WARM-2", "w").session_id
    slow.delay = 0.35  # each request a third of a second late: one round trip for the whole submission
    first = submit(StoreCalls(BUDGET), deps, "SLOW-2", "a")
    assert first.session_id and not first.found
    again = submit(StoreCalls(BUDGET), deps, "SLOW-2", "b")  # new bytes, same person and ticket
    assert again == form.Accepted(session_id=first.session_id, found=True, ticket="SLOW-2")
    replay = submit(StoreCalls(BUDGET), deps, "SLOW-2", "a")  # the very same bytes again
    assert replay.session_id is None and replay.errors is None
    assert len(sessions_in(redis_conn)) == 2  # WARM-2 and SLOW-2, one each
    form.follow_up(deps, first, user="U1")
    form.follow_up(deps, again, user="U1")
    assert [c.name for c in queue.calls] == ["workers.jobs.advance", "workers.jobs.perform"]
    assert queue.effects() == [
        {
            "kind": "ephemeral",
            "key": "submission_found",
            "params": {"ticket": "SLOW-2"},
            "user": "U1",
            "version": None,
        }
    ]


def test_a_second_submission_after_the_first_ended_starts_a_new_session(direct: SessionStore) -> None:
    deps = Deps(store=direct, queue=FakeQueue())
    first = form.accept(deps, user="U1", view=view("PROJ-9"), digest="x")
    assert first.session_id is not None
    assert direct.update(first.session_id, lambda s: s.with_changes(state="cancelled")) is not None
    second = form.accept(deps, user="U1", view=view("PROJ-9"), digest="y")
    assert second.session_id not in (None, first.session_id) and not second.found
    other = form.accept(deps, user="U2", view=view("PROJ-9"), digest="z")  # someone else: their own session
    assert other.session_id not in (None, second.session_id)


def test_a_write_past_its_deadline_is_not_made(direct: SessionStore, redis_conn: redis.Redis) -> None:
    session = Session(ticket="PROJ-1", requester="U1", channel="C1")
    with pytest.raises(StoreLateError):
        direct.start(session, once="submission:U1:PROJ-1", window=60, duty="advance:x", deadline=time.time() - 1)
    assert redis_conn.keys("*") == []
    assert direct.start(session, deadline=time.time() + 5).outcome == "created"


def test_the_same_write_sent_twice_after_a_timeout_is_one_session(direct: SessionStore) -> None:
    session = Session(ticket="PROJ-1", requester="U1", channel="C1")
    once = {"once": "submission:U1:PROJ-1", "window": 60, "replay": "view:abc"}
    assert direct.start(session, **once).outcome == "created"  # type: ignore[arg-type]
    assert direct.start(session, **once).outcome == "created"  # type: ignore[arg-type]
    assert direct.get(session.id) == session
