"""Claims: short-lived Redis markers that something happened, or is being done, exactly once.

Slack event ids and Jira webhook deliveries (deduplication), offers (once per ticket and thread), and
locks whose holder is named by a token (one run of a post at a time). The session store inherits them.
"""

from __future__ import annotations

import redis


class Claims:
    """`claim:<key>` markers under a prefix, each with its own expiry."""

    def __init__(self, redis_conn: redis.Redis, *, prefix: str = "pm:") -> None:
        self._r = redis_conn
        self._prefix = prefix

    def claim_key(self, key: str) -> str:
        """The Redis key of a claim."""
        return f"{self._prefix}claim:{key}"

    def claim_once(self, key: str, ttl: int, *, token: str = "1") -> bool:
        """True for the first caller of a key within `ttl` seconds (Slack event_id, webhook id, offers, locks
        whose holder is named by `token`)."""
        return bool(self._r.set(self.claim_key(key), token.encode(), nx=True, ex=ttl))

    def hold(self, key: str, token: str, ttl: int) -> bool:
        """Extend a claim to `ttl` only if `token` still holds it: False when it expired or another took it."""
        name = self.claim_key(key)
        with self._r.pipeline(transaction=True) as pipe:
            try:
                pipe.watch(name)
                if pipe.get(name) != token.encode():
                    return False
                pipe.multi()
                pipe.expire(name, ttl)
                pipe.execute()
                return True
            except redis.WatchError:
                return False

    def release_claim(self, key: str, *, token: str | None = None) -> None:
        """Give a claim back early; with `token`, only if that holder still has it."""
        name = self.claim_key(key)
        if token is None or self._r.get(name) == token.encode():
            self._r.delete(name)

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

    def duties(self) -> list[str]:
        """Every duty still owed."""
        return sorted(d.decode() if isinstance(d, bytes) else str(d) for d in self._r.smembers(self.duties_key))
