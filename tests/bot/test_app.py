"""The app factory: settings in, one Bolt app served over HTTP or Socket Mode; nothing connects at build."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
import redis
from slack_sdk.web.async_client import AsyncWebClient
from starlette.types import ASGIApp, Message

from bot.app import create_app
from bot.connections import MAX_HEADER_BYTES, GuardedH11Protocol, ServerLimits
from bot.localstack import free_port
from bot.memory import cgroup_memory_limit, rss_bytes
from bot.run import server_options, socket_mode_handler
from bot.settings import ConfigError, load_settings
from emulators.slack_api import SlackEmulator
from sessions.claims import event_claim
from sessions.session import Session
from sessions.store import SessionStore
from tests.asgi import ENV as TEST_ENV
from tests.asgi import call, slack_headers

pytestmark = pytest.mark.unit

ENV = {
    "SLACK_BOT_TOKEN": "xoxb-test",
    "SLACK_SIGNING_SECRET": "s3cret",
    "JIRA_URL": "https://example.atlassian.net",
    "JIRA_EMAIL": "bot@example.com",
    "JIRA_API_TOKEN": "jira-t0ken",
    "REDIS_URL": "redis://127.0.0.1:1/0",
}


def test_building_the_app_connects_to_nothing() -> None:
    service = create_app(load_settings(ENV))  # Redis on port 1 does not answer: building must not care
    assert service.bolt is not None and service.http is not None


def get(app: ASGIApp, path: str) -> tuple[int, dict[str, object]]:
    """One GET through the ASGI interface (no HTTP client needed)."""
    sent: list[Message] = []

    async def receive() -> Message:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: Message) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "method": "GET",
        "path": path,
        "headers": [],
        "query_string": b"",
        "http_version": "1.1",
        "scheme": "http",
        "server": ("test", 80),
        "root_path": "",
    }

    async def call() -> None:
        await app(scope, receive, send)

    asyncio.run(call())
    status = int(sent[0]["status"])
    body = b"".join(m.get("body", b"") for m in sent[1:])
    return status, json.loads(body)


def test_healthz_says_503_when_redis_does_not_answer() -> None:
    status, body = get(create_app(load_settings(ENV)).http, "/healthz")
    assert status == 503 and body["redis"] == "unreachable"


def test_healthz_is_200_with_redis(redis_conn: redis.Redis) -> None:
    status, body = get(create_app(load_settings(ENV), redis_conn=redis_conn).http, "/healthz")
    assert status == 200 and body == {"ok": True}


def test_socket_mode_serves_the_same_bolt_app() -> None:
    service = create_app(load_settings({**ENV, "SLACK_APP_TOKEN": "xapp-1-test"}))

    async def build() -> object:
        handler = socket_mode_handler(service, "xapp-1-test")
        await handler.client.close()  # its aiohttp session, opened at construction
        return handler.app

    assert asyncio.run(build()) is service.bolt


@pytest.mark.parametrize(
    "env, needle",
    [
        ({k: v for k, v in ENV.items() if k != "JIRA_URL"}, "JIRA_URL is not set"),
        ({**ENV, "SLACK_BOT_TOKEN": "xoxp-user"}, "SLACK_BOT_TOKEN is invalid"),
        ({**ENV, "SLACK_APP_TOKEN": "nope"}, "SLACK_APP_TOKEN is invalid"),
        ({**ENV, "PORT": "http"}, "PORT is invalid"),
        ({**ENV, "JIRA_URL": "example.atlassian.net"}, "JIRA_URL is invalid"),
        ({**ENV, "POSTMORTEM_LANG": "fr"}, "POSTMORTEM_LANG is invalid"),
        ({**ENV, "POSTMORTEM_JIRA_VISIBILITY": "Developers"}, "POSTMORTEM_JIRA_VISIBILITY is invalid: must be role:"),
        ({**ENV, "POSTMORTEM_JIRA_VISIBILITY": "user:abc"}, "POSTMORTEM_JIRA_VISIBILITY is invalid"),
        ({**ENV, "POSTMORTEM_JIRA_VISIBILITY": "group:"}, "POSTMORTEM_JIRA_VISIBILITY is invalid"),
    ],
)
def test_bad_configuration_is_one_line_naming_the_variable(env: dict[str, str], needle: str) -> None:
    with pytest.raises(ConfigError) as caught:
        load_settings(env)
    message = str(caught.value)
    assert needle in message and "\n" not in message
    assert not any(secret in message for secret in ("s3cret", "jira-t0ken", "xoxp-user"))


def test_lists_of_ids_and_secrets() -> None:
    settings = load_settings({**ENV, "POSTMORTEM_APPROVERS": "U1, U2 U3"})
    assert settings.postmortem_approvers == frozenset({"U1", "U2", "U3"})
    assert set(settings.secrets) == {"xoxb-test", "s3cret", "jira-t0ken"}
    assert "s3cret" not in repr(settings)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (None, None),
        ("", None),
        (" role:Service Desk Team ", "role:Service Desk Team"),
        ("group:abc-123", "group:abc-123"),
    ],
)
def test_jira_visibility_setting(value: str | None, expected: str | None) -> None:
    env = ENV if value is None else {**ENV, "POSTMORTEM_JIRA_VISIBILITY": value}
    assert load_settings(env).postmortem_jira_visibility == expected


# --- /healthz and memory ----------------------------------------------------------------------------------


def test_healthz_says_503_once_memory_passes_its_share_of_the_limit(redis_conn: redis.Redis) -> None:
    rss = rss_bytes()
    assert rss is not None and rss > 64 * 1024 * 1024 * 0.05  # this interpreter, with Bolt loaded
    tight = {**ENV, "POSTMORTEM_MEMORY_LIMIT_MB": "64", "POSTMORTEM_MEMORY_UNHEALTHY_FRACTION": "0.05"}
    status, body = get(create_app(load_settings(tight), redis_conn=redis_conn).http, "/healthz")
    assert status == 503 and body == {"ok": False, "memory": "high"}
    roomy = {**ENV, "POSTMORTEM_MEMORY_LIMIT_MB": str(64 * 1024), "POSTMORTEM_MEMORY_UNHEALTHY_FRACTION": "0.9"}
    assert get(create_app(load_settings(roomy), redis_conn=redis_conn).http, "/healthz")[0] == 200


@pytest.mark.parametrize(
    ("files", "expected"),
    [
        ({"memory.max": "536870912\n"}, 536870912),
        ({"memory.max": "max\n"}, None),  # cgroup v2 without a limit
        ({"memory.limit_in_bytes": "9223372036854771712\n"}, None),  # cgroup v1 without a limit
        ({"memory.limit_in_bytes": "268435456\n"}, 268435456),
        ({}, None),  # not in a container
    ],
)
def test_the_containers_memory_limit(tmp_path: Path, files: dict[str, str], expected: int | None) -> None:
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    assert cgroup_memory_limit((tmp_path / "memory.max", tmp_path / "memory.limit_in_bytes")) == expected


def test_resident_memory_is_read_from_proc(tmp_path: Path) -> None:
    (tmp_path / "status").write_text("Name:\tpython\nVmPeak:\t  900 kB\nVmRSS:\t  123456 kB\n")
    assert rss_bytes(tmp_path / "status") == 123456 * 1024
    assert rss_bytes(tmp_path / "missing") is None


def test_memory_settings() -> None:
    assert load_settings(ENV).postmortem_memory_limit_mb is None
    assert load_settings({**ENV, "POSTMORTEM_MEMORY_LIMIT_MB": ""}).postmortem_memory_limit_mb is None
    with pytest.raises(ConfigError, match="POSTMORTEM_MEMORY_UNHEALTHY_FRACTION is invalid"):
        load_settings({**ENV, "POSTMORTEM_MEMORY_UNHEALTHY_FRACTION": "1.5"})


def test_uvicorn_runs_with_the_limits_of_the_settings() -> None:
    settings = load_settings({**ENV, "POSTMORTEM_HTTP_MAX_CONNECTIONS": "7", "POSTMORTEM_HTTP_READ_SECONDS": "2.5"})
    options = server_options(settings)
    protocol = options["http"]
    assert issubclass(protocol, GuardedH11Protocol) and protocol.limits == ServerLimits(7, 2.5)
    assert options["ws"] == "none" and options["limit_concurrency"] == 8
    assert options["h11_max_incomplete_event_size"] == MAX_HEADER_BYTES and options["timeout_keep_alive"] > 0


# --- Bolt cannot authorize: 503, so Slack sends the request again ---------------------------------------------


def _reply(thread_ts: str, event_id: str) -> bytes:
    """A signed-to-be reply in the session's thread: the approval an outage must not drop."""
    event = {"type": "message", "user": "U1", "channel": "C1", "text": "post it", "ts": "2.0", "thread_ts": thread_ts}
    body = {"type": "event_callback", "event_id": event_id, "team_id": "T1", "api_app_id": "A1", "event": event}
    return json.dumps(body).encode()


def _handled(store: SessionStore, event_id: str) -> bool:
    """Whether the bot took the event (its claim is held); probing releases nothing it did not take."""
    if store.claim_once(event_claim(event_id), 60):
        store.release_claim(event_claim(event_id))
        return False
    return True


@pytest.mark.parametrize(
    ("error", "status"),
    [("ratelimited", 429), ("internal_error", 500), ("service_unavailable", 503), ("fatal_error", 200)],
)
def test_an_approval_while_slack_cannot_authorize_is_a_503_then_handled_on_the_retry(
    redis_conn: redis.Redis, error: str, status: int
) -> None:
    store = SessionStore(redis_conn)
    session = store.create(Session(ticket="PROJ-1", requester="U1", channel="C1"))
    store.bind_thread(session.id, "C1", "1.0")
    with SlackEmulator(bot_token="xoxb-test") as slack:
        app = create_app(load_settings({**TEST_ENV, "SLACK_API_URL": slack.base_url}), redis_conn=redis_conn).http
        slack.fail_next("auth.test", error, status=status, retry_after=0 if status == 429 else None)
        body = _reply("1.0", "EvAUTH1")
        first = call(app, "/slack/events", [body], headers=slack_headers(body))
        assert (first.status, _handled(store, "EvAUTH1")) == (503, False)  # not a 200 that drops it
        again = call(app, "/slack/events", [body], headers=slack_headers(body))  # Slack's retry
        assert (again.status, _handled(store, "EvAUTH1")) == (200, True)


def test_slack_unreachable_at_the_first_request_is_a_503(redis_conn: redis.Redis) -> None:
    settings = load_settings({**TEST_ENV, "SLACK_API_URL": f"http://127.0.0.1:{free_port()}/api/"})
    body = _reply("1.0", "EvAUTH2")
    assert (
        call(
            create_app(settings, redis_conn=redis_conn).http, "/slack/events", [body], headers=slack_headers(body)
        ).status
        == 503
    )


def test_bolts_own_authorization_failing_after_the_first_check_is_a_503_too(
    redis_conn: redis.Redis, monkeypatch: pytest.MonkeyPatch
) -> None:
    with SlackEmulator(bot_token="xoxb-test") as slack:
        original, calls = AsyncWebClient.auth_test, []

        async def second_fails(self: AsyncWebClient, **kwargs: object) -> object:
            calls.append(1)
            if len(calls) == 2:  # the bot's own check passed; Bolt asks again and Slack says 429
                slack.fail_next("auth.test", "ratelimited", retry_after=0)
            return await original(self, **kwargs)

        monkeypatch.setattr(AsyncWebClient, "auth_test", second_fails)
        app = create_app(load_settings({**TEST_ENV, "SLACK_API_URL": slack.base_url}), redis_conn=redis_conn).http
        body = _reply("1.0", "EvAUTH3")
        assert call(app, "/slack/events", [body], headers=slack_headers(body)).status == 503
        assert len(calls) == 2


def test_url_verification_needs_no_authorization(redis_conn: redis.Redis) -> None:
    settings = load_settings({**TEST_ENV, "SLACK_API_URL": f"http://127.0.0.1:{free_port()}/api/"})
    body = json.dumps({"type": "url_verification", "challenge": "c"}).encode()
    answer = call(
        create_app(settings, redis_conn=redis_conn).http, "/slack/events", [body], headers=slack_headers(body)
    )
    assert answer.status == 200 and b"c" in answer.body
