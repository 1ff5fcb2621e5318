"""The Amend button (and Edit on a posted record): the form prefilled with the posted version, or the third
revision's question first; and Cancel while amending, which gives up the amendment, never the posted record
(sessions/amendment.py holds the steps; the form's submission goes through handlers/form.py as an Edit's)."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import asdict
from typing import Any

from handlers.deps import Deps
from renderers.modal import build_modal
from sessions import amendment
from sessions.conversation import Effect, Outcome, apply_step
from sessions.session import Session, State


def amend_view(deps: Deps, session: Session) -> dict[str, Any] | None:
    """The modal prefilled with the posted inputs; None after asking the third revision's question instead."""
    if amendment.ask_first(session) is not None:
        _apply(deps, session.id, lambda s: amendment.ask_first(s) or Outcome(None))
        return None
    values = {**session.inputs, "ticket": session.ticket, "lang": session.lang}
    meta = json.dumps({"session": session.id, "channel": session.channel, "version": session.version})
    return build_modal(ticket=session.ticket, values=values, lang=session.lang, private_metadata=meta)


def frozen(session: Session) -> Effect:
    """Edit or Cancel after an approval: while it is being posted, amend it once its link is in the thread (what a
    thread reply in flight is told: sessions/amendment.py); otherwise the record no longer changes."""
    key = "button_wait_posting" if session.state is State.posting else "frozen"
    return Effect("say", key, {"version": session.approved_version or 0})


def abandon(deps: Deps, session_id: str) -> None:
    """Cancel during an amendment: back to the posted record, said in the thread."""
    _apply(deps, session_id, lambda s: amendment.abandon(s) if s.amending else Outcome(None))


def _apply(deps: Deps, session_id: str, step: Callable[[Session], Outcome]) -> None:
    outcome = apply_step(deps.store, session_id, step)
    if outcome is not None and outcome.session is not None and outcome.effects:
        deps.enqueue("perform", session_id, [asdict(e) for e in outcome.effects])
