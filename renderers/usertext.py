"""The text rule of DESIGN §2: a person's text as Markdown that reads the way Slack users mean it.

The parser (pulldown-cmark, renderers/adf_input.py) reads CommonMark, which would lose characters of text
typed in Slack: `# 3 failed` becomes a heading, `Cache::__init__` a bold "init", `MAX_SHARDS*2 ... *ptr` an
italic run, `\\*` a lone `*`, `&amp;` an `&`. `faithful` reads the text with that parser and backslash-escapes
exactly the markers that would misread it, until nothing is misread:
- headings (`#` lines, `===` / `---` underlines), rules (`***`) and `~~~` fences stay text;
- emphasis counts only where its markers clearly wrap words on one line: the opener at the start of a word
  (after a blank, an opening bracket or the start of the line) and followed by a letter or digit, the closer
  after a letter, a digit or closing punctuation and followed by a blank, punctuation or the end; `__` never
  (it is how Python names are written);
- only http(s) and mailto targets become links (renderers/links.py); any other link stays text as typed;
- a backslash or an HTML entity the person typed shows as typed (outside code, where it always does).
`*word*` is bold, as in Slack (`_word_` italic). Code spans, code blocks, lists and `>` quotes are read as
they are. The ADF and the Slack preview are both made from the result, so they show the same text and structure.
"""

from __future__ import annotations

import functools
import re
from typing import Any

from renderers.adf_input import PARSER
from renderers.links import is_safe_href

#: A backslash escape or an entity CommonMark would read (so the typed characters would not show).
_TYPED_ESCAPE_RE = re.compile(
    rb"\\(?=[!-/:-@\[-`{-~])|\\(?=\n)|&(?=#[0-9]{1,7};|#[xX][0-9a-fA-F]{1,6};|[A-Za-z][A-Za-z0-9]{1,31};)"
)
#: What may stand before an emphasis opener / after a closer (besides blanks and the ends of the text).
_BEFORE_OPENER = frozenset("([{\"'“‘「（")
_AFTER_CLOSER = frozenset(".,;:!?)]}\"'”’」）、。")
_MARK_WIDTH = {"Emphasis": 1, "Strong": 2, "Strikethrough": 2}
#: Passes after which a text that still changes is escaped wholesale (every marker), a bound on the work.
_MAX_PASSES = 12
_EITHER = {str({k: v}): f"{k}:mark" for k in ("Start", "End") for v in ("Emphasis", "Strong")}


@functools.lru_cache(maxsize=512)
def faithful(text: str) -> str:
    """`text` as Markdown whose reading keeps every character (see the module docstring).

    Cached: one render reads each field three times (Markdown, ADF, Slack preview), and a revision changes one.
    """
    if not text:
        return text
    data, opened = _plain_html_blocks(text.replace("\r\n", "\n").replace("\r", "\n").encode())
    data = _keep_typed_escapes(data, ours=opened)
    for _ in range(_MAX_PASSES):
        inserts = _misread(data)
        if not inserts:
            return _slack_bold(data).decode()
        data = _insert_backslashes(data, inserts)
    return data.decode()  # not reached for text people type; every pass removes a misreading


def _slack_bold(data: bytes) -> bytes:
    """`*word*` is bold in Slack (italic in Markdown): its markers doubled, when that reads as bold and nothing else."""
    if b"*" not in data:
        return data
    spans = [
        (span["start"], span["end"])
        for event, span in PARSER.events_with_range(data.decode())
        if event == {"Start": "Emphasis"} and data[span["start"] : span["start"] + 1] == b"*"
    ]
    if not spans:
        return data
    out = bytearray()
    previous = 0
    for pos in sorted({p for start, end in spans for p in (start, end - 1)}):
        out += data[previous:pos] + b"*"
        previous = pos
    doubled = bytes(out + data[previous:])
    return doubled if _same_reading_but_bold(data, doubled) else data


def _same_reading_but_bold(before: bytes, after: bytes) -> bool:
    """The doubled text reads as the same text with the same structure, only emphasis turned into bold."""

    def reading(data: bytes) -> list[Any]:  # emphasis and bold alike, to compare everything else
        return [_EITHER.get(str(e), e) for e in PARSER.events(data.decode())]

    def bold(data: bytes) -> int:
        return sum(e == {"Start": "Strong"} for e in PARSER.events(data.decode()))

    return reading(before) == reading(after) and bold(after) > bold(before)


def _plain_html_blocks(data: bytes) -> tuple[bytes, frozenset[int]]:
    """Every HTML block read as text: its opening `<` escaped, so the lines after it are read (and kept) like
    any other text; an escaped `<pre` followed by a `-` line would otherwise become a setext heading once
    the block is shown as text. Returns the text and where the escapes it added stand."""
    added: list[int] = []
    for _ in range(_MAX_PASSES):
        if b"<" not in data:
            break
        starts = [
            _first_mark(data, span["start"])
            for event, span in PARSER.events_with_range(data.decode())
            if isinstance(event, dict) and event.get("Start") == "HtmlBlock"
        ]
        if not starts:
            break
        added = [pos + sum(1 for s in starts if s <= pos) for pos in added] + [
            pos + i for i, pos in enumerate(sorted(set(starts)))
        ]
        data = _insert_backslashes(data, starts)
    return data, frozenset(added)


def _keep_typed_escapes(data: bytes, *, ours: frozenset[int] = frozenset()) -> bytes:
    """Double the backslashes and escape the `&` of entities the person typed, outside code and HTML
    (`ours`: backslashes this module added, left single)."""
    if b"\\" not in data and b"&" not in data:
        return data
    literal = _literal_spans(data)
    inserts = [
        m.start() for m in _TYPED_ESCAPE_RE.finditer(data) if m.start() not in ours and not _inside(m.start(), literal)
    ]
    return _insert_backslashes(data, inserts)


def _literal_spans(data: bytes) -> list[tuple[int, int]]:
    """Byte ranges shown as written whatever they hold: code, HTML and autolinks."""
    spans: list[tuple[int, int]] = []
    depth = 0
    event: Any
    for event, span in PARSER.events_with_range(data.decode()):
        if event.__class__ is str:
            continue
        ((kind, value),) = event.items()
        if kind in ("Code", "InlineHtml", "Html"):
            spans.append((span["start"], span["end"]))
        elif kind == "Start" and (_name(value) in ("CodeBlock", "HtmlBlock") or _autolink(value)):
            if depth == 0:
                spans.append((span["start"], span["end"]))
            depth += 1
        elif kind == "End" and (_name(value) in ("CodeBlock", "HtmlBlock") or value == "Link" and depth):
            depth = max(depth - 1, 0)
    return spans


def _autolink(tag: Any) -> bool:
    return isinstance(tag, dict) and "Link" in tag and tag["Link"]["link_type"] in ("Autolink", "Email")


def _name(tag: Any) -> str:
    return tag if isinstance(tag, str) else next(iter(tag))


def _inside(pos: int, spans: list[tuple[int, int]]) -> bool:
    return any(start <= pos < end for start, end in spans)


def _misread(data: bytes) -> list[int]:
    """Byte offsets where a backslash keeps a marker as text: headings, rules, unclear emphasis, unsafe links."""
    inserts: list[int] = []
    text = data.decode()
    event: Any
    for event, span in PARSER.events_with_range(text):
        start, end = span["start"], span["end"]
        if event.__class__ is str:
            if event == "Rule":
                inserts.append(_first_mark(data, start))
            continue
        ((kind, tag),) = event.items()
        if kind != "Start":
            continue
        name = _name(tag)
        if name == "Heading":
            inserts.append(_heading_mark(data, start, end))
        elif name == "CodeBlock" and data[_first_mark(data, start) :][:1] == b"~":
            inserts.append(_first_mark(data, start))  # `~~~` fences are no Slack convention: text
        elif name in _MARK_WIDTH:
            width = _mark_width(data, start, end, _MARK_WIDTH[name])
            if width and not _clear_emphasis(data, start, end, width):
                inserts.extend(range(start, start + width))
                inserts.extend(range(end - width, end))
        elif name in ("Link", "Image"):
            link = tag[name]
            href = link["dest_url"]
            if link["link_type"] == "Email":
                href = "mailto:" + href
            if not is_safe_href(href):
                inserts.append(start + 1 if name == "Image" else start)
    return sorted(set(inserts))


def _first_mark(data: bytes, start: int) -> int:
    """The first non-blank byte of the line at `start`."""
    while data[start : start + 1] in (b" ", b"\t"):
        start += 1
    return start


def _heading_mark(data: bytes, start: int, end: int) -> int:
    """Where to escape a heading: its `#`, or the first character of a setext heading's underline."""
    first = _first_mark(data, start)
    if data[first : first + 1] == b"#":
        return first
    body = data[start:end].rstrip(b"\n")
    return _first_mark(data, start + body.rindex(b"\n") + 1) if b"\n" in body else first


def _mark_width(data: bytes, start: int, end: int, width: int) -> int:
    """The delimiter width of an emphasis span as written (0 when its ends are not marker runs we know)."""
    opener, closer = data[start : start + width], data[end - width : end]
    if len(set(opener + closer)) != 1 or opener[:1] not in (b"*", b"_", b"~"):
        return 0
    return width


def _clear_emphasis(data: bytes, start: int, end: int, width: int) -> bool:
    """The markers clearly wrap words: word-start opener, word-end closer, no `__`, no longer marker runs."""
    mark = data[start : start + 1]
    if mark == b"_" and width != 1 or b"\n" in data[start:end]:
        return False  # `__` is how Python names are written; Slack formats within one line only
    before = _char_before(data, start)
    after = _char_after(data, end)
    first = _char_after(data, start + width)
    last = _char_before(data, end - width)
    if mark.decode() in (before, after, first, last):
        return False  # part of a longer run of the same marker (`***`, `___x___`): not clearly wrapping
    return (
        (not before or before.isspace() or before in _BEFORE_OPENER)
        and (not after or after.isspace() or after in _AFTER_CLOSER)
        and (first.isalnum() or first in _BEFORE_OPENER or first == "`")
        and (last.isalnum() or last in _AFTER_CLOSER or last == "`")
    )


def _char_before(data: bytes, pos: int) -> str:
    return data[max(pos - 4, 0) : pos].decode(errors="ignore")[-1:]


def _char_after(data: bytes, pos: int) -> str:
    return data[pos : pos + 4].decode(errors="ignore")[:1]


def _insert_backslashes(data: bytes, positions: list[int]) -> bytes:
    out = bytearray()
    previous = 0
    for pos in sorted(set(positions)):
        out += data[previous:pos]
        out += b"\\"
        previous = pos
    out += data[previous:]
    return bytes(out)
