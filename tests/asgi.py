"""Calling the bot's ASGI app in-process with Slack's signed requests (tests/conftest.py has its fixtures)."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import time
from dataclasses import dataclass
from typing import Any

SECRET = "s3cret"
HOOK_SECRET = "hook-s3cret"
ENV = {
    "SLACK_BOT_TOKEN": "xoxb-test",
    "SLACK_SIGNING_SECRET": SECRET,
    "JIRA_URL": "https://example.atlassian.net",
    "JIRA_EMAIL": "bot@example.com",
    "JIRA_API_TOKEN": "jira-t0ken",
    "JIRA_WEBHOOK_SECRET": HOOK_SECRET,
    "REDIS_URL": "redis://127.0.0.1:1/0",
}


@dataclass
class Answer:
    status: int
    body: bytes
    reads: int  # how many body chunks the app asked for


def call(
    app: Any,
    path: str,
    chunks: list[bytes] | None = None,
    *,
    headers: dict[str, bytes] | None = None,
    endless: bytes | None = None,
) -> Answer:
    """One POST through the ASGI interface; `endless` streams that chunk forever (a chunked body)."""
    parts = list(chunks or [])
    sent: list[dict[str, Any]] = []
    reads = 0

    async def receive() -> dict[str, Any]:
        nonlocal reads
        reads += 1
        if endless is not None:
            return {"type": "http.request", "body": endless, "more_body": True}
        chunk = parts.pop(0) if parts else b""
        return {"type": "http.request", "body": chunk, "more_body": bool(parts)}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    raw = [(k.lower().encode(), v) for k, v in (headers or {}).items()]
    scope = {
        "type": "http",
        "method": "POST",
        "path": path,
        "headers": raw,
        "query_string": b"",
        "http_version": "1.1",
        "scheme": "http",
        "server": ("test", 80),
        "root_path": "",
    }
    asyncio.run(app(scope, receive, send))
    body = b"".join(m.get("body", b"") for m in sent[1:])
    return Answer(int(sent[0]["status"]), body, reads)


def slack_headers(body: bytes, *, content_type: bytes = b"application/json") -> dict[str, bytes]:
    ts = str(int(time.time()))
    sig = "v0=" + hmac.new(SECRET.encode(), f"v0:{ts}:".encode() + body, hashlib.sha256).hexdigest()
    return {
        "X-Slack-Request-Timestamp": ts.encode(),
        "X-Slack-Signature": sig.encode(),
        "Content-Type": content_type,
        "Content-Length": str(len(body)).encode(),
    }
