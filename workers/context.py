"""What RQ jobs need (store, gateways, queues), built once by the worker's entry point and installed here.

RQ calls job functions by name, so they cannot take these as arguments; `bot` builds the context from
Settings at start-up and installs it before the worker runs (never at import).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING, Any, Protocol

from sessions.ports import JobQueue, QueuedJob
from sessions.retention import job_options
from sessions.session import Session
from sessions.store import SessionStore

if TYPE_CHECKING:  # `serve` imports the queue names from here, and must not import the Jira client
    from workers.jira_gateway import PostedComment
    from workers.slack_gateway import Message

#: Queue names: the bot's own jobs, and the companion service's (the leadership rewrite hand-off).
QUEUE_NAME = "postmortem"
HANDOFF_QUEUE_NAME = "management-talk"


class SchedulingJobQueue(JobQueue, Protocol):
    """The bot's own queue, which can also run a job later (RQ's scheduler): retries and waits, never a sleep."""

    def enqueue_in(self, delay: timedelta, name: str, /, *args: Any, **kwargs: Any) -> QueuedJob: ...


class SlackPort(Protocol):
    """The Slack calls jobs make (workers/slack_gateway.py is the real one)."""

    def post(self, channel: str, message: Message, *, thread_ts: str | None = None) -> str: ...

    def ephemeral(self, channel: str, user: str, message: Message, *, thread_ts: str | None = None) -> None: ...

    def upload(self, channel: str, thread_ts: str | None, *, filename: str, content: bytes, title: str) -> None: ...

    def permalink(self, channel: str, message_ts: str) -> str | None: ...

    def is_session_parent(self, channel: str, ts: str) -> bool: ...

    def user_name(self, user: str) -> str: ...

    def user_locale(self, user: str) -> str | None: ...

    def user_email(self, user: str) -> str | None: ...

    def lookup_user_by_email(self, email: str) -> str | None: ...

    def dm(self, user: str, message: Message) -> str: ...


class JiraPort(Protocol):
    """The Jira calls jobs make (workers/jira_gateway.py is the real one)."""

    def issue_exists(self, ticket: str) -> bool: ...

    def user_email(self, account_id: str) -> str | None: ...

    def may_comment(self, ticket: str, email: str) -> bool: ...

    def find_own_comment(self, ticket: str, *, session: str, version: int) -> PostedComment | None: ...

    def own_comments(self, ticket: str, *, session: str, version: int) -> list[PostedComment]: ...

    def delete_comment(self, ticket: str, comment_id: str) -> None: ...

    def post_comment(self, ticket: str, body: bytes) -> PostedComment: ...


@dataclass(frozen=True)
class Policy:
    """Timings of recovery (bot/settings.py): the quiet period after an ambiguous POST before a search is
    trusted, the longest Retry-After waited for, the lifetime of a worker's heartbeat-renewed locks, and the
    Retry-After past which a session waits in `failed` (where Cancel and Retry work) instead of `posting`."""

    quiet_seconds: float = 30.0
    retry_after_cap: float = 300.0
    lease_seconds: float = 3.0
    wait_visibly_after: float = 10.0


@dataclass(frozen=True)
class WorkerContext:
    """The side-effect edges a job talks to."""

    store: SessionStore
    slack: SlackPort
    jira: JiraPort
    queue: SchedulingJobQueue
    handoff_queue: JobQueue
    #: POSTMORTEM_JIRA_PERMISSION_CHECK=on: who approves must be a Jira user who may comment (workers/permissions.py).
    permission_check: bool = False
    jira_visibility: str | None = None  # POSTMORTEM_JIRA_VISIBILITY, checked at start-up
    jira_url: str | None = None  # JIRA_URL: Jira keys in the draft link to <JIRA_URL>/browse/<KEY>
    #: JIRA_DEPLOYMENT as configured or found at start-up: `datacenter` drafts the REST v2 wiki-markup body.
    jira_deployment: str = "cloud"
    policy: Policy = Policy()
    #: POSTMORTEM_FOLLOWUP_ISSUE_TYPE: the issue type of follow-up issues (workers/followups.py).
    followup_issue_type: str = "Task"

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
