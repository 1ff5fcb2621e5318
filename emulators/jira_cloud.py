"""A loopback emulator of the Jira Cloud REST v3 routes the bot uses: issues, comments, properties, users.

Comments are validated against the official ADF schema and the 32,767-character limit, stored with
their properties and the raw request bytes, and faults (status codes, 429 with Retry-After, a reply
stalled after the comment is stored) can be queued per route.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections import defaultdict, deque
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any, Literal
from urllib.parse import unquote

from emulators.adf_atlaskit import ATLASKIT_PACKAGE, AtlaskitValidator, optional_atlaskit_validator
from emulators.adf_schema import adf_validator
from emulators.http import JSON_CONTENT_TYPE, Emulator, Request, Response, json_response, parse_json
from emulators.jira_records import (
    DEFAULT_MAX_RESULTS,
    Injection,
    JiraComment,
    JiraIssue,
    PostAttempt,
    comment_problem,
    injected_error,
    jira_error,
    permitted,
)

Route = tuple[str, re.Pattern[str], Callable[..., Response]]
_API = "/rest/api/3"


def _ok(payload: Any, status: int = 200) -> Response:
    return json_response(status, payload, content_type=JSON_CONTENT_TYPE)


class JiraEmulator(Emulator):
    """Jira Cloud on 127.0.0.1 with basic auth (email + API token); everything recorded thread-safely."""

    #: The permission search's user parameter (Data Center: `username`).
    user_query_arg = "query"
    list_expands_properties = False

    def __init__(
        self,
        email: str = "bot@example.com",
        api_token: str = "jira-token",
        *,
        comment_limit_measure: Literal["json", "text"] = "json",
        host: str = "127.0.0.1",
        port: int = 0,
    ) -> None:
        super().__init__(host=host, port=port)
        self.email, self.api_token = email, api_token
        self.comment_limit_measure = comment_limit_measure
        self.bot_account_id = "557058:postmortem-bot"
        self._issues: dict[str, JiraIssue] = {}
        self._users: dict[str, dict[str, Any]] = {}
        self._comments: dict[str, JiraComment] = {}
        self._posts: list[PostAttempt] = []
        self._log: list[str] = []
        self._injections: dict[tuple[str, str], deque[Injection]] = defaultdict(deque)
        self._counter = 10_000
        #: (account id, issue key, permission) triples `user/permission/search` answers with; see `grant`.
        self._grants: set[tuple[str, str, str]] = set()
        self._hidden_emails: set[str] = set()
        #: False answers `user/permission/search` with 403, as for a bot account without "Browse users".
        self.browse_users = True
        self._atlaskit: AtlaskitValidator | None = None
        self.validator_note = ""
        self.add_user(self.bot_account_id, email=email, display_name="postmortem-bot")
        self._routes: list[Route] = [
            ("GET", re.compile(rf"{_API}/issue/([^/]+)"), self._get_issue),
            ("GET", re.compile(rf"{_API}/issue/([^/]+)/comment"), self._list_comments),
            ("POST", re.compile(rf"{_API}/issue/([^/]+)/comment"), self._add_comment),
            ("GET", re.compile(rf"{_API}/issue/([^/]+)/comment/(\d+)"), self._get_comment),
            ("DELETE", re.compile(rf"{_API}/issue/([^/]+)/comment/(\d+)"), self._delete_comment),
            ("POST", re.compile(rf"{_API}/comment/list"), self._comment_list),
            ("GET", re.compile(rf"{_API}/comment/(\d+)/properties"), self._property_keys),
            ("GET", re.compile(rf"{_API}/comment/(\d+)/properties/([^/]+)"), self._get_property),
            ("GET", re.compile(rf"{_API}/user"), self._get_user),
            ("GET", re.compile(rf"{_API}/user/permission/search"), self._permission_search),
            ("GET", re.compile(rf"{_API}/myself"), lambda req: _ok(self._user_json(self.bot_account_id))),
            ("GET", re.compile(r"/rest/api/2/serverInfo"), self._server_info),
        ]

    def start(self) -> str:
        """Compile the ADF schema first (fetched once) so the first POST is not slow enough to time out.

        Atlassian's own validator checks comments too when node is present (it refuses links the schema
        allows, as Jira does); otherwise `validator_note` says once that it was skipped.
        """
        adf_validator()
        self._atlaskit, skipped = optional_atlaskit_validator()
        self.validator_note = (
            f"Jira emulator: comments are checked by the ADF JSON schema and Atlassian's "
            f"validator ({ATLASKIT_PACKAGE})."
            if skipped is None
            else f"Jira emulator: Atlassian's ADF validator skipped ({skipped}); comments are "
            f"checked by the ADF JSON schema only."
        )
        return super().start()

    # set-up for tests ---------------------------------------------------------------------------
    def _next_id(self) -> str:
        with self._cond:
            self._counter += 1
            return str(self._counter)

    def add_user(self, account_id: str, *, email: str | None = None, display_name: str | None = None) -> None:
        """Register a Jira user for issue assignees and GET /user?accountId=."""
        with self._cond:
            self._users[account_id] = {
                "accountId": account_id,
                "emailAddress": email,
                "displayName": display_name or account_id,
            }

    def grant(
        self,
        account_id: str,
        key: str,
        *,
        email: str | None = None,
        email_hidden: bool = False,
        permissions: tuple[str, ...] = ("BROWSE_PROJECTS", "ADD_COMMENTS"),
    ) -> None:
        """Let a user (registered here if new) hold project permissions on one issue; `email_hidden` hides
        their e-mail from the bot's account, as Atlassian profile privacy does (a search by it then misses)."""
        if account_id not in self._users:
            self.add_user(account_id, email=email)
        with self._cond:
            self._grants.update((account_id, key, p) for p in permissions)
            if email_hidden:
                self._hidden_emails.add(account_id)

    def add_issue(
        self,
        key: str,
        *,
        issue_type: str = "Bug",
        status: str = "Done",
        assignee_email: str | None = None,
        assignee_account_id: str | None = None,
        summary: str = "Emulated issue",
        assignee_email_hidden: bool = False,
    ) -> JiraIssue:
        """Register an issue; `assignee_email_hidden` omits emailAddress from it as privacy settings do."""
        if assignee_email and not assignee_account_id:
            assignee_account_id = f"acc-{self._next_id()}"
        if assignee_account_id and assignee_account_id not in self._users:
            self.add_user(
                assignee_account_id,
                email=assignee_email,
                display_name=(assignee_email or assignee_account_id).split("@")[0],
            )
        issue = JiraIssue(self._next_id(), key, summary, issue_type, status, assignee_account_id, assignee_email_hidden)
        with self._cond:
            self._issues[key] = issue
            self._changed()
        return issue

    def inject(
        self,
        method: str,
        path: str,
        *,
        status: int | None = None,
        retry_after: int | None = None,
        rate_limit_reason: str | None = None,
        body: Any = None,
        timeout_after_store: bool = False,
        stall: float | None = 30.0,
        delay: float | None = None,
        times: int = 1,
    ) -> None:
        """Queue a fault for the next `times` requests to exactly `method path` (no query string).

        `status` answers that error without doing anything; `timeout_after_store` does the work and then
        holds the reply `stall` seconds or until `release()`; both do the work and then answer `status` (a
        comment stored, then a 503 from Jira or a proxy in front of it); `delay` waits before doing anything.
        """
        injection = Injection(status, retry_after, rate_limit_reason, body, timeout_after_store, stall, delay)
        with self._cond:
            for _ in range(times):
                self._injections[(method.upper(), path)].append(replace(injection))

    # inspection ---------------------------------------------------------------------------------
    def comments(self, key: str) -> list[JiraComment]:
        """Comments stored on one issue, oldest first."""
        with self._cond:
            return [c for c in self._comments.values() if c.issue_key == key]

    @property
    def posts(self) -> list[PostAttempt]:
        """Every POST received, failed ones included, with raw bytes and the status answered."""
        with self._cond:
            return list(self._posts)

    def dump(self) -> str:
        """Every request with its answer, one a line."""
        with self._cond:
            return "\n".join(self._log) or "(no requests)"

    # HTTP ---------------------------------------------------------------------------------------
    def handle(self, request: Request) -> Response:
        """Apply a queued fault if any, check basic auth, route, record."""
        with self._cond:
            queue = self._injections.get((request.method, request.path))
            injection = queue.popleft() if queue else None
        if injection and injection.delay:
            self._stall_event().wait(injection.delay)
        if injection and injection.status and not injection.timeout_after_store:
            response = injected_error(injection)
        elif not self._authorised(request):
            response = jira_error(401, "Client must be authenticated to access this resource.")
        else:
            response = self._route(request)
        with self._cond:
            if injection and injection.timeout_after_store and injection.status:
                response = injected_error(injection)  # the work is done; the answer says otherwise
            elif injection and injection.timeout_after_store:
                response.stall, response.stall_seconds = self._stall_event(), injection.stall
            if request.method == "POST":
                self._posts.append(
                    PostAttempt(request.path, request.query, request.body, response.status, dict(request.headers))
                )
            query = "&".join(f"{k}={v[0]}" for k, v in request.query.items())
            self._log.append(
                f"{request.method} {request.path}{'?' + query if query else ''} "
                f"-> {response.status} {response.body[:200]!r}"
            )
            self._changed()
        return response

    def _authorised(self, request: Request) -> bool:
        scheme, _, encoded = request.header("authorization").partition(" ")
        try:
            decoded = base64.b64decode(encoded, validate=True).decode("utf-8")
        except (binascii.Error, UnicodeDecodeError):
            return False
        return scheme.lower() == "basic" and decoded == f"{self.email}:{self.api_token}"

    def _route(self, request: Request) -> Response:
        for method, pattern, handler in self._routes:
            match = pattern.fullmatch(request.path)
            if match and method == request.method:
                if handler == self._add_comment:  # it checks the body outside the lock (requests run side by side)
                    return handler(request, *map(unquote, match.groups()))
                with self._cond:
                    return handler(request, *map(unquote, match.groups()))
        return jira_error(404, f"No route for {request.method} {request.path}")

    # views of the data --------------------------------------------------------------------------
    def _user_json(self, account_id: str, *, hide_email: bool = False) -> dict[str, Any]:
        user = self._users[account_id]
        shown = {
            "self": f"{self.origin}{_API}/user?accountId={account_id}",
            "accountId": account_id,
            "displayName": user["displayName"],
            "active": True,
            "accountType": "atlassian",
            "timeZone": "UTC",
        }
        if user["emailAddress"] and not hide_email:
            shown["emailAddress"] = user["emailAddress"]
        return shown

    def _issue(self, key_or_id: str) -> JiraIssue | None:
        by_id = (i for i in self._issues.values() if i.id == key_or_id)
        return self._issues.get(key_or_id) or next(by_id, None)

    def _comment_json(self, comment: JiraComment, *, properties: bool = False) -> dict[str, Any]:
        issue = self._issues[comment.issue_key]
        shown = {
            "self": f"{self.origin}{_API}/issue/{issue.id}/comment/{comment.id}",
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

    # routes -------------------------------------------------------------------------------------
    def _get_issue(self, request: Request, key: str) -> Response:
        issue = self._issue(key)
        if issue is None:
            return jira_error(404)
        assignee = (
            self._user_json(issue.assignee_account_id, hide_email=issue.assignee_email_hidden)
            if issue.assignee_account_id
            else None
        )
        return _ok(
            {
                "id": issue.id,
                "key": issue.key,
                "self": f"{self.origin}{_API}/issue/{issue.id}",
                "fields": {
                    "summary": issue.summary,
                    "issuetype": {"name": issue.issue_type},
                    "status": {"name": issue.status},
                    "assignee": assignee,
                },
            }
        )

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
        return _ok(
            {
                "startAt": start,
                "maxResults": size,
                "total": len(found),
                "comments": [self._comment_json(c, properties=self._expands(request)) for c in page],
            }
        )

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

    def _get_comment(self, request: Request, key: str, comment_id: str) -> Response:
        if (comment := self._comment_on(key, comment_id)) is None:
            return jira_error(404, f"Can not find a comment for the id: {comment_id}.")
        return _ok(self._comment_json(comment))

    def _delete_comment(self, request: Request, key: str, comment_id: str) -> Response:
        if self._comment_on(key, comment_id) is None:
            return jira_error(404, f"Can not find a comment for the id: {comment_id}.")
        del self._comments[comment_id]
        return Response(204)

    def _add_comment(self, request: Request, key: str) -> Response:
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
            return _ok(self._comment_json(comment), status=201)

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
        return _ok({"isLast": True, "maxResults": 1000, "startAt": 0, "total": len(found), "values": found})

    def _property_keys(self, request: Request, comment_id: str) -> Response:
        comment = self._comments.get(comment_id)
        if comment is None:
            return jira_error(404, f"Can not find a comment for the id: {comment_id}.")
        return _ok(
            {
                "keys": [
                    {"self": f"{self.origin}{_API}/comment/{comment_id}/properties/{p['key']}", "key": p["key"]}
                    for p in comment.properties
                ]
            }
        )

    def _get_property(self, request: Request, comment_id: str, key: str) -> Response:
        comment = self._comments.get(comment_id)
        if comment is None:
            return jira_error(404, f"Can not find a comment for the id: {comment_id}.")
        if key not in comment.property_map:
            return jira_error(404, f"The property with key '{key}' does not exist.")
        return _ok({"key": key, "value": comment.property_map[key]})

    def _permission_search(self, request: Request) -> Response:
        if not self.browse_users:
            return jira_error(403, "You do not have the permission to browse users and groups.")
        wanted = [p for p in (request.arg("permissions") or "").split(",") if p]
        key = request.arg("issueKey")
        if not wanted:
            return jira_error(400, "The query parameter 'permissions' is required.")
        issue = self._issue(key) if key else None
        if issue is None:
            return jira_error(404, f"Issue does not exist or you do not have permission to see it.: {key}")
        found = permitted(
            self._users,
            self._grants,
            self._hidden_emails,
            issue=issue.key,
            wanted=wanted,
            query=request.arg(self.user_query_arg) or "",
        )
        return _ok([self._user_json(a, hide_email=a in self._hidden_emails) for a in found])

    def _server_info(self, request: Request) -> Response:
        """What the bot asks at start-up to tell Cloud from Data Center (REST v2 answers on both)."""
        return _ok({"baseUrl": self.origin, "version": "1001.0.0-SNAPSHOT", "deploymentType": "Cloud"})

    def _get_user(self, request: Request) -> Response:
        account_id = request.arg("accountId")
        if not account_id:
            return jira_error(400, "The query parameter 'accountId' is required.")
        if account_id not in self._users:
            return jira_error(404, "Specified user does not exist or you do not have required permissions")
        return _ok(self._user_json(account_id))
