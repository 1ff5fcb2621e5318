"""The Slack Web API methods themselves, as a mixin over the emulator's in-memory workspace.

Kept apart from the HTTP plumbing (slack_api.py) so each method reads as Slack documents it: required
arguments, the error names Slack answers with, and the shape of a successful reply.
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections.abc import Callable
from typing import Any

from emulators import slack_limits as limits

Result = dict[str, Any]
Params = dict[str, Any]


class SlackApiError(Exception):
    """Raised inside a method to answer `{"ok": false, "error": ...}`."""

    def __init__(self, error: str, messages: list[str] | None = None) -> None:
        super().__init__(error)
        self.error, self.messages = error, messages or []


def _truthy(value: Any) -> bool:
    return value in (True, 1, "1", "true", "True")


def _require(params: Params, *names: str) -> None:
    for name in names:
        if params.get(name) in (None, ""):
            raise SlackApiError("invalid_arguments", [f"[ERROR] missing required field: {name}"])


def _check(failure: limits.Failure | None) -> None:
    if failure is not None:
        raise SlackApiError(*failure)


class SlackMethods:
    """Method implementations; called by SlackEmulator with its lock held."""

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

    def method_table(self) -> dict[str, Callable[[Params], Result]]:
        """Slack method name → implementation."""
        return {
            "auth.test": self._auth_test,
            "views.open": self._views_open,
            "views.push": self._views_push,
            "views.update": self._views_update,
            "views.publish": self._views_publish,
            "chat.postMessage": self._post_message,
            "chat.postEphemeral": self._post_ephemeral,
            "chat.update": self._chat_update,
            "chat.getPermalink": self._permalink,
            "users.info": self._users_info,
            "users.lookupByEmail": self._lookup_by_email,
            "conversations.info": self._conversations_info,
            "conversations.replies": self._conversations_replies,
            "files.getUploadURLExternal": self._get_upload_url,
            "files.completeUploadExternal": self._complete_upload,
        }

    def _next(self) -> int:
        with self._cond:
            self._counter += 1
            return self._counter

    def next_ts(self) -> str:
        """A message timestamp, unique and increasing across everything this workspace posts."""
        micros = self._next() * 100
        return f"{1_700_000_000 + micros // 1_000_000}.{micros % 1_000_000:06d}"

    def _channel(self, channel_id: str) -> Result:
        """Any channel id is a plausible public channel the bot is a member of."""
        return {
            "id": channel_id,
            "name": channel_id.lower(),
            "is_channel": True,
            "is_group": False,
            "is_im": channel_id.startswith("D"),
            "is_private": False,
            "is_member": True,
            "is_archived": False,
        }

    # auth, users, conversations -----------------------------------------------------------------
    def _auth_test(self, params: Params) -> Result:
        return {
            "url": "https://emulated.slack.com/",
            "team": "Emulated",
            "user": "postmortem-bot",
            "team_id": self.team_id,
            "user_id": self.bot_user_id,
            "bot_id": self.bot_id,
            "is_enterprise_install": False,
        }

    def _users_info(self, params: Params) -> Result:
        _require(params, "user")
        user = self._users.get(params["user"])
        if user is None:
            raise SlackApiError("user_not_found")
        shown = dict(user)
        if not _truthy(params.get("include_locale")):  # Slack returns the locale only when asked
            shown.pop("locale")
        return {"user": shown}

    def _lookup_by_email(self, params: Params) -> Result:
        _require(params, "email")
        for user in self._users.values():
            if user["profile"].get("email") == params["email"]:
                return {"user": {k: v for k, v in user.items() if k != "locale"}}
        raise SlackApiError("users_not_found")

    def _conversations_info(self, params: Params) -> Result:
        _require(params, "channel")
        return {"channel": self._channel(params["channel"])}

    def _conversations_replies(self, params: Params) -> Result:
        """A thread's parent (only the app's own messages are kept here); its metadata when asked for, as Slack."""
        _require(params, "channel", "ts")
        found = next((m for m in self._messages if m["channel"] == params["channel"] and m["ts"] == params["ts"]), None)
        if found is None:
            raise SlackApiError("thread_not_found")
        with_metadata = str(params.get("include_all_metadata")).lower() in ("true", "1")
        return {"messages": [{k: v for k, v in found.items() if k != "metadata" or with_metadata}], "has_more": False}

    # views --------------------------------------------------------------------------------------
    def _use_trigger(self, trigger_id: str) -> None:
        if trigger_id in self._used_triggers:
            raise SlackApiError("exchanged_trigger_id")
        issued = self._triggers.pop(trigger_id, None)
        if issued is None:
            raise SlackApiError("invalid_trigger_id")
        self._used_triggers.add(trigger_id)
        if time.monotonic() - issued > self.trigger_ttl:
            raise SlackApiError("expired_trigger_id")

    def _store_view(
        self,
        action: str,
        view: dict[str, Any],
        params: Params,
        *,
        view_id: str | None = None,
        previous: str | None = None,
    ) -> Result:
        view_id = view_id or f"V{self._next():08d}"
        stored = {
            **view,
            "id": view_id,
            "team_id": self.team_id,
            "app_id": "A0001",
            "bot_id": self.bot_id,
            "state": {"values": {}},
            "root_view_id": view_id,
            "previous_view_id": previous,
            "private_metadata": view.get("private_metadata", ""),
            "callback_id": view.get("callback_id", ""),
            "external_id": view.get("external_id", ""),
        }
        stored["hash"] = hashlib.sha1(json.dumps(stored, sort_keys=True).encode()).hexdigest()[:20]
        self._current_views[view_id] = stored
        self._views.append({"action": action, "view": stored, "trigger_id": params.get("trigger_id")})
        return {"view": stored}

    def _views_open(self, params: Params) -> Result:
        _require(params, "trigger_id", "view")
        self._use_trigger(params["trigger_id"])
        _check(limits.check_view(params["view"]))
        return self._store_view("open", params["view"], params)

    def _views_push(self, params: Params) -> Result:
        _require(params, "trigger_id", "view")
        self._use_trigger(params["trigger_id"])
        _check(limits.check_view(params["view"]))
        return self._store_view(
            "push", params["view"], params, previous=self._views[-1]["view"]["id"] if self._views else None
        )

    def _views_update(self, params: Params) -> Result:
        _require(params, "view")
        if params.get("view_id"):
            current = self._current_views.get(params["view_id"])
        else:
            current = next(
                (
                    v
                    for v in self._current_views.values()
                    if params.get("external_id") and v["external_id"] == params["external_id"]
                ),
                None,
            )
        if current is None:
            raise SlackApiError("not_found")
        if params.get("hash") and params["hash"] != current["hash"]:
            raise SlackApiError("hash_conflict")
        _check(limits.check_view(params["view"]))
        return self._store_view("update", params["view"], params, view_id=current["id"])

    def _views_publish(self, params: Params) -> Result:
        """The App Home view of one user (`type: home`, at most 100 blocks); kept per user, each call recorded."""
        _require(params, "user_id", "view")
        view = params["view"]
        if not isinstance(view, dict) or view.get("type") != "home":
            raise SlackApiError("invalid_arguments", ["[ERROR] must be home [json-pointer:/view/type]"])
        blocks = view.get("blocks")
        if not isinstance(blocks, list) or len(blocks) > limits.MAX_MODAL_BLOCKS:
            raise SlackApiError(
                "invalid_arguments", ["[ERROR] no more than 100 items allowed [json-pointer:/view/blocks]"]
            )
        problems = limits.block_problems(blocks, "/view/blocks")
        if problems:
            raise SlackApiError("invalid_arguments", problems)
        if not str(params["user_id"]).startswith(("U", "W")):
            raise SlackApiError("user_not_found")
        # Kept apart from the modals (`views`, `current_view`), so a publish never becomes "the last view".
        view_id = f"V{self._next():08d}"
        stored = {
            **view,
            "id": view_id,
            "team_id": self.team_id,
            "app_id": "A0001",
            "bot_id": self.bot_id,
            "state": {"values": {}},
            "private_metadata": view.get("private_metadata", ""),
            "callback_id": view.get("callback_id", ""),
            "external_id": view.get("external_id", ""),
        }
        self._homes[str(params["user_id"])] = stored
        return {"view": stored}

    # chat ---------------------------------------------------------------------------------------
    def _message_content(self, params: Params) -> Result:
        """Checked text and blocks; text past 40,000 characters is truncated as Slack does."""
        text, blocks = params.get("text"), params.get("blocks")
        _check(limits.check_message(text or params.get("attachments"), blocks))
        text = text or ""
        truncated = len(text) > limits.MAX_MESSAGE_TEXT
        return {
            "text": text[: limits.MAX_MESSAGE_TEXT],
            "blocks": blocks,
            "truncated": truncated,
            "metadata": params.get("metadata"),
        }

    def _post_message(self, params: Params) -> Result:
        _require(params, "channel")
        content = self._message_content(params)
        ts = self.next_ts()
        message = {
            "channel": params["channel"],
            "ts": ts,
            "user": self.bot_user_id,
            "bot_id": self.bot_id,
            "thread_ts": params.get("thread_ts") or None,
            "edited": False,
            **content,
        }
        self._messages.append(message)
        shown = {
            "type": "message",
            "ts": ts,
            "user": self.bot_user_id,
            "bot_id": self.bot_id,
            "text": message["text"],
            "blocks": message["blocks"] or [],
        }
        if message["thread_ts"]:
            shown["thread_ts"] = message["thread_ts"]
        result: Result = {"channel": params["channel"], "ts": ts, "message": shown}
        if content["truncated"]:
            result["warning"] = "message_truncated"
        return result

    def _post_ephemeral(self, params: Params) -> Result:
        _require(params, "channel", "user")
        content = self._message_content(params)
        ts = self.next_ts()
        self._ephemerals.append(
            {
                "channel": params["channel"],
                "user": params["user"],
                "ts": ts,
                "thread_ts": params.get("thread_ts") or None,
                **content,
            }
        )
        return {"message_ts": ts}

    def _chat_update(self, params: Params) -> Result:
        _require(params, "channel", "ts")
        found = next((m for m in self._messages if m["channel"] == params["channel"] and m["ts"] == params["ts"]), None)
        if found is None:
            raise SlackApiError("message_not_found")
        content = self._message_content(params)
        found.setdefault("history", []).append({"text": found["text"], "blocks": found["blocks"]})
        found.update(content, edited=True)
        return {"channel": params["channel"], "ts": params["ts"], "text": found["text"]}

    def _permalink(self, params: Params) -> Result:
        _require(params, "channel", "message_ts")
        return {
            "channel": params["channel"],
            "permalink": "https://emulated.slack.com/archives/"
            f"{params['channel']}/p{params['message_ts'].replace('.', '')}",
        }

    # files --------------------------------------------------------------------------------------
    def _get_upload_url(self, params: Params) -> Result:
        _require(params, "filename", "length")
        file_id = f"F{self._next():08d}"
        self._uploads[file_id] = {
            "id": file_id,
            "name": params["filename"],
            "length": int(params["length"]),
            "bytes": None,
        }
        return {"upload_url": f"{self.origin}/upload/v1/{file_id}", "file_id": file_id}

    def _complete_upload(self, params: Params) -> Result:
        _require(params, "files")
        entries = params["files"]
        if not isinstance(entries, list) or not entries:
            raise SlackApiError("invalid_arguments", ["[ERROR] files must be a non-empty array"])
        if params.get("thread_ts") and not params.get("channel_id"):
            raise SlackApiError("invalid_arguments", ["[ERROR] thread_ts requires channel_id"])
        done = []
        for entry in entries:
            upload = self._uploads.get(str(entry.get("id")))
            if upload is None or upload["bytes"] is None:
                raise SlackApiError("file_not_found")
            done.append(
                {
                    "id": upload["id"],
                    "name": upload["name"],
                    "title": entry.get("title") or upload["name"],
                    "bytes": upload["bytes"],
                    "size": len(upload["bytes"]),
                    "channel": params.get("channel_id") or None,
                    "thread_ts": params.get("thread_ts") or None,
                    "initial_comment": params.get("initial_comment") or None,
                }
            )
        for record in done:
            del self._uploads[record["id"]]
            self._files.append(record)
        return {"files": [{k: v for k, v in f.items() if k != "bytes"} for f in done]}
