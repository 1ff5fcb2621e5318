"""Start `worker`: an RQ worker on the bot's queue, with the Jira and Slack gateways, the watchdog, the Home
publisher and the reminder sweep; it rides out a Redis restart without a supervisor."""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterable
from typing import Any

import redis
from rq import Queue, SimpleWorker
from rq.exceptions import StopRequested
from rq.job import Job
from rq.serializers import JSONSerializer
from rq.worker import WorkerStatus

from bot.app import handoff_queue, job_queue
from bot.settings import Settings
from postmortem.lifetime import Lifetime
from postmortem.store import SessionStore, connect
from workers import home, jobs, offers, reminders, watchdog
from workers.allowed import AllowListJob
from workers.context import Policy, WorkerContext, install
from workers.jira_gateway import JiraGateway
from workers.slack_gateway import SlackGateway, slack_client

log = logging.getLogger(__name__)

#: The job modules, loaded with the worker so the first job pays no import (RQ resolves jobs by name).
JOB_MODULES = (jobs, offers)

#: How often the worker looks for jobs whose worker died (RQ's default is 600 s; a post must not wait that)
#: and restarts its scheduler if that died (e.g. with Redis).
MAINTENANCE_INTERVAL_SECONDS = 10
#: The longest pause between the worker's attempts to reach a Redis that went away (RQ's default is 60 s).
REDIS_WAIT_SECONDS = 2.0


#: Set by SIGTERM/SIGINT (one worker a process): no new job starts, and the worker leaves its wait for jobs.
STOP = threading.Event()
#: Set while the main thread waits for a job, the one place a stop may interrupt.
_WAITING = threading.Event()


class _StoppableQueue(Queue):
    """The worker's wait for jobs, the only place where a stop signal may raise StopRequested."""

    @classmethod
    def dequeue_any(cls, queues: Iterable[Queue], timeout: int | None, connection: redis.Redis,
                    *args: Any, **kwargs: Any) -> tuple[Job, Queue] | None:
        _WAITING.set()
        try:
            if STOP.is_set():  # asked before this wait began: never block on it
                raise StopRequested()
            return super().dequeue_any(queues, timeout, connection, *args, **kwargs)
        finally:
            _WAITING.clear()


class StoppableWorker(SimpleWorker):
    """RQ's SimpleWorker, stopping on SIGTERM/SIGINT wherever the signal lands.

    RQ raises StopRequested from the signal handler when the worker is idle, wherever the main thread is: in
    the middle of a heartbeat or of a registry clean-up (Redis pipelines), where it can be swallowed or break
    the pipeline, and the worker then went back to its wait for jobs and ignored the signal. Here the handler
    raises only inside that wait (where RQ expects it); anywhere else it sets STOP, and the wait that follows
    raises it before blocking. A job in progress is finished first, as RQ does; teardown stops the scheduler."""

    def _shutdown(self) -> None:
        STOP.set()
        self._stop_requested = True  # the work loop stops before its next job (after this one, when busy)
        if _WAITING.is_set() and self.get_state() != WorkerStatus.BUSY:
            raise StopRequested()


def worker_context(settings: Settings) -> WorkerContext:
    """The worker's edges, built from Settings."""
    conn = connect(settings.redis_url, timeout=5.0)
    slack = SlackGateway(slack_client(settings.slack_bot_token.get_secret_value(), settings.slack_api_url,
                                      retry_window=settings.postmortem_slack_retry_seconds))
    jira = JiraGateway(settings.jira_url, settings.jira_email, settings.jira_api_token.get_secret_value(),
                       timeout=settings.jira_timeout)
    policy = Policy(quiet_seconds=settings.postmortem_post_quiet_seconds,
                    retry_after_cap=settings.postmortem_retry_after_cap_seconds,
                    lease_seconds=settings.postmortem_lease_seconds)
    store = SessionStore(conn, ttl_seconds=lifetime(settings).store_ttl)
    return WorkerContext(store=store, slack=slack, jira=jira, queue=job_queue(conn),
                         handoff_queue=handoff_queue(conn), policy=policy,
                         permission_check=settings.postmortem_jira_permission_check == "on",
                         jira_visibility=settings.postmortem_jira_visibility, jira_url=settings.jira_url)


def work(settings: Settings, *, burst: bool = False) -> None:
    """Run an RQ worker (with its scheduler, for delayed retries) on the bot's queue."""
    context = worker_context(settings)
    install(context)
    # SimpleWorker runs jobs in this process: no fork per job (approval → POST p50 went from ~77 to ~30 ms),
    # and the context's connections are reused. A crash of a job's process is a crash of the worker, which
    # the watchdog of any other (or the restarted) worker covers.
    publisher = home.HomePublisher(context.store, context.slack.client, approvers=settings.postmortem_approvers,
                                   default_lang=settings.postmortem_lang)
    stops = [watchdog.start(context, interval=settings.postmortem_watchdog_seconds), home.start(publisher),
             reminders.start(context, lifetime(settings), interval=settings.postmortem_watchdog_seconds)]
    try:
        while not _work_once(context, burst=burst) and not STOP.is_set():
            log.warning("the worker stopped (Redis unreachable?); starting again once Redis answers")
            _wait_for_redis(context.queue.connection)
    finally:
        for event in stops:
            event.set()


def _work_once(context: WorkerContext, *, burst: bool) -> bool:
    """Run one RQ worker until it stops; True when it stopped for good (asked to, or a burst ended), False
    when it gave up on Redis (RQ quits on some connection errors): the caller then starts another, so the
    worker rides out a Redis restart without a supervisor."""
    # AllowListJob: only the bot's own job functions run, whatever a job in Redis names (workers/allowed.py).
    queue = _StoppableQueue(context.queue.name, connection=context.queue.connection, serializer=JSONSerializer)
    worker = StoppableWorker([queue], connection=context.queue.connection, serializer=JSONSerializer,
                             maintenance_interval=MAINTENANCE_INTERVAL_SECONDS, job_class=AllowListJob,
                             queue_class=_StoppableQueue)
    worker.max_connection_wait_time = REDIS_WAIT_SECONDS
    try:
        worker.work(burst=burst, with_scheduler=True)
    except (redis.ConnectionError, redis.TimeoutError):
        return STOP.is_set()
    return burst or STOP.is_set()


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


def lifetime(settings: Settings) -> Lifetime:
    """POSTMORTEM_SESSION_DAYS and POSTMORTEM_REMINDER_HOURS, for the store's TTL and the reminder sweep."""
    return Lifetime.of(session_days=settings.postmortem_session_days,
                       reminder_hours=settings.postmortem_reminder_hours)
