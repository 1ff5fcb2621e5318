"""What the walk of the text rule (renderers/usertext_walk.py) keeps while a list or a link is open: where each
item's number stands and whether a number would be shown otherwise than typed; a link's kind, target and text."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from renderers.usertext_edits import first_mark


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
