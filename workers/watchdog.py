"""Nothing stays in `rendering` or `posting` because a worker died: re-enqueue work whose runner is gone.

Workers hold a lease (workers/leases.py: a few seconds, renewed by a heartbeat) while they render or post,
so a dead worker's work is recognisable within seconds; this sweep runs in every worker process every
`interval` seconds (POSTMORTEM_WATCHDOG_SECONDS, and once as the worker starts) and re-enqueues a session's
job when no lease is held and nothing is scheduled for it, and either a run died holding its lease (its
name is still kept under `held_claim`: re-enqueued at once, once per dead run, so a second death in a row
is picked up as fast as the first) or the session has not moved for `stale_after` seconds (a job lost
before it started; one still queued behind a burst is left alone that long). Duties owed after a session
left those states (the approval question after `drafted`) are covered the same way. A post it re-enqueues
first looks for the comment the dead run may have made (workers/posting.py), so a sweep can never cause a
second comment.
"""

from __future__ import annotations

import logging
import threading
import time

from postmortem.messages import say
from sessions.claims import (
    advance_duty,
    advance_scheduled_claim,
    held_claim,
    post_lock,
    post_scheduled_claim,
    render_count_claim,
    render_lock,
    render_scheduled_claim,
    sweep_duty_claim,
    sweep_post_claim,
    sweep_render_claim,
)
from sessions.retention import job_options
from sessions.session import Session, State
from workers.context import WorkerContext

log = logging.getLogger(__name__)

#: Re-enqueues of one version's render before it is called failed (a draft that kills its worker each time).
MAX_RENDER_SWEEPS = 3


def sweep(ctx: WorkerContext, *, stale_after: float, now: float | None = None) -> list[str]:
    """Re-enqueue the stale in-flight sessions and owed duties; returns what was enqueued (tests, logs)."""
    now = time.time() if now is None else now
    enqueued: list[str] = []
    for session_id in ctx.store.inflight_ids():
        session = ctx.store.get(session_id)
        if session is None:
            continue
        stale = now - session.updated_at >= stale_after
        if session.state is State.posting and session.approved_version is not None:
            enqueued += _post(ctx, session, session.approved_version, stale_after, stale=stale)
        elif session.state is State.rendering:
            enqueued += _render(ctx, session, stale_after, stale=stale)
    enqueued += _duties(ctx, stale_after, now)
    if enqueued:
        log.warning("watchdog re-enqueued %s", ", ".join(enqueued))
    return enqueued


def _dead(ctx: WorkerContext, lock: str) -> str | None:
    """The token of a run that took the lease `lock` and died holding it (call only once the lease is free)."""
    return ctx.store.noted(held_claim(lock))


def _post(ctx: WorkerContext, session: Session, version: int, stale_after: float, *, stale: bool) -> list[str]:
    lock = post_lock(session.id, version)
    if ctx.store.claimed(lock) or ctx.store.claimed(post_scheduled_claim(session.id, version)):
        return []
    dead = _dead(ctx, lock)
    if dead is None and not stale:
        return []
    if not ctx.store.claim_once(sweep_post_claim(session.id, version, dead), max(1, int(stale_after))):
        return []
    ctx.queue.enqueue("workers.jobs.post_comment", session.id, version, **job_options())
    return [f"post_comment:{session.id}"]


def _render(ctx: WorkerContext, session: Session, stale_after: float, *, stale: bool) -> list[str]:
    lock = render_lock(session.id, session.version)
    if ctx.store.claimed(lock) or ctx.store.claimed(render_scheduled_claim(session.id)):
        return []
    dead = _dead(ctx, lock)
    if dead is None and not stale:
        return []
    if not ctx.store.claim_once(sweep_render_claim(session.id, session.version, dead), max(1, int(stale_after))):
        return []
    counter = render_count_claim(session.id, session.version)
    sweeps = int(ctx.store.noted(counter) or 0)
    if sweeps < MAX_RENDER_SWEEPS:
        ctx.store.note(counter, str(sweeps + 1), ctx.store.ttl)
        ctx.queue.enqueue("workers.jobs.render", session.id, **job_options())
        return [f"render:{session.id}"]
    # A render that stopped its worker again and again is a failure the person can Retry, not a loop.
    if ctx.store.record_failed(session.id, "the draft could not be rendered") is None:
        return []
    ctx.queue.enqueue(
        "workers.jobs.perform",
        session.id,
        [{"kind": "say", "key": "render_failed", "params": {"reason": say("worker_stopped_twice", session.lang)}}],
        **job_options(),
    )
    return [f"failed:{session.id}"]


def _duties(ctx: WorkerContext, stale_after: float, now: float) -> list[str]:
    enqueued: list[str] = []
    for duty in ctx.store.duties():
        kind, _, rest = duty.partition(":")
        if kind == "advance":
            enqueued += _advance(ctx, duty, rest, stale_after, now)
            continue
        session_id, _, version_text = rest.rpartition(":")
        session = ctx.store.get(session_id) if kind == "question" and version_text.isdigit() else None
        if (
            session is None
            or session.version != int(version_text)
            or session.state not in (State.rendering, State.drafted)
        ):
            ctx.store.settle(duty)
            continue
        lock = render_lock(session.id, session.version)
        if (
            session.state is State.rendering
            or ctx.store.claimed(lock)
            or ctx.store.claimed(render_scheduled_claim(session.id))
        ):
            continue
        if ctx.store.claim_once(sweep_duty_claim(duty, _dead(ctx, lock)), max(1, int(stale_after))):
            ctx.queue.enqueue("workers.jobs.render", session.id, **job_options())
            enqueued.append(f"question:{session.id}")
    return enqueued


def _advance(ctx: WorkerContext, duty: str, session_id: str, stale_after: float, now: float) -> list[str]:
    """A thread not started (or its first step not taken) because the worker died: start it again."""
    session = ctx.store.get(session_id)
    if session is None or session.state not in (State.collecting, State.scope_check):
        ctx.store.settle(duty)
        return []
    if ctx.store.claimed(duty) or ctx.store.claimed(advance_scheduled_claim(session_id)):
        return []
    dead = _dead(ctx, advance_duty(session_id))  # the lease of starting the thread is the duty's own claim
    if dead is None and now - session.updated_at < stale_after:
        return []
    if not ctx.store.claim_once(sweep_duty_claim(duty, dead), max(1, int(stale_after))):
        return []
    ctx.queue.enqueue("workers.jobs.advance", session_id, **job_options())
    return [f"advance:{session_id}"]


def stale_after(interval: float, lease_seconds: float) -> float:
    """How long a session without a lease must stay unchanged before its job is enqueued again."""
    return max(3 * interval, 2 * lease_seconds)


def start(ctx: WorkerContext, *, interval: float) -> threading.Event:
    """Sweep every `interval` seconds in a daemon thread; set the returned event to stop it."""
    stop = threading.Event()
    after = stale_after(interval, ctx.policy.lease_seconds)

    def loop() -> None:
        while True:  # a first sweep as the worker starts: it may be the one replacing a worker that died
            try:
                sweep(ctx, stale_after=after)
            except Exception:  # the sweep must outlive a Redis hiccup; it says so and tries again
                log.exception("watchdog sweep failed")
            if stop.wait(interval):
                return

    threading.Thread(target=loop, name="postmortem-watchdog", daemon=True).start()
    return stop
