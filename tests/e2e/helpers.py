"""What the end-to-end modules share: the stack on the e2e database, a restartable Redis of a test's own, one
person's conversation in a fresh channel, the slash command, signed Jira webhooks, and waits."""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import subprocess
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from itertools import count
from pathlib import Path
from typing import Any

import redis
import requests

from bot.embedded_redis import answers
from bot.localstack import LocalStack, free_port, jira_emulator
from emulators.driver import modal_values
from postmortem.model import load_postmortem
from renderers.offers import ACTION_START
from tests.helpers import EXAMPLES

#: End-to-end runs use their own database, flushed before the stack starts.
E2E_REDIS_URL = os.environ.get("E2E_REDIS_URL", "redis://127.0.0.1:6379/14")
#: The Jira webhook secret of the stacks that take webhooks.
SECRET = "e2e-jira-webhook-secret"

_channels = count(1)
_issues = count(100)
_ids = count(1)


@contextmanager
def running_stack(extra_env: dict[str, str] | None = None, *, deployment: str = "cloud") -> Iterator[LocalStack]:
    """A stack on the flushed e2e database with these settings and this Jira (cloud, datacenter), stopped on the way
    out."""
    redis.Redis.from_url(E2E_REDIS_URL).flushdb()
    local = LocalStack(redis_url=E2E_REDIS_URL, extra_env=extra_env or {}, jira=jira_emulator(deployment))
    try:
        yield local.start()
    finally:
        local.stop()


def wait_until(condition: Callable[[], object], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)  # polling a condition with a deadline


class RedisServer:
    """A redis-server of a test's own, append-only (fsync always); each call starts it again on the same port
    and files."""

    def __init__(self, directory: Path) -> None:
        self.port = free_port()
        self.directory = directory
        self.servers: list[subprocess.Popen[bytes]] = []

    def __call__(self) -> subprocess.Popen[bytes]:
        server = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--appendonly",
                "yes",
                "--appendfsync",
                "always",
                "--save",
                "",
                "--dir",
                str(self.directory),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        self.servers.append(server)
        wait_until(lambda: answers(f"redis://127.0.0.1:{self.port}/0"), 10, "redis-server to answer")
        return server

    def stop(self) -> None:
        for server in self.servers:
            if server.poll() is None:
                server.kill()
            server.wait(timeout=10)


def example_fields(stem: str, **overrides: Any) -> dict[str, Any]:
    """An example's inputs as the modal takes them (action items one a line: `what | owner | tracking`)."""
    pm = load_postmortem(EXAMPLES / f"{stem}.yaml")
    data = pm.model_dump(exclude_defaults=True, mode="json")
    items = data.pop("action_items", [])
    if items:
        data["action_items"] = "\n".join(
            " | ".join(i.get(k) or "" for k in ("what", "owner", "tracking")) for i in items
        )
    if data.pop("action_items_none", False):
        data["action_items"] = "none"
    data.update(overrides)
    return {k: v for k, v in data.items() if v is not None}


class Conversation:
    """One person's session in a fresh channel, with waits on what the emulators saw."""

    def __init__(self, stack: LocalStack, *, user: str = "U1", ticket: str = "PROJ-1") -> None:
        self.stack, self.user, self.ticket = stack, user, ticket
        self.channel = f"C{next(_channels):04d}"
        self.driver = stack.driver()
        self.jira_key = ticket
        self.thread_ts = ""

    def start(self, fields: dict[str, Any], *, in_jira: bool = True) -> None:
        if in_jira:
            self.stack.jira.add_issue(self.ticket)
        sent = self.driver.slash_command(text=self.ticket, user_id=self.user, channel_id=self.channel)
        assert sent.status_code == 200
        view = self.stack.slack.wait_for(
            lambda s: next((v["view"] for v in s.views if self.channel in v["view"]["private_metadata"]), None)
        )
        response = self.driver.view_submission(
            values=modal_values({**fields, "ticket": self.ticket}), user_id=self.user, view_id=view["id"]
        )
        assert response.status_code == 200, response.text
        assert not response.content or json.loads(response.content).get("response_action") != "errors", response.text
        parent = self.stack.slack.wait_for(
            lambda s: next((m for m in s.messages(channel=self.channel) if not m.get("thread_ts")), None)
        )
        self.thread_ts = parent["ts"]

    def thread(self) -> list[dict[str, Any]]:
        return self.stack.slack.messages(channel=self.channel, thread_ts=self.thread_ts)

    def wait_text(self, needle: str, *, after: int = 0, timeout: float = 20) -> dict[str, Any]:
        try:
            return self.stack.slack.wait_for(
                lambda s: next((m for m in self.thread()[after:] if needle in m["text"]), None), timeout=timeout
            )
        except TimeoutError as exc:
            thread = "\n".join(m["text"][:300] for m in self.thread())
            raise AssertionError(
                f"{needle!r} not in the thread:\n{thread}\n--- logs ---\n{self.stack.logs()[-6000:]}"
            ) from exc

    def reply(self, text: str, *, user: str | None = None, **kwargs: Any) -> None:
        response = self.driver.message(
            text, user=user or self.user, channel=self.channel, thread_ts=self.thread_ts, **kwargs
        )
        assert response.status_code == 200, response.text

    def click(self, action_id: str, *, user: str | None = None, message: dict[str, Any] | None = None) -> None:
        message = message or self.with_button(action_id)
        response = self.driver.block_action(
            action_id,
            button_value_in(message, action_id),
            user_id=user or self.user,
            channel_id=self.channel,
            message_ts=message["ts"],
            thread_ts=self.thread_ts,
        )
        assert response.status_code == 200, response.text

    def with_button(self, action_id: str) -> dict[str, Any]:
        return self.stack.slack.wait_for(
            lambda s: next((m for m in reversed(self.thread()) if button_value_in(m, action_id)), None), timeout=20
        )

    def files(self) -> list[dict[str, Any]]:
        return self.stack.slack.files(channel=self.channel)


def button_value_in(message: dict[str, Any], action_id: str) -> str:
    """The value of the button `action_id` in a message; "" when the message has none."""
    for block in message.get("blocks") or []:
        for element in block.get("elements", []):
            if element.get("action_id") == action_id:
                return str(element["value"])
    return ""


def new_ticket(prefix: str = "PROJ") -> str:
    """A Jira key no other test of the run used."""
    return f"{prefix}-{next(_issues)}"


def comment_posts(stack: LocalStack, ticket: str) -> list[int]:
    return [p.status for p in stack.jira.posts if p.path == stack.comment_path(ticket)]


def posted_once(stack: LocalStack, chat: Conversation, *, within: float = 20) -> None:
    chat.wait_text(f"Posted to {chat.ticket}", timeout=within)
    comments = stack.jira.comments(chat.ticket)
    assert len(comments) == 1
    assert comments[0].raw == chat.files()[-1]["bytes"]


def command(stack: LocalStack, text: str, user: str) -> dict[str, Any]:
    """Run `/post-mortem <text>`; the ephemeral answer POSTed to its response_url."""
    before, views = len(stack.slack.responses), len(stack.slack.views)
    assert stack.driver().slash_command(text=text, user_id=user, channel_id="CHOME").status_code == 200
    answer: dict[str, Any] = stack.slack.wait_for(
        lambda s: s.responses[before]["payload"] if len(s.responses) > before else None, timeout=15
    )
    assert len(stack.slack.views) == views, "help and list open nothing"
    return answer


def unique(prefix: str = "WAY") -> str:
    """A Jira key no other test of the run used (the ways in' own series)."""
    return f"{prefix}-{next(_ids) + 100}"


def channel() -> str:
    """A channel no other test of the run wrote to."""
    return f"CW{next(_ids):04d}"


def start_value(message: dict[str, Any]) -> dict[str, Any] | None:
    for block in message.get("blocks") or []:
        for element in block.get("elements", []):
            if element.get("action_id") == ACTION_START:
                value: dict[str, Any] = json.loads(element["value"])
                return value
    return None


def webhook(
    stack: LocalStack, payload: Any, *, delivery: str | None = None, secret: str = SECRET, raw: bytes | None = None
) -> requests.Response:
    """POST a Jira webhook to the stack, signed with `secret` as Jira signs it."""
    body = raw if raw is not None else json.dumps(payload).encode()
    signature = "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
    headers = {
        "Content-Type": "application/json",
        "X-Hub-Signature": signature,
        "X-Atlassian-Webhook-Identifier": delivery or f"delivery-{next(_ids)}",
    }
    return requests.post(f"{stack.bot_url}/jira/webhook", data=body, headers=headers, timeout=10)
