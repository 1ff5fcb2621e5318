"""Issue fields and remote links for the Jira emulators: `GET issue/{key}` with `description` (an ADF document on
Cloud, a wiki-markup string on Data Center) and `GET issue/{key}/remotelink`.

Descriptions are given as blocks, `("p", text)`, `("code", text)`, `("code:<language>", text)` or
`("noformat", text)`, and shown as each deployment stores them (ADF has no noformat: a code block without language).
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

from emulators.http import JSON_CONTENT_TYPE, Request, Response, json_response
from emulators.jira_records import jira_error

if TYPE_CHECKING:
    from emulators.jira_cloud import JiraEmulator, Route

Block = tuple[str, str]


class IssueReads:
    """The emulator's descriptions and remote links, by issue key; its routes go first in the route list."""

    def __init__(self, jira: JiraEmulator) -> None:
        self.jira = jira
        self.descriptions: dict[str, list[Block]] = {}
        self.links: dict[str, list[dict[str, Any]]] = {}

    def routes(self, api: str = "/rest/api/3") -> list[Route]:
        return [
            ("GET", re.compile(rf"{api}/issue/([^/]+)"), self._get_issue),
            ("GET", re.compile(rf"{api}/issue/([^/]+)/remotelink"), self._remote_links),
        ]

    # set-up for tests ---------------------------------------------------------------------------
    def describe(self, key: str, blocks: list[Block]) -> None:
        """The issue's description: paragraphs and code blocks, in order."""
        with self.jira._cond:
            self.descriptions[key] = list(blocks)

    def add_remote_link(self, key: str, url: str, title: str = "") -> None:
        """A remote link on the issue (a PR, a commit, a wiki page…)."""
        with self.jira._cond:
            links = self.links.setdefault(key, [])
            links.append(
                {
                    "id": 10_000 + len(links),
                    "self": f"{self.jira.origin}/rest/api/3/issue/{key}/remotelink/{10_000 + len(links)}",
                    "object": {"url": url, "title": title or url},
                }
            )

    # routes -------------------------------------------------------------------------------------
    def _datacenter(self) -> bool:
        return bool(self.jira.list_expands_properties)  # only the Data Center emulator lists with properties

    def _get_issue(self, request: Request, key: str) -> Response:
        """The issue as the Cloud emulator shows it, plus its description when one was given."""
        response = self.jira._get_issue(request, key)
        issue = self.jira._issue(key)
        if response.status != 200 or issue is None:
            return response
        payload = json.loads(response.body)
        blocks = self.descriptions.get(issue.key)
        payload["fields"]["description"] = (
            None if blocks is None else wiki_description(blocks) if self._datacenter() else adf_description(blocks)
        )
        wanted = request.arg("fields")
        if wanted:
            names = set(wanted.split(","))
            payload["fields"] = {k: v for k, v in payload["fields"].items() if k in names}
        return json_response(200, payload, content_type=JSON_CONTENT_TYPE)

    def _remote_links(self, request: Request, key: str) -> Response:
        issue = self.jira._issue(key)
        if issue is None:
            return jira_error(404)
        return json_response(200, self.links.get(issue.key, []), content_type=JSON_CONTENT_TYPE)


def adf_description(blocks: list[Block]) -> dict[str, Any]:
    """Jira Cloud's description: an ADF document of paragraphs and code blocks."""
    content: list[dict[str, Any]] = []
    for kind, text in blocks:
        node: dict[str, Any] = {"type": "paragraph" if kind == "p" else "codeBlock"}
        if kind.startswith("code:"):
            node["attrs"] = {"language": kind.partition(":")[2]}
        node["content"] = [{"type": "text", "text": text}] if text else []
        content.append(node)
    return {"version": 1, "type": "doc", "content": content}


def wiki_description(blocks: list[Block]) -> str:
    """Jira Data Center's description: wiki markup, code in `{code}` blocks."""
    return "\n\n".join(text if kind == "p" else _wiki_block(kind, text) for kind, text in blocks)


def _wiki_block(kind: str, text: str) -> str:
    """`{code}`, `{code:<language>}` or `{noformat}` around the text, as Data Center stores them."""
    name = "noformat" if kind == "noformat" else "code"
    return f"{{{kind}}}\n{text}\n{{{name}}}"
