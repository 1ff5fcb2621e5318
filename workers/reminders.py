"""Remind the requester once before an idle session expires, and say so in the thread when it does.

A sweep in every worker (every POSTMORTEM_WATCHDOG_SECONDS) reads the open-session index in Redis, so it
survives restarts: a reminder is claimed once per session, and an expiry is one atomic transition, so
several workers never remind or announce twice.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

from renderers import prompts, reminders
from sessions import amendment
from sessions.claims import reminder_claim
from sessions.lifetime import IDLE_STATES, Lifetime
from sessions.session import Session, State
from workers.context import WorkerContext
from workers.slack_retry import SLACK_FAILURES, failure_name

log = logging.getLogger(__name__)

#: Idle sessions looked at per sweep, oldest first (those past their expiry go first, so none is starved).
SWEEP_LIMIT = 2000


def sweep(ctx: WorkerContext, lifetime: Lifetime, *, now: float | None = None) -> list[str]:
    """Remind or expire the idle sessions; returns what was done (`remind:<id>`, `expire:<id>`)."""
    now = time.time() if now is None else now
    done: list[str] = []
    for session_id in ctx.store.users.idle_since(now - lifetime.remind_after, limit=SWEEP_LIMIT):
        session = ctx.store.get(session_id)
        if session is None or session.is_final:
            ctx.store.users.forget_open(session_id)
            continue
        if session.state not in IDLE_STATES:
            continue
        if now - session.updated_at >= lifetime.idle_seconds:
            if _expire(ctx, session, lifetime, now):
                done.append(f"expire:{session_id}")
        elif ctx.store.claim_once(reminder_claim(session_id), lifetime.store_ttl):
            _tell(ctx, session, reminders.reminder(session, expires_at=session.updated_at + lifetime.idle_seconds))
            done.append(f"remind:{session_id}")
    if done:
        log.info("reminder sweep: %s", ", ".join(done))
    return done


def _expire(ctx: WorkerContext, session: Session, lifetime: Lifetime, now: float) -> bool:
    """Idle → expired, only if nothing wrote the session meanwhile; then the thread is told."""

    def mutate(s: Session) -> Session | None:
        if now - s.updated_at < lifetime.idle_seconds:
            return None
        if s.amending:  # an idle amendment ends; the posted record stays as it is (sessions/amendment.py)
            return amendment.abandon(s).session
        return s.with_changes(state=State.expired, pending_field=None)

    expired = ctx.store.update(session.id, mutate, expect_states=IDLE_STATES)
    if expired is None:
        return False
    if expired.state is State.posted:
        notice = prompts.notice("amend_abandoned", expired.lang, ticket=expired.ticket, version=expired.posted_version)
        _tell(ctx, expired, notice)
        return True
    _tell(ctx, expired, reminders.expired(expired, idle_seconds=lifetime.idle_seconds))
    return True


def _tell(ctx: WorkerContext, session: Session, message: dict[str, Any]) -> None:
    """In the session's thread; a session whose thread never started is told by DM to its requester."""
    try:
        if session.thread_ts is not None:
            ctx.say(session, message)
        else:
            ctx.slack.post(session.requester, message)
    except SLACK_FAILURES as exc:
        log.warning("could not tell session %s (%s): %s", session.id, session.state.value, failure_name(exc))


def start(ctx: WorkerContext, lifetime: Lifetime, *, interval: float) -> threading.Event:
    """Sweep every `interval` seconds in a daemon thread; set the returned event to stop it."""
    stop = threading.Event()

    def loop() -> None:
        while not stop.wait(interval):
            try:
                sweep(ctx, lifetime)
            except Exception:  # the sweep must outlive a Redis hiccup; it says so and tries again
                log.exception("reminder sweep failed")

    threading.Thread(target=loop, name="postmortem-reminders", daemon=True).start()
    return stop
