"""Correcting a posted record (DESIGN §3, §4 "Amendment"): the steps that start, and abandon, version N+1 of a
posted session, which the approval then writes over the same Jira comment (workers/amending.py).

Pure, like sessions/replies.py, whose table it wraps: handlers/flow.py runs `on_reply` and `on_edit` inside the
store's atomic update. A posted session changes only here, and only as `begins` (asked by sessions/session.py
`valid_move`, with the other moves of an amending session below) allows: the requester or an approver starts an
amendment (`<field>: <text>` or the Amend button's form); anyone else's reply changes nothing. The third revision
asks first, counting the first draft's revisions and every amendment alike.
"""

from __future__ import annotations

from typing import Any

from rules.classifier import Kind, classify_reply
from rules.gate import check_inputs, check_scope
from rules.scope_text import scope_question
from sessions import replies
from sessions.conversation import Effect, Outcome, model_of, say_effect
from sessions.conversation import on_edit as edit_draft
from sessions.session import APPROVED_FIELDS, Session, State, changed, may_approve, revision_step

# The moves of an amending session (sessions/session.py `valid_move` asks these) -----------------------------------


#: What an amendment keeps until it ends: the comment it replaces and the record of what that comment holds.
_RECORD = ("ticket", "comment_id", "comment_url", "posted_version", "posted_by", "amendments")
#: What the third revision's question changes on a posted session (nothing else changes there).
_ASKED = frozenset({"revision_requests", "awaiting_revision_target", "updated_at"})


def begins(before: Session, after: Session) -> bool:
    """The only changes to a posted session (DESIGN §4 "Amendment"): the third revision's question (counters only),
    or version N+1 started to replace the same comment, approval cleared, the posted record kept."""
    if before.state is not State.posted or not before.comment_id or before.approved_version is None:
        return False
    if after.state is State.posted:
        return not any(getattr(before, f) != getattr(after, f) for f in Session.model_fields if f not in _ASKED)
    version = before.version + 1 if after.state is State.rendering else before.version
    return (
        after.state in (State.rendering, State.collecting, State.scope_check)
        and after.amending
        and after.version == version
        and after.approved_version is None
        and after.approved_by is None
        and after.posted_version == before.approved_version
        and after.posted_by == before.approved_by
        and after.drafts == before.drafts
        and not changed(before, after, ("ticket", "comment_id", "comment_url", "amendments"))
    )


def step_verdict(before: Session, after: Session) -> bool | None:
    """An amending session's moves that differ from a first draft's; None: the usual rules decide."""
    if after.amending:
        return False if changed(before, after, _RECORD) else None
    if after.state is State.posted and before.state is State.posting:  # applied: the comment holds the new version
        return (
            not changed(before, after, ("ticket", "comment_id", "comment_url", *APPROVED_FIELDS))
            and after.posted_version == before.approved_version
            and after.posted_by == before.approved_by
            and after.amendments == before.amendments + 1
        )
    if after.state is State.posted:  # abandoned before approval: the posted record as it was
        return (
            before.approved_version is None
            and not changed(before, after, _RECORD)
            and after.approved_version == before.posted_version
            and after.approved_by == before.posted_by
        )
    if after.state is State.failed and before.state is State.posting:  # the comment was deleted in Jira
        return after.comment_id is None and after.approved_version is None and after.ticket == before.ticket
    return False


def releases_approval(before: Session, after: Session) -> bool:
    """posting → drafted with the approval released and nothing else changed: Jira refused a follow-up issue, so the
    approved bytes cannot be posted (workers/followups.py `release_approval`); the version shown may be approved
    again, or corrected into a new one."""
    kept = ("inputs", "ticket", "lang", "version", "drafts", "comment_id", "comment_url", *_RECORD[3:], "amending")
    return (
        before.state is State.posting
        and after.state is State.drafted
        and before.approved_version is not None
        and after.approved_version is None
        and after.approved_by is None
        and not changed(before, after, kept)
    )


def rebinds_approval(before: Session, after: Session) -> bool:
    """Whether a change of the approval is an amendment's own (cleared to start or after a deleted comment,
    restored when abandoned), not a bypass of `approve`; `valid_move` still decides if the move is allowed."""
    if releases_approval(before, after):
        return True
    if before.state is not State.posted and not before.amending:
        return False
    restored = after.state is State.posted and after.approved_version == before.posted_version
    return after.approved_version is None or restored


#: Fields an amendment cannot change: the comment it edits is on that ticket, in Jira.
FIXED_FIELDS = ("ticket", "destination")


def amendable(session: Session) -> bool:
    """A posted Jira comment that an amendment can replace."""
    return session.state is State.posted and bool(session.comment_id) and session.approved_version is not None


def on_reply(
    session: Session, text: str, *, user: str, approvers: frozenset[str], ts: float, bot_user_id: str | None = None
) -> Outcome:
    """A thread reply: on a posted session, maybe an amendment; a `cancel` while amending gives up the amendment
    (never the posted record); anything else as sessions/replies.py decides."""
    if session.state is State.posted:
        return _posted_reply(session, text, user=user, approvers=approvers, bot_user_id=bot_user_id)
    reply = classify_reply(text, bot_user_id=bot_user_id)
    if session.state is State.posting and reply.kind in (Kind.field_answer, Kind.revise):
        if may_approve(session, user, approvers):  # refused politely: the correction is an amendment, afterwards
            return Outcome(None, (say_effect("amend_wait_posting", version=session.approved_version or 0),))
    if session.amending and session.state is not State.posting and may_approve(session, user, approvers):
        if reply.kind is Kind.cancel:
            return abandon(session)
        if (
            reply.kind is Kind.field_answer
            and reply.field
            and (refused := _fixed_change(session, {reply.field: reply.value}))
        ):
            return refused
    return replies.on_reply(session, text, user=user, approvers=approvers, ts=ts, bot_user_id=bot_user_id)


def on_edit(session: Session, fields: dict[str, Any]) -> Outcome:
    """The Edit or Amend form submitted: on a posted session it starts an amendment with the form's inputs."""
    if session.amending and (refused := _fixed_change(session, fields)):
        return refused
    if not amendable(session):
        return edit_draft(session, fields)
    if refused := _fixed_change(session, fields):
        return refused
    if revision_step(session) == "ask_target":
        return _ask_target(session)
    fields = {k: v for k, v in fields.items() if k != "ticket"}
    lang = fields.pop("lang", None) or session.lang
    edited = _started(session.with_changes(inputs=fields, lang=lang), session)
    pm = model_of(edited)
    confirmed = edited.scope_confirmed
    if check_scope(pm, confirmed=confirmed) or scope_question(pm, confirmed=confirmed) or check_inputs(pm):
        return Outcome(edited.with_changes(state=State.collecting, listed_missing=False), (Effect("advance"),))
    return _render(edited.with_changes(state=State.rendering, version=session.version + 1))


def ask_first(session: Session) -> Outcome | None:
    """The Amend button on the third revision: the question first (None when the form may open)."""
    return _ask_target(session) if revision_step(session) == "ask_target" else None


def abandon(session: Session) -> Outcome:
    """An amendment given up before its approval: the session is posted again, as it was."""
    back = session.with_changes(
        state=State.posted,
        amending=False,
        approved_version=session.posted_version,
        approved_by=session.posted_by,
        pending_field=None,
        awaiting_revision_target=False,
        error=None,
    )
    return Outcome(back, (say_effect("amend_abandoned", ticket=session.ticket, version=session.posted_version),))


def _posted_reply(
    session: Session, text: str, *, user: str, approvers: frozenset[str], bot_user_id: str | None
) -> Outcome:
    reply = classify_reply(text, bot_user_id=bot_user_id)
    if reply.kind not in (Kind.field_answer, Kind.revise) or not amendable(session):
        return Outcome(None)
    if not may_approve(session, user, approvers):  # told privately, as for a draft; the record is unchanged
        if reply.kind is Kind.field_answer:
            return Outcome(None, (Effect("ephemeral", "only_approvers", {"requester": session.requester}, user=user),))
        return Outcome(None)
    if revision_step(session) == "ask_target":
        return _ask_target(session)
    if reply.kind is Kind.revise or not reply.field:
        return Outcome(None, (say_effect("amend_hint", field=reply.field or "summary"),))
    if refused := _fixed_change(session, {reply.field: reply.value}):
        return refused
    updated, reason = replies.apply_answer(session, reply.field, reply.value or "")
    if updated is None:
        return Outcome(None, (say_effect("answer_rejected", field=reply.field, reason=reason or ""),))
    started = _started(updated, session)
    return _render(started.with_changes(state=State.rendering, version=session.version + 1))


def _started(edited: Session, posted: Session) -> Session:
    """The amendment's fields on a posted session whose inputs were changed: approval cleared, record kept."""
    return edited.with_changes(
        amending=True,
        posted_version=posted.approved_version,
        posted_by=posted.approved_by,
        approved_version=None,
        approved_by=None,
        revision_requests=posted.revision_requests + 1,
        awaiting_revision_target=False,
        pending_field=None,
        error=None,
    )


def _render(session: Session) -> Outcome:
    said = say_effect("amend_rendering", version=session.version, posted=session.posted_version)
    return Outcome(session, (said, Effect("render")))


def _ask_target(session: Session) -> Outcome:
    """Seed: at the third revision (amendments count), ask which section has a concrete problem first."""
    asked = session.with_changes(awaiting_revision_target=True, revision_requests=session.revision_requests + 1)
    return Outcome(asked, (say_effect("third_revision"),))


def _fixed_change(session: Session, fields: dict[str, Any]) -> Outcome | None:
    for name in FIXED_FIELDS:
        current = session.ticket if name == "ticket" else session.inputs.get(name, "jira_comment")
        if name in fields and fields[name] not in (None, "", current):
            return Outcome(None, (say_effect("amend_field_fixed", field=name, ticket=session.ticket),))
    return None
