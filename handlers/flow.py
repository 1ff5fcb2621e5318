"""The synchronous middle of each listener: parse, make one atomic state change, enqueue the effects.

Listeners (handlers/listeners.py) ack and run these in a thread; nothing here calls Slack or Jira. A thread
reply: `thread_reply` → sessions/replies.py decides what it means (inside the store's atomic update) →
`_bind_approval` when it approves → `enqueue_effects` (workers/jobs.py `perform` says it and posts). The
modal's submission is handlers/form.py's, on the same `apply_and_enqueue`.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from dataclasses import asdict
from typing import Any

from handlers.amend import abandon as abandon_amendment
from handlers.amend import amend_view, frozen
from handlers.deps import EVENT_DEDUP_SECONDS, Deps
from renderers.modal import build_modal
from renderers.prompts import answer_of_action
from rules.triggers import language_of
from sessions import amendment, replies
from sessions.claims import event_claim, gone_told_claim
from sessions.conversation import Effect, Outcome, apply_step
from sessions.session import (
    CANCELLABLE_STATES,
    REVISED_STATES,
    Session,
    State,
    editable,
    may_approve,
    may_publish,
    revision_step,
)

log = logging.getLogger(__name__)


def thread_reply(
    deps: Deps,
    *,
    channel: str,
    thread_ts: str,
    user: str,
    text: str,
    ts: str,
    event_id: str | None,
    bot_user_id: str | None = None,
) -> bool:
    """A message in a thread: if it is a session's thread, decide what it means and act once. Returns whether
    the thread is a session's (the message is then the session's, and nothing else reads it)."""
    session = deps.store.find_by_thread(channel, thread_ts)
    if session is None:
        return False
    claim = event_claim(event_id) if event_id else None
    if claim and not deps.store.claim_once(claim, EVENT_DEDUP_SECONDS):
        log.info("event %s already handled (Slack retry)", event_id)
        return True
    try:
        apply_and_enqueue(
            deps,
            session.id,
            lambda s: amendment.on_reply(
                s, text, user=user, approvers=deps.approvers, ts=float(ts), bot_user_id=bot_user_id
            ),
        )
    except Exception:
        if claim:  # not handled after all: let Slack's retry of this event through
            deps.store.release_claim(claim)
        raise
    return True


#: A person writing in a thread whose session is gone is told so at most this often.
GONE_TOLD_SECONDS = 600


def reply_without_session(deps: Deps, *, channel: str, thread_ts: str, user: str, text: str) -> None:
    """A reply in a thread the bot started whose session is gone (expired, or lost with a Redis that kept
    nothing): a worker looks at the thread's parent, and if it is a post-mortem's, tells the person privately
    (workers/jobs.py `session_gone`); other threads of the bot's stay silent. Once a while per person and thread."""
    if deps.store.claim_once(gone_told_claim(channel, thread_ts, user), GONE_TOLD_SECONDS):
        deps.enqueue("session_gone", channel, thread_ts, user, deps.default_lang or language_of(text))


class SessionGone(Exception):
    """A button named a session that is no longer stored, or expired: the listener tells the person who clicked."""


def answer_click(deps: Deps, *, body: dict[str, Any]) -> None:
    """A question's button or Done (DESIGN §4 "Modal"): the options given become that field's answer."""
    action = (body.get("actions") or [{}])[0]
    answer = answer_of_action(str(action.get("action_id") or ""), body.get("state"))
    session_id, user = str(action.get("value") or ""), str((body.get("user") or {}).get("id", ""))
    if answer is None or not session_id:
        return
    field, values = answer
    found = deps.store.get(session_id)
    if found is None or found.state is State.expired:
        raise SessionGone(session_id)
    apply_and_enqueue(
        deps, session_id, lambda s: replies.on_choice(s, field, values, user=user, approvers=deps.approvers)
    )


def apply_and_enqueue(deps: Deps, session_id: str, step: Callable[[Session], Outcome]) -> None:
    """Run a pure step inside the atomic update, then bind an approval and enqueue what it decided."""
    outcome = apply_step(deps.store, session_id, step)
    if outcome is None:
        return
    effects: list[Effect] = []
    for effect in outcome.effects:
        effects += _bind_approval(deps, session_id, effect) if effect.kind == "approve" else [effect]
    enqueue_effects(deps, session_id, effects)


def _bind_approval(deps: Deps, session_id: str, effect: Effect) -> list[Effect]:
    """Bind the approval to the version shown, once (drafted → posting); a repeat is told, not posted."""
    user, version = effect.user or "", effect.version or 0
    reviewer = deps.approval == "reviewer"
    approved = deps.store.approve(session_id, version=version, user=user, approvers=deps.approvers, reviewer=reviewer)
    if approved is None:  # why, read only then (the store's check is the one that decides)
        session = deps.store.get(session_id) if reviewer else None
        if session is not None and not may_publish(session, user, deps.approvers, reviewer=True):
            return [Effect("say", "needs_reviewer", {"requester": session.requester, "version": version})]
        return [Effect("say", "already_approved", {"version": version})]
    said = "amending" if approved.amending else "posting"
    posting = Effect("say", said, {"user": user, "version": version, "ticket": approved.ticket})
    return [posting, Effect("post", version=version)]


def enqueue_effects(deps: Deps, session_id: str, effects: list[Effect]) -> None:
    if effects:
        deps.enqueue("perform", session_id, [asdict(e) for e in effects])


def edit_view(deps: Deps, *, session_id: str, user: str, amend: bool = False) -> dict[str, Any] | None:
    """The Edit button: the prefilled modal, or None after telling the person why not (third revision...).
    On a posted record Edit and Amend (`amend`) alike open the form for version N+1 (DESIGN §4 "Amendment")."""
    session = _session_for(deps, session_id, user)
    if session is None:
        return None
    if amendment.amendable(session):  # Amend, or Edit, on a posted record: version N+1 (handlers/amend.py)
        return amend_view(deps, session)
    if not editable(session):  # also resumes a session still collecting inputs (f-home)
        enqueue_effects(deps, session.id, [frozen(session)])
        return None
    if session.state in REVISED_STATES and revision_step(session) == "ask_target":
        asked = deps.store.update(
            session.id,
            lambda s: s.with_changes(awaiting_revision_target=True, revision_requests=s.revision_requests + 1),
        )
        if asked is not None:
            enqueue_effects(deps, session.id, [Effect("say", "third_revision")])
        return None
    values = {**session.inputs, "ticket": session.ticket, "lang": session.lang}
    meta = json.dumps({"session": session.id, "channel": session.channel, "version": session.version})
    return build_modal(ticket=session.ticket, values=values, lang=session.lang, private_metadata=meta)


def _session_for(deps: Deps, session_id: str, user: str) -> Session | None:
    """The session a button acts on, if `user` may act on it; anyone else is told privately who may. Raises
    SessionGone when it is no longer stored."""
    session = deps.store.get(session_id)
    if session is None or session.state is State.expired:
        raise SessionGone(session_id)
    if not may_approve(session, user, deps.approvers):
        enqueue_effects(deps, session.id, [_ephemeral_only(session, user)])
        return None
    return session


def cancel(deps: Deps, *, session_id: str, user: str) -> None:
    """The Cancel button."""
    session = _session_for(deps, session_id, user)
    if session is None:
        return
    if session.amending and session.state in CANCELLABLE_STATES:  # gives up the amendment, never the record
        abandon_amendment(deps, session.id)
        return
    if deps.store.transition(session.id, CANCELLABLE_STATES, State.cancelled, pending_field=None) is not None:
        enqueue_effects(deps, session.id, [Effect("say", "cancelled")])
    elif session.approved_version is not None:
        enqueue_effects(deps, session.id, [frozen(session)])


def retry(deps: Deps, *, session_id: str, user: str) -> None:
    """The Retry button after a failure: post the same approved bytes again, or render again."""
    session = _session_for(deps, session_id, user)
    if session is None:
        return
    if session.state is State.collecting and session.thread_ts is None:  # the thread could not be started
        deps.enqueue("advance", session.id)
        return
    retried = deps.store.retry(session.id)
    if retried is not None and retried.state is State.posting and retried.approved_version is not None:
        enqueue_effects(deps, session.id, [Effect("post", version=retried.approved_version)])
    elif retried is not None:
        enqueue_effects(deps, session.id, [Effect("render")])


def handoff(deps: Deps, *, session_id: str, user: str) -> None:
    """The hand-off button: only ever on a click (never automatic), by the requester or an approver."""
    if _session_for(deps, session_id, user) is not None:
        deps.enqueue("handoff", session_id, user)


def _ephemeral_only(session: Session, user: str) -> Effect:
    return Effect("ephemeral", "only_approvers", {"requester": session.requester}, user=user)
