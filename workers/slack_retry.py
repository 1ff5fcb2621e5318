"""Slack Web API calls from workers that ride out Slack's bad moments, within a bounded window.

Inside one call, `SlackRetryHandler` (a slack-sdk retry handler) retries what Slack says is worth trying
again: 429 (honouring `Retry-After` when it fits the window), 5xx, connection errors and timeouts, and the
`ok: false` errors `internal_error`, `fatal_error`, `service_unavailable`, `request_timeout`, which come as
HTTP 200. Past the window the call raises; `step_delay` then tells the job how long to wait before it
reschedules the step through RQ (never a long sleep in the worker): quickly at first, then every few
minutes for about a day, so an outage of any ordinary length loses no step.

A retried `chat.postMessage` after a 5xx, a reset or a timeout may post a message twice: that is the
ambiguous failure after which a duplicate bot message is acceptable; every other step is recorded done
(workers/leases.py `Steps`) and never repeated.
"""

from __future__ import annotations

import random
import socket
import time
from collections.abc import Callable
from http.client import RemoteDisconnected
from urllib.error import HTTPError, URLError

from slack_sdk.errors import SlackApiError
from slack_sdk.http_retry.handler import RetryHandler
from slack_sdk.http_retry.request import HttpRequest
from slack_sdk.http_retry.response import HttpResponse
from slack_sdk.http_retry.state import RetryState

#: `ok: false` errors Slack documents as temporary.
RETRYABLE_ERRORS = frozenset({"internal_error", "fatal_error", "service_unavailable", "request_timeout", "ratelimited"})
#: HTTP statuses worth trying again.
RETRYABLE_STATUSES = frozenset({429, 500, 502, 503, 504})
#: Network failures worth trying again (a reset, a refused or dropped connection, a timeout).
NETWORK_ERRORS: tuple[type[BaseException], ...] = (
    URLError,
    ConnectionError,
    TimeoutError,
    socket.timeout,
    RemoteDisconnected,
)
#: What a Slack call from a worker raises when it gave up: an answer, or no answer at all.
SLACK_FAILURES: tuple[type[BaseException], ...] = (SlackApiError, *NETWORK_ERRORS)
#: The longest `Retry-After` a rescheduled step honours; Slack's own are seconds to a minute.
MAX_RETRY_AFTER_SECONDS = 120.0
#: A step Slack keeps failing is tried again quickly this many times (backoff up to 30 s, a few minutes in
#: all), then every STEP_PAUSE_SECONDS: Slack is out for a while, and the step waits for it.
QUICK_STEP_ATTEMPTS = 10
STEP_PAUSE_SECONDS = 300.0
#: Tries of one step in all, about a day of Slack failing; then the job gives up and says so where it can.
MAX_STEP_ATTEMPTS = QUICK_STEP_ATTEMPTS + int(24 * 3600 / STEP_PAUSE_SECONDS)
#: Its own generator: the jitter never draws from (or disturbs) the process-wide `random` state.
_JITTER = random.Random()


def backoff(attempt: int, *, base: float = 0.5, cap: float = 4.0) -> float:
    """0.5, 1, 2, 4, 4… seconds with a little jitter (zero-origin `attempt`)."""
    return float(min(cap, base * 2**attempt) * (1 + _JITTER.random() / 4))


class SlackRetryHandler(RetryHandler):
    """Retries temporary Slack failures inside one call while they fit in `window` seconds."""

    def __init__(
        self,
        window: float = 15.0,
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        super().__init__(max_retry_count=100)
        self.window, self._clock, self._sleep = window, clock, sleep

    def can_retry(
        self,
        *,
        state: RetryState,
        request: HttpRequest,
        response: HttpResponse | None = None,
        error: Exception | None = None,
    ) -> bool:
        delay = _delay_of(state.current_attempt, response, error)
        if delay is None:
            return False
        values = state.custom_values if state.custom_values is not None else {}
        state.custom_values = values
        started = float(values.setdefault("started", self._clock()))
        if self._clock() - started + delay > self.window:
            return False
        values["delay"] = delay
        return True

    def prepare_for_next_attempt(
        self,
        *,
        state: RetryState,
        request: HttpRequest,
        response: HttpResponse | None = None,
        error: Exception | None = None,
    ) -> None:
        state.next_attempt_requested = True
        self._sleep(float((state.custom_values or {}).get("delay", 0.0)))
        state.increment_current_attempt()


def _delay_of(attempt: int, response: HttpResponse | None, error: Exception | None) -> float | None:
    if response is not None:
        if response.status_code == 429:
            return _retry_after(response.headers.get("retry-after") or response.headers.get("Retry-After"))
        if response.status_code in RETRYABLE_STATUSES:
            return backoff(attempt)
        body = response.body or {}
        if response.status_code == 200 and body.get("ok") is False and body.get("error") in RETRYABLE_ERRORS:
            return backoff(attempt)
        return None
    if error is not None and isinstance(error, NETWORK_ERRORS) and not isinstance(error, HTTPError):
        return backoff(attempt)
    return None


def _retry_after(value: object) -> float:
    raw = value[0] if isinstance(value, list) and value else value
    try:
        return min(MAX_RETRY_AFTER_SECONDS, max(0.0, float(str(raw))))
    except ValueError:
        return 1.0


def failure_name(exc: BaseException) -> str:
    """What a Slack failure is called in a message: Slack's error code, else the network error's kind."""
    if isinstance(exc, SlackApiError):
        return str(exc.response.get("error", "error"))
    return type(exc).__name__


def step_delay(exc: BaseException, attempt: int) -> float | None:
    """Seconds before try `attempt + 1` of a step whose Slack call gave up, or None when trying again cannot
    help (see `retry_delay`) or the step has had its MAX_STEP_ATTEMPTS tries."""
    delay = retry_delay(exc, attempt)
    if delay is None or attempt >= MAX_STEP_ATTEMPTS:
        return None
    return delay if attempt < QUICK_STEP_ATTEMPTS else max(delay, STEP_PAUSE_SECONDS)


def retry_delay(exc: BaseException, attempt: int) -> float | None:
    """After a call gave up: seconds before the step is tried again, or None when trying again cannot help
    (not in the channel, an invalid block…: the job says so instead)."""
    if isinstance(exc, SlackApiError):
        status = exc.response.status_code
        error = exc.response.get("error") if isinstance(exc.response.data, dict) else None
        if status == 429:
            return _retry_after(exc.response.headers.get("retry-after") or exc.response.headers.get("Retry-After"))
        if status in RETRYABLE_STATUSES or error in RETRYABLE_ERRORS:
            return backoff(attempt, base=1.0, cap=30.0)
        return None
    if isinstance(exc, NETWORK_ERRORS):
        return backoff(attempt, base=1.0, cap=30.0)
    return None
