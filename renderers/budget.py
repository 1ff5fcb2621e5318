"""A render's time budget: the renderers' loops check one deadline, so a render that runs too long stops with
the field it was reading named, and the process that asked for it (a worker) carries on.

A deadline checked inside the loops, not a thread or a child process: the worker runs jobs in its own process
(RQ's SimpleWorker), a Python thread cannot be stopped from outside, and a child process would have to send
the whole document back. Every loop in the renderers is bounded by its input anyway; the deadline is what
holds if one is not. Outside `render_budget` a check costs one context-variable read.
"""

from __future__ import annotations

import contextlib
import contextvars
import dataclasses
import functools
import gc
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import ParamSpec, TypeVar

_P = ParamSpec("_P")
_R = TypeVar("_R")


class RenderTooSlow(RuntimeError):
    """A render ran past its budget; `field` names what it was reading (a DESIGN §2 path), when known."""

    def __init__(self, seconds: float, field: str | None) -> None:
        self.seconds = seconds
        self.field = field
        super().__init__(f"rendering took more than {seconds:g} s" + (f" (in {field})" if field else ""))


@dataclass
class _Budget:
    seconds: float
    deadline: float
    field: str | None = None
    names: dict[str, str] = dataclasses.field(default_factory=dict)  # a field's text → its path


_BUDGET: contextvars.ContextVar[_Budget | None] = contextvars.ContextVar("render_budget", default=None)


@contextlib.contextmanager
def render_budget(seconds: float) -> Iterator[None]:
    """Renders inside this block raise RenderTooSlow once `seconds` of CPU time have passed."""
    token = _BUDGET.set(_Budget(seconds, time.process_time() + seconds))
    try:
        yield
    finally:
        _BUDGET.reset(token)


@contextlib.contextmanager
def naming(names: dict[str, str]) -> Iterator[None]:
    """Within the block, a render that runs out of time while reading one of these texts names its field."""
    budget = _BUDGET.get()
    if budget is None:
        yield
        return
    before, budget.names = budget.names, names
    try:
        yield
    finally:
        budget.names = before


@contextlib.contextmanager
def reading(text: str) -> Iterator[None]:
    """Mark `text` as being read (the text rule calls this), so a render out of time names its field."""
    budget = _BUDGET.get()
    name = budget.names.get(text) if budget is not None else None
    if budget is None or name is None:
        yield
        return
    before, budget.field = budget.field, name
    try:
        yield
    finally:
        budget.field = before


def check() -> None:
    """Raise RenderTooSlow when the render in progress is past its deadline (no-op outside a budget)."""
    budget = _BUDGET.get()
    if budget is not None and time.process_time() > budget.deadline:
        raise RenderTooSlow(budget.seconds, budget.field)


def current_field() -> str | None:
    """The field being read, if any."""
    budget = _BUDGET.get()
    return budget.field if budget is not None else None


def gc_paused(render: Callable[_P, _R]) -> Callable[_P, _R]:
    """`render` with Python's cycle collector paused while it runs (and restored after, if it was on).

    A render makes many small objects (events, spans, nodes) that live until it ends and hold no cycles, so a
    collection during it finds nothing and only walks them again: on 100 kB in every field that was a fifth of
    the time. What a render leaves for the collector is collected afterwards, as usual.
    """

    @functools.wraps(render)
    def paused(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        if not gc.isenabled():
            return render(*args, **kwargs)
        gc.disable()
        try:
            return render(*args, **kwargs)
        finally:
            gc.enable()

    return paused
