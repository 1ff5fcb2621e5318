"""`/post-mortem help`, `/post-mortem list` and the App Home tab: how a person finds their sessions again.

Thin: the answers are rendered by renderers/home.py from the store's per-person index; the Home view
itself is published by the worker (workers/home.py), coalesced per person, so opening the tab only marks
it due.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from handlers.deps import Deps
from handlers.storecalls import StoreCalls, StoreUnavailable
from postmortem.messages import say
from postmortem.model import Lang
from renderers.home import MAX_ROWS, help_message, list_message
from sessions.session import Session

log = logging.getLogger(__name__)

#: The command words that are not a ticket key (DESIGN §4), in both languages.
SUBCOMMANDS: dict[str, str] = {"help": "help", "list": "list", "ヘルプ": "help", "一覧": "list"}

LangOf = Callable[[AsyncWebClient, str], Awaitable[Lang]]
#: Bolt's `respond` (AsyncRespond): answers through the command's response_url.
Respond = Callable[..., Awaitable[object]]


def subcommand(text: str | None) -> str | None:
    """`help` or `list` when the command's text is one of them (any case), else None (a ticket key)."""
    words = (text or "").split()
    return SUBCOMMANDS.get(words[0].lower()) if len(words) == 1 else None


async def answer(
    deps: Deps,
    calls: StoreCalls,
    which: str,
    body: dict[str, Any],
    client: AsyncWebClient,
    respond: Respond,
    lang_of: LangOf,
) -> None:
    """The ephemeral answer to `help` or `list`, in the caller's language; opens nothing."""
    user = str(body.get("user_id", ""))
    lang: Lang = deps.default_lang or await lang_of(client, user)
    if which == "help":
        message = help_message(lang)
    else:
        try:
            sessions = await calls.run(deps.store.users.sessions, user, MAX_ROWS + 1)
        except StoreUnavailable:
            await respond(text=say("unavailable", lang), response_type="ephemeral")
            return
        message = list_message(user, sessions, await thread_links(client, sessions), lang)
    await respond(text=message["text"], blocks=message["blocks"], response_type="ephemeral")


async def thread_links(client: AsyncWebClient, sessions: Sequence[Session]) -> dict[str, str]:
    """Each session's thread permalink (chat.getPermalink), fetched together; a failure just shows no link."""

    async def link(session: Session) -> tuple[str, str]:
        if session.thread_ts is None:
            return session.id, ""
        try:
            response = await client.chat_getPermalink(channel=session.channel, message_ts=session.thread_ts)
        except SlackApiError as exc:
            log.info("no permalink for %s: %s", session.id, exc.response.get("error", "error"))
            return session.id, ""
        return session.id, str(response.get("permalink") or "")

    found = await asyncio.gather(*(link(s) for s in sessions))
    return {session_id: url for session_id, url in found if url}


async def on_home_opened(event: dict[str, Any], deps: Deps, calls: StoreCalls) -> None:
    """The App Home listener (registered in handlers/listeners.py): opening the tab makes its view due now."""
    user = str(event.get("user") or "")
    if event.get("tab", "home") != "home" or not user:
        return
    try:  # before the ack, so within the store's budget like every other listener
        await calls.run(deps.store.users.request_home, user)
    except StoreUnavailable:  # the tab keeps its last view; said in the log
        log.warning("store unavailable; the Home of %s is not refreshed", user)
