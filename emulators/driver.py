"""Drive the bot's POST /slack/events as Slack does: signed slash commands, interactivity and events.

Payloads follow the shapes Slack sends (form-encoded commands, `payload=<json>` interactivity, JSON
Events API callbacks); trigger_ids and message timestamps come from the SlackEmulator so that
views.open and thread replies line up with what the emulator recorded. Signing and sending:
emulators/driver_transport.py; the Events API: emulators/driver_events.py; commands and interactivity here.
"""

from __future__ import annotations

import time
from typing import Any

import requests

from emulators.driver_events import SlackEvents
from emulators.driver_transport import FORM, SignedTransport, slack_signature
from emulators.slack_threads import message_action

__all__ = ["FORM", "SignedTransport", "SlackDriver", "modal_values", "slack_signature"]

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


class SlackDriver(SlackEvents):
    """Sends correctly signed Slack requests to a bot and returns the `requests.Response`."""

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

    def message_shortcut(
        self,
        message_ts: str,
        channel_id: str = "C1",
        user_id: str = "U1",
        *,
        callback_id: str = "postmortem_from_message",
    ) -> requests.Response:
        """A person uses a message shortcut on a message (a person's, `SlackEmulator.say_as`, or the app's)."""
        payload = message_action(
            self.slack,
            channel_id=channel_id,
            message_ts=message_ts,
            user_id=user_id,
            api_app_id=self.api_app_id,
            callback_id=callback_id,
        )
        return self._interactive(payload)
