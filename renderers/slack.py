"""The draft as Slack Block Kit messages: one when it fits, split only where Slack's limits force it.

Each section is read into ADF exactly as the Jira comment is, and written as mrkdwn from that ADF
(renderers/adf_mrkdwn.py), so the preview shows the text and structure Jira will show. Nothing the person
wrote can ping or format on its own: `<!channel>`, `<!subteam^…|@team>` and `<@U123>` show as typed; a link
they wrote (`[text](url)`, Slack's `<url|text>`) is the ADF's link, so the only `<...>` sequences in the output
are links whose targets are http(s) or mailto. Every loop here ends: each turn places text or starts a part.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from postmortem.model import Lang, PostMortem
from renderers.adf import markdown_to_adf, render_adf
from renderers.adf_mrkdwn import FENCE, Line, Span, adf_lines, join_mrkdwn, line_mrkdwn, line_text
from renderers.budget import check, gc_paused
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


#: Room a link's target may take in a block: a longer one (a 3,000-character URL) could never share a block
#: with even one character of its text, so the preview shows that text unlinked (Jira keeps the link).
_LINK_ROOM = SECTION_TEXT_LIMIT // 2


def _line_parts(line: Line, limit: int) -> list[tuple[Line, str]]:
    """A line cut between spans (else inside one, at a space if possible) into parts whose mrkdwn fits.

    Every turn of the loop adds a span or part of one to a part, or starts a new part after a full one, so it
    ends; a span too long to write whole is measured only once its text could fit.
    """
    line = [span if span.href is None else _unlinked(span) for span in line]
    if sum(len(span.text) for span in line) <= limit:  # each character writes at least one: else it cannot fit
        whole = line_mrkdwn(line)
        if len(whole) <= limit:
            return [(line, whole)]
    parts: list[Line] = [[]]
    written: list[list[str]] = [[]]  # each span of each part as mrkdwn, written once
    size = 0
    for span in line:
        while True:
            check()
            # Each character writes at least one: a span longer than the room left cannot fit whole.
            text = span.mrkdwn() if len(span.text) < limit - size else ""
            width = len(text) + 1 if text or not span.text else limit + 1  # a zero-width space may join it
            if size + width <= limit:
                parts[-1].append(span)
                written[-1].append(text)
                size += width
                break
            if parts[-1] and width <= limit:
                parts.append([])
                written.append([])
                size = 0
                continue
            cut, head_text = _longest_prefix(span, limit - size - 1)
            if cut == 0:
                if not parts[-1]:  # not even one character fits in an empty part: not reached (see _unlinked)
                    cut = 1
                else:  # not even one character fits after what the part holds: start a new part
                    parts.append([])
                    written.append([])
                    size = 0
                    continue
            head = span.cut(0, cut)
            parts[-1].append(head)
            written[-1].append(head.mrkdwn() if head_text is None else head_text)
            parts.append([])
            written.append([])
            size = 0
            span = span.cut(cut, len(span.text))
    return [(part, join_mrkdwn(text)) for part, text in zip(parts, written, strict=True) if part]


def _unlinked(span: Span) -> Span:
    """The span without its link when the target alone would take most of a block."""
    if span.href is None or len(escape_mrkdwn(span.href)) + span.href.count("|") * 2 <= _LINK_ROOM:
        return span
    return Span(span.text, span.marks, None, span.verbatim)


def _longest_prefix(span: Span, limit: int) -> tuple[int, str | None]:
    """How many characters of the span fit in `limit` once written (nearly the most), ending at a space when
    one is near; and that prefix as written, when it was written to measure it (else None).

    Guessed from how much its first characters grow when written, then shrunk a tenth at a time until it
    fits: one or two conversions of at most `limit` characters, where a binary search took a dozen.
    """
    most = min(len(span.text), limit)  # each character writes at least one
    if most <= 0:
        return 0, None
    sample = min(most, 256)
    growth = max(len(span.cut(0, sample).mrkdwn()), sample) / sample
    fits = min(most, int(limit / growth * 0.95))
    written = None
    while fits:
        written = span.cut(0, fits).mrkdwn()
        if len(written) <= limit:
            break
        fits = fits * 9 // 10
        written = None
    space = span.text.rfind(" ", 0, fits)
    return (space + 1, None) if space > fits // 2 else (fits, written)


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
    """A section of the preview. `verbatim`: Slack links no bare URL or channel name and parses no mention in it
    by itself; what links is only what the ADF links, written `<url|label>`."""
    return {"type": "section", "text": {"type": "mrkdwn", "text": text, "verbatim": True}}


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


@gc_paused
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
