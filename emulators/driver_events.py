"""The Events API half of the Slack driver: `event_callback` envelopes (with Slack's retry headers), `message`,
`app_mention` and `app_home_opened` events, and the `url_verification` handshake."""

from __future__ import annotations

import time
import uuid
from typing import Any, TypedDict, Unpack

import requests

from emulators.driver_transport import SignedTransport


class Placement(TypedDict, total=False):
    """Where a `message` or `app_mention` event stands and how it is delivered: its `ts` (the emulator's next by
    default), the thread it replies in, the event_id, and Slack's retry number and reason for a redelivery."""

    ts: str | None
    thread_ts: str | None
    event_id: str | None
    retry_num: int | None
    retry_reason: str


class SlackEvents(SignedTransport):
    """Events as Slack sends them; message timestamps come from the SlackEmulator unless given."""

    def event(
        self,
        event: dict[str, Any],
        *,
        event_id: str | None = None,
        retry_num: int | None = None,
        retry_reason: str = "http_timeout",
    ) -> requests.Response:
        """Wrap an event in an `event_callback` envelope; a retry repeats the event_id with retry headers."""
        payload = {
            "token": "legacy-verification-token",
            "team_id": self.slack.team_id,
            "api_app_id": self.api_app_id,
            "event": event,
            "type": "event_callback",
            "event_id": event_id or f"Ev{uuid.uuid4().hex[:12].upper()}",  # unique like Slack's
            "event_time": int(time.time()),
            "is_ext_shared_channel": False,
            "authorizations": [
                {
                    "enterprise_id": None,
                    "team_id": self.slack.team_id,
                    "user_id": self.slack.bot_user_id,
                    "is_bot": True,
                    "is_enterprise_install": False,
                }
            ],
            "event_context": f"4-emulated-{next(self._ids)}",
        }
        headers = (
            {"X-Slack-Retry-Num": str(retry_num), "X-Slack-Retry-Reason": retry_reason} if retry_num is not None else {}
        )
        return self._json(payload, headers)

    def _channel_event(self, kind: str, text: str, user: str, channel: str, where: Placement) -> dict[str, Any]:
        """A `message` or `app_mention` event in a channel (a thread reply when `thread_ts` is set)."""
        ts = where.get("ts") or self.slack.next_ts()
        event: dict[str, Any] = {
            "type": kind,
            "text": text,
            "user": user,
            "ts": ts,
            "channel": channel,
            "event_ts": ts,
            "team": self.slack.team_id,
        }
        if thread_ts := where.get("thread_ts"):
            event["thread_ts"] = thread_ts
        return event

    def _deliver_event(self, event: dict[str, Any], where: Placement) -> requests.Response:
        retry_reason = where.get("retry_reason") or "http_timeout"
        return self.event(
            event, event_id=where.get("event_id"), retry_num=where.get("retry_num"), retry_reason=retry_reason
        )

    def message(
        self,
        text: str,
        user: str = "U1",
        channel: str = "C1",
        *,
        subtype: str | None = None,
        bot_id: str | None = None,
        channel_type: str = "channel",
        **where: Unpack[Placement],
    ) -> requests.Response:
        """A `message` event (a thread reply when `thread_ts` is set); ts comes from the emulator unless given."""
        event = self._channel_event("message", text, user, channel, where)
        event["channel_type"] = channel_type
        if "thread_ts" in event:
            parent = next((m for m in self.slack.messages(channel=channel) if m["ts"] == event["thread_ts"]), None)
            if parent is not None:  # Slack names who posted a reply's parent (here: only the app's are known)
                event["parent_user_id"] = parent["user"]
        if subtype:
            event["subtype"] = subtype
        if bot_id:
            event["bot_id"] = bot_id
        return self._deliver_event(event, where)

    def app_mention(
        self, text: str, user: str = "U1", channel: str = "C1", **where: Unpack[Placement]
    ) -> requests.Response:
        """An `app_mention` event; the text gets the bot's mention prefix unless it already has one."""
        mention = f"<@{self.slack.bot_user_id}>"
        shown = text if mention in text else f"{mention} {text}"
        return self._deliver_event(self._channel_event("app_mention", shown, user, channel, where), where)

    def app_home_opened(self, user: str = "U1", *, tab: str = "home", event_id: str | None = None) -> requests.Response:
        """The person opened the app's Home tab (or its Messages tab, `tab="messages"`)."""
        ts = self.slack.next_ts()
        event = {"type": "app_home_opened", "user": user, "channel": f"D{user[1:]}", "tab": tab, "event_ts": ts}
        return self.event(event, event_id=event_id)

    def url_verification(self, challenge: str = "emulated-challenge") -> requests.Response:
        """The handshake Slack sends when the Request URL is saved."""
        return self._json({"token": "legacy-verification-token", "challenge": challenge, "type": "url_verification"})
