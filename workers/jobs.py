"""The RQ jobs: move a session on, render and show a draft, post the approved comment once, hand off.

Handlers enqueue these by name (`workers.jobs.<name>`) with JSON arguments; each job re-reads the
session from Redis and does nothing when the session is no longer in the state the job expects.
"""

from __future__ import annotations

import contextlib
import logging
import uuid
from datetime import timedelta
from typing import Any

from slack_sdk.errors import SlackApiError

from postmortem.claims import (
    HANDOFF_ONCE_SECONDS,
    RENDER_LOCK_SECONDS,
    TICKET_CHECKED_SECONDS,
    handoff_claim,
    post_lock,
    post_scheduled_claim,
    render_lock,
    ticket_checked_claim,
)
from postmortem.conversation import Effect, apply_step, model_of, next_step
from postmortem.limits import postmortem_structure_error
from postmortem.lint import lint
from postmortem.messages import field_label, say
from postmortem.model import PostMortem
from postmortem.session import S, Session
from postmortem.store import body_digest
from renderers import prompts
from renderers.adf import render_adf
from renderers.jira import CommentTooLong, jira_request, with_requester
from renderers.markdown import render_markdown
from renderers.slack import render_slack
from workers import permissions
from workers.context import WorkerContext, current
from workers.jira_gateway import JiraError

log = logging.getLogger(__name__)

#: Attempts of one post before the thread is told it failed (each retry first looks for our comment).
MAX_POST_ATTEMPTS = 5


def post_lock_seconds(ctx: WorkerContext) -> int:
    """A post holds a lock while it talks to Jira, so two runs of one post never overlap. It outlives the
    search (two calls) and, re-checked and extended just before it, the POST (connect and read timeouts).
    With the default 15 s timeout a dead run's lock is free after 70 s, so with the watchdog's sweep the
    thread hears the outcome within 2 minutes of a crash: the watchdog (workers/watchdog.py) runs the post
    again, which first looks for the comment the dead run may have made."""
    return int(4 * ctx.jira.timeout + 10)


def backoff(attempt: int) -> float:
    """Seconds before the next attempt when Jira did not say (5xx, timeouts): 1, 2, 4, 8… at most 30."""
    return float(min(2 ** (attempt - 1), 30))


def perform(session_id: str, effects: list[dict[str, Any]]) -> None:
    """Carry out effects a handler decided (its state change is already stored)."""
    ctx = current()
    session = ctx.store.get(session_id)
    if session is not None:
        _perform(ctx, session, [Effect(**e) for e in effects])


def advance(session_id: str) -> None:
    """Post the parent message if there is none yet, then take the next step of the conversation."""
    ctx = current()
    session = ctx.store.get(session_id)
    if session is None or session.is_final:
        return
    if session.thread_ts is None:
        parent = prompts.notice("parent", session.lang, ticket=session.ticket, user=session.requester)
        try:
            ts = ctx.slack.post(session.channel, parent)
        except SlackApiError as exc:  # not in the channel, archived, a DM the bot cannot post in…
            _thread_failed(ctx, session, str(exc.response.get("error", "error")))
            return
        session = ctx.store.bind_thread(session_id, session.channel, ts) or session
    if not _ticket_exists(ctx, session):
        return
    outcome = apply_step(ctx.store, session_id, next_step)
    if outcome is not None:
        _perform(ctx, ctx.store.get(session_id) or session, list(outcome.effects))


def _ticket_exists(ctx: WorkerContext, session: Session) -> bool:
    """Check the key in Jira once, before asking anything; an unknown key is asked for again in the thread."""
    checked = ticket_checked_claim(session.id, session.ticket)
    if session.pending_field == "ticket" or ctx.store.claimed(checked):
        return True
    try:
        exists = ctx.jira.issue_exists(session.ticket) and permissions.may_comment(ctx, session.requester,
                                                                                 session.ticket)
    except JiraError as exc:  # Jira down now: go on; the post will say so and offer Retry
        log.warning("could not check %s in Jira: %s", session.ticket, exc)
        return True
    if exists:
        ctx.store.claim_once(checked, TICKET_CHECKED_SECONDS)
        return True
    asked = ctx.store.update(session.id, lambda s: s.with_changes(pending_field="ticket"),
                             expect_states={S.collecting, S.scope_check})
    if asked is not None:
        missing = "ticket_hidden" if ctx.permission_check else "ticket_not_found"  # one answer: no key oracle
        _say(ctx, asked, prompts.notice(missing, asked.lang, ticket=asked.ticket))
    return False


def render(session_id: str) -> None:
    """Render the version being drafted, show it in the thread with the exact request body, ask for approval."""
    ctx = current()
    session = ctx.store.get(session_id)
    if session is None or session.state is not S.rendering:
        return
    lock = render_lock(session_id, session.version)
    if not ctx.store.claim_once(lock, RENDER_LOCK_SECONDS):
        return
    try:
        _render_locked(ctx, session)
    finally:
        ctx.store.release_claim(lock)


def _render_locked(ctx: WorkerContext, session: Session) -> None:
    session_id = session.id
    pm = model_of(session)
    if refused := postmortem_structure_error(pm):  # too deep or too large to render: say so plainly
        named = field_label(refused.field.partition(".")[0], "ja") + "：" if session.lang == "ja" else ""
        reason = f"{named}{refused.message}" if named else str(refused)
        ctx.store.record_failed(session_id, reason)
        _say(ctx, session, prompts.notice("render_failed", session.lang, reason=reason))
        return
    markdown = render_markdown(pm)
    adf = render_adf(pm, jira_url=ctx.jira_url)  # the Slack preview is made from it too
    to_jira = pm.destination == "jira_comment"
    if to_jira:
        try:
            request = jira_request(_with_requester(ctx, session, adf), session=session.id,
                                   version=session.version, visible_to=ctx.jira_visibility)
        except CommentTooLong as exc:
            ctx.store.record_failed(session_id, exc.text(session.lang))
            _say(ctx, session, prompts.notice("render_failed", session.lang, reason=exc.text(session.lang)))
            return
        body, digest = request.body, request.sha256
    else:
        body = markdown.encode()
        digest = body_digest(body)
    if ctx.store.save_draft(session_id, session.version, body, digest) is None:
        return
    try:
        _show_draft(ctx, session, pm, body, to_jira=to_jira, adf=adf)
    except SlackApiError as exc:
        reason = say("slack_refused_draft", session.lang, error=exc.response.get("error", "error"))
        if ctx.store.record_failed(session_id, reason) is not None:
            with contextlib.suppress(SlackApiError):
                _say(ctx, session, prompts.notice("render_failed", session.lang, reason=reason))


def _with_requester(ctx: WorkerContext, session: Session, adf: dict[str, Any]) -> dict[str, Any]:
    """The comment's last paragraph: who asked, and a link to the thread (fetched now, so it is in the bytes shown)."""
    thread_url = ctx.slack.permalink(session.channel, session.thread_ts) if session.thread_ts else None
    return with_requester(adf, name=ctx.slack.user_name(session.requester), thread_url=thread_url,
                          lang=session.lang)


def _show_draft(ctx: WorkerContext, session: Session, pm: PostMortem, body: bytes, *, to_jira: bool,
                adf: dict[str, Any] | None = None) -> None:
    """Draft, tone notes, the exact body as a file, a line saying it was shown, then the question.

    The session becomes approvable (drafted) at that line, after the file and before the question, so a
    reply typed once the question is visible is always handled, and none typed before the file was visible
    can approve it (it binds to the version shown before its timestamp)."""
    for message in render_slack(pm, adf=adf):
        _say(ctx, session, message)
    if warnings := lint(pm):
        _say(ctx, session, prompts.lint_warnings([(w.field, w.text) for w in warnings], session.lang))
    filename, question = _attachment(session, to_jira=to_jira, destination=pm.destination)
    ctx.slack.upload(session.channel, session.thread_ts, filename=filename, content=body, title=filename)
    shown = prompts.notice("body_shown", session.lang, version=session.version) if to_jira else question
    shown_ts = _say(ctx, session, shown)
    drafted = ctx.store.mark_drafted(session.id, version=session.version, shown_at=float(shown_ts),
                                     message_ts=shown_ts)
    if drafted is not None and to_jira:  # cancelled meanwhile: no question with buttons after "Cancelled"
        _say(ctx, session, question)
    elif drafted is not None:  # output only: the record is delivered, so the seed's step 5 offer follows
        _offer_handoff(ctx, session)


def _thread_failed(ctx: WorkerContext, session: Session, error: str) -> None:
    """The thread could not be started: tell the requester privately, keep every input, offer Retry."""
    log.warning("cannot post in %s for session %s: %s", session.channel, session.id, error)
    if ctx.store.update(session.id, lambda s: s.with_changes(error=f"slack: {error}")) is None:
        return
    message = prompts.notice("slack_failed", session.lang, ticket=session.ticket, channel=session.channel,
                             error=error)
    with contextlib.suppress(SlackApiError):  # a DM to the requester (chat:write to a user id)
        ctx.slack.post(session.requester, prompts.with_button(message, "button_retry", prompts.ACTION_RETRY,
                                                               session.id, session.lang))


def _attachment(session: Session, *, to_jira: bool, destination: str) -> tuple[str, dict[str, Any]]:
    if to_jira:
        question = prompts.approval_question(session.id, ticket=session.ticket, version=session.version,
                                             lang=session.lang)
        return f"{session.ticket}-postmortem-v{session.version}.json", question
    name = f"docs/postmortems/{session.ticket}.md" if destination == "docs_file" \
        else f"{session.ticket}-postmortem-v{session.version}.md"
    return name, prompts.notice("output_only", session.lang, destination=destination)


def post_comment(session_id: str, version: int, attempt: int = 1) -> None:
    """POST the approved bytes to Jira exactly once: look for our own comment first, then post."""
    ctx = current()
    session = ctx.store.get(session_id)
    if session is None or session.state is not S.posting or session.approved_version != version:
        return
    ctx.store.release_claim(post_scheduled_claim(session_id, version))
    lock, token = post_lock(session_id, version), uuid.uuid4().hex
    if not ctx.store.claim_once(lock, post_lock_seconds(ctx), token=token):
        log.info("post of %s v%s is already running", session_id, version)
        return
    try:
        _post_locked(ctx, session, version, attempt, token)
    finally:
        ctx.store.release_claim(lock, token=token)


def _post_locked(ctx: WorkerContext, session: Session, version: int, attempt: int, token: str) -> None:
    if not permissions.approver_may_post(ctx, session):  # a refusal is told in the thread; nothing posted
        return
    body = ctx.store.approved_body(session)
    if body is None:
        _fail(ctx, session, say("post_body_mismatch", session.lang))
        return
    try:
        posted = ctx.jira.find_own_comment(session.ticket, session=session.id, version=version)
        if posted is None:
            # Only while this run still holds the lock (a slow search may have outlived it): else another
            # run may be posting, and this one must not.
            if not ctx.store.hold(post_lock(session.id, version), token, post_lock_seconds(ctx)):
                log.warning("post of %s v%s lost its lock; leaving it to the run that holds it", session.id, version)
                return
            posted = ctx.jira.post_comment(session.ticket, body)
    except JiraError as exc:
        if exc.retryable and attempt < MAX_POST_ATTEMPTS:
            delay = exc.retry_after if exc.retry_after is not None else backoff(attempt)
            log.warning("post of %s v%s: %s; attempt %s again in %g s", session.id, version, exc, attempt + 1, delay)
            # Rescheduled through RQ's scheduler, never a sleep in the worker; the watchdog leaves it alone.
            ctx.store.claim_once(post_scheduled_claim(session.id, version), int(delay) + post_lock_seconds(ctx))
            ctx.queue.enqueue_in(timedelta(seconds=delay), "workers.jobs.post_comment",
                                 session.id, version, attempt + 1)
            return
        _fail(ctx, session, exc.text(session.lang))
        return
    if ctx.store.record_posted(session.id, posted.id, posted.url) is None:
        return
    _say(ctx, session, prompts.notice("posted", session.lang, ticket=session.ticket, url=posted.url))
    _offer_handoff(ctx, session)


def _offer_handoff(ctx: WorkerContext, session: Session) -> None:
    """Seed step 5, after every destination: offer the management-talk rewrite; never run it unasked."""
    offer = prompts.notice("offer_handoff", session.lang)
    _say(ctx, session, prompts.with_button(offer, "button_handoff", prompts.ACTION_HANDOFF, session.id,
                                           session.lang))


def _fail(ctx: WorkerContext, session: Session, reason: str) -> None:
    if ctx.store.record_failed(session.id, reason) is None:
        return
    failed = prompts.notice("post_failed", session.lang, reason=reason)
    _say(ctx, session, prompts.with_button(failed, "button_retry", prompts.ACTION_RETRY, session.id,
                                           session.lang))


def handoff(session_id: str, user: str) -> None:
    """Put the leadership-rewrite job on the management-talk queue (only ever on a person's click)."""
    ctx = current()
    session = ctx.store.get(session_id)
    output_only = session is not None and session.state is S.drafted \
        and session.pm.get("destination", "jira_comment") != "jira_comment"
    if session is None or not (session.state is S.posted or output_only):
        return
    if not ctx.store.claim_once(handoff_claim(session_id), HANDOFF_ONCE_SECONDS):
        return
    pm = model_of(session)
    payload = {"kind": "postmortem", "schema": 1, "ticket": session.ticket, "session": session.id,
               "version": session.approved_version or session.version, "lang": session.lang,
               "markdown": render_markdown(pm),
               "comment_url": session.comment_url, "requested_by": user, "channel": session.channel,
               "thread_ts": session.thread_ts}
    job = ctx.handoff_queue.enqueue("management_talk.rewrite", payload)
    _say(ctx, session, prompts.notice("handed_off", session.lang, job_id=job.id))


def _perform(ctx: WorkerContext, session: Session, effects: list[Effect]) -> None:
    for effect in effects:
        if effect.kind == "say":
            _say(ctx, session, prompts.notice(effect.key, session.lang, **effect.params))
        elif effect.kind == "missing_list":
            missing = [(str(f), str(r)) for f, r in effect.params["missing"]]
            _say(ctx, session, prompts.missing_list(missing, session.lang))
        elif effect.kind == "ephemeral" and effect.user:
            message = prompts.notice(effect.key, session.lang, **effect.params)
            ctx.slack.ephemeral(session.channel, effect.user, message, thread_ts=session.thread_ts)
        elif effect.kind == "advance":
            advance(session.id)
        elif effect.kind == "render":
            render(session.id)
        elif effect.kind == "post" and effect.version is not None:
            post_comment(session.id, effect.version)


def _say(ctx: WorkerContext, session: Session, message: dict[str, Any]) -> str:
    return ctx.slack.post(session.channel, message, thread_ts=session.thread_ts)
