"""The app factory: settings in, one Bolt app served over HTTP or Socket Mode; nothing connects at build."""

from __future__ import annotations

import asyncio
import json

import pytest
import redis
from starlette.types import ASGIApp, Message

from bot.app import create_app
from bot.run import socket_mode_handler
from bot.settings import ConfigError, load_settings

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
