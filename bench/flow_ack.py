"""Part (a) of bench/flow.py: `/post-mortem` ack latency. The load generator runs in a child process and signs each
request with the driver's `slack_signature`; rounds alternate over the targets (our `serve`, the bare Bolt apps)."""

from __future__ import annotations

import math
import os
import queue
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import requests
from slack_sdk.signature import SignatureVerifier

from bench.common import cpu_seconds
from bot.localstack import SIGNING_SECRET, LocalStack, Process, free_port
from emulators.driver import FORM, SlackDriver, slack_signature

ROOT = Path(__file__).resolve().parent.parent
USER = "U1"
#: Rounds each stack's N requests are split into, per concurrency (alternating the order of the stacks).
ROUNDS = {1: 6, 20: 3}


# Load generator (a child process) --------------------------------------------------------------------------------


def client_main(conn: Connection, signing_secret: str) -> None:
    """Serve rounds sent by the parent: (url, bodies, concurrency) -> [(status, seconds)], until None."""
    verifier = SignatureVerifier(signing_secret)
    sessions: dict[tuple[str, int], requests.Session] = {}
    while (job := conn.recv()) is not None:
        url, bodies, concurrency = job
        conn.send(run_round(url, bodies, concurrency, verifier, sessions))


def run_round(
    url: str,
    bodies: list[bytes],
    concurrency: int,
    verifier: SignatureVerifier,
    sessions: dict[tuple[str, int], requests.Session],
) -> list[tuple[int, float]]:
    """`concurrency` threads, each with its own keep-alive session, take the bodies from one queue."""
    work: queue.SimpleQueue[bytes] = queue.SimpleQueue()
    for body in bodies:
        work.put(body)
    results: list[tuple[int, float]] = []
    start = threading.Barrier(concurrency)
    for i in range(concurrency):
        sessions.setdefault((url, i), requests.Session())

    def loop(session: requests.Session) -> None:
        start.wait()
        while True:
            try:
                body = work.get_nowait()
            except queue.Empty:
                return
            headers = {"Content-Type": FORM, **slack_signature(verifier, body)}
            sent = time.perf_counter()
            response = session.post(url, data=body, headers=headers, timeout=10)
            results.append((response.status_code, time.perf_counter() - sent))

    threads = [threading.Thread(target=loop, args=(sessions[(url, i)],)) for i in range(concurrency)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


# Helpers ---------------------------------------------------------------------------------------------------------


class RecordingDriver(SlackDriver):
    """SlackDriver's exact slash-command bodies (fresh trigger_id and response_url issued) without sending them."""

    def post(self, body: bytes, content_type: str, **_: Any) -> requests.Response:
        self.last_body = body
        return requests.Response()


def pin(pid: int, cpu: int) -> None:
    """Every thread of a process onto one CPU."""
    for task in Path(f"/proc/{pid}/task").iterdir():
        os.sched_setaffinity(int(task.name), {cpu})


def start_bare(stack: LocalStack, *, process_before_response: bool) -> tuple[Process, str]:
    """bench/bare_app.py in its own process, with the environment `serve` gets."""
    port = free_port()
    args = [sys.executable, str(ROOT / "bench" / "bare_app.py"), "--port", str(port)]
    if process_before_response:
        args.append("--process-before-response")
    popen = subprocess.Popen(
        args,
        env=stack.env(),
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL,
        text=True,
    )
    process = Process(f"bare{'-pbr' if process_before_response else ''}", popen)
    process.start_reader()
    process.wait_for_line("Uvicorn running on")
    return process, f"http://127.0.0.1:{port}/slack/events"


# (a) ack latency -------------------------------------------------------------------------------------------------


@dataclass
class Target:
    name: str
    url: str
    pid: int
    times: dict[int, list[float]] = field(default_factory=lambda: {c: [] for c in ROUNDS})
    cpu: float = 0.0  # server CPU seconds used during the measured rounds (lazy work of ours included)


def ack_latency(stack: LocalStack, targets: list[Target], *, requests_per: int, conn: Connection) -> int:
    """Alternate rounds over the targets at each concurrency; returns the number of non-200 answers."""
    recorder = RecordingDriver(stack.bot_url, SIGNING_SECRET, slack=stack.slack)

    def bodies(n: int) -> list[bytes]:
        out = []
        for _ in range(n):
            recorder.slash_command(text="PROJ-1", user_id=USER, channel_id="C1")
            out.append(recorder.last_body)
        return out

    def round_(target: Target, n: int, concurrency: int) -> list[tuple[int, float]]:
        opened = len(stack.slack.calls_to("views.open"))
        before = cpu_seconds(target.pid)
        conn.send((target.url, bodies(n), concurrency))
        result: list[tuple[int, float]] = conn.recv()
        if target.url.startswith(stack.bot_url):  # our lazy views.open calls, done before the next round
            stack.slack.wait_for(lambda s: len(s.calls_to("views.open")) - opened >= n, timeout=30)
        target.cpu += cpu_seconds(target.pid) - before
        return result

    failures = 0
    for concurrency, rounds in ROUNDS.items():
        for target in targets:  # warm-up: connections opened, Bolt's first-dispatch auth.test done
            round_(target, 2 * concurrency + 20, concurrency)
            target.cpu = 0.0
        per_round = math.ceil(requests_per / rounds)
        for r in range(rounds):
            for target in targets if r % 2 == 0 else targets[::-1]:
                result = round_(target, per_round, concurrency)
                failures += sum(status != 200 for status, _ in result)
                target.times[concurrency] += [seconds * 1000 for _, seconds in result]
    return failures
