"""The modal's submission: a new session stored in one step (`accept`), or an Edit of one, and what follows
the answer (`follow_up`). Listeners (handlers/listeners.py) run these in a thread; nothing here calls Slack or
Jira. An Edit's changes go through the same atomic step and queue as a thread reply's (handlers/flow.py).
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from typing import Any

from handlers.deps import EVENT_DEDUP_SECONDS, Deps
from handlers.flow import apply_and_enqueue, enqueue_effects
from postmortem.errors import plain_reason
from postmortem.messages import say
from postmortem.model import InputError, Lang, parse_postmortem
from renderers.modal import INPUT_FIELDS, SCOPE_BLOCK, SCOPE_FLAGS, build_modal, fields_from_view_state
from sessions import amendment
from sessions.claims import advance_duty, submission_claim, view_claim
from sessions.conversation import Effect
from sessions.session import Session, may_approve

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
        enqueue_effects(deps, accepted.session_id, [found])
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
    apply_and_enqueue(deps, session_id, lambda s: amendment.on_edit(s, dict(fields)))
    return None


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
