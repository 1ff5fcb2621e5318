"""What the Slack listeners need, built by `bot` and passed in: the store, the job queue, who may approve."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rq import Queue
from rq.job import Job

from postmortem.model import Lang
from postmortem.store import SessionStore

#: How long a Slack event id is remembered, so Slack's retries of one event are handled once.
EVENT_DEDUP_SECONDS = 3600


@dataclass(frozen=True)
class Deps:
    """The listeners' edges; jobs are enqueued by name so handlers never import workers."""

    store: SessionStore
    queue: Queue
    approvers: frozenset[str] = frozenset()
    default_lang: Lang | None = None

    def enqueue(self, job: str, *args: Any, **options: Any) -> Job:
        """Put `workers.jobs.<job>` on the bot's queue with JSON arguments."""
        return self.queue.enqueue(f"workers.jobs.{job}", *args, **options)
