"""What the bot does next in a session, as data: pure decisions that handlers store and workers carry out.

Here: the vocabulary of a step (`Effect`, `Outcome`), `apply_step` (a step inside the store's atomic update),
`next_step` (the worker moving a collecting session on), `render_next` and `on_edit`. What a person's reply
does is sessions/replies.py, which builds on this module; nothing here calls it. Nothing here talks to Slack
or Jira, and only `apply_step` touches Redis, through the store it is given.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from postmortem.field_table import REGISTRY
from postmortem.model import PostMortem
from rules.gate import check_inputs, check_scope
from rules.scope_text import scope_question
from sessions.session import REVISED_STATES, Session, State, begin_render, editable
from sessions.store import SessionStore

EffectKind = Literal["advance", "render", "approve", "post", "say", "missing_list", "ephemeral"]

#: The usually-included sections, and the field asked for each when it is empty
#: (docs/rules.md#the-sections-in-this-order), from the registry.
OPTIONAL_ASKS: tuple[tuple[str, tuple[str, ...]], ...] = tuple(
    (section, REGISTRY.asked_in(section)) for section in REGISTRY.usually_included
)


@dataclass(frozen=True)
class Effect:
    """One thing to do after the state change is stored: a job to enqueue or a message to send."""

    kind: EffectKind
    key: str = ""  # message key in postmortem.messages (say / ephemeral)
    params: dict[str, Any] = field(default_factory=dict)
    user: str | None = None  # ephemeral recipient
    version: int | None = None  # post


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
    return PostMortem.model_validate({**session.inputs, "ticket": session.ticket, "lang": session.lang})


def say_effect(key: str, **params: Any) -> Effect:
    return Effect("say", key, params)


def next_step(session: Session) -> Outcome:
    """Move a collecting session on: scope first, then the four inputs, then the usually-included sections."""
    if session.state not in (State.collecting, State.scope_check) or session.pending_field:
        return Outcome(None)
    pm = model_of(session)
    confirmed = session.scope_confirmed  # a flag stops; a scope read from the text only asks (scope_text)
    if stop := check_scope(pm, confirmed=confirmed) or scope_question(pm, confirmed=confirmed):
        if not stop.confirmable:
            return Outcome(session.with_changes(state=State.cancelled), (say_effect("declined", reason=stop.reason),))
        if session.state is State.scope_check:
            return Outcome(None)
        return Outcome(session.with_changes(state=State.scope_check), (say_effect("scope_stop", reason=stop.reason),))
    if missing := check_inputs(pm):
        first = missing[0]
        effects: list[Effect] = []
        if not session.listed_missing:
            effects.append(Effect("missing_list", params={"missing": [[m.field, m.reason] for m in missing]}))
            effects.append(say_effect("ask_field_next", field=first.field, session=session.id))  # reason: in the list
        else:
            effects.append(say_effect("ask_field_as", field=first.field, reason=first.reason, session=session.id))
        return Outcome(session.with_changes(pending_field=first.field, listed_missing=True), tuple(effects))
    for section, fields in OPTIONAL_ASKS:
        if section not in session.skipped and _empty(pm, fields[0]):
            asked = say_effect("ask_optional_as", field=fields[0], session=session.id)
            return Outcome(session.with_changes(pending_field=fields[0]), (asked,))
    return render_next(session.with_changes(pending_field=None))


def render_next(session: Session) -> Outcome:
    """Move to rendering a new version and say so; the worker renders it."""
    rendering = begin_render(session)
    if rendering is None:
        return Outcome(None)
    return Outcome(rendering, (say_effect("rendering", version=rendering.version), Effect("render")))


def _empty(pm: PostMortem, name: str) -> bool:
    if name == "action_items":
        return not pm.action_items and not pm.action_items_none
    return not pm.text(name)


def on_edit(session: Session, fields: dict[str, Any]) -> Outcome:
    """The Edit modal was submitted: replace the inputs, count a revision, re-render or ask again."""
    if not editable(session):
        return Outcome(None, (say_effect("frozen", version=session.approved_version or session.version),))
    ticket = str(fields.pop("ticket", session.ticket))
    lang = fields.pop("lang", None) or session.lang
    revised = int(session.state in REVISED_STATES)  # resuming a session still collecting is no revision
    edited = session.with_changes(
        ticket=ticket,
        lang=lang,
        inputs=fields,
        awaiting_revision_target=False,
        revision_requests=session.revision_requests + revised,
        pending_field=None,
    )
    pm = model_of(edited)
    confirmed = edited.scope_confirmed
    if check_scope(pm, confirmed=confirmed) or scope_question(pm, confirmed=confirmed) or check_inputs(pm):
        return Outcome(edited.with_changes(state=State.collecting, listed_missing=False), (Effect("advance"),))
    return render_next(edited)
