"""A version's draft shown in the thread: the Slack messages, tone notes, the exact request body as a file, a
line saying it was shown, then the approval question.

Each message is posted once (`Steps`): a run after a crash or a Slack outage continues where the last one
stopped; a drafted session whose question is still owed gets only the question. Slack failures reschedule
the run (workers/slack_retry.py `step_delay`); errors that cannot pass fail the draft, inputs kept.
"""

from __future__ import annotations

import contextlib
import logging
from typing import Any

from postmortem.limits import postmortem_structure_error
from postmortem.messages import field_label, say
from postmortem.model import PostMortem
from renderers import prompts
from renderers.amendment import amend_question
from renderers.draft import RenderTooSlow, render_draft, too_slow_text
from renderers.followups import slotted
from renderers.jira import CommentTooLong, with_requester
from renderers.jira_comment import comment_request
from rules.lint import lint
from sessions.claims import draft_steps_scope, question_duty, render_lock, render_scheduled_claim
from sessions.conversation import model_of
from sessions.records import body_digest
from sessions.session import Session, State
from workers import amending, followup_drafts, posting
from workers.context import WorkerContext
from workers.leases import Lease, Steps
from workers.slack_retry import SLACK_FAILURES, failure_name, step_delay

log = logging.getLogger(__name__)


def run(ctx: WorkerContext, session_id: str, attempt: int) -> None:
    """One run of showing the version being drafted; any number of runs show each message once."""
    session = ctx.store.get(session_id)
    if session is None:
        return
    ctx.store.release_claim(render_scheduled_claim(session_id))
    duty = question_duty(session_id, session.version)
    if session.state is not State.rendering and not (session.state is State.drafted and ctx.store.owes(duty)):
        return
    with Lease(ctx.store, render_lock(session_id, session.version), ctx.policy.lease_seconds) as lease:
        if not lease.acquired:
            return
        latest = ctx.store.get(session_id)
        if latest is None or latest.version != session.version:
            return
        steps = draft_steps(ctx, latest)
        try:
            if latest.state is State.rendering:
                _render_locked(ctx, latest, steps)
            elif latest.state is State.drafted:
                _ask(ctx, latest, steps)
        except SLACK_FAILURES as exc:  # backoff counts failures of one step: progress starts it again
            _render_slack_failed(ctx, latest, attempt if steps.performed == 0 else 1, exc)


def draft_steps(ctx: WorkerContext, session: Session) -> Steps:
    """The steps of showing one version's draft, each done once."""
    return Steps(ctx.store, draft_steps_scope(session.id, session.version), ctx.store.ttl)


def _render_slack_failed(ctx: WorkerContext, session: Session, attempt: int, exc: BaseException) -> None:
    delay = step_delay(exc, attempt)
    if delay is not None:
        log.warning("showing the draft of %s failed (%s); again in %.1f s", session.id, exc, delay)
        ctx.later(delay, "render", session.id, attempt + 1, mark=render_scheduled_claim(session.id))
        return
    ctx.store.settle(question_duty(session.id, session.version))
    _fail(ctx, session, say("slack_refused_draft", session.lang, error=failure_name(exc)))


def _fail(ctx: WorkerContext, session: Session, reason: str) -> None:
    """The draft cannot be shown: record it (Edit and Retry work from `failed`), then say why if Slack can
    take it now (the Home tab and the reminder show a failed session too)."""
    if ctx.store.record_failed(session.id, reason) is not None:
        with contextlib.suppress(*SLACK_FAILURES):
            ctx.say(session, prompts.notice("render_failed", session.lang, reason=reason))


def _render_locked(ctx: WorkerContext, session: Session, steps: Steps) -> None:
    session_id = session.id
    pm = amending.with_earlier_issues(ctx, session, model_of(session))  # an amendment never re-creates them
    if refused := postmortem_structure_error(pm):  # too deep or too large to render: say so plainly
        named = field_label(refused.field.partition(".")[0], "ja") + "：" if session.lang == "ja" else ""
        _fail(ctx, session, f"{named}{refused.message}" if named else str(refused))
        return
    try:  # under a watchdog: out of time, the step fails naming the field, and this worker goes on
        shown = slotted(pm) if pm.destination == "jira_comment" else pm
        draft = render_draft(shown, jira_url=ctx.jira_url)
    except RenderTooSlow as exc:
        _fail(ctx, session, too_slow_text(exc, session.lang))
        return
    markdown, adf = draft.markdown, draft.adf  # the Slack preview is made from the ADF too
    to_jira = pm.destination == "jira_comment"
    if to_jira:
        try:
            request = comment_request(
                _with_requester(ctx, session, adf),
                deployment=ctx.jira_deployment,
                session=session.id,
                version=session.version,
                visible_to=ctx.jira_visibility,
            )
        except CommentTooLong as exc:
            _fail(ctx, session, exc.text(session.lang))
            return
        body, digest = request.body, request.sha256
        try:  # the follow-up issues' create bodies, checked as Jira would before anyone approves
            followup_drafts.prepare(ctx, session, pm, body)
        except followup_drafts.Refused as exc:
            _fail(ctx, session, exc.text)
            return
    else:
        body = markdown.encode()
        digest = body_digest(body)
    if ctx.store.save_draft(session_id, session.version, body, digest) is None:
        return
    amending.keep_markdown(ctx, session, markdown)  # what a later amendment's diff compares with
    _show_draft(ctx, session, pm, body, steps, to_jira=to_jira, messages=draft.slack)


def _with_requester(ctx: WorkerContext, session: Session, adf: dict[str, Any]) -> dict[str, Any]:
    """The comment's last paragraph: who asked, and a link to the thread (fetched now, so it is in the bytes shown)."""
    thread_url = ctx.slack.permalink(session.channel, session.thread_ts) if session.thread_ts else None
    name = ctx.slack.user_name(session.requester)
    return with_requester(adf, name=name, thread_url=thread_url, lang=session.lang, debug_url=session.debug_url)


def _show_draft(
    ctx: WorkerContext,
    session: Session,
    pm: PostMortem,
    body: bytes,
    steps: Steps,
    *,
    to_jira: bool,
    messages: list[dict[str, Any]],
) -> None:
    """Draft, tone notes, the exact body as a file, a line saying it was shown, then the question.

    The session becomes approvable (drafted) at that line, after the file and before the question, so a
    reply typed once the question is visible is always handled, and none typed before the file was visible
    can approve it (it binds to the version shown before its timestamp). The question is a duty from then
    until it is in the thread, so a worker dying in between is covered by the watchdog."""
    for i, message in enumerate(messages):
        steps.once(f"message-{i}", lambda m=message: ctx.say(session, m))  # type: ignore[misc]
    if warnings := lint(pm):
        notes = prompts.lint_warnings([(w.field, w.text) for w in warnings], session.lang)
        steps.once("lint", lambda: ctx.say(session, notes))
    if session.amending:  # what changes against the posted version, and that the same comment is edited
        steps.once("diff", lambda: ctx.say(session, amending.diff_of(ctx, session)))
    followup_drafts.show(ctx, session, steps)  # each new issue's exact create body, before the comment's
    filename = _filename(session, to_jira=to_jira, destination=pm.destination)
    steps.once(
        "file",
        lambda: ctx.slack.upload(session.channel, session.thread_ts, filename=filename, content=body, title=filename),
    )
    shown = (
        prompts.notice("body_shown", session.lang, version=session.version)
        if to_jira
        else prompts.notice("output_only", session.lang, destination=pm.destination)
    )
    shown_ts = steps.once("shown", lambda: ctx.say(session, shown))
    duty = question_duty(session.id, session.version)
    if to_jira:
        ctx.store.owe(duty)
    drafted = ctx.store.mark_drafted(session.id, version=session.version, shown_at=float(shown_ts), message_ts=shown_ts)
    if drafted is not None and to_jira:  # cancelled meanwhile: no question with buttons after "Cancelled"
        _ask(ctx, drafted, steps)
        return
    ctx.store.settle(duty)
    if drafted is not None:  # output only: the record is delivered, so the hand-off offer follows
        steps.once("offer", lambda: ctx.say(session, posting.handoff_offer(session)))


def _ask(ctx: WorkerContext, session: Session, steps: Steps) -> None:
    """The approval question of a drafted version, once; then the duty is settled."""
    question = prompts.approval_question(session.id, ticket=session.ticket, version=session.version, lang=session.lang)
    if session.amending:  # approving replaces the text of the same comment (renderers/amendment.py)
        question = amend_question(question, ticket=session.ticket, version=session.version, lang=session.lang)
    steps.once("question", lambda: ctx.say(session, question))
    ctx.store.settle(question_duty(session.id, session.version))


def _filename(session: Session, *, to_jira: bool, destination: str) -> str:
    """The attached file: the Jira request body, or the Markdown (under its docs path for `docs_file`)."""
    if to_jira:
        return f"{session.ticket}-postmortem-v{session.version}.json"
    if destination == "docs_file":
        return f"docs/postmortems/{session.ticket}.md"
    return f"{session.ticket}-postmortem-v{session.version}.md"
