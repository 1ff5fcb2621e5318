"""Start `serve`: the Slack app over HTTP, or over Socket Mode. The worker starts from bot/worker.py, so
this path never imports the Jira client or the jobs."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import uvicorn
from slack_bolt.adapter.socket_mode.async_handler import AsyncSocketModeHandler

from bot.app import Service, create_app, slack_session
from bot.connections import KEEP_ALIVE_SECONDS, MAX_HEADER_BYTES, ServerLimits, server_protocol
from bot.settings import Settings

log = logging.getLogger(__name__)


def serve(settings: Settings, *, host: str = "0.0.0.0") -> None:
    """HTTP mode on PORT under uvicorn, or Socket Mode when SLACK_APP_TOKEN is set; both serve one app."""
    service = create_app(settings)
    if settings.slack_app_token is not None:
        asyncio.run(_socket_mode(service, settings.slack_app_token.get_secret_value()))
        return
    uvicorn.run(
        service.http, host=host, port=settings.port, log_level="info", access_log=False, **server_options(settings)
    )


def server_options(settings: Settings) -> dict[str, Any]:
    """uvicorn's limits for `serve` (SECURITY.md, "Limits"): h11 with a deadline per request and a cap on
    connections (bot/connections.py), a cap on requests in flight, bounded headers, a short keep-alive, and
    no WebSocket upgrade (which would leave the guarded protocol)."""
    limits = ServerLimits(
        max_connections=settings.postmortem_http_max_connections, read_seconds=settings.postmortem_http_read_seconds
    )
    return {
        "http": server_protocol(limits),
        "ws": "none",
        # uvicorn counts the asking connection among its own: one more, so that the cap above is the one met
        # for connections; this one still caps requests in flight (a task that outlives its connection too).
        "limit_concurrency": limits.max_connections + 1,
        "timeout_keep_alive": KEEP_ALIVE_SECONDS,
        "h11_max_incomplete_event_size": MAX_HEADER_BYTES,
    }


def socket_mode_handler(service: Service, app_token: str) -> AsyncSocketModeHandler:
    """Socket Mode serves the very same Bolt app (listeners, store, queue) as HTTP mode."""
    return AsyncSocketModeHandler(service.bolt, app_token)


async def _socket_mode(service: Service, app_token: str) -> None:
    async with slack_session(service.bolt):
        await socket_mode_handler(service, app_token).start_async()
