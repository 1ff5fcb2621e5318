"""A loopback emulator of the Jira Cloud REST v3 routes the bot uses: issues, comments, properties, users.

Comments are validated against the official ADF schema and the 32,767-character limit, stored with
their properties and the raw request bytes, and faults (status codes, 429 with Retry-After, a reply
stalled after the comment is stored) can be queued per route.

Layers: users, permissions and issues in emulators/jira_directory.py; comments and their properties in
emulators/jira_comments.py; here basic auth, queued faults, the route table and the request log.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections import defaultdict, deque
from collections.abc import Callable
from dataclasses import replace
from typing import Any, Literal
from urllib.parse import unquote

from emulators.adf_atlaskit import ATLASKIT_PACKAGE, optional_atlaskit_validator
from emulators.adf_schema import adf_validator
from emulators.http import Request, Response
from emulators.jira_amend import CommentUpdates
from emulators.jira_comments import JiraComments
from emulators.jira_directory import API, ok
from emulators.jira_followups import FollowupState, followup_routes
from emulators.jira_issue_reads import IssueReads
from emulators.jira_records import Injection, PostAttempt, injected_error, jira_error

Route = tuple[str, re.Pattern[str], Callable[..., Response]]


class JiraEmulator(JiraComments):
    """Jira Cloud on 127.0.0.1 with basic auth (email + API token); everything recorded thread-safely."""

    def __init__(
        self,
        email: str = "bot@example.com",
        api_token: str = "jira-token",
        *,
        comment_limit_measure: Literal["json", "text"] = "json",
        host: str = "127.0.0.1",
        port: int = 0,
    ) -> None:
        super().__init__(comment_limit_measure=comment_limit_measure, host=host, port=port)
        self.email, self.api_token = email, api_token
        self._posts: list[PostAttempt] = []
        self._log: list[str] = []
        self._injections: dict[tuple[str, str], deque[Injection]] = defaultdict(deque)
        self.validator_note = ""
        self.add_user(self.bot_account_id, email=email, display_name="postmortem-bot")
        self._routes: list[Route] = [
            ("GET", re.compile(rf"{API}/issue/([^/]+)"), self._get_issue),
            ("GET", re.compile(rf"{API}/issue/([^/]+)/comment"), self._list_comments),
            ("POST", re.compile(rf"{API}/issue/([^/]+)/comment"), self._add_comment),
            ("GET", re.compile(rf"{API}/issue/([^/]+)/comment/(\d+)"), self._get_comment),
            ("DELETE", re.compile(rf"{API}/issue/([^/]+)/comment/(\d+)"), self._delete_comment),
            ("POST", re.compile(rf"{API}/comment/list"), self._comment_list),
            ("GET", re.compile(rf"{API}/comment/(\d+)/properties"), self._property_keys),
            ("GET", re.compile(rf"{API}/comment/(\d+)/properties/([^/]+)"), self._get_property),
            ("GET", re.compile(rf"{API}/user"), self._get_user),
            ("GET", re.compile(rf"{API}/user/permission/search"), self._permission_search),
            ("GET", re.compile(rf"{API}/myself"), lambda req: ok(self._user_json(self.bot_account_id))),
            ("GET", re.compile(r"/rest/api/2/serverInfo"), self._server_info),
        ]
        self.updates = CommentUpdates(self)  # comment PUTs (amendments): emulators/jira_amend.py
        self._routes += self.updates.routes()
        self.followups = FollowupState()  # follow-up issues, search, links: emulators/jira_followups.py
        self._routes += followup_routes(self, self.followups)
        self.issue_reads = IssueReads(self)  # issue description, remote links: emulators/jira_issue_reads.py
        self._routes[:0] = self.issue_reads.routes()

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
