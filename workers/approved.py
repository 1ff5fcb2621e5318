"""The gate every run of an approved version passes: the post of a comment and the update of an amended one run
only in `posting`, one at a time (the post's lease), and a wait in `failed` for Jira's Retry-After ends here."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Iterator

from sessions.claims import post_lock, post_scheduled_claim, post_waiting_claim
from sessions.session import Session, State
from workers.context import WorkerContext
from workers.leases import Lease

log = logging.getLogger(__name__)


@contextlib.contextmanager
def approved_run(
    ctx: WorkerContext, session_id: str, version: int, *, what: str, wanted: Callable[[Session], bool] | None = None
) -> Iterator[tuple[Session, Lease] | None]:
    """The session approved at `version` (and `wanted`), once a wait in `failed` is over, re-read under the post's
    lease: None when there is nothing to do or another run holds the lease. The post (workers/posting.py) and the
    amendment (workers/amending.py) both run under it, so any number of runs do the work once."""
    session = ctx.store.get(session_id)
    if session is None or session.approved_version != version or (wanted is not None and not wanted(session)):
        yield None
        return
    ctx.store.release_claim(post_scheduled_claim(session_id, version))
    if session.state is State.failed and ctx.store.claimed(post_waiting_claim(session_id, version)):
        ctx.store.release_claim(post_waiting_claim(session_id, version))
        session = ctx.store.retry(session_id)  # the wait is over: failed → posting, same approval
    if session is None or session.state is not State.posting:
        yield None
        return
    with Lease(ctx.store, post_lock(session_id, version), ctx.policy.lease_seconds) as lease:
        current = ctx.store.get(session_id) if lease.acquired else None  # re-read under the lease
        if not lease.acquired:
            log.info("%s of %s v%s is already running", what, session_id, version)
        if current is None or current.state is not State.posting or current.approved_version != version:
            yield None
            return
        yield current, lease
