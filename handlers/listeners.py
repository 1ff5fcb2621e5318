"""The Slack listeners, registered in one place (`register`): ack first, then hand the payload to handlers/flow.py
(thread replies) or handlers/form.py (the modal); the click listeners are handlers/clicks.py's.

Every listener runs with `process_before_response=True`: nothing slow happens before the ack except
Redis calls, which run on the store's own threads within a budget (handlers/storecalls.py), so the event
loop never blocks and a slow Redis cannot cost Slack's 3 s. When the store cannot take a request that
may matter, Slack hears it: a thread reply or a mention is answered 503 (Slack sends it again), a form
shows the error, a click gets an ephemeral; plain channel chatter is acknowledged (Slack disables the
events of an app that fails most of them).

Listeners are plain functions: Bolt passes each argument by its parameter's name (`ack`, `body`, `client`,
`respond`, `context`, ...) and any key of the request's context the same way, so the one global middleware
`register` adds puts the bot's own edges there: `deps`, `calls` (the store's budget), `tasks` (work after
the ack) and `locales`.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import re
from collections.abc import Awaitable, Callable
from typing import Any

from slack_bolt import BoltResponse
from slack_bolt.async_app import AsyncAck, AsyncApp, AsyncBoltContext, AsyncRespond
from slack_bolt.request.async_request import AsyncBoltRequest
from slack_sdk.web.async_client import AsyncWebClient

from handlers import clicks, flow, form, home, mentions, shortcut
from handlers.clicks import open_with_trigger
from handlers.deps import Deps
from handlers.edges import Background, Locales
from handlers.storecalls import StoreCalls, StoreUnavailable
from postmortem.messages import say
from renderers.amendment import ACTION_AMEND
from renderers.modal import CALLBACK_ID
from renderers.offers import ACTION_START
from renderers.prompts import (
    ACTION_CANCEL,
    ACTION_CHECKS,
    ACTION_CHOOSE,
    ACTION_DONE,
    ACTION_EDIT,
    ACTION_HANDOFF,
    ACTION_RETRY,
)

log = logging.getLogger(__name__)

#: The first word of `/post-mortem PROJ-123`; the modal validates it.
_FIRST_WORD = re.compile(r"\S+")

#: Message subtypes that are still a person talking: a plain message, "also send to channel", a file with
#: a comment. Edits, deletions, joins and bot messages are not replies.
PERSON_SUBTYPES = frozenset({None, "thread_broadcast", "file_share"})


def register(app: AsyncApp, deps: Deps, calls: StoreCalls | None = None) -> None:
    """Attach every listener to the app; store calls go through `calls` (a default budget without one)."""
    edges = {"deps": deps, "calls": calls or StoreCalls(), "tasks": Background(), "locales": Locales()}

    async def with_edges(context: AsyncBoltContext, next_: Callable[[], Awaitable[None]]) -> None:
        context.update(edges)  # each listener receives the ones it names as parameters
        await next_()

    app.use(with_edges)
    app.error(on_error)
    app.command("/post-mortem")(on_command)
    app.view(CALLBACK_ID)(on_submit)
    app.event("message")(on_message)
    app.event("app_mention")(on_mention)
    app.event("app_home_opened")(home.on_home_opened)
    app.shortcut(shortcut.SHORTCUT_ID)(shortcut.on_message_shortcut)
    app.action(ACTION_START)(clicks.on_start)
    app.action(ACTION_EDIT)(clicks.on_edit)
    app.action(ACTION_AMEND)(clicks.on_edit)  # Amend on a posted record: the same form (handlers/amend.py)
    app.action(ACTION_CANCEL)(clicks.on_cancel)
    app.action(ACTION_RETRY)(clicks.on_retry)
    app.action(ACTION_HANDOFF)(clicks.on_handoff)
    app.action(re.compile(rf"^{ACTION_CHOOSE}:"))(clicks.on_answer)
    app.action(re.compile(rf"^{ACTION_DONE}:"))(clicks.on_answer)
    app.action(re.compile(rf"^{ACTION_CHECKS}:"))(clicks.on_check)


# The listeners, in the order `register` attaches them (the clicks': handlers/clicks.py).


async def on_error(error: Exception) -> BoltResponse | None:
    """A store outage is answered 503 so Slack sends the event again; anything else is logged."""
    if isinstance(error, StoreUnavailable):  # Slack retries a non-2xx event: nothing is lost
        return BoltResponse(status=503, body="postmortem-bot: store unavailable, try again")
    log.error("a listener failed", exc_info=error)
    return None


async def on_command(
    ack: AsyncAck,
    body: dict[str, Any],
    client: AsyncWebClient,
    respond: AsyncRespond,
    deps: Deps,
    calls: StoreCalls,
    tasks: Background,
    locales: Locales,
) -> None:
    """`/post-mortem [KEY]` opens the modal; `help` and `list` answer privately (handlers/home.py)."""
    await ack()
    # The modal opens after the ack is sent (process_before_response runs the listener first): a task,
    # not a Bolt lazy listener, which would deep-copy the request and start a new HTTP session.
    which = home.subcommand(body.get("text"))  # `help` / `list` open nothing (handlers/home.py)
    tasks.start(
        home.answer(deps, calls, which, body, client, respond, locales.lang_of)
        if which
        else _open_modal(deps, locales, body, client)
    )


async def on_submit(
    ack: AsyncAck,
    body: dict[str, Any],
    request: AsyncBoltRequest,
    deps: Deps,
    calls: StoreCalls,
    tasks: Background,
) -> None:
    """The modal submitted: a new session or an edit; field errors are shown in the same form. The answer says
    what the store did: stored (the form closes), or not confirmed in time, when nothing was stored or, if the
    store's answer was lost on its way back, a resubmission finds what was (handlers/form.py `accept`)."""
    user = str(body.get("user", {}).get("id", ""))
    raw = request.raw_body or json.dumps(body, sort_keys=True)  # Socket Mode has no raw body
    digest = hashlib.sha256(raw.encode()).hexdigest()  # a replay of the same signed bytes does nothing
    try:
        accepted = await calls.commit(form.accept, deps, digest=digest, user=user, view=body.get("view") or {})
    except StoreUnavailable:  # told in the same response; the form keeps everything typed
        accepted = form.Accepted(errors={"ticket": say("form_unconfirmed", deps.default_lang or "en")})
    if accepted.errors:
        await ack(response_action="errors", errors=accepted.errors)
    else:
        await ack()
    if accepted.session_id:  # once answered: a job to enqueue, which the answer does not wait for
        tasks.start(_follow_up(deps, calls, accepted, user))


async def on_message(
    body: dict[str, Any], event: dict[str, Any], context: AsyncBoltContext, deps: Deps, calls: StoreCalls
) -> None:
    """A person's message: a session's thread reply first (handlers/flow.py), else keys named and offers."""
    thread_ts, ts = event.get("thread_ts"), event.get("ts")
    if event.get("subtype") not in PERSON_SUBTYPES or event.get("bot_id") or not event.get("user"):
        return
    if not isinstance(ts, str) or not ts:  # a message without its own timestamp is no one's reply
        log.warning("ignored a message event without a ts")
        return
    in_thread = bool(thread_ts and thread_ts != ts)
    if in_thread:  # may be a session's: StoreUnavailable → 503, Slack sends it again
        in_session = await calls.run(
            flow.thread_reply,
            deps,
            channel=str(event.get("channel", "")),
            thread_ts=str(thread_ts),
            user=str(event["user"]),
            text=str(event.get("text") or ""),
            ts=str(ts),
            event_id=body.get("event_id"),
            bot_user_id=context.bot_user_id,
        )
        if in_session:  # a session's reply: nothing more to read
            return
        if context.bot_user_id and event.get("parent_user_id") == context.bot_user_id:  # a thread the bot began
            with contextlib.suppress(StoreUnavailable):  # telling that a session is gone may wait for the next reply
                await calls.run(
                    flow.reply_without_session,
                    deps,
                    channel=str(event.get("channel", "")),
                    thread_ts=str(thread_ts),
                    user=str(event["user"]),
                    text=str(event.get("text") or ""),
                )
    # Outside a session's thread: keys named, and the one offer after a verified fix (handlers/mentions.py).
    # Chatter: acknowledged even when the store is down (an offer missed is not a request lost).
    with contextlib.suppress(StoreUnavailable):
        await calls.run(
            mentions.message,
            deps,
            channel=str(event.get("channel", "")),
            channel_type=str(event.get("channel_type") or ""),
            user=str(event["user"]),
            text=str(event.get("text") or ""),
            ts=str(ts),
            thread_ts=thread_ts,
            bot_user_id=context.bot_user_id,
            thread_checked=in_thread,
        )


async def on_mention(body: dict[str, Any], event: dict[str, Any], deps: Deps, calls: StoreCalls) -> None:
    """The bot mentioned: maybe a request for a post-mortem (handlers/mentions.py)."""
    if event.get("bot_id") or not event.get("user") or not isinstance(event.get("ts"), str):
        return
    await calls.run(
        mentions.mention,
        deps,
        channel=str(event.get("channel", "")),
        user=str(event["user"]),
        text=str(event.get("text") or ""),
        ts=str(event.get("ts")),
        thread_ts=event.get("thread_ts"),
        event_id=body.get("event_id"),
    )


# What these listeners share.


async def _follow_up(deps: Deps, calls: StoreCalls, accepted: form.Accepted, user: str) -> None:
    try:
        await calls.run(form.follow_up, deps, accepted, user=user)
    except StoreUnavailable:  # the session's owed duty has a worker's watchdog start its thread instead
        log.warning("store unavailable after a submission; the watchdog starts session %s", accepted.session_id)


async def _open_modal(deps: Deps, locales: Locales, body: dict[str, Any], client: AsyncWebClient) -> None:
    match = _FIRST_WORD.search(body.get("text") or "")
    lang = deps.default_lang or await locales.lang_of(client, str(body.get("user_id", "")))
    view = form.open_view(ticket=match.group(0) if match else None, channel=str(body.get("channel_id", "")), lang=lang)
    await open_with_trigger(client, body, view)
