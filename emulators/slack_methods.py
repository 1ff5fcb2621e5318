"""The Slack Web API methods themselves, as a mixin over the emulator's in-memory workspace.

Kept apart from the HTTP plumbing (slack_api.py) so each method reads as Slack documents it: required
arguments, the error names Slack answers with, and the shape of a successful reply. Here the method table and
auth, users and conversations; chat and files in slack_chat.py, views in slack_views.py.
"""

from __future__ import annotations

from collections.abc import Callable

from emulators.slack_chat import SlackChat
from emulators.slack_views import SlackViews
from emulators.slack_workspace import Params, Result, SlackApiError, require, truthy

__all__ = ["Params", "Result", "SlackApiError", "SlackMethods"]


class SlackMethods(SlackChat, SlackViews):
    """Method implementations; called by SlackEmulator with its lock held."""

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
        require(params, "user")
        user = self._users.get(params["user"])
        if user is None:
            raise SlackApiError("user_not_found")
        shown = dict(user)
        if not truthy(params.get("include_locale")):  # Slack returns the locale only when asked
            shown.pop("locale")
        return {"user": shown}

    def _lookup_by_email(self, params: Params) -> Result:
        require(params, "email")
        for user in self._users.values():
            if user["profile"].get("email") == params["email"]:
                return {"user": {k: v for k, v in user.items() if k != "locale"}}
        raise SlackApiError("users_not_found")

    def _conversations_info(self, params: Params) -> Result:
        require(params, "channel")
        return {"channel": self._channel(params["channel"])}

    def _conversations_replies(self, params: Params) -> Result:
        """A thread's parent (only the app's own messages are kept here); its metadata when asked for, as Slack."""
        require(params, "channel", "ts")
        found = self._own_message(params["channel"], params["ts"])
        if found is None:
            raise SlackApiError("thread_not_found")
        with_metadata = str(params.get("include_all_metadata")).lower() in ("true", "1")
        return {"messages": [{k: v for k, v in found.items() if k != "metadata" or with_metadata}], "has_more": False}
