"""The Jira reads of the prefilled modal (DESIGN §4 "Starting where the debugging happened"): an issue's summary,
description, assignee and status, and its remote links; Cloud on REST v3 (an ADF description), Data Center on REST
v2 (a wiki-markup description). Built on the gateway's one REST primitive (`JiraGateway.call`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from workers.jira_gateway import JiraApi, JiraError

#: The issue fields read, and nothing more.
ISSUE_FIELDS = "summary,description,assignee,status"


class JiraCaller(Protocol):
    """What these reads need of the gateway (workers/jira_gateway.py `JiraGateway`)."""

    api: JiraApi

    def call(
        self, method: str, path: str, *, params: dict[str, Any] | None = None, data: dict[str, Any] | None = None
    ) -> Any: ...


@dataclass(frozen=True)
class IssueFacts:
    """What the issue says: its description as Jira gives it (ADF document or wiki string), the assignee's display
    name, and the URLs of its remote links."""

    key: str
    summary: str | None
    description: Any
    assignee: str | None
    status: str | None
    remote_urls: tuple[str, ...]
    #: False when Jira would not list the remote links now (a 5xx, a timeout): the fields still count.
    links_read: bool = True


def read_issue(jira: JiraCaller, key: str) -> IssueFacts:
    """The issue's fields and remote links; raises JiraError (`status` 403, 404, or none when Jira is down)."""
    issue = jira.call("GET", f"{jira.api.root}/issue/{key}", params={"fields": ISSUE_FIELDS})
    fields = issue.get("fields") if isinstance(issue, dict) else None
    fields = fields if isinstance(fields, dict) else {}
    assignee = fields.get("assignee") if isinstance(fields.get("assignee"), dict) else {}
    status = fields.get("status") if isinstance(fields.get("status"), dict) else {}
    try:
        urls, read = remote_link_urls(jira, key), True
    except JiraError:  # the issue was read; only its links are missing, and the modal says so
        urls, read = (), False
    return IssueFacts(
        key=key,
        summary=_text(fields.get("summary")),
        description=fields.get("description"),
        assignee=_text((assignee or {}).get("displayName")),
        status=_text((status or {}).get("name")),
        remote_urls=urls,
        links_read=read,
    )


def remote_link_urls(jira: JiraCaller, key: str) -> tuple[str, ...]:
    """The URLs of the issue's remote links (`issue/{key}/remotelink`); none when Jira refuses to list them."""
    try:
        links = jira.call("GET", f"{jira.api.root}/issue/{key}/remotelink")
    except JiraError as exc:
        if exc.status in (403, 404):  # links hidden from the bot: the issue's own fields still count
            return ()
        raise
    urls = []
    for link in links if isinstance(links, list) else ():
        target = link.get("object") if isinstance(link, dict) else None
        url = target.get("url") if isinstance(target, dict) else None
        if isinstance(url, str) and url:
            urls.append(url)
    return tuple(urls)


def _text(value: Any) -> str | None:
    return value.strip() if isinstance(value, str) and value.strip() else None
