"""What RQ jobs need (store, gateways, queues), built once by the worker's entry point and installed here.

RQ calls job functions by name, so they cannot take these as arguments; `bot` builds the context from
Settings at start-up and installs it before the worker runs (never at import).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from rq import Queue

from sessions.retention import job_options
from sessions.session import Session
from sessions.store import SessionStore

if TYPE_CHECKING:  # `serve` imports the queue names from here, and must not import the Jira client
    from workers.jira_gateway import JiraGateway
    from workers.slack_gateway import SlackGateway

#: Queue names: the bot's own jobs, and the companion service's (the leadership rewrite hand-off).
QUEUE_NAME = "postmortem"
HANDOFF_QUEUE_NAME = "management-talk"


@dataclass(frozen=True)
class Policy:
    """Timings of recovery (bot/settings.py): the quiet period after an ambiguous POST before a search is
    trusted, the longest Retry-After waited for, the lifetime of a worker's heartbeat-renewed locks, and the
    Retry-After past which a session waits in `failed` (where Cancel and Retry work) instead of `posting`."""

    quiet_seconds: float = 30.0
    retry_after_cap: float = 300.0
    lease_seconds: float = 6.0
    wait_visibly_after: float = 10.0


@dataclass(frozen=True)
class WorkerContext:
    """The side-effect edges a job talks to."""

    store: SessionStore
    slack: SlackGateway
    jira: JiraGateway
    queue: Queue
    handoff_queue: Queue
    #: POSTMORTEM_JIRA_PERMISSION_CHECK=on: who approves must be a Jira user who may comment (workers/permissions.py).
    permission_check: bool = False
    jira_visibility: str | None = None  # POSTMORTEM_JIRA_VISIBILITY, checked at start-up
    jira_url: str | None = None  # JIRA_URL: Jira keys in the draft link to <JIRA_URL>/browse/<KEY>
    policy: Policy = Policy()

    def say(self, session: Session, message: dict[str, Any]) -> str:
        """Post `message` in the session's thread; its ts."""
        return self.slack.post(session.channel, message, thread_ts=session.thread_ts)

    def later(self, delay: float, job: str, *args: Any, mark: str | None = None) -> None:
        """Run `workers.jobs.<job>(*args)` after `delay` seconds through RQ's scheduler (never a sleep in a job).

        `mark` names a claim held until the run is due (and a little longer), so the watchdog does not start
        the same work again meanwhile (sessions/claims.py `*_scheduled_claim`)."""
        delay = max(0.0, delay)
        if mark is not None:
            self.store.note(mark, "1", int(delay + 2 * self.policy.lease_seconds) + 5)
        self.queue.enqueue_in(timedelta(seconds=delay), f"workers.jobs.{job}", *args, **job_options())


_installed: list[WorkerContext] = []


def install(context: WorkerContext) -> None:
    """Make `context` the one jobs use in this process."""
    _installed[:] = [context]


def current() -> WorkerContext:
    """The installed context; a job run without one is a wiring bug, said plainly."""
    if not _installed:
        raise RuntimeError("no WorkerContext installed: start workers with `postmortem-bot worker`")
    return _installed[0]
