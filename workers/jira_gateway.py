"""Jira through atlassian-python-api, with every blind retry switched off (a POST must happen once): Cloud on REST v3,
Data Center / Server on REST v2. One gateway, parametrised by the deployment (`JiraApi`): paths, the permission
search's user parameter, and how comments are read back with their properties.
What a failure says: workers/jira_errors.py."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Literal

import requests
from atlassian import JiraCloud, JiraServer

from workers.jira_errors import JiraError as JiraError  # the gateway's errors, importable from here too
from workers.jira_errors import error_for

#: The comment property that marks our own comments (DESIGN §4).
PROPERTY_KEY = "postmortem-bot"
#: How many of the newest comments are searched for our own before a retry.
SEARCH_DEPTH = 100

Deployment = Literal["cloud", "datacenter"]


@dataclass(frozen=True)
class JiraApi:
    """What differs between the deployments in the calls the bot makes (DESIGN §4, "Jira Data Center / Server")."""

    deployment: Deployment
    #: The REST root: v3 (ADF bodies) on Cloud, v2 (wiki-markup bodies) on Data Center.
    root: str
    #: `user/permission/search`'s parameter matched against the e-mail.
    user_param: str
    #: `GET user`'s parameter naming a user as webhooks do (Cloud: accountId; Data Center: the user key).
    user_id_param: str
    #: Data Center lists comments with `expand=properties`; Cloud needs `POST comment/list` for them.
    list_expands_properties: bool

    @classmethod
    def of(cls, deployment: Deployment) -> JiraApi:
        if deployment == "datacenter":
            return cls(deployment, "rest/api/2", "username", "key", list_expands_properties=True)
        return cls(deployment, "rest/api/3", "query", "accountId", list_expands_properties=False)


@dataclass(frozen=True)
class PostedComment:
    """A comment of ours that exists in Jira."""

    id: str
    url: str


class JiraGateway:
    """The calls the worker makes: read an issue and who may comment, find our comments, post one, delete a
    duplicate. An empty `email` sends `api_token` as a Bearer token (a Data Center personal access token)."""

    def __init__(
        self, url: str, email: str, api_token: str, *, timeout: int = 15, deployment: Deployment = "cloud"
    ) -> None:
        self.url = url.rstrip("/")
        self.timeout = timeout
        self.api = JiraApi.of(deployment)
        self._client = _client(self.url, email, api_token, timeout=timeout, deployment=deployment)

    def comment_url(self, ticket: str, comment_id: str) -> str:
        return f"{self.url}/browse/{ticket}?focusedCommentId={comment_id}"

    def issue_exists(self, ticket: str) -> bool:
        try:
            self.call("GET", f"{self.api.root}/issue/{ticket}", params={"fields": "summary"})
        except JiraError as exc:
            if exc.status == 404:
                return False
            raise
        return True

    def user_email(self, account_id: str) -> str | None:
        """A user's e-mail from GET user (webhook payloads may omit it); None when hidden or unknown. `account_id` is
        the id a webhook names the user by: the account id on Cloud, the user key on Data Center."""
        try:
            user = self.call("GET", f"{self.api.root}/user", params={self.api.user_id_param: account_id})
        except JiraError as exc:
            if exc.status == 404:
                return None
            raise
        email = user.get("emailAddress")
        return str(email) if email else None

    def may_comment(self, ticket: str, email: str) -> bool:
        """Whether a Jira user with exactly this e-mail may comment on the issue (user/permission/search).
        A missing issue and one the user cannot see give the same False; a hidden e-mail matches no one."""
        try:
            found: Any = self.call(
                "GET",
                f"{self.api.root}/user/permission/search",
                params={
                    "permissions": "ADD_COMMENTS",
                    "issueKey": ticket,
                    self.api.user_param: email,
                    "maxResults": 50,
                },
            )
        except JiraError as exc:
            if exc.status == 404:
                return False
            if exc.status == 403:
                raise JiraError(
                    "The bot's Jira account may not browse users (needed to check who may comment).", status=403
                ) from None
            raise
        wanted = email.strip().lower()
        return isinstance(found, list) and any(
            isinstance(u, dict)
            and str(u.get("emailAddress") or "").strip().lower() == wanted
            and u.get("active", True) is not False
            for u in found
        )

    def find_own_comment(self, ticket: str, *, session: str, version: int) -> PostedComment | None:
        """Our newest comment for (session, version) if one exists."""
        found = self.own_comments(ticket, session=session, version=version)
        return found[0] if found else None

    def own_comments(self, ticket: str, *, session: str, version: int) -> list[PostedComment]:
        """Every comment of ours for (session, version) among the newest SEARCH_DEPTH, newest first, read
        through their properties (more than one only when Jira stored a POST the bot thought lost)."""
        params: dict[str, Any] = {"orderBy": "-created", "maxResults": SEARCH_DEPTH}
        if self.api.list_expands_properties:
            params["expand"] = "properties"
        page = self.call("GET", f"{self.api.root}/issue/{ticket}/comment", params=params)
        comments = [c for c in page.get("comments", []) if isinstance(c, dict)]
        ids = [str(c["id"]) for c in comments]
        if not ids:
            return []
        if not self.api.list_expands_properties:
            listed = self.call(
                "POST",
                f"{self.api.root}/comment/list",
                params={"expand": "properties"},
                data={"ids": [int(i) if i.isdigit() else i for i in ids]},
            )
            comments = [c for c in listed.get("values", []) if isinstance(c, dict)]
        ours = {str(c["id"]) for c in comments if _marks(c, session=session, version=version)}
        return [PostedComment(cid, self.comment_url(ticket, cid)) for cid in ids if cid in ours]

    def delete_comment(self, ticket: str, comment_id: str) -> None:
        """Delete one of the bot's comments (Jira lets an account delete its own)."""
        self.call("DELETE", f"{self.api.root}/issue/{ticket}/comment/{comment_id}")

    def post_comment(self, ticket: str, body: bytes) -> PostedComment:
        """POST the exact request body shown for approval.

        The client serialises `data` with `json.dumps` defaults; the renderer produced `body` with the same
        defaults, so the bytes on the wire are `body` itself (checked here, not assumed).
        """
        data = json.loads(body)
        if json.dumps(data).encode() != body:
            raise ValueError("request body is not in the client's serialisation; refusing to send other bytes")
        created = self.call("POST", f"{self.api.root}/issue/{ticket}/comment", data=data)
        cid = str(created["id"])
        return PostedComment(cid, self.comment_url(ticket, cid))

    def myself(self) -> str:
        """The bot account's name as Jira knows it: the start-up check that the credentials work."""
        me = self.call("GET", f"{self.api.root}/myself")
        return str(me.get("displayName") or me.get("name") or me.get("accountId") or "")

    def call(
        self, method: str, path: str, *, params: dict[str, Any] | None = None, data: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        """One REST call under `self.api.root`'s deployment rules; a failure becomes a `JiraError` (the one place
        that maps HTTP to the bot's errors, so modules with more calls build on it)."""
        try:
            response = self._client.request(method, path, params=params, data=data, advanced_mode=True)
        except requests.Timeout:
            raise JiraError.of("jira_timeout", ambiguous=True) from None
        except requests.ConnectionError:
            raise JiraError.of("jira_unreachable", ambiguous=True, url=self.url) from None
        if response.status_code >= 400:
            raise error_for(response)
        result: dict[str, Any] = response.json() if response.content else {}
        return result


def server_deployment(url: str, email: str, api_token: str, *, timeout: int = 15) -> Deployment:
    """`GET /rest/api/2/serverInfo` (answered by both): `deploymentType` "Cloud" is Cloud, anything else (or none, as
    on Server) is Data Center / Server."""
    info = JiraGateway(url, email, api_token, timeout=timeout, deployment="datacenter").call(
        "GET", "rest/api/2/serverInfo"
    )
    return "cloud" if str(info.get("deploymentType") or "").lower() == "cloud" else "datacenter"


def start_up(
    url: str, email: str, api_token: str, *, deployment: Deployment | None, timeout: int = 15
) -> tuple[Deployment, str]:
    """The worker's start-up check: the deployment (as configured, else asked of Jira) and the line saying it; the
    credentials are tried once (`myself`). Raises JiraError (one plain line) when they fail or Jira is unreachable."""
    found = deployment or server_deployment(url, email, api_token, timeout=timeout)
    if found == "cloud" and not email:
        raise JiraError("JIRA_EMAIL is empty: Jira Cloud takes the account's e-mail with its API token.")
    me = JiraGateway(url, email, api_token, timeout=timeout, deployment=found).myself()
    how = "set by JIRA_DEPLOYMENT" if deployment else "found by serverInfo"
    name = "Jira Cloud (REST v3)" if found == "cloud" else "Jira Data Center / Server (REST v2, wiki markup)"
    auth = "basic auth" if email else "a personal access token (Bearer)"
    return found, f"{name} at {url}, {how}; signed in as {me or 'the bot account'} with {auth}"


def _client(url: str, email: str, api_token: str, *, timeout: int, deployment: Deployment) -> JiraCloud | JiraServer:
    """The HTTP client: basic auth with an e-mail, else the token as Bearer (a personal access token)."""
    # retry_with_header would sleep inside the call on a 429; backoff_and_retry would repeat POSTs.
    kind = JiraCloud if deployment == "cloud" else JiraServer
    if email:
        return kind(
            url, username=email, password=api_token, timeout=timeout, backoff_and_retry=False, retry_with_header=False
        )
    return kind(url, token=api_token, timeout=timeout, backoff_and_retry=False, retry_with_header=False)


def _marks(comment: dict[str, Any], *, session: str, version: int) -> bool:
    """Whether the comment carries our property for (session, version)."""
    return any(
        isinstance(prop, dict)
        and prop.get("key") == PROPERTY_KEY
        and (prop.get("value") or {}).get("session") == session
        and (prop.get("value") or {}).get("version") == version
        for prop in comment.get("properties", [])
    )
