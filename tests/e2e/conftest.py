"""One local stack (emulators, a real `serve` and a real `worker` on a real Redis) per test module."""

from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import redis

from bot.embedded_redis import answers
from bot.localstack import LocalStack, free_port

#: End-to-end runs use their own database, flushed before the stack starts.
E2E_REDIS_URL = os.environ.get("E2E_REDIS_URL", "redis://127.0.0.1:6379/14")


@contextmanager
def running_stack(extra_env: dict[str, str] | None = None) -> Iterator[LocalStack]:
    """A stack on the flushed e2e database with these settings, stopped on the way out."""
    redis.Redis.from_url(E2E_REDIS_URL).flushdb()
    local = LocalStack(redis_url=E2E_REDIS_URL, extra_env=extra_env or {})
    try:
        yield local.start()
    finally:
        local.stop()


@pytest.fixture(scope="module")
def stack() -> Iterator[LocalStack]:
    with running_stack() as local:
        yield local


@pytest.fixture
def dedicated_redis(tmp_path: Path) -> Iterator[Callable[[], subprocess.Popen[bytes]]]:
    """A redis-server of the test's own, append-only (fsync always), restartable on the same port and files."""
    port = free_port()
    servers: list[subprocess.Popen[bytes]] = []

    def launch() -> subprocess.Popen[bytes]:
        server = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(port),
                "--bind",
                "127.0.0.1",
                "--appendonly",
                "yes",
                "--appendfsync",
                "always",
                "--save",
                "",
                "--dir",
                str(tmp_path),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        servers.append(server)
        wait_until(lambda: answers(f"redis://127.0.0.1:{port}/0"), 10, "redis-server to answer")
        return server

    launch.port = port  # type: ignore[attr-defined]
    try:
        yield launch
    finally:
        for server in servers:
            if server.poll() is None:
                server.kill()
            server.wait(timeout=10)


def wait_until(condition: Callable[[], object], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)  # polling a condition with a deadline
