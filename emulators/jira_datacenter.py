"""Jira Data Center / Server mode of the Jira emulator: REST v2 routes, `serverInfo`, a personal access token as
`Authorization: Bearer`, comment bodies as wiki-markup strings held to 32,767 characters.

The same records, faults and views as the Cloud emulator (emulators/jira_cloud.py); only what differs on Data
Center is here. Comments may be listed with `expand=properties`, and the permission search takes `username=`.
"""

from __future__ import annotations

import re
from typing import Any

from emulators.http import Request, Response, parse_json
from emulators.jira_cloud import JiraEmulator
from emulators.jira_directory import ok
from emulators.jira_records import COMMENT_LIMIT, jira_error, property_problem

_API2 = "/rest/api/2"


def wiki_comment_problem(raw: bytes) -> tuple[Response | None, dict[str, Any]]:
    """Data Center's 400 for a comment request, or (None, the payload): a string body within the limit, properties
    as on Cloud, a role or group visibility."""
    try:
        payload = parse_json(raw)
    except ValueError as exc:
        return jira_error(400, f"Unexpected character in the request body: {exc}"), {}
    body = payload.get("body") if isinstance(payload, dict) else None
    if not isinstance(body, str) or not body.strip():
        return jira_error(400, errors={"comment": "Comment body can not be empty!"}), {}
    if len(body) > COMMENT_LIMIT:
        return jira_error(
            400, errors={"comment": "The entered text is too long. It exceeds the allowed limit of 32,767 characters."}
        ), {}
    if problem := property_problem(payload.get("properties") or []):
        return jira_error(400, errors={"properties": problem}), {}
    visibility = payload.get("visibility")
    if visibility is not None and not (
        isinstance(visibility, dict)
        and visibility.get("type") in ("role", "group")
        and visibility.get("value")
        or isinstance(visibility, dict)
        and visibility.get("type") == "group"
        and visibility.get("identifier")
    ):
        return jira_error(400, errors={"visibility": "Invalid visibility."}), {}
    return None, payload


class DataCenterJiraEmulator(JiraEmulator):
    """Jira Data Center on 127.0.0.1; `api_token` is the personal access token, `username` the bot's login."""

    user_query_arg = "username"
    list_expands_properties = True

    def __init__(self, api_token: str = "jira-pat", *, version: str = "9.12.0", **kwargs: Any) -> None:
        super().__init__(api_token=api_token, **kwargs)
        self.version = version
        #: False answers 400 to a comment carrying properties, as a site that refuses them would.
        self.accepts_properties = True
        v3 = "/rest/api/3"
        self._routes = [(m, re.compile(p.pattern.replace(v3, _API2)), h) for m, p, h in self._routes]

    def start(self) -> str:
        self.validator_note = "Jira emulator (Data Center): comments are wiki-markup strings, checked for length."
        return super(JiraEmulator, self).start()

    def _authorised(self, request: Request) -> bool:
        scheme, _, token = request.header("authorization").partition(" ")
        return scheme.lower() == "bearer" and token == self.api_token

    def _comment_problem(self, raw: bytes) -> tuple[Response | None, dict[str, Any]]:
        refused, payload = wiki_comment_problem(raw)
        if refused is None and payload.get("properties") and not self.accepts_properties:
            return jira_error(400, errors={"properties": 'Unrecognized field "properties"'}), {}
        return refused, payload

    def _user_json(self, account_id: str, *, hide_email: bool = False) -> dict[str, Any]:
        """Data Center names a user by key and login name (no account id); the emulator's id is both."""
        shown = super()._user_json(account_id, hide_email=hide_email)
        del shown["accountId"], shown["accountType"]
        shown["self"] = f"{self.origin}{_API2}/user?key={account_id}"
        return {"key": account_id, "name": account_id, **shown}

    def _get_user(self, request: Request) -> Response:
        wanted = request.arg("key") or request.arg("username")
        if not wanted:
            return jira_error(400, "Either the 'username' or the 'key' query parameter is required.")
        if wanted not in self._users:
            return jira_error(404, f"The user named '{wanted}' does not exist")
        return ok(self._user_json(wanted))

    def _server_info(self, request: Request) -> Response:
        return ok(
            {
                "baseUrl": self.origin,
                "version": self.version,
                "versionNumbers": [int(n) for n in self.version.split(".")[:3]],
                "deploymentType": "DataCenter",
                "serverTitle": "Jira (emulated)",
            }
        )
