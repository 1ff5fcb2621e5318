"""How the worker takes SIGTERM/SIGINT: never as an exception inside its Redis work, always before a wait.

RQ raises StopRequested from its signal handler wherever the main thread is when the worker is idle; a signal
landing in a heartbeat or a registry clean-up (Redis pipelines) could be swallowed there, and the worker went
back to its wait for jobs for minutes. These tests put the signal at each place, on a real Redis.
"""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Iterator

import pytest
import redis
from rq.exceptions import StopRequested
from rq.serializers import JSONSerializer

from bot import worker as worker_module
from bot.worker import StoppableWorker

pytestmark = pytest.mark.unit

#: Long enough that a worker which kept waiting would fail the test's timeout, not pass by luck.
WAIT_SECONDS = 120


@pytest.fixture
def worker(redis_conn: redis.Redis) -> Iterator[StoppableWorker]:
    handlers = {s: signal.getsignal(s) for s in (signal.SIGTERM, signal.SIGINT)}
    worker_module.STOP.clear()
    queue = worker_module._StoppableQueue("stop-test", connection=redis_conn, serializer=JSONSerializer)
    made = StoppableWorker([queue], connection=redis_conn, serializer=JSONSerializer,
                           queue_class=worker_module._StoppableQueue)
    made._install_signal_handlers()  # type: ignore[no-untyped-call]  # as work() does first
    try:
        yield made
    finally:
        for signum, handler in handlers.items():
            signal.signal(signum, handler)
        worker_module.STOP.clear()


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_outside_the_wait_raises_nothing_there_and_the_next_wait_ends_at_once(
        worker: StoppableWorker, signum: int) -> None:
    os.kill(os.getpid(), signum)  # handled here, as if it landed in a heartbeat: no exception out of it
    assert worker_module.STOP.is_set()
    with pytest.raises(StopRequested):
        worker.dequeue_job_and_maintain_ttl(WAIT_SECONDS)


def test_a_signal_during_the_wait_ends_it(worker: StoppableWorker) -> None:
    def signal_once_waiting() -> None:
        assert worker_module._WAITING.wait(10), "the worker never waited for a job"
        os.kill(os.getpid(), signal.SIGTERM)

    sender = threading.Thread(target=signal_once_waiting)
    sender.start()
    with pytest.raises(StopRequested):
        worker.dequeue_job_and_maintain_ttl(WAIT_SECONDS)
    sender.join()
    assert not worker_module._WAITING.is_set()


def test_the_work_loop_stops_when_the_signal_lands_in_its_redis_work(worker: StoppableWorker,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """The signal arrives inside the heartbeat the wait loop sends before blocking: work() still returns."""
    raised: list[BaseException] = []
    heartbeat = worker.heartbeat

    def heartbeat_then_signal(*args: object, **kwargs: object) -> None:
        heartbeat(*args, **kwargs)  # type: ignore[arg-type]
        if not worker_module.STOP.is_set():
            try:
                os.kill(os.getpid(), signal.SIGTERM)
            except BaseException as exc:  # RQ's own handler would raise StopRequested right here
                raised.append(exc)
                raise

    monkeypatch.setattr(worker, "heartbeat", heartbeat_then_signal)
    worker.work(burst=False)
    assert raised == [] and worker_module.STOP.is_set()
