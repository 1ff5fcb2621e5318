"""The compose file bounds the bot's and the worker's memory, and asks the bot's /healthz, which turns 503 before
that limit is reached; the image returns large freed bodies to the system."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from bot.http_guard import MAX_JIRA_BODY_BYTES
from bot.settings import Settings

pytestmark = pytest.mark.unit

ROOT = Path(__file__).resolve().parents[2]
MIB = 1024 * 1024
#: A `serve` process with Bolt, the listeners and Redis loaded, at rest (tests/e2e/test_hostile_load.py).
AT_REST = 80 * MIB


def services() -> dict[str, Any]:
    compose: dict[str, Any] = yaml.safe_load((ROOT / "docker-compose.yml").read_text(encoding="utf-8"))
    return dict(compose["services"])


def size(text: str) -> int:
    number, unit = re.fullmatch(r"(\d+)([kmg])", text.lower()).groups()  # type: ignore[union-attr]
    return int(number) * {"k": 1024, "m": MIB, "g": 1024 * MIB}[unit]


@pytest.mark.parametrize("name", ["bot", "worker"])
def test_memory_is_limited_without_swap(name: str) -> None:
    service = services()[name]
    assert size(service["mem_limit"]) == size(service["memswap_limit"])


def test_the_bots_limits_fit_well_under_its_memory_and_health_says_so_first() -> None:
    bot = services()["bot"]
    limit = size(bot["mem_limit"])
    defaults = Settings.model_fields
    budget = defaults["postmortem_http_body_budget_mb"].default * MIB
    unhealthy = limit * defaults["postmortem_memory_unhealthy_fraction"].default
    # Bodies in flight are held about twice (read, then parsed); a full budget at rest stays under "unhealthy".
    assert AT_REST + 2 * budget < unhealthy < limit
    assert budget >= MAX_JIRA_BODY_BYTES  # the largest body one route takes fits in the budget
    probe = " ".join(bot["healthcheck"]["test"])
    assert "/healthz" in probe and f":{bot['environment']['PORT']}/" in probe


def test_the_image_returns_large_freed_blocks_to_the_system() -> None:
    dockerfile = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    assert re.search(r"^ENV MALLOC_MMAP_THRESHOLD_=\d+$", dockerfile, re.MULTILINE)
