"""The text rule of DESIGN §2: a person's text as Markdown that reads the way Slack users mean it, in every reader.

The parser (pulldown-cmark, renderers/adf_input.py) reads CommonMark, which would lose characters of text
typed in Slack: `# 3 failed` becomes a heading, `Cache::__init__` a bold "init", `MAX_SHARDS*2 ... *ptr` an
italic run, `\\*` a lone `*`, `&amp;` an `&`. `faithful` reads the text with that parser and backslash-escapes
exactly the markers that would misread it, until nothing is misread:
- headings (`#` lines, `===` / `---` underlines), rules (`***`), `~~~` fences, HTML (blocks and inline), link
  reference definitions, footnotes, table delimiter rows, task-list boxes and `[!NOTE]` alerts stay text, so no reader
  (CommonMark or GitHub's) formats, hides or runs them;
- emphasis counts only where its markers clearly wrap words on one line: the opener at the start of a word
  (after a blank, an opening bracket or the start of the line) and followed by a letter or digit, the closer
  after a letter, a digit or closing punctuation and followed by a blank, punctuation or the end; `__` never
  (it is how Python names are written); `~x~` never (GitHub would strike it);
- only http(s) and mailto targets become links (renderers/links.py); any other link stays text as typed; an
  image shows its `!` and, for an http(s) image, links its text to the image; `[](url)` shows the URL as typed;
- Slack's own syntax reads as Slack means it: `<url|label>` is a link to `url` labelled `label` (allowed
  schemes only), and `<!here>`, `<!subteam^…|@team>`, `<@U…>` are text, never links or mentions;
- a backslash or an HTML entity the person typed shows as typed (outside code, where it always does).
`*word*` is bold, as in Slack (`_word_` italic). Code spans, code blocks, lists and `>` quotes are read as
they are. The ADF and the Slack preview are both made from the result, so they show the same text and structure.

Every escape is a backslash before ASCII punctuation outside code, which no reader shows: a backslash of ours
that would land in code (a code span that pairs only once a heading is text) dissolves that span instead.
`faithful_inline` reads a value that shares a line with ours (an owner after its label, an action item's
tracking) and closes it: every marker left unpaired is escaped too, so nothing in it pairs with a marker
of the next field or of our labels. Each pass reads the text once (linear time); a text still misread after
`_MAX_PASSES` passes is escaped wholesale, so the time and the output stay linear in the input.
"""

from __future__ import annotations

import bisect
import dataclasses
import functools
import re
from dataclasses import dataclass
from typing import Any

from renderers import budget
from renderers.adf_input import PARSER
from renderers.links import is_safe_href

#: What may stand before an emphasis opener / after a closer (besides blanks and the ends of the text).
_BEFORE_OPENER = frozenset("([{\"'“‘「（")
_AFTER_CLOSER = frozenset(".,;:!?)]}\"'”’」）、。")
_MARK_WIDTH = {"Emphasis": 1, "Strong": 2, "Strikethrough": 2}
#: Passes after which a text that still changes is escaped wholesale (every marker), a bound on the work.
_MAX_PASSES = 6

#: Characters that can make Markdown of plain text; a text without any is read as it is, with no parse.
_MARKUP_RE = re.compile(r"[\\`*_~\[\]<>&#=|!]|^[ \t]*(?:[-+]|\d{1,9}[.)])|^ {4}|\t")
_MARKUP_ML_RE = re.compile(_MARKUP_RE.pattern, re.MULTILINE)

#: In text: Slack's `<url|label>`, a typed backslash escape, an entity CommonMark would decode, a `<` that could
#: start HTML (all kept as typed), and a marker that could pair with another (escaped when asked).
_TYPED_TEXT = (
    rb"(?P<slack><(?i:https?://|mailto:)[^\s<>|]+\|[^<>\n]*>)"
    rb"|(?P<escape>\\[!-/:-@\[-`{-~])"
    rb"|(?P<always>&(?=#[0-9]{1,7};|#[xX][0-9a-fA-F]{1,6};|[A-Za-z][A-Za-z0-9]{1,31};)|<(?=[A-Za-z/!?]))"
)
_TEXT_RE = re.compile(_TYPED_TEXT + rb"|(?P<marker>[`*_~\[<])")
#: The same for a whole run of text at once (no backslash of ours in it), `_may_pair` as lookarounds: typed
#: text only; and emphasis markers; and every opener.
_FAST_TYPED = re.sub(rb"\(\?P<\w+>", b"(?:", _TYPED_TEXT)
_FAST_EMPHASIS = _FAST_TYPED + rb"|_(?![A-Za-z0-9])|(?<![A-Za-z0-9])_|[*~](?![ \t])|(?<![ \t])[*~]"
_FAST_TEXT_RE = re.compile(b"(" + _FAST_TYPED + b")")
_FAST_EMPHASIS_RE = re.compile(b"(" + _FAST_EMPHASIS + b")")
_FAST_CLOSED_RE = re.compile(b"(" + _FAST_EMPHASIS + rb"|[`\[<])")
#: Slack's link syntax in text (a label with a blank in it: no autolink).
_SLACK_TEXT_RE = re.compile(rb"<((?i:https?://|mailto:)[^\s<>|]+)\|([^<>\n]*)>")
_TILDE_CLOSER_RE = re.compile(rb" {0,3}~{3,}[ \t]*")
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
_OWN_TEXT_RE = re.compile(r"([\\`*_~\[\]<>&!|])")
_ASCII_PUNCTUATION = frozenset(b"!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")

_SURROGATE_RE = re.compile("[\ud800-\udfff]")

Edit = tuple[int, int, bytes]


@dataclass(frozen=True)
class Reading:
    """A person's text as Markdown that reads as they meant it, and the kind of its last top-level block
    (`Paragraph`, `CodeBlock`, `List`, `BlockQuote`, ...; empty for an empty text)."""

    markdown: str
    last: str


def faithful(text: str) -> str:
    """`text` as Markdown whose reading keeps every character (see the module docstring)."""
    return read(text).markdown if text else text


def faithful_inline(text: str) -> str:
    """A value placed inside one of our lines: its line breaks become spaces, it is read mid-line, and every
    marker it leaves unpaired is escaped, so it cannot pair with anything after it on that line."""
    return read(text, inline=True).markdown if text else text


@functools.lru_cache(maxsize=512)
def read(text: str, *, inline: bool = False, closed: bool = False) -> Reading:
    """The reading of `text` (see the module docstring); `closed` escapes markers left unpaired too.

    Cached by text: a revision of a draft changes one field, and only that one is read again.
    """
    source = text
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if "\x00" in text:
        text = text.replace("\x00", "\ufffd")  # as CommonMark requires, and as the ADF shows it
    if not text.isascii():
        text = _SURROGATE_RE.sub("\ufffd", text)  # no parser reads a lone surrogate (renderers/adf_input.py)
    if inline:
        text = text.replace("\n", " ")
        closed = True
    if not text:
        return Reading("", "")
    if not (_MARKUP_RE.search(text) if inline else _MARKUP_ML_RE.search(text)):
        return Reading(text, "Paragraph")
    with budget.reading(source):
        return _read(text, inline=inline, closed=closed)


def _read(text: str, *, inline: bool, closed: bool) -> Reading:
    prefix = b"x " if inline else b""  # read mid-line: nothing at its start begins a block
    original = text.encode()
    data = prefix + original
    ours: list[int] = []  # where the backslashes of earlier passes stand (never read as the person's)
    for _ in range(_MAX_PASSES):
        budget.check()
        found = _pass(data, ours, closed=closed, start=len(prefix))
        if found.fixes:  # the reading changes: apply these alone, read again
            data, ours = _apply(data, found.fixes, ours)
            continue
        data = _apply(data, found.keeps, None)[0]
        last = found.last
        break
    else:
        data, last = prefix + _plain(original), "Paragraph"
    if closed and data.endswith(b"\\"):
        run = len(data) - len(data.rstrip(b"\\"))
        if run % 2:  # a last backslash would escape what follows the value
            data += b"\\"
    return Reading(data[len(prefix) :].decode(), last)


@dataclass
class _Pass:
    """What one reading found: `fixes` change how the text reads (another pass follows), `keeps` only keep
    characters (applied once nothing else changes), and the kind of the last top-level block."""

    fixes: list[Edit] = dataclasses.field(default_factory=list)
    keeps: list[Edit] = dataclasses.field(default_factory=list)
    last: str = ""


def _pass(data: bytes, ours: list[int], *, closed: bool, start: int) -> _Pass:
    """One reading of the text (one parse): what it misreads and what keeps each character."""
    found = _Pass()
    fixes, keeps = found.fixes, found.keeps
    unclear: list[Edit] = []  # emphasis that does not clearly wrap words: its markers escaped
    text = data.decode()
    if b"]:" in data:  # link reference definitions would vanish from every reader: keep them text
        for definition in PARSER.reference_definitions(text).values():
            fixes.append(_insert(data.index(b"[", definition["span"]["start"])))
    depth = 0
    literal = 0  # inside code, HTML or an autolink: text shown as written
    hidden = 0  # inside what this pass turns into text (an image): read again next pass
    code_blocks: list[tuple[int, int]] = []
    texts: list[tuple[int, int, bool, bool]] = []  # text to keep as typed: start, end, starts a line / an item
    links: list[_OpenLink] = []
    line_start = item_start = False
    event: Any
    for event, span in PARSER.events_with_range(text, merge_text=True):
        if event.__class__ is str:
            if links:
                links[-1].empty = False
            s = span["start"]
            if event == "Rule":
                escape = _insert(_first_mark(data, s))
                if depth == 0:
                    found.last = "Rule"
                (unclear if depth == 0 and _isolated(data, s, span["end"]) else fixes).append(escape)
            elif event == "HardBreak" and data[s] == 0x5C and not literal and not hidden:
                keeps.append(_insert(s))  # a typed backslash at a line's end shows, and the line still breaks
            line_start = True
            continue
        if "Text" in event:  # the most frequent event first
            if links:
                links[-1].empty = False
            if not literal and not hidden:
                s = span["start"]
                # A Text event starts after the backslash of an escape it begins with: read from that backslash.
                texts.append((s - 1 if s and data[s - 1] == 0x5C else s, span["end"], line_start, item_start))
            line_start = item_start = False
            continue
        s, e = span["start"], span["end"]
        if "Start" in event:
            if links:
                links[-1].empty = False
            value = event["Start"]
            name = value if value.__class__ is str else next(iter(value))
            if depth == 0:
                found.last = name
            depth += 1
            if name == "Paragraph":
                line_start = True
            elif name in _MARK_WIDTH:
                if not hidden and not literal:
                    _emphasis(data, s, e, name, unclear, keeps)
            elif name == "Item":
                item_start = True
            elif name == "Link":
                link = value["Link"]
                opened = _OpenLink(link["link_type"], s, link["dest_url"])
                if not hidden and not literal:
                    _link(data, opened, e, found)
                links.append(opened)
                if opened.kind in ("Autolink", "Email"):
                    literal += 1
            elif name == "Heading":
                # A heading alone between blank lines becomes a paragraph of its own: nothing else reads otherwise.
                isolated = depth == 1 and _isolated(data, s, e)
                (unclear if isolated else fixes).append(_insert(_heading_mark(data, s, e)))
            elif name == "CodeBlock":
                literal += 1
                code_blocks.append((s, e))
                mark = _first_mark(data, s)
                if value["CodeBlock"].__class__ is dict and data[mark : mark + 1] == b"~":
                    fixes.extend(_tilde_fence(data, mark, e))  # `~~~` fences are no Slack convention: text
            elif name == "HtmlBlock":
                literal += 1
            elif name == "Subscript":
                if not hidden and not literal:
                    fixes.extend((_insert(s), _insert(e - 1)))  # `~x~`: GitHub would strike it
            elif name == "Image":
                if not hidden and not literal:
                    src = value["Image"]["dest_url"]
                    fixes.append(_insert(s if is_safe_href(src) else s + 1))  # `!` shown; a link only if http(s)
                hidden += 1
            continue
        if "End" in event:
            depth -= 1
            value = event["End"]
            name = value if value.__class__ is str else next(iter(value))
            if name == "Link":
                closing = links.pop()
                if closing.kind in ("Autolink", "Email"):
                    literal -= 1
                elif closing.empty and closing.kept:  # `[](url)`: the URL, as typed, is its text
                    keeps.append((closing.start + 1, closing.start + 1, _own_text(closing.dest).encode()))
            elif name in ("CodeBlock", "HtmlBlock"):
                literal -= 1
            elif name == "Image":
                hidden -= 1
            continue
        if links:
            links[-1].empty = False
        line_start = item_start = False
        if "Code" in event:
            if not hidden and _has_ours(ours, s, e):  # a backslash of ours in code: no code span there
                fixes.extend(_insert(p) for p in range(s, e) if data[p] == 0x60)
        elif "InlineHtml" in event:
            if not hidden and not literal:
                (fixes if _has_markup(data, s + 1, e) else keeps).append(_insert(s))
        elif "Html" in event:
            mark = _first_mark(data, s)
            if data[mark : mark + 1] == b"<":  # every line of the block, so none opens another one
                fixes.append(_insert(mark))
    for block_start, block_end in code_blocks:
        for pos in _ours_in(ours, block_start, block_end):
            fixes.append((pos, pos + 1, b""))  # inside code a backslash shows: ours is not needed there
    # Unclear emphasis escaped with every other marker that could pair leaves only the clear pairs to pair, as
    # they did (and a heading or rule alone between blank lines becomes a paragraph of its own): no second
    # reading needed, unless something else changes the reading anyway.
    (fixes if fixes else keeps).extend(unclear)
    if found.last in ("Heading", "Rule"):  # escaped: a paragraph once read again
        found.last = "Paragraph"
    if not fixes:
        markers = _CLOSED if closed else _EMPHASIS if unclear else _TYPED
        # Scanned for what needs escaping from run to run (most runs need nothing): a run is read again only
        # where a match overlaps it.
        fast = _FAST_RES[markers]
        match = fast.search(data, start)
        for text_start, text_end, at_line, at_item in texts:
            if text_start < start:  # the run begins in the prefix that puts an inline value mid-line
                text_start, at_line, at_item = start, False, False
            if match is not None and match.end() <= text_start:
                match = fast.search(data, text_start)
            hit = match is not None and match.start() < text_end
            if hit or at_line or at_item:
                _keep_text(
                    data,
                    text_start,
                    text_end,
                    at_line,
                    at_item,
                    ours,
                    markers=markers,
                    start=start,
                    hit=hit,
                    keeps=keeps,
                )
    found.fixes = [edit for edit in fixes if edit[0] >= start]
    found.keeps = [edit for edit in keeps if edit[0] >= start]
    return found


def _isolated(data: bytes, start: int, end: int) -> bool:
    """Whether the block at `start`..`end` stands between blank lines (or the ends of the text)."""
    before = data.rfind(b"\n", 0, start)
    if before > 0 and data[data.rfind(b"\n", 0, before) + 1 : before].strip(b" \t"):
        return False  # the line before is not blank
    after = data.find(b"\n", end - 1 if data[end - 1 : end] == b"\n" else end)
    if after < 0:
        return True
    line_end = data.find(b"\n", after + 1)
    return not data[after + 1 : len(data) if line_end < 0 else line_end].strip(b" \t")


def _tilde_fence(data: bytes, mark: int, end: int) -> list[Edit]:
    """Escapes for a `~~~` code block's opening fence and its closing one, if it has one."""
    body = data[mark:end].rstrip(b"\n")
    last = body.rfind(b"\n")
    closing = mark + last + 1
    if last > 0 and _TILDE_CLOSER_RE.fullmatch(data, closing, mark + len(body)):
        return [_insert(mark), _insert(_first_mark(data, closing))]
    return [_insert(mark)]


#: What `_keep_text` escapes besides typed escapes and entities: nothing else; markers that could pair (after
#: unclear emphasis was escaped); those and every other opener (a value closed for a shared line).
_TYPED, _EMPHASIS, _CLOSED = 0, 1, 2
_MARKERS_OF = {_TYPED: b"", _EMPHASIS: b"*_~", _CLOSED: b"*_~`[<"}
_FAST_RES = {_TYPED: _FAST_TEXT_RE, _EMPHASIS: _FAST_EMPHASIS_RE, _CLOSED: _FAST_CLOSED_RE}
#: The escaped form of every match but Slack's links, made once.
_ESCAPED = {bytes([c]): b"\\" + bytes([c]) for c in b"&<`*_~["} | {
    b"\\" + bytes([c]): b"\\\\\\" + bytes([c]) for c in b"!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"
}


def _keep_text(
    data: bytes,
    s: int,
    e: int,
    at_line: bool,
    at_item: bool,
    ours: list[int],
    *,
    markers: int,
    start: int,
    hit: bool,
    keeps: list[Edit],
) -> None:
    """The edits that show a run of text as typed: typed escapes and entities kept, `<` that could open HTML
    escaped, and the markers `markers` names that could pair with another one."""
    if at_line and data[s] in _ROW_START and _table_row(data, s, e):
        keeps.append(_insert(data.index(b"|", s)))
    if markers != _CLOSED and data[s] == 0x5B:  # a closed value escapes every `[` anyway
        if (
            at_item
            and _TASK_RE.match(data, s, e)
            or at_line
            and (_ALERT_RE.match(data, s, e) or _FOOTNOTE_RE.match(data, s, e))
        ):
            keeps.append(_insert(s))  # a task box, an alert box of the quote, a footnote of the line on GitHub
    if not hit:
        return
    if not _has_ours(ours, s, e):  # the common case: the run cut where it needs escapes, in one call
        parts = _FAST_RES[markers].split(data[s:e])
        if len(parts) > 1:  # text, match, text, match, ..., text
            parts[1::2] = [_ESCAPED.get(found) or _escaped(found) for found in parts[1::2]]
            keeps.append((s, e, b"".join(parts)))
        return
    escaped = _MARKERS_OF[markers]
    for match in _TEXT_RE.finditer(data, s, e):
        pos = match.start()
        if _is_ours(ours, pos):
            continue
        group = match.lastgroup
        if group == "escape":  # typed: keep the backslash and what it escaped
            keeps.extend((_insert(pos), _insert(pos + 1)))
        elif group == "slack":
            keeps.append((pos, match.end(), _slack_link(match.group())))
        elif group == "always" or data[pos : pos + 1] in escaped and _may_pair(data, pos, start):
            keeps.append(_insert(pos))


def _escaped(found: bytes) -> bytes:
    """A typed escape doubled (`\\*` written `\\\\\\*`: both characters kept), Slack's `<url|label>` a link
    (a `<` escaped when its scheme is not allowed), any other match escaped."""
    if len(found) == 1:
        return b"\\" + found
    if found[:1] == b"<":
        return _slack_link(found)
    return b"\\" + found[:1] + b"\\" + found[1:]


def _slack_link(written: bytes) -> bytes:
    """Slack's `<url|label>` as a Markdown link to `url` labelled `label` (the label empty: the URL)."""
    match = _SLACK_TEXT_RE.fullmatch(written)
    if match is None or not is_safe_href(url := match.group(1).decode()):
        return b"\\" + written
    label = match.group(2).decode() or url
    return f"[{_own_text(label)}](<{_own_target(url)}>)".encode()


@dataclass
class _OpenLink:
    """A link being read: its kind, where it starts, its target, whether it stays a link and holds nothing."""

    kind: str
    start: int
    dest: str
    kept: bool = True
    empty: bool = True


def _link(data: bytes, link: _OpenLink, end: int, found: _Pass) -> None:
    """The edits for one link."""
    s, href = link.start, link.dest
    if link.kind in ("Email", "Autolink"):
        slack = "|" in href and link.kind == "Autolink"
        if slack and _SLACK_TEXT_RE.fullmatch(data, s, end):
            found.keeps.append((s, end, _slack_link(data[s:end])))
            return
        mail = link.kind == "Email"
        if slack or (mail and (href[:1] in ("!", "@", "#") or "|" in href)) or not is_safe_href(_href(link)):
            link.kept = False  # Slack's `<!subteam^ID|@team>`, `<!here>`, other schemes: text
            (found.fixes if _has_markup(data, s + 1, end) else found.keeps).append(_insert(s))
        return
    if not is_safe_href(href):
        link.kept = False
        found.fixes.append(_insert(s))


def _href(link: _OpenLink) -> str:
    return "mailto:" + link.dest if link.kind == "Email" else link.dest


def _emphasis(data: bytes, s: int, e: int, name: str, unclear: list[Edit], keeps: list[Edit]) -> None:
    """Unclear emphasis escaped; `*word*` made bold, as in Slack."""
    width = _mark_width(data, s, e, _MARK_WIDTH[name])
    if not width:
        return
    if not _clear_emphasis(data, s, e, width):
        unclear.extend(_insert(p) for p in (*range(s, s + width), *range(e - width, e)))
    elif name == "Emphasis" and data[s] == 0x2A and b"*" not in data[s + 1 : e - 1]:
        # Doubled only with no `*` inside, which the doubled markers could pair with instead.
        keeps.extend(((s, s, b"*"), (e, e, b"*")))


def _may_pair(data: bytes, pos: int, start: int) -> bool:
    """Whether an unpaired marker could pair with one outside the value (a `_` inside a word cannot, nor a
    `*` or `~` between blanks)."""
    char = data[pos : pos + 1]
    if char in (b"`", b"[", b"<"):
        return True
    before = data[pos - 1 : pos] if pos > start else b""
    after = data[pos + 1 : pos + 2]
    if char == b"_":
        return not (before.isalnum() and after.isalnum())
    return not (before in (b" ", b"\t") and after in (b" ", b"\t"))


def _table_row(data: bytes, s: int, e: int) -> bool:
    line_end = data.find(b"\n", s)
    end = len(data) if line_end < 0 else line_end
    return e == end and b"|" in data[s:e] and _TABLE_ROW_RE.fullmatch(data, s, e) is not None


def _own_text(text: str) -> str:
    """Text we place in a link label, escaped so it reads as written."""
    return _OWN_TEXT_RE.sub(r"\\\1", text.replace("\n", " "))


def _own_target(url: str) -> str:
    """A URL inside `<...>`: backslashes and `&` escaped (a destination decodes both)."""
    return url.replace("\\", "\\\\").replace("&", "\\&")


def _has_markup(data: bytes, s: int, e: int) -> bool:
    return any(c in data[s:e] for c in (b"*", b"_", b"~", b"`", b"[", b"<", b"&", b"\\"))


def _insert(pos: int) -> Edit:
    return (pos, pos, b"\\")


def _is_ours(ours: list[int], pos: int) -> bool:
    i = bisect.bisect_left(ours, pos)
    return i < len(ours) and ours[i] == pos


def _has_ours(ours: list[int], start: int, end: int) -> bool:
    i = bisect.bisect_left(ours, start)
    return i < len(ours) and ours[i] < end


def _ours_in(ours: list[int], start: int, end: int) -> list[int]:
    return ours[bisect.bisect_left(ours, start) : bisect.bisect_left(ours, end)]


def _apply(data: bytes, edits: list[Edit], ours: list[int] | None) -> tuple[bytes, list[int]]:
    """The text with the edits made (an insertion once per place; none inside a replaced range), and, when
    `ours` is given, where the backslashes of ours stand in it."""
    out = bytearray()
    added: list[int] = []
    previous = 0
    marks = iter(ours or ())
    mark = next(marks, None) if ours is not None else None
    for start, end, new in sorted(set(edits)):
        if start < previous:
            continue
        if ours is not None:
            while mark is not None and mark < start:
                added.append(mark + len(out) - previous)
                mark = next(marks, None)
            while mark is not None and mark < end:  # replaced or removed
                mark = next(marks, None)
            if new == b"\\":
                added.append(len(out) + start - previous)
        out += data[previous:start]
        out += new
        previous = end
    while mark is not None:
        added.append(mark + len(out) - previous)
        mark = next(marks, None)
    out += data[previous:]
    return bytes(out), added


def _plain(data: bytes) -> bytes:
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
