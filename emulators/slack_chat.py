"""Slack's `chat.*` and `files.*` methods in the emulator: messages posted, updated (their history kept) and
linked, ephemerals, and the two-step external upload (`files.getUploadURLExternal`, then the bytes, then
`files.completeUploadExternal`)."""

from __future__ import annotations

from typing import Any

from emulators import slack_limits as limits
from emulators.slack_workspace import Params, Result, SlackApiError, SlackWorkspace, check, require


class SlackChat(SlackWorkspace):
    """chat.postMessage / postEphemeral / update / getPermalink, files.getUploadURLExternal / completeUploadExternal."""

    def _own_message(self, channel: str, ts: str) -> dict[str, Any] | None:
        """The app's message at `ts` in `channel` (people's messages are kept apart, in slack_threads.py)."""
        return next((m for m in self._messages if m["channel"] == channel and m["ts"] == ts), None)

    # chat ---------------------------------------------------------------------------------------
    def _message_content(self, params: Params) -> Result:
        """Checked text and blocks; text past 40,000 characters is truncated as Slack does."""
        text, blocks = params.get("text"), params.get("blocks")
        check(limits.check_message(text or params.get("attachments"), blocks))
        text = text or ""
        truncated = len(text) > limits.MAX_MESSAGE_TEXT
        return {
            "text": text[: limits.MAX_MESSAGE_TEXT],
            "blocks": blocks,
            "truncated": truncated,
            "metadata": params.get("metadata"),
        }

    def _post_message(self, params: Params) -> Result:
        require(params, "channel")
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
        require(params, "channel", "user")
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
        require(params, "channel", "ts")
        found = self._own_message(params["channel"], params["ts"])
        if found is None:
            raise SlackApiError("message_not_found")
        content = self._message_content(params)
        found.setdefault("history", []).append({"text": found["text"], "blocks": found["blocks"]})
        found.update(content, edited=True)
        return {"channel": params["channel"], "ts": params["ts"], "text": found["text"]}

    def _permalink(self, params: Params) -> Result:
        require(params, "channel", "message_ts")
        return {
            "channel": params["channel"],
            "permalink": "https://emulated.slack.com/archives/"
            f"{params['channel']}/p{params['message_ts'].replace('.', '')}",
        }

    # files --------------------------------------------------------------------------------------
    def _get_upload_url(self, params: Params) -> Result:
        require(params, "filename", "length")
        file_id = f"F{self._next():08d}"
        self._uploads[file_id] = {
            "id": file_id,
            "name": params["filename"],
            "length": int(params["length"]),
            "bytes": None,
        }
        return {"upload_url": f"{self.origin}/upload/v1/{file_id}", "file_id": file_id}

    def _complete_upload(self, params: Params) -> Result:
        require(params, "files")
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
