"""How the worker takes SIGTERM/SIGINT: never as an exception raised wherever the signal lands, always at
a safe point (its next heartbeat or wait for a job), and never with a job taken off the queue and not run.

RQ raises StopRequested from its signal handler wherever the main thread is when the worker is idle: a
signal landing in a heartbeat or a registry clean-up (Redis pipelines) was swallowed there and the worker
went back to its wait for jobs, or broke the pipeline; one landing just after the wait took a job lost it.
These tests put the signal at each place, on a real Redis.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import redis
from rq import Queue
from rq.exceptions import StopRequested
from rq.serializers import JSONSerializer

from bot import worker as worker_module
from bot.worker import StoppableWorker
from tests.helpers import TEST_REDIS_URL

pytestmark = pytest.mark.unit

#: Long enough that a worker which kept waiting would fail the test's timeout, not pass by luck.
LONG_WAIT = 120
QUEUE = "stop-test"


@pytest.fixture
def worker(redis_conn: redis.Redis) -> Iterator[StoppableWorker]:
    handlers = {s: signal.getsignal(s) for s in (signal.SIGTERM, signal.SIGINT)}
    worker_module.STOP.clear()
    worker_module._HOLDING.clear()
    queue = worker_module._StoppableQueue(QUEUE, connection=redis_conn, serializer=JSONSerializer)
    made = StoppableWorker(
        [queue], connection=redis_conn, serializer=JSONSerializer, queue_class=worker_module._StoppableQueue
    )
    made._install_signal_handlers()  # type: ignore[no-untyped-call]  # as work() does first
    try:
        yield made
    finally:
        for signum, handler in handlers.items():
            signal.signal(signum, handler)
        worker_module.STOP.clear()
        worker_module._HOLDING.clear()


def blocked_in_blmove(conn: redis.Redis) -> bool:
    """Whether some client of this Redis database is blocked in BLMOVE (the worker's wait for a job), seen from
    outside. Only this database's clients: other work on the same server (another suite's workers) waits too."""
    db = conn.connection_pool.connection_kwargs.get("db", 0)
    return any(c.get("cmd") == "blmove" and int(c.get("db", -1)) == db for c in conn.client_list())


def signal_once(condition: Callable[[], bool], signum: int = signal.SIGTERM) -> threading.Thread:
    """A thread that sends this process `signum` once `condition()` holds (polled with a deadline)."""

    def send() -> None:
        deadline = threading.Event()
        for _ in range(1000):
            if condition():
                os.kill(os.getpid(), signum)
                return
            deadline.wait(0.01)  # polling an outside condition, with a bound of 10 s
        raise AssertionError("the condition for the signal never held")

    thread = threading.Thread(target=send)
    thread.start()
    return thread


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_raises_nothing_where_it_lands_and_the_next_wait_does_not_begin(
    worker: StoppableWorker, signum: int
) -> None:
    os.kill(os.getpid(), signum)  # handled here, as if it landed in a heartbeat: no exception out of it
    assert worker_module.STOP.is_set()
    with pytest.raises(StopRequested):
        worker.dequeue_job_and_maintain_ttl(LONG_WAIT)


def test_a_signal_during_the_wait_ends_it_at_its_timeout_not_inside_redis(
    worker: StoppableWorker, redis_conn: redis.Redis
) -> None:
    observer = redis.Redis.from_url(TEST_REDIS_URL)
    sender = signal_once(lambda: blocked_in_blmove(observer))
    with pytest.raises(StopRequested):
        worker.dequeue_job_and_maintain_ttl(1)  # the wait times out; the loop's next heartbeat stops
    sender.join()


def test_a_job_pushed_while_a_stop_is_pending_is_taken_and_run_not_lost(
    worker: StoppableWorker, redis_conn: redis.Redis
) -> None:
    observer = redis.Redis.from_url(TEST_REDIS_URL)
    plain = Queue(QUEUE, connection=observer, serializer=JSONSerializer)

    def blocked_then_push() -> bool:
        if not blocked_in_blmove(observer):
            return False
        plain.enqueue("builtins.print", "x")  # arrives in the same wait the signal is about to land in
        return True

    sender = signal_once(blocked_then_push)
    taken = worker.dequeue_job_and_maintain_ttl(LONG_WAIT)
    sender.join()
    assert taken is not None and taken[0].func_name == "builtins.print" and worker_module.STOP.is_set()
    job, queue = taken
    worker.execute_job(job, queue)  # the work loop runs what it took
    assert job.get_status(refresh=True) == "finished"
    with pytest.raises(StopRequested):  # and stops at the heartbeat it sends after the job
        worker.heartbeat()


def test_the_work_loop_stops_when_the_signal_lands_in_its_redis_work(
    worker: StoppableWorker, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The signal arrives inside the heartbeat the wait loop sends before blocking: work() still returns."""
    raised: list[BaseException] = []
    heartbeat = StoppableWorker.heartbeat

    def heartbeat_then_signal(self: StoppableWorker, timeout: int | None = None, pipeline: Any = None) -> None:
        heartbeat(self, timeout, pipeline)
        if not worker_module.STOP.is_set():
            try:
                os.kill(os.getpid(), signal.SIGTERM)
            except BaseException as exc:  # RQ's own handler would raise StopRequested right here
                raised.append(exc)
                raise

    monkeypatch.setattr(StoppableWorker, "heartbeat", heartbeat_then_signal)
    worker.work(burst=False)
    assert raised == [] and worker_module.STOP.is_set()


@pytest.mark.timeout(30)
def test_a_stop_does_not_wait_on_the_command_listener(worker: StoppableWorker) -> None:
    """RQ's listener for worker commands waits 60 s at a time, and redis-py's `stop()` joins it: once the
    unsubscribe was answered, the listener sat in a wait for a subscription and the worker's exit waited with it
    (a worker signalled while idle took a minute to stop). The listener here looks again every second."""
    worker.subscribe()
    pubsub = worker.pubsub
    assert pubsub is not None
    pubsub.unsubscribe()  # the listener reads the answer and then waits for a subscription that never comes
    answered = threading.Event()
    for _ in range(1000):
        if not pubsub.subscribed:
            answered.set()
            break
        answered.wait(0.01)  # polling the listener's state, with a bound of 10 s
    assert answered.is_set(), "the listener never read the unsubscribe"
    start = time.monotonic()
    worker.unsubscribe()  # type: ignore[no-untyped-call]
    assert time.monotonic() - start < 10 * worker_module.PUBSUB_WAIT_SECONDS
    assert worker.pubsub_thread is not None and not worker.pubsub_thread.is_alive()
