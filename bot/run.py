"""Start the long-running processes: `serve` (HTTP or Socket Mode) and `worker` (RQ)."""

from __future__ import annotations

import asyncio
import logging

import uvicorn
from rq import SimpleWorker
from rq.serializers import JSONSerializer
from slack_bolt.adapter.socket_mode.async_handler import AsyncSocketModeHandler

from bot.app import Service, create_app, handoff_queue, job_queue, slack_session
from bot.settings import Settings
from postmortem.store import SessionStore, connect
from workers import watchdog
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
        asyncio.run(_socket_mode(service, settings.slack_app_token.get_secret_value()))
        return
    uvicorn.run(service.http, host=host, port=settings.port, log_level="info", access_log=False)


def socket_mode_handler(service: Service, app_token: str) -> AsyncSocketModeHandler:
    """Socket Mode serves the very same Bolt app (listeners, store, queue) as HTTP mode."""
    return AsyncSocketModeHandler(service.bolt, app_token)


async def _socket_mode(service: Service, app_token: str) -> None:
    async with slack_session(service.bolt):
        await socket_mode_handler(service, app_token).start_async()  # type: ignore[no-untyped-call]


def worker_context(settings: Settings) -> WorkerContext:
    """The worker's edges, built from Settings."""
    conn = connect(settings.redis_url, timeout=5.0)
    slack = SlackGateway(slack_client(settings.slack_bot_token.get_secret_value(), settings.slack_api_url))
    jira = JiraGateway(settings.jira_url, settings.jira_email, settings.jira_api_token.get_secret_value(),
                       timeout=settings.jira_timeout)
    return WorkerContext(store=SessionStore(conn), slack=slack, jira=jira, queue=job_queue(conn),
                         handoff_queue=handoff_queue(conn), jira_visibility=settings.postmortem_jira_visibility,
                         jira_url=settings.jira_url)


def work(settings: Settings, *, burst: bool = False) -> None:
    """Run an RQ worker (with its scheduler, for delayed retries) on the bot's queue."""
    context = worker_context(settings)
    install(context)
    # SimpleWorker runs jobs in this process: no fork per job (approval → POST p50 went from ~77 to ~30 ms),
    # and the context's connections are reused. A crash of a job's process is a crash of the worker, which
    # the watchdog of any other (or the restarted) worker covers.
    worker = SimpleWorker([context.queue], connection=context.queue.connection, serializer=JSONSerializer,
                          maintenance_interval=MAINTENANCE_INTERVAL_SECONDS)
    stop = watchdog.start(context, interval=settings.postmortem_watchdog_seconds)
    try:
        worker.work(burst=burst, with_scheduler=True)
    finally:
        stop.set()
