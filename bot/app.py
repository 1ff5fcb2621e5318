"""The app factory: Settings in, the Bolt app and its ASGI server app out; nothing connects at import."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass

import aiohttp
import redis
from rq import Queue
from rq.serializers import JSONSerializer
from slack_bolt.adapter.starlette.async_handler import AsyncSlackRequestHandler
from slack_bolt.async_app import AsyncApp
from slack_sdk.web.async_client import AsyncWebClient
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from bot.http_guard import BodyLimit, quiet_bolt_verification, slack_body_readable, slack_signature_ok
from bot.settings import Settings
from handlers import jira_webhook
from handlers.deps import Deps
from handlers.listeners import register
from handlers.storecalls import StoreCalls, StoreUnavailable
from sessions.store import SessionStore, connect
from workers.context import HANDOFF_QUEUE_NAME, QUEUE_NAME

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Service:
    """The built bot: the Bolt app (also for Socket Mode) and the HTTP app that serves it."""

    bolt: AsyncApp
    http: Starlette
    redis: redis.Redis


def job_queue(conn: redis.Redis, name: str = QUEUE_NAME) -> Queue:
    """The RQ queue the bot and the worker share; JSON arguments, never pickle."""
    return Queue(name, connection=conn, serializer=JSONSerializer)


def handoff_queue(conn: redis.Redis) -> Queue:
    return job_queue(conn, HANDOFF_QUEUE_NAME)


def create_app(settings: Settings, *, redis_conn: redis.Redis | None = None) -> Service:
    """Build the Bolt app with its listeners and the Starlette app for HTTP mode."""
    conn = redis_conn or connect(settings.redis_url)
    client = AsyncWebClient(token=settings.slack_bot_token.get_secret_value(), base_url=settings.slack_api_url)
    bolt = AsyncApp(
        client=client,
        signing_secret=settings.slack_signing_secret.get_secret_value(),
        process_before_response=True,
    )
    deps = Deps(
        store=SessionStore(conn, ttl_seconds=settings.lifetime.store_ttl),
        queue=job_queue(conn),
        approvers=settings.postmortem_approvers,
        default_lang=settings.postmortem_lang,
        offers_enabled=settings.postmortem_offers == "on",
        offer_channels=settings.postmortem_offer_channels,
        jira_webhook_secret=settings.jira_webhook_secret,
        redis=conn,
        approval=settings.postmortem_approval,
        jira_issue_types=settings.postmortem_jira_issue_types,
        offer_fallback_channel=settings.postmortem_offer_fallback_channel,
    )
    calls = StoreCalls(settings.postmortem_store_budget_seconds)
    register(bolt, deps, calls)
    handler = AsyncSlackRequestHandler(bolt)
    quiet_bolt_verification()
    signing_secret = settings.slack_signing_secret.get_secret_value()

    async def slack_events(request: Request) -> Response:
        # Authenticated here, before Bolt parses the body (and logs it when the signature is bad).
        body = await request.body()
        if not slack_signature_ok(
            signing_secret,
            body,
            timestamp=request.headers.get("X-Slack-Request-Timestamp"),
            signature=request.headers.get("X-Slack-Signature"),
        ):
            log.info("refused a Slack request without a valid signature (%d bytes)", len(body))
            return Response("invalid signature", status_code=401)
        if not slack_body_readable(body, request.headers.get("content-type", "")):
            log.warning("refused a signed Slack request whose body is not readable JSON or UTF-8")
            return Response("unreadable body", status_code=400)
        response = await handler.handle(request)
        if response.status_code == 404:
            # A signed request no listener matches (an old button, a payload missing its parts): Slack
            # would show the person an error; acknowledge it and say so in the log instead.
            log.info("ignored a Slack request no listener handles")
            return Response(status_code=200)
        return response

    async def healthz(_: Request) -> Response:
        """Redis answers a PING within the store's budget, off the event loop."""
        try:
            await calls.run(conn.ping)
        except StoreUnavailable:
            return JSONResponse({"ok": False, "redis": "unreachable"}, status_code=503)
        return JSONResponse({"ok": True})

    routes = [
        Route("/slack/events", slack_events, methods=["POST"]),
        Route("/healthz", healthz, methods=["GET"]),
        Route("/jira/webhook", jira_webhook.endpoint(deps, calls), methods=["POST"]),
    ]
    http = Starlette(routes=routes, middleware=[Middleware(BodyLimit)], lifespan=lambda _: slack_session(bolt))
    return Service(bolt=bolt, http=http, redis=conn)


@contextlib.asynccontextmanager
async def slack_session(bolt: AsyncApp) -> AsyncIterator[None]:
    """One pooled HTTP session for every Web API call while the app runs (without it, slack-sdk opens a
    new connection, and against Slack a new TLS handshake, for each call)."""
    async with aiohttp.ClientSession() as session:
        bolt.client.session = session
        try:
            yield
        finally:
            bolt.client.session = None
