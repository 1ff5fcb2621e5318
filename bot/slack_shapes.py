"""The shape a signed Slack payload must have before Bolt reads it: a payload of another shape is a 400, never a 500."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import parse_qs

from pydantic import BaseModel, ConfigDict, Field, model_validator

#: A Slack message timestamp: seconds, a dot, microseconds ("1601541373.225894"); handlers read it as a number.
_SLACK_TS = r"^[0-9]{1,12}(\.[0-9]{1,9})?$"


class _Part(BaseModel):
    model_config = ConfigDict(extra="allow")


class _Typed(_Part):
    type: str


class _Ids(_Part):
    """Where Bolt looks for ids before any listener runs (slack_bolt/request/internals.py): each a string, an
    object or null; the nested objects it follows are read the same way."""

    enterprise: str | dict[str, Any] | None = None
    team: str | dict[str, Any] | None = None
    user: str | dict[str, Any] | None = None
    channel: str | dict[str, Any] | None = None
    message: _Ids | None = None
    previous_message: _Ids | None = None
    item: _Ids | None = None
    assistant_thread: _Ids | None = None


class _User(_Part):
    id: str = Field(min_length=1)


class _Action(_Part):
    action_id: str | None = None
    value: str | None = None


class _View(_Typed):
    id: str = ""
    callback_id: str = ""
    private_metadata: str = ""
    state: dict[str, dict[str, Any]] | None = None


class _Event(_Ids):
    type: str
    ts: str | None = Field(default=None, pattern=_SLACK_TS)
    thread_ts: str | None = Field(default=None, pattern=_SLACK_TS)
    event_ts: str | None = Field(default=None, pattern=_SLACK_TS)
    text: str | None = None


#: Parts Slack sends as an object or a list whenever it sends them; Bolt or a listener reads into them.
_NEVER_NULL = ("user", "view", "event", "actions", "response_urls")


class SlackEnvelope(_Ids):
    """The parts of a Slack payload that Bolt and the listeners index into, with the types Slack sends.

    Signed by Slack, so never hostile in practice; but a payload of another shape must be a 400, not a
    KeyError deep inside Bolt (a 500).
    """

    type: str | None = None
    # At the top (interactivity), the person and the channel are always objects; listeners read their ids.
    user: _User | None = None  # type: ignore[assignment]
    channel: dict[str, Any] | None = None
    container: dict[str, Any] | None = None
    view: _View | None = None
    event: _Event | None = None
    actions: list[_Action] | None = None
    authorizations: list[_Ids] | None = None
    response_urls: list[dict[str, Any]] | None = None
    trigger_id: str | None = None
    response_url: str | None = None
    callback_id: str | None = None
    workflow_step: dict[str, Any] | None = None

    @model_validator(mode="after")
    def _what_bolt_indexes(self) -> SlackEnvelope:
        """Bolt reads `actions[0]["action_id"]` of any block_actions payload, and `workflow_step` of a
        workflow step's edit or save (slack_bolt/request/payload_utils.py) to build every listener's
        arguments, before any listener is chosen; the listeners read the person's id of a click or a form."""
        if any(name in self.model_fields_set and getattr(self, name) is None for name in _NEVER_NULL):
            raise ValueError("a part Slack always sends as an object or a list is null")
        if self.type == "block_actions" and "actions" in self.model_fields_set:
            if not self.actions or any(a.action_id is None for a in self.actions):
                raise ValueError("a block_actions payload names its actions' action_id")
        if self.type in ("block_actions", "view_submission") and self.user is None:
            raise ValueError("a click or a form names the person")
        editing = self.type == "workflow_step_edit" and "callback_id" in self.model_fields_set
        saving = self.type == "view_submission" and self.view is not None and self.view.type == "workflow_step"
        if (editing or saving) and self.workflow_step is None:
            raise ValueError("a workflow step's edit or save carries its workflow_step")
        return self


def slack_body_readable(body: bytes, content_type: str) -> bool:
    """Whether a signed Slack body is UTF-8 and its JSON (the body, or a form's `payload`) has Slack's shape."""
    try:
        text = body.decode("utf-8")
        if content_type.startswith("application/json"):
            SlackEnvelope.model_validate(json.loads(text))
            return True
        form: dict[str, Any] = parse_qs(text, keep_blank_values=True)
        if "payload" in form:
            SlackEnvelope.model_validate(json.loads(form["payload"][0]))
        return True
    except (ValueError, RecursionError):  # pydantic's ValidationError is a ValueError
        return False
