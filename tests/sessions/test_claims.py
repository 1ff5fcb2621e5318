"""Claims and token locks on a real Redis: a lock another run took over is never released or extended."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import redis

from handlers import mentions
from handlers.deps import Deps
from sessions import claims
from sessions.claims import Claims
from sessions.store import SessionStore
from tests.handlers.fakes import FakeQueue

pytestmark = pytest.mark.unit

LOCK = claims.post_lock("s1", 1)


class RacingRedis(redis.Redis):
    """A connection after whose next command on the lock (once armed) another run takes the lock over: the
    gap a check-then-act release or extend would leave open between its read and its write."""

    takeover: Callable[[], None] | None = None

    def execute_command(self, *args: Any, **options: Any) -> Any:
        result = super().execute_command(*args, **options)  # type: ignore[no-untyped-call]
        if self.takeover is not None and args[0] in ("GET", "EVALSHA", "EVAL", "WATCH"):
            takeover, self.takeover = self.takeover, None
            takeover()
        return result


@pytest.fixture
def racing(redis_conn: redis.Redis) -> RacingRedis:
    return RacingRedis(connection_pool=redis_conn.connection_pool)


def taken_over_by_another_run(other: redis.Redis, name: str) -> Callable[[], None]:
    """Our lock expired and another run took it (with its own token and ttl)."""

    def takeover() -> None:
        other.delete(name)
        other.set(name, b"theirs", ex=30)

    return takeover


def test_release_never_deletes_a_lock_another_run_took_over(racing: RacingRedis, redis_conn: redis.Redis) -> None:
    mine = Claims(racing)
    assert mine.claim_once(LOCK, 60, token="mine")
    racing.takeover = taken_over_by_another_run(redis_conn, mine.claim_key(LOCK))
    mine.release_claim(LOCK, token="mine")
    assert redis_conn.get(mine.claim_key(LOCK)) == b"theirs"


def test_extend_never_extends_a_lock_another_run_took_over(racing: RacingRedis, redis_conn: redis.Redis) -> None:
    mine = Claims(racing)
    assert mine.claim_once(LOCK, 60, token="mine")
    racing.takeover = taken_over_by_another_run(redis_conn, mine.claim_key(LOCK))
    mine.hold(LOCK, "mine", 600)  # extended, then lost: fine; what matters is the other run's lock
    assert redis_conn.get(mine.claim_key(LOCK)) == b"theirs" and redis_conn.ttl(mine.claim_key(LOCK)) <= 30
    assert not mine.hold(LOCK, "mine", 600) and redis_conn.ttl(mine.claim_key(LOCK)) <= 30


def test_a_lock_taken_over_after_expiry_is_neither_released_nor_extended(redis_conn: redis.Redis) -> None:
    mine, theirs = Claims(redis_conn), Claims(redis_conn)
    assert mine.claim_once(LOCK, 60, token="mine")
    redis_conn.delete(mine.claim_key(LOCK))  # expired during a slow call
    assert theirs.claim_once(LOCK, 30, token="theirs")
    assert not mine.hold(LOCK, "mine", 600)
    mine.release_claim(LOCK, token="mine")
    assert redis_conn.get(mine.claim_key(LOCK)) == b"theirs" and 0 < redis_conn.ttl(mine.claim_key(LOCK)) <= 30
    assert theirs.hold(LOCK, "theirs", 600) and redis_conn.ttl(mine.claim_key(LOCK)) > 30
    theirs.release_claim(LOCK, token="theirs")
    assert not theirs.claimed(LOCK)


def test_every_key_goes_through_the_prefix(redis_conn: redis.Redis) -> None:
    store = SessionStore(redis_conn, prefix="other:")
    deps = Deps(store=store, queue=FakeQueue(), redis=redis_conn)
    mentions.message(
        deps,
        channel="C1",
        channel_type="channel",
        user="U1",
        text="fixed in #12 for PROJ-1",
        ts="100.1",
        thread_ts=None,
        bot_user_id="UBOT",
    )
    mentions.mention(
        deps,
        channel="C1",
        user="U1",
        text="<@UBOT> write the post-mortem",
        ts="100.2",
        thread_ts="100.1",
        event_id="Ev1",
    )
    keys = sorted(k.decode() if isinstance(k, bytes) else k for k in redis_conn.keys("*"))
    assert "other:seen-keys:C1:100.1" in keys and f"other:claim:{claims.event_claim('Ev1')}" in keys
    assert all(k.startswith("other:") for k in keys), keys


def test_claim_names_are_distinct_per_purpose() -> None:
    names = [
        claims.event_claim("x"),
        claims.webhook_claim("x"),
        claims.offer_thread_claim("x"),
        claims.offer_ticket_claim("x"),
        claims.ticket_checked_claim("x", "1"),
        claims.render_lock("x", 1),
        claims.post_lock("x", 1),
        claims.post_scheduled_claim("x", 1),
        claims.sweep_post_claim("x", 1),
        claims.sweep_render_claim("x", 1),
        claims.handoff_claim("x"),
    ]
    assert len(set(names)) == len(names)
