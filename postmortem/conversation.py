"""What the bot does next in a session, as data: pure decisions that handlers store and workers carry out.

Handlers run `on_reply` inside the store's atomic update (`apply_step`) and enqueue the effects; the
worker runs `next_step` the same way to move a collecting session on. Nothing here talks to Slack or Jira,
and only `apply_step` touches Redis, through the store it is given.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from postmortem.approval import Kind, classify_reply
from postmortem.fieldtext import updates_from_text
from postmortem.gate import check_field, check_inputs, check_scope
from postmortem.model import InputError, PostMortem
from postmortem.scope_text import scope_question
from postmortem.session import S, Session, begin_render, may_approve, revision_step
from postmortem.store import SessionStore

EffectKind = Literal["advance", "render", "approve", "post", "say", "missing_list", "ephemeral"]

#: The usually-included sections, and the field asked for each when it is empty (seed 構成).
OPTIONAL_ASKS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("symptom", ("symptom",)),
    ("why_symptom", ("why_symptom",)),
    ("how_found", ("how_found",)),
    ("why_missed", ("why_missed", "why_missed_category")),
    ("action_items", ("action_items", "action_items_none")),
)


@dataclass(frozen=True)
class Effect:
    """One thing to do after the state change is stored: a job to enqueue or a message to send."""

    kind: EffectKind
    key: str = ""                       # message key in postmortem.messages (say / ephemeral)
    params: dict[str, Any] = field(default_factory=dict)
    user: str | None = None             # ephemeral recipient
    version: int | None = None          # post


@dataclass(frozen=True)
class Outcome:
    """The session to store (None: leave it as it is) and what to do once it is stored."""

    session: Session | None
    effects: tuple[Effect, ...] = ()


def apply_step(store: SessionStore, session_id: str, step: Callable[[Session], Outcome]) -> Outcome | None:
    """Run a pure step inside the store's atomic update (it may run more than once on a race): the outcome
    of the run that was stored, or None when the session changed under it and nothing was stored."""
    outcomes: list[Outcome] = []

    def mutate(current: Session) -> Session | None:
        outcomes.append(step(current))
        return outcomes[-1].session

    stored = store.update(session_id, mutate)
    if not outcomes or (outcomes[-1].session is not None and stored is None):
        return None
    return outcomes[-1]


def model_of(session: Session) -> PostMortem:
    """The session's inputs as the model (ticket and language come from the session)."""
    return PostMortem.model_validate({**session.pm, "ticket": session.ticket, "lang": session.lang})


def _say(key: str, **params: Any) -> Effect:
    return Effect("say", key, params)


def next_step(session: Session) -> Outcome:
    """Move a collecting session on: scope first, then the four inputs, then the usually-included sections."""
    if session.state not in (S.collecting, S.scope_check) or session.pending_field:
        return Outcome(None)
    pm = model_of(session)
    confirmed = session.scope_confirmed  # a flag stops; a scope read from the text only asks (scope_text)
    if stop := check_scope(pm, confirmed=confirmed) or scope_question(pm, confirmed=confirmed):
        if not stop.confirmable:
            return Outcome(session.with_changes(state=S.cancelled), (_say("declined", reason=stop.reason),))
        if session.state is S.scope_check:
            return Outcome(None)
        return Outcome(session.with_changes(state=S.scope_check), (_say("scope_stop", reason=stop.reason),))
    if missing := check_inputs(pm):
        first = missing[0]
        effects: list[Effect] = []
        if not session.listed_missing:
            effects.append(Effect("missing_list", params={"missing": [[m.field, m.reason] for m in missing]}))
        effects.append(_say("ask_field", field=first.field, reason=first.reason))
        return Outcome(session.with_changes(pending_field=first.field, listed_missing=True), tuple(effects))
    for section, fields in OPTIONAL_ASKS:
        if section not in session.skipped and _empty(pm, fields[0]):
            changes = {"pending_field": fields[0], "asked_optional": True}
            return Outcome(session.with_changes(**changes), (_say("ask_optional", field=fields[0]),))
    return _render(session.with_changes(pending_field=None))


def _render(session: Session) -> Outcome:
    """Move to rendering a new version and say so; the worker renders it."""
    rendering = begin_render(session)
    if rendering is None:
        return Outcome(None)
    return Outcome(rendering, (_say("rendering", version=rendering.version), Effect("render")))


def _empty(pm: PostMortem, name: str) -> bool:
    if name == "action_items":
        return not pm.action_items and not pm.action_items_none
    return not pm.text(name)


def apply_answer(session: Session, name: str, text: str) -> tuple[Session | None, str | None]:
    """Set one field from a person's text; (None, reason) when the text cannot fill it. Nothing is lost."""
    try:
        updates = updates_from_text(name, text, lang=session.lang)
        ticket = str(updates.pop("ticket", session.ticket))
        candidate = session.with_changes(ticket=ticket, pm={**session.pm, **updates})
        model_of(candidate)
    except InputError as exc:
        return None, exc.message
    except ValueError as exc:
        return None, str(exc)
    for key, value in updates.items():
        if isinstance(value, str) and (reason := check_field(key, value, session.lang)):
            return None, reason
    return candidate, None


def on_reply(session: Session, text: str, *, user: str, approvers: frozenset[str], ts: float,
             bot_user_id: str | None = None) -> Outcome:
    """A thread reply: approve, cancel, continue, skip, an answer, or a revision. Others' chatter is ignored."""
    reply = classify_reply(text, bot_user_id=bot_user_id)
    allowed = may_approve(session, user, approvers)
    if session.is_final:
        return Outcome(None)
    if not allowed:
        if reply.kind in ("approve", "cancel", "field_answer") or session.state is S.drafted and reply.kind == "revise":
            return Outcome(None, (Effect("ephemeral", "only_approvers", {"requester": session.requester}, user=user),))
        return Outcome(None)
    if reply.kind == "cancel":
        if session.state in (S.posting,):
            return Outcome(None, (_say("frozen", version=session.approved_version),))
        return Outcome(session.with_changes(state=S.cancelled, pending_field=None), (_say("cancelled"),))
    if session.state is S.scope_check:
        if reply.kind is Kind.continue_:
            return Outcome(session.with_changes(state=S.collecting, scope_confirmed=True), (Effect("advance"),))
        if reply.kind in ("approve", "field_answer"):
            return Outcome(None, (_say("scope_first"),))
        return Outcome(None)
    if session.state is S.rendering and reply.kind in ("approve", "field_answer"):
        # Nothing is kept from this reply: the person is told to send it again once the draft is shown.
        return Outcome(None, (_say("still_rendering", version=session.version),))
    if session.state is S.collecting:
        return _collecting_reply(session, reply.kind, reply.field, reply.value, text)
    if session.state in (S.drafted, S.failed) and session.approved_version is None:
        if reply.kind == "approve":
            return _approve(session, user=user, ts=ts)
        if reply.kind == "field_answer" and reply.field:
            return _revise(session, reply.field, reply.value or "")
        if reply.kind == "revise":
            if revision_step(session) == "ask_target":
                return _ask_target(session)
            return Outcome(None, (_say("revise_hint", field=reply.field or "summary"),))
        return Outcome(None)
    if session.approved_version is not None and reply.kind == "approve":
        return Outcome(None, (_say("already_approved", version=session.approved_version),))
    if session.approved_version is not None and reply.kind in ("field_answer", "revise"):
        return Outcome(None, (_say("frozen", version=session.approved_version),))
    return Outcome(None)


def _collecting_reply(session: Session, kind: str, name: str | None, value: str | None, text: str) -> Outcome:
    pending = session.pending_field
    if kind == "field_answer" and name:
        target, answer = name, value or ""
    elif kind == "skip" and pending and not _required(pending):
        section = next(s for s, fields in OPTIONAL_ASKS if pending in fields)
        changed = session.with_changes(skipped=session.skipped | {section}, pending_field=None)
        return Outcome(changed, (Effect("advance"),))
    elif pending and kind in ("skip", "approve", "continue"):
        # A required input cannot be skipped, and "yes" or "continue" is not an answer to a question.
        return Outcome(None, (_say("answer_rejected", field=pending,
                                   reason=check_field(pending, None, session.lang) or ""),))
    elif pending and kind in ("other", "revise"):
        target, answer = pending, text
    else:
        return Outcome(None)
    updated, rejected = apply_answer(session, target, answer)
    if updated is None:
        return Outcome(None, (_say("answer_rejected", field=target, reason=rejected or ""),))
    cleared = updated.with_changes(pending_field=None) if target == pending or _filled(updated, pending) \
        else updated
    return Outcome(cleared, (Effect("advance"),))


def _required(name: str) -> bool:
    return name in ("summary", "owner", "repro", "root_cause", "fix_ref", "fix", "validation")


def _filled(session: Session, pending: str | None) -> bool:
    return pending is not None and pending in session.pm and bool(session.pm[pending])


def _approve(session: Session, *, user: str, ts: float) -> Outcome:
    if session.state is not S.drafted or session.pm.get("destination", "jira_comment") != "jira_comment":
        return Outcome(None, (_say("output_only", destination=session.pm.get("destination")),)) \
            if session.state is S.drafted else Outcome(None)
    shown = session.shown_version(ts)
    if shown is None:
        return Outcome(None, (_say("approval_before_draft", version=session.version),))
    if shown != session.version:
        return Outcome(None, (_say("stale_approval", shown=shown, version=session.version),))
    return Outcome(None, (Effect("approve", user=user, version=shown),))


def _revise(session: Session, name: str, text: str) -> Outcome:
    if revision_step(session) == "ask_target":
        return _ask_target(session)
    updated, reason = apply_answer(session, name, text)
    if updated is None:
        return Outcome(None, (_say("answer_rejected", field=name, reason=reason or ""),))
    return _render(updated.with_changes(awaiting_revision_target=False,
                                        revision_requests=session.revision_requests + 1))


def _ask_target(session: Session) -> Outcome:
    """Seed: at the third revision, ask which section has a concrete problem before changing anything."""
    asked = session.with_changes(awaiting_revision_target=True, revision_requests=session.revision_requests + 1)
    return Outcome(asked, (_say("third_revision"),))


def on_edit(session: Session, fields: dict[str, Any]) -> Outcome:
    """The Edit modal was submitted: replace the inputs, count a revision, re-render or ask again."""
    if session.approved_version is not None or session.state not in (S.drafted, S.failed):
        return Outcome(None, (_say("frozen", version=session.approved_version or session.version),))
    ticket = str(fields.pop("ticket", session.ticket))
    lang = fields.pop("lang", None) or session.lang
    edited = session.with_changes(ticket=ticket, lang=lang, pm=fields, awaiting_revision_target=False,
                                  revision_requests=session.revision_requests + 1, pending_field=None)
    pm = model_of(edited)
    confirmed = edited.scope_confirmed
    if check_scope(pm, confirmed=confirmed) or scope_question(pm, confirmed=confirmed) or check_inputs(pm):
        return Outcome(edited.with_changes(state=S.collecting, listed_missing=False), (Effect("advance"),))
    return _render(edited)
