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
