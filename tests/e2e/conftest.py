"""One local stack (emulators, a real `serve` and a real `worker` on a real Redis) per test module."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
import redis

from bot.localstack import LocalStack

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
