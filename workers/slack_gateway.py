"""The worker's Slack side: post, post ephemeral, upload a file to a thread (slack-sdk WebClient)."""

from __future__ import annotations

from typing import Any

from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

from workers.slack_retry import SlackRetryHandler

Message = dict[str, Any]

#: The Slack message metadata of a session's parent message: how its thread is known as a post-mortem's
#: without the session (expired, or lost with a Redis that kept nothing), so a reply there is not met with silence.
SESSION_EVENT_TYPE = "postmortem_session"


def slack_client(token: str, base_url: str, *, timeout: int = 10, retry_window: float = 15.0) -> WebClient:
    """A WebClient that retries Slack's temporary failures (429, 5xx, resets, `internal_error`…) for up to
    `retry_window` seconds a call (workers/slack_retry.py); past that the job reschedules the step."""
    return WebClient(
        token=token, base_url=base_url, timeout=timeout, retry_handlers=[SlackRetryHandler(window=retry_window)]
    )


class SlackGateway:
    """The calls the worker makes; every response's `ok` is checked by slack-sdk (SlackApiError otherwise)."""

    def __init__(self, client: WebClient) -> None:
        self.client = client

    def post(self, channel: str, message: Message, *, thread_ts: str | None = None) -> str:
        """Post a message (in a thread when `thread_ts`); returns its ts."""
        response = self.client.chat_postMessage(
            channel=channel,
            thread_ts=thread_ts,
            text=message["text"],
            blocks=message.get("blocks"),
            metadata=message.get("metadata"),
            unfurl_links=False,
            unfurl_media=False,
        )
        return str(response["ts"])

    def is_session_parent(self, channel: str, ts: str) -> bool:
        """Whether the message `ts` is a post-mortem's parent message: it carries SESSION_EVENT_TYPE metadata."""
        try:
            response = self.client.conversations_replies(channel=channel, ts=ts, limit=1, include_all_metadata=True)
        except SlackApiError:
            return False
        messages: list[dict[str, Any]] = response.get("messages") or []
        parent = next((m for m in messages if m.get("ts") == ts), None)
        metadata = (parent or {}).get("metadata") or {}
        return isinstance(metadata, dict) and metadata.get("event_type") == SESSION_EVENT_TYPE

    def ephemeral(self, channel: str, user: str, message: Message, *, thread_ts: str | None = None) -> None:
        self.client.chat_postEphemeral(
            channel=channel, user=user, thread_ts=thread_ts, text=message["text"], blocks=message.get("blocks")
        )

    def upload(self, channel: str, thread_ts: str | None, *, filename: str, content: bytes, title: str) -> None:
        """Attach a file to the thread (files upload v2: get URL, upload bytes, complete)."""
        self.client.files_upload_v2(
            channel=channel, thread_ts=thread_ts, filename=filename, content=content, title=title
        )

    def user_locale(self, user: str) -> str | None:
        response = self.client.users_info(user=user, include_locale=True)
        user_info: dict[str, Any] = response.get("user") or {}
        locale = user_info.get("locale")
        return str(locale) if locale else None

    def user_email(self, user: str) -> str | None:
        """A member's e-mail from users.info (needs users:read.email); None when Slack shows none."""
        response = self.client.users_info(user=user)
        profile: dict[str, Any] = (response.get("user") or {}).get("profile") or {}
        email = profile.get("email")
        return str(email) if email else None

    def lookup_user_by_email(self, email: str) -> str | None:
        """The Slack user id of a workspace member with this e-mail (users:read.email), None when there is none."""
        try:
            response = self.client.users_lookupByEmail(email=email)
        except SlackApiError as exc:
            if exc.response.get("error") == "users_not_found":
                return None
            raise
        user: dict[str, Any] = response.get("user") or {}
        return str(user["id"]) if user.get("id") else None

    def permalink(self, channel: str, message_ts: str) -> str | None:
        """The link to a message (chat.getPermalink); None when Slack will not give one."""
        try:
            response = self.client.chat_getPermalink(channel=channel, message_ts=message_ts)
        except SlackApiError:
            return None
        link = response.get("permalink")
        return str(link) if link else None

    def user_name(self, user: str) -> str:
        """How a person is called in the workspace (display name, else real name, else handle); the id if unknown."""
        try:
            response = self.client.users_info(user=user)
        except SlackApiError:
            return user
        info: dict[str, Any] = response.get("user") or {}
        profile: dict[str, Any] = info.get("profile") or {}
        for name in (profile.get("display_name"), profile.get("real_name"), info.get("real_name"), info.get("name")):
            if isinstance(name, str) and name.strip():
                return name.strip()
        return user

    def dm(self, user: str, message: Message) -> str:
        """A direct message from the app (posting to a user id lands in the app's DM with them); its ts."""
        return self.post(user, message)
