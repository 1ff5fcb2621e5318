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

#: How long a render is locked: longer than a render takes; a dead worker's lock frees itself.
RENDER_LOCK_SECONDS = 300
#: How long a ticket key known to exist in Jira is not checked again (a session's lifetime).
TICKET_CHECKED_SECONDS = 14 * 24 * 3600
#: The watchdog re-runs a dead render once per version within this time (a session's lifetime).
SWEEP_RENDER_SECONDS = 14 * 24 * 3600
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


def sweep_post_claim(session_id: str, version: int) -> str:
    """The watchdog re-enqueued a post."""
    return f"sweep:post:{session_id}:{version}"


def sweep_render_claim(session_id: str, version: int) -> str:
    """The watchdog re-enqueued a render (once per version)."""
    return f"sweep:render:{session_id}:{version}"


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
