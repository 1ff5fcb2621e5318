"""What the Jira emulator stores and records, and the error bodies it answers with, as Jira shapes them."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from emulators.adf_atlaskit import AtlaskitValidator
from emulators.adf_schema import AdfInvalid, validate_adf
from emulators.http import JSON_CONTENT_TYPE, Response, json_response, parse_json

#: Jira Cloud refuses comments longer than this (documented limit, in characters).
COMMENT_LIMIT = 32_767
#: Jira Cloud's limit on one entity property value, in bytes of JSON.
PROPERTY_VALUE_LIMIT = 32_768
#: Default page size of GET /issue/{key}/comment in Jira Cloud's documentation.
DEFAULT_MAX_RESULTS = 5000


@dataclass
class JiraIssue:
    """One issue the tests registered with `add_issue`."""

    id: str
    key: str
    summary: str
    issue_type: str
    status: str
    assignee_account_id: str | None
    assignee_email_hidden: bool = False


@dataclass
class JiraComment:
    """A stored comment with its properties and the exact bytes of the request that created it."""

    id: str
    issue_key: str
    body: Any
    properties: list[dict[str, Any]]
    raw: bytes
    created: str
    author: dict[str, Any]

    @property
    def property_map(self) -> dict[str, Any]:
        """Properties by key."""
        return {p["key"]: p["value"] for p in self.properties}


@dataclass
class PostAttempt:
    """Every POST the emulator received, failed ones included, with its raw body and the status answered."""

    path: str
    query: dict[str, list[str]]
    body: bytes
    status: int = 0
    headers: dict[str, str] = field(default_factory=dict)


@dataclass
class Injection:
    """One queued fault for a (method, path): an error status, a delay, or a reply stalled after storing."""

    status: int | None = None
    retry_after: int | None = None
    rate_limit_reason: str | None = None
    body: Any = None
    timeout_after_store: bool = False
    stall: float | None = 30.0
    delay: float | None = None


_DEFAULT_MESSAGES = {
    400: "Bad request.",
    401: "You are not authenticated. Authentication required to perform this operation.",
    403: "You do not have permission to perform this operation.",
    404: "Issue does not exist or you do not have permission to see it.",
    429: "Rate limit exceeded.",
    500: "Internal server error.",
    502: "Bad gateway.",
    503: "Service unavailable.",
}


def jira_error(
    status: int, *messages: str, errors: dict[str, str] | None = None, headers: dict[str, str] | None = None
) -> Response:
    """An error answer in Jira's `{"errorMessages": [...], "errors": {...}}` shape."""
    listed = list(messages) if messages or errors else [_DEFAULT_MESSAGES.get(status, "Error.")]
    return json_response(
        status, {"errorMessages": listed, "errors": errors or {}}, headers=headers, content_type=JSON_CONTENT_TYPE
    )


def injected_error(injection: Injection) -> Response:
    """The reply an injected fault asks for; 429 carries Retry-After and RateLimit-Reason as Jira sends."""
    status = injection.status or 503
    headers: dict[str, str] = {}
    if status == 429:
        headers["Retry-After"] = str(1 if injection.retry_after is None else injection.retry_after)
        headers["RateLimit-Reason"] = injection.rate_limit_reason or "jira-burst-based"
    elif injection.retry_after is not None:
        headers["Retry-After"] = str(injection.retry_after)
    if injection.body is not None:
        return json_response(status, injection.body, headers=headers, content_type=JSON_CONTENT_TYPE)
    return jira_error(status, headers=headers)


def adf_text_length(node: Any) -> int:
    """Characters of text an ADF document carries (the alternative measure of the comment limit)."""
    if isinstance(node, list):
        return sum(adf_text_length(n) for n in node)
    if isinstance(node, dict):
        own = len(node["text"]) if node.get("type") == "text" and isinstance(node.get("text"), str) else 0
        return own + adf_text_length(node.get("content", []))
    return 0


def property_problem(properties: Any) -> str | None:
    """Why Jira would refuse these comment properties, or None."""
    if not isinstance(properties, list):
        return "properties must be a list of {key, value}."
    for prop in properties:
        if not isinstance(prop, dict) or not isinstance(prop.get("key"), str) or "value" not in prop:
            return "Each property needs a string key and a value."
        if not 0 < len(prop["key"]) <= 255:
            return "The property key must be between 1 and 255 characters."
        if len(json.dumps(prop["value"]).encode()) > PROPERTY_VALUE_LIMIT:
            return "The property value is too large."
    return None


def permitted(
    users: dict[str, dict[str, Any]],
    grants: set[tuple[str, str, str]],
    hidden: set[str],
    *,
    issue: str,
    wanted: list[str],
    query: str,
) -> list[str]:
    """The account ids `user/permission/search` lists: every wanted permission held on the issue, and the
    query a part of their e-mail (unless hidden, as Atlassian privacy settings do) or the start of their name."""
    query = query.strip().lower()
    found = []
    for account_id, user in users.items():
        email = "" if account_id in hidden else str(user["emailAddress"] or "").lower()
        matches = not query or query in email or str(user["displayName"]).lower().startswith(query)
        if matches and all((account_id, issue, p) in grants for p in wanted):
            found.append(account_id)
    return found


def comment_problem(
    raw: bytes, *, atlaskit: AtlaskitValidator | None = None, measure: str = "text"
) -> tuple[Response | None, dict[str, Any]]:
    """Jira's 400 for a comment's request body, or (None, the payload): the ADF schema and, when given,
    Atlassian's validator, the length limit (`measure`: "text" as Jira counts, or "json"), the properties
    and the visibility. A pure function of the body, so the emulator runs it outside its lock."""
    try:
        payload = parse_json(raw)
    except ValueError as exc:
        return jira_error(400, f"Unexpected character in the request body: {exc}"), {}
    body = payload.get("body") if isinstance(payload, dict) else None
    if body is None:
        return jira_error(400, errors={"comment": "Comment body can not be empty!"}), {}
    if not isinstance(body, dict):
        return jira_error(
            400, errors={"comment": "Operation value must be an Atlassian Document (see the Atlassian Document Format)"}
        ), {}
    try:
        validate_adf(body)
        if atlaskit is not None:
            atlaskit.validate(body)
    except AdfInvalid as exc:
        return jira_error(400, "INVALID_INPUT", errors={"comment": f"INVALID_INPUT: {exc}"}), {}
    measured = (
        len(json.dumps(body, ensure_ascii=False, separators=(",", ":"))) if measure == "json" else adf_text_length(body)
    )
    if measured > COMMENT_LIMIT:
        return jira_error(
            400, errors={"comment": "The entered text is too long. It exceeds the allowed limit of 32,767 characters."}
        ), {}
    if problem := property_problem(payload.get("properties") or []):
        return jira_error(400, errors={"properties": problem}), {}
    if (problem := _visibility_problem(payload.get("visibility"))) is not None:
        return jira_error(400, errors={"visibility": problem}), {}
    return None, payload


def _visibility_problem(visibility: Any) -> str | None:
    """Why Jira would refuse a comment's `visibility`: a role by name, a group by id (or its name), nothing else."""
    if visibility is None:
        return None
    if not isinstance(visibility, dict) or visibility.get("type") not in ("role", "group"):
        return "Visibility type must be 'role' or 'group'."
    if visibility["type"] == "role" and not isinstance(visibility.get("value"), str):
        return "A role visibility needs the role's name as value."
    if visibility["type"] == "group" and not isinstance(visibility.get("identifier") or visibility.get("value"), str):
        return "A group visibility needs the group's identifier."
    return None
