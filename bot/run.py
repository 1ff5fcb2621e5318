"""Start the long-running processes: `serve` (HTTP or Socket Mode) and `worker` (RQ)."""

from __future__ import annotations

import asyncio
import logging

import uvicorn
from rq import Worker
from rq.serializers import JSONSerializer

from bot.app import create_app, handoff_queue, job_queue
from bot.settings import Settings
from postmortem.store import SessionStore, connect
from workers.context import WorkerContext, install
from workers.jira_gateway import JiraGateway
from workers.slack_gateway import SlackGateway, slack_client

log = logging.getLogger(__name__)

#: How often the worker looks for jobs whose worker died (RQ's default is 600 s; a post must not wait that).
MAINTENANCE_INTERVAL_SECONDS = 30


def serve(settings: Settings, *, host: str = "0.0.0.0") -> None:
    """HTTP mode on PORT under uvicorn, or Socket Mode when SLACK_APP_TOKEN is set; both serve one app."""
    service = create_app(settings)
    if settings.slack_app_token is not None:
        from slack_bolt.adapter.socket_mode.async_handler import AsyncSocketModeHandler

        handler = AsyncSocketModeHandler(service.bolt, settings.slack_app_token.get_secret_value())
        asyncio.run(handler.start_async())
        return
    uvicorn.run(service.http, host=host, port=settings.port, log_level="info", access_log=False)


def worker_context(settings: Settings) -> WorkerContext:
    """The worker's edges, built from Settings."""
    conn = connect(settings.redis_url, timeout=5.0)
    slack = SlackGateway(slack_client(settings.slack_bot_token.get_secret_value(), settings.slack_api_url))
    jira = JiraGateway(settings.jira_url, settings.jira_email, settings.jira_api_token.get_secret_value())
    return WorkerContext(store=SessionStore(conn), slack=slack, jira=jira, queue=job_queue(conn),
                         handoff_queue=handoff_queue(conn))


def work(settings: Settings, *, burst: bool = False) -> None:
    """Run an RQ worker (with its scheduler, for delayed retries) on the bot's queue."""
    context = worker_context(settings)
    install(context)
    worker = Worker([context.queue], connection=context.queue.connection, serializer=JSONSerializer,
                    maintenance_interval=MAINTENANCE_INTERVAL_SECONDS)
    worker.work(burst=burst, with_scheduler=True)
