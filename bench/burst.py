"""Burst benchmark: 100 sessions submitted at once, then approved at once; one `serve`, two workers.

Run: `.venv/bin/python bench/burst.py [--sessions 100] [--concurrency 50]` (Redis: BENCH_REDIS_URL, flushed).
Not a test: it prints figures beside their goals, and a baseline.

- Correctness: every ticket gets exactly one comment, byte for byte the request body shown in its thread.
- Submit → approval question: t0 just before the modal submission is sent, t1 when the Slack emulator receives
  the `chat.postMessage` of the question (wall clock of this process, which hosts the emulators).
- Approval → Jira POST: t0 just before the approval event is sent, t1 when the Jira emulator receives the POST.
- One session alone first (the single-session goals: the median of 5, after a warm-up), then the burst.
- Cost: CPU milliseconds per session of `serve` and of the workers (each process group, children included),
  beside the floor: a bare RQ job, on two plain RQ workers, making the same HTTP calls to the emulators as the
  real jobs made per session (counted from the emulators' logs).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import redis
import requests

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.common import cpu_seconds, pct  # noqa: E402
from bench.flow_approval import fields  # noqa: E402
from bot.localstack import BOT_TOKEN, JIRA_EMAIL, JIRA_TOKEN, LocalStack, Process  # noqa: E402
from emulators.driver import SlackDriver, modal_values  # noqa: E402

REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/7")
QUESTION = "Reply `post it`"
#: Sessions run one at a time (after a warm-up) for the single-session figures; their median is shown.
SINGLES = 5
GOALS = {"submit_p99": 2000.0, "approve_p99": 2000.0, "submit_one": 150.0, "approve_one": 20.0}


class Timings:
    """Arrival times of the questions (per channel) and of the comment POSTs (per ticket), as the emulators see them."""

    def __init__(self, stack: LocalStack) -> None:
        self.questions: dict[str, float] = {}
        self.posts: dict[str, float] = {}
        slack_answer, jira_handle = stack.slack._answer, stack.jira.handle

        def slack(method: str, params: dict[str, Any], request: Any) -> Any:
            if method == "chat.postMessage" and QUESTION in str(params.get("text")):
                self.questions.setdefault(str(params.get("channel")), time.time())
            return slack_answer(method, params, request)

        def jira(request: Any) -> Any:
            if request.method == "POST" and request.path.endswith("/comment"):
                self.posts.setdefault(request.path.split("/")[-2], time.time())
            return jira_handle(request)

        stack.slack._answer = slack  # type: ignore[method-assign]
        stack.jira.handle = jira  # type: ignore[method-assign]


def group_cpu(process: Process) -> float:
    """CPU seconds of a child and everything in its process group (RQ's scheduler is a fork)."""
    total = 0.0
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                if int(stat[2]) == process.popen.pid:
                    total += cpu_seconds(int(entry.name))
            except (OSError, ValueError, IndexError):
                continue
    return total


def submit(driver: SlackDriver, stack: LocalStack, i: int, values: dict[str, Any]) -> tuple[str, str, float]:
    channel, ticket = f"CB{i:04d}", f"BURST-{i + 1}"
    stack.jira.add_issue(ticket)
    meta = json.dumps({"channel": channel, "lang": "en"})
    t0 = time.time()
    response = driver.view_submission(
        values=modal_values({**values, "ticket": ticket}), user_id="U1", private_metadata=meta
    )
    assert response.status_code == 200 and not response.content, response.text
    return channel, ticket, t0


def approve(driver: SlackDriver, stack: LocalStack, channel: str) -> float:
    parent = next(m for m in stack.slack.messages(channel=channel) if not m.get("thread_ts"))
    t0 = time.time()
    assert driver.message("yes", user="U1", channel=channel, thread_ts=parent["ts"]).status_code == 200
    return t0


def wait(condition: Any, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise SystemExit("timed out: the burst did not finish")
        time.sleep(0.02)  # polling the emulators' records with a deadline


def run_burst(stack: LocalStack, timings: Timings, first: int, n: int, concurrency: int) -> dict[str, Any]:
    driver, values = stack.driver(), fields()
    with ThreadPoolExecutor(concurrency) as pool:
        sent = list(pool.map(lambda i: submit(driver, stack, i, values), range(first, first + n)))
    wait(lambda: all(c in timings.questions for c, _, _ in sent), 300)
    submit_ms = [(timings.questions[c] - t0) * 1000 for c, _, t0 in sent]
    with ThreadPoolExecutor(concurrency) as pool:
        approved = list(pool.map(lambda s: approve(driver, stack, s[0]), sent))
    wait(lambda: all(stack.jira.comments(t) for _, t, _ in sent), 300)
    approve_ms = [(timings.posts[t] - t0) * 1000 for (_, t, _), t0 in zip(sent, approved, strict=True)]
    wrong = [
        t
        for c, t, _ in sent
        if len(stack.jira.comments(t)) != 1
        or stack.jira.comments(t)[0].raw != stack.slack.files(channel=c)[-1]["bytes"]
    ]
    return {"submit": submit_ms, "approve": approve_ms, "wrong": wrong, "tickets": [t for _, t, _ in sent]}


def baseline(stack: LocalStack, calls: dict[str, float], n: int) -> float:
    """CPU ms per session of two bare RQ workers running a job that makes the same HTTP calls."""
    conn = redis.Redis.from_url(REDIS_URL)
    from rq import Queue

    queue = Queue("bench-baseline", connection=conn)
    for i in range(n):
        queue.enqueue("bench.burst.bare_job", stack.slack.base_url, stack.jira.base_url, f"BURST-{i + 1}", calls)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    workers = [
        subprocess.Popen(
            [
                sys.executable,
                "-c",
                "import sys; sys.path.insert(0, '.'); from rq import "
                "SimpleWorker, Queue; import redis; c = redis.Redis.from_url(sys.argv[1]); "
                "SimpleWorker([Queue('bench-baseline', connection=c)], connection=c).work(burst=True)",
                REDIS_URL,
            ],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for _ in range(2)
    ]
    total = 0.0
    for worker in workers:
        _, _, usage = os.wait4(worker.pid, 0)  # the child's own CPU time, exactly, once it exits
        worker.returncode = 0
        total += usage.ru_utime + usage.ru_stime
    return total * 1000 / n


def bare_job(slack_url: str, jira_url: str, ticket: str, calls: dict[str, float]) -> None:
    """The floor: the HTTP calls of one session's jobs, with nothing of the product around them."""
    with requests.Session() as http:
        http.headers["Authorization"] = f"Bearer {BOT_TOKEN}"
        for _ in range(round(calls["slack"])):
            http.post(f"{slack_url}chat.postMessage", json={"channel": "CBASE", "text": "x"}, timeout=10)
        http.headers.pop("Authorization")
        for _ in range(round(calls["jira"])):
            http.get(f"{jira_url}/rest/api/3/issue/{ticket}", auth=(JIRA_EMAIL, JIRA_TOKEN), timeout=10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sessions", type=int, default=100)
    parser.add_argument("--concurrency", type=int, default=50)
    args = parser.parse_args()
    redis.Redis.from_url(REDIS_URL).flushdb()
    stack = LocalStack(redis_url=REDIS_URL, extra_env={"POSTMORTEM_OFFERS": "off"})
    timings = Timings(stack)
    try:
        stack.start()
        stack.start_worker("worker-b")
        run_burst(stack, timings, 0, 1, 1)  # warm-up: first imports, the ADF schema, connections
        singles = [run_burst(stack, timings, 1 + k, 1, 1) for k in range(SINGLES)]
        one = {key: [pct([r[key][0] for r in singles], 50)] for key in ("submit", "approve")}
        slack_before, jira_before = len(stack.slack.calls), len(stack.jira.dump().splitlines())
        cpu_before = {name: group_cpu(p) for name, p in stack.processes.items()}
        burst = run_burst(stack, timings, 1 + SINGLES, args.sessions, args.concurrency)
        cpu = {name: (group_cpu(p) - cpu_before[name]) * 1000 / args.sessions for name, p in stack.processes.items()}
        calls = {
            "slack": (len(stack.slack.calls) - slack_before) / args.sessions,
            "jira": (len(stack.jira.dump().splitlines()) - jira_before) / args.sessions,
        }
        floor = baseline(stack, calls, args.sessions)
    finally:
        stack.stop()
    report(args.sessions, one, burst, cpu, calls, floor)


def report(
    n: int, one: dict[str, Any], burst: dict[str, Any], cpu: dict[str, float], calls: dict[str, float], floor: float
) -> None:
    def line(label: str, value: float, goal: float) -> str:
        return f"  {label:<44} {value:8.1f} ms   goal ≤ {goal:g} ms   {'PASS' if value <= goal else 'MISS'}"

    print(f"burst: {n} sessions submitted at once, then approved at once; 1 serve, 2 workers, emulators")
    print(
        f"  correctness: {n - len(burst['wrong'])}/{n} tickets with exactly one comment, bytes = body shown"
        + (f"  WRONG: {burst['wrong']}" if burst["wrong"] else "  PASS")
    )
    print(line("one session (median of 5): submit -> question", one["submit"][0], GOALS["submit_one"]))
    print(line("one session (median of 5): approval -> POST", one["approve"][0], GOALS["approve_one"]))
    print(f"  burst submit -> question:  p50 {pct(burst['submit'], 50):7.1f}  max {max(burst['submit']):7.1f} ms")
    print(line("burst: p99 submit -> approval question", pct(burst["submit"], 99), GOALS["submit_p99"]))
    print(f"  burst approval -> POST:    p50 {pct(burst['approve'], 50):7.1f}  max {max(burst['approve']):7.1f} ms")
    print(line("burst: p99 approval -> Jira POST", pct(burst["approve"], 99), GOALS["approve_p99"]))
    workers = sum(v for k, v in cpu.items() if k.startswith("worker"))
    print(
        f"  CPU per session: serve {cpu['serve']:.1f} ms, workers {workers:.1f} ms "
        f"({calls['slack']:.1f} Slack + {calls['jira']:.1f} Jira calls a session)"
    )
    print(f"  baseline (bare RQ job, same HTTP calls, 2 workers): {floor:.1f} ms per session")


if __name__ == "__main__":
    main()
