"""Follow-up issue routes of the Jira emulator (Cloud v3 and Data Center v2): create an issue, the JQL label search
with an optional index lag, issue links, issue properties, `mypermissions` and the create metadata's issue types.

`DELETE issue/{key}` deletes an issue (403 in a project of `no_delete`, where the bot lacks Delete issues).
Creates are validated as Jira does: required fields, a summary of at most 255 characters on one line, an issue type
of the project, the bot's Create issues permission, an ADF description on v3 (a string on v2), a known assignee.
Faults (a 503 after the issue is stored, a 429 with Retry-After) come from the emulator's `inject`.

Jira's search index lags behind a create: `FollowupState.index_lag_searches` hides each new issue from that many
searches, and `index_lag_seconds` from searches until that much of `clock` has passed (both 0 by default).
Data Center's `rest/api/2/search` returns no issue properties (it has no `properties` parameter); Cloud's
`search/jql` does, and answers 410 to the retired `rest/api/2/search` and `rest/api/3/search`.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from emulators.adf_schema import AdfInvalid, validate_adf
from emulators.http import JSON_CONTENT_TYPE, Request, Response, json_response, parse_json
from emulators.jira_records import jira_error, property_problem

if TYPE_CHECKING:
    from emulators.jira_cloud import JiraEmulator

Route = tuple[str, re.Pattern[str], Callable[..., Response]]

SUMMARY_LIMIT = 255
LINK_TYPES = ("Relates", "Blocks", "Duplicate", "Cloners")
DEFAULT_ISSUE_TYPES = ("Task", "Bug", "Story", "Epic")
_LABEL_JQL = re.compile(r'\s*labels\s*=\s*"([^"]+)"\s*')


@dataclass
class CreatedIssue:
    """An issue made through `POST issue`, with the raw request bytes and what search and links need."""

    key: str
    id: str
    project: str
    fields: dict[str, Any]
    properties: dict[str, Any]
    raw: bytes
    visible_at: float
    hidden_searches: int


@dataclass
class FollowupState:
    """What the follow-up routes keep, and the knobs tests turn (projects' issue types, permissions, index lag)."""

    clock: Callable[[], float] = time.monotonic
    index_lag_seconds: float = 0.0
    index_lag_searches: int = 0
    issue_types: dict[str, tuple[str, ...]] = field(default_factory=dict)
    no_create: set[str] = field(default_factory=set)
    no_link: set[str] = field(default_factory=set)
    no_delete: set[str] = field(default_factory=set)  # projects where the bot lacks the Delete issues permission
    deletes: list[tuple[str, int]] = field(default_factory=list)  # (key, status answered) of each DELETE issue
    created: dict[str, CreatedIssue] = field(default_factory=dict)
    links: list[tuple[str, str, str]] = field(default_factory=list)  # (type, inward key, outward key)
    searches: int = 0
    _numbers: dict[str, int] = field(default_factory=dict)

    def types_of(self, project: str) -> tuple[str, ...]:
        return self.issue_types.get(project, DEFAULT_ISSUE_TYPES)

    def next_key(self, project: str) -> str:
        self._numbers[project] = self._numbers.get(project, 900) + 1
        return f"{project}-{self._numbers[project]}"

    def issues_labelled(self, label: str) -> list[CreatedIssue]:
        return [i for i in self.created.values() if label in i.fields.get("labels", [])]


def _ok(payload: Any, status: int = 200) -> Response:
    return json_response(status, payload, content_type=JSON_CONTENT_TYPE)


def followup_routes(emu: JiraEmulator, state: FollowupState) -> list[Route]:
    """The routes, written with v3 paths (the Data Center emulator rewrites them to v2, and says it is Data Center
    by listing comments with their properties)."""
    api = "/rest/api/3"

    def datacenter() -> bool:
        return bool(emu.list_expands_properties)

    def projects() -> set[str]:
        return {key.rpartition("-")[0] for key in emu._issues}

    def create(request: Request) -> Response:
        try:
            payload = parse_json(request.body)
        except ValueError as exc:
            return jira_error(400, f"Unexpected character in the request body: {exc}")
        fields = payload.get("fields") if isinstance(payload, dict) else None
        if not isinstance(fields, dict):
            return jira_error(400, "Issue fields are required.")
        project = (fields.get("project") or {}).get("key") if isinstance(fields.get("project"), dict) else None
        if project not in projects():
            return jira_error(400, errors={"project": "Specify a valid project ID or key"})
        if project in state.no_create:
            return jira_error(400, errors={"project": "You do not have permission to create issues in this project."})
        if errors := _field_errors(emu, state, fields, project, datacenter=datacenter()):
            return jira_error(400, errors=errors)
        if problem := property_problem(payload.get("properties") or []):
            return jira_error(400, errors={"properties": problem})
        key = state.next_key(project)
        emu.add_issue(key, issue_type=fields["issuetype"]["name"], status="To Do", summary=fields["summary"])
        issue = CreatedIssue(
            key,
            emu._issues[key].id,
            project,
            fields,
            {p["key"]: p["value"] for p in payload.get("properties") or []},
            request.body,
            state.clock() + state.index_lag_seconds,
            state.index_lag_searches,
        )
        state.created[key] = issue
        return _ok({"id": issue.id, "key": key, "self": f"{emu.origin}{api}/issue/{issue.id}"}, status=201)

    def search(request: Request, *, cloud: bool) -> Response:
        if cloud == datacenter():
            return jira_error(410 if cloud is False else 404, "This endpoint is not available on this deployment.")
        matched = _LABEL_JQL.fullmatch(request.arg("jql") or "")
        if matched is None:
            return jira_error(400, 'The emulator understands only labels = "<label>".')
        state.searches += 1
        visible = []
        for issue in state.issues_labelled(matched.group(1)):
            if issue.hidden_searches > 0 or state.clock() < issue.visible_at:
                issue.hidden_searches = max(0, issue.hidden_searches - 1)
                continue
            visible.append(_search_json(emu, state, issue, request, properties=cloud))
        if cloud:
            return _ok({"issues": visible, "isLast": True})
        return _ok({"startAt": 0, "maxResults": 100, "total": len(visible), "issues": visible})

    def get_property(request: Request, key: str, name: str) -> Response:
        issue = state.created.get(key)
        if issue is None and key not in emu._issues:
            return jira_error(404)
        if issue is None or name not in issue.properties:
            return jira_error(404, f"The property with key '{name}' does not exist.")
        return _ok({"key": name, "value": issue.properties[name]})

    def delete(request: Request, key: str) -> Response:
        status = 204
        if key not in emu._issues:
            status = 404
        elif key.rpartition("-")[0] in state.no_delete:
            status = 403
        state.deletes.append((key, status))
        if status == 404:
            return jira_error(404, "Issue does not exist or you do not have permission to see it.")
        if status == 403:
            return jira_error(403, "You do not have permission to delete issues in this project.")
        del emu._issues[key]
        state.created.pop(key, None)
        state.links[:] = [link for link in state.links if key not in link[1:]]
        return Response(204)

    def issue_link(request: Request) -> Response:
        try:
            payload = parse_json(request.body)
            kind, inward, outward = (
                payload["type"]["name"],
                payload["inwardIssue"]["key"],
                payload["outwardIssue"]["key"],
            )
        except (ValueError, KeyError, TypeError):
            return jira_error(400, "type, inwardIssue and outwardIssue are required.")
        if kind not in LINK_TYPES:
            return jira_error(404, f"No issue link type with name '{kind}' found.")
        if inward not in emu._issues or outward not in emu._issues:
            return jira_error(404, "Issue does not exist or you do not have permission to see it.")
        if inward.rpartition("-")[0] in state.no_link:
            return jira_error(403, "You do not have the permission to link issues.")
        if (kind, inward, outward) not in state.links:  # Jira keeps one link of a type between two issues
            state.links.append((kind, inward, outward))
        return Response(201)

    def my_permissions(request: Request) -> Response:
        project = request.arg("projectKey")
        wanted = [p for p in (request.arg("permissions") or "").split(",") if p]
        if not wanted and not datacenter():
            return jira_error(400, "The permissions query parameter is required.")
        if project not in projects():
            return jira_error(404, f"No project could be found with key '{project}'.")
        denied = {"CREATE_ISSUES": state.no_create, "LINK_ISSUES": state.no_link}
        held = {
            p: {
                "key": p,
                "name": p.replace("_", " ").title(),
                "type": "PROJECT",
                "havePermission": project not in denied.get(p, set()),
            }
            for p in wanted or list(denied)
        }
        return _ok({"permissions": held})

    def issue_types(request: Request, project: str) -> Response:
        if project not in projects():
            return jira_error(404, f"No project could be found with key '{project}'.")
        listed = [
            {"id": str(10000 + n), "name": name, "subtask": False} for n, name in enumerate(state.types_of(project))
        ]
        if datacenter():
            return _ok({"maxResults": 50, "startAt": 0, "total": len(listed), "isLast": True, "values": listed})
        return _ok({"maxResults": 50, "startAt": 0, "total": len(listed), "issueTypes": listed})

    def user_search(request: Request) -> Response:
        wanted = (request.arg("username" if datacenter() else "query") or "").strip().lower()
        found = [
            emu._user_json(a, hide_email=a in emu._hidden_emails)
            for a, u in emu._users.items()
            if wanted and a not in emu._hidden_emails and str(u.get("emailAddress") or "").lower() == wanted
        ]
        return _ok(found)

    return [
        ("POST", re.compile(rf"{api}/issue"), create),
        ("GET", re.compile(rf"{api}/search/jql"), lambda r: search(r, cloud=True)),
        ("GET", re.compile(r"/rest/api/2/search"), lambda r: search(r, cloud=False)),
        ("GET", re.compile(rf"{api}/issue/([^/]+)/properties/([^/]+)"), get_property),
        ("DELETE", re.compile(rf"{api}/issue/([^/]+)"), delete),
        ("POST", re.compile(rf"{api}/issueLink"), issue_link),
        ("GET", re.compile(rf"{api}/mypermissions"), my_permissions),
        ("GET", re.compile(rf"{api}/issue/createmeta/([^/]+)/issuetypes"), issue_types),
        ("GET", re.compile(rf"{api}/user/search"), user_search),
    ]


def _field_errors(
    emu: JiraEmulator, state: FollowupState, fields: dict[str, Any], project: str, *, datacenter: bool
) -> dict[str, str]:
    """Jira's per-field errors of a create request."""
    errors: dict[str, str] = {}
    issue_type = (fields.get("issuetype") or {}).get("name") if isinstance(fields.get("issuetype"), dict) else None
    if issue_type not in state.types_of(project):
        errors["issuetype"] = "Specify a valid issue type"
    summary = fields.get("summary")
    if not isinstance(summary, str) or not summary.strip():
        errors["summary"] = "You must specify a summary of the issue."
    elif len(summary) > SUMMARY_LIMIT:
        errors["summary"] = "Summary must be less than 255 characters."
    elif "\n" in summary or "\r" in summary:
        errors["summary"] = "The summary is invalid because it contains newline characters."
    description = fields.get("description")
    if description is not None:
        if datacenter and not isinstance(description, str):
            errors["description"] = "Operation value must be a string"
        elif not datacenter:
            try:
                validate_adf(description)
            except AdfInvalid:
                errors["description"] = (
                    "Operation value must be an Atlassian Document (see the Atlassian Document Format)"
                )
    labels = fields.get("labels", [])
    if not isinstance(labels, list) or any(not isinstance(x, str) or " " in x or not x for x in labels):
        errors["labels"] = "Labels cannot contain spaces."
    assignee = fields.get("assignee")
    if assignee is not None:
        who = (assignee or {}).get("name" if datacenter else "accountId") if isinstance(assignee, dict) else None
        if who not in emu._users:
            errors["assignee"] = f"User '{who}' does not exist."
    return errors


def _search_json(
    emu: JiraEmulator, state: FollowupState, issue: CreatedIssue, request: Request, *, properties: bool
) -> dict[str, Any]:
    """One issue of a search answer: the fields asked for (summary, issuelinks), on Cloud the properties asked for."""
    wanted = set((request.arg("fields") or "").split(","))
    fields: dict[str, Any] = {}
    if "summary" in wanted:
        fields["summary"] = issue.fields["summary"]
    if "issuelinks" in wanted:
        fields["issuelinks"] = [
            {"type": {"name": kind}, "outwardIssue": {"key": outward}} if inward == issue.key
            else {"type": {"name": kind}, "inwardIssue": {"key": inward}}
            for kind, inward, outward in state.links
            if issue.key in (inward, outward)
        ]  # fmt: skip
    shown: dict[str, Any] = {
        "id": issue.id,
        "key": issue.key,
        "self": f"{emu.origin}/issue/{issue.id}",
        "fields": fields,
    }
    if properties:
        asked = [p for p in (request.arg("properties") or "").split(",") if p]
        shown["properties"] = {k: v for k, v in issue.properties.items() if k in asked}
    return shown
