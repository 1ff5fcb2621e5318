"""The only functions the worker runs: RQ imports and calls whatever a job in Redis names, so without this
list, write access to Redis would be running any Python function (`os.system`) on the worker.

Add a new job here when you add it to `workers/`; a job naming anything else fails without running.
"""

from __future__ import annotations

import logging
from typing import Any

from rq.job import Job

log = logging.getLogger(__name__)

#: Every job function the bot enqueues (handlers, the watchdog, the retries of a post), by dotted name.
ALLOWED_JOBS: frozenset[str] = frozenset(
    {
        "workers.jobs.perform",
        "workers.jobs.advance",
        "workers.jobs.edit_ticket",
        "workers.jobs.render",
        "workers.jobs.post_comment",
        "workers.jobs.remove_duplicates",
        "workers.jobs.remove_followup_duplicates",
        "workers.jobs.handoff",
        "workers.jobs.session_gone",
        "workers.offers.start_reply",
        "workers.offers.mention_help",
        "workers.offers.offer_ephemeral",
        "workers.offers.offer_assignee",
        "workers.jobs.prefill_modal",
    }
)


class JobRefused(Exception):
    """A job named a function outside ALLOWED_JOBS: it is failed, and nothing is imported or run."""


class AllowListJob(Job):
    """An RQ job that resolves only allowed functions, and never a callback (the bot sets none)."""

    @property
    def func(self) -> Any:
        name = self.func_name
        if self.instance is not None or name not in ALLOWED_JOBS:
            log.error("refused job %s: %r is not an allowed job function", self.id, name)
            raise JobRefused(f"{name!r} is not an allowed job function")
        return super().func

    @property
    def success_callback(self) -> Any:
        return self._no_callback("success")

    @property
    def failure_callback(self) -> Any:
        return self._no_callback("failure")

    @property
    def stopped_callback(self) -> Any:
        return self._no_callback("stopped")

    def _no_callback(self, kind: str) -> None:
        name = getattr(self, f"_{kind}_callback_name", None)
        if name:
            log.error("ignored the %s callback %r of job %s: the bot runs no callbacks", kind, name, self.id)
        return None
