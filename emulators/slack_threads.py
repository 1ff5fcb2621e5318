"""Threads people wrote, and what a message shortcut needs of the Slack emulator: `conversations.replies` over the
whole thread (paged, with Slack's errors for a channel the bot cannot read and for a deleted message),
`conversations.open`, typing into an open modal, `views.update` keeping what was typed (Slack keeps an input's
value when the new view has the same block_id and action_id), and the `message_action` payload the driver signs.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from emulators.slack_methods import SlackApiError, SlackMethods

if TYPE_CHECKING:  # the emulator mixes this class in
    from emulators.slack_api import SlackEmulator

Result = dict[str, Any]
Params = dict[str, Any]

#: The deleted parent of a thread with replies stays as a tombstone, as in Slack.
TOMBSTONE_TEXT = "This message was deleted."


class SlackThreads(SlackMethods):
    """Mixed into SlackEmulator before SlackMethods: its methods replace and add to the method table."""

    _cond: threading.Condition
    _people: list[dict[str, Any]]
    _unreadable: dict[str, str]
    _typed: dict[str, dict[str, str]]

    def init_threads(self) -> None:
        self._people = []
        self._unreadable = {}
        self._typed = {}

    def method_table(self) -> dict[str, Callable[[Params], Result]]:
        return {**super().method_table(), "conversations.open": self._conversations_open}

    # set-up for tests ---------------------------------------------------------------------------
    def say_as(
        self,
        user: str,
        channel: str,
        text: str,
        *,
        thread_ts: str | None = None,
        attachments: list[dict[str, Any]] | None = None,
        blocks: list[dict[str, Any]] | None = None,
    ) -> str:
        """A person's message in a channel (a thread reply with `thread_ts`), or an app's with `attachments` and
        `blocks` (a forge's "pull request merged"); its ts. Only conversations.replies and the shortcut see these
        (`messages()` stays the app's own)."""
        ts = self.next_ts()
        message: dict[str, Any] = {"channel": channel, "ts": ts, "user": user, "text": text, "thread_ts": thread_ts}
        message["type"] = "message"
        message.update({k: v for k, v in (("attachments", attachments), ("blocks", blocks)) if v})
        with self._cond:
            self._people.append(message)
        return ts

    def delete_message(self, channel: str, ts: str) -> None:
        """Delete a person's message: a reply disappears, a parent becomes a tombstone."""
        with self._cond:
            for message in self._people:
                if message["channel"] == channel and message["ts"] == ts:
                    message.update(deleted=True)

    def make_unreadable(self, channel: str, error: str = "not_in_channel") -> None:
        """The bot cannot read this channel (a private channel it is not in): conversations.replies fails so."""
        with self._cond:
            self._unreadable[channel] = error

    def person_message(self, channel: str, ts: str) -> dict[str, Any] | None:
        with self._cond:
            found = next((m for m in self._people if m["channel"] == channel and m["ts"] == ts), None)
            return dict(found) if found else None

    def type_into(self, view_id: str, block_id: str, value: str) -> None:
        """The person types into an input of an open modal (the view's hash does not change, as in Slack)."""
        with self._cond:
            if view_id not in self._current_views:
                raise KeyError(view_id)
            self._typed.setdefault(view_id, {})[block_id] = value
            self._current_views[view_id]["state"] = _state(self._typed[view_id])

    def shown_value(self, view_id: str, block_id: str) -> str | None:
        """What an input of the modal shows now: what was typed, else the view's initial value."""
        with self._cond:
            typed = self._typed.get(view_id, {})
            if block_id in typed:
                return typed[block_id]
            view = self._current_views.get(view_id) or {}
        block = next((b for b in view.get("blocks", []) if b.get("block_id") == block_id), None)
        value = ((block or {}).get("element") or {}).get("initial_value")
        return value if isinstance(value, str) else None

    # methods ------------------------------------------------------------------------------------
    def _conversations_replies(self, params: Params) -> Result:
        """The thread of `ts`: its parent, then the replies, paged by `limit` and `cursor`."""
        if not params.get("channel") or not params.get("ts"):
            raise SlackApiError("invalid_arguments", ["[ERROR] missing required field: channel or ts"])
        channel, root = str(params["channel"]), str(params["ts"])
        if channel in self._unreadable:
            raise SlackApiError(self._unreadable[channel])
        with_metadata = str(params.get("include_all_metadata")).lower() in ("true", "1")
        thread = self._thread_of(channel, root, with_metadata)
        if not thread:
            raise SlackApiError("thread_not_found")
        if params.get("oldest"):  # from a ts on (`inclusive`: that message too), the parent first as Slack shows it
            inclusive = str(params.get("inclusive")).lower() in ("true", "1")
            oldest = float(params["oldest"])
            later = [m for m in thread[1:] if float(m["ts"]) > oldest or (inclusive and float(m["ts"]) == oldest)]
            thread = thread[:1] + later
        start = int(str(params.get("cursor") or "0") or 0)
        limit = max(1, min(int(params.get("limit") or 1000), 1000))
        page = thread[start : start + limit]
        more = start + limit < len(thread)
        return {
            "messages": page,
            "has_more": more,
            "response_metadata": {"next_cursor": str(start + limit) if more else ""},
        }

    def _thread_of(self, channel: str, root: str, with_metadata: bool) -> list[dict[str, Any]]:
        own = [
            {k: v for k, v in m.items() if k != "metadata" or with_metadata}
            for m in self._messages
            if m["channel"] == channel and (m["ts"] == root or m.get("thread_ts") == root)
        ]
        people = []
        for m in self._people:
            if m["channel"] != channel or not (m["ts"] == root or m.get("thread_ts") == root):
                continue
            if not m.get("deleted"):
                people.append({k: v for k, v in m.items() if k != "deleted" and v is not None})
            elif m["ts"] == root:  # a deleted parent: a tombstone, as long as the thread has replies
                people.append({"type": "message", "subtype": "tombstone", "ts": m["ts"], "text": TOMBSTONE_TEXT})
        thread = sorted([*own, *people], key=lambda m: float(m["ts"]))
        return thread if any(m["ts"] == root for m in thread) else []

    def _conversations_open(self, params: Params) -> Result:
        users = str(params.get("users") or "")
        if not users:
            raise SlackApiError("invalid_arguments", ["[ERROR] missing required field: users"])
        first = users.split(",")[0]
        return {"channel": {"id": f"D{first[1:]}"}}

    def _views_update(self, params: Params) -> Result:
        """As Slack: the hash guards against a stale update; what was typed stays where block and action ids match."""
        view_id = params.get("view_id")
        typed = dict(self._typed.get(str(view_id), {})) if view_id else {}
        result = super()._views_update(params)
        if typed:
            new = params["view"]
            kept = {
                b["block_id"]: typed[b["block_id"]]
                for b in new.get("blocks", [])
                if b.get("block_id") in typed and (b.get("element") or {}).get("action_id") == b["block_id"]
            }
            self._typed[str(view_id)] = kept
            self._current_views[str(view_id)]["state"] = _state(kept)
        return result


def _state(typed: dict[str, str]) -> dict[str, Any]:
    return {"values": {b: {b: {"type": "plain_text_input", "value": v}} for b, v in typed.items()}}


def message_action(
    slack: SlackEmulator,
    *,
    channel_id: str,
    message_ts: str,
    user_id: str,
    api_app_id: str,
    callback_id: str = "postmortem_from_message",
) -> dict[str, Any]:
    """The `message_action` payload Slack sends when a person uses a message shortcut on a message."""
    message = slack.person_message(channel_id, message_ts) or next(
        (m for m in slack.messages(channel=channel_id) if m["ts"] == message_ts), None
    )
    fields = ("ts", "user", "text", "thread_ts", "attachments", "blocks")
    shown = {k: v for k, v in (message or {"ts": message_ts, "text": ""}).items() if k in fields and v is not None}
    return {
        "type": "message_action",
        "token": "legacy-verification-token",
        "action_ts": str(time.time()),
        "team": {"id": slack.team_id, "domain": "emulated"},
        "user": {"id": user_id, "name": user_id.lower(), "username": user_id.lower(), "team_id": slack.team_id},
        "channel": {"id": channel_id, "name": channel_id.lower()},
        "is_enterprise_install": False,
        "enterprise": None,
        "callback_id": callback_id,
        "trigger_id": slack.issue_trigger_id(),
        "response_url": slack.issue_response_url(),
        "message_ts": message_ts,
        "message": {"type": "message", **shown},
        "api_app_id": api_app_id,
    }
