"""Nothing stays in `rendering` or `posting` because a worker died: re-enqueue work whose runner is gone.

RQ notices a dead worker's job only at its maintenance; this sweep runs in every worker process every
few seconds. A post it re-enqueues first looks for the comment the dead run may have made, so a sweep
can never cause a second comment.
"""

from __future__ import annotations

import logging
import threading
import time

from postmortem.claims import (
    SWEEP_RENDER_SECONDS,
    post_lock,
    post_scheduled_claim,
    render_lock,
    sweep_post_claim,
    sweep_render_claim,
)
from postmortem.messages import say
from postmortem.session import S
from workers.context import WorkerContext
from workers.jobs import post_lock_seconds

log = logging.getLogger(__name__)


def sweep(ctx: WorkerContext, *, stale_after: float, now: float | None = None) -> list[str]:
    """Re-enqueue the stale in-flight sessions; returns the job names enqueued (for tests and logs)."""
    now = time.time() if now is None else now
    enqueued: list[str] = []
    for session_id in ctx.store.inflight_ids():
        session = ctx.store.get(session_id)
        if session is None or now - session.updated_at < stale_after:
            continue
        if session.state is S.posting and session.approved_version is not None:
            version = session.approved_version
            busy = ctx.store.claimed(post_lock(session_id, version)) or \
                ctx.store.claimed(post_scheduled_claim(session_id, version))
            if not busy and ctx.store.claim_once(sweep_post_claim(session_id, version), int(stale_after)):
                ctx.queue.enqueue("workers.jobs.post_comment", session_id, version)
                enqueued.append(f"post_comment:{session_id}")
        elif session.state is S.rendering and not ctx.store.claimed(render_lock(session_id, session.version)):
            # Once per version: a render that dies twice is a failure the person can Retry, not a loop.
            if ctx.store.claim_once(sweep_render_claim(session_id, session.version), SWEEP_RENDER_SECONDS):
                ctx.queue.enqueue("workers.jobs.render", session_id)
                enqueued.append(f"render:{session_id}")
            elif ctx.store.record_failed(session_id, "the draft could not be rendered") is not None:
                reason = say("worker_stopped_twice", session.lang)
                ctx.queue.enqueue("workers.jobs.perform", session_id, [
                    {"kind": "say", "key": "render_failed", "params": {"reason": reason}}])
                enqueued.append(f"failed:{session_id}")
    if enqueued:
        log.warning("watchdog re-enqueued %s", ", ".join(enqueued))
    return enqueued


def start(ctx: WorkerContext, *, interval: float) -> threading.Event:
    """Sweep every `interval` seconds in a daemon thread; set the returned event to stop it."""
    stop = threading.Event()
    stale_after = max(2 * interval, post_lock_seconds(ctx) / 2)

    def loop() -> None:
        while not stop.wait(interval):
            try:
                sweep(ctx, stale_after=stale_after)
            except Exception:  # the sweep must outlive a Redis hiccup; it says so and tries again
                log.exception("watchdog sweep failed")

    threading.Thread(target=loop, name="postmortem-watchdog", daemon=True).start()
    return stop
