"""Jira's failures in the bot's words: `JiraError` (plain, retryable or not, said in a session's language) and
`error_for`, the one mapping of an HTTP answer to it (workers/jira_gateway.py `JiraGateway.call` raises what it
gives)."""

from __future__ import annotations

from collections.abc import Mapping

import requests

from postmortem.messages import say
from postmortem.model import Lang


class JiraError(Exception):
    """A Jira failure said in plain words; `retryable` when trying again later may succeed, and
    `retry_after` when Jira said how long to wait (429 Retry-After). `ambiguous` when Jira may have done
    the work anyway (a timeout, a reset connection, a 5xx): a POST that failed so may still be stored.
    `str()` is English (logs); `text(lang)` says it in a session's language when it comes from the
    catalogue (`key`, `params`)."""

    def __init__(
        self,
        message: str,
        *,
        status: int | None = None,
        retryable: bool = False,
        retry_after: float | None = None,
        ambiguous: bool = False,
        key: str | None = None,
        params: Mapping[str, object] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.retryable = retryable or retry_after is not None or ambiguous
        self.retry_after = retry_after
        self.ambiguous = ambiguous
        self.key, self.params = key, dict(params or {})

    @classmethod
    def of(
        cls,
        key: str,
        *,
        status: int | None = None,
        retryable: bool = False,
        retry_after: float | None = None,
        ambiguous: bool = False,
        **params: object,
    ) -> JiraError:
        """The error of a catalogue message (postmortem/messages.py); its text may name the `status`."""
        named = {"status": status, **params}
        return cls(
            say(key, "en", **named),
            status=status,
            retryable=retryable,
            retry_after=retry_after,
            ambiguous=ambiguous,
            key=key,
            params=named,
        )

    def text(self, lang: Lang) -> str:
        """The sentence for a thread in `lang`."""
        return say(self.key, lang, **self.params) if self.key else str(self)


def error_for(response: requests.Response) -> JiraError:
    status = response.status_code
    detail = _jira_messages(response)
    if status == 401:
        return JiraError.of("jira_credentials", status=401)
    if status == 403:
        return JiraError.of("jira_forbidden", status=403)
    if status == 404:
        return JiraError.of("jira_not_found", status=404)
    if status == 429:
        retry_after = _seconds(response.headers.get("Retry-After"), default=10.0)
        return JiraError.of("jira_rate_limited", status=429, retry_after=retry_after, seconds=retry_after)
    if status >= 500:
        return JiraError.of("jira_server_error", status=status, ambiguous=True)
    if status == 400 and _refuses_properties(response):  # never posted without the marker: said plainly
        return JiraError.of("jira_properties_refused", status=400, detail=detail)
    if detail:
        return JiraError.of("jira_rejected", status=status, detail=detail)
    return JiraError.of("jira_rejected_no_reason", status=status)


def _refuses_properties(response: requests.Response) -> bool:
    """A 400 naming the comment's `properties` (a site that does not take them): Jira puts it under `errors`."""
    try:
        payload = response.json()
    except ValueError:
        return False
    errors = payload.get("errors") if isinstance(payload, dict) else None
    return isinstance(errors, dict) and "properties" in errors


def _jira_messages(response: requests.Response) -> str:
    try:
        payload = response.json()
    except ValueError:
        return ""
    if not isinstance(payload, dict):
        return ""
    messages = [str(m) for m in payload.get("errorMessages", [])]
    errors = payload.get("errors")
    if isinstance(errors, dict):
        messages += [f"{k}: {v}" for k, v in errors.items()]
    return "; ".join(messages)[:500]


def _seconds(value: str | None, *, default: float) -> float:
    try:
        return max(0.0, float(value)) if value is not None else default
    except ValueError:
        return default
