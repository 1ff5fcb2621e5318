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

#: Jira Cloud's limit on a comment body, in characters.
JIRA_COMMENT_LIMIT = 32767
#: The comment property that marks our comments (DESIGN §4); workers find their own post by it.
PROPERTY_KEY = "postmortem-bot"


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


def jira_request(adf: dict[str, Any], *, session: str, version: int) -> JiraRequest:
    """The POST body for `/rest/api/3/issue/{ticket}/comment`; an over-long one is refused, never cut."""
    length = comment_length(adf)
    if length > JIRA_COMMENT_LIMIT:
        raise CommentTooLong(length, JIRA_COMMENT_LIMIT, section_lengths(adf))
    adf_json = json.dumps(adf)
    digest = hashlib.sha256(adf_json.encode()).hexdigest()
    request = {
        "body": adf,
        "properties": [
            {"key": PROPERTY_KEY, "value": {"session": session, "version": version, "sha256": digest}},
        ],
    }
    body = json.dumps(request).encode()
    return JiraRequest(body=body, sha256=digest)
