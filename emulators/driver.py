"""Drive the bot's POST /slack/events as Slack does: signed slash commands, interactivity and events.

Payloads follow the shapes Slack sends (form-encoded commands, `payload=<json>` interactivity, JSON
Events API callbacks); trigger_ids and message timestamps come from the SlackEmulator so that
views.open and thread replies line up with what the emulator recorded.
"""

from __future__ import annotations

import itertools
import json
import time
import uuid
from typing import Any
from urllib.parse import urlencode

import requests
from slack_sdk.signature import SignatureVerifier

from emulators.slack_api import SlackEmulator

#: DESIGN §2 fields that the modal shows as static selects and as checkboxes; the scope flags share one
#: checkbox block.
SELECT_FIELDS = ("repro_rate", "why_missed_category", "destination", "lang")
CHECKBOX_FIELDS = ("validation_kinds",)
SCOPE_FLAGS = ("customer_impacting", "trivial")


def _action_items_text(items: Any) -> str:
    """One item a line as `what | owner | tracking`, the modal's convention."""
    if isinstance(items, str):
        return items
    lines = []
    for item in items:
        if isinstance(item, dict):
            lines.append(" | ".join(str(item.get(k) or "") for k in ("what", "owner", "tracking")))
        else:
            lines.append(str(item))
    return "\n".join(lines)


def modal_values(fields: dict[str, Any]) -> dict[str, dict[str, dict[str, Any]]]:
    """DESIGN §2 fields → `view.state.values` as Slack shapes them (block_id == action_id == field)."""
    values: dict[str, dict[str, dict[str, Any]]] = {}
    scope: list[str] | None = None
    for name, value in fields.items():
        if name in SCOPE_FLAGS:
            scope = (scope or []) + ([name] if value else [])
        elif name == "scope":
            scope = (scope or []) + list(value)
        elif name in SELECT_FIELDS:
            option = (
                None if value is None else {"text": {"type": "plain_text", "text": str(value)}, "value": str(value)}
            )
            values[name] = {name: {"type": "static_select", "selected_option": option}}
        elif name in CHECKBOX_FIELDS:
            options = [{"text": {"type": "plain_text", "text": str(v)}, "value": str(v)} for v in value or ()]
            values[name] = {name: {"type": "checkboxes", "selected_options": options}}
        elif name == "action_items_none":
            if value:
                values["action_items"] = {"action_items": {"type": "plain_text_input", "value": "none"}}
        else:
            text = _action_items_text(value) if name == "action_items" and value is not None else value
            values[name] = {name: {"type": "plain_text_input", "value": text}}
    if scope is not None:
        options = [{"text": {"type": "plain_text", "text": v}, "value": v} for v in scope]
        values["scope"] = {"scope": {"type": "checkboxes", "selected_options": options}}
    return values


class SlackDriver:
    """Sends correctly signed Slack requests to a bot and returns the `requests.Response`."""

    def __init__(
        self,
        bot_url: str,
        signing_secret: str,
        *,
        slack: SlackEmulator,
        api_app_id: str = "A0001",
        timeout: float = 10.0,
    ) -> None:
        base = bot_url.rstrip("/")
        self.events_url = base if base.endswith("/slack/events") else f"{base}/slack/events"
        self.verifier = SignatureVerifier(signing_secret)
        self.slack, self.api_app_id, self.timeout = slack, api_app_id, timeout
        self.last_payload: dict[str, Any] = {}
        self._ids = itertools.count(1)

    # transport ----------------------------------------------------------------------------------
    def sign(self, body: bytes, timestamp: int | None = None) -> dict[str, str]:
        """The two headers Slack adds; pass an old `timestamp` or tamper the result to test rejection."""
        ts = str(int(time.time()) if timestamp is None else timestamp)
        signature = self.verifier.generate_signature(timestamp=ts, body=body)
        return {"X-Slack-Request-Timestamp": ts, "X-Slack-Signature": signature or ""}

    def post(
        self,
        body: bytes,
        content_type: str,
        *,
        timestamp: int | None = None,
        headers: dict[str, str] | None = None,
        signed: bool = True,
    ) -> requests.Response:
        """POST raw bytes to /slack/events, signed unless `signed=False`."""
        signature = self.sign(body, timestamp) if signed else {}
        sent = {"Content-Type": content_type, **signature, **(headers or {})}
        return requests.post(self.events_url, data=body, headers=sent, timeout=self.timeout)

    def _form(self, fields: dict[str, str]) -> requests.Response:
        return self.post(urlencode(fields).encode(), "application/x-www-form-urlencoded")

    def _interactive(self, payload: dict[str, Any]) -> requests.Response:
        self.last_payload = payload
        return self._form({"payload": json.dumps(payload)})

    def _user(self, user_id: str) -> dict[str, str]:
        name = user_id.lower()
        return {"id": user_id, "username": name, "name": name, "team_id": self.slack.team_id}

    def _team(self) -> dict[str, str]:
        return {"id": self.slack.team_id, "domain": "emulated"}

    # slash commands and interactivity -----------------------------------------------------------
    def slash_command(
        self,
        command: str = "/post-mortem",
        text: str = "PROJ-1",
        user_id: str = "U1",
        channel_id: str = "C1",
        *,
        channel_name: str | None = None,
        trigger_id: str | None = None,
    ) -> requests.Response:
        """A slash command, form-encoded, with a fresh trigger_id and a response_url on the emulator."""
        fields = {
            "token": "legacy-verification-token",
            "team_id": self.slack.team_id,
            "team_domain": "emulated",
            "channel_id": channel_id,
            "channel_name": channel_name or channel_id.lower(),
            "user_id": user_id,
            "user_name": user_id.lower(),
            "command": command,
            "text": text,
            "api_app_id": self.api_app_id,
            "is_enterprise_install": "false",
            "response_url": self.slack.issue_response_url(),
            "trigger_id": trigger_id or self.slack.issue_trigger_id(),
        }
        self.last_payload = dict(fields)
        return self._form(fields)

    def view_submission(
        self,
        callback_id: str = "postmortem",
        values: dict[str, Any] | None = None,
        user_id: str = "U1",
        private_metadata: str | None = None,
        view_id: str | None = None,
    ) -> requests.Response:
        """Submit a modal: by default the view the emulator last opened, with its blocks and metadata."""
        opened = self.slack.current_view(view_id) or {}
        metadata = opened.get("private_metadata", "") if private_metadata is None else private_metadata
        view = {
            "id": view_id or opened.get("id") or "V_NOT_OPENED",
            "team_id": self.slack.team_id,
            "type": "modal",
            "blocks": opened.get("blocks", []),
            "title": opened.get("title"),
            "private_metadata": metadata,
            "callback_id": callback_id,
            "state": {"values": values or {}},
            "hash": opened.get("hash", ""),
            "root_view_id": opened.get("root_view_id"),
            "previous_view_id": None,
            "external_id": "",
            "app_id": self.api_app_id,
            "bot_id": self.slack.bot_id,
        }
        return self._interactive(
            {
                "type": "view_submission",
                "team": self._team(),
                "user": self._user(user_id),
                "api_app_id": self.api_app_id,
                "token": "legacy-verification-token",
                "trigger_id": self.slack.issue_trigger_id(),
                "view": view,
                "response_urls": [],
                "is_enterprise_install": False,
                "enterprise": None,
            }
        )

    def block_action(
        self,
        action_id: str,
        value: str,
        user_id: str = "U1",
        channel_id: str = "C1",
        message_ts: str | None = None,
        thread_ts: str | None = None,
        *,
        block_id: str | None = None,
        action_type: str = "button",
        container: dict[str, Any] | None = None,
        state: dict[str, Any] | None = None,
    ) -> requests.Response:
        """Click a button on a message (default: the app's latest message in the channel); `state` is the
        message's `state.values` (what its checkboxes hold), as Slack sends it along."""
        posted = self.slack.messages(channel=channel_id)
        message = next((m for m in posted if m["ts"] == message_ts), posted[-1] if posted and not message_ts else None)
        ts = message_ts or (message["ts"] if message else self.slack.next_ts())
        thread_ts = thread_ts or (message or {}).get("thread_ts")
        shown: dict[str, Any] = {
            "type": "message",
            "ts": ts,
            "user": self.slack.bot_user_id,
            "bot_id": self.slack.bot_id,
            "text": (message or {}).get("text", ""),
            "blocks": (message or {}).get("blocks") or [],
        }
        box: dict[str, Any] = {"type": "message", "message_ts": ts, "channel_id": channel_id, "is_ephemeral": False}
        if thread_ts:
            shown["thread_ts"] = box["thread_ts"] = thread_ts
        action = {
            "type": action_type,
            "action_id": action_id,
            "block_id": block_id or action_id,
            "value": value,
            "text": {"type": "plain_text", "text": value},
            "action_ts": str(time.time()),
        }
        return self._interactive(
            {
                "type": "block_actions",
                "team": self._team(),
                "user": self._user(user_id),
                "api_app_id": self.api_app_id,
                "token": "legacy-verification-token",
                "container": container or box,
                "trigger_id": self.slack.issue_trigger_id(),
                "channel": {"id": channel_id, "name": channel_id.lower()},
                "message": shown,
                "response_url": self.slack.issue_response_url(),
                "actions": [action],
                "state": {"values": state or {}},
                "is_enterprise_install": False,
                "enterprise": None,
            }
        )

    # Events API ---------------------------------------------------------------------------------
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
        self.last_payload = payload
        headers = (
            {"X-Slack-Retry-Num": str(retry_num), "X-Slack-Retry-Reason": retry_reason} if retry_num is not None else {}
        )
        return self.post(json.dumps(payload).encode(), "application/json", headers=headers)

    def message(
        self,
        text: str,
        user: str = "U1",
        channel: str = "C1",
        ts: str | None = None,
        thread_ts: str | None = None,
        event_id: str | None = None,
        retry_num: int | None = None,
        subtype: str | None = None,
        *,
        bot_id: str | None = None,
        channel_type: str = "channel",
        retry_reason: str = "http_timeout",
    ) -> requests.Response:
        """A `message` event (a thread reply when `thread_ts` is set); ts comes from the emulator."""
        ts = ts or self.slack.next_ts()
        event: dict[str, Any] = {
            "type": "message",
            "text": text,
            "user": user,
            "ts": ts,
            "channel": channel,
            "event_ts": ts,
            "channel_type": channel_type,
            "team": self.slack.team_id,
        }
        if thread_ts:
            event["thread_ts"] = thread_ts
            parent = next((m for m in self.slack.messages(channel=channel) if m["ts"] == thread_ts), None)
            if parent is not None:  # Slack names who posted a reply's parent (here: only the app's are known)
                event["parent_user_id"] = parent["user"]
        if subtype:
            event["subtype"] = subtype
        if bot_id:
            event["bot_id"] = bot_id
        return self.event(event, event_id=event_id, retry_num=retry_num, retry_reason=retry_reason)

    def app_mention(
        self,
        text: str,
        user: str = "U1",
        channel: str = "C1",
        ts: str | None = None,
        thread_ts: str | None = None,
        event_id: str | None = None,
        retry_num: int | None = None,
    ) -> requests.Response:
        """An `app_mention` event; the text gets the bot's mention prefix unless it already has one."""
        mention = f"<@{self.slack.bot_user_id}>"
        ts = ts or self.slack.next_ts()
        event: dict[str, Any] = {
            "type": "app_mention",
            "user": user,
            "ts": ts,
            "channel": channel,
            "event_ts": ts,
            "team": self.slack.team_id,
            "text": text if mention in text else f"{mention} {text}",
        }
        if thread_ts:
            event["thread_ts"] = thread_ts
        return self.event(event, event_id=event_id, retry_num=retry_num)

    def app_home_opened(self, user: str = "U1", *, tab: str = "home", event_id: str | None = None) -> requests.Response:
        """The person opened the app's Home tab (or its Messages tab, `tab="messages"`)."""
        ts = self.slack.next_ts()
        event = {"type": "app_home_opened", "user": user, "channel": f"D{user[1:]}", "tab": tab, "event_ts": ts}
        return self.event(event, event_id=event_id)

    def url_verification(self, challenge: str = "emulated-challenge") -> requests.Response:
        """The handshake Slack sends when the Request URL is saved."""
        payload = {"token": "legacy-verification-token", "challenge": challenge, "type": "url_verification"}
        self.last_payload = payload
        return self.post(json.dumps(payload).encode(), "application/json")
