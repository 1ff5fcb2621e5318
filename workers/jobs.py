"""The RQ jobs: move a session on, render and show a draft, post the approved comment once, hand off.

Handlers enqueue these by name (`workers.jobs.<name>`) with JSON arguments; each job re-reads the
session from Redis and does nothing when the session is no longer in the state the job expects.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
from datetime import timedelta
from typing import Any

from slack_sdk.errors import SlackApiError

from postmortem.claims import (
    HANDOFF_ONCE_SECONDS,
    TICKET_CHECKED_SECONDS,
    advance_duty,
    advance_scheduled_claim,
    handoff_claim,
    post_lock,
    question_duty,
    render_lock,
    render_scheduled_claim,
    ticket_checked_claim,
)
from postmortem.conversation import Effect, apply_step, model_of, next_step
from postmortem.limits import postmortem_structure_error
from postmortem.lint import lint
from postmortem.messages import field_label, say
from postmortem.model import PostMortem
from postmortem.retention import job_options
from postmortem.session import Session, State
from postmortem.store import body_digest
from renderers import prompts
from renderers.adf import render_adf
from renderers.jira import CommentTooLong, jira_request, with_requester
from renderers.markdown import render_markdown
from renderers.slack import render_slack
from workers import permissions, posting
from workers.context import WorkerContext, current
from workers.jira_gateway import JiraError
from workers.leases import Lease, Steps
from workers.posting import MAX_POST_ATTEMPTS, backoff
from workers.slack_retry import SLACK_FAILURES, step_delay

log = logging.getLogger(__name__)

#: How long the marks of a draft's steps are kept: as long as a session.
STEP_TTL_SECONDS = 14 * 24 * 3600

__all__ = ["MAX_POST_ATTEMPTS", "advance", "advance_duty", "backoff", "handoff", "perform", "post_comment",
           "post_lock", "question_duty", "render", "render_lock"]


def perform(session_id: str, effects: list[dict[str, Any]], attempt: int = 1) -> None:
    """Carry out effects a handler decided (its state change is already stored)."""
    ctx = current()
    session = ctx.store.get(session_id)
    if session is not None:
        _perform(ctx, session, [Effect(**e) for e in effects], attempt)


def advance(session_id: str, attempt: int = 1) -> None:
    """Post the parent message if there is none yet, then take the next step of the conversation."""
    ctx = current()
    if advance_duty(session_id) not in ctx.store.duties():  # a later step (an answer): as it always ran
        _advance(ctx, session_id, attempt)
        return
    with Lease(ctx.store, advance_duty(session_id), ctx.policy.lease_seconds) as lease:
        if not lease.acquired:  # another run is starting the thread; the watchdog covers its death
            return
        ctx.store.release_claim(advance_scheduled_claim(session_id))
        if _advance(ctx, session_id, attempt):
            ctx.store.settle(advance_duty(session_id))


def _advance(ctx: WorkerContext, session_id: str, attempt: int) -> bool:
    """False when the step was rescheduled (the duty stays owed)."""
    session = ctx.store.get(session_id)
    if session is None or session.is_final:
        return True
    if session.thread_ts is None:
        parent = prompts.notice("parent", session.lang, ticket=session.ticket, user=session.requester)
        try:
            ts = ctx.slack.post(session.channel, parent)
        except SLACK_FAILURES as exc:
            delay = step_delay(exc, attempt)
            if delay is not None:
                ctx.store.note(advance_scheduled_claim(session_id), "1", int(delay + 2 * ctx.policy.lease_seconds) + 5)
                _later(ctx, delay, "advance", session_id, attempt + 1)
                return False
            if isinstance(exc, SlackApiError):  # not in the channel, archived, a DM the bot cannot post in…
                _thread_failed(ctx, session, str(exc.response.get("error", "error")))
            return True
        session = ctx.store.bind_thread(session_id, session.channel, ts) or session
    if not _ticket_exists(ctx, session):
        return True
    outcome = apply_step(ctx.store, session_id, next_step)
    if outcome is not None:
        _perform(ctx, ctx.store.get(session_id) or session, list(outcome.effects), 1)
    return True


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
                             expect_states={State.collecting, State.scope_check})
    if asked is not None:
        missing = "ticket_hidden" if ctx.permission_check else "ticket_not_found"  # one answer: no key oracle
        _say(ctx, asked, prompts.notice(missing, asked.lang, ticket=asked.ticket))
    return False


def render(session_id: str, attempt: int = 1) -> None:
    """Render the version being drafted, show it in the thread with the exact request body, ask for approval.

    Each message is posted once (`Steps`): a run after a crash or a Slack outage continues where the last
    one stopped; a drafted session whose question is still owed gets only the question."""
    ctx = current()
    session = ctx.store.get(session_id)
    if session is None:
        return
    ctx.store.release_claim(render_scheduled_claim(session_id))
    duty = question_duty(session_id, session.version)
    if session.state is not State.rendering and not (session.state is State.drafted and duty in ctx.store.duties()):
        return
    with Lease(ctx.store, render_lock(session_id, session.version), ctx.policy.lease_seconds) as lease:
        if not lease.acquired:
            return
        current_ = ctx.store.get(session_id)
        if current_ is None or current_.version != session.version:
            return
        steps = draft_steps(ctx, current_)
        try:
            if current_.state is State.rendering:
                _render_locked(ctx, current_, steps)
            elif current_.state is State.drafted:
                _ask(ctx, current_, steps)
        except SLACK_FAILURES as exc:  # backoff counts failures of one step: progress starts it again
            _render_slack_failed(ctx, current_, attempt if steps.performed == 0 else 1, exc)


def draft_steps(ctx: WorkerContext, session: Session) -> Steps:
    """The steps of showing one version's draft, each done once."""
    return Steps(ctx.store, f"draft:{session.id}:{session.version}", STEP_TTL_SECONDS)


def _render_slack_failed(ctx: WorkerContext, session: Session, attempt: int, exc: BaseException) -> None:
    delay = step_delay(exc, attempt)
    if delay is not None:
        log.warning("showing the draft of %s failed (%s); again in %.1f s", session.id, exc, delay)
        ttl = int(delay + 2 * ctx.policy.lease_seconds) + 5
        ctx.store.note(render_scheduled_claim(session.id), str(attempt + 1), ttl)
        _later(ctx, delay, "render", session.id, attempt + 1)
        return
    error = exc.response.get("error", "error") if isinstance(exc, SlackApiError) else type(exc).__name__
    reason = say("slack_refused_draft", session.lang, error=error)
    ctx.store.settle(question_duty(session.id, session.version))
    if ctx.store.record_failed(session.id, reason) is not None:
        with contextlib.suppress(*SLACK_FAILURES):
            _say(ctx, session, prompts.notice("render_failed", session.lang, reason=reason))


def _render_locked(ctx: WorkerContext, session: Session, steps: Steps) -> None:
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
    _show_draft(ctx, session, pm, body, steps, to_jira=to_jira, adf=adf)


def _with_requester(ctx: WorkerContext, session: Session, adf: dict[str, Any]) -> dict[str, Any]:
    """The comment's last paragraph: who asked, and a link to the thread (fetched now, so it is in the bytes shown)."""
    thread_url = ctx.slack.permalink(session.channel, session.thread_ts) if session.thread_ts else None
    return with_requester(adf, name=ctx.slack.user_name(session.requester), thread_url=thread_url,
                          lang=session.lang)


def _show_draft(ctx: WorkerContext, session: Session, pm: PostMortem, body: bytes, steps: Steps, *,
                to_jira: bool, adf: dict[str, Any] | None = None) -> None:
    """Draft, tone notes, the exact body as a file, a line saying it was shown, then the question.

    The session becomes approvable (drafted) at that line, after the file and before the question, so a
    reply typed once the question is visible is always handled, and none typed before the file was visible
    can approve it (it binds to the version shown before its timestamp). The question is a duty from then
    until it is in the thread, so a worker dying in between is covered by the watchdog."""
    for i, message in enumerate(render_slack(pm, adf=adf)):
        steps.once(f"message-{i}", lambda m=message: _say(ctx, session, m))  # type: ignore[misc]
    if warnings := lint(pm):
        notes = prompts.lint_warnings([(w.field, w.text) for w in warnings], session.lang)
        steps.once("lint", lambda: _say(ctx, session, notes))
    filename, question = _attachment(session, to_jira=to_jira, destination=pm.destination)
    steps.once("file", lambda: ctx.slack.upload(session.channel, session.thread_ts, filename=filename,
                                                 content=body, title=filename))
    shown = prompts.notice("body_shown", session.lang, version=session.version) if to_jira else question
    shown_ts = steps.once("shown", lambda: _say(ctx, session, shown))
    duty = question_duty(session.id, session.version)
    if to_jira:
        ctx.store.owe(duty)
    drafted = ctx.store.mark_drafted(session.id, version=session.version, shown_at=float(shown_ts),
                                     message_ts=shown_ts)
    if drafted is not None and to_jira:  # cancelled meanwhile: no question with buttons after "Cancelled"
        _ask(ctx, drafted, steps)
        return
    ctx.store.settle(duty)
    if drafted is not None:  # output only: the record is delivered, so the seed's step 5 offer follows
        steps.once("offer", lambda: _say(ctx, session, posting.handoff_offer(session)))


def _ask(ctx: WorkerContext, session: Session, steps: Steps) -> None:
    """The approval question of a drafted version, once; then the duty is settled."""
    question = prompts.approval_question(session.id, ticket=session.ticket, version=session.version,
                                         lang=session.lang)
    steps.once("question", lambda: _say(ctx, session, question))
    ctx.store.settle(question_duty(session.id, session.version))


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
    """POST the approved bytes to Jira exactly once, then tell the thread (workers/posting.py)."""
    posting.run(current(), session_id, version, attempt)


def handoff(session_id: str, user: str) -> None:
    """Put the leadership-rewrite job on the management-talk queue (only ever on a person's click)."""
    ctx = current()
    session = ctx.store.get(session_id)
    output_only = session is not None and session.state is State.drafted \
        and session.inputs.get("destination", "jira_comment") != "jira_comment"
    # Posted (or posting, its link already shown), or an output-only draft delivered to the thread.
    if session is None or not (session.comment_url is not None or output_only):
        return
    if not ctx.store.claim_once(handoff_claim(session_id), HANDOFF_ONCE_SECONDS):
        return
    pm = model_of(session)
    payload = {"kind": "postmortem", "schema": 1, "ticket": session.ticket, "session": session.id,
               "version": session.approved_version or session.version, "lang": session.lang,
               "markdown": render_markdown(pm),
               "comment_url": session.comment_url, "requested_by": user, "channel": session.channel,
               "thread_ts": session.thread_ts}
    job = ctx.handoff_queue.enqueue("management_talk.rewrite", payload, **job_options())
    _say(ctx, session, prompts.notice("handed_off", session.lang, job_id=job.id))


#: Effects that only say something; when Slack fails they are rescheduled, in order, and the rest go on.
_SAYING = frozenset({"say", "missing_list", "ephemeral"})


def _perform(ctx: WorkerContext, session: Session, effects: list[Effect], attempt: int) -> None:
    deferred: list[Effect] = []
    failure: BaseException | None = None
    for effect in effects:
        if effect.kind in _SAYING and deferred:
            deferred.append(effect)
            continue
        try:
            _perform_one(ctx, session, effect)
        except SLACK_FAILURES as exc:
            if effect.kind not in _SAYING or step_delay(exc, attempt) is None:
                raise
            deferred.append(effect)
            failure = exc
    if deferred and failure is not None:
        delay = step_delay(failure, attempt) or backoff(attempt)
        log.warning("Slack failed (%s); %s message(s) of %s again in %.1f s", failure, len(deferred), session.id,
                    delay)
        _later(ctx, delay, "perform", session.id, [_effect_json(e) for e in deferred], attempt + 1)


def _perform_one(ctx: WorkerContext, session: Session, effect: Effect) -> None:
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


def _effect_json(effect: Effect) -> dict[str, Any]:
    return dataclasses.asdict(effect)


def _later(ctx: WorkerContext, delay: float, job: str, *args: Any) -> None:
    """Run `workers.jobs.<job>` again after `delay` seconds through RQ's scheduler (never a sleep here)."""
    ctx.queue.enqueue_in(timedelta(seconds=max(0.0, delay)), f"workers.jobs.{job}", *args, **job_options())


def _say(ctx: WorkerContext, session: Session, message: dict[str, Any]) -> str:
    return ctx.slack.post(session.channel, message, thread_ts=session.thread_ts)
