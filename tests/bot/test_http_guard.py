"""Size and shape before anything else: oversize, unsigned and malformed requests get a 4xx, never a 500."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import logging
import socket
import threading
import time
from collections.abc import Iterator, Sequence
from typing import Any
from urllib.parse import urlencode

import pytest
import redis
import requests
import uvicorn
from slack_bolt.request.async_request import AsyncBoltRequest
from slack_sdk import WebClient
from starlette.types import Scope

from bot.app import create_app
from bot.connections import ServerLimits, server_protocol
from bot.http_guard import (
    MAX_JIRA_BODY_BYTES,
    MAX_SLACK_BODY_BYTES,
    SLACK_MAX_AGE_SECONDS,
    BodyBudget,
    BodyLimit,
    slack_signature_ok,
    slack_timestamp_fresh,
)
from bot.localstack import free_port
from bot.settings import load_settings
from bot.slack_shapes import slack_body_readable
from emulators.driver import SlackDriver, modal_values
from emulators.slack_api import SlackEmulator
from postmortem.field_table import REGISTRY
from postmortem.fieldtext import MODAL_MAX_CHARS
from renderers.modal import build_modal
from sessions.session import Session
from sessions.store import SessionStore
from tests.asgi import ENV, HOOK_SECRET, SECRET, call, slack_headers

pytestmark = pytest.mark.unit


def test_a_declared_oversize_body_is_refused_without_reading_it(app: Any) -> None:
    answer = call(app, "/slack/events", [b"x"], headers={"Content-Length": str(30 * 1024 * 1024).encode()})
    assert answer.status == 413 and answer.reads == 0


def signed_looking(path: str) -> dict[str, bytes]:
    """Signature headers that pass the checks made before the body is read (the HMAC itself is wrong)."""
    if path == "/jira/webhook":
        return {"X-Hub-Signature": b"sha256=" + b"0" * 64}
    return {"X-Slack-Request-Timestamp": str(int(time.time())).encode(), "X-Slack-Signature": b"v0=" + b"0" * 64}


def test_a_chunked_oversize_body_is_refused_once_it_passes_the_limit(app: Any) -> None:
    chunk = b"x" * 65536
    answer = call(app, "/slack/events", endless=chunk, headers=signed_looking("/slack/events"))
    assert answer.status == 413
    assert answer.reads <= MAX_SLACK_BODY_BYTES // len(chunk) + 1


@pytest.mark.parametrize("path", ["/slack/events", "/jira/webhook", "/healthz", "/nowhere"])
def test_every_route_has_a_limit(app: Any, path: str) -> None:
    assert call(app, path, endless=b"y" * 65536, headers=signed_looking(path)).status == 413


_SIG = b"v0=" + b"a" * 64
_NOW = object()  # stands for the time the request is sent


@pytest.mark.parametrize(
    ("timestamp", "signature"),
    [
        (None, _SIG),
        (-SLACK_MAX_AGE_SECONDS - 60, _SIG),  # a replay
        (SLACK_MAX_AGE_SECONDS + 60, _SIG),
        (b"", _SIG),
        (b"12e8", _SIG),
        (b"9" * 40, _SIG),
        (_NOW, None),
        (_NOW, b"v0=" + b"a" * 63),
        (_NOW, b"v1=" + b"a" * 64),
    ],
)
def test_slack_signature_headers_that_already_fail_cost_no_read(
    app: Any, timestamp: object, signature: bytes | None
) -> None:
    headers = {"Content-Length": str(MAX_SLACK_BODY_BYTES).encode()}
    if timestamp is _NOW:
        headers["X-Slack-Request-Timestamp"] = str(int(time.time())).encode()
    elif isinstance(timestamp, int):  # seconds from now
        headers["X-Slack-Request-Timestamp"] = str(int(time.time()) + timestamp).encode()
    elif isinstance(timestamp, bytes):
        headers["X-Slack-Request-Timestamp"] = timestamp
    if signature is not None:
        headers["X-Slack-Signature"] = signature
    answer = call(app, "/slack/events", endless=b"z" * 65536, headers=headers)
    assert (answer.status, answer.reads) == (401, 0)


@pytest.mark.parametrize("signature", [None, b"", b"md5=abc", b"SHA256=" + b"0" * 64])
def test_a_jira_webhook_without_its_signature_header_costs_no_read(app: Any, signature: bytes | None) -> None:
    headers = {"Content-Length": str(MAX_JIRA_BODY_BYTES).encode()}
    if signature is not None:
        headers["X-Hub-Signature"] = signature
    answer = call(app, "/jira/webhook", endless=b"z" * 65536, headers=headers)
    assert (answer.status, answer.reads) == (401, 0)
    assert json.loads(answer.body) == {"ok": False, "error": "bad or missing X-Hub-Signature"}


def test_the_timestamp_check_is_the_signatures_own() -> None:
    now = float(int(time.time()))
    assert slack_timestamp_fresh(str(int(now)), now=now)
    assert slack_timestamp_fresh(str(int(now) - SLACK_MAX_AGE_SECONDS), now=now)
    assert not slack_timestamp_fresh(str(int(now) - SLACK_MAX_AGE_SECONDS - 1), now=now)
    assert not slack_timestamp_fresh("１２３", now=now) and not slack_timestamp_fresh(None, now=now)


async def _two_at_once(first: bytes, second: bytes, limit: int) -> tuple[list[int], BodyBudget, list[bytes]]:
    """`first` is held inside the app while `second` arrives; the statuses, the budget, what the app saw."""
    budget, seen, inside, release = BodyBudget(limit), [], asyncio.Event(), asyncio.Event()

    async def app(scope: Any, receive: Any, send: Any) -> None:
        body = (await receive())["body"]
        seen.append(body)
        if body == first:  # held until the second request is answered, so both are in flight at once
            inside.set()
            await release.wait()
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})

    guard = BodyLimit(app, budget=budget)

    async def post(body: bytes) -> int:
        parts = [body[:10], body[10:]]
        sent: list[Any] = []

        async def receive() -> Any:
            chunk = parts.pop(0)
            return {"type": "http.request", "body": chunk, "more_body": bool(parts)}

        async def send(message: Any) -> None:
            sent.append(message)

        scope = {"type": "http", "path": "/nowhere", "headers": [(b"content-length", str(len(body)).encode())]}
        await guard(scope, receive, send)
        return int(sent[0]["status"])

    held = asyncio.create_task(post(first))
    await inside.wait()
    statuses = [await post(second)]
    release.set()  # the second is answered (refused or not): the first may finish
    statuses.insert(0, await held)
    return statuses, budget, seen


def test_bodies_in_flight_share_one_budget() -> None:
    statuses, budget, seen = asyncio.run(_two_at_once(b"a" * 60, b"b" * 50, limit=100))
    assert statuses == [200, 503] and seen == [b"a" * 60]
    assert budget.used == 0  # everything given back, the refused body's part too


def test_bodies_within_the_budget_all_pass() -> None:
    statuses, budget, seen = asyncio.run(_two_at_once(b"a" * 60, b"b" * 40, limit=100))
    assert statuses == [200, 200] and seen == [b"a" * 60, b"b" * 40] and budget.used == 0


def test_large_bodies_cannot_take_the_share_kept_for_small_ones() -> None:
    budget = BodyBudget(100, small_bytes=10, reserve=25)
    assert budget.take(70, declared=200) and budget.take(5, declared=200)  # large bodies fill 75 of 100
    assert not budget.take(1, declared=200) and not budget.take(1, declared=0)  # undeclared counts as large
    assert budget.take(10, declared=10) and budget.take(10, declared=10) and budget.take(5, declared=9)
    assert not budget.take(1, declared=10) and budget.used == 100  # the whole limit still bounds small ones
    budget.give_back(100)
    assert budget.take(75, declared=11) and not budget.take(1, declared=11)


def test_a_client_gone_before_its_body_is_whole_runs_nothing() -> None:
    ran: list[Scope] = []

    async def app(scope: Scope, receive: Any, send: Any) -> None:
        ran.append(scope)

    budget = BodyBudget(1000)
    messages = [{"type": "http.request", "body": b"x" * 10, "more_body": True}, {"type": "http.disconnect"}]

    async def receive() -> Any:
        return messages.pop(0)

    async def send(message: Any) -> None:
        raise AssertionError("nothing is answered to a client that left")

    scope = {"type": "http", "path": "/nowhere", "headers": [(b"content-length", b"20")]}
    asyncio.run(BodyLimit(app, budget=budget)(scope, receive, send))
    assert ran == [] and budget.used == 0


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


# --- The largest body Slack can send: this product's modal, every input at its limit ----------------------


class _Capturing(SlackDriver):
    """The emulators' driver, keeping the body it would POST instead of sending it."""

    body = b""

    def post(self, body: bytes, content_type: str, **_: Any) -> requests.Response:
        self.body = body
        answer = requests.Response()
        answer.status_code = 200
        return answer


#: One character a field, repeated to the limit: ASCII, JSON's escaped ones, a control character, Japanese,
#: an emoji (4 UTF-8 bytes, two `\u` escapes), and mrkdwn's escaped `<`.
_FILLERS = ("a", '"', "\n", "\x01", "é", "あ", "😀", "<")


def modal_submission(slack: SlackEmulator, filler: str) -> bytes:
    """The form body Slack sends when the Edit modal, prefilled to the limit, is submitted with every text
    input at `MODAL_MAX_CHARS`, every select chosen and every box checked (the view's blocks ride along)."""
    full = filler * MODAL_MAX_CHARS
    texts = [f.name for f in REGISTRY.fields if f.kind in ("text", "multiline", "list")]
    prefill: dict[str, Any] = {f: full for f in texts if f not in ("ticket", "action_items")}
    prefill["action_items"] = [{"what": filler * (MODAL_MAX_CHARS - 10), "owner": None, "tracking": None}]
    meta = json.dumps({"session": "s" * 32, "channel": "C0123456789", "lang": "ja"})
    view = build_modal(ticket="PROJ-1", values=prefill, lang="ja", private_metadata=meta)
    opened = WebClient(token="xoxb-test", base_url=slack.base_url).views_open(
        trigger_id=slack.issue_trigger_id(), view=view
    )
    state: dict[str, Any] = {f: full for f in texts}
    for field in REGISTRY.fields:
        if field.kind == "select":
            state[field.name] = field.options[-1].value
        elif field.kind == "multiselect":
            state[field.name] = [o.value for o in field.options]
        elif field.kind == "flag":
            state[field.name] = True
    driver = _Capturing("http://127.0.0.1:9/slack/events", SECRET, slack=slack)
    driver.view_submission(values=modal_values(state), view_id=opened["view"]["id"])
    # Slack may send non-ASCII as UTF-8 rather than `\u` escapes: the larger of the two encodings counts.
    raw = urlencode({"payload": json.dumps(driver.last_payload, ensure_ascii=False)}).encode()
    return max(driver.body, raw, key=len)


def test_the_slack_cap_fits_the_largest_modal_submission_with_margin(app: Any, slack: SlackEmulator) -> None:
    bodies = {filler: modal_submission(slack, filler) for filler in _FILLERS}
    largest = max(bodies.values(), key=len)
    assert MAX_SLACK_BODY_BYTES >= 1.25 * len(largest), {f: len(b) for f, b in bodies.items()}
    headers = slack_headers(largest, content_type=b"application/x-www-form-urlencoded")
    assert call(app, "/slack/events", [largest], headers=headers).status == 200  # read, parsed, answered


# --- The connection: deadlines and the cap, on a real uvicorn -------------------------------------------


@contextlib.contextmanager
def guarded_server(limits: ServerLimits) -> Iterator[int]:
    """uvicorn on loopback with the guarded protocol and a trivial app that reads the whole body; its port."""

    async def app(scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return
        more = True
        while more:
            message = await receive()
            more = message.get("more_body", False) and message["type"] == "http.request"
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-length", b"2")]})
        await send({"type": "http.response.body", "body": b"ok"})

    port = free_port()
    config = uvicorn.Config(
        app, host="127.0.0.1", port=port, lifespan="off", log_level="warning", http=server_protocol(limits), ws="none"
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "uvicorn did not start"
        time.sleep(0.01)  # polling a condition with a deadline
    try:
        yield port
    finally:
        server.should_exit = True
        thread.join(timeout=10)


def until_closed(sock: socket.socket, timeout: float) -> tuple[bytes, float]:
    """Everything the server sends until it closes the connection, and how long that took."""
    start, received = time.monotonic(), b""
    sock.settimeout(timeout)
    while chunk := sock.recv(65536):
        received += chunk
    return received, time.monotonic() - start


READ = 0.5


@pytest.mark.parametrize(
    "sent",
    [
        b"",  # a connection that says nothing
        b"POST /slack/events HTTP/1.1\r\nHost: x\r\nX-Slow: ",  # headers that never end
        b"POST /x HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n" + b"y" * 50,  # a body that stalls
    ],
)
def test_a_request_not_received_in_time_is_answered_408_and_closed(sent: bytes) -> None:
    with guarded_server(ServerLimits(max_connections=10, read_seconds=READ)) as port:
        with socket.create_connection(("127.0.0.1", port)) as sock:
            sock.sendall(sent)
            received, took = until_closed(sock, timeout=READ + 5)
    assert received.startswith(b"HTTP/1.1 408 ") and READ * 0.8 <= took <= READ + 2


def test_a_slow_trickle_does_not_extend_the_deadline() -> None:
    with guarded_server(ServerLimits(max_connections=10, read_seconds=READ)) as port:
        with socket.create_connection(("127.0.0.1", port)) as sock:
            sock.sendall(b"POST /x HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n")
            start, closed = time.monotonic(), False
            while not closed and time.monotonic() - start < READ + 5:
                try:
                    sock.sendall(b"y")  # a byte at a time: each one arrives well within any idle timeout
                    sock.settimeout(READ / 10)
                    closed = sock.recv(65536).startswith(b"HTTP/1.1 408")
                except TimeoutError:
                    continue
                except OSError:
                    closed = True
    assert closed and time.monotonic() - start <= READ + 2


def answer_of(sock: socket.socket) -> bytes:
    """One whole response of the trivial app (its body is `ok`)."""
    received = b""
    while not received.endswith(b"\r\n\r\nok"):
        chunk = sock.recv(65536)
        assert chunk, received
        received += chunk
    return received


def test_requests_in_time_are_answered_and_an_idle_keep_alive_outlives_the_deadline() -> None:
    request = b"POST /x HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nhi"
    with guarded_server(ServerLimits(max_connections=10, read_seconds=READ)) as port:
        with socket.create_connection(("127.0.0.1", port)) as sock:
            sock.settimeout(5)
            sock.sendall(request)
            assert answer_of(sock).startswith(b"HTTP/1.1 200 ")
            sock.settimeout(READ * 2)  # between requests only uvicorn's keep-alive timeout (5 s) counts
            with pytest.raises(TimeoutError):
                sock.recv(1)
            sock.settimeout(5)
            sock.sendall(request)  # the same connection, once more: a new request, a new deadline
            assert answer_of(sock).startswith(b"HTTP/1.1 200 ")


def test_a_connection_past_the_cap_is_refused_at_once() -> None:
    with guarded_server(ServerLimits(max_connections=3, read_seconds=5)) as port:
        held = [socket.create_connection(("127.0.0.1", port)) for _ in range(3)]
        try:
            with socket.create_connection(("127.0.0.1", port)) as extra:
                received, took = until_closed(extra, timeout=5)
            assert received.startswith(b"HTTP/1.1 503 ") and took < 2
        finally:
            for sock in held:
                sock.close()
