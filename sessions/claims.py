"""Claims: short-lived Redis markers that something happened, or is being done, exactly once.

Slack event ids and Jira webhook deliveries (deduplication), offers (once per ticket and thread), and
locks whose holder is named by a token (one run of a post at a time). The session store inherits them.

Every claim's name is built by one of the functions below, and every Redis key by a `Claims` method
under the store's prefix, so the whole key space can be read in one place: `<prefix>claim:<name>`
for a claim and `<prefix>seen-keys:<channel>:<thread_ts>` for the Jira keys a thread has named.

Releasing and extending a lock are single Lua scripts: the check that the caller's token still holds
the claim and the delete or expire happen in one step, so a lock that expired and was taken over by
another run is never released or extended by the run that lost it.
"""

from __future__ import annotations

import redis

#: One hand-off per session within this time.
HANDOFF_ONCE_SECONDS = 30 * 24 * 3600

_RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end
return 0
"""
_EXTEND = """
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('expire', KEYS[1], ARGV[2]) end
return 0
"""


# the names of claims


def event_claim(event_id: str) -> str:
    """A Slack event id, handled once."""
    return f"event:{event_id}"


def webhook_claim(delivery_id: str) -> str:
    """A Jira webhook delivery (its retries carry the same identifier), handled once."""
    return f"jira-webhook:{delivery_id}"


def view_claim(digest: str) -> str:
    """The signed bytes of one form submission (their sha256), handled once: a replay of them does nothing."""
    return f"view:{digest}"


def submission_claim(requester: str, ticket: str) -> str:
    """The session `requester` last submitted the form for `ticket`: the same submission again (the form said it
    could not confirm, or it was sent twice) finds that session while it is open instead of starting another."""
    return f"submission:{requester}:{ticket}"


def offer_thread_claim(thread: str) -> str:
    """One unasked offer per thread (`<channel>:<thread_ts>`)."""
    return f"offer:thread:{thread}"


def offer_ticket_claim(ticket: str) -> str:
    """One unasked offer per ticket."""
    return f"offer:ticket:{ticket}"


def ticket_checked_claim(session_id: str, ticket: str) -> str:
    """The session's ticket key was found in Jira."""
    return f"ticket-ok:{session_id}:{ticket}"


def render_lock(session_id: str, version: int) -> str:
    """Held while one run renders a version."""
    return f"render:{session_id}:{version}"


def post_lock(session_id: str, version: int) -> str:
    """Held (with a token naming the run) while one run of a post talks to Jira."""
    return f"post:{session_id}:{version}"


def post_scheduled_claim(session_id: str, version: int) -> str:
    """A post is rescheduled through RQ's scheduler: the watchdog leaves it alone meanwhile."""
    return f"post-scheduled:{session_id}:{version}"


def held_claim(lock: str) -> str:
    """Names the run that took a lease (`lock` is the lease's claim name) until it gives the lease back: a run
    named here whose lease has lapsed stopped without giving it back, its worker died (workers/leases.py)."""
    return f"held:{lock}"


def sweep_post_claim(session_id: str, version: int, dead: str | None = None) -> str:
    """The watchdog re-enqueued a post: that went stale, or (`dead`, a lease token) whose run died."""
    return f"sweep:post:{session_id}:{version}" + (f":{dead}" if dead else "")


def sweep_render_claim(session_id: str, version: int, dead: str | None = None) -> str:
    """The watchdog re-enqueued a render: that went stale, or (`dead`, a lease token) whose run died."""
    return f"sweep:render:{session_id}:{version}" + (f":{dead}" if dead else "")


def post_attempt_claim(session_id: str, version: int) -> str:
    """When the latest POST whose outcome is unknown began (epoch seconds; workers/posting.py)."""
    return f"post-attempt:{session_id}:{version}"


def post_doubt_claim(session_id: str, version: int) -> str:
    """Set when a POST was sent while an earlier one might still be stored: the comment may exist twice, so
    the worker looks for a duplicate later (workers/posting.py)."""
    return f"post-doubt:{session_id}:{version}"


def duplicate_told_claim(session_id: str, comment_id: str) -> str:
    """Set once the thread was told about a duplicate comment (deleted, or left for a person to delete)."""
    return f"duplicate-told:{session_id}:{comment_id}"


def reminder_claim(session_id: str) -> str:
    """Marks a session as reminded (never more than one reminder per session; workers/reminders.py)."""
    return f"reminded:{session_id}"


def post_waiting_claim(session_id: str, version: int) -> str:
    """Set while a session waits in `failed` for a Retry-After; the scheduled run resumes it."""
    return f"post-waiting:{session_id}:{version}"


def step_claim(scope: str, step: str) -> str:
    """Set once a step of a job's scope was done, holding its result (workers/leases.py `Steps`)."""
    return f"step:{scope}:{step}"


def draft_steps_scope(session_id: str, version: int) -> str:
    """The scope of the steps of showing one version's draft (`step_claim`)."""
    return f"draft:{session_id}:{version}"


def posted_steps_scope(session_id: str, version: int) -> str:
    """The steps of telling the thread a version was posted: the link, the offer (workers/posting.py)."""
    return f"posted:{session_id}:{version}"


def may_post_claim(session_id: str, user: str, ticket: str) -> str:
    """Set for a while once `user` was found allowed to comment on `ticket` (workers/permissions.py)."""
    return f"may-post:{session_id}:{user}:{ticket}"


def question_duty(session_id: str, version: int) -> str:
    """Owed between `drafted` and the approval question being in the thread (the watchdog covers it)."""
    return f"question:{session_id}:{version}"


def advance_duty(session_id: str) -> str:
    """Owed from the submission until the thread is started and its first step taken (handlers owe it)."""
    return f"advance:{session_id}"


def render_scheduled_claim(session_id: str) -> str:
    """Set while a render waits in RQ's scheduler after a Slack failure: the watchdog leaves it alone."""
    return f"render-scheduled:{session_id}"


def advance_scheduled_claim(session_id: str) -> str:
    """Set while starting the thread waits in RQ's scheduler after a Slack failure."""
    return f"advance-scheduled:{session_id}"


def render_count_claim(session_id: str, version: int) -> str:
    """How many times the watchdog re-enqueued one version's render."""
    return f"sweep:render-count:{session_id}:{version}"


def sweep_duty_claim(duty: str, dead: str | None = None) -> str:
    """The watchdog re-enqueued the job that settles an owed duty (`dead`: for the run, a lease token, that died)."""
    return f"sweep:{duty}" + (f":{dead}" if dead else "")


def gone_told_claim(channel: str, thread_ts: str, user: str) -> str:
    """A person who wrote in a thread whose session is gone was told so (once a while, not at every message)."""
    return f"gone-told:{channel}:{thread_ts}:{user}"


def handoff_claim(session_id: str) -> str:
    """The session was handed off to management-talk."""
    return f"handoff:{session_id}"


class Claims:
    """`claim:<name>` markers under a prefix, each with its own expiry."""

    def __init__(self, redis_conn: redis.Redis, *, prefix: str = "pm:") -> None:
        self._r = redis_conn
        self._prefix = prefix
        self._release = redis_conn.register_script(_RELEASE)
        self._extend = redis_conn.register_script(_EXTEND)

    def claim_key(self, key: str) -> str:
        """The Redis key of a claim."""
        return f"{self._prefix}claim:{key}"

    def seen_keys_key(self, channel: str, thread_ts: str) -> str:
        """The Redis set of the Jira keys named in a thread's messages (handlers/mentions.py)."""
        return f"{self._prefix}seen-keys:{channel}:{thread_ts}"

    def claim_once(self, key: str, ttl: int, *, token: str = "1") -> bool:
        """True for the first caller of a key within `ttl` seconds (Slack event_id, webhook id, offers, locks
        whose holder is named by `token`)."""
        return bool(self._r.set(self.claim_key(key), token.encode(), nx=True, ex=ttl))

    def hold(self, key: str, token: str, ttl: int) -> bool:
        """Extend a claim to `ttl` only if `token` still holds it: False when it expired or another took it."""
        return bool(self._extend(keys=[self.claim_key(key)], args=[token.encode(), ttl]))

    def release_claim(self, key: str, *, token: str | None = None) -> None:
        """Give a claim back early; with `token`, only if that holder still has it."""
        if token is None:
            self._r.delete(self.claim_key(key))
        else:
            self._release(keys=[self.claim_key(key)], args=[token.encode()])

    def claimed(self, key: str) -> bool:
        """Whether a claim (see `claim_once`) is currently held."""
        return bool(self._r.exists(self.claim_key(key)))

    # d-resilience: values kept with a claim (the start of an ambiguous POST, a step's result), and duties a
    # worker owes after a session left the in-flight states (the watchdog looks at both).

    def note(self, key: str, value: str, ttl: int) -> None:
        """Keep `value` under a claim key for `ttl` seconds, replacing any earlier value."""
        self._r.set(self.claim_key(key), value.encode(), ex=max(1, ttl))

    def noted(self, key: str) -> str | None:
        """The value kept under a claim key, or None."""
        raw = self._r.get(self.claim_key(key))
        return None if raw is None else (raw.decode() if isinstance(raw, bytes) else str(raw))

    @property
    def duties_key(self) -> str:
        """The set of duties owed by workers (e.g. `question:<session>:<version>`)."""
        return f"{self._prefix}duties"

    def owe(self, duty: str) -> None:
        """Record a duty until `settle` (the watchdog re-enqueues its job if its worker died)."""
        self._r.sadd(self.duties_key, duty)

    def settle(self, duty: str) -> None:
        """A duty was done (or is no longer owed)."""
        self._r.srem(self.duties_key, duty)

    def owes(self, duty: str) -> bool:
        """Whether one duty is still owed (one SISMEMBER, not the whole set)."""
        return bool(self._r.sismember(self.duties_key, duty))

    def duties(self) -> list[str]:
        """Every duty still owed."""
        return sorted(d.decode() if isinstance(d, bytes) else str(d) for d in self._r.smembers(self.duties_key))
