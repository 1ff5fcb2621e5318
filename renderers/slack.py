"""The draft as Slack Block Kit messages: one when it fits, split only where Slack's limits force it.

Nothing the person wrote can ping or link on its own: `&`, `<` and `>` in their text are escaped, so
`<!channel>`, `<!here>`, `<@U123>` and `<https://x|y>` show as typed. The only `<...>` sequences in the
output are links we build from Markdown links to http(s)/mailto URLs, with their parts escaped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from postmortem.model import Lang, PostMortem
from renderers.markdown import section_bodies, title
from renderers.mrkdwn import escape_mrkdwn, mrkdwn_line

#: Slack's limits (docs/platform-notes.md): blocks a message, characters a section text, a header, a message's blocks.
MAX_BLOCKS = 50
SECTION_TEXT_LIMIT = 3000
HEADER_LIMIT = 150
MESSAGE_CHARS_LIMIT = 12000

Block = dict[str, Any]

_FENCE_RE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
@dataclass
class _Piece:
    """Part of a section: its Markdown (for the plain fallback) and its mrkdwn (for the block)."""

    md: list[str] = field(default_factory=list)
    slack: list[str] = field(default_factory=list)
    size: int = 0

    def add(self, md: str, slack: str) -> None:
        self.md.append(md)
        self.slack.append(slack)
        self.size += len(slack) + 1


def _line_parts(line: str, in_fence: bool, limit: int) -> list[tuple[str, str]]:
    """A line as (Markdown, mrkdwn) parts no longer than `limit`, cut at spaces, else anywhere.

    Each part is converted on its own, and takes words while it still fits. Converting the growing part for
    every word re-read it once per word, so the converter is asked only when `_bound` says a word might not
    fit; when that is so for many words running (text shortened a lot by `**`), the words that still fit are
    counted by doubling then halving instead.
    """
    convert = escape_mrkdwn if in_fence else mrkdwn_line
    slack = convert(line)
    if len(slack) <= limit:
        return [(line, slack)]
    parts: list[tuple[str, str]] = []
    current, current_bound, checks = "", 0, 0
    words = re.split(r"(?<= )", line)
    i = 0
    while i < len(words):
        word = words[i]
        while _bound(word) > limit and len(convert(word)) > limit:  # one word too long for a block: cut it
            cut = _longest_prefix(word, convert, limit)
            if current:
                parts.append((current, convert(current)))
                current, current_bound, checks = "", 0, 0
            parts.append((word[:cut], convert(word[:cut])))
            word = words[i] = word[cut:]
        bound = _bound(word)
        if current and current_bound + bound > limit:
            if checks >= _CHECKS:
                taken, full = _fitting(current, words, i, convert, limit)
                current += "".join(words[i:i + taken])
                current_bound += sum(map(_bound, words[i:i + taken]))
                i += taken
                if full:
                    parts.append((current, convert(current)))
                    current, current_bound, checks = "", 0, 0
                continue
            if len(convert(current + word)) > limit:
                parts.append((current, convert(current)))
                current, current_bound, checks = "", 0, 0
            else:
                checks += 1
        current += word
        current_bound += bound
        i += 1
    if current:
        parts.append((current, convert(current)))
    return parts


#: Words in a row that may be checked one by one (with one conversion each) before `_fitting` counts them.
_CHECKS = 8


def _fitting(current: str, words: list[str], start: int, convert: Any, limit: int) -> tuple[int, bool]:
    """How many of words[start:] still fit after `current`, and whether the next one does not.

    Counted up to the first word that is too long by itself (the caller cuts it). Doubling then halving:
    the same count as word by word wherever adding words never shortens the converted text.
    """
    # Converting drops at most half the characters (only `**`, `~~` and a link's `[`, `](`, `)` go), so no
    # more than 2 * limit of Markdown can fit: looking further would read the rest of the line for each part.
    end, size = start, len(current)
    while end < len(words) and size <= 2 * limit and (_bound(words[end]) <= limit
                                                       or len(convert(words[end])) <= limit):
        size += len(words[end])
        end += 1

    def fits(n: int) -> bool:
        return len(convert(current + "".join(words[start:start + n]))) <= limit

    good, step = 0, 1
    while good + step <= end - start and fits(good + step):
        good += step
        step *= 2
    bad = min(good + step, end - start + 1)  # fits(bad) is False, or bad is past the words counted
    while bad - good > 1:
        mid = (good + bad) // 2
        if fits(mid):
            good = mid
        else:
            bad = mid
    return good, start + good < end


def _bound(text: str) -> int:
    """An upper bound on the length of `text` as mrkdwn (and escaped), adding up over concatenation.

    Escaping gives len(escape_mrkdwn(text)); translating only shortens that (`**`, `~~`, `[`, `](`, `)`,
    `<url>` give fewer characters), except that a link's URL writes each `|` as `%7C`: two more each.
    """
    return (len(text) + 4 * text.count("&") + 3 * (text.count("<") + text.count(">"))
            + 2 * text.count("|"))


def _longest_prefix(text: str, convert: Any, limit: int) -> int:
    """How many characters of `text` fit in `limit` once converted (binary search; at least one)."""
    low, high = 1, min(len(text), limit)
    while low < high:
        mid = (low + high + 1) // 2
        if len(convert(text[:mid])) <= limit:
            low = mid
        else:
            high = mid - 1
    return low


def _split_body(body: str, limit: int = SECTION_TEXT_LIMIT) -> list[_Piece]:
    """A section body cut at line (else space) boundaries into pieces whose mrkdwn fits one section block.

    A cut inside a code fence closes the fence at the end of one piece and reopens it in the next.
    """
    pieces = [_Piece()]
    fence: str | None = None
    reserve = 8  # room for closing and reopening a fence
    for line in body.split("\n"):
        marker = _FENCE_RE.match(line)
        for md, slack in _line_parts(line, fence is not None and not marker, limit - reserve):
            if pieces[-1].size + len(slack) + 1 > limit - reserve and pieces[-1].md:
                if fence:
                    pieces[-1].slack.append(fence[:3])
                pieces.append(_Piece())
                if fence:
                    pieces[-1].slack.append(fence[:3])
            pieces[-1].add(md, slack)
        if marker:
            fence = None if fence and marker.group(1)[0] == fence[0] else (fence or marker.group(1))
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


def _groups(pm: PostMortem, lang: Lang) -> list[tuple[list[Block], str]]:
    """Blocks that must travel together (a heading with its first piece), each with its Markdown."""
    doc_title = title(pm, lang)
    groups: list[tuple[list[Block], str]] = [([_header(doc_title)], f"# {doc_title}")]
    for _key, heading, body in section_bodies(pm, lang):
        pieces = [p for p in _split_body(body) if "".join(p.slack).strip()]
        first, rest = pieces[0], pieces[1:]
        groups.append(([_header(heading), _section("\n".join(first.slack))],
                       f"## {heading}\n\n" + "\n".join(first.md)))
        groups.extend(([_section("\n".join(p.slack))], "\n".join(p.md)) for p in rest)
    return groups


def render_slack(pm: PostMortem, lang: Lang | None = None) -> list[dict[str, Any]]:
    """The draft as Slack messages, each {"text": plain fallback, "blocks": [...]}, never truncated."""
    lang = lang or pm.lang
    messages: list[tuple[list[Block], list[str]]] = [([], [])]
    for blocks, md in _groups(pm, lang):
        current_blocks, current_md = messages[-1]
        chars = sum(map(_block_chars, current_blocks)) + sum(map(_block_chars, blocks))
        if current_blocks and (len(current_blocks) + len(blocks) > MAX_BLOCKS or chars > MESSAGE_CHARS_LIMIT):
            messages.append(([], []))
            current_blocks, current_md = messages[-1]
        current_blocks.extend(blocks)
        current_md.append(md)
    return [{"text": escape_mrkdwn("\n\n".join(md)), "blocks": blocks} for blocks, md in messages]
