"""The synchronous middle of each listener: parse, make one atomic state change, enqueue the effects.

Listeners (handlers/listeners.py) ack and run these in a thread; nothing here calls Slack or Jira. A thread
reply: `thread_reply` → sessions/replies.py decides what it means (inside the store's atomic update) →
`_bind_approval` when it approves → `_enqueue` (workers/jobs.py `perform` says it and posts).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

from handlers.amend import abandon as abandon_amendment
from handlers.amend import amend_view, frozen
from handlers.deps import EVENT_DEDUP_SECONDS, Deps
from postmortem.errors import plain_reason
from postmortem.messages import say
from postmortem.model import InputError, Lang, parse_postmortem
from renderers.modal import INPUT_FIELDS, SCOPE_BLOCK, SCOPE_FLAGS, build_modal, fields_from_view_state
from renderers.prompts import answer_of_action
from rules.triggers import language_of
from sessions import amendment, replies
from sessions.claims import advance_duty, event_claim, gone_told_claim, submission_claim, view_claim
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


def open_view(*, ticket: str | None, channel: str, lang: str) -> dict[str, Any]:
    """The modal for a new post-mortem; the channel rides along in private_metadata."""
    meta = json.dumps({"channel": channel, "lang": lang})
    return build_modal(ticket=ticket, lang=lang, private_metadata=meta)  # type: ignore[arg-type]


#: A second submission of the form for the same ticket by the same person within this time finds the session
#: the first one stored, while that is open, instead of starting another (the first answer may have said it
#: could not confirm; the person was right to submit again).
SUBMISSION_WINDOW_SECONDS = EVENT_DEDUP_SECONDS


@dataclass(frozen=True)
class Accepted:
    """A submitted form's answer: field errors to show in it, or the session that goes on (`found`: one an
    earlier submission of the same ticket by the same person stored)."""

    errors: dict[str, str] | None = None
    session_id: str | None = None
    found: bool = False
    ticket: str = ""


def submit(deps: Deps, *, user: str, view: dict[str, Any]) -> dict[str, str] | None:
    """A submitted modal: a new session (or an edit); field errors keyed by block_id, or None when accepted."""
    accepted = accept(deps, user=user, view=view)
    follow_up(deps, accepted, user=user)
    return accepted.errors


def accept(
    deps: Deps, *, user: str, view: dict[str, Any], digest: str | None = None, deadline: float | None = None
) -> Accepted:
    """The form's answer, with the one write it takes: a new session is stored with everything that must land
    with it in one step (sessions/store.py `start`), or, past `deadline` (epoch seconds), not at all. `digest`
    (of the signed body) makes a replay of the same bytes do nothing (Slack's signature stays valid for 5
    minutes); a corrected resubmission after a field error has new bytes and goes through. What follows the
    answer (a job to enqueue) is `follow_up`'s, so it never holds the answer back."""
    meta = _metadata(view)
    if meta.get("session"):
        return Accepted(errors=_submit_edit_once(deps, digest=digest, user=user, meta=meta, view=view))
    fields, errors = fields_from_view_state(_state_values(view))
    if errors:
        return Accepted(errors=errors)
    ticket = fields.pop("ticket", None)
    lang = fields.pop("lang", None) or meta.get("lang") or deps.default_lang or "en"
    try:
        ticket = parse_postmortem({**fields, "ticket": ticket, "lang": lang}).ticket
    except InputError as exc:
        return Accepted(errors={_block_of(exc.field): plain_reason(exc, _shown(lang))})
    if not meta.get("channel"):
        return Accepted(errors={"ticket": say("form_lost_channel", _shown(lang))})
    session = Session(
        ticket=str(ticket),
        requester=user,
        channel=str(meta["channel"]),
        lang=lang,
        inputs=fields,
    )
    if origin := _origin(meta):  # a message shortcut's debugging thread (handlers/shortcut.py)
        session = session.with_changes(**origin)
    started = deps.store.start(
        session,
        once=submission_claim(user, session.ticket),
        window=SUBMISSION_WINDOW_SECONDS,
        replay=view_claim(digest) if digest else None,
        duty=advance_duty(session.id),  # until a worker started the thread (its watchdog covers a crash)
        deadline=deadline,
    )
    if started.outcome == "replay":
        log.info("a view submission was received again (a replay); ignored")
        return Accepted()
    if started.outcome == "found" and started.session is not None:
        log.info("a submission found session %s, stored by an earlier one", started.session.id)
        return Accepted(session_id=started.session.id, found=True, ticket=started.session.ticket)
    return Accepted(session_id=session.id)


def follow_up(deps: Deps, accepted: Accepted, *, user: str) -> None:
    """After the form's answer: a worker starts the new session's thread (the duty stored with the session has
    the watchdog do it if this never runs), or the person is told where the one they started already is."""
    if accepted.session_id is None:
        return
    if accepted.found:
        found = Effect("ephemeral", "submission_found", {"ticket": accepted.ticket}, user=user)
        _enqueue(deps, accepted.session_id, [found])
    else:
        deps.enqueue("advance", accepted.session_id)


def _submit_edit_once(
    deps: Deps, *, digest: str | None, user: str, meta: dict[str, Any], view: dict[str, Any]
) -> dict[str, str] | None:
    """An Edit form, once per signed body; an error gives the claim back, so the same bytes may try again."""
    claim = view_claim(digest) if digest else None
    if claim and not deps.store.claim_once(claim, EVENT_DEDUP_SECONDS):
        log.info("a view submission was received again (a replay); ignored")
        return None
    try:
        errors = _submit_edit(deps, user=user, session_id=str(meta["session"]), view=view, version=meta.get("version"))
    except Exception:
        if claim:
            deps.store.release_claim(claim)
        raise
    if errors and claim:
        deps.store.release_claim(claim)
    return errors


def _submit_edit(
    deps: Deps, *, user: str, session_id: str, view: dict[str, Any], version: object
) -> dict[str, str] | None:
    session = deps.store.get(session_id)
    if session is None or not may_approve(session, user, deps.approvers):
        lang = session.lang if session is not None else deps.default_lang or "en"
        return {"ticket": say("form_session_gone", _shown(lang))}
    if version != session.version:  # a thread revision made a newer draft while this form was open
        return {"ticket": say("form_draft_changed", session.lang, version=session.version)}
    previous = {**session.inputs, "ticket": session.ticket, "lang": session.lang}
    fields, errors = fields_from_view_state(_state_values(view), previous=previous)
    if errors:
        return errors
    ticket = str(fields.get("ticket") or session.ticket)
    if ticket != session.ticket and (session.amending or amendment.amendable(session)):  # the comment is on this one
        return {"ticket": say("amend_field_fixed", session.lang, field="ticket", ticket=session.ticket)}
    if ticket != session.ticket:  # a new start on that ticket: checked, in a worker (Jira), before any change
        holder = deps.store.open_for_ticket(ticket)
        if holder is not None and holder.id != session.id:
            return {"ticket": say("form_ticket_taken", session.lang, ticket=ticket, current=session.ticket)}
        deps.enqueue("edit_ticket", session.id, session.version, fields, user)
        return None
    _apply_and_enqueue(deps, session_id, lambda s: amendment.on_edit(s, dict(fields)))
    return None


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
        _apply_and_enqueue(
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
    _apply_and_enqueue(
        deps, session_id, lambda s: replies.on_choice(s, field, values, user=user, approvers=deps.approvers)
    )


def _apply_and_enqueue(deps: Deps, session_id: str, step: Callable[[Session], Outcome]) -> None:
    """Run a pure step inside the atomic update, then bind an approval and enqueue what it decided."""
    outcome = apply_step(deps.store, session_id, step)
    if outcome is None:
        return
    effects: list[Effect] = []
    for effect in outcome.effects:
        effects += _bind_approval(deps, session_id, effect) if effect.kind == "approve" else [effect]
    _enqueue(deps, session_id, effects)


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


def _enqueue(deps: Deps, session_id: str, effects: list[Effect]) -> None:
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
        _enqueue(deps, session.id, [frozen(session)])
        return None
    if session.state in REVISED_STATES and revision_step(session) == "ask_target":
        asked = deps.store.update(
            session.id,
            lambda s: s.with_changes(awaiting_revision_target=True, revision_requests=s.revision_requests + 1),
        )
        if asked is not None:
            _enqueue(deps, session.id, [Effect("say", "third_revision")])
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
        _enqueue(deps, session.id, [_ephemeral_only(session, user)])
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
        _enqueue(deps, session.id, [Effect("say", "cancelled")])
    elif session.approved_version is not None:
        _enqueue(deps, session.id, [frozen(session)])


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
        _enqueue(deps, session.id, [Effect("post", version=retried.approved_version)])
    elif retried is not None:
        _enqueue(deps, session.id, [Effect("render")])


def handoff(deps: Deps, *, session_id: str, user: str) -> None:
    """The hand-off button: only ever on a click (never automatic), by the requester or an approver."""
    if _session_for(deps, session_id, user) is not None:
        deps.enqueue("handoff", session_id, user)


def _ephemeral_only(session: Session, user: str) -> Effect:
    return Effect("ephemeral", "only_approvers", {"requester": session.requester}, user=user)


def _shown(lang: object) -> Lang:
    """The language to answer in, whatever the form carried."""
    return "ja" if lang == "ja" else "en"


def _block_of(field: str) -> str:
    """The modal block that shows an error about a model field."""
    name = field.split(".")[0]
    if name in SCOPE_FLAGS:
        return SCOPE_BLOCK
    return name if name in INPUT_FIELDS else "ticket"


def _state_values(view: dict[str, Any]) -> Any:
    state = view.get("state")
    return state.get("values", {}) if isinstance(state, dict) else {}


def _origin(meta: dict[str, Any]) -> dict[str, str]:
    """The debugging thread a message shortcut named in the form's metadata: channel, root ts, https permalink."""
    origin = meta.get("origin")
    if not isinstance(origin, dict) or not origin.get("channel") or not origin.get("ts"):
        return {}
    found = {"debug_channel": str(origin["channel"]), "debug_ts": str(origin["ts"])}
    url = origin.get("url")
    if isinstance(url, str) and url.startswith("https://"):
        found["debug_url"] = url
    return found


def _metadata(view: dict[str, Any]) -> dict[str, Any]:
    try:
        meta = json.loads(view.get("private_metadata") or "{}")
    except (TypeError, ValueError):
        return {}
    return meta if isinstance(meta, dict) else {}
