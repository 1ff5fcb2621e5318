"""Slack's code fences in the text rule (renderers/usertext_walk.py): Slack opens and closes a block at three
backticks that start a line or end one after text ("Output: ```", "b```"), and has no info string and no `~~~`
fence. Each function gives the edits that make CommonMark read a fence as Slack shows it."""

from __future__ import annotations

import re

from renderers.usertext_edits import Edit, first_mark, insert

_TILDE_CLOSER_RE = re.compile(rb" {0,3}~{3,}[ \t]*")


def tilde_fence(data: bytes, mark: int, end: int) -> list[Edit]:
    """Escapes for a `~~~` code block's opening fence and its closing one, if it has one."""
    body = data[mark:end].rstrip(b"\n")
    last = body.rfind(b"\n")
    closing = mark + last + 1
    if last > 0 and _TILDE_CLOSER_RE.fullmatch(data, closing, mark + len(body)):
        return [insert(mark), insert(first_mark(data, closing))]
    return [insert(mark)]


#: A line of a fenced code block that starts with backticks followed by text (Slack closes the block there).
_CLOSER_WITH_TEXT_RE = re.compile(rb"\n[ \t>]*+(`{3,}+)(?=[ \t]*+[^ \t\n])")


def backticks_end(data: bytes, pos: int) -> int:
    """Where the run of backticks at `pos` ends."""
    while data[pos : pos + 1] == b"`":
        pos += 1
    return pos


def fence_edits(data: bytes, mark: int, end: int, blocks: list[tuple[int, int]]) -> list[Edit]:
    """A backtick fence's block (its first backtick at `mark`) as Slack reads it: a block with nothing in it is the
    backticks as text; a line that starts with the fence's backticks followed by text closes it, that text after;
    so do backticks that end a line after text ("b```"), which a line break before them makes a fence. `blocks`: the
    code blocks read so far, this one last."""
    width = backticks_end(data, mark) - mark
    since = blocks[-2][1] if len(blocks) > 1 else 0  # where the block before ends: each byte is read once
    paragraph = max(data.rfind(b"\n\n", since, mark) + 1, since)
    opened = [m for m in _FENCE_AFTER_TEXT_RE.finditer(data, paragraph, mark) if m.end() < mark]
    if opened:  # "Output: ```⏎x⏎```": Slack opened the block after the text, and this fence closes it
        return [break_before(data, opened[-1].start(1))]
    opener_end = data.find(b"\n", mark, end)
    if opener_end < 0 or not data[opener_end:end].strip(b" \t\n>`"):
        return [insert(mark)]  # "```" alone, "``````": no empty box in their place
    closer = _CLOSER_WITH_TEXT_RE.search(data, opener_end, end)
    after = _FENCE_AFTER_TEXT_RE.search(data, opener_end, end)
    after = after if after is not None and len(after.group(1)) >= width else None
    if closer is not None and len(closer.group(1)) >= width and (after is None or closer.start() < after.start()):
        return [info_line(data, closer.start(1))]
    return [] if after is None else [break_before(data, after.start(1))]


#: Three backticks, Slack's fence, ending a line after text: Slack opens or closes a block there ("Output: ```",
#: "b```"); a longer run ("and ````") is the person's own backticks.
_FENCE_AFTER_TEXT_RE = re.compile(rb"[^\n` \t>][ \t]*+(```)[ \t]*+(?=\n|$)")
#: What a line of a list item or a quote starts with: its `>` and blanks, and a list marker's width.
_CONTAINER_RE = re.compile(rb"[ \t>]*+(?:(?:[-+*]|[0-9]{1,9}[.)])[ \t]++)?")


def break_before(data: bytes, mark: int) -> Edit:
    """A line break before the backticks at `mark`, so that they start a line (inside the same list item or quote)."""
    start = data.rfind(b"\n", 0, mark) + 1
    lead = _CONTAINER_RE.match(data, start, mark)
    return _line_break(mark, data[start : lead.end() if lead else start])


def _line_break(at: int, prefix: bytes) -> Edit:
    """A line break inserted at `at`, the new line indented as `prefix` is (its `>` kept, anything else a blank)."""
    return (at, at, b"\n" + bytes(c if c in b"> \t" else 0x20 for c in prefix))


def span_edits(data: bytes, start: int, end: int) -> list[Edit]:
    """A code span Slack would not show (across a line break, or blanks alone): its opener as text; unless it is a
    block Slack reads, three backticks after text whose closer ends a line ("Scope: ```a⏎b```"), which a line break
    before it makes a fence."""
    opener = backticks_end(data, start)
    width = opener - start
    first_end = data.find(b"\n", opener, end)  # where the opener's line ends, inside the span (-1: on one line)
    closer_line = data.rfind(b"\n", 0, end - width) + 1
    closes = not data[closer_line : end - width].strip(b" \t>") or _LINE_END_RE.match(data, end) is not None
    if width >= 3 and first_end >= 0 and b"`" not in data[opener:first_end] and closes:
        return [break_before(data, start)]
    return [insert(p) for p in range(start, opener)]


_LINE_END_RE = re.compile(rb"[ \t]*+(?:\n|$)")


def info_line(data: bytes, mark: int) -> Edit:
    """A line break after a code fence's backticks, so what follows them on its line (the info string, which
    Slack shows as code) is the block's first line: inside a list item or a quote, the line keeps its place."""
    return _line_break(backticks_end(data, mark), data[data.rfind(b"\n", 0, mark) + 1 : mark])
