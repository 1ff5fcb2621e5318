"""What the walk of the text rule (renderers/usertext_walk.py) keeps while a list or a link is open: where each
item's number stands and whether a number would be shown otherwise than typed; a link's kind, target and text,
and the edits a link needs when it opens."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from renderers.links import is_safe_href
from renderers.usertext_edits import Edit, first_mark, has_markup, insert
from renderers.usertext_runs import SLACK_TEXT_RE, bang_escape, slack_link


@dataclass(slots=True)
class OpenList:
    """An ordered list being read (`number`: the number its next item shows; None for a bullet list): where each
    item's `.` or `)` stands, and whether any item's number as typed differs from the one it would be shown with."""

    number: int | None
    delimiters: list[int] = dataclasses.field(default_factory=list)
    renumbered: bool = False

    def item(self, data: bytes, start: int) -> None:
        digits = end = first_mark(data, start)
        while data[end : end + 1].isdigit():
            end += 1
        shown = str(self.number).encode()
        self.renumbered = self.renumbered or data[digits:end] != shown or data[end : end + 1] == b")"
        self.delimiters.append(end)
        self.number = (self.number or 0) + 1


@dataclass(slots=True)
class OpenLink:
    """A link being read: its kind, where it starts, its target, whether it stays a link and holds nothing."""

    kind: str
    start: int
    dest: str
    kept: bool = True
    empty: bool = True


def link_edits(data: bytes, link: OpenLink, end: int, fixes: list[Edit], keeps: list[Edit]) -> None:
    """The edits for one link: Slack's `<url|label>` a link, any link to another scheme text."""
    s, href = link.start, link.dest
    if link.kind in ("Email", "Autolink"):
        slack = "|" in href and link.kind == "Autolink"
        if slack and SLACK_TEXT_RE.fullmatch(data, s, end):
            keeps.append((s, end, slack_link(data[s:end])))
            keeps.extend(bang_escape(data, s))  # "failed!<url|log>": the `!` shown, no image
            return
        mail = link.kind == "Email"
        target = "mailto:" + href if mail else href
        if slack or (mail and (href[:1] in ("!", "@", "#") or "|" in href)) or not is_safe_href(target):
            link.kept = False  # Slack's `<!subteam^ID|@team>`, `<!here>`, other schemes: text
            (fixes if has_markup(data, s + 1, end) else keeps).append(insert(s))
        return
    if not is_safe_href(href):
        link.kept = False
        fixes.append(insert(s))
