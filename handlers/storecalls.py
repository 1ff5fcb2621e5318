"""Store calls from the request path: on their own threads, each answered within a budget or "unavailable".

Listeners run with `process_before_response=True`, so whatever they do before returning delays Slack's
answer, which must come within 3 s. The store is synchronous (redis-py); its calls run on a dedicated
pool here (not the event loop's default executor, which Bolt and aiohttp share), and a listener waits for
one at most `budget` seconds. A call still queued when its budget is spent never starts (a slow Redis
cannot build a backlog that answers minutes late), and the caller is told `StoreUnavailable` at once.

A call that writes what the answer reports (`commit`) is bounded in its work, not only in the wait: it gets a
deadline, `COMMIT_SHARE` of the budget, that Redis checks by its own clock before it writes (sessions/store.py
`start`), so a write that reaches a slow Redis after the listener gave up is not made; the rest of the budget
is for the answer to come back.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import redis

from sessions.records import StoreConflictError

log = logging.getLogger(__name__)

T = TypeVar("T")

#: Failures of the store that mean "unavailable or busy", not a bug.
STORE_DOWN = (redis.ConnectionError, redis.TimeoutError, StoreConflictError)

#: Threads for store calls: a few per core; each call holds one for at most a socket timeout or two.
STORE_THREADS = 16
#: The share of the budget by whose end a commit must have reached Redis (the rest: for its answer to return).
COMMIT_SHARE = 0.6


class StoreUnavailable(Exception):
    """The store did not take the request within its budget (down, slow, or too busy)."""


class StoreCalls:
    """`await calls.run(fn, *args)`: `fn` on the store's pool, answered within `budget` seconds."""

    def __init__(self, budget: float = 1.5, *, threads: int = STORE_THREADS) -> None:
        self.budget = budget
        self._pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="store")

    async def run(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        deadline = time.monotonic() + self.budget
        call = functools.partial(_before, deadline, fn, *args, **kwargs)
        loop = asyncio.get_running_loop()
        try:
            return await asyncio.wait_for(loop.run_in_executor(self._pool, call), self.budget)
        except (TimeoutError, *STORE_DOWN) as exc:
            log.warning("store unavailable in %s: %s", getattr(fn, "__name__", fn), type(exc).__name__)
            raise StoreUnavailable(type(exc).__name__) from None

    async def commit(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """`run` for a call whose write the answer reports: `fn` is also given `deadline=` (epoch seconds), past
        which its write must not be made."""
        return await self.run(fn, *args, deadline=time.time() + self.budget * COMMIT_SHARE, **kwargs)


def _before(wait_ends: float, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
    if time.monotonic() > wait_ends:  # queued past its budget: the listener already answered "unavailable"
        raise redis.TimeoutError("store call started after its budget")
    return fn(*args, **kwargs)
