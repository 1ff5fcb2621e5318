"""Runs of plain text kept as typed, for the text rule (renderers/usertext.py), once nothing else misreads.

In a run of text: Slack's `<url|label>` becomes a link (allowed schemes only), a typed backslash escape or
an HTML entity is kept as typed, a `<` that could start HTML is escaped, and, when asked, each marker that
could pair with another one outside the run. A table's delimiter row, a task-list box, a GitHub alert and a
footnote definition stay text too. One regex search finds the next run that needs anything, so the runs
that need nothing (most) cost no work of their own.
"""

from __future__ import annotations

import re

from renderers.links import is_safe_href
from renderers.usertext_edits import Edit, insert

#: In text: Slack's `<url|label>`, a typed backslash escape, an entity CommonMark would decode, a `<` that could
#: start HTML (all kept as typed); with emphasis, the markers that could pair with another one (a `_` not inside a
#: word, a `*` or `~` not between blanks); for a value closed on a shared line, every other opener too. NUL, which
#: joins the pieces read at once, is in none of them.
_TYPED = (
    rb"<(?i:https?://|mailto:)[^\s<>|\x00]+\|[^<>\n\x00]*>"
    rb"|\\[!-/:-@\[-`{-~]"
    rb"|&(?=#[0-9]{1,7};|#[xX][0-9a-fA-F]{1,6};|[A-Za-z][A-Za-z0-9]{1,31};)|<(?=[A-Za-z/!?])"
    # "[c](<x<y>)" read as text stays text once its `<` are escaped: its `](` can then open no link.
    rb"|\](?=\()"
    # "failed!<https://x|log>": the `!` before Slack's link shown, so the link made of it is no image.
    rb"|!(?=<(?i:https?://|mailto:)[^\s<>|\x00]+\|)"
)
#: (Each alternative starts with its character and looks behind it afterwards: an alternative that starts by looking
#: behind makes the engine try the pattern at every position, twice as slow.)
_EMPHASIS = _TYPED + rb"|_(?![A-Za-z0-9])|_(?<![A-Za-z0-9]_)|[*~](?![ \t])|[*~](?<![ \t][*~])"
#: Slack's link syntax in text (a label with a blank in it: no autolink).
SLACK_TEXT_RE = re.compile(rb"<((?i:https?://|mailto:)[^\s<>|]+)\|([^<>\n]*)>")
#: A GitHub table's delimiter row (`|---|:--:|`), which would turn the lines around it into a table.
_TABLE_ROW_RE = re.compile(rb"[ \t]*+\|?[ \t]*+:?-++:?[ \t]*+(?:\|[ \t]*+:?-++:?[ \t]*+)*+\|?[ \t]*+")
#: A GitHub alert's marker (`> [!NOTE]`).
_ALERT_RE = re.compile(rb"\[!(?i:note|tip|important|warning|caution)\]")
#: A GitHub footnote definition (`[^1]: text`).
_FOOTNOTE_RE = re.compile(rb"\[\^[^\]\s]+\]:")
#: How a table's delimiter row can start.
_ROW_START = frozenset(b" \t|:-")
#: A GitHub task-list box at the start of a list item.
_TASK_RE = re.compile(rb"\[[ xX]\](?=[ \t]|$)")
#: Characters escaped in text we write ourselves (a link label made from a URL or from Slack syntax).
_OWN_TEXT = "\\`*_~[]<>&!|"
_OWN_TEXT_RE = re.compile(f"([{re.escape(_OWN_TEXT)}])")
_OWN_TEXT_BYTES = frozenset(_OWN_TEXT.encode())

#: What `keep_runs` escapes besides typed escapes and entities: nothing else; markers that could pair (after
#: unclear emphasis was escaped); those and every other opener (a value closed for a shared line).
TYPED, EMPHASIS, CLOSED = 0, 1, 2
_FAST_RES = {
    TYPED: re.compile(b"(" + _TYPED + b")"),
    EMPHASIS: re.compile(b"(" + _EMPHASIS + b")"),
    CLOSED: re.compile(b"(" + _EMPHASIS + rb"|[`\[<])"),
}


class _Escapes(dict[bytes, bytes]):
    """The escaped form of every match but Slack's links, made once; a Slack link is written when met (not kept)."""

    def __missing__(self, found: bytes) -> bytes:
        return _escaped(found)


_ESCAPED = _Escapes({bytes([c]): b"\\" + bytes([c]) for c in b"&<`*_~["})
_ESCAPED |= {b"\\" + bytes([c]): b"\\\\\\" + bytes([c]) for c in b"!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"}

#: A run of text: start, end, whether it starts a line, whether it starts a list item.
Run = tuple[int, int, bool, bool]


def keep_runs(data: bytes, runs: list[Run], ours: list[int], *, markers: int, start: int) -> list[Edit]:
    """The edits that show each run as typed (see the module docstring); `start`: where the value begins.

    The runs are cut around each backslash of ours (it and the character it escapes stay as they are), and the
    pieces are read all at once: joined by NUL, which no text holds (renderers/usertext.py makes it U+FFFD) and
    which, like the end of a piece, is neither a letter, a digit nor a blank, so each piece reads as it would alone.
    """
    keeps: list[Edit] = []
    pieces: list[tuple[int, int]] = []
    marks = iter(ours)
    mark = next(marks, None)
    for run_start, run_end, at_line, at_item in runs:
        if run_start < start:  # the run begins in the prefix that puts an inline value mid-line
            run_start, at_line, at_item = start, False, False
        if at_line or at_item:
            _keep_blocks(data, run_start, run_end, at_line, at_item, markers, keeps)
        while mark is not None and mark < run_start:
            mark = next(marks, None)
        while mark is not None and mark < run_end:
            if mark > run_start:
                pieces.append((run_start, mark))
            run_start = max(run_start, mark + 2)
            mark = next(marks, None)
        if run_start < run_end:
            pieces.append((run_start, run_end))
    keeps += _keep_pieces(data, pieces, _FAST_RES[markers])
    return keeps


def _keep_blocks(data: bytes, s: int, e: int, at_line: bool, at_item: bool, markers: int, keeps: list[Edit]) -> None:
    """A table's delimiter row, a task box, an alert box of a quote, a footnote of the line on GitHub: text."""
    if at_line and data[s] in _ROW_START and _table_row(data, s, e):
        keeps.append(insert(data.index(b"|", s)))
    if markers != CLOSED and data[s] == 0x5B:  # a closed value escapes every `[` anyway
        if (
            at_item
            and _TASK_RE.match(data, s, e)
            or at_line
            and (_ALERT_RE.match(data, s, e) or _FOOTNOTE_RE.match(data, s, e))
        ):
            keeps.append(insert(s))


def _keep_pieces(data: bytes, pieces: list[tuple[int, int]], pattern: re.Pattern[bytes]) -> list[Edit]:
    """Each piece with its typed escapes and entities kept, a `<` that could open HTML escaped and the markers
    `pattern` finds escaped: one regex split over them all. Every such edit lengthens its piece."""
    joined = b"\x00".join([data[s:e] for s, e in pieces])
    parts = pattern.split(joined)
    if len(parts) == 1:
        return []
    parts[1::2] = map(_ESCAPED.__getitem__, parts[1::2])  # text, match, ..., text: each match escaped, in C
    written = b"".join(parts).split(b"\x00")
    return [(s, e, new) for (s, e), new in zip(pieces, written, strict=True) if len(new) != e - s]


def _escaped(found: bytes) -> bytes:
    """A typed escape doubled (`\\*` written `\\\\\\*`: both characters kept), Slack's `<url|label>` a link
    (a `<` escaped when its scheme is not allowed), any other match escaped."""
    if len(found) == 1:
        return b"\\" + found
    if found[:1] == b"<":
        return slack_link(found)
    return b"\\" + found[:1] + b"\\" + found[1:]


def slack_link(written: bytes) -> bytes:
    """Slack's `<url|label>` as a Markdown link to `url` labelled `label` (the label empty: the URL)."""
    match = SLACK_TEXT_RE.fullmatch(written)
    if match is None or not is_safe_href(url := match.group(1).decode()):
        return b"\\" + written
    label = match.group(2).decode().strip() or url  # a label of blanks alone would hide the link
    return f"[{own_text(label)}](<{_own_target(url)}>)".encode()


def split_slack_links(data: bytes, s: int, e: int) -> list[Edit]:
    """Slack's `<url|label>` that begins in the text run [s, e) and that the parser split (markup in a label with a
    blank: `<url|see *this* doc>`), written as the Markdown link it is: `[see \\*this\\* doc](<url>)`. Each
    backslash is an insertion, so the next reading knows it as ours; the label then reads as typed."""
    edits: list[Edit] = []
    at = data.find(b"<", s, e)
    while at >= 0:
        match = SLACK_TEXT_RE.match(data, at)
        if match is not None and match.end() > e and match.group(2) and is_safe_href(url := match.group(1).decode()):
            edits += bang_escape(data, at)
            edits.append((at, match.start(2), b"["))
            edits += [insert(p) for p in range(match.start(2), match.end(2)) if data[p] in _OWN_TEXT_BYTES]
            edits.append((match.end() - 1, match.end(), f"](<{_own_target(url)}>)".encode()))
        at = data.find(b"<", at + 1, e)
    return edits


def bang_escape(data: bytes, link: int) -> list[Edit]:
    """The escape of a typed `!` right before Slack's link at `link` ("failed!<url|log>"), so the Markdown link made
    of it is no image; none when the `!` is escaped already (an odd run of backslashes before it)."""
    if not link or data[link - 1] != 0x21:
        return []
    start = link - 1
    while start and data[start - 1] == 0x5C:
        start -= 1
    return [insert(link - 1)] if (link - 1 - start) % 2 == 0 else []


def _table_row(data: bytes, s: int, e: int) -> bool:
    line_end = data.find(b"\n", s)
    end = len(data) if line_end < 0 else line_end
    return e == end and data.find(b"|", s, e) >= 0 and _TABLE_ROW_RE.fullmatch(data, s, e) is not None


def own_text(text: str) -> str:
    """Text we place in a link label, escaped so it reads as written."""
    return _OWN_TEXT_RE.sub(r"\\\1", text.replace("\n", " "))


def _own_target(url: str) -> str:
    """A URL inside `<...>`: backslashes and `&` escaped (a destination decodes both)."""
    return url.replace("\\", "\\\\").replace("&", "\\&")
