"""Redis write access is not code execution: the worker runs only the bot's own job functions."""

from __future__ import annotations

from pathlib import Path

import pytest
import redis
from rq import Callback
from rq.job import JobStatus
from rq.utils import import_attribute

from bot.app import job_queue
from bot.settings import load_settings
from bot.worker import work
from tests.helpers import TEST_REDIS_URL
from workers.allowed import ALLOWED_JOBS

pytestmark = pytest.mark.unit

ENV = {
    "SLACK_BOT_TOKEN": "xoxb-test",
    "SLACK_SIGNING_SECRET": "s3cret",
    "JIRA_URL": "https://example.atlassian.net",
    "JIRA_EMAIL": "bot@example.com",
    "JIRA_API_TOKEN": "jira-t0ken",
    "REDIS_URL": TEST_REDIS_URL,
    "POSTMORTEM_WATCHDOG_SECONDS": "600",
}


def test_a_job_naming_os_system_is_refused_and_nothing_runs(redis_conn: redis.Redis, tmp_path: Path) -> None:
    marker = tmp_path / "owned"
    queue = job_queue(redis_conn)
    job = queue.enqueue("os.system", f"touch {marker}")
    callback = queue.enqueue("workers.jobs.advance", "no-such-session", on_success=Callback(f"{__name__}.touch_marker"))
    work(load_settings(ENV), burst=True)
    assert not marker.exists()
    assert job.get_status(refresh=True) == JobStatus.FAILED
    result = job.latest_result()
    assert result is not None and "not an allowed job function" in (result.exc_string or "")
    assert callback.get_status(refresh=True) == JobStatus.FINISHED  # ran; its (raising) callback did not


def touch_marker(*_: object) -> None:
    raise AssertionError("a callback named in Redis must never run")


def test_every_allowed_job_is_a_function_of_the_workers_package() -> None:
    for name in ALLOWED_JOBS:
        assert name.startswith(("workers.jobs.", "workers.offers.")) and callable(import_attribute(name))
