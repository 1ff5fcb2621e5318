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
  image shows its `!` and, for an http(s) image, links its text to the image; `[](url)`, `[ ](url)` and
  `<url| >` show the URL as typed;
- Slack's own syntax reads as Slack means it: `<url|label>` is a link to `url` labelled `label` (allowed
  schemes only; markup in the label shown as typed), and `<!here>`, `<!subteam^…|@team>`, `<@U…>` are text,
  never links or mentions; what follows a fence's backticks is the first code line; a link with a title, an
  ordered list whose numbers would be shown otherwise than typed (`1. a⏎1. b`, `1) a`), and a quote inside a list
  item or a quote stay text;
- a backslash or an HTML entity the person typed shows as typed (outside code, where it always does);
- a line's leading blanks show as typed (the first written as an entity, `&#32;`), so an indented line is no
  code block (Slack has none) and keeps its indentation; a code span never holds a line break or blanks alone
  (Slack's cannot): its opening backticks are text then;
- fences as Slack reads them: a line starting with the fence's backticks and text after them closes the block
  (the text follows it), three backticks ending a line after text open or close one ("Output: ```", "b```"),
  backticks with nothing in their block are text, and emphasis around code alone stays
  text (no ADF mark styles code); `*` and `+` lines are no list (Slack's lists are `-` and `1.`), and a marker
  alone on a line is text; a quote Slack would not show as one (a line without `>` taken into it, or nothing
  quoted) is its text, `>` included.
`*word*` is bold, as in Slack (`_word_` italic). Code spans, code blocks, lists and `>` quotes are read as
they are. The ADF and the Slack preview are both made from the result, so they show the same text and structure.

Every escape is a backslash before ASCII punctuation outside code, which no reader shows: a backslash of ours
that would land in code (a code span that pairs only once a heading is text) dissolves that span instead.
`faithful_inline` reads a value that shares a line with ours (an owner after its label, an action item's
tracking) and closes it: every marker left unpaired is escaped too, so nothing in it pairs with a marker
of the next field or of our labels. Each pass reads the text once (linear time); a text still misread after
`_MAX_PASSES` passes is escaped wholesale, so the time and the output stay linear in the input. One reading is
renderers/usertext_walk.py; the runs of text kept as typed, renderers/usertext_runs.py; the edits and the
byte-level tests (emphasis, headings, fences), renderers/usertext_edits.py.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from renderers import budget
from renderers.usertext_edits import apply, plain
from renderers.usertext_walk import read_once

#: Passes after which a text that still changes is escaped wholesale (every marker), a bound on the work.
_MAX_PASSES = 6

#: Characters that can make Markdown of plain text; a text without any is read as it is, with no parse.
_MARKUP_RE = re.compile(r"[\\`*_~\[\]<>&#=|!]|^[ \t]*(?:[-+]|\d{1,9}[.)])|^[ \t]|\t")
_MARKUP_ML_RE = re.compile(_MARKUP_RE.pattern, re.MULTILINE)
_SURROGATE_RE = re.compile("[\ud800-\udfff]")
#: A line break inside a paragraph of plain text: a hard break (`\` at the line's end), so a Markdown reader
#: shows the lines as typed, as Slack and Jira do.
_SOFT_BREAK_RE = re.compile(r"(?<=[^\s])([ \t]*)\n(?=[ \t]*[^\s])")


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
        return Reading(_SOFT_BREAK_RE.sub(r"\1\\\n", text) if "\n" in text else text, "Paragraph")
    with budget.reading(source):
        return _read(text, inline=inline, closed=closed)


def _read(text: str, *, inline: bool, closed: bool) -> Reading:
    prefix = b"x " if inline else b""  # read mid-line: nothing at its start begins a block
    original = text.encode()
    data = prefix + original
    ours: list[int] = []  # where the backslashes of earlier passes stand (never read as the person's)
    for _ in range(_MAX_PASSES):
        budget.check()
        found = read_once(data, ours, closed=closed, start=len(prefix))
        if found.fixes:  # the reading changes: apply these alone, read again
            data, ours = apply(data, found.fixes, ours)
            continue
        data = apply(data, found.keeps, None)[0]
        last = found.last
        break
    else:
        data, last = prefix + plain(original), "Paragraph"
    if closed and data.endswith(b"\\"):
        run = len(data) - len(data.rstrip(b"\\"))
        if run % 2:  # a last backslash would escape what follows the value
            data += b"\\"
    return Reading(data[len(prefix) :].decode(), last)
