"""One reading of a person's text for the text rule (renderers/usertext.py): one parse, one walk of its events.

The walk notes what the parser misreads (`fixes`: a heading, an image, a link to another scheme, HTML, a
`~~~` fence, a backslash of ours that landed in code) and what keeps characters as typed once nothing is
misread any more (`keeps`: unclear emphasis escaped, `*word*` made bold, typed escapes and entities kept).
Each event costs a few comparisons, emphasis is judged once the walk is done, and the runs of text are read by
renderers/py in one regex split for them all.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from typing import Any

from renderers.adf_input import PARSER
from renderers.links import is_safe_href
from renderers.usertext_edits import (
    Edit,
    emphasis_edits,
    first_mark,
    has_markup,
    has_ours,
    heading_mark,
    indent_entity,
    insert,
    is_ours,
    isolated,
    marker_on_marker,
    ours_in,
    quote_edits,
    soft_break,
    unescape,
)
from renderers.usertext_fences import fence_edits, info_line, span_edits, tilde_fence
from renderers.usertext_open import OpenLink, OpenList, link_edits
from renderers.usertext_runs import CLOSED, EMPHASIS, TYPED, Run, keep_runs, own_text, split_slack_links

_MARK_WIDTH = {"Emphasis": 1, "Strong": 2, "Strikethrough": 2}
#: Where a link reference definition can start: a `[` first on its line, after blanks and the markers of quotes
#: and list items (a superset: the parser, which reads the whole text, is asked only when one is there).
DEFINITION_START_RE = re.compile(rb"(?m)^(?:[ \t>]|[-+*][ \t]|[0-9]{1,9}[.)][ \t])*+\[")
#: The starts and ends the walk hands to `_Walk.open` / `_Walk.close` (the others need no more than a count).
_HANDLED = frozenset({"Link", "Heading", "CodeBlock", "HtmlBlock", "Subscript", "Image", "List", "BlockQuote", "Item"})


@dataclass
class Pass:
    """What one reading found: `fixes` change how the text reads (another pass follows), `keeps` only keep
    characters (applied once nothing else changes), and the kind of the last top-level block."""

    fixes: list[Edit] = dataclasses.field(default_factory=list)
    keeps: list[Edit] = dataclasses.field(default_factory=list)
    last: str = ""


def read_once(data: bytes, ours: list[int], *, closed: bool, start: int) -> Pass:
    """One reading of the text (one parse): what it misreads and what keeps each character."""
    walk = _Walk(data, ours, in_item=closed)  # a closed value is an action item's text, inside our list
    found = walk.found
    if b"]:" in data and DEFINITION_START_RE.search(data):  # reference definitions would vanish: keep them text
        for definition in PARSER.reference_definitions(walk.text).values():
            found.fixes.append(insert(data.index(b"[", definition["span"]["start"])))
    walk.run()
    fixes, keeps = found.fixes, found.keeps
    for block_start, block_end in walk.code_blocks:
        for pos in ours_in(ours, block_start, block_end):
            fixes.append(unescape(data, pos))  # inside code a backslash shows: ours is not needed there
    # Unclear emphasis escaped with every other marker that could pair leaves only the clear pairs to pair, as
    # they did (and a heading or rule alone between blank lines becomes a paragraph of its own): no second
    # reading needed, unless something else changes the reading anyway.
    (fixes if fixes else keeps).extend(walk.unclear)
    if found.last in ("Heading", "Rule"):  # escaped: a paragraph once read again
        found.last = "Paragraph"
    if not fixes:
        markers = CLOSED if closed else EMPHASIS if walk.unclear else TYPED
        keeps.extend(keep_runs(data, walk.runs, ours, markers=markers, start=start))
    if start:  # nothing of ours is edited in the prefix that puts an inline value mid-line
        found.fixes = [edit for edit in fixes if edit[0] >= start]
        found.keeps = [edit for edit in keeps if edit[0] >= start]
    return found


class _Walk:
    """The state of one walk over the parser's events."""

    def __init__(self, data: bytes, ours: list[int], *, in_item: bool) -> None:
        self.data = data
        self.text = data.decode()
        self.ours = ours
        self.found = Pass()
        self.unclear: list[Edit] = []  # emphasis that does not clearly wrap words: its markers escaped
        self.literal = 0  # inside code, HTML or an autolink: text shown as written
        self.hidden = 0  # inside what this pass turns into text (an image): read again next pass
        self.code_blocks: list[tuple[int, int]] = []
        self.runs: list[Run] = []  # text to keep as typed
        self.links: list[OpenLink] = []
        self.lists: list[OpenList] = []  # the lists being read, innermost last
        self.nested = int(in_item)  # list items and quotes open: a quote inside one has no place in the ADF

    def run(self) -> None:
        """Walk the events: text runs and emphasis noted (read once the walk is done), other events handled."""
        data, runs, links, found, ours = self.data, self.runs, self.links, self.found, self.ours
        emphases: list[tuple[int, int, int]] = []  # emphasis read as typed: start, end, marker width
        depth = 0
        reading = True  # neither inside code, HTML or an autolink (literal) nor inside an image (hidden)
        line_start = item_start = False
        indented = -1  # where a line of a top-level paragraph starts, if its leading blanks are to be kept
        event: Any
        for event, span in PARSER.events_with_range(self.text, merge_text=True):
            if indented >= 0:
                if span["start"] > indented and not data[indented : span["start"]].strip(b" \t"):
                    found.keeps.append(indent_entity(data, indented))
                indented = -1
            if event.__class__ is str:
                if links:
                    links[-1].empty = False
                if event != "SoftBreak":
                    self.bare(event, span["start"], span["end"], depth, reading)
                elif reading and not self.literal:  # a typed line break is one in every reader (a Markdown file too)
                    found.keeps.extend(soft_break(data, data.index(b"\n", span["start"])))
                if reading and not self.literal and not self.nested and event != "Rule":
                    indented = data.index(b"\n", span["start"]) + 1  # its leading blanks show as typed
                line_start = True
            elif "Text" in event:  # the most frequent event first
                if links and data[span["start"] : span["end"]].decode(errors="ignore").strip():
                    links[-1].empty = False  # a label of blanks alone shows nothing: the URL, as typed, is its text
                if reading:
                    s = span["start"]
                    if s and data[s - 1] == 0x5C:  # a Text event starts after the backslash of an escape it begins with
                        s -= 1
                    runs.append((s, span["end"], line_start, item_start))
                    if not links and data.find(b"<", s, span["end"]) >= 0:  # `<url|see *this*>`, split by its markup
                        found.fixes.extend(split_slack_links(data, s, span["end"]))
                line_start = item_start = False
            elif "Start" in event:
                if links:
                    links[-1].empty = False
                value = event["Start"]
                name = value if value.__class__ is str else next(iter(value))
                if not depth:
                    found.last = name
                depth += 1
                if (width := _MARK_WIDTH.get(name)) is not None:
                    if reading:
                        emphases.append((span["start"], span["end"], width))
                elif name == "Paragraph":
                    line_start = True
                    if reading and not self.nested:  # leading blanks kept as typed, not dropped by the parser
                        indented = data.rfind(b"\n", 0, span["start"]) + 1
                        indented = -1 if indented >= span["start"] else indented
                elif name == "Item":
                    item_start = True
                    self.nested += 1
                    if self.lists and self.lists[-1].number is not None:
                        self.lists[-1].item(data, span["start"])
                    elif reading and data[(mark := first_mark(data, span["start"]))] in b"*+":
                        found.fixes.append(insert(mark))  # Slack's lists are `-` and `1.`: a typed `*` / `+` shows
                elif name in _HANDLED:
                    if name == "List" and item_start and reading:  # "- - dash": the second marker is text
                        found.fixes.extend(marker_on_marker(data, span["start"]))
                    self.open(name, value, span["start"], span["end"], depth, reading)
                    reading = not self.literal and not self.hidden
            elif "End" in event:
                depth -= 1
                value = event["End"]
                if (value if value.__class__ is str else next(iter(value))) in _HANDLED:
                    self.close(value)
                    reading = not self.literal and not self.hidden
            else:
                if links:
                    links[-1].empty = False
                line_start = item_start = False
                # inline code matters only with a backslash of ours in it, or across a line break
                if (
                    "Code" not in event
                    or ours
                    or not event["Code"].strip()
                    or b"\n" in data[span["start"] : span["end"]]
                ):
                    self.leaf(event, span["start"], span["end"], reading)
        emphasis_edits(data, emphases, self.unclear, found.keeps)

    def bare(self, event: str, s: int, e: int, depth: int, reading: bool) -> None:
        """A rule or a hard line break."""
        if event == "Rule":
            escape = insert(first_mark(self.data, s))
            if depth == 0:
                self.found.last = "Rule"
            (self.unclear if depth == 0 and isolated(self.data, s, e) else self.found.fixes).append(escape)
        elif event == "HardBreak" and self.data[s] == 0x5C and reading:
            self.found.keeps.append(insert(s))  # a typed backslash at a line's end shows, and the line still breaks

    def open(self, name: str, value: Any, s: int, e: int, depth: int, reading: bool) -> None:
        """The start of a link, an image, a heading, a code or HTML block, a subscript (`depth` counts it)."""
        if name == "Link":
            self.open_link(value["Link"], s, e, reading)
        elif name == "List":
            self.lists.append(OpenList(value["List"] if reading else None))
        elif name == "BlockQuote":
            mark = first_mark(self.data, s)
            if self.nested and reading and self.data[mark : mark + 1] == b">":
                self.found.fixes.append(insert(mark))  # a quote in a list item or a quote: its `>` as text
            elif reading:  # a quote Slack would not show as one: an empty one, a line without `>` in it
                self.found.fixes.extend(quote_edits(self.data, s, e))
            self.nested += 1
        elif name == "Heading":
            # A heading alone between blank lines becomes a paragraph of its own: nothing else reads otherwise.
            alone = depth == 1 and isolated(self.data, s, e)
            (self.unclear if alone else self.found.fixes).append(insert(heading_mark(self.data, s, e)))
        elif name == "CodeBlock":
            self.literal += 1
            self.code_blocks.append((s, e))
            mark = first_mark(self.data, s)
            if value["CodeBlock"].__class__ is dict and self.data[mark : mark + 1] == b"~":
                self.found.fixes.extend(tilde_fence(self.data, mark, e))  # `~~~` fences are no Slack convention
            elif value["CodeBlock"].__class__ is dict and value["CodeBlock"]["Fenced"].strip() and reading:
                self.found.fixes.append(info_line(self.data, mark))  # Slack has no info string: the first code line
            elif value["CodeBlock"].__class__ is dict and reading:
                self.found.fixes.extend(fence_edits(self.data, mark, e, self.code_blocks))
            elif value["CodeBlock"].__class__ is str and reading and not self.nested:
                # Slack has no indented code: an indented line is text with its blanks, as typed
                self.found.fixes.append(indent_entity(self.data, self.data.rfind(b"\n", 0, s) + 1))
        elif name == "HtmlBlock":
            self.literal += 1
        elif name == "Subscript":
            if reading:
                self.found.fixes.extend((insert(s), insert(e - 1)))  # `~x~`: GitHub would strike it
        elif name == "Image":
            if reading:  # `!` shown; a link only if http(s)
                self.found.fixes.append(insert(s if is_safe_href(value["Image"]["dest_url"]) else s + 1))
            self.hidden += 1

    def close(self, value: Any) -> None:
        name = value if value.__class__ is str else next(iter(value))
        if name in ("Item", "BlockQuote"):
            self.nested -= 1
        elif name == "List":
            closing_list = self.lists.pop()
            if closing_list.renumbered:  # "1. a / 1. b", "1) a", "06. six": the numbers as typed, as text
                self.found.fixes.extend(insert(p) for p in closing_list.delimiters)
        elif name == "Link":
            closing = self.links.pop()
            if closing.kind in ("Autolink", "Email"):
                self.literal -= 1
            elif closing.empty and closing.kept:  # `[](url)`: the URL, as typed, is its text
                self.found.keeps.append((closing.start + 1, closing.start + 1, own_text(closing.dest).encode()))
        elif name in ("CodeBlock", "HtmlBlock"):
            self.literal -= 1
        elif name == "Image":
            self.hidden -= 1

    def leaf(self, event: Any, s: int, e: int, reading: bool) -> None:
        """Inline code, inline HTML, a line of an HTML block."""
        if "Code" in event:
            if not self.hidden and has_ours(self.ours, s, e):  # a backslash of ours in code: no code span there
                ours = self.ours  # each backtick escaped, but one a backslash of ours escapes already
                self.found.fixes.extend(
                    insert(p) for p in range(s, e) if self.data[p] == 0x60 and not is_ours(ours, p - 1)
                )
            elif reading and (self.data.find(b"\n", s, e) >= 0 or not event["Code"].strip()):
                # a line break would be a blank; blanks alone are no code in Slack: the opener is text (or a fence)
                self.found.fixes.extend(span_edits(self.data, s, e))
        elif "InlineHtml" in event:
            if reading:
                (self.found.fixes if has_markup(self.data, s + 1, e) else self.found.keeps).append(insert(s))
        elif "Html" in event:
            mark = first_mark(self.data, s)
            if self.data[mark : mark + 1] == b"<":  # every line of the block, so none opens another one
                self.found.fixes.append(insert(mark))

    def open_link(self, link: dict[str, Any], s: int, e: int, reading: bool) -> None:
        opened = OpenLink(link["link_type"], s, link["dest_url"])
        if reading and link["title"] and opened.kind == "Inline":
            opened.kept = False  # `[log](url "kept 30 days")`: no format shows a title, so the whole link is text
            self.found.fixes.append(insert(s))
        elif reading:
            link_edits(self.data, opened, e, self.found.fixes, self.found.keeps)
        self.links.append(opened)
        if opened.kind in ("Autolink", "Email"):
            self.literal += 1
