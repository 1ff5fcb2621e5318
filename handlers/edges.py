"""What the listeners share across requests, beside `Deps`: work started after the ack, and people's languages."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Coroutine
from typing import Any

from slack_sdk.web.async_client import AsyncWebClient

from postmortem.messages import lang_of_locale
from postmortem.model import Lang

log = logging.getLogger(__name__)

#: How long a requester's Slack locale is remembered in this process.
LOCALE_TTL_SECONDS = 3600


class Background:
    """Work started after the ack (a modal, a private answer), held until it ends (the loop's reference is weak)."""

    def __init__(self) -> None:
        self._running: set[asyncio.Task[None]] = set()

    def start(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(work)
        self._running.add(task)
        task.add_done_callback(self._finished)

    def _finished(self, task: asyncio.Task[None]) -> None:
        """Forget a finished background task; a failure is logged, never lost silently."""
        self._running.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("a background Slack call failed", exc_info=task.exception())


class Locales:
    """The requester's language from their Slack locale, remembered for an hour (one users.info each)."""

    def __init__(self) -> None:
        self._known: dict[str, tuple[Lang, float]] = {}

    async def lang_of(self, client: AsyncWebClient, user: str) -> Lang:
        cached = self._known.get(user)
        if cached is not None and cached[1] > time.monotonic():
            return cached[0]
        lang = await _user_lang(client, user)
        self._known[user] = (lang, time.monotonic() + LOCALE_TTL_SECONDS)
        return lang


async def _user_lang(client: AsyncWebClient, user: str) -> Lang:
    """The requester's Slack locale decides the language when POSTMORTEM_LANG is not set."""
    try:
        response = await client.users_info(user=user, include_locale=True)
    except Exception:  # a locale is a nicety; English is the fallback, logged
        log.warning("users.info failed for the requester; using English")
        return "en"
    return lang_of_locale((response.get("user") or {}).get("locale"))
