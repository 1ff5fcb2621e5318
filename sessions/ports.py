"""The job queue as handlers and workers both call it, typed here (below both) so either runs on a stand-in.

RQ's `Queue` is the real one; jobs are named by their dotted path, so neither side imports the other's code.
"""

from __future__ import annotations

from typing import Any, Protocol


class QueuedJob(Protocol):
    """What an enqueue returns (RQ's `Job`): only its id is read."""

    @property
    def id(self) -> str: ...


class JobQueue(Protocol):
    """Puts a job on the queue by name, with JSON arguments and RQ's keyword options (sessions/retention.py)."""

    def enqueue(self, name: str, /, *args: Any, **kwargs: Any) -> QueuedJob: ...
