"""Flow benchmark: `/post-mortem` ack latency beside a bare Bolt app, and approval -> Jira POST, in one run.

Run: `.venv/bin/python bench/flow.py [--requests N] [--sessions K]`. Not a test: it prints figures with their goals.

Stacks, all started here: our real `serve` and `worker` on LocalStack (bot/localstack.py: Slack and Jira emulators
in this process, Redis db 7 unless BENCH_REDIS_URL says otherwise), and bench/bare_app.py (AsyncApp, async
Starlette adapter, uvicorn; one listener that only acks, Bolt's default process_before_response=False; see
docs/platform-notes.md) on another port. A bare app with process_before_response=True is measured too, for info: it
is the floor our listener (which runs with True) can reach. With two CPUs or more the three servers are pinned to
CPU 1 and everything else (emulators, load generator, worker) to CPU 0, so the emulated Slack API's work does not
land on the servers' CPU as it would not in production (`--no-pin` to turn that off). The server CPU time used per
command (lazy work included) is printed too: unlike latency it does not depend on what else the machine runs.

Parts: bench/flow_ack.py (a), bench/flow_approval.py (b); the run and the report here.

The load comes from a separate process (so the emulators' threads here do not share its GIL): N slash commands
per stack and concurrency, one requests.Session per client thread, each signed just before it is sent, timed
from send to the HTTP response. Rounds alternate between the stacks (ABC, CBA, ...) to cancel drift. Every
command carries a trigger_id the Slack emulator issued, so our lazy listener's views.open succeeds (a round's
trigger_ids are issued before it is sent, so their lifetime is raised from 3 s to TRIGGER_TTL).

Approval -> POST: K sessions are driven to the drafted state through the SlackDriver, then approved one at a time;
t0 is taken just before the approval message event is sent, t1 is the Jira emulator's own `created` timestamp of
the stored comment (milliseconds, taken after it parsed and validated the body; wall clock of this process). The
time at which `jira.wait_for` returns here is printed beside it.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import sys
import time
from pathlib import Path

import redis

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.common import pct, verdict  # noqa: E402
from bench.flow_ack import ROUNDS, USER, Target, ack_latency, client_main, pin, start_bare  # noqa: E402
from bench.flow_approval import SessionDriver, approval_to_post, drafted_chats  # noqa: E402
from bot.localstack import BOT_TOKEN, SIGNING_SECRET, LocalStack, Process  # noqa: E402
from emulators.slack_api import SlackEmulator  # noqa: E402

REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/7")
#: trigger_ids are issued for a whole round before it is sent; Slack's 3 s would expire the last ones of a round.
TRIGGER_TTL = 60.0
SERVER_CPU, REST_CPU = 1, 0
ACK_P99_RATIO_GOAL = 1.10
POST_P50_GOAL_MS = 50.0


# Main ------------------------------------------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--requests", type=int, default=300, help="slash commands per stack and concurrency")
    parser.add_argument("--sessions", type=int, default=30, help="sessions approved one at a time")
    parser.add_argument("--no-pin", action="store_true", help="do not put the servers on a CPU of their own")
    args = parser.parse_args()
    os.chdir(ROOT)  # LocalStack starts `python -m bot.cli` in the working directory
    redis.Redis.from_url(REDIS_URL).flushdb()
    began = time.perf_counter()
    pinned = not args.no_pin and len(os.sched_getaffinity(0)) >= 2
    if pinned:  # before any thread starts: emulators, client and worker inherit CPU 0; the servers get CPU 1
        os.sched_setaffinity(0, {REST_CPU})

    stack = LocalStack(redis_url=REDIS_URL, slack=SlackEmulator(bot_token=BOT_TOKEN, trigger_ttl=TRIGGER_TTL))
    context = multiprocessing.get_context("spawn")
    conn, child_conn = context.Pipe()
    client = context.Process(target=client_main, args=(child_conn, SIGNING_SECRET), daemon=True)
    bare: list[Process] = []
    try:
        client.start()
        stack.start()
        stack.slack.add_user(USER, locale="en-US")  # our lazy listener asks users.info for the language
        bare_default, bare_url = start_bare(stack, process_before_response=False)
        bare_pbr, bare_pbr_url = start_bare(stack, process_before_response=True)
        bare += [bare_default, bare_pbr]
        serve = stack.processes["serve"]
        ours = Target("ours (serve)", f"{stack.bot_url}/slack/events", serve.popen.pid)
        base = Target("bare AsyncApp", bare_url, bare_default.popen.pid)
        floor = Target("bare AsyncApp, process_before_response=True", bare_pbr_url, bare_pbr.popen.pid)
        if pinned:
            for target in (ours, base, floor):
                pin(target.pid, SERVER_CPU)

        log_before = len(serve.lines)
        views_before = len(stack.slack.views)
        failures = ack_latency(stack, [ours, base, floor], requests_per=args.requests, conn=conn)
        sent_to_ours = sum(2 * c + 20 for c in ROUNDS) + sum(len(v) for v in ours.times.values())
        opened = sum(1 for v in stack.slack.views[views_before:] if v["action"] == "open")
        serve_log = serve.lines[log_before:]

        driver = SessionDriver(stack.bot_url, SIGNING_SECRET, slack=stack.slack)
        chats = drafted_chats(stack, driver, args.sessions)
        by_stamp, by_wait = approval_to_post(stack, driver, chats)
    finally:
        conn.send(None)
        client.join(timeout=10)
        for process in bare:
            process.stop()
        stack.stop()

    print(
        f"(a) /post-mortem ack latency, send -> HTTP 200, {args.requests} signed commands per stack and "
        f"concurrency, rounds alternated ({', '.join(f'{r} rounds at {c}' for c, r in ROUNDS.items())}); "
        f"non-200 answers: {failures}"
    )
    width = max(len(t.name) for t in (ours, base, floor))
    for concurrency in ROUNDS:
        for target in (ours, base, floor):
            times = target.times[concurrency]
            print(
                f"    {concurrency:>2} concurrent  {target.name:<{width}}  p50 {pct(times, 50):6.2f} ms  "
                f"p99 {pct(times, 99):6.2f} ms  (n={len(times)})"
            )
    print(
        "    server CPU per command (user+system, lazy work included): "
        + ", ".join(
            f"{t.name.split(',')[0] if t is not floor else 'bare pbr=True'} "
            f"{t.cpu * 1000 / sum(len(v) for v in t.times.values()):.2f} ms"
            for t in (ours, base, floor)
        )
        + (f"; servers pinned to CPU {SERVER_CPU}, emulators/client/worker to CPU {REST_CPU}" if pinned else "")
    )
    print(
        f"    lazy views.open after the acks: {opened} of {sent_to_ours} opened; serve log lines meanwhile: "
        f"{len(serve_log)}" + "".join(f"\n      {line}" for line in serve_log[:5])
    )
    ratio = pct(ours.times[20], 99) / pct(base.times[20], 99)
    print(
        f"(a) ack p99 ratio ours/bare at 20 concurrent: {ratio:.2f}  goal <= {ACK_P99_RATIO_GOAL:.2f}  "
        f"{verdict(ratio <= ACK_P99_RATIO_GOAL)}"
    )
    print("    (docs/platform-notes.md measured the same bare stack at p50 15.9 / p99 19.4 ms at 20 concurrent)")
    print(f"(b) approval message -> Jira emulator stores the POSTed comment, {len(by_stamp)} sessions one at a time:")
    print(
        f"    by the emulator's comment timestamp (ms resolution): p50 {pct(by_stamp, 50):6.2f} ms  "
        f"p99 {pct(by_stamp, 99):6.2f} ms"
    )
    print(
        f"    by jira.wait_for returning here:                    p50 {pct(by_wait, 50):6.2f} ms  "
        f"p99 {pct(by_wait, 99):6.2f} ms"
    )
    p50 = pct(by_stamp, 50)
    print(
        f"(b) approval -> POST p50: {p50:.2f} ms  goal <= {POST_P50_GOAL_MS:.0f} ms  {verdict(p50 <= POST_P50_GOAL_MS)}"
    )
    print(f"whole bench: {time.perf_counter() - began:.0f} s")


if __name__ == "__main__":
    main()
