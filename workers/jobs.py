"""The RQ jobs: move a session on, render and show a draft, post the approved comment once, hand off.

Handlers enqueue these by name (`workers.jobs.<name>`) with JSON arguments; each job re-reads the
session from Redis and does nothing when the session is no longer in the state the job expects.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
from typing import Any

from slack_sdk.errors import SlackApiError

from postmortem.model import Lang
from renderers import prompts
from sessions.claims import (
    advance_duty,
    advance_scheduled_claim,
    question_duty,
    ticket_checked_claim,
)
from sessions.conversation import Effect, Outcome, apply_step, next_step, on_edit
from sessions.session import Session, State
from workers import amending, drafting, duplicates, followup_duplicates, handing_off, permissions, posting, prefill
from workers.approved import MAX_POST_ATTEMPTS, backoff
from workers.context import WorkerContext, current
from workers.jira_gateway import JiraError
from workers.leases import Lease
from workers.slack_gateway import SESSION_EVENT_TYPE
from workers.slack_retry import SLACK_FAILURES, failure_name, step_delay

log = logging.getLogger(__name__)

__all__ = [
    "MAX_POST_ATTEMPTS",
    "advance",
    "advance_duty",
    "backoff",
    "edit_ticket",
    "handoff",
    "perform",
    "post_comment",
    "question_duty",
    "remove_duplicates",
    "remove_followup_duplicates",
    "render",
    "session_gone",
]


def perform(session_id: str, effects: list[dict[str, Any]], attempt: int = 1) -> None:
    """Carry out effects a handler decided (its state change is already stored)."""
    ctx = current()
    session = ctx.store.get(session_id)
    if session is not None:
        _perform(ctx, session, [Effect(**e) for e in effects], attempt)


def advance(session_id: str, attempt: int = 1) -> None:
    """Post the parent message if there is none yet, then take the next step of the conversation."""
    ctx = current()
    if not ctx.store.owes(advance_duty(session_id)):  # a later step (an answer): as it always ran
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
        parent["metadata"] = {"event_type": SESSION_EVENT_TYPE, "event_payload": {"ticket": session.ticket}}
        try:
            ts = ctx.slack.post(session.channel, parent)
        except SLACK_FAILURES as exc:
            delay = step_delay(exc, attempt)
            if delay is not None:
                ctx.later(delay, "advance", session_id, attempt + 1, mark=advance_scheduled_claim(session_id))
                return False
            if isinstance(exc, SlackApiError):  # not in the channel, archived, a DM the bot cannot post in…
                _thread_failed(ctx, session, failure_name(exc))
            return True
        session = ctx.store.bind_thread(session_id, session.channel, ts) or session
        prefill.tell_debug_thread(ctx, session)  # a message shortcut's debugging thread links to this one
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
        refusal = permissions.ticket_refusal(ctx, session.requester, session.ticket)
    except JiraError as exc:  # Jira down now: go on; the post will say so and offer Retry
        log.warning("could not check %s in Jira: %s", session.ticket, exc)
        return True
    if refusal is None:
        ctx.store.claim_once(checked, ctx.store.ttl)
        return True
    asked = ctx.store.update(
        session.id,
        lambda s: s.with_changes(pending_field="ticket"),
        expect_states={State.collecting, State.scope_check},
    )
    if asked is not None:
        ctx.say(asked, prompts.notice(refusal, asked.lang, ticket=asked.ticket))
    return False


def edit_ticket(session_id: str, version: int, fields: dict[str, Any], user: str) -> None:
    """An Edit that moves the post-mortem to another ticket is a new start on that ticket (SECURITY.md): it is
    applied only once that ticket passes what a new session's ticket passes (it exists in Jira and the
    requester may comment on it: `permissions.ticket_refusal`) and no other open session holds it. Otherwise
    the thread is told why, and nothing changes: the draft stays on its ticket."""
    ctx = current()
    session = ctx.store.get(session_id)
    ticket = str(fields.get("ticket") or "")
    if session is None or session.is_final or not ticket or ticket == session.ticket:
        return
    refusal = _retarget_refusal(ctx, session, ticket)
    if refusal is not None:
        key, params = refusal
        ctx.say(session, prompts.notice(key, session.lang, ticket=ticket, current=session.ticket, **params))
        return
    ctx.store.claim_once(ticket_checked_claim(session.id, ticket), ctx.store.ttl)

    def step(current_session: Session) -> Outcome:
        if current_session.version != version:  # a thread revision made a newer draft meanwhile
            return Outcome(None, (Effect("say", "edit_draft_changed", {"version": current_session.version}),))
        return on_edit(current_session, dict(fields))

    log.info("session %s moves from %s to %s (edited by %s)", session.id, session.ticket, ticket, user)
    outcome = apply_step(ctx.store, session_id, step)
    if outcome is not None:
        _perform(ctx, ctx.store.get(session_id) or session, list(outcome.effects), 1)


def _retarget_refusal(ctx: WorkerContext, session: Session, ticket: str) -> tuple[str, dict[str, str]] | None:
    """Why a session may not move to `ticket`: a catalogue key and its parameters, or None."""
    holder = ctx.store.open_for_ticket(ticket)
    if holder is not None and holder.id != session.id:
        return "edit_ticket_taken", {}
    try:
        refusal = permissions.ticket_refusal(ctx, session.requester, ticket)
    except JiraError as exc:  # unlike a new session, a draft can wait: the edit is tried again later
        log.warning("could not check %s in Jira for an edit of %s: %s", ticket, session.id, exc)
        return "edit_ticket_unchecked", {"reason": exc.text(session.lang)}
    if refusal is not None:
        return f"edit_{refusal}", {"requester": session.requester}
    return None


#: The message shortcut's job (handlers/shortcut.py): read the thread and the issue, then update the open modal.
#: Named here so every job a worker runs is one of this module's or offers' (workers/allowed.py).
prefill_modal = prefill.fill


def session_gone(channel: str, thread_ts: str, user: str, lang: str) -> None:
    """Someone wrote in a thread whose session is gone (handlers/flow.py `reply_without_session`): if its
    parent is a post-mortem's (its metadata says so), they are told privately, with how to start again.
    Any other thread of the bot's (an offer, a DM) stays silent."""
    ctx = current()
    if ctx.store.find_by_thread(channel, thread_ts) is not None or not ctx.slack.is_session_parent(channel, thread_ts):
        return
    shown: Lang = "ja" if lang == "ja" else "en"
    ctx.slack.ephemeral(channel, user, prompts.notice("session_gone", shown), thread_ts=thread_ts)


def render(session_id: str, attempt: int = 1) -> None:
    """Render the version being drafted, show it in the thread with the exact request body, ask for approval
    (workers/drafting.py)."""
    drafting.run(current(), session_id, attempt)


def _thread_failed(ctx: WorkerContext, session: Session, error: str) -> None:
    """The thread could not be started: tell the requester privately, keep every input, offer Retry."""
    log.warning("cannot post in %s for session %s: %s", session.channel, session.id, error)
    if ctx.store.update(session.id, lambda s: s.with_changes(error=f"slack: {error}")) is None:
        return
    message = prompts.notice("slack_failed", session.lang, ticket=session.ticket, channel=session.channel, error=error)
    with contextlib.suppress(SlackApiError):  # a DM to the requester (chat:write to a user id)
        ctx.slack.post(
            session.requester,
            prompts.with_button(message, "button_retry", prompts.ACTION_RETRY, session.id, session.lang),
        )


def post_comment(session_id: str, version: int, attempt: int = 1) -> None:
    """POST the approved bytes to Jira exactly once, then tell the thread (workers/posting.py); an amendment of a
    posted record PUTs them over the same comment instead (workers/amending.py)."""
    ctx = current()
    session = ctx.store.get(session_id)
    if session is not None and session.amending:
        amending.run(ctx, session_id, version, attempt)
    else:
        posting.run(ctx, session_id, version, attempt)


def remove_duplicates(session_id: str, version: int) -> None:
    """After a POST that may have been stored twice: delete the comment not linked in the thread
    (workers/duplicates.py)."""
    duplicates.remove(current(), session_id, version)


def remove_followup_duplicates(session_id: str, version: int) -> None:
    """After a create that may have been stored twice: delete the extra issues (workers/followup_duplicates.py)."""
    followup_duplicates.remove(current(), session_id, version)


def handoff(session_id: str, user: str) -> None:
    """Put the leadership-rewrite job on the management-talk queue (only ever on a person's click)."""
    handing_off.request(current(), session_id, user)


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
        log.warning("Slack failed (%s); %s message(s) of %s again in %.1f s", failure, len(deferred), session.id, delay)
        ctx.later(delay, "perform", session.id, [_effect_json(e) for e in deferred], attempt + 1)


def _perform_one(ctx: WorkerContext, session: Session, effect: Effect) -> None:
    if effect.kind == "say":
        ctx.say(session, prompts.notice(effect.key, session.lang, **effect.params))
    elif effect.kind == "missing_list":
        missing = [(str(f), str(r)) for f, r in effect.params["missing"]]
        ctx.say(session, prompts.missing_list(missing, session.lang))
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
