"""Sessions in Redis: atomic transitions, the exact draft bytes shown, and (inherited from sessions/records.py)
the keys, the reads, the indexes and the one read-modify-write, and (from sessions/claims.py) the claims.

The caller builds the `redis.Redis` connection and passes it in (never a global); build it with short
`socket_timeout` and `socket_connect_timeout` (see `connect`): handlers call the store before Slack's
3 s ack deadline. Keep `decode_responses` off: draft bodies are bytes.

Keys, all under `prefix` (default `pm:`):
- `session:<id>` (JSON), `thread:<channel>:<thread_ts>` (id), `ticket:<key>` (the latest session's id) and
  `draft:<id>:<version>` (request body bytes) get the store's TTL, refreshed whenever their session is
  written, so a session, its indexes and its drafts expire together;
- `inflight` (the set of sessions in rendering or posting) has no TTL: `inflight_ids` drops ids whose
  session expired;
- `claim:<name>` and `seen-keys:<channel>:<thread_ts>` each carry their own TTL (sessions/claims.py).

A new session is written by one Lua script (`start`), with its indexes and what must land with it: the claim
that makes a retried submission find it, the duty that has a worker start its thread. The script first
checks a deadline against Redis's own clock, so a write that reaches a slow Redis after the request path
gave up on it is not made: a submission is either stored and acknowledged, or leaves nothing.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable

import redis
from redis.backoff import ExponentialBackoff
from redis.client import Pipeline
from redis.retry import Retry

from sessions.records import Mutate, SessionRecords, body_digest
from sessions.session import Draft, Session, State, begin_render, may_publish
from sessions.start_script import START_SCRIPT, ScriptWrites, ServerClock, Started, StoreLateError

#: Sessions live this long after their last write (DESIGN: a post-mortem is written within days).
DEFAULT_TTL_SECONDS = 14 * 24 * 3600

#: Short timeouts for connections made for the store: a slow Redis must not delay an ack past 3 s.
DEFAULT_TIMEOUT_SECONDS = 0.5


class SessionExistsError(ValueError):
    """`create` was given an id that is already stored."""


def connect(url: str, *, timeout: float = DEFAULT_TIMEOUT_SECONDS, retries: int = 2) -> redis.Redis:
    """A connection with the short timeouts the store expects, retrying a dropped connection `retries`
    times within a fraction of a second (redis-py's default, 10 retries, can spend seconds per command
    while Redis is down: too long for Slack's 3 s)."""
    retry = Retry(ExponentialBackoff(cap=0.1, base=0.02), retries)
    return redis.Redis.from_url(url, socket_timeout=timeout, socket_connect_timeout=timeout, retry=retry)


class SessionStore(SessionRecords):
    """All session state in Redis, so any bot replica or worker can continue a session after a restart."""

    def __init__(
        self,
        redis_conn: redis.Redis,
        *,
        prefix: str = "pm:",
        ttl_seconds: int = DEFAULT_TTL_SECONDS,
        clock: Callable[[], float] = time.time,
    ) -> None:
        if redis_conn.get_connection_kwargs().get("decode_responses"):
            raise ValueError("SessionStore needs a connection with decode_responses=False (bodies are bytes)")
        super().__init__(redis_conn, prefix=prefix, ttl_seconds=ttl_seconds, clock=clock)
        self._start_script = redis_conn.register_script(START_SCRIPT)
        self._server_clock = ServerClock(redis_conn)

    # writes

    def create(self, session: Session) -> Session:
        """Store a new session (and its thread index when it already has a thread), with its indexes, at once."""
        started = self.start(session)
        assert started.outcome == "created"
        return session

    def start(
        self,
        session: Session,
        *,
        once: str | None = None,
        window: int = 0,
        replay: str | None = None,
        duty: str | None = None,
        deadline: float | None = None,
    ) -> Started:
        """Store a new session, its indexes and what lands with it, in one step or not at all.

        `once` (a claim name, kept `window` seconds) makes a later call with the same name find this session
        while it is open, instead of storing a second one; `replay` (a claim name, kept as long) makes the same
        request again do nothing; `duty` is owed from the same moment (sessions/claims.py). `deadline` (epoch
        seconds, our clock): past it by Redis's clock the write is not made, and StoreLateError is raised.
        Raises SessionExistsError when the id is taken."""
        if (once is not None or replay is not None) and window <= 0:
            raise ValueError("a claim kept with a session needs a window of at least a second")
        writes = ScriptWrites()
        if session.thread_ts is not None:
            writes.set(self.thread_key(session.channel, session.thread_ts), session.id, ex=self._ttl)
        writes.set(self.ticket_key(session.ticket), session.id, ex=self._ttl)
        self.users.written(writes, None, session)
        if once is not None:
            writes.set(self.claim_key(once), session.id, ex=window)
        if replay is not None:
            writes.set(self.claim_key(replay), session.id, ex=window)
        if duty is not None:
            writes.sadd(self.duties_key, duty)
        due = 0 if deadline is None else max(1, int(self._server_clock.on_server(deadline) * 1e6))
        answer = self._start_script(
            keys=[self.session_key(session.id)],
            args=[
                due,
                session.model_dump_json(),
                self._ttl,
                self.session_key(""),
                self.claim_key(once) if once is not None else "",
                self.claim_key(replay) if replay is not None else "",
                *writes.words(),
            ],
        )
        outcome = answer[0].decode() if isinstance(answer[0], bytes) else str(answer[0])
        if outcome == "late":
            raise StoreLateError(f"session {session.id}: reached the store after its deadline; not stored")
        if outcome == "replay":
            before = answer[1].decode() if isinstance(answer[1], bytes) else str(answer[1])
            if before != session.id:
                return Started("replay", None)
            return Started("created", session)  # this same call, sent again after a timeout
        if outcome == "exists":
            raise SessionExistsError(f"session {session.id} already exists")
        if outcome == "found":
            found = Session.model_validate_json(answer[1])
            if found.id != session.id:
                return Started("found", found)
        return Started("created", session)  # made now, or by this same call sent again after a timeout

    def update(
        self, session_id: str, mutate: Mutate, *, expect_states: Iterable[State] | None = None
    ) -> Session | None:
        """Atomic read-modify-write (WATCH/MULTI, retried); None when absent, not in `expect_states`,
        refused by `mutate`, or not a valid move (DESIGN §3: a no-op, never a second side effect).
        Raises ValueError if `mutate` touches the approval: only `approve` binds one."""
        return self._update(session_id, mutate, expect_states)

    def transition(
        self, session_id: str, from_states: Iterable[State], to_state: State, **changes: object
    ) -> Session | None:
        """Move from one of `from_states` to `to_state` with some field changes; None when not allowed
        (staying in the same state is not a transition)."""
        sources = frozenset(from_states) - {to_state}
        return self._update(session_id, lambda s: s.with_changes(state=to_state, **changes), sources)

    def bind_thread(self, session_id: str, channel: str, thread_ts: str) -> Session | None:
        """Record the parent message's ts and index the thread; None if bound to another thread already."""

        def mutate(s: Session) -> Session | None:
            if s.channel != channel or s.thread_ts not in (None, thread_ts):
                return None
            return s.with_changes(thread_ts=thread_ts)

        return self._update(session_id, mutate, None)

    def save_draft(self, session_id: str, version: int, body: bytes, sha256: str) -> Session | None:
        """Keep the exact request body of the version being rendered and its digests (ADF doc, body)."""
        draft = Draft(version=version, sha256=sha256, body_sha256=body_digest(body))

        def mutate(s: Session) -> Session | None:
            if s.version != version:
                return None
            return s.with_changes(drafts=(*(d for d in s.drafts if d.version != version), draft))

        def extra(pipe: Pipeline, _: Session) -> None:
            pipe.set(self.draft_key(session_id, version), body, ex=self._ttl)

        return self._update(session_id, mutate, {State.rendering}, extra)

    def mark_drafted(
        self, session_id: str, *, version: int, shown_at: float, message_ts: str | None = None
    ) -> Session | None:
        """rendering(vN) → drafted(vN) once the draft is in the thread: only a shown draft can be approved."""

        def mutate(s: Session) -> Session | None:
            draft = s.draft(version)
            if s.version != version or draft is None:
                return None
            shown = draft.model_copy(update={"shown_at": shown_at, "message_ts": message_ts})
            drafts = tuple(shown if d.version == version else d for d in s.drafts)
            return s.with_changes(state=State.drafted, drafts=drafts)

        return self._update(session_id, mutate, {State.rendering})

    def approve(
        self,
        session_id: str,
        *,
        version: int,
        user: str,
        approvers: frozenset[str] = frozenset(),
        reviewer: bool = False,
    ) -> Session | None:
        """drafted(vN) → posting bound to vN, once; None for another version, a second approval, or a user
        who is neither the requester nor in `approvers` (with `reviewer`, an approver other than the requester)."""

        def mutate(s: Session) -> Session | None:
            if s.version != version or not may_publish(s, user, approvers, reviewer=reviewer):
                return None
            return s.with_changes(state=State.posting, approved_version=version, approved_by=user, error=None)

        return self._update(session_id, mutate, {State.drafted}, binds_approval=True)

    def record_posted(self, session_id: str, comment_id: str, url: str) -> Session | None:
        """posting → posted with the Jira comment; None if it was not posting (a duplicate job)."""
        return self.transition(
            session_id, {State.posting}, State.posted, comment_id=comment_id, comment_url=url, error=None
        )

    def record_failed(self, session_id: str, error: str) -> Session | None:
        """rendering / posting → failed with a reason the thread can show."""
        return self.transition(session_id, {State.rendering, State.posting}, State.failed, error=error)

    def retry(self, session_id: str) -> Session | None:
        """failed → posting again when a post failed (same approval), else → rendering the same version."""

        def mutate(s: Session) -> Session | None:
            if s.approved_version is not None:
                return s.with_changes(state=State.posting, error=None)
            return begin_render(s)

        return self._update(session_id, mutate, {State.failed})
