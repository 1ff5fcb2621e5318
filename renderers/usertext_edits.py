"""Byte-level helpers of the text rule (renderers/usertext.py): edits and where they go.

An edit is `(start, end, new bytes)` on the UTF-8 text; most are one backslash inserted before a marker.
"Ours" are the places of the backslashes earlier passes inserted (sorted), which are never read as typed, and of
the entities they wrote for a line's first blank (`&#32;`). Also here: where a block's marker stands (a heading's
`#`, a fence's first `~`), whether a block stands alone between blank lines, whether emphasis clearly wraps words,
and the edits that make a fence, a quote or a line break read as Slack reads them. Each helper looks at a bounded
window or one line of the text, never the whole of it.
"""

from __future__ import annotations

import bisect
import re

Edit = tuple[int, int, bytes]

#: What may stand before an emphasis opener / after a closer (besides blanks and the ends of the text).
_BEFORE_OPENER = frozenset("([{\"'“‘「（")
_AFTER_CLOSER = frozenset(".,;:!?)]}\"'”’」）、。")
_MARKERS = frozenset(b"*_~")
_DIGITS = frozenset(b"0123456789")
_ALNUM = frozenset(b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
_ASCII_PUNCTUATION = frozenset(b"!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
#: Characters that make an HTML tag or an autolink's text read as something else once it is text.
_MARKUP_BYTES_RE = re.compile(rb"[*_~`\[<&\\]")
#: Each ASCII byte as its character: most characters around a marker are ASCII, read without decoding.
_ASCII = [chr(b) for b in range(128)]


def insert(pos: int) -> Edit:
    """A backslash before the byte at `pos`."""
    return (pos, pos, b"\\")


#: A line's first blank as an entity: the parser keeps it (and the blanks after it) as text, as typed.
_INDENT_ENTITIES = {0x20: b"&#32;", 0x09: b"&#9;"}
_INDENT_BLANKS = {entity: bytes([blank]) for blank, entity in _INDENT_ENTITIES.items()}


def indent_entity(data: bytes, pos: int) -> Edit:
    """The blank at `pos`, the first of its line, as an entity: the line's blanks show, and it opens no code block."""
    return (pos, pos + 1, _INDENT_ENTITIES[data[pos]])


def unescape(data: bytes, pos: int) -> Edit:
    """Undo the escape of ours at `pos` (a backslash, or a blank written as an entity)."""
    if data[pos] == 0x26:  # "&#32;" / "&#9;"
        end = data.index(b";", pos) + 1
        return (pos, end, _INDENT_BLANKS[data[pos:end]])
    return (pos, pos + 1, b"")


def is_ours(ours: list[int], pos: int) -> bool:
    i = bisect.bisect_left(ours, pos)
    return i < len(ours) and ours[i] == pos


def has_ours(ours: list[int], start: int, end: int) -> bool:
    i = bisect.bisect_left(ours, start)
    return i < len(ours) and ours[i] < end


def ours_in(ours: list[int], start: int, end: int) -> list[int]:
    return ours[bisect.bisect_left(ours, start) : bisect.bisect_left(ours, end)]


def has_markup(data: bytes, start: int, end: int) -> bool:
    return _MARKUP_BYTES_RE.search(data, start, end) is not None


def apply(data: bytes, edits: list[Edit], ours: list[int] | None) -> tuple[bytes, list[int]]:
    """The text with the edits made (an insertion once per place; none inside a replaced range), and, when
    `ours` is given, where the backslashes of ours stand in it."""
    out: list[bytes] = []
    size = 0  # bytes in `out`
    added: list[int] = []
    previous = 0
    marks = iter(ours or ())
    mark = next(marks, None) if ours is not None else None
    for start, end, new in sorted(set(edits)):
        if start < previous:
            continue
        if ours is not None:
            while mark is not None and mark < start:
                added.append(mark + size - previous)
                mark = next(marks, None)
            while mark is not None and mark < end:  # replaced or removed
                mark = next(marks, None)
            if new == b"\\" or new[:2] == b"&#":
                added.append(size + start - previous)
        out.append(data[previous:start])
        out.append(new)
        size += start - previous + len(new)
        previous = end
    while mark is not None:
        added.append(mark + size - previous)
        mark = next(marks, None)
    out.append(data[previous:])
    return b"".join(out), added


def plain(data: bytes) -> bytes:
    """The text with every marker escaped and no line indented as code: read as plain paragraphs, as typed."""
    out = bytearray()
    line_start = True
    for byte in data:
        if line_start and byte in (0x20, 0x09):
            out += b"&#32;" if byte == 0x20 else b"&#9;"
            continue
        line_start = byte == 0x0A
        if byte in _ASCII_PUNCTUATION:
            out += b"\\"
        out.append(byte)
    return bytes(out)


def first_mark(data: bytes, start: int) -> int:
    """The first non-blank byte of the line at `start`."""
    while data[start : start + 1] in (b" ", b"\t"):
        start += 1
    return start


def heading_mark(data: bytes, start: int, end: int) -> int:
    """Where to escape a heading: its `#`, or the first character of a setext heading's underline."""
    first = first_mark(data, start)
    if data[first : first + 1] == b"#":
        return first
    body = data[start:end].rstrip(b"\n")
    return first_mark(data, start + body.rindex(b"\n") + 1) if b"\n" in body else first


def isolated(data: bytes, start: int, end: int) -> bool:
    """Whether the block at `start`..`end` stands between blank lines (or the ends of the text)."""
    before = data.rfind(b"\n", 0, start)
    if before > 0 and data[data.rfind(b"\n", 0, before) + 1 : before].strip(b" \t"):
        return False  # the line before is not blank
    after = data.find(b"\n", end - 1 if data[end - 1 : end] == b"\n" else end)
    if after < 0:
        return True
    line_end = data.find(b"\n", after + 1)
    return not data[after + 1 : len(data) if line_end < 0 else line_end].strip(b" \t")


#: A line that holds only list markers (and `>` and blanks) so far: a list opened on it is inside the item before.
_MARKERS_ONLY_RE = re.compile(rb"[ \t>]*+(?:(?:[-+*]|[0-9]{1,9}[.)])[ \t]++)++")


def marker_on_marker(data: bytes, start: int) -> list[Edit]:
    """A list that starts on its item's own line ("- - dash", "1. - x"): Slack applies the first marker only, so the
    second is text (escaped at its `.` when it is a number, as a backslash before a digit shows)."""
    line = data.rfind(b"\n", 0, start) + 1
    return [] if _MARKERS_ONLY_RE.fullmatch(data, line, start) is None else [marker_escape(data, start)]


def marker_escape(data: bytes, start: int) -> Edit:
    """The escape of the list marker on the line at `start`: before `-`, or at a number's `.` (a backslash before a
    digit shows)."""
    mark = first_mark(data, start)
    while data[mark] in _DIGITS:
        mark += 1
    return insert(mark)


#: A list marker alone on its line: an empty item, which cannot interrupt a paragraph until a break of ours ends it.
_BARE_MARKER_RE = re.compile(rb"[ \t]*+(?:[-+*]|[0-9]{1,9}[.)])[ \t]*+(?=\n|$)")


def soft_break(data: bytes, newline: int) -> list[Edit]:
    """A typed line break made a hard one (a backslash before it); a list marker alone on the next line escaped,
    which the backslash at that line's end would otherwise make an item ("a⏎+ ⏎b")."""
    if _BARE_MARKER_RE.match(data, newline + 1) is None:
        return [insert(newline)]
    return [insert(newline), marker_escape(data, newline + 1)]


#: A quote's line as Slack reads it: one that starts with `>` (after blanks), and one with nothing after its `>`.
_QUOTE_LINE_RE = re.compile(rb"[ \t]*+>")
_EMPTY_QUOTE_RE = re.compile(rb"[ \t>]*+")


def quote_edits(data: bytes, start: int, end: int) -> list[Edit]:
    """Every `>` that starts a line of the quote at `start`..`end`, escaped, when Slack would not show it as a quote:
    a line without `>` that the quote takes in ("> a⏎b": Slack quotes only "a"), or nothing quoted at all ("> ")."""
    lines = data[start:end].rstrip(b"\n").split(b"\n")
    lazy = any(line.strip(b" \t") and not _QUOTE_LINE_RE.match(line) for line in lines)
    if not lazy and not _EMPTY_QUOTE_RE.fullmatch(data, start, end if data[end - 1 : end] != b"\n" else end - 1):
        return []
    edits, at = [], start
    for line in lines:
        if _QUOTE_LINE_RE.match(line):
            edits.append(insert(first_mark(data, at)))
        at += len(line) + 1
    return edits


def emphasis_edits(data: bytes, spans: list[tuple[int, int, int]], unclear: list[Edit], keeps: list[Edit]) -> None:
    """For each emphasis span (start, end, marker width) whose ends are marker runs we know: unclear emphasis
    escaped (into `unclear`); `*word*` made bold, as in Slack (into `keeps`)."""
    end = len(data)
    for s, e, width in spans:
        mark = data[s]
        if mark not in _MARKERS or data[e - 1] != mark or width == 2 and (data[s + 1] != mark or data[e - 2] != mark):
            continue
        # A letter or digit just outside (the most frequent case, `a*b*c`) is enough to be unclear; so is code alone
        # inside, which no ADF mark can style (the markers would vanish).
        if (
            (s and data[s - 1] in _ALNUM)
            or (e < end and data[e] in _ALNUM)
            or data[s + width] == data[e - width - 1] == 0x60
            or not clear_emphasis(data, s, e, width)
        ):
            if width == 1:
                unclear += ((s, s, b"\\"), (e - 1, e - 1, b"\\"))
            else:
                unclear += ((s, s, b"\\"), (s + 1, s + 1, b"\\"), (e - 2, e - 2, b"\\"), (e - 1, e - 1, b"\\"))
        elif width == 1 and mark == 0x2A and data.find(b"*", s + 1, e - 1) < 0:
            # Doubled only with no `*` inside, which the doubled markers could pair with instead.
            keeps += ((s, s, b"*"), (e, e, b"*"))


def clear_emphasis(data: bytes, start: int, end: int, width: int) -> bool:
    """The markers clearly wrap words: word-start opener, word-end closer, no `__`, no longer marker runs."""
    mark = data[start]
    if mark == 0x5F and width != 1 or data.find(b"\n", start, end) >= 0:
        return False  # `__` is how Python names are written; Slack formats within one line only
    char = _ASCII[mark]
    before = char_before(data, start)
    if before == char or not (not before or before.isspace() or before in _BEFORE_OPENER):
        return False  # part of a longer run of the same marker (`***`, `___x___`), or inside a word
    after = char_after(data, end)
    if after == char or not (not after or after.isspace() or after in _AFTER_CLOSER):
        return False
    first = char_after(data, start + width)
    last = char_before(data, end - width)
    return (
        first != char
        and last != char
        and (first.isalnum() or first in _BEFORE_OPENER or first == "`")
        and (last.isalnum() or last in _AFTER_CLOSER or last == "`")
    )


def char_before(data: bytes, pos: int) -> str:
    """The character ending at byte `pos` ("" at the start)."""
    if pos <= 0:
        return ""
    byte = data[pos - 1]
    if byte < 0x80:
        return _ASCII[byte]
    return data[max(pos - 4, 0) : pos].decode(errors="ignore")[-1:]


def char_after(data: bytes, pos: int) -> str:
    """The character starting at byte `pos` ("" at the end)."""
    if pos >= len(data):
        return ""
    byte = data[pos]
    if byte < 0x80:
        return _ASCII[byte]
    return data[pos : pos + 4].decode(errors="ignore")[:1]
