"""Recovery benchmark: a worker killed twice in a row mid-post, with the timings the bot ships with.

Run: `.venv/bin/python bench/recovery.py [--runs N]`. Not a test: it prints figures beside their goal (README:
work a dead worker held resumes within 5 s); tests/e2e/test_adversarial_edges.py checks the outcome without timing it.

One LocalStack (bot/localstack.py: Slack and Jira emulators here, a real `serve` and one real `worker`, Redis db
7 unless BENCH_REDIS_URL says otherwise), no setting changed. Each run drives a session to its approval, then:

1. Jira stores the comment but holds its answer; once the comment is stored the worker is SIGKILLed (with its
   process group) and started again, as a supervisor would.
2. The run that takes the post over is held in its search for the comment (Jira delays that answer); once it
   holds the post's lease, it is killed too, and the worker started again.
3. The next run finds the comment and puts the link in the thread.

Resumed: from a kill until a live run holds the post's lease (a token other than the dead run's), read from
Redis every 10 ms. Link: from the second kill until the link is in the thread. Both include the new worker's
start-up. Each run must end with one comment, one POST, and the link once in the thread.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import redis

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.common import pct, verdict  # noqa: E402
from bot.localstack import LocalStack  # noqa: E402
from sessions.claims import post_lock  # noqa: E402
from sessions.store import SessionStore  # noqa: E402
from tests.e2e.helpers import Conversation, comment_posts, example_fields  # noqa: E402

REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/7")
#: README: a dead worker's work resumes within this many seconds.
GOAL_SECONDS = 5.0
#: Long enough that only a kill ends a held answer.
HOLD_SECONDS = 120.0


def lease_holder(store: SessionStore, session_id: str) -> str | None:
    """The token of the run holding the post's lease now, if any."""
    return store.noted(post_lock(session_id, 1))


def wait_for(condition: object, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():  # type: ignore[operator]
        if time.monotonic() > deadline:
            raise TimeoutError(f"timed out waiting for {what}")
        time.sleep(0.01)  # polling what the processes did, with a deadline


def searches_held(stack: LocalStack, path: str) -> int:
    """How many held searches are still to come: the run that takes the post over asks once and is held."""
    with stack.jira._cond:  # the emulator's queue of injected faults (benchmark only: read, never changed)
        return len(stack.jira._injections.get(("GET", path), ()))


def kill_and_restart(stack: LocalStack) -> float:
    stack.processes.pop("worker").stop(kill=True)
    killed = time.monotonic()
    stack.start_process("worker", cmd="worker")  # not waited for: its start-up is part of the recovery
    return killed


def resumed_after(store: SessionStore, session_id: str, dead: str | None, killed: float) -> tuple[float, str]:
    """Seconds from the kill until a run other than the dead one holds the lease, and its token."""
    holder: list[str] = []

    def taken() -> bool:
        token = lease_holder(store, session_id)
        if token is not None and token != dead:
            holder.append(token)
            return True
        return False

    wait_for(taken, 60, "a live run to hold the post's lease")
    return time.monotonic() - killed, holder[0]


def one_run(stack: LocalStack, store: SessionStore, number: int) -> tuple[float, float, float]:
    chat = Conversation(stack, ticket=f"REC-{number}")
    chat.start(example_fields("cache-eviction.en", why_symptom="`evict_range` stops early.", how_found="bisect."))
    chat.wait_text("Reply `post it`", timeout=60)
    session = store.find_by_thread(chat.channel, chat.thread_ts)
    assert session is not None
    path = f"/rest/api/3/issue/{chat.ticket}/comment"
    stack.jira.inject("POST", path, timeout_after_store=True, stall=HOLD_SECONDS)
    chat.reply("yes")
    wait_for(lambda: stack.jira.comments(chat.ticket), 30, "the comment to be stored")
    first = lease_holder(store, session.id)
    stack.jira.inject("GET", path, delay=HOLD_SECONDS)  # the next run's search for the comment is held
    killed = kill_and_restart(stack)
    resume1, second = resumed_after(store, session.id, first, killed)
    wait_for(lambda: not searches_held(stack, path), 30, "the run to be held in its search")
    killed = kill_and_restart(stack)
    resume2, _ = resumed_after(store, session.id, second, killed)
    chat.wait_text(f"Posted to {chat.ticket}", timeout=60)
    link = time.monotonic() - killed
    stack.processes["worker"].wait_for_line("Listening on")
    stack.jira.release()
    assert len(stack.jira.comments(chat.ticket)) == 1, "exactly one comment"
    assert len(comment_posts(stack, chat.ticket)) == 1, "exactly one POST"
    assert sum(f"Posted to {chat.ticket}" in m["text"] for m in chat.thread()) == 1, "the link once"
    return resume1, resume2, link


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    redis.Redis.from_url(REDIS_URL).flushdb()
    stack = LocalStack(redis_url=REDIS_URL).start()
    store = SessionStore(redis.Redis.from_url(REDIS_URL))
    rows: list[tuple[float, float, float]] = []
    try:
        for number in range(1, args.runs + 1):
            row = one_run(stack, store, number)
            rows.append(row)
            print(
                f"run {number}: resumed {row[0]:.1f} s after the 1st kill, {row[1]:.1f} s after the 2nd; "
                f"link {row[2]:.1f} s after the 2nd"
            )
    finally:
        stack.stop()
    for label, values in (
        ("resumed after the 1st kill", [r[0] for r in rows]),
        ("resumed after the 2nd kill", [r[1] for r in rows]),
        ("link after the 2nd kill", [r[2] for r in rows]),
    ):
        worst = max(values)
        print(
            f"{label}: median {pct(values, 50):.1f} s, max {worst:.1f} s "
            f"(goal < {GOAL_SECONDS:.0f} s: {verdict(worst < GOAL_SECONDS)})"
        )


if __name__ == "__main__":
    main()
