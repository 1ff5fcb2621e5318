"""A worker process asked to stop (SIGTERM, as `docker stop` and systemd send; SIGINT) exits 0, with its scheduler.

Where the signal lands inside the worker is pinned down in tests/bot/test_worker_stop.py; this runs the real process."""

from __future__ import annotations

import os
import signal
import subprocess
from pathlib import Path

import pytest
import redis

from bot.localstack import LocalStack
from tests.e2e.helpers import E2E_REDIS_URL, RedisServer

pytestmark = pytest.mark.e2e


def children(pid: int) -> list[int]:
    """Processes whose parent is `pid` (RQ's scheduler is a forked child of the worker)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(stat[1]) == pid:
                found.append(int(entry.name))
    return found


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_an_idle_worker_stops_with_its_scheduler(signum: int) -> None:
    redis.Redis.from_url(E2E_REDIS_URL).flushdb()  # no scheduler lock left by an earlier module's killed worker
    stack = LocalStack(redis_url=E2E_REDIS_URL)
    stack.slack.start()
    stack.jira.start()
    try:
        worker = stack.start_worker("worker")
        worker.wait_for_line("Scheduler for")  # the scheduler runs (a forked child) before the signal
        scheduler = children(worker.popen.pid)
        assert scheduler, "the scheduler runs as a child of the worker"
        os.kill(worker.popen.pid, signum)
        try:
            code = worker.popen.wait(timeout=20)
        except subprocess.TimeoutExpired:
            pytest.fail("the worker did not stop within 20 s of the signal:\n" + "\n".join(worker.lines[-20:]))
        assert code == 0, "\n".join(worker.lines[-20:])
        assert all(not Path(f"/proc/{pid}").exists() or _zombie(pid) for pid in scheduler)
    finally:
        stack.stop()


def test_a_worker_waiting_for_a_redis_that_went_away_stops_on_sigterm(
    dedicated_redis: RedisServer,
) -> None:
    """Redis is gone: RQ's loop retries its heartbeat and never reaches a wait for jobs; SIGTERM still stops it."""
    server = dedicated_redis()
    stack = LocalStack(redis_url=f"redis://127.0.0.1:{dedicated_redis.port}/0")
    stack.slack.start()
    stack.jira.start()
    try:
        worker = stack.start_worker("worker")
        server.kill()
        server.wait(timeout=10)
        worker.wait_for_line("Redis", timeout=30)  # it noticed (RQ's retry, or the restart loop)
        os.kill(worker.popen.pid, signal.SIGTERM)
        try:
            code = worker.popen.wait(timeout=30)
        except subprocess.TimeoutExpired:
            pytest.fail("the worker did not stop within 30 s of SIGTERM:\n" + "\n".join(worker.lines[-20:]))
        assert code == 0, "\n".join(worker.lines[-20:])
    finally:
        stack.stop()


def _zombie(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True
