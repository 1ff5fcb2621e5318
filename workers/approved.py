"""What every run of an approved version shares: the post of a comment (workers/posting.py) and the update of an
amended one (workers/amending.py) run only in `posting`, one at a time (the post's lease); both check the approver,
create the follow-up issues and fill their slots, and take Jira's failures (retries, Retry-After, a long wait in
`failed`) the same way. Only the one Jira call, and the sentence a failure is told in (`Job`), differ."""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from postmortem.messages import say
from renderers import prompts
from renderers.followups import SlotError
from sessions.claims import post_attempt_claim, post_lock, post_scheduled_claim, post_waiting_claim
from sessions.session import Session, State
from workers import followups, permissions
from workers.context import WorkerContext
from workers.jira_gateway import JiraError
from workers.leases import Lease
from workers.slack_retry import SLACK_FAILURES, step_delay

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


#: Failed Jira calls of one post before the thread is told it failed (each retry first looks for our comment).
MAX_POST_ATTEMPTS = 5


def backoff(attempt: int) -> float:
    """Seconds before the next attempt when Jira did not say (5xx, timeouts): 1, 2, 4, 8… at most 30."""
    return float(min(2 ** (attempt - 1), 30))


@dataclass(frozen=True)
class Job:
    """What a run of an approved version is, for its log lines and its failure's sentence: the post, or an
    amendment (workers/amending.py), which share every step before the one Jira call that differs."""

    what: str
    failed: Callable[[Session, str], dict[str, Any]]


POST = Job("post", lambda session, reason: prompts.notice("post_failed", session.lang, reason=reason))


def approver_checked(ctx: WorkerContext, session: Session, version: int, attempt: int, job: Job) -> bool:
    """Whether the approver may comment on the issue (workers/permissions.py); when not, or when it cannot be told
    now, the run is failed, told or rescheduled here and False is returned."""
    try:
        refusal = permissions.approver_refusal(ctx, session)
    except JiraError as exc:  # Jira could not say now: like any failed Jira call before the POST
        after_error(ctx, session, version, attempt, exc, job)
        return False
    except SLACK_FAILURES as exc:  # Slack could not give the approver's e-mail now
        delay = step_delay(exc, attempt)
        if delay is None or attempt >= MAX_POST_ATTEMPTS:
            fail(ctx, session, say("perm_unchecked_slack", session.lang), job)
            return False
        log.warning("%s of %s v%s: Slack failed the permission check (%s); again in %.1f s", job.what, session.id,
                    version, exc, delay)  # fmt: skip
        reschedule(ctx, session.id, version, attempt + 1, delay)
        return False
    if refusal is not None:  # nothing sent; said in the thread, with Retry
        user = session.approved_by or session.requester
        notice = prompts.notice(refusal.key, session.lang, user=user, ticket=session.ticket, reason=refusal.reason)
        tell_failed(ctx, session, f"permission: {refusal.key}", notice)
        return False
    return True


def body_to_send(
    ctx: WorkerContext, session: Session, version: int, attempt: int, lease: Lease, job: Job
) -> bytes | None:
    """The approved body with its follow-up issues' keys in their slots, the issues created first, once each
    (workers/followups.py); None when the run stops here (rescheduled, handed back or failed, and said)."""
    body = ctx.store.approved_body(session)
    try:
        body = None if body is None else followups.filled_body(ctx, session, version, body, lease)
    except followups.Pending as pending:  # an earlier create may still be stored: search again later
        if pending.wait is not None:
            reschedule(ctx, session.id, version, attempt, pending.wait)
        return None
    except followups.Refused as refused:  # the same bytes cannot pass: the approval is released, nothing sent
        followups.release_approval(ctx, session, version, refused)
        return None
    except JiraError as exc:
        after_error(ctx, session, version, attempt, exc, job)
        return None
    except SlotError:
        body = None
    if body is None:
        fail(ctx, session, say("post_body_mismatch", session.lang), job)
    return body


def attempt_began(ctx: WorkerContext, marks: str) -> float | None:
    noted = ctx.store.noted(marks)
    try:
        return float(noted) if noted is not None else None
    except ValueError:
        return 0.0  # unreadable: the attempt is long over; a search now is conclusive


def after_error(ctx: WorkerContext, session: Session, version: int, attempt: int, exc: JiraError, job: Job) -> None:
    """5xx, timeouts and 429 are tried again (Retry-After honoured, a long one waited in `failed`); anything else,
    or the last attempt, fails the run."""
    if not exc.retryable or attempt >= MAX_POST_ATTEMPTS:
        fail(ctx, session, exc.text(session.lang), job)
        return
    policy = ctx.policy
    if exc.retry_after is not None and exc.retry_after > policy.retry_after_cap:
        tell_failed(
            ctx,
            session,
            exc.text(session.lang),
            prompts.notice(
                "retry_after_capped",
                session.lang,
                seconds=f"{exc.retry_after:.0f}",
                ticket=session.ticket,
                cap=f"{policy.retry_after_cap:.0f}",
            ),
        )
        return
    if exc.retry_after is not None and exc.retry_after > policy.wait_visibly_after:
        _wait_visibly(ctx, session, version, attempt + 1, exc.retry_after)
        return
    delay = exc.retry_after if exc.retry_after is not None else backoff(attempt)
    began = attempt_began(ctx, post_attempt_claim(session.id, version))
    if began is not None:  # the next search must come a quiet period after the ambiguous attempt began
        delay = max(delay, began + policy.quiet_seconds - time.time())
    log.warning("%s of %s v%s: %s; attempt %s in %.1f s", job.what, session.id, version, exc, attempt + 1, delay)
    reschedule(ctx, session.id, version, attempt + 1, delay)


def reschedule(ctx: WorkerContext, session_id: str, version: int, attempt: int, delay: float) -> None:
    """Run the post again after `delay` through RQ's scheduler, never a sleep in the worker."""
    ctx.later(delay, "post_comment", session_id, version, attempt, mark=post_scheduled_claim(session_id, version))


def _wait_visibly(ctx: WorkerContext, session: Session, version: int, attempt: int, delay: float) -> None:
    """A long Retry-After: wait in `failed` (Cancel and Retry work there), then resume by itself."""
    waiting = ctx.store.record_failed(session.id, f"Jira asked to wait {delay:.0f} s")
    if waiting is None:
        return
    ctx.store.note(post_waiting_claim(session.id, version), "1", int(delay) + 3600)
    ctx.later(delay, "post_comment", session.id, version, attempt)
    message = prompts.notice("post_waiting", session.lang, seconds=f"{delay:.0f}", ticket=session.ticket)
    message = prompts.with_button(message, "button_retry", prompts.ACTION_RETRY, session.id, session.lang)
    ctx.say(session, prompts.with_button(message, "button_cancel", prompts.ACTION_CANCEL, session.id, session.lang))


def fail(ctx: WorkerContext, session: Session, reason: str, job: Job = POST) -> None:
    tell_failed(ctx, session, reason, job.failed(session, reason))


def tell_failed(ctx: WorkerContext, session: Session, reason: str, message: dict[str, Any]) -> None:
    """Record the failure (Retry works from `failed`), then say it, if Slack can take it now (the Home tab
    and the reminder show a failed session too)."""
    if ctx.store.record_failed(session.id, reason) is None:
        return
    with contextlib.suppress(*SLACK_FAILURES):
        ctx.say(session, prompts.with_button(message, "button_retry", prompts.ACTION_RETRY, session.id, session.lang))
