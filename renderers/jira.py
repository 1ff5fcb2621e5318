"""The Jira comment request: the exact bytes the client sends, their sha256, and Jira's length limit.

Bytes shown = bytes posted (DESIGN §4). atlassian-python-api serialises `data` with `json.dumps`
defaults (ASCII escapes, `", "` and `": "` separators; docs/platform-notes.md), so the body here is exactly
`json.dumps(request).encode()` with those defaults, and the sha256 stored in the comment property is of
`json.dumps(adf).encode()` with the same defaults: the ADF document's JSON as it appears in the request.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from postmortem.messages import say
from postmortem.model import Lang
from renderers.links import is_safe_href

#: Jira Cloud's limit on a comment body, in characters.
JIRA_COMMENT_LIMIT = 32767
#: The comment property that marks our comments (DESIGN §4); workers find their own post by it.
PROPERTY_KEY = "postmortem-bot"
#: Keeps the comment internal on Jira Service Management projects (API comments are public there otherwise);
#: stored and ignored elsewhere.
INTERNAL_PROPERTY = {"key": "sd.public.comment", "value": {"internal": True}}


class CommentTooLong(ValueError):
    """The comment would exceed Jira's limit; names the longest sections so the person can shorten them."""

    def __init__(self, length: int, limit: int, longest: list[tuple[str, int]]) -> None:
        self.length = length
        self.limit = limit
        self.longest = longest
        super().__init__(self.text("en"))

    def text(self, lang: Lang) -> str:
        """The sentence in `lang` (str() is the English one)."""
        named = ", ".join(f"{name} ({size:,})" for name, size in self.longest[:3])
        sections = named or say("comment_too_long_no_sections", lang)
        return say("comment_too_long", lang, length=self.length, limit=self.limit, sections=sections)


@dataclass(frozen=True)
class JiraRequest:
    """The comment request as it will go on the wire."""

    body: bytes
    sha256: str


def comment_length(adf: dict[str, Any]) -> int:
    """The length Jira is held to: the ADF document's JSON in characters (non-ASCII counted once).

    Jira Cloud stores an ADF comment as its JSON and applies the 32,767-character limit to that, not to
    the visible text. Counting the JSON (with `json.dumps` separators, non-ASCII characters as themselves)
    is conservative against a count of the visible text; how Jira counts escapes is not documented.
    """
    return len(json.dumps(adf, ensure_ascii=False))


def section_lengths(adf: dict[str, Any]) -> list[tuple[str, int]]:
    """Each level-2 section's heading and its JSON length, longest first (ties in document order)."""
    sizes: list[tuple[str, int]] = []
    for node in adf.get("content", []):
        if node.get("type") == "heading" and node.get("attrs", {}).get("level") == 2:
            text = "".join(child.get("text", "") for child in node.get("content", []))
            sizes.append((text, 0))
        elif sizes:
            name, size = sizes[-1]
            sizes[-1] = (name, size + len(json.dumps(node, ensure_ascii=False)))
    return sorted(sizes, key=lambda pair: -pair[1])


def visibility(setting: str | None) -> dict[str, str] | None:
    """Jira's `visibility` for `POSTMORTEM_JIRA_VISIBILITY` (`role:<project role name>` / `group:<group id>`)."""
    if not setting:
        return None
    kind, _, name = setting.partition(":")
    if kind == "role" and name:
        return {"type": "role", "value": name}
    if kind == "group" and name:
        return {"type": "group", "identifier": name}
    raise ValueError("expected role:<project role name> or group:<group id>")


def with_requester(
    adf: dict[str, Any], *, name: str, thread_url: str | None, lang: Lang, debug_url: str | None = None
) -> dict[str, Any]:
    """The document with a last paragraph naming the requester and linking the Slack thread it was written in, and
    the debugging thread a message shortcut started it from (`debug_url`), when there is one."""
    template = say("jira_requested_by", lang, name="{name}", thread="{thread}")
    before, _, after = template.partition("{thread}")
    link_text = say("jira_slack_thread", lang)
    thread: dict[str, Any] = {"type": "text", "text": link_text}
    if thread_url and is_safe_href(thread_url):
        thread["marks"] = [{"type": "link", "attrs": {"href": thread_url}}]
    parts = [
        {"type": "text", "text": before.replace("{name}", name)},
        thread,
        {"type": "text", "text": after.replace("{name}", name)},
    ]
    if debug_url and is_safe_href(debug_url):
        debug_before, _, debug_after = say("jira_debugged_in", lang, thread="{thread}").partition("{thread}")
        debug_link: dict[str, Any] = {"type": "text", "text": say("jira_debug_thread", lang)}
        debug_link["marks"] = [{"type": "link", "attrs": {"href": debug_url}}]
        parts += [{"type": "text", "text": debug_before}, debug_link, {"type": "text", "text": debug_after}]
    paragraph = {"type": "paragraph", "content": [p for p in parts if p["text"]]}
    return {**adf, "content": [*adf.get("content", []), paragraph]}


def jira_request(adf: dict[str, Any], *, session: str, version: int, visible_to: str | None = None) -> JiraRequest:
    """The POST body for `/rest/api/3/issue/{ticket}/comment` (DESIGN §4); an over-long one is refused, never cut.

    `visible_to` is `POSTMORTEM_JIRA_VISIBILITY` as configured (checked at start-up).
    """
    length = comment_length(adf)
    if length > JIRA_COMMENT_LIMIT:
        raise CommentTooLong(length, JIRA_COMMENT_LIMIT, section_lengths(adf))
    adf_json = json.dumps(adf)
    digest = hashlib.sha256(adf_json.encode()).hexdigest()
    request: dict[str, Any] = {
        "body": adf,
        "properties": [
            {"key": PROPERTY_KEY, "value": {"session": session, "version": version, "sha256": digest}},
            INTERNAL_PROPERTY,
        ],
    }
    if (limited := visibility(visible_to)) is not None:
        request["visibility"] = limited
    body = json.dumps(request).encode()
    return JiraRequest(body=body, sha256=digest)
