"""Size and shape before anything else: oversize, unsigned and malformed requests get a 4xx, never a 500."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import logging
import time
from collections.abc import Sequence
from typing import Any
from urllib.parse import urlencode

import pytest
import redis
from slack_bolt.request.async_request import AsyncBoltRequest

from bot.app import create_app
from bot.http_guard import MAX_SLACK_BODY_BYTES, slack_body_readable, slack_signature_ok
from bot.settings import load_settings
from emulators.slack_api import SlackEmulator
from sessions.session import Session
from sessions.store import SessionStore
from tests.asgi import ENV, HOOK_SECRET, SECRET, call, slack_headers

pytestmark = pytest.mark.unit


def test_a_declared_oversize_body_is_refused_without_reading_it(app: Any) -> None:
    answer = call(app, "/slack/events", [b"x"], headers={"Content-Length": str(30 * 1024 * 1024).encode()})
    assert answer.status == 413 and answer.reads == 0


def test_a_chunked_oversize_body_is_refused_once_it_passes_the_limit(app: Any) -> None:
    chunk = b"x" * 65536
    answer = call(app, "/slack/events", endless=chunk)
    assert answer.status == 413
    assert answer.reads <= MAX_SLACK_BODY_BYTES // len(chunk) + 1


@pytest.mark.parametrize("path", ["/jira/webhook", "/healthz", "/nowhere"])
def test_every_route_has_a_limit(app: Any, path: str) -> None:
    assert call(app, path, endless=b"y" * 65536).status == 413


def test_a_non_numeric_content_length_is_a_400(app: Any) -> None:
    assert call(app, "/slack/events", [b"{}"], headers={"Content-Length": b"12abc"}).status == 400


def test_an_unsigned_body_is_refused_and_never_logged(app: Any, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    body = json.dumps({"type": "event_callback", "event": {"text": "CHOSEN-BY-THE-SENDER"}}).encode()
    headers = {**slack_headers(body), "X-Slack-Signature": b"v0=" + b"0" * 64}
    answer = call(app, "/slack/events", [body], headers=headers)
    assert answer.status == 401
    assert "CHOSEN-BY-THE-SENDER" not in caplog.text


@pytest.mark.parametrize(
    "name, value",
    [
        ("X-Slack-Request-Timestamp", b"not-a-number"),
        ("X-Slack-Request-Timestamp", b"1e9"),
        ("X-Slack-Request-Timestamp", "１２３".encode()),
        ("X-Slack-Signature", "v0=é".encode()),
        ("X-Slack-Signature", b"v0=\xff\xfe"),
    ],
)
def test_malformed_signature_headers_are_a_401(app: Any, name: str, value: bytes) -> None:
    body = b'{"type": "url_verification", "challenge": "c"}'
    assert call(app, "/slack/events", [body], headers={**slack_headers(body), name: value}).status == 401


@pytest.mark.parametrize("body", [b"\xff\xfe not utf-8", b"[" * 100_000 + b"]" * 100_000])
def test_signed_unreadable_json_bodies_are_a_400(app: Any, body: bytes) -> None:
    assert call(app, "/slack/events", [body], headers=slack_headers(body)).status == 400


def test_a_signed_form_with_a_deeply_nested_payload_is_a_400(app: Any) -> None:
    body = urlencode({"payload": "[" * 100_000 + "]" * 100_000}).encode()
    headers = slack_headers(body, content_type=b"application/x-www-form-urlencoded")
    assert call(app, "/slack/events", [body], headers=headers).status == 400


def _hub(body: bytes) -> bytes:
    return ("sha256=" + hmac.new(HOOK_SECRET.encode(), body, hashlib.sha256).hexdigest()).encode()


@pytest.mark.parametrize("signature", ["sha256=é".encode(), b"sha256=\xff" * 3])
def test_a_non_ascii_hub_signature_is_a_401(app: Any, signature: bytes) -> None:
    body = b'{"webhookEvent": "jira:issue_updated"}'
    answer = call(
        app, "/jira/webhook", [body], headers={"X-Hub-Signature": signature, "Content-Length": str(len(body)).encode()}
    )
    assert answer.status == 401


@pytest.mark.parametrize("body", [b"\xff\xfe", b"[" * 100_000 + b"]" * 100_000])
def test_signed_unreadable_jira_bodies_are_a_400(app: Any, body: bytes) -> None:
    answer = call(
        app, "/jira/webhook", [body], headers={"X-Hub-Signature": _hub(body), "Content-Length": str(len(body)).encode()}
    )
    assert answer.status == 400


def test_the_signature_check_itself() -> None:
    body, now = b"{}", time.time()
    ts = str(int(now))
    good = "v0=" + hmac.new(SECRET.encode(), f"v0:{ts}:".encode() + body, hashlib.sha256).hexdigest()
    assert slack_signature_ok(SECRET, body, timestamp=ts, signature=good, now=now)
    assert not slack_signature_ok(SECRET, body, timestamp=ts, signature=good, now=now + 301)  # a replay
    assert not slack_signature_ok("", body, timestamp=ts, signature=good, now=now)
    assert not slack_signature_ok(SECRET, body + b" ", timestamp=ts, signature=good, now=now)
    assert not slack_signature_ok(SECRET, body, timestamp=None, signature=good, now=now)


def test_readable_bodies() -> None:
    assert slack_body_readable(b'{"a": 1}', "application/json")
    assert slack_body_readable(urlencode({"payload": '{"type": "x"}'}).encode(), "application/x-www-form-urlencoded")
    assert slack_body_readable(b"command=%2Fpost-mortem&text=PROJ-1", "application/x-www-form-urlencoded")
    assert not slack_body_readable(b"[1, 2]", "application/json")
    assert not slack_body_readable(urlencode({"payload": "{nope"}).encode(), "application/x-www-form-urlencoded")


@pytest.mark.parametrize(
    "event",
    [
        {"type": "message", "user": "U1", "channel": "C1", "text": "hi", "thread_ts": "1.0"},  # no ts
        {"type": "message", "user": {"id": "U1"}, "channel": ["C1"], "text": 5, "ts": 7, "thread_ts": ["1.0"]},
        {"type": "app_mention", "user": "U1", "channel": "C1", "text": None},
        {"type": "app_mention", "user": "U1", "channel": {"id": "C1"}, "text": ["x"], "ts": {}, "thread_ts": 3},
    ],
)
def test_signed_events_of_the_wrong_shape_are_never_a_500(
    app: Any, redis_conn: redis.Redis, event: dict[str, Any]
) -> None:
    store = SessionStore(redis_conn)  # a session in thread C1/1.0, so a reply there is read as the session's
    session = store.create(Session(ticket="PROJ-1", requester="U1", channel="C1"))
    store.bind_thread(session.id, "C1", "1.0")
    body = json.dumps(
        {
            "type": "event_callback",
            "event_id": f"Ev{time.time_ns()}",
            "team_id": "T1",
            "api_app_id": "A1",
            "event": event,
        }
    ).encode()
    assert call(app, "/slack/events", [body], headers=slack_headers(body)).status < 500


@pytest.mark.parametrize(
    "payload",
    [
        {"type": "block_actions", "user": "U1", "actions": "nope", "trigger_id": 5},
        {"type": "block_actions", "user": {"id": "U1"}, "actions": [{"action_id": "pm_cancel", "value": ["x"]}]},
        {"type": "block_actions", "user": {"id": "U1"}, "actions": [{"action_id": "pm_start", "value": "{}"}]},
        {
            "type": "block_actions",
            "user": {"id": "U1"},
            "channel": {"id": "C1"},
            "actions": [{"action_id": "postmortem_start", "value": '{"ticket": "PROJ-1", "channel": "C1"}'}],
        },
        {"type": "view_submission", "user": "U1", "view": {"callback_id": "postmortem", "state": "x"}},
        {
            "type": "view_submission",
            "user": {"id": "U1"},
            "view": {"callback_id": "postmortem", "private_metadata": 5, "state": {"values": 3}},
        },
    ],
)
def test_signed_interactions_of_the_wrong_shape_are_never_a_500(app: Any, payload: dict[str, Any]) -> None:
    body = urlencode({"payload": json.dumps(payload)}).encode()
    headers = slack_headers(body, content_type=b"application/x-www-form-urlencoded")
    assert call(app, "/slack/events", [body], headers=headers).status < 500


def test_bolt_itself_never_logs_the_body_of_a_bad_signature(
    redis_conn: redis.Redis, slack: SlackEmulator, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    service = create_app(load_settings({**ENV, "SLACK_API_URL": slack.base_url}), redis_conn=redis_conn)
    body = '{"type": "event_callback", "event": {"type": "message", "text": "CHOSEN-BY-THE-SENDER"}}'
    headers: dict[str, str | Sequence[str]] = {
        "x-slack-request-timestamp": str(int(time.time())),
        "x-slack-signature": "v0=" + "0" * 64,
        "content-type": "application/json",
    }
    response = asyncio.run(service.bolt.async_dispatch(AsyncBoltRequest(body=body, headers=headers)))
    assert response.status == 401
    assert "Invalid request signature" in caplog.text and "CHOSEN-BY-THE-SENDER" not in caplog.text
