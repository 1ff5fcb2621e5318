"""The message shortcut `postmortem_from_message` (DESIGN §4 "Starting where the debugging happened").

Slack's trigger_id lives 3 s, so the modal opens first, before anything is read: `views.open` right after the
ack, with a status line saying what is being read. A worker job (`workers.prefill.fill`) then reads the thread and
the Jira issue and updates the same view by its id and hash. Nothing here calls Jira or reads the thread.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from pydantic import ValidationError
from slack_bolt.async_app import AsyncAck
from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from handlers.deps import Deps
from handlers.edges import Background, Locales
from handlers.mentions import StartValue
from handlers.storecalls import StoreCalls, StoreUnavailable
from postmortem.model import Lang
from renderers.prefill import loading_view
from rules.triggers import jira_keys
from sessions.retention import job_options

log = logging.getLogger(__name__)

#: The shortcut's callback_id (slack-manifest.yaml).
SHORTCUT_ID = "postmortem_from_message"


async def on_message_shortcut(
    ack: AsyncAck,
    body: dict[str, Any],
    client: AsyncWebClient,
    deps: Deps,
    calls: StoreCalls,
    tasks: Background,
    locales: Locales,
) -> None:
    """Ack, then open the modal and have a worker prefill it."""
    await ack()
    tasks.start(open_and_prefill(deps, calls, locales, body, client))


def origin_of(body: dict[str, Any]) -> dict[str, str] | None:
    """(channel, message ts, thread root ts, user, the message's text as the payload shows it), or None."""
    channel = str((body.get("channel") or {}).get("id") or "")
    message = body.get("message") if isinstance(body.get("message"), dict) else {}
    ts = str(body.get("message_ts") or (message or {}).get("ts") or "")
    user = str((body.get("user") or {}).get("id") or "")
    if not channel or not ts or not user:
        return None
    root = str((message or {}).get("thread_ts") or ts)
    return {
        "channel": channel,
        "ts": ts,
        "thread_ts": root,
        "user": user,
        "text": str((message or {}).get("text") or ""),
    }


async def open_and_prefill(
    deps: Deps, calls: StoreCalls, locales: Locales, body: dict[str, Any], client: AsyncWebClient
) -> None:
    origin = origin_of(body)
    if origin is None:
        log.warning("a message shortcut without its channel, message or user; nothing opened")
        return
    lang = deps.default_lang or await locales.lang_of(client, origin["user"])
    await _open_then_fill(deps, calls, client, body.get("trigger_id"), origin, lang, None)


def start_origin(body: dict[str, Any]) -> tuple[dict[str, str], StartValue] | None:
    """A Start button that knows its debugging thread (clicked in a thread, or carrying the thread's root ts: a
    mention's answer, an offer after a fix): where to read, and what the button carries; None when it knows no
    thread (a DM from Jira, a button from before the value carried the ts, under a channel message)."""
    message = body.get("message") if isinstance(body.get("message"), dict) else {}
    container = body.get("container") if isinstance(body.get("container"), dict) else {}
    channel = (body.get("channel") or {}).get("id") or (container or {}).get("channel_id")
    user = str((body.get("user") or {}).get("id") or "")
    actions = body.get("actions") or [{}]
    try:
        start = StartValue.model_validate(json.loads(str(actions[0].get("value") or "{}")))
    except (ValueError, ValidationError):
        return None
    carried = start.ts if start.channel and start.channel == channel else ""  # only the channel it was posted in
    thread = (message or {}).get("thread_ts") or (container or {}).get("thread_ts") or carried
    if not thread or not channel or not user or (start.channel and start.channel != channel):
        return None
    origin = {"channel": str(channel), "ts": str(thread), "thread_ts": str(thread), "user": user, "text": ""}
    return origin, start


async def open_from_start(deps: Deps, calls: StoreCalls, body: dict[str, Any], client: AsyncWebClient) -> bool:
    """The Start button, when it knows the thread: the shortcut's modal, prefilled from the thread's parent message
    and the thread. False when it does not (the caller opens the plain modal)."""
    found = start_origin(body)
    if found is None:
        return False
    origin, start = found
    await _open_then_fill(
        deps,
        calls,
        client,
        body.get("trigger_id"),
        origin,
        deps.default_lang or start.lang,
        start.ticket,
        from_start=True,
    )
    return True


async def _open_then_fill(
    deps: Deps,
    calls: StoreCalls,
    client: AsyncWebClient,
    trigger_id: Any,
    origin: dict[str, str],
    lang: Lang,
    known_ticket: str | None,
    *,
    from_start: bool = False,
) -> None:
    """views.open at once (the trigger lives 3 s), then `workers.prefill.fill` updates the view by id and hash."""
    if not isinstance(trigger_id, str) or not trigger_id:
        log.warning("no trigger_id; no modal opened")
        return
    meta: dict[str, Any] = {"channel": origin["channel"], "lang": lang}
    try:
        opened = await client.views_open(
            trigger_id=trigger_id,
            view=loading_view(lang=lang, private_metadata=json.dumps(meta), ticket=known_ticket),
        )
    except SlackApiError as exc:
        log.warning("no modal opened for a message shortcut: %s", exc.response.get("error"))
        return
    view = opened.get("view") or {}
    if from_start:  # the worker reads the thread's first message, and keeps the button's key if the thread has none
        meta.update(from_start=True, known_ticket=known_ticket)
    try:
        await calls.run(
            _enqueue,
            deps,
            view_id=str(view.get("id") or ""),
            view_hash=str(view.get("hash") or ""),
            origin=origin,
            lang=lang,
            meta=meta,
        )
    except StoreUnavailable:  # the modal is open and works as `/post-mortem`'s: only the prefill is lost
        log.warning("store unavailable: the shortcut's modal was opened without its prefill")


def _enqueue(
    deps: Deps, *, view_id: str, view_hash: str, origin: dict[str, str], lang: str, meta: dict[str, Any]
) -> None:
    """`workers.jobs.prefill_modal` (`workers.prefill.fill`) with JSON arguments: the view and where to read."""
    deps.queue.enqueue(
        "workers.jobs.prefill_modal",
        view_id,
        view_hash,
        origin["channel"],
        origin["ts"],
        origin["thread_ts"],
        origin["user"],
        lang,
        jira_keys(origin["text"]),  # the keys only: the message's text never goes into Redis
        meta,
        **job_options(),
    )
