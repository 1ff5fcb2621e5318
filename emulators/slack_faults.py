"""Faults the Slack emulator can be told to answer with: the next calls of a method failing (`ratelimited` as a 429
with Retry-After), calls whose parameters contain a needle failing in a given order, or one such call done and
its reply held (a worker killed meanwhile leaves an ambiguous step behind)."""

from __future__ import annotations

import json
import threading
from collections import deque
from typing import Any, NamedTuple

from emulators.http import Response, json_response


class Fault(NamedTuple):
    """A fault for the next call of a method whose parameters contain `needle`: an answer, or a stall."""

    method: str
    needle: str
    response: Response | None
    stall: float | None = None


def error_response(error: str, status: int, retry_after: int | None) -> Response:
    """Slack's `{"ok": false, "error": ...}` with this HTTP status, and Retry-After when given."""
    headers = {"Retry-After": str(retry_after)} if retry_after is not None else {}
    return json_response(status, {"ok": False, "error": error}, headers=headers)


class SlackFaults:
    """The fault queues of SlackEmulator (which sets them up and consults `_take_fault` before each method)."""

    _cond: threading.Condition
    _failures: dict[str, deque[Response]]
    _matching: list[Fault]

    def fail_next(
        self,
        method: str,
        error: str = "ratelimited",
        *,
        status: int | None = None,
        retry_after: int | None = None,
        times: int = 1,
    ) -> None:
        """Make the next `times` calls of `method` fail; `ratelimited` answers 429 with Retry-After."""
        if error == "ratelimited":
            status = status or 429
            retry_after = 1 if retry_after is None else retry_after
        with self._cond:
            for _ in range(times):
                self._failures[method].append(error_response(error, status or 200, retry_after))

    def fail_matching(self, method: str, needle: str, faults: list[tuple[str, int, int | None]]) -> None:
        """Answer the next calls of `method` whose parameters contain `needle` with `faults`, in order:
        each `(error, status, retry_after)`, e.g. `("ratelimited", 429, 1)`, `("service_unavailable", 503,
        None)`, `("internal_error", 200, None)`. Nothing is done for a failed call (as Slack does)."""
        with self._cond:
            for error, status, retry_after in faults:
                self._matching.append(Fault(method, needle, error_response(error, status, retry_after)))

    def stall_matching(self, method: str, needle: str, seconds: float) -> None:
        """Do the next call of `method` whose parameters contain `needle`, then hold its reply `seconds` or
        until `release()` (a worker killed meanwhile leaves an ambiguous step behind)."""
        with self._cond:
            self._matching.append(Fault(method, needle, None, seconds))

    def _take_fault(self, method: str, params: dict[str, Any]) -> Fault | None:
        """The fault for this call, taken off its queue: a `fail_next` first, then the first matching one."""
        if self._failures.get(method):
            return Fault(method, "", self._failures[method].popleft())
        if not self._matching:
            return None
        text = json.dumps(params, ensure_ascii=False, default=str)
        fault = next((f for f in self._matching if f.method == method and f.needle in text), None)
        if fault is not None:
            self._matching.remove(fault)
        return fault
