"""Start `worker`: an RQ worker on the bot's queue, with the Jira and Slack gateways, the watchdog, the Home
publisher and the reminder sweep; it rides out a Redis restart without a supervisor."""

from __future__ import annotations

import logging
import signal
import threading
from collections.abc import Iterable
from typing import Any

import redis
from rq import Queue, SimpleWorker
from rq.exceptions import StopRequested
from rq.job import Job
from rq.scheduler import SCHEDULER_LOCKING_KEY_TEMPLATE, RQScheduler
from rq.scripts import release_lock
from rq.serializers import JSONSerializer
from rq.worker import WorkerStatus

from bot.settings import Settings
from sessions.store import SessionStore, connect

# `jobs` and `offers` are imported for their effect: RQ resolves jobs by name, and loading them with the worker
# spares the first job the import.
from workers import home, jobs, offers, reminders, watchdog  # noqa: F401
from workers.allowed import AllowListJob
from workers.context import HANDOFF_QUEUE_NAME, QUEUE_NAME, Policy, WorkerContext, install
from workers.jira_gateway import JiraGateway
from workers.slack_gateway import SlackGateway, slack_client

log = logging.getLogger(__name__)

#: How often the worker looks for jobs whose worker died (RQ's default is 600 s; a post must not wait that)
#: and restarts its scheduler if that died (e.g. with Redis).
MAINTENANCE_INTERVAL_SECONDS = 10
#: RQ's scheduler (delayed retries, waits: `WorkerContext.later`) runs in one worker, which holds a lock
#: it refreshes every second for a minute ahead. A lock not refreshed for this long belongs to a scheduler
#: that died with its worker: another worker frees it and starts its own scheduler at once, rather than
#: letting delayed work wait out the rest of the minute.
SCHEDULER_STALE_SECONDS = 10
#: The longest pause between the worker's attempts to reach a Redis that went away (RQ's default is 60 s).
REDIS_WAIT_SECONDS = 2.0


#: How long the listener for RQ's worker commands waits for a message before it looks again (RQ's is 60 s).
#: A stop joins that listener, and one waiting after the unsubscribe was answered held the worker's exit for
#: up to that long.
PUBSUB_WAIT_SECONDS = 1.0
#: RQ's worker TTL. Its wait for a job lasts this minus 15 s (3 s here, RQ's default is 405 s), so an idle
#: worker sees a stop within that, and RQ's own socket timeout (wait + 10 s) stays short.
WORKER_TTL_SECONDS = 18
#: Set by SIGTERM/SIGINT (one worker a process): no job starts after it, and the worker stops at its next
#: heartbeat or wait for a job.
STOP = threading.Event()
#: Set from when a job is taken off the queue until it starts: a stop never falls between the two.
_HOLDING = threading.Event()


class _StoppableQueue(Queue):
    """The worker's wait for jobs: never entered once a stop was asked for."""

    @classmethod
    def dequeue_any(
        cls, queues: Iterable[Queue], timeout: int | None, connection: redis.Redis, *args: Any, **kwargs: Any
    ) -> tuple[Job, Queue] | None:
        if STOP.is_set():
            raise StopRequested()
        taken = super().dequeue_any(queues, timeout, connection, *args, **kwargs)
        if taken is not None:
            _HOLDING.set()
        return taken


class StoppableWorker(SimpleWorker):
    """RQ's SimpleWorker, stopping on SIGTERM/SIGINT wherever the signal lands, and never losing a job to it.

    RQ raises StopRequested from the signal handler when the worker is idle, wherever the main thread is: in
    a heartbeat or a registry clean-up (Redis pipelines) it was swallowed or broke the pipeline, and the
    worker went back to waiting for jobs; just after the wait took a job it lost that job. Here the handler
    never raises: it sets STOP, and the worker raises StopRequested itself at a safe point, its next
    heartbeat or wait for a job (a wait lasts at most a few seconds), never with a job taken and not yet run.
    That also covers a Redis that went away, where RQ's loop retries heartbeats and never reaches a wait.
    A job in progress is finished first, as RQ does; teardown stops the scheduler."""

    def _shutdown(self) -> None:
        STOP.set()
        self._stop_requested = True

    def subscribe(self) -> None:
        """RQ's subscription to its worker commands, with a listener that looks again every PUBSUB_WAIT_SECONDS:
        RQ's listener waits 60 s at a time, and redis-py's `stop()` joins it, so a stop could wait a minute."""
        self.log.info("Worker %s: subscribing to channel %s", self.name, self.pubsub_channel_name)
        self.pubsub = self.connection.pubsub()
        self.pubsub.subscribe(**{self.pubsub_channel_name: self.handle_payload})
        # RQ declares the attribute as None (its value until the worker subscribes).
        self.pubsub_thread = self.pubsub.run_in_thread(  # type: ignore[assignment]
            sleep_time=PUBSUB_WAIT_SECONDS, daemon=True, exception_handler=self._pubsub_exception_handler
        )

    def heartbeat(self, timeout: int | None = None, pipeline: Any = None) -> None:
        if STOP.is_set() and pipeline is None and not _HOLDING.is_set() and self.get_state() != WorkerStatus.BUSY:
            raise StopRequested()
        super().heartbeat(timeout, pipeline)

    def execute_job(self, job: Job, queue: Queue) -> None:
        _HOLDING.clear()
        super().execute_job(job, queue)

    @property
    def should_run_maintenance_tasks(self) -> bool:
        return True  # every turn of the loop (a few seconds): the scheduler check; RQ's clean-up keeps its pace

    def run_maintenance_tasks(self) -> None:
        scheduler = self.scheduler
        if scheduler is not None and not _running(scheduler) and _orphaned_lock_freed(self.connection, scheduler):
            scheduler.acquire_locks(auto_start=True)  # type: ignore[no-untyped-call]
        if super().should_run_maintenance_tasks:
            super().run_maintenance_tasks()  # type: ignore[no-untyped-call]


def _running(scheduler: RQScheduler) -> bool:
    process = scheduler._process  # RQ keeps the scheduler's process here and checks it the same way
    return process is not None and process.is_alive()


def _orphaned_lock_freed(connection: redis.Redis, scheduler: RQScheduler) -> bool:
    """Whether the queue's scheduler lock is free now: absent, or held by a scheduler that stopped refreshing it
    (its worker died), which is then released (only if that scheduler still holds it)."""
    key = SCHEDULER_LOCKING_KEY_TEMPLATE % QUEUE_NAME
    with connection.pipeline(transaction=False) as pipe:
        pipe.get(key)
        pipe.ttl(key)
        holder, left = pipe.execute()
    if holder is None:
        return True
    if left < 0 or left > scheduler.interval + 60 - SCHEDULER_STALE_SECONDS:
        return False  # refreshed lately (or kept for good): its scheduler is alive
    name = holder.decode() if isinstance(holder, bytes) else str(holder)
    if not release_lock(connection, key, name):
        return False
    log.warning("the scheduler %s stopped refreshing its lock (its worker died?); this worker takes over", name)
    return True


def _queue(conn: redis.Redis, name: str) -> Queue:
    """A queue as `serve` makes it (bot/app.py `job_queue`): JSON arguments, never pickle. Made here so the worker
    does not load the Slack app's modules: a worker started to replace a dead one is at work a second or two
    sooner (its start-up is part of the recovery)."""
    return Queue(name, connection=conn, serializer=JSONSerializer)


def worker_context(settings: Settings) -> WorkerContext:
    """The worker's edges, built from Settings."""
    conn = connect(settings.redis_url, timeout=5.0)
    slack = SlackGateway(
        slack_client(
            settings.slack_bot_token.get_secret_value(),
            settings.slack_api_url,
            retry_window=settings.postmortem_slack_retry_seconds,
        )
    )
    jira = JiraGateway(
        settings.jira_url,
        settings.jira_email,
        settings.jira_api_token.get_secret_value(),
        timeout=settings.jira_timeout,
        deployment=settings.jira_deployment or "cloud",
    )
    policy = Policy(
        quiet_seconds=settings.postmortem_post_quiet_seconds,
        retry_after_cap=settings.postmortem_retry_after_cap_seconds,
        lease_seconds=settings.postmortem_lease_seconds,
    )
    store = SessionStore(conn, ttl_seconds=settings.lifetime.store_ttl)
    return WorkerContext(
        store=store,
        slack=slack,
        jira=jira,
        queue=_queue(conn, QUEUE_NAME),
        handoff_queue=_queue(conn, HANDOFF_QUEUE_NAME),
        policy=policy,
        permission_check=settings.postmortem_jira_permission_check == "on",
        jira_visibility=settings.postmortem_jira_visibility,
        jira_url=settings.jira_url,
        jira_deployment=settings.jira_deployment or "cloud",
        followup_issue_type=settings.postmortem_followup_issue_type,
    )


def work(settings: Settings, *, burst: bool = False) -> None:
    """Run an RQ worker (with its scheduler, for delayed retries) on the bot's queue."""
    context = worker_context(settings)
    assert isinstance(context.slack, SlackGateway)  # the real gateway: the Home publisher shares its client
    install(context)
    # SimpleWorker runs jobs in this process: no fork per job (approval → POST p50 went from ~77 to ~30 ms),
    # and the context's connections are reused. A crash of a job's process is a crash of the worker, which
    # the watchdog of any other (or the restarted) worker covers.
    publisher = home.HomePublisher(
        context.store,
        context.slack.client,
        approvers=settings.postmortem_approvers,
        default_lang=settings.postmortem_lang,
    )
    stops = [
        watchdog.start(context, interval=settings.postmortem_watchdog_seconds),
        home.start(publisher),
        reminders.start(context, settings.lifetime, interval=settings.postmortem_watchdog_seconds),
    ]
    # RQ's loop gets a connection of its own: RQ widens its connection's socket timeout to cover the wait for
    # a job, and the jobs' store calls must keep their short one.
    rq_connection = connect(settings.redis_url, timeout=5.0)
    STOP.clear()
    _HOLDING.clear()
    previous = {signum: signal.getsignal(signum) for signum in (signal.SIGTERM, signal.SIGINT)}
    for signum in previous:  # outside RQ's loop (it installs its own while it runs)
        signal.signal(signum, _ask_to_stop)
    try:
        while not _work_once(rq_connection, burst=burst) and not STOP.is_set():
            log.warning("the worker stopped (Redis unreachable?); starting again once Redis answers")
            _wait_for_redis(rq_connection)
            if STOP.is_set():
                break
    finally:
        for event in stops:
            event.set()
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def _work_once(connection: redis.Redis, *, burst: bool) -> bool:
    """Run one RQ worker until it stops; True when it stopped for good (asked to, or a burst ended), False
    when it gave up on Redis (RQ quits on some connection errors): the caller then starts another, so the
    worker rides out a Redis restart without a supervisor."""
    # AllowListJob: only the bot's own job functions run, whatever a job in Redis names (workers/allowed.py).
    queue = _StoppableQueue(QUEUE_NAME, connection=connection, serializer=JSONSerializer)
    worker = StoppableWorker(
        [queue],
        connection=connection,
        serializer=JSONSerializer,
        maintenance_interval=MAINTENANCE_INTERVAL_SECONDS,
        job_class=AllowListJob,
        queue_class=_StoppableQueue,
        worker_ttl=WORKER_TTL_SECONDS,
        # RQ logs each job's call string at INFO: its arguments carry people's words and addresses (SECURITY.md:
        # the log holds ids and keys). The job id and its queue are logged instead.
        log_job_description=False,
    )
    worker.max_connection_wait_time = REDIS_WAIT_SECONDS
    try:
        worker.work(burst=burst, with_scheduler=True)
    except (redis.ConnectionError, redis.TimeoutError):
        return STOP.is_set()
    return burst or STOP.is_set()


def _ask_to_stop(signum: int, frame: object) -> None:
    """SIGTERM/SIGINT while no RQ worker runs (starting one, or waiting for Redis to come back)."""
    STOP.set()


def _wait_for_redis(conn: redis.Redis) -> None:
    """Block until Redis answers a PING, checking every REDIS_WAIT_SECONDS at most."""
    pause = 0.25
    while not STOP.is_set():
        try:
            conn.ping()
            return
        except (redis.ConnectionError, redis.TimeoutError):
            STOP.wait(pause)  # waiting for an outside event (Redis back, or a stop), not for correctness
            pause = min(REDIS_WAIT_SECONDS, pause * 2)
