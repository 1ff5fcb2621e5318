"""The stored records of sessions (sessions/store.py `SessionStore` builds on them): their keys, their reads, and
the one read-modify-write every named transition runs, which keeps the indexes and the drafts' lifetime in step.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Sequence

import redis
from redis.client import Pipeline

from sessions.claims import Claims
from sessions.session import Session, State, rebinds_approval, valid_move
from sessions.user_index import UserIndex

#: A change to a session: gets the current value, returns the new one or None to leave it alone.
#: It may run more than once (optimistic retries), so it must not have side effects.
Mutate = Callable[[Session], Session | None]

#: Attempts of one read-modify-write before giving up; 20 racing writers settle in far fewer.
MAX_RETRIES = 100

#: States in which a worker owes the session work; a watchdog re-enqueues it if the worker died.
INFLIGHT_STATES = frozenset({State.rendering, State.posting})

_Extra = Callable[[Pipeline, Session], None]


class StoreConflictError(RuntimeError):
    """A read-modify-write kept losing races; retry the whole operation later."""


def body_digest(body: bytes) -> str:
    """The hex sha256 of request body bytes, as stored per draft."""
    return hashlib.sha256(body).hexdigest()


class SessionRecords(Claims):
    """Sessions' keys and reads, and the atomic update; the claims are inherited (sessions/claims.py)."""

    def __init__(self, redis_conn: redis.Redis, *, prefix: str, ttl_seconds: int, clock: Callable[[], float]) -> None:
        super().__init__(redis_conn, prefix=prefix)
        self._ttl = ttl_seconds
        self._clock = clock
        #: Per-person, open and awaiting-approval indexes, written with every session write (f-home).
        self.users = UserIndex(redis_conn, prefix=prefix, ttl_seconds=ttl_seconds, load=self.get_many, clock=clock)

    # keys

    @property
    def ttl(self) -> int:
        """How long a session is kept, and with it every mark about it (steps done, attempts, notices)."""
        return self._ttl

    def session_key(self, session_id: str) -> str:
        """The key of a session's JSON."""
        return f"{self._prefix}session:{session_id}"

    def thread_key(self, channel: str, thread_ts: str) -> str:
        """The key of the (channel, thread_ts) → id index."""
        return f"{self._prefix}thread:{channel}:{thread_ts}"

    def ticket_key(self, ticket: str) -> str:
        """The key of the ticket → latest session id index (offers stop once a session exists)."""
        return f"{self._prefix}ticket:{ticket}"

    @property
    def inflight_key(self) -> str:
        """The set of sessions a worker owes work to (rendering, posting): what the watchdog looks at."""
        return f"{self._prefix}inflight"

    def draft_key(self, session_id: str, version: int) -> str:
        """The key of one version's request body bytes."""
        return f"{self._prefix}draft:{session_id}:{version}"

    # reads

    def get(self, session_id: str) -> Session | None:
        """The stored session, or None when unknown or expired."""
        raw = self._r.get(self.session_key(session_id))
        return None if raw is None else Session.model_validate_json(raw)

    def get_many(self, session_ids: Sequence[str]) -> list[Session | None]:
        """Several stored sessions in one round trip (MGET), in order; None where unknown or expired."""
        if not session_ids:
            return []
        raws = self._r.mget([self.session_key(i) for i in session_ids])
        return [None if raw is None else Session.model_validate_json(raw) for raw in raws]

    def find_by_thread(self, channel: str, thread_ts: str) -> Session | None:
        """The session whose parent message is this thread, if any."""
        raw = self._r.get(self.thread_key(channel, thread_ts))
        if raw is None:
            return None
        session = self.get(raw.decode() if isinstance(raw, bytes) else str(raw))
        if session is None or session.channel != channel or session.thread_ts != thread_ts:
            return None
        return session

    def inflight_ids(self) -> list[str]:
        """Sessions in rendering or posting; ids whose session expired are dropped from the index."""
        ids = sorted(i.decode() if isinstance(i, bytes) else str(i) for i in self._r.smembers(self.inflight_key))
        gone = [i for i in ids if not self._r.exists(self.session_key(i))]
        if gone:
            self._r.srem(self.inflight_key, *gone)
        return [i for i in ids if i not in gone]

    def find_by_ticket(self, ticket: str) -> Session | None:
        """The latest session started for a ticket, whatever its state."""
        raw = self._r.get(self.ticket_key(ticket))
        if raw is None:
            return None
        session = self.get(raw.decode() if isinstance(raw, bytes) else str(raw))
        return session if session is not None and session.ticket == ticket else None

    def open_for_ticket(self, ticket: str) -> Session | None:
        """The latest session started for a ticket while it is still open (not posted, cancelled or expired)."""
        session = self.find_by_ticket(ticket)
        return session if session is not None and not session.is_final else None

    def draft_body(self, session_id: str, version: int) -> bytes | None:
        """The request body bytes shown for a version."""
        raw = self._r.get(self.draft_key(session_id, version))
        if raw is None:
            return None
        return raw if isinstance(raw, bytes) else str(raw).encode()

    def approved_body(self, session: Session) -> bytes | None:
        """The bytes to post: the approved version's body, only if it still matches the digest shown."""
        if session.approved_version is None:
            return None
        draft = session.draft(session.approved_version)
        body = self.draft_body(session.id, session.approved_version)
        if draft is None or body is None or body_digest(body) != draft.body_sha256:
            return None
        return body

    # the one read-modify-write

    def _update(
        self,
        session_id: str,
        mutate: Mutate,
        expect_states: Iterable[State] | None,
        extra: _Extra | None = None,
        *,
        binds_approval: bool = False,
    ) -> Session | None:
        key = self.session_key(session_id)
        states = None if expect_states is None else frozenset(expect_states)
        for _ in range(MAX_RETRIES):
            with self._r.pipeline(transaction=True) as pipe:
                try:
                    pipe.watch(key)
                    raw = pipe.get(key)
                    if raw is None:
                        return None
                    before = Session.model_validate_json(raw)
                    if states is not None and before.state not in states:
                        return None
                    changed = mutate(before)
                    if changed is None:
                        return None
                    after = changed.with_changes(updated_at=self._clock())
                    rebinds = binds_approval or rebinds_approval(before, after)  # an amendment's own (session.py)
                    if not rebinds and _approval(after) != _approval(before):
                        raise ValueError("only approve() binds an approval (approved_version, approved_by)")
                    if not valid_move(before, after):
                        return None
                    pipe.multi()
                    pipe.set(key, after.model_dump_json(), ex=self._ttl)
                    self._refresh(pipe, after)
                    self.users.written(pipe, before, after)
                    if extra is not None:
                        extra(pipe, after)
                    pipe.execute()
                    return after
                except redis.WatchError:
                    continue
        raise StoreConflictError(f"session {session_id}: gave up after {MAX_RETRIES} conflicting writes")

    def _refresh(self, pipe: Pipeline, session: Session) -> None:
        pipe.set(self.ticket_key(session.ticket), session.id, ex=self._ttl)
        if session.state in INFLIGHT_STATES:
            pipe.sadd(self.inflight_key, session.id)
        else:
            pipe.srem(self.inflight_key, session.id)
        if session.thread_ts is not None:
            pipe.set(self.thread_key(session.channel, session.thread_ts), session.id, ex=self._ttl)
        for draft in session.drafts:
            pipe.expire(self.draft_key(session.id, draft.version), self._ttl)


def _approval(session: Session) -> tuple[int | None, str | None]:
    return session.approved_version, session.approved_by
