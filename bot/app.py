"""The app factory: Settings in, the Bolt app and its ASGI server app out; nothing connects at import."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import aiohttp
import redis
from rq import Queue
from rq.serializers import JSONSerializer
from slack_bolt import BoltResponse
from slack_bolt.adapter.starlette.async_handler import AsyncSlackRequestHandler
from slack_bolt.async_app import AsyncApp
from slack_sdk.web.async_client import AsyncWebClient
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from bot.http_guard import BodyBudget, BodyLimit, quiet_bolt_verification, slack_signature_ok
from bot.memory import cgroup_memory_limit, rss_bytes
from bot.settings import Settings
from bot.slack_shapes import slack_body_readable
from handlers import jira_webhook
from handlers.deps import Deps
from handlers.listeners import register
from handlers.storecalls import StoreCalls, StoreUnavailable
from sessions.store import SessionStore, connect
from workers.context import HANDOFF_QUEUE_NAME, QUEUE_NAME

log = logging.getLogger(__name__)

#: How long the first request after start waits for Slack's `auth.test` before it is answered 503.
AUTH_TEST_SECONDS = 2.0
#: What Bolt answers (with a 200) when it cannot authorize; serve turns it into a 503 (`slack_events`).
CANNOT_AUTHORIZE = "postmortem-bot cannot reach Slack's auth.test right now; Slack will send this again."
#: Requests that need no authorization (Bolt's own list, slack_bolt/middleware/authorization).
_NO_AUTH_TYPES = frozenset({"url_verification", "ssl_check"})
_NO_AUTH_EVENTS = frozenset({"app_uninstalled", "tokens_revoked"})
MIB = 1024 * 1024


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
        before_authorize=AuthorizeFirst(),
        user_facing_authorize_error_message=CANNOT_AUTHORIZE,
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
        try:
            response = await handler.handle(request)
        except Exception as exc:  # Bolt could not even read it (its own error path failed): the payload's shape
            log.warning("refused a signed Slack request Bolt could not read (%s)", type(exc).__name__)
            return Response("unreadable payload", status_code=400)
        if response.status_code == 200 and response.body == CANNOT_AUTHORIZE.encode():
            log.warning("answered 503: Bolt could not authorize with Slack (auth.test); Slack sends it again")
            return Response("cannot authorize with Slack yet", status_code=503)
        if response.status_code == 404:
            # A signed request no listener matches (an old button, a payload missing its parts): Slack
            # would show the person an error; acknowledge it and say so in the log instead.
            log.info("ignored a Slack request no listener handles")
            return Response(status_code=200)
        return response

    memory_limit = (
        settings.postmortem_memory_limit_mb * MIB
        if settings.postmortem_memory_limit_mb is not None
        else cgroup_memory_limit()
    )
    memory_high = None if memory_limit is None else int(memory_limit * settings.postmortem_memory_unhealthy_fraction)

    async def healthz(_: Request) -> Response:
        """Redis answers a PING within the store's budget, off the event loop; the process's resident memory
        is below its share of the memory limit (so an orchestrator hears of it before the kernel kills it)."""
        rss = rss_bytes() if memory_high is not None else None
        if rss is not None and memory_high is not None and rss > memory_high:
            log.warning("unhealthy: resident memory %d MiB is past %d MiB", rss // MIB, memory_high // MIB)
            return JSONResponse({"ok": False, "memory": "high"}, status_code=503)
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
    budget = BodyBudget(settings.postmortem_http_body_budget_mb * MIB)
    http = Starlette(
        routes=routes, middleware=[Middleware(BodyLimit, budget=budget)], lifespan=lambda _: slack_session(bolt)
    )
    return Service(bolt=bolt, http=http, redis=conn)


class AuthorizeFirst:
    """Bolt's middleware before its own authorization: Slack's `auth.test` once per process, and a 503
    (Slack sends the request again) while it fails, instead of Bolt's 200 with a "reinstall" text, which
    would drop the request: an approval lost right after a restart. Any failure counts (429, 5xx, a timeout,
    no connection)."""

    def __init__(self, timeout: float = AUTH_TEST_SECONDS) -> None:
        self.timeout = timeout
        self.authorized = False
        self._lock = asyncio.Lock()

    async def __call__(
        self, body: dict[str, Any], client: AsyncWebClient, next_: Callable[[], Awaitable[None]]
    ) -> BoltResponse | None:
        event = body.get("event")
        event_type = event.get("type") if isinstance(event, dict) else None
        if self.authorized or body.get("type") in _NO_AUTH_TYPES or event_type in _NO_AUTH_EVENTS:
            await next_()
            return None
        async with self._lock:  # one auth.test at a time, however many requests arrive first
            if not self.authorized:
                try:
                    await asyncio.wait_for(client.auth_test(), self.timeout)
                    self.authorized = True
                except Exception as exc:  # whatever it was, Slack must send the request again
                    log.warning("answered 503: Slack's auth.test failed (%s)", type(exc).__name__)
                    return BoltResponse(status=503, body="cannot authorize with Slack yet")
        await next_()
        return None


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
