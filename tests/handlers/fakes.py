"""A hand-written stand-in for the RQ queue the listeners enqueue on: it records every call."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Enqueued:
    """One `queue.enqueue(name, *args, **kwargs)` call."""

    name: str
    args: tuple[Any, ...]
    kwargs: dict[str, Any]
    id: str = ""


@dataclass
class FakeQueue:
    """Records `enqueue` calls in order; returns the record (it has an `id`, as an RQ Job does)."""

    calls: list[Enqueued] = field(default_factory=list)

    def enqueue(self, name: str, /, *args: Any, **kwargs: Any) -> Enqueued:
        call = Enqueued(name, args, kwargs, id=f"job-{len(self.calls) + 1}")
        self.calls.append(call)
        return call

    def named(self, name: str) -> list[Enqueued]:
        """The calls of one job, by its short name (`advance`) or full name (`workers.jobs.advance`)."""
        return [c for c in self.calls if c.name in (name, f"workers.jobs.{name}")]

    def effects(self) -> list[dict[str, Any]]:
        """Every effect of every `perform` job, in order."""
        return [e for c in self.named("perform") for e in c.args[1]]
