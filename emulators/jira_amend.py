"""The Jira emulator's comment updates (both deployments): `PUT {root}/issue/{key}/comment/{id}` and
`PUT {root}/comment/{id}/properties/{key}`, as the bot's amendments use them.

Jira documents a comment's `properties` as optional on create and on update, so a PUT's `properties` are stored
like a POST's (replacing the value of each key given); `ignore_properties_on_update` makes a site that drops them,
where only the property resource sets them. The body is checked as a POST's is (ADF on Cloud, a wiki-markup string
on Data Center). Every update is recorded with its raw bytes; an unknown comment answers 404 as Jira does.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from emulators.http import JSON_CONTENT_TYPE, Request, Response, json_response, parse_json
from emulators.jira_records import jira_error

if TYPE_CHECKING:
    from emulators.jira_cloud import JiraEmulator

_API = "/rest/api/3"  # the Data Center emulator rewrites every route to /rest/api/2


@dataclass(frozen=True)
class CommentUpdate:
    """One PUT of a comment that Jira applied: which comment, the raw bytes received."""

    comment_id: str
    raw: bytes


class CommentUpdates:
    """The update routes of one emulator, and what they applied (read under the emulator's lock)."""

    def __init__(self, jira: JiraEmulator) -> None:
        self._jira = jira
        self.applied: list[CommentUpdate] = []
        #: True: a comment PUT's `properties` are dropped (only `comment/{id}/properties/{key}` sets them).
        self.ignore_properties_on_update = False

    def delete_in_ui(self, comment_id: str) -> None:
        """A person deletes the comment in Jira (tests of an amendment whose comment is gone)."""
        with self._jira._cond:
            self._jira._comments.pop(comment_id, None)
            self._jira._changed()

    def routes(self) -> list[tuple[str, re.Pattern[str], Callable[..., Response]]]:
        return [
            ("PUT", re.compile(rf"{_API}/issue/([^/]+)/comment/(\d+)"), self._update_comment),
            ("PUT", re.compile(rf"{_API}/comment/(\d+)/properties/([^/]+)"), self._set_property),
        ]

    def _update_comment(self, request: Request, key: str, comment_id: str) -> Response:
        jira = self._jira
        comment = jira._comment_on(key, comment_id)
        if comment is None:
            return jira_error(404, f"Can not find a comment for the id: {comment_id}.")
        refused, payload = jira._comment_problem(request.body)
        if refused is not None:
            return refused
        comment.body, comment.raw = payload["body"], request.body
        if not self.ignore_properties_on_update:
            for prop in payload.get("properties") or []:
                _put(comment.properties, str(prop["key"]), prop["value"])
        self.applied.append(CommentUpdate(comment_id, request.body))
        return json_response(200, jira._comment_json(comment), content_type=JSON_CONTENT_TYPE)

    def _set_property(self, request: Request, comment_id: str, key: str) -> Response:
        comment = self._jira._comments.get(comment_id)
        if comment is None:
            return jira_error(404, f"Can not find a comment for the id: {comment_id}.")
        try:
            value = parse_json(request.body)
        except ValueError:
            return jira_error(400, "The property value must be valid JSON.")
        if len(key) > 255 or len(request.body) > 32768:
            return jira_error(400, "The property key or value is too long.")
        created = _put(comment.properties, key, value)
        return Response(201 if created else 200)


def _put(properties: list[dict[str, Any]], key: str, value: Any) -> bool:
    """Set one property in place; True when it was new."""
    for prop in properties:
        if prop["key"] == key:
            prop["value"] = value
            return False
    properties.append({"key": key, "value": value})
    return True
