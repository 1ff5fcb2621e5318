"""The Jira emulator's directory: users, who holds which permission on which issue, and the issues themselves, with
the routes that read them (`issue/{key}`, `user`, `user/permission/search`, `serverInfo`).

The first layer over the HTTP base; emulators/jira_comments.py stacks the comments on it and emulators/jira_cloud.py
the transport (auth, faults, routing). Callers hold the emulator's lock where they read several records at once.
"""

from __future__ import annotations

from typing import Any

from emulators.http import JSON_CONTENT_TYPE, Emulator, Request, Response, json_response
from emulators.jira_records import JiraIssue, jira_error, permitted

API = "/rest/api/3"


def ok(payload: Any, status: int = 200) -> Response:
    """A JSON answer with the content type Jira sends."""
    return json_response(status, payload, content_type=JSON_CONTENT_TYPE)


class JiraDirectory(Emulator):
    """Users, grants and issues kept in memory; the bot's own account is `bot_account_id`."""

    #: The permission search's user parameter (Data Center: `username`).
    user_query_arg = "query"

    def __init__(self, *, host: str = "127.0.0.1", port: int = 0) -> None:
        super().__init__(host=host, port=port)
        self.bot_account_id = "557058:postmortem-bot"
        self._issues: dict[str, JiraIssue] = {}
        self._users: dict[str, dict[str, Any]] = {}
        self._counter = 10_000
        #: (account id, issue key, permission) triples `user/permission/search` answers with; see `grant`.
        self._grants: set[tuple[str, str, str]] = set()
        self._hidden_emails: set[str] = set()
        #: False answers `user/permission/search` with 403, as for a bot account without "Browse users".
        self.browse_users = True

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

    # views of the data --------------------------------------------------------------------------
    def _user_json(self, account_id: str, *, hide_email: bool = False) -> dict[str, Any]:
        user = self._users[account_id]
        shown = {
            "self": f"{self.origin}{API}/user?accountId={account_id}",
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
        return ok(
            {
                "id": issue.id,
                "key": issue.key,
                "self": f"{self.origin}{API}/issue/{issue.id}",
                "fields": {
                    "summary": issue.summary,
                    "issuetype": {"name": issue.issue_type},
                    "status": {"name": issue.status},
                    "assignee": assignee,
                },
            }
        )

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
        return ok([self._user_json(a, hide_email=a in self._hidden_emails) for a in found])

    def _server_info(self, request: Request) -> Response:
        """What the bot asks at start-up to tell Cloud from Data Center (REST v2 answers on both)."""
        return ok({"baseUrl": self.origin, "version": "1001.0.0-SNAPSHOT", "deploymentType": "Cloud"})

    def _get_user(self, request: Request) -> Response:
        account_id = request.arg("accountId")
        if not account_id:
            return jira_error(400, "The query parameter 'accountId' is required.")
        if account_id not in self._users:
            return jira_error(404, "Specified user does not exist or you do not have required permissions")
        return ok(self._user_json(account_id))
