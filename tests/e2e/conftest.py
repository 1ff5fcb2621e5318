"""One local stack (emulators, a real `serve` and a real `worker` on a real Redis) per test module."""

from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import redis

from bot.localstack import LocalStack, free_port

#: End-to-end runs use their own database, flushed before the stack starts.
E2E_REDIS_URL = os.environ.get("E2E_REDIS_URL", "redis://127.0.0.1:6379/14")


@pytest.fixture(scope="module")
def stack() -> Iterator[LocalStack]:
    redis.Redis.from_url(E2E_REDIS_URL).flushdb()
    local = LocalStack(redis_url=E2E_REDIS_URL)
    try:
        local.start()
        yield local
    finally:
        local.stop()


@pytest.fixture
def dedicated_redis(tmp_path: Path) -> Iterator[Callable[[], subprocess.Popen[bytes]]]:
    """A redis-server of the test's own, append-only (fsync always), restartable on the same port and files."""
    port = free_port()
    servers: list[subprocess.Popen[bytes]] = []

    def launch() -> subprocess.Popen[bytes]:
        server = subprocess.Popen(["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--appendonly", "yes",
                                   "--appendfsync", "always", "--save", "", "--dir", str(tmp_path)],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        servers.append(server)
        conn = redis.Redis(port=port, socket_connect_timeout=0.2)
        wait_until(lambda: _answers(conn), 10, "redis-server to answer")
        return server

    launch.port = port  # type: ignore[attr-defined]
    try:
        yield launch
    finally:
        for server in servers:
            if server.poll() is None:
                server.kill()
            server.wait(timeout=10)


def _answers(conn: redis.Redis) -> bool:
    try:
        return bool(conn.ping())
    except redis.RedisError:
        return False


def wait_until(condition: Callable[[], object], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)  # polling a condition with a deadline
