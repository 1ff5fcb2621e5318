"""The Jira calls of follow-up issues (DESIGN §4), on both deployments through `JiraGateway.call`: create an issue,
find a session's issues by label, link one to the ticket, delete a copy stored late, and what the bot may
do in a project.

Cloud (REST v3) returns issue properties in the JQL search (`search/jql?properties=`); Data Center's
`rest/api/2/search` does not (it has no `properties` parameter), so there each issue found by its label has its
`postmortem-bot` property read on its own (`issue/{key}/properties/postmortem-bot`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from workers.jira_gateway import PROPERTY_KEY, JiraApi, JiraError

#: The link type between a follow-up issue and the ticket.
LINK_TYPE = "Relates"
#: How many of a session's issues one search returns (a post-mortem has a handful of action items).
SEARCH_SIZE = 100


@runtime_checkable
class JiraRest(Protocol):
    """The one REST primitive (workers/jira_gateway.py `JiraGateway`)."""

    api: JiraApi

    def call(
        self, method: str, path: str, *, params: dict[str, Any] | None = None, data: dict[str, Any] | None = None
    ) -> dict[str, Any]: ...


@dataclass(frozen=True)
class FoundIssue:
    """An issue of a session found by its label: which version and item made it, and whether it links the ticket."""

    key: str
    version: int | None
    item: int | None
    linked: bool


def rest_of(jira: object) -> JiraRest:
    """The REST primitive of the worker's Jira port (a port without one cannot create follow-up issues)."""
    if not isinstance(jira, JiraRest):
        raise TypeError("the Jira port has no REST call: follow-up issues need workers/jira_gateway.py JiraGateway")
    return jira


def create_issue(rest: JiraRest, body: bytes) -> str:
    """POST the exact create body shown for approval; the new issue's key."""
    data = json.loads(body)
    if json.dumps(data).encode() != body:
        raise ValueError("create body is not in the client's serialisation; refusing to send other bytes")
    created = rest.call("POST", f"{rest.api.root}/issue", data=data)
    return str(created["key"])


def find_issues(rest: JiraRest, *, session: str, label: str, ticket: str) -> list[FoundIssue]:
    """The issues carrying the session's label (as far as Jira's search index knows them yet), with their property."""
    params: dict[str, Any] = {"jql": f'labels = "{label}"', "fields": "summary,issuelinks", "maxResults": SEARCH_SIZE}
    if rest.api.deployment == "cloud":
        params["properties"] = PROPERTY_KEY
        page = rest.call("GET", f"{rest.api.root}/search/jql", params=params)
    else:
        page = rest.call("GET", f"{rest.api.root}/search", params=params)
    found = []
    for issue in page.get("issues", []):
        if not isinstance(issue, dict) or not issue.get("key"):
            continue
        key = str(issue["key"])
        marker = (issue.get("properties") or {}).get(PROPERTY_KEY) if rest.api.deployment == "cloud" else None
        if rest.api.deployment != "cloud":
            marker = _property(rest, key)
        if not isinstance(marker, dict) or marker.get("session") != session:
            continue
        links = (issue.get("fields") or {}).get("issuelinks") or []
        found.append(FoundIssue(key, _int(marker.get("version")), _int(marker.get("item")), _links(links, ticket)))
    return found


def link(rest: JiraRest, key: str, ticket: str) -> None:
    """Link a follow-up issue to the ticket (`Relates`)."""
    rest.call(
        "POST",
        f"{rest.api.root}/issueLink",
        data={"type": {"name": LINK_TYPE}, "inwardIssue": {"key": key}, "outwardIssue": {"key": ticket}},
    )


def delete_issue(rest: JiraRest, key: str) -> None:
    """Delete an issue (`DELETE issue/{key}`: the Delete issues permission, which many bot accounts lack)."""
    rest.call("DELETE", f"{rest.api.root}/issue/{key}")


def missing_permissions(rest: JiraRest, project: str) -> list[str]:
    """Which of CREATE_ISSUES and LINK_ISSUES the bot's account lacks in the project (`mypermissions`)."""
    wanted = ("CREATE_ISSUES", "LINK_ISSUES")
    answer = rest.call(
        "GET", f"{rest.api.root}/mypermissions", params={"projectKey": project, "permissions": ",".join(wanted)}
    )
    held = answer.get("permissions") or {}
    return [p for p in wanted if not (isinstance(held.get(p), dict) and held[p].get("havePermission") is True)]


def issue_types(rest: JiraRest, project: str) -> list[str]:
    """The names of the issue types the bot may create in the project (`issue/createmeta/{project}/issuetypes`:
    `issueTypes` on Cloud, `values` on Data Center 8.4 and later)."""
    answer = rest.call("GET", f"{rest.api.root}/issue/createmeta/{project}/issuetypes", params={"maxResults": 200})
    listed = answer.get("issueTypes") or answer.get("values") or []
    return [str(t["name"]) for t in listed if isinstance(t, dict) and t.get("name")]


def assignee_for(rest: JiraRest, email: str) -> dict[str, str] | None:
    """Jira's assignee object for the one active user whose e-mail is exactly `email` (`user/search`): an accountId
    on Cloud, a user name on Data Center; None when nobody (or a hidden e-mail) matches."""
    param = "query" if rest.api.deployment == "cloud" else "username"
    try:
        users: Any = rest.call("GET", f"{rest.api.root}/user/search", params={param: email, "maxResults": 10})
    except JiraError as exc:
        if exc.status in (400, 403, 404):
            return None
        raise
    wanted = email.strip().lower()
    matches = [
        u
        for u in (users if isinstance(users, list) else [])
        if isinstance(u, dict)
        and str(u.get("emailAddress") or "").strip().lower() == wanted
        and u.get("active", True) is not False
    ]
    if len(matches) != 1:
        return None
    user = matches[0]
    if rest.api.deployment == "cloud":
        return {"accountId": str(user["accountId"])} if user.get("accountId") else None
    return {"name": str(user["name"])} if user.get("name") else None


def _property(rest: JiraRest, key: str) -> Any:
    try:
        answer = rest.call("GET", f"{rest.api.root}/issue/{key}/properties/{PROPERTY_KEY}")
    except JiraError as exc:
        if exc.status == 404:
            return None
        raise
    return answer.get("value")


def _links(links: Any, ticket: str) -> bool:
    """Whether an issue's `issuelinks` include a `Relates` link to the ticket (either direction)."""
    for entry in links if isinstance(links, list) else []:
        if not isinstance(entry, dict) or (entry.get("type") or {}).get("name") != LINK_TYPE:
            continue
        other = entry.get("outwardIssue") or entry.get("inwardIssue") or {}
        if isinstance(other, dict) and other.get("key") == ticket:
            return True
    return False


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None
