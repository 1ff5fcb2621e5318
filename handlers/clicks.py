"""The click listeners (handlers/listeners.py `register` attaches them): an offer's Start, a session's Edit,
Amend, Cancel, Retry and hand-off buttons, and a question's answers. Each acks first; a click is not retried,
so when the store cannot take it, or the session is gone, the person who clicked is told privately.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from slack_bolt.async_app import AsyncAck, AsyncRespond
from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from handlers import flow, mentions, shortcut
from handlers.deps import Deps
from handlers.edges import Background
from handlers.storecalls import StoreCalls, StoreUnavailable
from postmortem.messages import say
from renderers.amendment import ACTION_AMEND
from rules.triggers import language_of

log = logging.getLogger(__name__)


async def on_start(
    ack: AsyncAck,
    body: dict[str, Any],
    client: AsyncWebClient,
    respond: AsyncRespond,
    deps: Deps,
    calls: StoreCalls,
    tasks: Background,
) -> None:
    """An offer's Start button: the modal, prefilled from the offer (and from its thread, when it has one)."""
    await ack()
    if await shortcut.open_from_start(deps, calls, body, client):  # handlers/shortcut.py
        return
    clicked_in = (body.get("channel") or {}).get("id") or (body.get("container") or {}).get("channel_id")
    try:
        view = await calls.run(mentions.start_view, deps, value=_action_value(body), clicked_in=str(clicked_in or ""))
    except StoreUnavailable:
        _tell_unavailable(deps, tasks, respond)
        return
    if view is not None:
        await open_with_trigger(client, body, view)


async def on_edit(
    ack: AsyncAck,
    body: dict[str, Any],
    client: AsyncWebClient,
    respond: AsyncRespond,
    deps: Deps,
    calls: StoreCalls,
    tasks: Background,
) -> None:
    """The Edit button (and Amend on a posted record): the prefilled modal, or a word in the thread on why not."""
    await ack()
    session_id, user = _action_value(body), _clicker(body)
    try:
        amend = _action_id(body) == ACTION_AMEND
        view = (
            await calls.run(flow.edit_view, deps, session_id=session_id, user=user, amend=amend) if session_id else None
        )
    except StoreUnavailable:
        _tell_unavailable(deps, tasks, respond)
        return
    except flow.SessionGone:
        _tell_gone(deps, tasks, respond, body)
        return
    if view is not None:
        await open_with_trigger(client, body, view)


async def on_cancel(
    ack: AsyncAck, body: dict[str, Any], respond: AsyncRespond, deps: Deps, calls: StoreCalls, tasks: Background
) -> None:
    await ack()
    await _session_button(flow.cancel, body, respond, deps, calls, tasks)


async def on_retry(
    ack: AsyncAck, body: dict[str, Any], respond: AsyncRespond, deps: Deps, calls: StoreCalls, tasks: Background
) -> None:
    await ack()
    await _session_button(flow.retry, body, respond, deps, calls, tasks)


async def on_handoff(
    ack: AsyncAck, body: dict[str, Any], respond: AsyncRespond, deps: Deps, calls: StoreCalls, tasks: Background
) -> None:
    await ack()
    await _session_button(flow.handoff, body, respond, deps, calls, tasks)


async def on_answer(
    ack: AsyncAck, body: dict[str, Any], respond: AsyncRespond, deps: Deps, calls: StoreCalls, tasks: Background
) -> None:
    """A question's option button or its Done: the answer (handlers/flow.py)."""
    await ack()
    try:
        await calls.run(flow.answer_click, deps, body=body)
    except StoreUnavailable:
        _tell_unavailable(deps, tasks, respond)
    except flow.SessionGone:
        _tell_gone(deps, tasks, respond, body)


async def on_check(ack: AsyncAck) -> None:
    await ack()  # ticking a box answers nothing yet: the question's Done button reads the boxes


# What the click listeners share.


async def _session_button(
    action: Callable[..., None],
    body: dict[str, Any],
    respond: AsyncRespond,
    deps: Deps,
    calls: StoreCalls,
    tasks: Background,
) -> None:
    """A button whose value is a session id: `action(deps, session_id=, user=)` in the store's budget."""
    session_id, user = _action_value(body), _clicker(body)
    if session_id:
        try:
            await calls.run(action, deps, session_id=session_id, user=user)
        except StoreUnavailable:
            _tell_unavailable(deps, tasks, respond)
        except flow.SessionGone:
            _tell_gone(deps, tasks, respond, body)


def _tell_unavailable(deps: Deps, tasks: Background, respond: AsyncRespond) -> None:
    """Tell the person who clicked, privately, once the ack is on its way (a click is not retried)."""
    tasks.start(_respond(respond, say("unavailable", deps.default_lang or "en")))


def _tell_gone(deps: Deps, tasks: Background, respond: AsyncRespond, body: dict[str, Any]) -> None:
    """A button of a session that is gone (ended, expired, or lost with the store): said privately, in the
    language of the message the button was on, with how to start again; never silence."""
    message = body.get("message")
    lang = deps.default_lang or language_of(str(message.get("text") or "") if isinstance(message, dict) else "")
    tasks.start(_respond(respond, say("session_gone", lang)))


#: views.open errors that only say the trigger came too late or was used already.
_LATE_TRIGGER = frozenset({"expired_trigger_id", "exchanged_trigger_id", "invalid_trigger_id"})


async def open_with_trigger(client: AsyncWebClient, body: dict[str, Any], view: dict[str, Any]) -> None:
    """Open a modal with the request's trigger_id; a payload without one (never Slack's) opens nothing."""
    trigger_id = body.get("trigger_id")
    if not isinstance(trigger_id, str) or not trigger_id:
        log.warning("a request without a trigger_id; no modal opened")
        return
    try:
        await client.views_open(trigger_id=trigger_id, view=view)
    except SlackApiError as exc:
        if exc.response.get("error") not in _LATE_TRIGGER:
            raise
        # A click replayed or delivered after the trigger's 3 s: Slack shows nothing either way, and a click
        # again opens the form; an error page would say no more.
        log.warning("no modal opened: Slack refused the trigger (%s)", exc.response.get("error"))


async def _respond(respond: AsyncRespond, text: str) -> None:
    await respond(text=text, response_type="ephemeral", replace_original=False)


def _action_value(body: dict[str, Any]) -> str:
    actions = body.get("actions") or [{}]
    return str(actions[0].get("value") or "")


def _action_id(body: dict[str, Any]) -> str:
    actions = body.get("actions") or [{}]
    return str(actions[0].get("action_id") or "")


def _clicker(body: dict[str, Any]) -> str:
    return str(body.get("user", {}).get("id", ""))
