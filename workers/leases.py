"""Short locks kept alive by a heartbeat, and steps done once: a dead worker's work is free again in seconds.

A `Lease` is a claim with a few seconds' expiry that a background thread renews while the job runs; when
the worker dies (SIGKILL, OOM, a lost machine) the renewals stop and the claim lapses within `ttl`, so the
watchdog (workers/watchdog.py) can hand the work to another worker at once instead of after minutes. The
lease also names its run under `held_claim` until it is given back: a run still named there whose lease
has lapsed died holding it, and the watchdog re-enqueues its work at once, without waiting for the session
to look stale (a job still queued has never held the lease, so it is never mistaken for a dead one).

`Steps` remembers which side effects of a job already happened (a message posted, a file attached), so a
job run again after a crash or a rescheduled Slack failure continues where it stopped: only the step that
was in flight when it stopped can happen twice (an ambiguous failure), never the ones before it.
"""

from __future__ import annotations

import logging
import math
import threading
import uuid
from collections.abc import Callable
from types import TracebackType

import redis

from sessions.claims import Claims, held_claim, step_claim

log = logging.getLogger(__name__)

#: How long the name of a run holding a lease is kept if it never gives the lease back (it died): the
#: watchdog needs it only until its next sweep; past this, the session's staleness alone brings it back.
HELD_SECONDS = 3600
#: Renewals per lifetime: a lease survives a Redis stall of up to (BEATS - 1) / BEATS of its lifetime.
BEATS = 4


class Lease:
    """`with Lease(claims, key, ttl) as lease:` holds `key` while the block runs, if `lease.acquired`."""

    def __init__(self, claims: Claims, key: str, ttl: float) -> None:
        self._claims, self.key = claims, key
        self._ttl = max(2, math.ceil(ttl))
        self.token = uuid.uuid4().hex
        self.acquired = False
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def __enter__(self) -> Lease:
        self.acquired = self._claims.claim_once(self.key, self._ttl, token=self.token)
        if self.acquired:
            self._claims.note(held_claim(self.key), self.token, HELD_SECONDS)
            self._thread = threading.Thread(target=self._beat, name=f"lease-{self.key}", daemon=True)
            self._thread.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=1.0)
        if self.acquired:
            try:
                self._claims.release_claim(held_claim(self.key), token=self.token)  # given back: not a death
                self._claims.release_claim(self.key, token=self.token)
            except redis.RedisError:  # it lapses by itself within ttl (and the watchdog may run it once more)
                log.warning("could not release %s; it expires in %s s", self.key, self._ttl)

    def renew(self) -> bool:
        """Extend the lease now; False when it lapsed or another holder took it (then do not act)."""
        return self.acquired and self._claims.hold(self.key, self.token, self._ttl)

    def _beat(self) -> None:
        while not self._stop.wait(self._ttl / BEATS):
            try:
                if not self._claims.hold(self.key, self.token, self._ttl):
                    log.warning("lease %s was lost", self.key)
                    return
            except redis.RedisError:
                log.warning("could not renew lease %s; trying again", self.key)


class Steps:
    """Side effects of one job, each done once per `scope`; a step's result (e.g. a message ts) is kept."""

    def __init__(self, claims: Claims, scope: str, ttl: int) -> None:
        self._claims, self._scope, self._ttl = claims, scope, ttl
        #: Steps this object carried out (not those found done): progress made in this run.
        self.performed = 0

    def once(self, name: str, act: Callable[[], str | None]) -> str:
        """Run `act` unless this step was done before; returns its result (kept from the first run)."""
        key = step_claim(self._scope, name)
        done = self._claims.noted(key)
        if done is not None:
            return done
        result = act() or ""
        self._claims.note(key, result, self._ttl)
        self.performed += 1
        return result

    def done(self, name: str) -> bool:
        """Whether a step was done."""
        return self._claims.noted(step_claim(self._scope, name)) is not None
