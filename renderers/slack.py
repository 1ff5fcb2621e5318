"""The draft as Slack Block Kit messages: one when it fits, split only where Slack's limits force it.

Each section is read into ADF exactly as the Jira comment is, and written as mrkdwn from that ADF
(renderers/adf_mrkdwn.py), so the preview shows the text and structure Jira will show. Nothing the person
wrote can ping, link or format on its own: `<!channel>`, `<@U123>` and `<https://x|y>` show as typed; the
only `<...>` sequences in the output are the ADF's links, whose targets are http(s) or mailto.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from postmortem.model import Lang, PostMortem
from renderers.adf import markdown_to_adf, render_adf
from renderers.adf_mrkdwn import FENCE, Line, Span, adf_lines, line_mrkdwn, line_text
from renderers.mrkdwn import escape_mrkdwn

#: Slack's limits (docs/platform-notes.md): blocks a message, characters a section text, a header, a message's blocks.
MAX_BLOCKS = 50
SECTION_TEXT_LIMIT = 3000
HEADER_LIMIT = 150
MESSAGE_CHARS_LIMIT = 12000

Block = dict[str, Any]


@dataclass
class _Piece:
    """Part of a section: its plain text (for the notification fallback) and its mrkdwn (for the block)."""

    md: list[str] = field(default_factory=list)
    slack: list[str] = field(default_factory=list)
    size: int = 0

    def add(self, md: str, slack: str) -> None:
        self.md.append(md)
        self.slack.append(slack)
        self.size += len(slack) + 1


def _line_parts(line: Line, limit: int) -> list[tuple[Line, str]]:
    """A line cut between spans (else inside one, at a space if possible) into parts whose mrkdwn fits."""
    whole = line_mrkdwn(line)
    if len(whole) <= limit:
        return [(line, whole)]
    parts: list[Line] = [[]]
    size = 0
    for span in line:
        while True:
            width = len(span.mrkdwn()) + 1  # a zero-width space may join it to the span before
            if size + width <= limit:
                parts[-1].append(span)
                size += width
                break
            if parts[-1] and width <= limit:
                parts.append([])
                size = 0
                continue
            cut = _longest_prefix(span, limit - size - 1)
            if cut == 0:  # not even one character fits after what the part holds: start a new part
                parts.append([])
                size = 0
                continue
            parts[-1].append(span.cut(0, cut))
            parts.append([])
            size = 0
            span = span.cut(cut, len(span.text))
    return [(part, line_mrkdwn(part)) for part in parts if part]


def _longest_prefix(span: Span, limit: int) -> int:
    """How many characters of the span fit in `limit` once written, ending at a space when one is near."""
    low, high = 0, min(len(span.text), limit)  # each character writes at least one
    while low < high:  # the largest n whose mrkdwn fits (binary search)
        mid = (low + high + 1) // 2
        if len(span.cut(0, mid).mrkdwn()) <= limit:
            low = mid
        else:
            high = mid - 1
    space = span.text.rfind(" ", 0, low)
    return space + 1 if space > low // 2 else low


def _split_body(body: str, limit: int = SECTION_TEXT_LIMIT) -> list[_Piece]:
    """A section body in Markdown, read into ADF as Jira will get it, cut into pieces that fit a block."""
    return _split_blocks(markdown_to_adf(body)["content"], limit)


def _split_blocks(blocks: list[dict[str, Any]], limit: int = SECTION_TEXT_LIMIT) -> list[_Piece]:
    """A section's ADF blocks cut at lines (else spans) into pieces whose mrkdwn fits one section block.

    A cut inside a code block closes the fence at the end of one piece and reopens it in the next.
    """
    pieces = [_Piece()]
    inside = False  # between a code block's fences
    reserve = 8  # room for closing and reopening a fence
    for line, code in adf_lines({"content": blocks}):
        fence = code and line == [FENCE]
        for part, slack_text in _line_parts(line, limit - reserve):
            if pieces[-1].size + len(slack_text) + 1 > limit - reserve and pieces[-1].slack:
                if inside:
                    pieces[-1].slack.append("```")
                pieces.append(_Piece())
                if inside:
                    pieces[-1].slack.append("```")
            pieces[-1].add("" if fence else line_text(part), slack_text)
        if fence:
            inside = not inside
    return pieces


def _header(text: str) -> Block:
    """A header block, or a bold section when the text is longer than a header may be."""
    if len(text) <= HEADER_LIMIT:
        return {"type": "header", "text": {"type": "plain_text", "text": text}}
    return _section(f"*{escape_mrkdwn(text)}*")


def _section(text: str) -> Block:
    return {"type": "section", "text": {"type": "mrkdwn", "text": text}}


def _block_chars(block: Block) -> int:
    return len(block["text"]["text"])


def _sections(doc: dict[str, Any]) -> tuple[str, list[tuple[str, list[dict[str, Any]]]]]:
    """The document's title and its sections (level-2 heading, the blocks under it), as Jira will show them."""
    doc_title = ""
    sections: list[tuple[str, list[dict[str, Any]]]] = []
    for node in doc.get("content", []):
        level = node.get("attrs", {}).get("level") if node["type"] == "heading" else None
        text = "".join(child.get("text", "") for child in node.get("content", [])) if level else ""
        if level == 1 and not doc_title and not sections:
            doc_title = text
        elif level == 2:
            sections.append((text, []))
        elif sections:
            sections[-1][1].append(node)
    return doc_title, sections


def _groups(doc: dict[str, Any]) -> list[tuple[list[Block], str]]:
    """Blocks that must travel together (a heading with its first piece), each with its plain text."""
    doc_title, sections = _sections(doc)
    groups: list[tuple[list[Block], str]] = [([_header(doc_title)], doc_title)]
    for heading, blocks in sections:
        pieces = [p for p in _split_blocks(blocks) if "".join(p.slack).strip()] or [_Piece(["…"], ["…"])]
        first, rest = pieces[0], pieces[1:]
        groups.append(([_header(heading), _section("\n".join(first.slack))], f"{heading}\n\n" + "\n".join(first.md)))
        groups.extend(([_section("\n".join(p.slack))], "\n".join(p.md)) for p in rest)
    return groups


def render_slack(
    pm: PostMortem, lang: Lang | None = None, *, adf: dict[str, Any] | None = None
) -> list[dict[str, Any]]:
    """The draft as Slack messages, each {"text": plain fallback, "blocks": [...]}, never truncated.

    Made from the ADF document Jira gets (`adf` when the caller has it already, else rendered here), so
    the preview shows exactly its text and structure.
    """
    doc = adf if adf is not None else render_adf(pm, lang or pm.lang)
    messages: list[tuple[list[Block], list[str]]] = [([], [])]
    for blocks, md in _groups(doc):
        current_blocks, current_md = messages[-1]
        chars = sum(map(_block_chars, current_blocks)) + sum(map(_block_chars, blocks))
        if current_blocks and (len(current_blocks) + len(blocks) > MAX_BLOCKS or chars > MESSAGE_CHARS_LIMIT):
            messages.append(([], []))
            current_blocks, current_md = messages[-1]
        current_blocks.extend(blocks)
        current_md.append(md)
    return [{"text": escape_mrkdwn("\n\n".join(md)), "blocks": blocks} for blocks, md in messages]
