"""The `world` the jobs run in: fakes for Slack, Jira and the queues on the test database."""

from __future__ import annotations

import pytest
import redis

from tests.workers.helpers import World, install_world
from workers import context


@pytest.fixture
def world(redis_conn: redis.Redis, monkeypatch: pytest.MonkeyPatch) -> World:
    monkeypatch.setattr(context, "_installed", [])  # restored after the test
    return install_world(redis_conn)
