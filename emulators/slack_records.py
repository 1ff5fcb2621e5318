"""What the Slack emulator recorded, as tests read it: every Web API call, the app's messages, ephemerals, files,
views and Home tabs, the bodies POSTed to response_urls, and a one-line-a-call dump. Copies, read under the lock."""

from __future__ import annotations

import threading
from typing import Any, NamedTuple


class SlackCall(NamedTuple):
    """One Web API call: the method name and its merged query/body parameters."""

    method: str
    params: dict[str, Any]


class SlackRecords:
    """The inspection half of SlackEmulator (which sets these up and records into them)."""

    _cond: threading.Condition
    _calls: list[SlackCall]
    _log: list[str]
    _messages: list[dict[str, Any]]
    _ephemerals: list[dict[str, Any]]
    _files: list[dict[str, Any]]
    _views: list[dict[str, Any]]
    _current_views: dict[str, dict[str, Any]]
    _homes: dict[str, dict[str, Any]]
    _responses: list[dict[str, Any]]

    @property
    def calls(self) -> list[SlackCall]:
        """Every Web API call received, in order, failed ones included."""
        with self._cond:
            return list(self._calls)

    def calls_to(self, method: str) -> list[dict[str, Any]]:
        """The parameters of every call of one method."""
        return [c.params for c in self.calls if c.method == method]

    def messages(self, channel: str | None = None, thread_ts: str | None = None) -> list[dict[str, Any]]:
        """Messages the app posted (current content); `thread_ts` selects the replies of one thread."""
        return self._select(self._messages, channel, thread_ts)

    def ephemerals(
        self, channel: str | None = None, thread_ts: str | None = None, user: str | None = None
    ) -> list[dict[str, Any]]:
        """Ephemeral messages the app posted."""
        found = self._select(self._ephemerals, channel, thread_ts)
        return [m for m in found if user is None or m["user"] == user]

    def files(self, channel: str | None = None, thread_ts: str | None = None) -> list[dict[str, Any]]:
        """Completed uploads: id, name, title, bytes, channel, thread_ts, initial_comment."""
        return self._select(self._files, channel, thread_ts)

    @property
    def views(self) -> list[dict[str, Any]]:
        """Every accepted views.open / update / push as {"action", "view", "trigger_id"}."""
        with self._cond:
            return [dict(v) for v in self._views]

    def current_view(self, view_id: str | None = None) -> dict[str, Any] | None:
        """The latest state of one view (default: the last one opened, pushed or updated)."""
        with self._cond:
            if view_id is None:
                return dict(self._views[-1]["view"]) if self._views else None
            view = self._current_views.get(view_id)
            return dict(view) if view else None

    def home_view(self, user: str) -> dict[str, Any] | None:
        """The Home tab view last published for a user (views.publish), if any."""
        with self._cond:
            view = self._homes.get(user)
            return dict(view) if view else None

    @property
    def responses(self) -> list[dict[str, Any]]:
        """Bodies POSTed to response_urls issued by this emulator."""
        with self._cond:
            return list(self._responses)

    def dump(self) -> str:
        """Every call with its answer, one a line."""
        with self._cond:
            return "\n".join(self._log) or "(no calls)"

    def _select(self, items: list[dict[str, Any]], channel: str | None, thread_ts: str | None) -> list[dict[str, Any]]:
        with self._cond:
            return [
                dict(m)
                for m in items
                if (channel is None or m["channel"] == channel)
                and (thread_ts is None or m.get("thread_ts") == thread_ts)
            ]
