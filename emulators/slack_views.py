"""Slack's `views.*` methods in the emulator: modals opened and pushed with a one-use trigger_id, updated under
their hash, and the App Home published per user (kept apart from the modals)."""

from __future__ import annotations

import hashlib
import json
import time
from typing import Any

from emulators import slack_limits as limits
from emulators.slack_workspace import Params, Result, SlackApiError, SlackWorkspace, check, require


class SlackViews(SlackWorkspace):
    """views.open / push / update / publish."""

    def _use_trigger(self, trigger_id: str) -> None:
        if trigger_id in self._used_triggers:
            raise SlackApiError("exchanged_trigger_id")
        issued = self._triggers.pop(trigger_id, None)
        if issued is None:
            raise SlackApiError("invalid_trigger_id")
        self._used_triggers.add(trigger_id)
        if time.monotonic() - issued > self.trigger_ttl:
            raise SlackApiError("expired_trigger_id")

    def _view_record(self, view: dict[str, Any], view_id: str, **stack: Any) -> dict[str, Any]:
        """The view as Slack returns it: the app's ids and an empty state added; `stack`: root and previous ids."""
        return {
            **view,
            "id": view_id,
            "team_id": self.team_id,
            "app_id": "A0001",
            "bot_id": self.bot_id,
            "state": {"values": {}},
            **stack,
            "private_metadata": view.get("private_metadata", ""),
            "callback_id": view.get("callback_id", ""),
            "external_id": view.get("external_id", ""),
        }

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
        stored = self._view_record(view, view_id, root_view_id=view_id, previous_view_id=previous)
        stored["hash"] = hashlib.sha1(json.dumps(stored, sort_keys=True).encode()).hexdigest()[:20]
        self._current_views[view_id] = stored
        self._views.append({"action": action, "view": stored, "trigger_id": params.get("trigger_id")})
        return {"view": stored}

    def _views_open(self, params: Params) -> Result:
        require(params, "trigger_id", "view")
        self._use_trigger(params["trigger_id"])
        check(limits.check_view(params["view"]))
        return self._store_view("open", params["view"], params)

    def _views_push(self, params: Params) -> Result:
        require(params, "trigger_id", "view")
        self._use_trigger(params["trigger_id"])
        check(limits.check_view(params["view"]))
        return self._store_view(
            "push", params["view"], params, previous=self._views[-1]["view"]["id"] if self._views else None
        )

    def _views_update(self, params: Params) -> Result:
        require(params, "view")
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
        check(limits.check_view(params["view"]))
        return self._store_view("update", params["view"], params, view_id=current["id"])

    def _views_publish(self, params: Params) -> Result:
        """The App Home view of one user (`type: home`, at most 100 blocks); kept per user, each call recorded."""
        require(params, "user_id", "view")
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
        stored = self._view_record(view, f"V{self._next():08d}")
        self._homes[str(params["user_id"])] = stored
        return {"view": stored}
