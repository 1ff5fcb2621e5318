"""Size and shape before anything else: what every HTTP request passes before Bolt or a handler reads it.

Bolt reads and parses a whole body before it checks Slack's signature, and logs the body of a request
whose signature is bad. So the body is bounded here first (the Content-Length header, then counted while
it streams), and a Slack request is authenticated here before Bolt sees it: an unsigned sender gets a 4xx,
quickly, and nothing it chose reaches the log.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import time
from typing import Any
from urllib.parse import parse_qs

from pydantic import BaseModel, ConfigDict
from starlette.types import ASGIApp, Message, Receive, Scope, Send

log = logging.getLogger(__name__)

#: Slack's own payloads (commands, events, interactivity) are far below this.
MAX_SLACK_BODY_BYTES = 1024 * 1024
#: Jira's issue payloads carry every field of the issue, descriptions included.
MAX_JIRA_BODY_BYTES = 5 * 1024 * 1024
#: Any other route (`/healthz` and the unknown) takes no body worth more than this.
MAX_OTHER_BODY_BYTES = 64 * 1024
#: Slack signs `v0:<timestamp>:<body>`; a request older (or newer) than this is a replay.
SLACK_MAX_AGE_SECONDS = 300


def body_limit(path: str) -> int:
    """The largest body a route accepts, in bytes."""
    if path == "/slack/events":
        return MAX_SLACK_BODY_BYTES
    if path == "/jira/webhook":
        return MAX_JIRA_BODY_BYTES
    return MAX_OTHER_BODY_BYTES


class BodyLimit:
    """ASGI middleware: read the body up to its route's limit, answer 413 past it, then replay it to the app."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = body_limit(str(scope.get("path", "")))
        declared = _content_length(scope)
        if declared is None or declared > limit:
            await _answer(
                send,
                413 if declared is not None else 400,
                b"payload too large" if declared is not None else b"bad Content-Length",
            )
            return
        body = await _read_bounded(receive, limit)
        if body is None:
            await _answer(send, 413, b"payload too large")
            return
        await self.app(scope, _replay(body, receive), send)


def _content_length(scope: Scope) -> int | None:
    """The declared length (0 when none is declared, e.g. a chunked body); None when it is not a number."""
    for name, value in scope.get("headers", []):
        if name == b"content-length":
            return int(value) if value.isdigit() and len(value) <= 18 else None
    return 0


async def _read_bounded(receive: Receive, limit: int) -> bytes | None:
    """The whole body, or None as soon as it passes `limit` (never buffered past it)."""
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            break
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            return None
        chunks.append(chunk)
        if not message.get("more_body", False):
            break
    return b"".join(chunks)


def _replay(body: bytes, receive: Receive) -> Receive:
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if sent:
            return await receive()
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}

    return replay


async def _answer(send: Send, status: int, text: bytes) -> None:
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"text/plain; charset=utf-8"),
                (b"connection", b"close"),
                (b"content-length", str(len(text)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": text})


#: The loggers Bolt's own signature check writes to (with the whole body, at INFO, on a bad signature).
BOLT_VERIFICATION_LOGGERS = ("slack_bolt.RequestVerification", "slack_bolt.AsyncRequestVerification")


class NoBodies(logging.Filter):
    """Keep Bolt's "invalid signature" line, without the body an unauthenticated sender chose."""

    def filter(self, record: logging.LogRecord) -> bool:
        if "body:" in str(record.msg):
            record.msg, record.args = "Invalid request signature detected (body not logged)", ()
        return True


def quiet_bolt_verification() -> None:
    """Bolt checks the signature again after `slack_signature_ok`; should its clock see a request expire in
    between, its log line must not carry the body either."""
    for name in BOLT_VERIFICATION_LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, NoBodies) for f in logger.filters):
            logger.addFilter(NoBodies())


def slack_signature_ok(
    secret: str, body: bytes, *, timestamp: str | None, signature: str | None, now: float | None = None
) -> bool:
    """Slack's `X-Slack-Signature` over `v0:<X-Slack-Request-Timestamp>:<body>`, compared as bytes.

    Any header that is missing, not a number, not ASCII or too old is simply a bad signature (never an error).
    """
    if not secret or not timestamp or not signature or not timestamp.isascii() or not timestamp.isdigit():
        return False
    if len(timestamp) > 12 or abs((time.time() if now is None else now) - int(timestamp)) > SLACK_MAX_AGE_SECONDS:
        return False
    base = b"v0:" + timestamp.encode() + b":" + body
    expected = b"v0=" + hmac.new(secret.encode(), base, hashlib.sha256).hexdigest().encode()
    return hmac.compare_digest(expected, signature.encode("utf-8", "surrogateescape"))


class _Part(BaseModel):
    model_config = ConfigDict(extra="allow")


class _Typed(_Part):
    type: str


class _Action(_Part):
    action_id: str = ""
    value: str | None = None


class _View(_Typed):
    id: str = ""
    callback_id: str = ""
    private_metadata: str = ""
    state: dict[str, dict[str, Any]] | None = None


class _Event(_Typed):
    ts: str | None = None
    thread_ts: str | None = None
    user: str | dict[str, Any] | None = None
    text: str | None = None


class SlackEnvelope(_Part):
    """The parts of a Slack payload that Bolt and the listeners index into, with the types Slack sends.

    Signed by Slack, so never hostile in practice; but a payload of another shape must be a 400, not a
    KeyError deep inside Bolt (a 500).
    """

    type: str | None = None
    user: dict[str, Any] | None = None
    team: str | dict[str, Any] | None = None
    channel: dict[str, Any] | None = None
    container: dict[str, Any] | None = None
    message: dict[str, Any] | None = None
    view: _View | None = None
    event: _Event | None = None
    actions: list[_Action] | None = None
    authorizations: list[dict[str, Any]] | None = None
    trigger_id: str | None = None
    response_url: str | None = None


def slack_body_readable(body: bytes, content_type: str) -> bool:
    """Whether a signed Slack body is UTF-8 and its JSON (the body, or a form's `payload`) has Slack's shape."""
    try:
        text = body.decode("utf-8")
        if content_type.startswith("application/json"):
            SlackEnvelope.model_validate(json.loads(text))
            return True
        form: dict[str, Any] = parse_qs(text, keep_blank_values=True)
        if "payload" in form:
            SlackEnvelope.model_validate(json.loads(form["payload"][0]))
        return True
    except (ValueError, RecursionError):  # pydantic's ValidationError is a ValueError
        return False
