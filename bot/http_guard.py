"""What every HTTP request passes before Bolt or a handler reads it: size, the signature's headers, the signature.

Bolt reads and parses a whole body before it checks Slack's signature, and logs the body of a request whose
signature is bad. So, after the connection limits of `bot/connections.py`:

- `BodyLimit` (ASGI): a body is refused (413) past its route's limit, from the Content-Length before
  anything is read; Slack's timestamp and the shape of either signature header are checked before the body
  is read (401 costs the sender's bytes nothing); the body is then counted against one budget shared by
  every request in flight (503 past it: Slack and Jira send again; a quarter of it is kept for small bodies,
  so stalled large ones cannot starve ordinary events), and replayed to the app.
- `slack_signature_ok`: a Slack request is authenticated before Bolt sees it, so an unsigned sender gets a
  4xx quickly and nothing it chose reaches the log; `bot/slack_shapes.py` then checks the payload's shape.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import re
import time
from collections.abc import Callable, Mapping

from starlette.types import ASGIApp, Message, Receive, Scope, Send

log = logging.getLogger(__name__)

#: The largest modal submission this product's form can make is 1,418,493 bytes: every text input (15) at
#: Slack's 3,000-character limit of 4-byte emoji, sent as JSON `\u` escapes and form-encoded, twice (the
#: Edit modal's prefilled blocks and the typed state) (tests/bot/test_http_guard.py measures it with the
#: emulators' driver). Japanese text in every field makes 810,663; events and commands are a few kB.
MAX_SLACK_BODY_BYTES = 2 * 1024 * 1024
#: Jira's issue payloads carry every field of the issue, descriptions included.
MAX_JIRA_BODY_BYTES = 5 * 1024 * 1024
#: Any other route (`/healthz` and the unknown) takes no body worth more than this.
MAX_OTHER_BODY_BYTES = 64 * 1024
#: Slack signs `v0:<timestamp>:<body>`; a request older (or newer) than this is a replay.
SLACK_MAX_AGE_SECONDS = 300

_SLACK_SIGNATURE = re.compile(rb"v0=[0-9a-f]{64}")
_TIMESTAMP = re.compile(rb"[0-9]{1,12}")


def body_limit(path: str) -> int:
    """The largest body a route accepts, in bytes."""
    if path == "/slack/events":
        return MAX_SLACK_BODY_BYTES
    if path == "/jira/webhook":
        return MAX_JIRA_BODY_BYTES
    return MAX_OTHER_BODY_BYTES


#: A body declared at most this long is small: every Slack event and command, and most modal submissions.
SMALL_BODY_BYTES = 64 * 1024


class BodyBudget:
    """The bytes of request bodies every request in flight holds together: past `limit`, the request that
    would pass it is refused (503), so memory for bodies is bounded whatever the number of senders.

    A share of the limit (`reserve`, a quarter by default) is kept for small bodies (declared at most
    `small_bytes`): large bodies stalled by a hostile sender can hold at most the rest, so an ordinary Slack
    event or command is still read while they wait for their deadline."""

    def __init__(self, limit: int, *, small_bytes: int = SMALL_BODY_BYTES, reserve: int | None = None) -> None:
        self.limit = limit
        self.small_bytes = small_bytes
        self.reserve = limit // 4 if reserve is None else reserve
        self.used = 0

    def take(self, size: int, *, declared: int = 0) -> bool:
        """Count `size` more bytes of a body declared `declared` long (0: not declared, never small)."""
        small = 0 < declared <= self.small_bytes
        if self.used + size > (self.limit if small else self.limit - self.reserve):
            return False
        self.used += size
        return True

    def give_back(self, size: int) -> None:
        self.used -= size


class _Refused(Exception):
    """A body refused while it is read: 413 past its route's limit, 503 past the shared budget."""

    def __init__(self, status: int, text: bytes) -> None:
        super().__init__(status)
        self.status, self.text = status, text


class _Gone(Exception):
    """The client disconnected before its body was whole: nothing to answer, nothing to run."""


class BodyLimit:
    """ASGI middleware: refuse by the headers what can be refused unread, read the body within its route's
    limit and the shared budget, then replay it to the app (the budget is given back once the app is done)."""

    def __init__(
        self, app: ASGIApp, *, budget: BodyBudget | None = None, clock: Callable[[], float] = time.time
    ) -> None:
        self.app = app
        self.budget = budget or BodyBudget(4 * MAX_JIRA_BODY_BYTES)
        self.clock = clock

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = str(scope.get("path", ""))
        limit = body_limit(path)
        declared = _content_length(scope)
        if declared is None:
            await _answer(send, 400, b"bad Content-Length")
            return
        if declared > limit:
            await _answer(send, 413, b"payload too large")
            return
        refusal = unsigned_refusal(path, _headers(scope), now=self.clock())
        if refusal is not None:
            log.info("refused a request to %s by its signature headers (%d bytes declared, none read)", path, declared)
            await _answer(send, 401, *refusal)
            return
        held = [0]
        try:
            body = await _read_bounded(receive, limit, self.budget, held, declared)
            await self.app(scope, _replay(body, receive), send)
        except _Refused as refused:
            if refused.status == 503:
                log.warning("refused a request body: bodies in flight passed %d bytes", self.budget.limit)
            await _answer(send, refused.status, refused.text)
        except _Gone:
            return
        finally:
            self.budget.give_back(held[0])


def _headers(scope: Scope) -> dict[bytes, bytes]:
    """The request's headers by lower-case name (the first of each, as Slack and Jira send one)."""
    found: dict[bytes, bytes] = {}
    for name, value in scope.get("headers", []):
        found.setdefault(bytes(name).lower(), bytes(value))
    return found


def unsigned_refusal(path: str, headers: Mapping[bytes, bytes], *, now: float) -> tuple[bytes, bytes] | None:
    """For a request whose signature headers already fail, the 401's (text, content type); None otherwise.

    Slack's timestamp must be a number within `SLACK_MAX_AGE_SECONDS` of `now` and its signature `v0=` and
    64 hex digits; Jira's `X-Hub-Signature` must be `sha256=…` (as handlers/jira_webhook.py requires). The
    body is read only when these hold, so a missing, malformed or stale header costs the sender's bytes
    nothing; the HMAC over the body is checked after it is read.
    """
    if path == "/slack/events":
        timestamp = headers.get(b"x-slack-request-timestamp", b"")
        signature = headers.get(b"x-slack-signature", b"")
        if not slack_timestamp_fresh(timestamp, now=now) or not _SLACK_SIGNATURE.fullmatch(signature):
            return b"invalid signature", b"text/plain; charset=utf-8"
    elif path == "/jira/webhook" and not headers.get(b"x-hub-signature", b"").startswith(b"sha256="):
        return b'{"ok": false, "error": "bad or missing X-Hub-Signature"}', b"application/json"
    return None


def slack_timestamp_fresh(timestamp: bytes | str | None, *, now: float) -> bool:
    """Whether `X-Slack-Request-Timestamp` is a number of seconds within Slack's replay window of `now`."""
    if timestamp is None:
        return False
    raw = timestamp.encode("utf-8", "surrogateescape") if isinstance(timestamp, str) else timestamp
    return bool(_TIMESTAMP.fullmatch(raw)) and abs(now - int(raw)) <= SLACK_MAX_AGE_SECONDS


def _content_length(scope: Scope) -> int | None:
    """The declared length (0 when none is declared, e.g. a chunked body); None when it is not a number."""
    for name, value in scope.get("headers", []):
        if name == b"content-length":
            return int(value) if value.isdigit() and len(value) <= 18 else None
    return 0


async def _read_bounded(receive: Receive, limit: int, budget: BodyBudget, held: list[int], declared: int) -> bytes:
    """The whole body, each chunk taken from `budget` as it arrives (`held[0]` counts what was taken);
    `_Refused` as soon as it passes `limit` or the budget, `_Gone` when the client leaves first."""
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            raise _Gone
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            raise _Refused(413, b"payload too large")
        if not budget.take(len(chunk), declared=declared):
            raise _Refused(503, b"busy, try again")
        held[0] += len(chunk)
        chunks.append(chunk)
        if not message.get("more_body", False):
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


async def _answer(send: Send, status: int, text: bytes, content_type: bytes = b"text/plain; charset=utf-8") -> None:
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", content_type),
                (b"connection", b"close"),
                (b"content-length", str(len(text)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": text})


# --- The connection: uvicorn's h11 protocol with a deadline per request and a cap on connections ---------


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
    if not secret or not timestamp or not signature:
        return False
    if not slack_timestamp_fresh(timestamp, now=time.time() if now is None else now):
        return False
    base = b"v0:" + timestamp.encode() + b":" + body
    expected = b"v0=" + hmac.new(secret.encode(), base, hashlib.sha256).hexdigest().encode()
    return hmac.compare_digest(expected, signature.encode("utf-8", "surrogateescape"))
