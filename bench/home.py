"""Home-tab benchmark: views.publish calls for a burst of one person's session changes, coalesced (ours) beside
publishing on every change (the baseline), and the time to build and publish one full Home view, in one run.

Run: `.venv/bin/python bench/home.py [--seconds S] [--every MS]` (Redis db 7 unless BENCH_REDIS_URL says
otherwise; the database is flushed). Not a test: it prints figures with their goals.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import redis  # noqa: E402

from emulators.slack_api import SlackEmulator  # noqa: E402
from sessions.session import Session, State  # noqa: E402
from sessions.store import SessionStore  # noqa: E402
from sessions.user_index import HOME_COALESCE_SECONDS  # noqa: E402
from workers.home import HomePublisher  # noqa: E402
from workers.slack_gateway import slack_client  # noqa: E402

REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/7")


def burst(
    store: SessionStore, publisher: HomePublisher, slack: SlackEmulator, *, seconds: float, every: float, coalesce: bool
) -> tuple[int, int]:
    """One person changes sessions every `every` s for `seconds` s; returns (state changes, publishes)."""
    before = len(slack.calls_to("views.publish"))
    changes, deadline = 0, time.monotonic() + seconds
    while time.monotonic() < deadline:
        session = store.create(Session(ticket=f"BENCH-{changes + 1}", requester="U1", channel="C1", thread_ts="1.1"))
        store.transition(session.id, {State.collecting}, State.cancelled)
        changes += 2
        if coalesce:
            publisher.run_due()
        else:
            publisher.publish("U1")
        time.sleep(every)  # the pace of the person's changes, not a wait for a result
    if coalesce:  # the trailing publish that shows the last change
        end = time.monotonic() + HOME_COALESCE_SECONDS + 1
        while time.monotonic() < end and not publisher.run_due():  # the worker's own path: due, may publish
            time.sleep(0.05)  # polling the publisher's clock, as the worker's loop does
    return changes, len(slack.calls_to("views.publish")) - before


def publish_ms(store: SessionStore, publisher: HomePublisher, runs: int) -> float:
    """Median ms to read 20+ sessions, render and views.publish one Home view (permalinks cached)."""
    for i in range(25):
        store.create(Session(ticket=f"OPEN-{i + 1}", requester="U2", channel="C1", thread_ts=f"2.{i}"))
    publisher.publish("U2")
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        publisher.publish("U2")
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--every", type=float, default=50.0, help="milliseconds between two sessions")
    args = parser.parse_args()
    conn = redis.Redis.from_url(REDIS_URL)
    conn.flushdb()
    with SlackEmulator(bot_token="xoxb-bench") as slack:
        store = SessionStore(conn)
        publisher = HomePublisher(store, slack_client("xoxb-bench", slack.base_url))
        changes, ours = burst(store, publisher, slack, seconds=args.seconds, every=args.every / 1000, coalesce=True)
        conn.flushdb()
        base_changes, baseline = burst(
            store, publisher, slack, seconds=args.seconds, every=args.every / 1000, coalesce=False
        )
        median = publish_ms(store, publisher, 50)
    conn.flushdb()
    print(f"burst of {args.seconds:g} s, one session every {args.every:g} ms:")
    print(
        f"  coalesced (ours): {changes} state changes -> {ours} views.publish "
        f"(goal: <= {args.seconds / HOME_COALESCE_SECONDS + 2:.0f})"
    )
    print(f"  every change (baseline): {base_changes} state changes -> {baseline} views.publish")
    print(f"one Home view of 20 rows, read + render + views.publish, median: {median:.1f} ms")


if __name__ == "__main__":
    main()
