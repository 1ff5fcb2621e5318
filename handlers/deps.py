"""What the Slack listeners need, built by `bot` and passed in: the store, the job queue, who may approve."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import redis
from pydantic import SecretStr

from postmortem.model import Lang
from sessions.ports import JobQueue, QueuedJob
from sessions.retention import job_options
from sessions.store import SessionStore

#: How long a Slack event id is remembered, so Slack's retries of one event are handled once.
EVENT_DEDUP_SECONDS = 3600


@dataclass(frozen=True)
class Deps:
    """The listeners' edges; jobs are enqueued by name so handlers never import workers."""

    store: SessionStore
    queue: JobQueue
    approvers: frozenset[str] = frozenset()
    default_lang: Lang | None = None
    #: POSTMORTEM_OFFERS / POSTMORTEM_OFFER_CHANNELS: unasked offers, and where (empty = every channel).
    offers_enabled: bool = True
    offer_channels: frozenset[str] = frozenset()
    #: JIRA_WEBHOOK_SECRET; without one every webhook is refused (an unauthenticated endpoint is not run).
    jira_webhook_secret: SecretStr | None = None
    #: The connection of the store, for the small indexes of handlers/mentions.py (ticket → session, keys seen).
    redis: redis.Redis | None = None
    #: POSTMORTEM_APPROVAL: `reviewer` means an approver other than the requester must approve.
    approval: str = "requester"
    #: POSTMORTEM_JIRA_ISSUE_TYPES (names or ids) and POSTMORTEM_OFFER_FALLBACK_CHANNEL: the Jira offer (f-home).
    jira_issue_types: frozenset[str] = frozenset({"Bug", "バグ"})
    offer_fallback_channel: str | None = None

    def enqueue(self, job: str, *args: Any, **options: Any) -> QueuedJob:
        """Put `workers.jobs.<job>` on the bot's queue with JSON arguments (kept no longer than a session)."""
        return self.queue.enqueue(f"workers.jobs.{job}", *args, **{**job_options(), **options})

    def enqueue_offer(self, job: str, *args: Any) -> QueuedJob:
        """Put `workers.offers.<job>` on the bot's queue (the ways in other than the command)."""
        return self.queue.enqueue(f"workers.offers.{job}", *args, **job_options())
