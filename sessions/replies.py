"""What a thread reply or a question's button does to a session: a table of (phase, kind of reply) → step.

This module owns a reply's meaning; sessions/conversation.py, below it, holds the vocabulary (`Effect`,
`Outcome`) and what the bot asks next, and never calls back here. Pure: handlers/flow.py runs `on_reply` and
`on_choice` inside the store's atomic update (`conversation.apply_step`), binds an approval and enqueues the
effects.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from postmortem.errors import plain_reason
from postmortem.field_table import REGISTRY
from postmortem.fieldtext import updates_from_text
from rules.classifier import Kind, classify_reply
from rules.gate import check_value
from sessions.conversation import OPTIONAL_ASKS, Effect, Outcome, model_of, render_next, say_effect
from sessions.session import Session, State, may_approve, revision_step


@dataclass(frozen=True)
class _Reply:
    """One classified reply with what the steps need to know about it."""

    session: Session
    kind: Kind
    field: str | None
    value: str | None
    text: str
    user: str
    ts: float


def on_reply(
    session: Session, text: str, *, user: str, approvers: frozenset[str], ts: float, bot_user_id: str | None = None
) -> Outcome:
    """A thread reply: approve, cancel, continue, skip, an answer, or a revision. Others' chatter is ignored."""
    reply = classify_reply(text, bot_user_id=bot_user_id)
    if session.state is State.expired and may_approve(session, user, approvers) and reply.kind in _ACTING:
        return Outcome(None, (Effect("ephemeral", "session_gone", user=user),))  # not silence: how to start again
    if session.is_final:
        return Outcome(None)
    if not may_approve(session, user, approvers):
        return _not_theirs(session, reply.kind, user)
    r = _Reply(session, reply.kind, reply.field, reply.value, text, user, ts)
    if reply.kind is Kind.cancel:
        return _cancel(r)
    step = _TABLE.get((_phase(session), reply.kind))
    return step(r) if step is not None else Outcome(None)


def on_choice(session: Session, field: str, values: list[str], *, user: str, approvers: frozenset[str]) -> Outcome:
    """A button or the Done of a checkboxes question (DESIGN §4 "Modal"): the options clicked, as an answer.

    Only while collecting: a click on an old question after the draft is shown changes nothing.
    """
    if session.is_final:
        return Outcome(None)
    if not may_approve(session, user, approvers):
        return _not_theirs(session, Kind.field_answer, user)
    if session.state is not State.collecting:
        return Outcome(None)
    return _answer(session, field, ", ".join(values))


def apply_answer(session: Session, name: str, text: str) -> tuple[Session | None, str | None]:
    """Set one field from a person's text; (None, reason) when the text cannot fill it. Nothing is lost."""
    try:
        updates = updates_from_text(name, text, lang=session.lang)
        ticket = str(updates.pop("ticket", session.ticket))
        candidate = session.with_changes(ticket=ticket, inputs={**session.inputs, **updates})
        model_of(candidate)
    except ValueError as exc:  # InputError and pydantic's ValidationError: a plain sentence, never raw text
        return None, plain_reason(exc, session.lang)
    for key, value in updates.items():
        if reason := check_value(key, value, session.lang):
            return None, reason
    return candidate, None


def _phase(session: Session) -> str:
    """The row of the table: the state, with drafted and failed split by whether an approval was accepted."""
    if session.approved_version is not None:
        return "approved"
    if session.state in (State.drafted, State.failed):
        return "draft"
    return session.state.value


#: Replies that ask the bot to do something (as opposed to talk between people in the thread).
_ACTING = frozenset({Kind.approve, Kind.unclear_approval, Kind.cancel, Kind.field_answer, Kind.revise})


def _not_theirs(session: Session, kind: Kind, user: str) -> Outcome:
    """Someone who may not act: told privately when they tried to act, otherwise their chatter is ignored."""
    acting = kind in (Kind.approve, Kind.cancel, Kind.field_answer) or (
        session.state is State.drafted and kind is Kind.revise
    )
    if not acting:
        return Outcome(None)
    return Outcome(None, (Effect("ephemeral", "only_approvers", {"requester": session.requester}, user=user),))


# The steps, phase by phase; `_TABLE` at the end says which runs. `cancel` is the same in every phase.


def _cancel(r: _Reply) -> Outcome:
    if r.session.state is State.posting:
        return Outcome(None, (say_effect("frozen", version=r.session.approved_version),))
    return Outcome(r.session.with_changes(state=State.cancelled, pending_field=None), (say_effect("cancelled"),))


def _confirm_scope(r: _Reply) -> Outcome:
    return Outcome(r.session.with_changes(state=State.collecting, scope_confirmed=True), (Effect("advance"),))


def _scope_first(r: _Reply) -> Outcome:
    return Outcome(None, (say_effect("scope_first"),))


def _still_rendering(r: _Reply) -> Outcome:
    # Nothing is kept from this reply: the person is told to send it again once the draft is shown.
    return Outcome(None, (say_effect("still_rendering", version=r.session.version),))


def _named_answer(r: _Reply) -> Outcome:
    """`<field>: <text>` while collecting fills that field, whatever was asked."""
    return _answer(r.session, r.field or "", r.value or "") if r.field else Outcome(None)


def _pending_answer(r: _Reply) -> Outcome:
    """Any other text while a question is pending is its answer."""
    pending = r.session.pending_field
    return _answer(r.session, pending, r.text) if pending else Outcome(None)


def _skip(r: _Reply) -> Outcome:
    """`skip` leaves a usually-included section out; a required input cannot be skipped."""
    pending = r.session.pending_field
    if pending and not _required(pending):
        section = next(s for s, fields in OPTIONAL_ASKS if pending in fields)
        changed = r.session.with_changes(skipped=r.session.skipped | {section}, pending_field=None)
        return Outcome(changed, (Effect("advance"),))
    return _not_an_answer(r)


def _not_an_answer(r: _Reply) -> Outcome:
    """ "yes" or "continue" is not an answer to a question (and a required input cannot be skipped)."""
    pending = r.session.pending_field
    if not pending:
        return Outcome(None)
    return Outcome(
        None, (say_effect("answer_rejected", field=pending, reason=check_value(pending, None, r.session.lang) or ""),)
    )


def _answer(session: Session, target: str, answer: str) -> Outcome:
    """Fill one field from an answer; the pending question is cleared once it is filled."""
    pending = session.pending_field
    updated, rejected = apply_answer(session, target, answer)
    if updated is None:
        return Outcome(None, (say_effect("answer_rejected", field=target, reason=rejected or ""),))
    cleared = updated.with_changes(pending_field=None) if target == pending or _filled(updated, pending) else updated
    return Outcome(cleared, (Effect("advance"),))


def _required(name: str) -> bool:
    return name in REGISTRY.required


def _filled(session: Session, pending: str | None) -> bool:
    return pending is not None and pending in session.inputs and bool(session.inputs[pending])


def _approve_shown_draft(r: _Reply) -> Outcome:
    """An approval names the version shown when the reply was sent; handlers/flow.py binds it in the store."""
    session = r.session
    if session.state is not State.drafted or session.inputs.get("destination", "jira_comment") != "jira_comment":
        return (
            Outcome(None, (say_effect("output_only", destination=session.inputs.get("destination")),))
            if session.state is State.drafted
            else Outcome(None)
        )
    shown = session.shown_version(r.ts)
    if shown is None:
        return Outcome(None, (say_effect("approval_before_draft", version=session.version),))
    if shown != session.version:
        return Outcome(None, (say_effect("stale_approval", shown=shown, version=session.version),))
    return Outcome(None, (Effect("approve", user=r.user, version=shown),))


def _how_to_approve(r: _Reply) -> Outcome:
    """A reply that names an approval phrase but is not one: nothing is posted, and the thread says how."""
    if r.session.state is not State.drafted:
        return Outcome(None)
    return Outcome(None, (say_effect("approve_how", version=r.session.version, ticket=r.session.ticket),))


def _draft_answer(r: _Reply) -> Outcome:
    return _revise(r.session, r.field, r.value or "") if r.field else Outcome(None)


def _revise(session: Session, name: str, text: str) -> Outcome:
    if revision_step(session) == "ask_target":
        return _ask_target(session)
    updated, reason = apply_answer(session, name, text)
    if updated is None:
        return Outcome(None, (say_effect("answer_rejected", field=name, reason=reason or ""),))
    return render_next(
        updated.with_changes(awaiting_revision_target=False, revision_requests=session.revision_requests + 1)
    )


def _draft_revise(r: _Reply) -> Outcome:
    if revision_step(r.session) == "ask_target":
        return _ask_target(r.session)
    return Outcome(None, (say_effect("revise_hint_as", field=r.field or "summary"),))


def _ask_target(session: Session) -> Outcome:
    """Seed: at the third revision, ask which section has a concrete problem before changing anything."""
    asked = session.with_changes(awaiting_revision_target=True, revision_requests=session.revision_requests + 1)
    return Outcome(asked, (say_effect("third_revision"),))


def _already_approved(r: _Reply) -> Outcome:
    return Outcome(None, (say_effect("already_approved", version=r.session.approved_version),))


def _frozen(r: _Reply) -> Outcome:
    return Outcome(None, (say_effect("frozen", version=r.session.approved_version),))


#: What a reply does in each phase (`_phase` names the rows), by its kind; a pair not here does nothing.
_TABLE: dict[tuple[str, Kind], Callable[[_Reply], Outcome]] = {
    ("scope_check", Kind.continue_): _confirm_scope,
    ("scope_check", Kind.approve): _scope_first,
    ("scope_check", Kind.field_answer): _scope_first,
    ("rendering", Kind.approve): _still_rendering,
    ("rendering", Kind.field_answer): _still_rendering,
    ("collecting", Kind.field_answer): _named_answer,
    ("collecting", Kind.skip): _skip,
    ("collecting", Kind.approve): _not_an_answer,
    ("collecting", Kind.continue_): _not_an_answer,
    ("collecting", Kind.other): _pending_answer,
    ("collecting", Kind.revise): _pending_answer,
    ("collecting", Kind.unclear_approval): _pending_answer,
    ("draft", Kind.approve): _approve_shown_draft,
    ("draft", Kind.field_answer): _draft_answer,
    ("draft", Kind.revise): _draft_revise,
    ("draft", Kind.unclear_approval): _how_to_approve,
    ("approved", Kind.approve): _already_approved,
    ("approved", Kind.field_answer): _frozen,
    ("approved", Kind.revise): _frozen,
}
