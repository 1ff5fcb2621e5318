"""A block the person's text opens and never closes, closed before our next line (renderers/markdown.py).

An unclosed code fence or an HTML block that runs to the end of the document would swallow every section after
the field; `contained` closes the one, turns the other into text, and leaves everything else as typed.
"""

from __future__ import annotations

import re
from typing import Any

from renderers.adf_input import PARSER

_SENTINEL = "pm-end-of-field-3f9c"
_LINE_BREAK_RE = re.compile(r"(\r\n|\r|\n)")

#: Leading spaces and the fence characters of a fenced code block's opening line.
_FENCE_RE = re.compile(rb" {0,3}(`{3,}|~{3,})")


def _last_block(md: str) -> tuple[Any, int]:
    """The start tag of the document's last top-level block and the UTF-8 byte offset where it begins."""
    depth, start = 0, 0
    last: Any = None
    for event, span in PARSER.events_with_range(md):
        if isinstance(event, str):  # rules and breaks: leaves, never blocks that run on
            if depth == 0:
                last, start = event, span["start"]
            continue
        ((kind, tag),) = event.items()
        if kind == "Start":
            if depth == 0:
                last, start = tag, span["start"]
            depth += 1
        elif kind == "End":
            depth -= 1
    return last, start


#: After this many one-line fixes, `contained` escapes every opener of a block that runs to the end at once.
_PASSES_BEFORE_BULK = 8
#: A fence line with a tab among the blanks after it (pulldown-cmark does not close a fence there).
_TABBED_FENCE_RE = re.compile(r"(?m)^( {0,3}(?:`{3,}|~{3,}))[ \t]*\t[ \t]*$")
#: Line starts that open an HTML block which only a matching end closes (CommonMark kinds 1 to 5).
_HTML_BLOCK_OPENER = re.compile(r"(?im)^( {0,3})<(?=!--|\?|![a-z]|!\[CDATA\[|(?:script|pre|style|textarea)(?:[\s>]|$))")


def contained(text: str) -> str:
    """User text verbatim, except that a block it opens and never closes cannot swallow the sections after it.

    An unclosed code fence gets its closing fence appended; an HTML block that would run to the end of the
    document (comments, `<pre>`, `<script>`, ...) gets its `<` backslash-escaped, so it shows as text, as it
    does in ADF and Slack anyway. Read with the parser renderers/adf_input.py uses (pulldown-cmark), which differs
    from CommonMark in two places that matter here: a closing fence followed by a tab does not close (its
    trailing blanks are removed, so that both readings close there instead of a new fence opening after it),
    and `<pre>` ... `</script>` does not end a `<pre>` block (escaped: harmless where it did end).
    """
    if "```" not in text and "~~~" not in text and "<" not in text:
        return text
    for attempt in range(_PASSES_BEFORE_BULK + 2):  # a bound on the work: a parse a pass
        if attempt == _PASSES_BEFORE_BULK:
            # Many lines that each open a block to the end (a pasted XML or HTML dump) or that close a fence for
            # CommonMark only: fix every such line at once instead of re-parsing once per line. `\<` shows as
            # `<`, outside code blocks; the blanks after a fence are not shown.
            text = _HTML_BLOCK_OPENER.sub(r"\1\\<", text)
            text = _TABBED_FENCE_RE.sub(r"\1", text)
        parts = _LINE_BREAK_RE.split(text)  # lines at even indexes, their breaks between
        # One `\n` a break, as renderers/adf_input.py normalises before parsing (a lone CR ends no HTML block line
        # in pulldown-cmark); byte offsets then map to line numbers by counting `\n`.
        data = ("\n".join(parts[::2]) + f"\n\n{_SENTINEL}").encode()
        tag, start = _last_block(data.decode())
        if tag == "Paragraph":
            return text
        code = tag.get("CodeBlock") if isinstance(tag, dict) else None
        if isinstance(code, dict):  # {"Fenced": info}: a fence left open
            fence = _FENCE_RE.match(data, start)
            if fence is None:
                return text  # not reached: a fenced block starts with its fence
            mark = fence.group(1)
            closer = re.compile(rb"^ {0,3}%s{%d,}[ \t]*\t[ \t]*$" % (re.escape(mark[:1]), len(mark)), re.MULTILINE)
            tabbed = closer.search(data, data.index(b"\n", start) + 1)
            if tabbed is None:
                return f"{text}\n{mark.decode()}"
            line = 2 * data.count(b"\n", 0, tabbed.start())
            parts[line] = parts[line].rstrip(" \t")
        elif tag == "HtmlBlock":
            line = 2 * data.count(b"\n", 0, start)
            parts[line] = parts[line].replace("<", "\\<", 1)
        else:
            return text  # not reached: only fences and HTML blocks run to the end of a document
        text = "".join(parts)
    return text  # not reached: after the bulk fix no tabbed closer and no opener to the end is left
