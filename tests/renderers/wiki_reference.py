"""A small reader of Jira wiki markup, written from Atlassian's documented notation (docs/platform-notes.md lists
the sources), that errs towards reading MORE as markup than Jira does: text effects inside words, emoticons,
macros, images, links, mentions, dashes. The tests hold renderers/wiki.py to it: what this reader shows must be
exactly the text the ADF shows, so any character the renderer leaves open to a reading is caught.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

#: Jira's escaping set (BackslashEscapeRendererComponent): a backslash before one of these is consumed.
ESCAPABLE = frozenset("-#*_+?^~|%{}[]()!@")
_PROTECT = 0x100000  # text already read (never markup again) stands as plane-16 placeholders until the end

_LITERAL_RE = re.compile(r"\{(noformat|code)(?::[^}]*)?\}(.*?)\{\1\}", re.DOTALL)
_HEADING_RE = re.compile(r"^\s*h([1-6])\.\s*")
_QUOTE_LINE_RE = re.compile(r"^\s*bq\.\s*")
_LIST_RE = re.compile(r"^\s*([*#-]+)\s+")
_RULE_RE = re.compile(r"^\s*-{4,}\s*$")
_TABLE_RE = re.compile(r"^\s*\|")
_ENTITY_RE = re.compile(r"&(?:#[0-9]{1,7};|#[xX][0-9a-fA-F]{1,6};|[A-Za-z][A-Za-z0-9]{1,31};)")
_MONO_RE = re.compile(r"\{\{(.+?)\}\}", re.DOTALL)
_LINK_RE = re.compile(r"\[([^\[\]]*)\]")
_MACRO_RE = re.compile(r"\{[^{}\s]*\}")
_IMAGE_RE = re.compile(r"!([^!\s][^!\n]*?)!")
_EMOTICON_RE = re.compile(r":\)|:\(|:P|:D|:p|:d|;\)|\((?:y|n|i|/|x|!|\+|-|\?|on|off|\*|\*r|\*g|\*b|\*y|flag|flagoff)\)")
#: Text effects: strong, emphasis, deleted, inserted, superscript, subscript, citation.
_EFFECT_RES = [re.compile(m + r"(?=\S)(.+?)(?<=\S)" + m) for m in (r"\*", "_", "-", r"\+", r"\^", "~", r"\?\?")]


@dataclass(frozen=True)
class Block:
    """A block as the reader sees it: a heading (with its level), a list item, a literal region, a line of text."""

    kind: str
    text: str
    level: int = 0


class _Reader:
    """One reading of a line: `table` holds the text behind each placeholder (input plane-16 characters too)."""

    def __init__(self, hrefs: list[str] | None = None) -> None:
        self.table: list[tuple[str, bool]] = []  # (text, whether it holds placeholders of its own)
        self.hrefs = hrefs if hrefs is not None else []  # the targets of the links read, in order

    def protect(self, text: str, *, nested: bool = False) -> str:
        self.table.append((text, nested))
        return chr(_PROTECT + len(self.table) - 1)

    def unprotect(self, text: str) -> str:
        out: list[str] = []
        for c in text:
            if ord(c) < _PROTECT:
                out.append(c)
                continue
            held, nested = self.table[ord(c) - _PROTECT]
            out.append(self.unprotect(held) if nested else held)
        return "".join(out)

    def line(self, text: str) -> str:
        out: list[str] = []
        i = 0
        while i < len(text):  # escapes and entities first: what they give is text, never markup again
            if text.startswith("\\\\", i):
                out.append("\n")
                i += 2
            elif text[i] == "\\" and text[i + 1 : i + 2] and text[i + 1] in ESCAPABLE:
                out.append(self.protect(text[i + 1]))
                i += 2
            elif text[i] == "&" and (m := _ENTITY_RE.match(text, i)):
                out.append(self.protect(html.unescape(m.group(0))))
                i = m.end()
            else:
                out.append(self.protect(text[i]) if ord(text[i]) >= _PROTECT else text[i])
                i += 1
        return self.unprotect(self.markup("".join(out)))

    def markup(self, text: str) -> str:
        text = _MONO_RE.sub(lambda m: self.protect(self.markup(m.group(1)), nested=True), text)
        text = _LINK_RE.sub(self.link, text)
        text = _MACRO_RE.sub("", text)
        text = _IMAGE_RE.sub("", text)
        text = _EMOTICON_RE.sub("", text)
        for _ in range(8):  # nested effects: innermost last
            before = text
            for effect in _EFFECT_RES:
                text = effect.sub(lambda m: m.group(1), text)
            if text == before:
                break
        return text.replace("---", "\u2014").replace("--", "\u2013")

    def link(self, match: re.Match[str]) -> str:
        inside = match.group(1)
        if inside.startswith(("~", "^", "#")):
            return ""  # a mention, an attachment, an anchor: no typed text shows
        label, bar, target = inside.partition("|")
        self.hrefs.append(self.unprotect(target if bar else label))
        return self.protect(self.markup(label) if bar else target, nested=True)


def read_inline(text: str, hrefs: list[str] | None = None) -> str:
    """The text a line of wiki markup shows (markup that shows no typed character removed); the targets of the
    links it holds are added to `hrefs`."""
    return _Reader(hrefs).line(text)


def read(markup: str, hrefs: list[str] | None = None) -> list[Block]:
    """The blocks of a wiki-markup document; the targets of its links are added to `hrefs`."""
    blocks: list[Block] = []
    pos = 0
    for literal in _LITERAL_RE.finditer(markup):
        blocks += _read_lines(markup[pos : literal.start()], hrefs)
        blocks.append(Block("literal", literal.group(2)))
        pos = literal.end()
    return blocks + _read_lines(markup[pos:], hrefs)


def _read_lines(part: str, hrefs: list[str] | None) -> list[Block]:
    blocks: list[Block] = []
    for line in part.split("\n"):
        if not line.strip():
            continue
        if m := _HEADING_RE.match(line):
            blocks.append(Block("heading", read_inline(line[m.end() :], hrefs), int(m.group(1))))
        elif m := _QUOTE_LINE_RE.match(line):
            blocks.append(Block("quote", read_inline(line[m.end() :], hrefs)))
        elif _RULE_RE.match(line):
            blocks.append(Block("rule", ""))
        elif m := _LIST_RE.match(line):
            blocks.append(Block("item", read_inline(line[m.end() :], hrefs), len(m.group(1))))
        elif _TABLE_RE.match(line):
            blocks.append(Block("table", read_inline(line.replace("|", " "), hrefs)))
        else:
            blocks.append(Block("text", read_inline(line, hrefs)))
    return blocks


def visible(markup: str) -> str:
    """Everything a reader of the rendered comment sees, in order."""
    return "".join(block.text for block in read(markup))
