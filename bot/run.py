"""Start `serve`: the Slack app over HTTP, or over Socket Mode. The worker starts from bot/worker.py, so
this path never imports the Jira client or the jobs."""

from __future__ import annotations

import asyncio
import logging

import uvicorn
from slack_bolt.adapter.socket_mode.async_handler import AsyncSocketModeHandler

from bot.app import Service, create_app, slack_session
from bot.settings import Settings

log = logging.getLogger(__name__)


def serve(settings: Settings, *, host: str = "0.0.0.0") -> None:
    """HTTP mode on PORT under uvicorn, or Socket Mode when SLACK_APP_TOKEN is set; both serve one app."""
    service = create_app(settings)
    if settings.slack_app_token is not None:
        asyncio.run(_socket_mode(service, settings.slack_app_token.get_secret_value()))
        return
    uvicorn.run(service.http, host=host, port=settings.port, log_level="info", access_log=False)


def socket_mode_handler(service: Service, app_token: str) -> AsyncSocketModeHandler:
    """Socket Mode serves the very same Bolt app (listeners, store, queue) as HTTP mode."""
    return AsyncSocketModeHandler(service.bolt, app_token)


async def _socket_mode(service: Service, app_token: str) -> None:
    async with slack_session(service.bolt):
        await socket_mode_handler(service, app_token).start_async()
