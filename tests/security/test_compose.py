"""The compose file: Redis with a password from .env, its port never published, the bot's URLs carrying it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from bot.settings import load_settings

pytestmark = pytest.mark.unit

ROOT = Path(__file__).resolve().parents[2]


def services() -> dict[str, Any]:
    compose: dict[str, Any] = yaml.safe_load((ROOT / "docker-compose.yml").read_text(encoding="utf-8"))
    return dict(compose["services"])


def test_redis_requires_a_password_and_publishes_no_port() -> None:
    redis = services()["redis"]
    assert "ports" not in redis and "network_mode" not in redis
    assert "--requirepass" in " ".join(redis["command"]) and "REDIS_PASSWORD" in " ".join(redis["command"])
    assert redis["environment"]["REDIS_PASSWORD"].startswith("${REDIS_PASSWORD:?")  # no password, no start
    assert "REDISCLI_AUTH" in " ".join(redis["healthcheck"]["test"])


@pytest.mark.parametrize("name", ["bot", "worker"])
def test_the_bot_and_worker_connect_with_the_password(name: str) -> None:
    url = services()[name]["environment"]["REDIS_URL"]
    assert url.startswith("redis://:${REDIS_PASSWORD:?") and url.endswith("@redis:6379/0")


def test_the_redis_password_counts_as_a_secret() -> None:
    settings = load_settings(
        {
            "SLACK_BOT_TOKEN": "xoxb-t",
            "SLACK_SIGNING_SECRET": "s",
            "JIRA_URL": "https://x.example",
            "JIRA_EMAIL": "b@x.example",
            "JIRA_API_TOKEN": "t",
            "REDIS_URL": "redis://:hunter2hunter2@redis:6379/0",
        }
    )
    assert "hunter2hunter2" in settings.secrets
