"""Bad input from outside, against a real `serve`: an unsigned 30 MB body costs neither memory, time nor log."""

from __future__ import annotations

import json
import select
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlencode

import pytest
import redis
import requests

from bot.localstack import LocalStack
from sessions.store import SessionStore
from tests.e2e.helpers import Conversation, example_fields, running_stack

pytestmark = pytest.mark.e2e

BIG = 30 * 1024 * 1024
CHUNK = 64 * 1024
APPROVER = "UNOJIRA"


@pytest.fixture(scope="module")
def stack() -> Iterator[LocalStack]:
    """This module's one stack (two would share a queue): the Jira permission check on, and one approver."""
    with running_stack({"POSTMORTEM_JIRA_PERMISSION_CHECK": "on", "POSTMORTEM_APPROVERS": APPROVER}) as local:
        yield local


def peak_memory_kib(pid: int) -> int:
    """VmHWM: the process's resident-memory high-water mark."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    raise AssertionError("no VmHWM in /proc status")


def log_bytes(stack: LocalStack) -> int:
    return sum(len(line) + 1 for line in stack.processes["serve"].lines)


def send_big(stack: LocalStack, *, chunked: bool) -> tuple[bytes, float]:
    """Stream 30 MB of unsigned JSON-ish bytes at /slack/events; stop sending once the server answers."""
    framing = b"Transfer-Encoding: chunked\r\n" if chunked else f"Content-Length: {BIG}\r\n".encode()
    head = (
        b"POST /slack/events HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"X-Slack-Request-Timestamp: 1\r\nX-Slack-Signature: v0=00\r\n" + framing + b"\r\n"
    )
    piece = b"A" * CHUNK
    if chunked:
        piece = f"{CHUNK:x}\r\n".encode() + piece + b"\r\n"
    started = time.monotonic()
    with socket.create_connection(("127.0.0.1", stack.port), timeout=10) as sock:
        sock.sendall(head)
        sent = 0
        while sent < BIG:
            readable, _, _ = select.select([sock], [], [], 0)
            if readable:
                break
            try:
                sock.sendall(piece)
            except (BrokenPipeError, ConnectionResetError):
                break
            sent += CHUNK
        answer = sock.recv(4096)
    return answer, time.monotonic() - started


@pytest.mark.parametrize("chunked", [False, True])
def test_an_unsigned_30mb_body_is_refused_fast_and_cheaply(stack: LocalStack, chunked: bool) -> None:
    pid = stack.processes["serve"].popen.pid
    memory, logged = peak_memory_kib(pid), log_bytes(stack)
    answer, took = send_big(stack, chunked=chunked)
    status = int(answer.split(b" ", 2)[1])
    assert 400 <= status < 500, answer[:200]
    assert took < 1.0, f"answered after {took:.2f} s"
    assert peak_memory_kib(pid) - memory < 5 * 1024, "serve's peak memory grew by more than 5 MiB"
    assert log_bytes(stack) - logged < 64 * 1024, "serve's log grew by more than 64 kB"
    assert "AAAAAAAA" not in "\n".join(stack.processes["serve"].lines)


# who may publish: the Jira permission check, on -------------------------------------------------------


def test_a_slack_user_without_a_jira_account_is_refused_at_approval(stack: LocalStack) -> None:
    checked = stack
    checked.slack.add_user("U1", email="requester@example.com")
    checked.slack.add_user(APPROVER, email="no-jira@example.com")
    chat = Conversation(checked, ticket="SEC-1")
    checked.jira.add_issue(chat.ticket)
    checked.jira.grant("acc-requester", chat.ticket, email="requester@example.com")  # may start it
    chat.start(
        example_fields("cache-eviction.en", why_symptom="`evict_range` stops early.", how_found="`git bisect`."),
        in_jira=False,
    )
    chat.wait_text("Reply `post it`")
    chat.reply("post it", user=APPROVER)
    refused = chat.wait_text("Nothing was posted")
    assert f"<@{APPROVER}>" in refused["text"] and chat.ticket in refused["text"]
    assert checked.jira.comments(chat.ticket) == []
    assert not [p for p in checked.jira.posts if p.path.endswith(f"/{chat.ticket}/comment")]


def test_a_replayed_modal_submission_makes_one_session(stack: LocalStack) -> None:
    stack.slack.add_user("U1", email="requester@example.com")
    chat = Conversation(stack, ticket="SEC-2")
    stack.jira.add_issue(chat.ticket)
    stack.jira.grant("acc-requester", chat.ticket, email="requester@example.com")
    conn = redis.Redis.from_url(stack.redis_url)
    before = sum(1 for _ in conn.scan_iter("pm:session:*"))
    chat.start(example_fields("cache-eviction.en"), in_jira=False)  # the submission, through the driver
    assert sum(1 for _ in conn.scan_iter("pm:session:*")) == before + 1
    captured = urlencode({"payload": json.dumps(chat.driver.last_payload)}).encode()  # its very bytes
    headers = {"Content-Type": "application/x-www-form-urlencoded", **chat.driver.sign(captured)}
    for _ in range(3):  # replayed, inside Slack's five minutes
        assert requests.post(chat.driver.events_url, data=captured, headers=headers, timeout=10).status_code == 200
    assert sum(1 for _ in conn.scan_iter("pm:session:*")) == before + 1
    assert SessionStore(conn).find_by_ticket(chat.ticket) is not None
