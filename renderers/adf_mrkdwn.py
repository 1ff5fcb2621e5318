"""An ADF document as Slack mrkdwn lines: the preview shows the text and structure Jira will show.

The Slack preview is made from the very ADF the draft converts to (DESIGN §2: the same parse), so what the
approver reads is what Jira shows. Each line is a list of spans, each span self-contained mrkdwn, so a long
line can be cut between spans (or inside one, re-formatted) without breaking a format in two.

Nothing the person wrote can ping, link or format on its own: `&`, `<` and `>` are escaped, and a run of
`*`, `_`, `~` or a backtick that could open or close a format in Slack is fenced with word joiners
(U+2060, invisible), so `__init__` or `*ptr` shows as typed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from renderers.mrkdwn import escape_mrkdwn

WORD_JOINER = "\u2060"
#: Put between a format's marker and a letter next to it, so Slack sees the word boundary it needs.
ZERO_WIDTH_SPACE = "\u200b"
_MARKER_RUN_RE = re.compile(r"[*_~`]+")
_FORMAT_MARKS = frozenset("*_~`")
#: How each ADF mark is written in mrkdwn, innermost first.
_WRAP = (("code", "`"), ("strike", "~"), ("em", "_"), ("strong", "*"))


@dataclass(slots=True)
class Span:
    """A piece of a line: its text as shown, its ADF marks, its link, and whether it is shown verbatim."""

    text: str
    marks: frozenset[str] = frozenset()
    href: str | None = None
    verbatim: bool = False  # code block text and our own prefixes: escaped only

    def cut(self, start: int, end: int) -> Span:
        return Span(self.text[start:end], self.marks, self.href, self.verbatim)

    def mrkdwn(self) -> str:
        if self.verbatim:
            return escape_mrkdwn(self.text)
        if not self.marks and self.href is None:
            return protect(self.text)
        core = self.text.strip(" ")
        if not core:
            return self.text
        lead = self.text[: len(self.text) - len(self.text.lstrip(" "))]
        trail = self.text[len(self.text.rstrip(" ")) :]
        # Slack's inline code cannot hold a backtick, nor a link (it would show `<url|label>` as typed)
        code = "code" in self.marks and "`" not in core and self.href is None
        body = escape_mrkdwn(core) if code else protect(core)
        if self.href:
            target = escape_mrkdwn(self.href).replace("|", "%7C")
            body = f"<{target}>" if core == self.href and "code" not in self.marks else f"<{target}|{body}>"
        for mark, char in _WRAP:
            if mark in self.marks and (code or mark != "code"):
                body = f"{char}{body}{char}"
        return f"{lead}{body}{trail}"


Line = list[Span]
#: Two backticks before a third, in a code block's text.
_FENCE_IN_CODE_RE = re.compile("``(?=`)")
#: A code block's opening or closing line.
FENCE = Span("```", verbatim=True)


def protect(text: str) -> str:
    """Escape `&<>` and fence marker runs that touch a word edge with word joiners, so they stay text."""
    text = escape_mrkdwn(text)
    if not _MARKER_RUN_RE.search(text):
        return text
    # text, run, text, run, ..., text: a word joiner between each two is one on each side of every run
    return WORD_JOINER.join(_FENCED_RUN_RE.split(text))


#: A whole run of markers (never part of one) that is not inside a word: not between two letters or digits, or
#: holding a backtick (which may open code even inside a word). Possessive, so it is read in linear time. It
#: starts with its first marker, which lets the engine skip to the next marker (a pattern starting with a
#: lookbehind is tried at every position, four times slower): that marker is a run's first (no marker before
#: it), the rest of the run follows, and the run is kept when no letter or digit is before it, or none after it,
#: or it holds a backtick (the first marker, or one after it).
_FENCED_RUN_RE = re.compile(
    r"([*_~`](?<![*_~`][*_~`])"
    r"(?:(?<![^\W_][*_~`])[*_~`]*+|[*_~`]*+(?![^\W_])|(?<=`)[*_~`]*+|[*_~]*+`[*_~`]*+))"
)


def line_mrkdwn(line: Line) -> str:
    """The line as mrkdwn; a format that touches a letter of the next or previous span gets a boundary."""
    return join_mrkdwn(spans_mrkdwn(line))


def spans_mrkdwn(line: Line) -> list[str]:
    """Each span as mrkdwn (`Span.mrkdwn`). The plain spans, most of them, are protected in one pass over them all,
    joined by NUL: no ADF text holds one (the parser reads it as U+FFFD), and like the ends of a string it is
    neither a letter, a digit nor a marker, so each span reads as it would alone."""
    out: list[str] = []
    at: list[int] = []
    plain: list[str] = []
    for span in line:
        if span.verbatim or span.marks or span.href is not None:
            out.append(span.mrkdwn())
        else:
            at.append(len(out))
            plain.append(span.text)
            out.append("")
    if at and at[0] == 0 and line[0].text.startswith(">"):
        plain[0] = WORD_JOINER + plain[0]  # a typed `>` that starts a line is text: Slack would quote the line
    if len(plain) == 1:
        out[at[0]] = protect(plain[0])
    elif plain:
        joined = "\x00".join(plain)
        written = protect(joined).split("\x00") if joined.count("\x00") == len(plain) - 1 else list(map(protect, plain))
        for place, text in zip(at, written, strict=True):
            out[place] = text
    return out


def join_mrkdwn(parts: list[str]) -> str:
    """Spans already written as mrkdwn, joined into a line (see `line_mrkdwn`)."""
    for i in range(1, len(parts)):
        before, after = parts[i - 1], parts[i]
        if before[-1:].isalnum() and after[:1] in _FORMAT_MARKS or before[-1:] in _FORMAT_MARKS and after[:1].isalnum():
            parts[i] = ZERO_WIDTH_SPACE + after
    return "".join(parts)


def line_text(line: Line) -> str:
    return "".join(span.text for span in line)


def adf_lines(doc: dict[str, Any]) -> list[tuple[Line, bool]]:
    """The document's lines, each with whether it is inside a code block; blocks apart by a blank line."""
    out: list[tuple[Line, bool]] = []
    for i, block in enumerate(doc.get("content", [])):
        if i:
            out.append(([], False))
        out.extend(_block(block, ""))
    return out


def _block(node: dict[str, Any], indent: str) -> list[tuple[Line, bool]]:
    kind = node["type"]
    if kind in ("paragraph", "heading"):
        strong = frozenset({"strong"}) if kind == "heading" else frozenset()
        return [(line, False) for line in _inline(node.get("content", []), strong)]
    if kind == "codeBlock":
        text = "".join(child.get("text", "") for child in node.get("content", []))
        fence = ([FENCE], True)
        if "```" in text:  # Slack ends a code block at any three backticks: a word joiner keeps them in it
            text = _FENCE_IN_CODE_RE.sub("``" + WORD_JOINER, text)
        return [fence, *(([Span(t, verbatim=True)], True) for t in text.split("\n")), fence]
    if kind in ("bulletList", "orderedList"):
        start = int(node.get("attrs", {}).get("order", 1))
        lines: list[tuple[Line, bool]] = []
        for n, item in enumerate(node.get("content", []), start):
            bullet = "• " if kind == "bulletList" else f"{n}. "
            lines.extend(_item(item, indent, bullet))
        return lines
    if kind == "blockquote":
        quoted: list[tuple[Line, bool]] = []
        for child in node.get("content", []):
            quoted.extend(_block(child, ""))
        return [([Span("> ", verbatim=True), *line], code) for line, code in quoted]
    return [([Span("---", verbatim=True)], False)]  # a rule


def _item(item: dict[str, Any], indent: str, bullet: str) -> list[tuple[Line, bool]]:
    """A list item: its first line after the bullet, the rest indented under it (a code block's lines but its
    opening fence as they are: Slack would show the indentation in the code)."""
    lines: list[tuple[Line, bool]] = []
    margin = Span(indent + "    ", verbatim=True)
    for child in item.get("content", []):
        if child["type"] in ("bulletList", "orderedList"):
            lines.extend(_block(child, indent + "    "))
            continue
        inside = False  # after a code block's opening fence
        for line, code in _block(child, indent):
            lines.append((line if inside else [margin, *line], code))
            if code and line and line[-1] is FENCE:
                inside = not inside
    if lines and not item["content"][0]["type"].endswith("List"):
        first, code = lines[0]
        lines[0] = ([Span(indent + bullet, verbatim=True), *first[1:]], code)
    else:
        lines.insert(0, ([Span(indent + bullet, verbatim=True)], False))
    return lines


def _inline(nodes: list[dict[str, Any]], extra: frozenset[str]) -> list[Line]:
    line: Line = []
    lines: list[Line] = [line]
    for node in nodes:
        if node["type"] == "hardBreak":
            line = []
            lines.append(line)
            continue
        marks = node.get("marks")
        if not marks:  # plain text, the most frequent
            line.append(Span(node.get("text", ""), extra))
            continue
        href = None
        kinds: list[str] = []
        for mark in marks:
            if mark["type"] == "link":
                href = str(mark["attrs"]["href"])
            else:
                kinds.append(mark["type"])
        key = (extra, *kinds)
        names = _MARK_SETS.get(key)
        if names is None:
            names = _MARK_SETS[key] = extra.union(kinds)
        line.append(Span(node.get("text", ""), names, href))
    return lines


#: The set of marks for each combination met: a few, made once instead of once a text node.
_MARK_SETS: dict[tuple[Any, ...], frozenset[str]] = {}
