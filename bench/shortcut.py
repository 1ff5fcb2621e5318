"""Message-shortcut benchmark: the time from a signed `message_action` to the modal's `views.open`, and to its
`views.update` with the prefilled fields (thread and Jira issue read by the worker), p50 and p99, on the local
stack (bot/localstack.py: our real `serve` and `worker` on the Slack and Jira emulators).

Run: `.venv/bin/python bench/shortcut.py [--runs N] [--replies N]` (Redis db 3 unless BENCH_REDIS_URL says
otherwise; the database is flushed). Not a test: it prints figures with their goals.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import redis  # noqa: E402

from bench.common import pct, verdict  # noqa: E402
from bot.localstack import LocalStack  # noqa: E402

REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/3")
#: Slack's trigger_id lives 3 s; the modal must be open well within it.
OPEN_GOAL_MS = 3000.0
#: "Within a few seconds" (DESIGN §4): the prefilled modal.
UPDATE_GOAL_MS = 3000.0


def seed(stack: LocalStack, n: int, replies: int) -> tuple[str, str, str]:
    """One debugging thread of `replies` replies and its issue; (channel, the chosen message's ts, key)."""
    key, chan = f"BENCH-{n + 1}", f"CB{n:05d}"
    stack.jira.add_issue(key, assignee_account_id="acc-bench")
    stack.jira.issue_reads.describe(key, [("p", "It hangs."), ("code", "E42 timeout\n  at evict()")])
    stack.jira.issue_reads.add_remote_link(key, f"https://github.com/acme/trainer/pull/{n + 1}")
    root = stack.slack.say_as("U2", chan, f"{key}: the trainer hangs after eviction")
    for i in range(replies):
        stack.slack.say_as("U3", chan, f"looked at shard {i}: https://grafana.example.com/d/{i}", thread_ts=root)
    chosen = stack.slack.say_as("U1", chan, "```\nRuntimeError: cache evicted\n```", thread_ts=root)
    return chan, chosen, key


def one_run(stack: LocalStack, n: int, replies: int) -> tuple[float, float]:
    """(ms to views.open, ms to the prefilled views.update) for one shortcut."""
    chan, chosen, key = seed(stack, n, replies)
    before = len(stack.slack.views)
    driver = stack.driver()
    began = time.perf_counter()
    assert driver.message_shortcut(chosen, channel_id=chan).status_code == 200
    stack.slack.wait_for(lambda s: len(s.views) > before, 10)
    opened = (time.perf_counter() - began) * 1000
    update = stack.slack.wait_for(lambda s: next((v for v in s.views[before:] if v["action"] == "update"), None), 20)
    updated = (time.perf_counter() - began) * 1000
    ticket = next(b for b in update["view"]["blocks"] if b.get("block_id") == "ticket")
    assert ticket["element"].get("initial_value") == key, "the modal was not prefilled"
    return opened, updated


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=100, help="shortcuts, one at a time")
    parser.add_argument("--replies", type=int, default=50, help="replies in each debugging thread")
    args = parser.parse_args()
    os.chdir(ROOT)  # LocalStack starts `python -m bot.cli` in the working directory
    redis.Redis.from_url(REDIS_URL).flushdb()
    stack = LocalStack(redis_url=REDIS_URL)
    try:
        stack.start()
        stack.jira.add_user("acc-bench", display_name="Bench Owner")
        stack.slack.add_user("U1", locale="en-US")
        one_run(stack, 10_000, args.replies)  # warm-up: imports, connections, the first users.info
        opens, updates = [], []
        for n in range(args.runs):
            opened, updated = one_run(stack, n, args.replies)
            opens.append(opened)
            updates.append(updated)
    finally:
        stack.stop()
    print(f"message shortcut on the emulators: {args.runs} runs, threads of {args.replies + 2} messages")
    print(
        f"  shortcut → views.open      p50 {pct(opens, 50):7.1f} ms  p99 {pct(opens, 99):7.1f} ms"
        f"  (goal p99 < {OPEN_GOAL_MS:.0f} ms) {verdict(pct(opens, 99) < OPEN_GOAL_MS)}"
    )
    print(
        f"  shortcut → prefilled modal p50 {pct(updates, 50):7.1f} ms  p99 {pct(updates, 99):7.1f} ms"
        f"  (goal p99 < {UPDATE_GOAL_MS:.0f} ms) {verdict(pct(updates, 99) < UPDATE_GOAL_MS)}"
    )


if __name__ == "__main__":
    main()
