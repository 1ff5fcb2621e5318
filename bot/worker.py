"""Start `worker`: an RQ worker on the bot's queue, with the Jira and Slack gateways, the watchdog, the Home
publisher and the reminder sweep; it rides out a Redis restart without a supervisor."""

from __future__ import annotations

import logging
import time

import redis
from rq import SimpleWorker
from rq.serializers import JSONSerializer

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
        while not _work_once(context, burst=burst):
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
    worker = SimpleWorker([context.queue], connection=context.queue.connection, serializer=JSONSerializer,
                          maintenance_interval=MAINTENANCE_INTERVAL_SECONDS, job_class=AllowListJob)
    worker.max_connection_wait_time = REDIS_WAIT_SECONDS
    try:
        worker.work(burst=burst, with_scheduler=True)
    except (redis.ConnectionError, redis.TimeoutError):
        return False
    # RQ raises StopRequested out of an idle wait on SIGTERM/SIGINT without setting `_stop_requested`; it
    # records the time of the request either way.
    asked = getattr(worker, "_shutdown_requested_date", None) is not None or getattr(worker, "_stop_requested", False)
    return burst or bool(asked)


def _wait_for_redis(conn: redis.Redis) -> None:
    """Block until Redis answers a PING, checking every REDIS_WAIT_SECONDS at most."""
    pause = 0.25
    while True:
        try:
            conn.ping()
            return
        except (redis.ConnectionError, redis.TimeoutError):
            time.sleep(pause)  # waiting for an outside event (Redis back), not for correctness
            pause = min(REDIS_WAIT_SECONDS, pause * 2)


def lifetime(settings: Settings) -> Lifetime:
    """POSTMORTEM_SESSION_DAYS and POSTMORTEM_REMINDER_HOURS, for the store's TTL and the reminder sweep."""
    return Lifetime.of(session_days=settings.postmortem_session_days,
                       reminder_hours=settings.postmortem_reminder_hours)
