"""One local stack (emulators, a real `serve` and a real `worker` on a real Redis) per test module."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.localstack import LocalStack
from tests.e2e.helpers import RedisServer, running_stack


@pytest.fixture(scope="module")
def stack() -> Iterator[LocalStack]:
    with running_stack() as local:
        yield local


@pytest.fixture
def dedicated_redis(tmp_path: Path) -> Iterator[RedisServer]:
    server = RedisServer(tmp_path)
    try:
        yield server
    finally:
        server.stop()
