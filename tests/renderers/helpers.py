"""Golden files, a full post-mortem to put hostile values into, and how each format reads back (Markdown through
a CommonMark reader, ADF as Jira shows it, the Slack preview as Slack shows it): shared by the renderers' tests."""

from __future__ import annotations

import html
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyromark

from postmortem.model import PostMortem
from renderers.adf_mrkdwn import WORD_JOINER, ZERO_WIDTH_SPACE
from renderers.markdown import render_markdown, section_bodies
from tests.renderers.wiki_reference import read as wiki_read

GOLDEN = Path(__file__).resolve().parent.parent / "golden"
STEMS = ["cache-eviction.en", "tada-hang.ja", "refused-missing.en"]


def blocks(md: str) -> list[tuple[str, str]]:
    """(kind, text) of each top-level block, read as renderers/adf.py reads it: CR line ends normalised first."""
    found: list[tuple[str, str]] = []
    depth = 0
    event: Any
    for event in pyromark.events(re.sub(r"\r\n?", "\n", md)):
        if isinstance(event, str):  # a rule or a break
            if depth == 0:
                found.append((event, ""))
            continue
        ((kind, value),) = event.items()
        if kind == "Start":
            if depth == 0:
                found.append((value if isinstance(value, str) else next(iter(value)), ""))
            depth += 1
        elif kind == "End":
            depth -= 1
        elif kind in ("Text", "Code") and depth:
            found[-1] = (found[-1][0], found[-1][1] + value)
    return found


def check_golden(path: Path, actual: str) -> None:
    """Compare with a golden file; UPDATE_GOLDEN=1 rewrites it instead."""
    if os.environ.get("UPDATE_GOLDEN") == "1" or not path.exists():
        path.write_text(actual, encoding="utf-8")
    assert actual == path.read_text(encoding="utf-8")


#: A post-mortem with all nine sections, whose fields inline values are put into one at a time.
FULL: dict[str, Any] = {
    "ticket": "A-1",
    "summary": "s",
    "owner": "Alex",
    "symptom": "sy",
    "root_cause": "`rc`",
    "why_symptom": "ws",
    "fix_ref": "https://x.example/pull/3",
    "fix": "f",
    "how_found": "hf",
    "why_missed": "wm",
    "validation": "v",
    "validation_scope": "x86",
    "action_items": [{"what": "Add a test", "owner": "Bo", "tracking": "A-2"}],
}


#: Fields whose value goes inside one of our lines ("item_*": the first action item's), and values that would
#: open a block if they started a line of their own.
INLINE_FIELDS = ["owner", "fix_ref", "validation_scope", "item_owner", "item_tracking", "item_what"]


BLOCK_OPENERS = ["\n```", "\n~~~", "\n<!--", "\n<pre>", "\n# heading", "\n- item", "\n> quote", "\r```", "\r\n<!--"]


def with_field(field: str, value: str, lang: str = "en") -> PostMortem:
    data = {**FULL, "lang": lang, "action_items": [dict(FULL["action_items"][0])]}
    if field.startswith("item_"):
        data["action_items"][0][field[5:]] = value
    else:
        data[field] = value
    return PostMortem.model_validate(data)


def headings(md: str) -> list[str]:
    return [text for kind, text in blocks(md) if kind == "Heading"]


def section_headings(pm: PostMortem) -> list[str]:
    """The headings as the Slack preview shows them: the title, then each section with its body read alone."""
    found = [title_of(pm)]
    for _key, heading, body in section_bodies(pm):
        found += [heading, *headings(body)]
    return found


def title_of(pm: PostMortem) -> str:
    return render_markdown(pm).split("\n", 1)[0][2:]


#: A reader like GitHub's: CommonMark with tables, task lists, footnotes, strikethrough and alerts (`> [!NOTE]`).
GFM = (
    pyromark.Options.ENABLE_TABLES
    | pyromark.Options.ENABLE_STRIKETHROUGH
    | pyromark.Options.ENABLE_TASKLISTS
    | pyromark.Options.ENABLE_FOOTNOTES
    | pyromark.Options.ENABLE_GFM
)
#: Events of a reader that no person's text may cause in our Markdown (it is shown, never interpreted).
INTERPRETED = frozenset(
    {"Html", "InlineHtml", "HtmlBlock", "Image", "Table", "TaskListMarker", "FootnoteDefinition", "FootnoteReference"}
)


@dataclass
class Read:
    """A document as a reader shows it: its lines of visible text (each block's lines, list bullets and quote
    marks left out), its link targets, and what it interpreted that a person's text must never make."""

    lines: list[str] = field(default_factory=list)
    hrefs: list[str] = field(default_factory=list)
    interpreted: list[str] = field(default_factory=list)


def read_markdown(md: str, options: pyromark.Options = GFM) -> Read:
    """The Markdown as a CommonMark reader (pyromark, with GitHub's extensions by default) shows it."""
    read = Read()
    current: list[str] = []

    def flush() -> None:
        if current:
            read.lines.extend("".join(current).split("\n"))
            current.clear()

    event: Any
    for event in pyromark.events(md, options=options):
        if isinstance(event, str):
            if event in ("SoftBreak", "HardBreak"):
                current.append("\n")
            else:
                read.interpreted.append(event)  # a rule
            continue
        ((kind, value),) = event.items()
        name = value if isinstance(value, str) or value is None else next(iter(value))
        if kind in ("Text", "Code"):
            current.append(value)
        elif kind in ("Html", "InlineHtml"):
            read.interpreted.append(kind)
            current.append(value)
        elif kind in ("Start", "End"):
            if kind == "Start" and name in INTERPRETED:
                read.interpreted.append(name)
            if kind == "Start" and name == "BlockQuote" and value["BlockQuote"] is not None:
                read.interpreted.append("Alert")
            if kind == "Start" and name == "Link":
                read.hrefs.append(value["Link"]["dest_url"])
            if name in ("Paragraph", "Heading", "Item", "CodeBlock", "TableCell"):
                flush()
        else:
            read.interpreted.append(kind)  # a task box, a footnote reference
    flush()
    return read


def read_adf(doc: dict[str, Any]) -> Read:
    """The ADF document as Jira shows it."""
    read = Read()

    def walk(node: dict[str, Any]) -> None:
        if node.get("type") in ("paragraph", "heading", "codeBlock"):
            text = "".join("\n" if n["type"] == "hardBreak" else n.get("text", "") for n in node.get("content", []))
            read.lines.extend(text.split("\n"))
            for child in node.get("content", []):
                read.hrefs += [m["attrs"]["href"] for m in child.get("marks", []) if m["type"] == "link"]
            return
        for child in node.get("content", []):
            walk(child)

    walk(doc)
    return read


def read_wiki(markup: str) -> Read:
    """Wiki markup as Jira shows it, read by the reference reader of the notation (tests/renderers/wiki_reference.py):
    each block's lines (list markers and heading prefixes left out), and its link targets."""
    read = Read()
    for block in wiki_read(markup, read.hrefs):
        read.lines.extend(block.text.split("\n"))
    return read


#: A line's quote mark (one: a quote in a quote is text), indent and bullet, as renderers/adf_mrkdwn.py writes them.
_STRUCTURE_RE = re.compile(r"^(?:&gt; )?[ \t]*(?:• |\d+\. )?")


def read_slack(messages: list[dict[str, Any]]) -> Read:
    """The Slack preview as Slack shows it (renderers' mrkdwn read by `slack_reads`, bullets left out)."""
    read = Read()
    for message in messages:
        for block in message["blocks"]:
            text = block["text"]["text"]
            if block["type"] == "section":
                read.hrefs += [m.group(1) for m in _SLACK_LINK_RE.finditer(text)]
                text = slack_reads(text, structure=False)
            read.lines += text.split("\n")
    return read


# Slack's reading of our mrkdwn, written independently of the renderer: links show their label, a code span its
# content, a run of `*_~` between two letters or fenced by word joiners is text, any other run is a format marker.
_SLACK_LINK_RE = re.compile(r"<([^<>|]*)(?:\|([^<>]*))?>")
_TOKEN_RE = re.compile(f"{WORD_JOINER}[*_~`]+{WORD_JOINER}|`[^`\n]*`|[*_~]+")
_FENCE_LINE_RE = re.compile(r"(?:&gt; )*[ \t]*(?:• |\d+\. )?[ \t]*```")


def slack_reads(mrkdwn: str, *, structure: bool = True) -> str:
    """The text Slack shows for our mrkdwn (entities decoded, invisible characters gone); without `structure`,
    quote marks, indents and list bullets are left out too (a code line loses its fence's prefix)."""
    out = []
    fence: str | None = None  # the prefix of the open code block's fence
    for line in mrkdwn.split("\n"):
        if _FENCE_LINE_RE.fullmatch(line):
            fence = None if fence is not None else line[: line.index("```")]
            continue
        if fence is not None:
            out.append(line if structure or not line.startswith(fence) else line[len(fence) :])
            continue
        if not structure:
            line = _STRUCTURE_RE.sub("", line, count=1)
        line = _SLACK_LINK_RE.sub(lambda m: m.group(2) if m.group(2) is not None else m.group(1), line)

        def token(match: re.Match[str], line: str = line) -> str:
            text = match.group(0)
            if text.startswith(WORD_JOINER):
                return text.strip(WORD_JOINER)
            if text.startswith("`"):
                return text[1:-1]
            start, end = match.span()
            inner = start > 0 and line[start - 1].isalnum() and end < len(line) and line[end].isalnum()
            return text if inner else ""

        out.append(_TOKEN_RE.sub(token, line))
    return html.unescape("\n".join(out)).replace(WORD_JOINER, "").replace(ZERO_WIDTH_SPACE, "")
