"""The approved comment, posted to Jira exactly once, and the thread told: the link, then the hand-off offer.

Exactly once under a late store: a POST that timed out, was reset or got a 5xx is *ambiguous* (Jira may
store it seconds later). The time such an attempt began is kept in Redis before the POST is sent, so a
worker that dies mid-POST leaves the same mark. While it stands, the bot POSTs again only after a search
that found nothing *and* was made at least `quiet_seconds` (POSTMORTEM_POST_QUIET_SECONDS) after the
attempt began; an earlier search that finds nothing is inconclusive and the run is rescheduled to search
again then. A 429 is not ambiguous (nothing was stored): its Retry-After is honoured up to a cap; a long
wait is spent in `failed`, where Cancel and Retry work; past the cap the thread is told and offered Retry.
A store later even than the quiet period can leave the comment twice: a POST sent while an earlier one
might still be stored marks the post doubtful, and workers/duplicates.py later deletes the copy the
thread does not link.

The session stays `posting` until the thread has the link and the offer (each said once, `Steps`), so a
worker dying anywhere is recovered by the watchdog re-running this job, which then only announces.
"""

from __future__ import annotations

import contextlib
import logging
import time
from typing import Any

from postmortem.messages import say
from renderers import prompts
from renderers.amendment import with_amend_button
from renderers.followups import SlotError
from sessions.claims import (
    post_attempt_claim,
    post_doubt_claim,
    post_scheduled_claim,
    post_waiting_claim,
    posted_steps_scope,
)
from sessions.session import Session, State
from workers import duplicates, followups, permissions
from workers.approved import approved_run
from workers.context import WorkerContext
from workers.jira_gateway import JiraError, PostedComment
from workers.leases import Lease, Steps
from workers.slack_retry import SLACK_FAILURES, failure_name, step_delay

log = logging.getLogger(__name__)

#: Failed Jira calls of one post before the thread is told it failed (each retry first looks for our comment).
MAX_POST_ATTEMPTS = 5


def backoff(attempt: int) -> float:
    """Seconds before the next attempt when Jira did not say (5xx, timeouts): 1, 2, 4, 8… at most 30."""
    return float(min(2 ** (attempt - 1), 30))


def run(ctx: WorkerContext, session_id: str, version: int, attempt: int) -> None:
    """One run of the post of (session, version); any number of runs post at most one comment."""
    with approved_run(ctx, session_id, version, what="post") as held:
        if held is None:
            return
        current, lease = held
        if current.comment_id and current.comment_url:
            announce(ctx, current, attempt)
        else:
            _post(ctx, current, version, attempt, lease)


def _post(ctx: WorkerContext, session: Session, version: int, attempt: int, lease: Lease) -> None:
    try:
        refusal = permissions.approver_refusal(ctx, session)
    except JiraError as exc:  # Jira could not say now: like any failed Jira call before the POST
        _after_error(ctx, session, version, attempt, exc)
        return
    except SLACK_FAILURES as exc:  # Slack could not give the approver's e-mail now
        delay = step_delay(exc, attempt)
        if delay is None or attempt >= MAX_POST_ATTEMPTS:
            _fail(ctx, session, say("perm_unchecked_slack", session.lang))
            return
        log.warning(
            "post of %s v%s: Slack failed the permission check (%s); again in %.1f s", session.id, version, exc, delay
        )
        _reschedule(ctx, session.id, version, attempt + 1, delay)
        return
    if refusal is not None:  # nothing posted; said in the thread, with Retry
        user = session.approved_by or session.requester
        _tell_failed(
            ctx,
            session,
            f"permission: {refusal.key}",
            prompts.notice(refusal.key, session.lang, user=user, ticket=session.ticket, reason=refusal.reason),
        )
        return
    body = ctx.store.approved_body(session)
    try:  # the follow-up issues first, exactly once each; then the body shown with their keys in its slots
        body = None if body is None else followups.filled_body(ctx, session, version, body, lease)
    except followups.Pending as pending:  # an earlier create may still be stored: search again later
        if pending.wait is not None:
            _reschedule(ctx, session.id, version, attempt, pending.wait)
        return
    except followups.Refused as refused:  # the same bytes cannot pass: the approval is released, nothing posted
        followups.release_approval(ctx, session, version, refused)
        return
    except JiraError as exc:
        _after_error(ctx, session, version, attempt, exc)
        return
    except SlotError:
        body = None
    if body is None:
        _fail(ctx, session, say("post_body_mismatch", session.lang))
        return
    marks = post_attempt_claim(session.id, version)
    try:
        began = _began(ctx, marks)
        searched_at = time.time()
        posted = ctx.jira.find_own_comment(session.ticket, session=session.id, version=version)
        if posted is None and began is not None and searched_at < began + ctx.policy.quiet_seconds:
            wait = began + ctx.policy.quiet_seconds - time.time()
            log.info(
                "post of %s v%s: an earlier POST may still be stored; searching again in %.1f s",
                session.id,
                version,
                wait,
            )
            _reschedule(ctx, session.id, version, attempt, wait)
            return
        if posted is None:
            if not lease.renew():  # a slow search outlived the lease: another run may be posting
                log.warning("post of %s v%s lost its lease; leaving it to the run that holds it", session.id, version)
                return
            if began is not None:  # the earlier POST may yet be stored, later than the quiet period
                ctx.store.note(post_doubt_claim(session.id, version), "1", ctx.store.ttl)
            ctx.store.note(marks, repr(time.time()), ctx.store.ttl)  # ambiguous until Jira answers
            posted = _send(ctx, session.ticket, body, marks)
    except JiraError as exc:
        _after_error(ctx, session, version, attempt, exc)
        return
    _record(ctx, session, posted, attempt)


def _send(ctx: WorkerContext, ticket: str, body: bytes, marks: str) -> PostedComment:
    try:
        return ctx.jira.post_comment(ticket, body)
    except JiraError as exc:
        if not exc.ambiguous:  # Jira refused it (4xx, 429): nothing was stored
            ctx.store.release_claim(marks)
        raise


def _began(ctx: WorkerContext, marks: str) -> float | None:
    noted = ctx.store.noted(marks)
    try:
        return float(noted) if noted is not None else None
    except ValueError:
        return 0.0  # unreadable: the attempt is long over; a search now is conclusive


def _after_error(ctx: WorkerContext, session: Session, version: int, attempt: int, exc: JiraError) -> None:
    if not exc.retryable or attempt >= MAX_POST_ATTEMPTS:
        _fail(ctx, session, exc.text(session.lang))
        return
    policy = ctx.policy
    if exc.retry_after is not None and exc.retry_after > policy.retry_after_cap:
        _tell_failed(
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
    began = _began(ctx, post_attempt_claim(session.id, version))
    if began is not None:  # the next search must come a quiet period after the ambiguous attempt began
        delay = max(delay, began + policy.quiet_seconds - time.time())
    log.warning("post of %s v%s: %s; attempt %s in %.1f s", session.id, version, exc, attempt + 1, delay)
    _reschedule(ctx, session.id, version, attempt + 1, delay)


def _reschedule(ctx: WorkerContext, session_id: str, version: int, attempt: int, delay: float) -> None:
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


def _record(ctx: WorkerContext, session: Session, posted: PostedComment, attempt: int) -> None:
    """Keep the comment on the session (still posting: the thread is told next), then announce.

    The duplicate checks are scheduled first, so a worker dying in between leaves them scheduled (a rerun
    may schedule them twice: harmless). A comment already recorded is kept: it is the one the thread links."""
    version = session.approved_version or 0
    duplicates.check_later_if_doubtful(ctx, session.id, version)

    def keep(s: Session) -> Session:
        return s if s.comment_id else s.with_changes(comment_id=posted.id, comment_url=posted.url)

    recorded = ctx.store.update(session.id, keep, expect_states={State.posting})
    ctx.store.release_claim(post_attempt_claim(session.id, version))
    if recorded is not None:
        announce(ctx, recorded, attempt)


def announce(ctx: WorkerContext, session: Session, attempt: int) -> None:
    """The link, then the hand-off offer, each once; then posting → posted.

    While Slack fails with something temporary the run is rescheduled (workers/slack_retry.py `step_delay`:
    quickly at first, then every few minutes for about a day), so an ordinary outage loses nothing. When
    Slack refuses the thread for good (archived, not in the channel…) or the tries are used up, the
    requester gets the link by DM, and the session is recorded posted either way."""
    version = session.approved_version or 0
    steps = Steps(ctx.store, posted_steps_scope(session.id, version), ctx.store.ttl)
    link = prompts.notice("posted", session.lang, ticket=session.ticket, url=session.comment_url)
    link = with_amend_button(link, session.id, session.lang)  # an amendment edits this comment (workers/amending.py)
    offer = handoff_offer(session)
    issues = followups.announcement(ctx, session, version)
    try:
        if issues is not None:
            steps.once("issues", lambda: ctx.say(session, issues))
        steps.once("link", lambda: ctx.say(session, link))
        steps.once("offer", lambda: ctx.say(session, offer))
    except SLACK_FAILURES as exc:
        attempt = attempt if steps.performed == 0 else 1  # backoff counts failures of one step
        delay = step_delay(exc, attempt)
        if delay is not None:
            log.warning("telling the thread of %s failed (%s); again in %.1f s", session.id, exc, delay)
            _reschedule(ctx, session.id, version, attempt + 1, delay)
            return
        if not steps.done("link"):
            _link_by_dm(ctx, session, exc)
    ctx.store.record_posted(session.id, session.comment_id or "", session.comment_url or "")


def _link_by_dm(ctx: WorkerContext, session: Session, exc: BaseException) -> None:
    """The thread cannot have the link: the requester gets it in a DM (best effort: Slack may be out too)."""
    error = failure_name(exc)
    log.error(
        "the thread of %s could not be told of comment %s (%s); sending the link by DM",
        session.id,
        session.comment_id,
        error,
    )
    message = prompts.notice("posted_by_dm", session.lang, ticket=session.ticket, url=session.comment_url, error=error)
    try:
        ctx.slack.post(session.requester, message)
    except SLACK_FAILURES as dm_failed:
        log.error("the link of %s could not be sent by DM either: %s", session.id, dm_failed)


def handoff_offer(session: Session) -> dict[str, Any]:
    """The hand-off (docs/rules.md#from-inputs-to-a-posted-record), after every destination: offer the
    management-talk rewrite; never run it unasked."""
    return prompts.with_button(
        prompts.notice("offer_handoff", session.lang),
        "button_handoff",
        prompts.ACTION_HANDOFF,
        session.id,
        session.lang,
    )


def _fail(ctx: WorkerContext, session: Session, reason: str) -> None:
    failed = prompts.notice("post_failed", session.lang, reason=reason)
    _tell_failed(ctx, session, reason, failed)


def _tell_failed(ctx: WorkerContext, session: Session, reason: str, message: dict[str, Any]) -> None:
    """Record the failure (Retry works from `failed`), then say it, if Slack can take it now (the Home tab
    and the reminder show a failed session too)."""
    if ctx.store.record_failed(session.id, reason) is None:
        return
    with contextlib.suppress(*SLACK_FAILURES):
        ctx.say(session, prompts.with_button(message, "button_retry", prompts.ACTION_RETRY, session.id, session.lang))
