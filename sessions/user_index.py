"""The small indexes that let a person find their sessions: per requester, the open ones, the drafts awaiting
approval, and which Home tabs are due for a refresh.

The session store calls `written` inside every write (the same MULTI), so the indexes never disagree with
the sessions. Sessions written before these indexes existed join them at their next write; until then they
are simply not listed (nothing breaks).

Keys (`prefix` defaults to `pm:`): `user:<id>` (sorted set: session id → created_at), `open` (sorted set:
session id → updated_at, for the reminder sweep), `awaiting` (sorted set: drafted session ids →
updated_at), `home:due` (sorted set: user id → when their Home view is due), `home:recent:<user>`
(a publish happened: the next waits).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Protocol

import redis

from sessions.session import Session, State

#: The Home tab of every configured approver (POSTMORTEM_APPROVERS); the worker expands it.
APPROVERS = "*approvers"

#: A burst of one person's changes becomes one Home refresh this many seconds after the first change.
HOME_COALESCE_SECONDS = 3.0

#: At most this many of a person's sessions are listed (the newest).
MAX_LISTED = 20

#: Loads sessions by id in one round trip, in order (SessionStore.get_many).
Load = Callable[[Sequence[str]], list[Session | None]]


class Writes(Protocol):
    """The writes an index makes: a Redis pipeline's, or the store's writes recorded for one script."""

    def zadd(self, name: str, mapping: dict[str, float], *, lt: bool = False) -> object: ...

    def zrem(self, name: str, *values: str) -> object: ...

    def expire(self, name: str, time: int) -> object: ...


def _text(value: object) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


class UserIndex:
    """Who started which session, which are open or awaiting approval, and whose Home is due."""

    def __init__(
        self,
        redis_conn: redis.Redis,
        *,
        prefix: str,
        ttl_seconds: int,
        load: Load,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._r, self._prefix, self._ttl, self._load, self._clock = redis_conn, prefix, ttl_seconds, load, clock
        #: The coalescing window of Home publishes (tests shorten it).
        self.coalesce_seconds = HOME_COALESCE_SECONDS

    def user_key(self, user: str) -> str:
        return f"{self._prefix}user:{user}"

    @property
    def open_key(self) -> str:
        return f"{self._prefix}open"

    @property
    def awaiting_key(self) -> str:
        return f"{self._prefix}awaiting"

    @property
    def due_key(self) -> str:
        return f"{self._prefix}home:due"

    # writes (inside the store's transaction)

    def written(self, pipe: Writes, before: Session | None, after: Session) -> None:
        """Index a session as just written; a change of state or version makes the Home views due."""
        user_key = self.user_key(after.requester)
        pipe.zadd(user_key, {after.id: after.created_at})
        pipe.expire(user_key, self._ttl)
        if after.is_final:
            pipe.zrem(self.open_key, after.id)
        else:
            pipe.zadd(self.open_key, {after.id: after.updated_at})
        if after.state is State.drafted:
            pipe.zadd(self.awaiting_key, {after.id: after.updated_at})
        else:
            pipe.zrem(self.awaiting_key, after.id)
        if before is None or (before.state, before.version) != (after.state, after.version):
            self.mark_due(pipe, after.requester, delay=self.coalesce_seconds)
            if (before is not None and before.state is State.drafted) or after.state is State.drafted:
                self.mark_due(pipe, APPROVERS, delay=self.coalesce_seconds)

    def mark_due(self, pipe: Writes, user: str, *, delay: float) -> None:
        """Make a Home view due in `delay` seconds, unless it is due sooner already (this is the coalescing)."""
        pipe.zadd(self.due_key, {user: self._clock() + delay}, lt=True)

    def request_home(self, user: str) -> None:
        """The person opened the Home tab: publish it as soon as the coalescing allows."""
        self.mark_due(self._r, user, delay=0)

    # reads

    def session_ids(self, user: str, limit: int = MAX_LISTED) -> list[str]:
        """A person's session ids, newest first."""
        return [_text(i) for i in self._r.zrevrange(self.user_key(user), 0, max(0, limit - 1))]

    def sessions(self, user: str, limit: int = MAX_LISTED) -> list[Session]:
        """A person's stored sessions, newest first; ids whose session expired are dropped from the index."""
        found: list[Session] = []
        gone: list[str] = []
        ids = self.session_ids(user, limit + 10)
        for session_id, session in zip(ids, self._load(ids), strict=True):
            if session is None or session.requester != user:
                gone.append(session_id)
            elif len(found) < limit:
                found.append(session)
        if gone:
            self._r.zrem(self.user_key(user), *gone)
        return found

    def awaiting(self, limit: int = MAX_LISTED) -> list[Session]:
        """Drafts awaiting approval, newest first (for the approvers' Home)."""
        ids = [_text(i) for i in self._r.zrevrange(self.awaiting_key, 0, max(0, limit - 1))]
        found = [s for s in self._load(ids) if s is not None and s.state is State.drafted]
        stale = set(ids) - {s.id for s in found}
        if stale:
            self._r.zrem(self.awaiting_key, *stale)
        return found

    def idle_since(self, cutoff: float, limit: int = 500) -> list[str]:
        """Open sessions whose last write is at or before `cutoff`, oldest first."""
        return [_text(i) for i in self._r.zrangebyscore(self.open_key, "-inf", cutoff, start=0, num=limit)]

    def forget_open(self, session_id: str) -> None:
        """Drop a session from the open index (it ended, or its record expired)."""
        self._r.zrem(self.open_key, session_id)

    def take_due(self, limit: int = 100) -> list[str]:
        """The users whose Home view is due now; each is taken by exactly one caller (ZREM decides)."""
        due = [_text(u) for u in self._r.zrangebyscore(self.due_key, "-inf", self._clock(), start=0, num=limit)]
        return [u for u in due if self._r.zrem(self.due_key, u)]

    def may_publish(self, user: str) -> bool:
        """Whether a Home publish for `user` may happen now (at most one per coalescing window); when not,
        the user is made due again for when it may."""
        key = f"{self._prefix}home:recent:{user}"
        if self._r.set(key, b"1", nx=True, px=max(1, int(self.coalesce_seconds * 1000))):
            return True
        wait_ms = self._r.pttl(key)
        self.mark_due(self._r, user, delay=max(wait_ms, 1) / 1000)
        return False
