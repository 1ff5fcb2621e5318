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

import logging
import time
from typing import Any

from renderers import prompts
from renderers.amendment import with_amend_button
from sessions.claims import (
    post_attempt_claim,
    post_doubt_claim,
    posted_steps_scope,
)
from sessions.session import Session, State
from workers import duplicates, followups
from workers.approved import (
    POST,
    after_error,
    approved_run,
    approver_checked,
    attempt_began,
    body_to_send,
    reschedule,
)
from workers.context import WorkerContext
from workers.jira_gateway import JiraError, PostedComment
from workers.leases import Lease, Steps
from workers.slack_retry import SLACK_FAILURES, failure_name, step_delay

log = logging.getLogger(__name__)


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
    if not approver_checked(ctx, session, version, attempt, POST):
        return
    body = body_to_send(ctx, session, version, attempt, lease, POST)
    if body is None:
        return
    marks = post_attempt_claim(session.id, version)
    try:
        began = attempt_began(ctx, marks)
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
            reschedule(ctx, session.id, version, attempt, wait)
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
        after_error(ctx, session, version, attempt, exc, POST)
        return
    _record(ctx, session, posted, attempt)


def _send(ctx: WorkerContext, ticket: str, body: bytes, marks: str) -> PostedComment:
    try:
        return ctx.jira.post_comment(ticket, body)
    except JiraError as exc:
        if not exc.ambiguous:  # Jira refused it (4xx, 429): nothing was stored
            ctx.store.release_claim(marks)
        raise


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
            reschedule(ctx, session.id, version, attempt + 1, delay)
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
