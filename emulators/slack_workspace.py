"""What every part of the Slack emulator's methods shares: the workspace state they read and write (declared here,
set up by SlackEmulator), Slack's error answer, argument checks, ids and message timestamps.

The methods are mixins over this base, one a concern: chat and files (slack_chat.py), views (slack_views.py), and
auth, users and conversations with the method table (slack_methods.py).
"""

from __future__ import annotations

import threading
from typing import Any

from emulators import slack_limits as limits

Result = dict[str, Any]
Params = dict[str, Any]


class SlackApiError(Exception):
    """Raised inside a method to answer `{"ok": false, "error": ...}`."""

    def __init__(self, error: str, messages: list[str] | None = None) -> None:
        super().__init__(error)
        self.error, self.messages = error, messages or []


def truthy(value: Any) -> bool:
    return value in (True, 1, "1", "true", "True")


def require(params: Params, *names: str) -> None:
    """Slack's `invalid_arguments` for the first required argument missing or empty."""
    for name in names:
        if params.get(name) in (None, ""):
            raise SlackApiError("invalid_arguments", [f"[ERROR] missing required field: {name}"])


def check(failure: limits.Failure | None) -> None:
    """Raise the error a limit check found, if any."""
    if failure is not None:
        raise SlackApiError(*failure)


class SlackWorkspace:
    """The emulator's in-memory workspace; methods are called by SlackEmulator with its lock held."""

    _cond: threading.Condition
    origin: str
    bot_token: str
    team_id: str
    bot_user_id: str
    bot_id: str
    trigger_ttl: float
    _counter: int
    _messages: list[dict[str, Any]]
    _ephemerals: list[dict[str, Any]]
    _files: list[dict[str, Any]]
    _uploads: dict[str, dict[str, Any]]
    _views: list[dict[str, Any]]
    _current_views: dict[str, dict[str, Any]]
    _homes: dict[str, dict[str, Any]]
    _triggers: dict[str, float]
    _used_triggers: set[str]
    _users: dict[str, dict[str, Any]]

    def _next(self) -> int:
        with self._cond:
            self._counter += 1
            return self._counter

    def next_ts(self) -> str:
        """A message timestamp, unique and increasing across everything this workspace posts."""
        micros = self._next() * 100
        return f"{1_700_000_000 + micros // 1_000_000}.{micros % 1_000_000:06d}"
