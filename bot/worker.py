"""Start `worker`: an RQ worker on the bot's queue, with the Jira and Slack gateways and the watchdog."""

from __future__ import annotations

from rq import SimpleWorker
from rq.serializers import JSONSerializer

from bot.app import handoff_queue, job_queue
from bot.settings import Settings
from postmortem.lifetime import Lifetime
from postmortem.store import SessionStore, connect
from workers import home, reminders, watchdog
from workers.allowed import AllowListJob
from workers.context import WorkerContext, install
from workers.jira_gateway import JiraGateway
from workers.slack_gateway import SlackGateway, slack_client

#: How often the worker looks for jobs whose worker died (RQ's default is 600 s; a post must not wait that).
MAINTENANCE_INTERVAL_SECONDS = 30


def worker_context(settings: Settings) -> WorkerContext:
    """The worker's edges, built from Settings."""
    conn = connect(settings.redis_url, timeout=5.0)
    slack = SlackGateway(slack_client(settings.slack_bot_token.get_secret_value(), settings.slack_api_url))
    jira = JiraGateway(settings.jira_url, settings.jira_email, settings.jira_api_token.get_secret_value(),
                       timeout=settings.jira_timeout)
    store = SessionStore(conn, ttl_seconds=lifetime(settings).store_ttl)
    return WorkerContext(store=store, slack=slack, jira=jira, queue=job_queue(conn),
                         handoff_queue=handoff_queue(conn),
                         permission_check=settings.postmortem_jira_permission_check == "on",
                         jira_visibility=settings.postmortem_jira_visibility, jira_url=settings.jira_url)


def work(settings: Settings, *, burst: bool = False) -> None:
    """Run an RQ worker (with its scheduler, for delayed retries) on the bot's queue."""
    context = worker_context(settings)
    install(context)
    # SimpleWorker runs jobs in this process: no fork per job (approval → POST p50 went from ~77 to ~30 ms),
    # and the context's connections are reused. A crash of a job's process is a crash of the worker, which
    # the watchdog of any other (or the restarted) worker covers.
    # AllowListJob: only the bot's own job functions run, whatever a job in Redis names (workers/allowed.py).
    worker = SimpleWorker([context.queue], connection=context.queue.connection, serializer=JSONSerializer,
                          maintenance_interval=MAINTENANCE_INTERVAL_SECONDS, job_class=AllowListJob)
    stop = watchdog.start(context, interval=settings.postmortem_watchdog_seconds)
    publisher = home.HomePublisher(context.store, context.slack.client, approvers=settings.postmortem_approvers,
                                   default_lang=settings.postmortem_lang)
    stops = [stop, home.start(publisher),
             reminders.start(context, lifetime(settings), interval=settings.postmortem_watchdog_seconds)]
    try:
        worker.work(burst=burst, with_scheduler=True)
    finally:
        for event in stops:
            event.set()


def lifetime(settings: Settings) -> Lifetime:
    """POSTMORTEM_SESSION_DAYS and POSTMORTEM_REMINDER_HOURS, for the store's TTL and the reminder sweep."""
    return Lifetime.of(session_days=settings.postmortem_session_days,
                       reminder_hours=settings.postmortem_reminder_hours)
