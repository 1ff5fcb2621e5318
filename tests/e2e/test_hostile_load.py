"""`serve` under hostile clients, on the real process: hundreds of slow connections and stalled bodies keep its
memory bounded and are closed by the read deadline, connections past the cap are refused at once, and a real
signed request is answered meanwhile (SECURITY.md, "Limits").

Limits are scaled down through settings (a 3 s read deadline, 400 connections, 16 MiB of bodies in flight);
memory is read from /proc/<pid>/status. Every wait polls a condition with a deadline; nothing sleeps.
"""

from __future__ import annotations

import os
import select
import socket
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import pytest
import requests

from bot.localstack import LocalStack
from tests.e2e.helpers import running_stack, wait_until

pytestmark = pytest.mark.e2e

READ_SECONDS = 3.0
MAX_CONNECTIONS = 400
BUDGET_MIB = 16
MIB = 1024 * 1024
#: Slow connections: headers that never end, and signed-looking bodies that stall just under the old 1 MiB cap.
LORIS = 250
STALLED = 100
STALLED_BYTES = 900 * 1024


@pytest.fixture(scope="module")
def stack() -> Iterator[LocalStack]:
    env = {
        "POSTMORTEM_HTTP_READ_SECONDS": str(READ_SECONDS),
        "POSTMORTEM_HTTP_MAX_CONNECTIONS": str(MAX_CONNECTIONS),
        "POSTMORTEM_HTTP_BODY_BUDGET_MB": str(BUDGET_MIB),
        "MALLOC_MMAP_THRESHOLD_": "131072",  # as the image sets it (Dockerfile)
    }
    with running_stack(env) as local:
        yield local


def status_of(pid: int, key: str) -> int:
    """A /proc/<pid>/status figure in bytes (VmRSS: resident memory now; VmHWM: its high-water mark)."""
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        for line in status:
            if line.startswith(f"{key}:"):
                return int(line.split()[1]) * 1024
    raise AssertionError(f"no {key} in /proc/{pid}/status")


def open_fds(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


@dataclass
class Slow:
    """One hostile connection: when it opened, what the server sent back, when the server closed it."""

    sock: socket.socket
    kind: str
    opened: float = field(default_factory=time.monotonic)
    answer: bytes = b""
    closed: float | None = None


def connect(port: int, kind: str, first_bytes: bytes) -> Slow:
    slow = Slow(socket.create_connection(("127.0.0.1", port), timeout=5), kind)
    try:
        slow.sock.sendall(first_bytes)
    except OSError:  # the server already answered and closed it (the budget was spent): that counts too
        pass
    return slow


def stalled_body(port: int) -> Slow:
    """Headers that pass every check before the body (a fresh timestamp, a well-formed signature), then most
    of the declared body, then nothing."""
    head = (
        "POST /slack/events HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        f"X-Slack-Request-Timestamp: {int(time.time())}\r\nX-Slack-Signature: v0={'0' * 64}\r\n"
        f"Content-Length: {STALLED_BYTES + 4096}\r\n\r\n"
    ).encode()
    return connect(port, "stalled", head + b"{" * STALLED_BYTES)


def until_all_closed(slows: list[Slow], timeout: float, also: Callable[[], None] = lambda: None) -> None:
    """Read every connection until the server closes it (or `timeout`); `also` runs on every round."""
    for slow in slows:
        slow.sock.setblocking(False)
    deadline = time.monotonic() + timeout
    while (live := [s for s in slows if s.closed is None]) and time.monotonic() < deadline:
        readable, _, _ = select.select([s.sock for s in live], [], [], 0.05)
        for slow in (s for s in live if s.sock in readable):
            try:
                chunk = slow.sock.recv(65536)
            except OSError:
                chunk = b""
            slow.answer += chunk
            if not chunk:
                slow.closed = time.monotonic()
        also()
    for slow in slows:
        slow.sock.close()


def signed_command(stack: LocalStack) -> int:
    return stack.driver().slash_command(text="help", channel_id="CLOAD").status_code


def test_slow_connections_keep_memory_bounded_are_closed_and_a_real_request_is_answered(stack: LocalStack) -> None:
    pid = stack.processes["serve"].popen.pid
    assert signed_command(stack) == 200  # everything a request touches is loaded before the baseline
    baseline, baseline_fds = status_of(pid, "VmRSS"), open_fds(pid)

    slows = [connect(stack.port, "loris", b"POST /slack/events HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")]
    try:
        slows += [connect(stack.port, "loris", b"POST /slack/events HTTP/1.1\r\n") for _ in range(LORIS - 1)]
        slows += [stalled_body(stack.port) for _ in range(STALLED)]
        wait_until(lambda: open_fds(pid) >= baseline_fds + LORIS, 5, "serve to hold the slow connections")

        started = time.monotonic()
        # Answered while they are all still open: the stalled bodies fill the budget, but not the share kept for
        # small bodies.
        assert signed_command(stack) == 200
        answered_within = time.monotonic() - started
        assert all(s.closed is None for s in slows if s.kind == "loris") and answered_within < READ_SECONDS

        peak = [status_of(pid, "VmRSS")]
        until_all_closed(slows, READ_SECONDS + 5, also=lambda: peak.append(status_of(pid, "VmRSS")))
    finally:  # never leave them to the next test, which counts the server's descriptors
        for slow in slows:
            slow.sock.close()
    wait_until(lambda: open_fds(pid) <= baseline_fds + 2, 5, "serve to let go of every connection")
    after = status_of(pid, "VmRSS")

    held = [s for s in slows if s.kind == "loris" or s.answer.startswith(b"HTTP/1.1 408")]
    assert all(s.closed is not None for s in slows), "a slow connection outlived the read deadline"
    assert all(s.answer.startswith(b"HTTP/1.1 408 ") for s in slows if s.kind == "loris")
    assert all(s.answer.startswith((b"HTTP/1.1 408 ", b"HTTP/1.1 503 ")) for s in slows if s.kind == "stalled")
    slowest = max((s.closed or 0) - s.opened for s in held)
    assert slowest <= READ_SECONDS + 1.5, f"closed {slowest:.2f} s after opening"
    # Without the budget every stalled body stays buffered: 100 x 900 kB, ~90 MB, and it stays after they go.
    growth = max(peak) - baseline
    assert growth <= (BUDGET_MIB + 24) * MIB, f"resident memory grew by {growth / MIB:.0f} MiB"
    # What the allocator keeps of freed bodies varies with how threads ran (6 MiB here alone, 19 MiB once in a
    # loaded CI run); without the fix the ~90 MB of stalled bodies all stay, far above this.
    assert after - baseline <= 2 * BUDGET_MIB * MIB, f"{(after - baseline) / MIB:.0f} MiB still held afterwards"
    print(
        f"\nslow connections: RSS {baseline / MIB:.1f} MiB before, {max(peak) / MIB:.1f} MiB at most, "
        f"{after / MIB:.1f} MiB after; {len(held)} held until the deadline, the slowest closed "
        f"{slowest:.2f} s after opening; a real command answered in {answered_within * 1000:.0f} ms"
    )


def test_connections_past_the_cap_are_refused_at_once_and_service_resumes(stack: LocalStack) -> None:
    pid = stack.processes["serve"].popen.pid
    baseline_fds = open_fds(pid)
    held = [connect(stack.port, "silent", b"") for _ in range(MAX_CONNECTIONS)]
    extra: list[Slow] = []
    try:
        wait_until(lambda: open_fds(pid) >= baseline_fds + MAX_CONNECTIONS, 5, "serve to hold the cap's connections")
        extra = [connect(stack.port, "extra", b"") for _ in range(20)]
        until_all_closed(extra, 2)
        assert all(s.closed is not None and s.answer.startswith(b"HTTP/1.1 503 ") for s in extra)
        assert max((s.closed or 0) - s.opened for s in extra) < 1.0

        answered: list[int] = []

        def real_request_answered() -> bool:
            try:
                answered.append(signed_command(stack))
            except requests.ConnectionError:  # refused while the cap is full
                return False
            return answered[-1] == 200

        wait_until(real_request_answered, READ_SECONDS + 5, "a real request to be answered once the deadline frees")
        until_all_closed(held, READ_SECONDS + 5)
        assert all(s.answer.startswith(b"HTTP/1.1 408 ") for s in held)
    finally:
        for slow in held + extra:
            slow.sock.close()
