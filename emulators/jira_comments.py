"""The Jira emulator's comments and their properties: list, add (checked against the ADF schema, Atlassian's
validator and the size limit), get, delete, the bulk `comment/list`, and the property routes.

Stacked on the directory (emulators/jira_directory.py); the Data Center emulator replaces `_comment_problem`.
Comment PUTs are in emulators/jira_amend.py.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, Literal

from emulators.adf_atlaskit import AtlaskitValidator
from emulators.http import Request, Response, parse_json
from emulators.jira_directory import API, JiraDirectory, ok
from emulators.jira_records import DEFAULT_MAX_RESULTS, JiraComment, comment_problem, jira_error


class JiraComments(JiraDirectory):
    """Comments by id, each on one issue, stored with their properties and raw request bytes."""

    list_expands_properties = False

    def __init__(
        self, *, comment_limit_measure: Literal["json", "text"] = "json", host: str = "127.0.0.1", port: int = 0
    ) -> None:
        super().__init__(host=host, port=port)
        self.comment_limit_measure = comment_limit_measure
        self._comments: dict[str, JiraComment] = {}
        self._atlaskit: AtlaskitValidator | None = None

    def comments(self, key: str) -> list[JiraComment]:
        """Comments stored on one issue, oldest first."""
        with self._cond:
            return [c for c in self._comments.values() if c.issue_key == key]

    # views of the data --------------------------------------------------------------------------
    def _comment_json(self, comment: JiraComment, *, properties: bool = False) -> dict[str, Any]:
        issue = self._issues[comment.issue_key]
        shown = {
            "self": f"{self.origin}{API}/issue/{issue.id}/comment/{comment.id}",
            "id": comment.id,
            "author": comment.author,
            "body": comment.body,
            "updateAuthor": comment.author,
            "created": comment.created,
            "updated": comment.created,
            "jsdPublic": True,
        }
        if properties:
            shown["properties"] = [dict(p) for p in comment.properties]
        return shown

    def _comment_problem(self, raw: bytes) -> tuple[Response | None, dict[str, Any]]:
        """Jira's 400 for a comment body, or (None, the payload); the Data Center mode checks a wiki string."""
        return comment_problem(raw, atlaskit=self._atlaskit, measure=self.comment_limit_measure)

    def _expands(self, request: Request) -> bool:
        """Whether a comment listing carries properties (documented for `expand=properties` on Data Center only)."""
        return self.list_expands_properties and "properties" in (request.arg("expand") or "").split(",")

    def _comment_on(self, key: str, comment_id: str) -> JiraComment | None:
        """The comment with this id if it is on this issue (by key or id); Jira answers 404 otherwise."""
        comment, issue = self._comments.get(comment_id), self._issue(key)
        return comment if comment is not None and issue is not None and comment.issue_key == issue.key else None

    # routes -------------------------------------------------------------------------------------
    def _list_comments(self, request: Request, key: str) -> Response:
        issue = self._issue(key)
        if issue is None:
            return jira_error(404)
        try:
            start = int(request.arg("startAt") or 0)
            size = int(request.arg("maxResults") or DEFAULT_MAX_RESULTS)
        except ValueError:
            return jira_error(400, "startAt and maxResults must be integers.")
        found = self.comments(issue.key)
        if (request.arg("orderBy") or "created").startswith("-"):
            found.reverse()
        page = found[start : start + size]
        return ok(
            {
                "startAt": start,
                "maxResults": size,
                "total": len(found),
                "comments": [self._comment_json(c, properties=self._expands(request)) for c in page],
            }
        )

    def _get_comment(self, request: Request, key: str, comment_id: str) -> Response:
        if (comment := self._comment_on(key, comment_id)) is None:
            return _no_comment(comment_id)
        return ok(self._comment_json(comment))

    def _delete_comment(self, request: Request, key: str, comment_id: str) -> Response:
        if self._comment_on(key, comment_id) is None:
            return _no_comment(comment_id)
        del self._comments[comment_id]
        return Response(204)

    def _add_comment(self, request: Request, key: str) -> Response:
        """Called without the lock: the body is checked outside it (requests run side by side)."""
        with self._cond:
            issue = self._issue(key)
        if issue is None:
            return jira_error(404)
        refused, payload = self._comment_problem(request.body)
        if refused is not None:
            return refused
        properties = payload.get("properties") or []
        stored = [{"key": p["key"], "value": p["value"]} for p in properties]
        with self._cond:  # the id and the time together: ids and times rise in the same order
            now = datetime.now(UTC)
            created = now.strftime("%Y-%m-%dT%H:%M:%S.") + f"{now.microsecond // 1000:03d}+0000"  # Jira's format
            comment = JiraComment(
                self._next_id(),
                issue.key,
                payload["body"],
                stored,
                request.body,
                created,
                self._user_json(self.bot_account_id),
            )
            self._comments[comment.id] = comment
            return ok(self._comment_json(comment), status=201)

    def _comment_list(self, request: Request) -> Response:
        try:
            payload = parse_json(request.body)
            ids = [str(i) for i in payload["ids"]]
        except (ValueError, KeyError, TypeError):
            return jira_error(400, 'The request body must be {"ids": [...]}.')
        if len(ids) > 1000:
            return jira_error(400, "No more than 1000 ids.")
        with_props = "properties" in (request.arg("expand") or "").split(",")
        found = [
            self._comment_json(self._comments[i], properties=with_props)
            for i in sorted(set(ids), key=int)
            if i in self._comments
        ]
        return ok({"isLast": True, "maxResults": 1000, "startAt": 0, "total": len(found), "values": found})

    def _property_keys(self, request: Request, comment_id: str) -> Response:
        comment = self._comments.get(comment_id)
        if comment is None:
            return _no_comment(comment_id)
        return ok(
            {
                "keys": [
                    {"self": f"{self.origin}{API}/comment/{comment_id}/properties/{p['key']}", "key": p["key"]}
                    for p in comment.properties
                ]
            }
        )

    def _get_property(self, request: Request, comment_id: str, key: str) -> Response:
        comment = self._comments.get(comment_id)
        if comment is None:
            return _no_comment(comment_id)
        if key not in comment.property_map:
            return jira_error(404, f"The property with key '{key}' does not exist.")
        return ok({"key": key, "value": comment.property_map[key]})


def _no_comment(comment_id: str) -> Response:
    return jira_error(404, f"Can not find a comment for the id: {comment_id}.")
