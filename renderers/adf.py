"""Markdown to Atlassian Document Format, built as data from markdown-it tokens, valid against the ADF schema.

Choices (kept consistent so the output is predictable):
- a soft line break is a `hardBreak`: people type line breaks in Slack and expect to see them in Jira;
- inline code keeps only the `code` mark, plus `link` when it sits in a link (the schema allows no other
  mark with `code`); bold/italic/strike around it are dropped for that piece, its text never is;
- HTML (blocks and inline) becomes plain text; images become their alt text linked to the image URL;
- link reference definitions are not parsed (`[x]: y` stays text, so nothing the person wrote vanishes);
- blocks that ADF does not allow inside a list item or a quote are unwrapped or turned into paragraphs;
- NUL becomes U+FFFD, as CommonMark requires.
"""

from __future__ import annotations

import functools
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.token import Token

from postmortem.model import Lang, PostMortem
from renderers.markdown import render_markdown

Node = dict[str, Any]

#: Block node types each container may hold (the schema's rules for listItem and blockquote).
_ALLOWED = {
    "listItem": frozenset({"paragraph", "bulletList", "orderedList", "codeBlock"}),
    "blockquote": frozenset({"paragraph", "bulletList", "orderedList", "codeBlock"}),
}
_FIRST_IN_ITEM = frozenset({"paragraph", "codeBlock"})
_MARK_ORDER = ("em", "strong", "strike")
_OPEN_MARK = {"em_open": "em", "strong_open": "strong", "s_open": "strike"}
_CLOSE_MARK = {"em_close": "em", "strong_close": "strong", "s_close": "strike"}


@functools.cache
def _parser() -> MarkdownIt:
    """One CommonMark parser (plus ~~strike~~), reused: building one costs more than a conversion."""
    return MarkdownIt("commonmark").enable("strikethrough").disable("reference")


def markdown_to_adf(md: str) -> dict[str, Any]:
    """Convert Markdown to an ADF document; deterministic, and schema-valid for any input."""
    root: Node = {"version": 1, "type": "doc", "content": []}
    stack: list[Node] = [root]
    for token in _parser().parse(md):
        _block(token, stack)
    return root


def render_adf(pm: PostMortem, lang: Lang | None = None) -> dict[str, Any]:
    """The post-mortem as the ADF document posted to Jira: exactly the Markdown draft, converted."""
    return markdown_to_adf(render_markdown(pm, lang))


def _block(token: Token, stack: list[Node]) -> None:
    """Apply one block-level token to the stack of open containers."""
    kind = token.type
    if kind == "inline":
        stack[-1]["content"].extend(_inline(token.children or []))
    elif kind.endswith("_open"):
        stack.append(_open_node(token))
    elif kind.endswith("_close"):
        node = stack.pop()
        _append(stack[-1], _finish(node))
    elif kind in ("fence", "code_block"):
        _append(stack[-1], _code_block(token))
    elif kind == "hr":
        _append(stack[-1], {"type": "rule"})
    elif kind == "html_block":
        _append(stack[-1], {"type": "paragraph", "content": _plain_lines(token.content.rstrip("\n"))})


def _open_node(token: Token) -> Node:
    """The ADF node a container token opens."""
    kind = token.type
    if kind == "paragraph_open":
        return {"type": "paragraph", "content": []}
    if kind == "heading_open":
        return {"type": "heading", "attrs": {"level": int(token.tag[1])}, "content": []}
    if kind == "bullet_list_open":
        return {"type": "bulletList", "content": []}
    if kind == "ordered_list_open":
        start = int(token.attrGet("start") or 1)
        return {"type": "orderedList", "attrs": {"order": start}, "content": []} if start != 1 \
            else {"type": "orderedList", "content": []}
    if kind == "list_item_open":
        return {"type": "listItem", "content": []}
    if kind == "blockquote_open":
        return {"type": "blockquote", "content": []}
    raise ValueError(f"unexpected Markdown token {kind}")  # not reached with the rules enabled above


def _finish(node: Node) -> Node:
    """Give a closing container what the schema requires of it (a first paragraph, at least one child)."""
    kind = node["type"]
    content = node["content"]
    if kind == "listItem" and (not content or content[0]["type"] not in _FIRST_IN_ITEM):
        content.insert(0, {"type": "paragraph", "content": []})
    elif kind == "blockquote" and not content:
        content.append({"type": "paragraph", "content": []})
    return node


def _append(parent: Node, child: Node) -> None:
    """Add a block to its container, reshaping blocks the container may not hold (never dropping text)."""
    allowed = _ALLOWED.get(parent["type"])
    if allowed is None or child["type"] in allowed:
        parent["content"].append(child)
    elif child["type"] == "blockquote":
        for grandchild in child["content"]:
            _append(parent, grandchild)
    elif child["type"] == "heading":
        parent["content"].append({"type": "paragraph", "content": child["content"]})
    else:  # a rule: keep a visible separator
        parent["content"].append({"type": "paragraph", "content": [{"type": "text", "text": "---"}]})


def _code_block(token: Token) -> Node:
    """A fenced or indented code block, its text verbatim and unmarked."""
    node: Node = {"type": "codeBlock"}
    language = token.info.strip() if token.type == "fence" else ""
    if language:
        node["attrs"] = {"language": language}
    text = token.content[:-1] if token.content.endswith("\n") else token.content
    if text:
        node["content"] = [{"type": "text", "text": text}]
    return node


def _plain_lines(text: str) -> list[Node]:
    """Text shown as written, one hardBreak per line break."""
    nodes: list[Node] = []
    for i, line in enumerate(text.split("\n")):
        if i:
            nodes.append({"type": "hardBreak"})
        if line:
            nodes.append({"type": "text", "text": line})
    return nodes


def _inline(children: list[Token]) -> list[Node]:
    """Inline tokens to text nodes with marks (merged when adjacent and alike) and hard breaks."""
    out: list[Node] = []
    depth = dict.fromkeys(_MARK_ORDER, 0)
    links: list[dict[str, Any]] = []
    starts: list[int] = []
    for tok in children:
        kind = tok.type
        if kind in ("text", "html_inline", "text_special"):
            _text(out, tok.content, _marks(depth, links))
        elif kind == "code_inline":
            code: list[dict[str, Any]] = [links[-1], {"type": "code"}] if links else [{"type": "code"}]
            _text(out, tok.content, code)
        elif kind in ("softbreak", "hardbreak"):
            out.append({"type": "hardBreak"})
        elif kind in _OPEN_MARK:
            depth[_OPEN_MARK[kind]] += 1
        elif kind in _CLOSE_MARK:
            depth[_CLOSE_MARK[kind]] -= 1
        elif kind == "link_open":
            links.append(_link_mark(tok))
            starts.append(len(out))
        elif kind == "link_close":
            if starts.pop() == len(out):  # `[](url)`: no text to carry the link, so the URL is the text
                _text(out, str(links[-1]["attrs"]["href"]), _marks(depth, links))
            links.pop()
        elif kind == "image":
            _image(out, tok, depth, links)
    return out


def _marks(depth: dict[str, int], links: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The marks in force, each once, in a fixed order."""
    marks = [links[-1]] if links else []
    marks.extend({"type": name} for name in _MARK_ORDER if depth[name])
    return marks


def _link_mark(tok: Token) -> dict[str, Any]:
    attrs: dict[str, Any] = {"href": str(tok.attrGet("href") or "")}
    if title := tok.attrGet("title"):
        attrs["title"] = str(title)
    return {"type": "link", "attrs": attrs}


def _image(out: list[Node], tok: Token, depth: dict[str, int], links: list[dict[str, Any]]) -> None:
    """An image as its alt text (else its URL), linked to the image unless already inside a link."""
    src = str(tok.attrGet("src") or "")
    alt = "".join(c.content for c in (tok.children or []) if c.type not in ("softbreak", "hardbreak"))
    target = links if links else ([{"type": "link", "attrs": {"href": src}}] if src else [])
    _text(out, alt or src, _marks(depth, target))


def _same_marks(a: list[dict[str, Any]], b: list[dict[str, Any]]) -> bool:
    """Equal marks, where a link is the same only if it is the same link (two links keep both hrefs)."""
    return len(a) == len(b) and all(x is y if x.get("type") == "link" else x == y for x, y in zip(a, b))


def _text(out: list[Node], text: str, marks: list[dict[str, Any]]) -> None:
    """Append text, merging into the previous node when its marks are the same; never an empty node."""
    if not text:
        return
    if out and "text" in out[-1] and _same_marks(out[-1].get("marks", []), marks):
        out[-1]["text"] += text
        return
    node: Node = {"type": "text", "text": text}
    if marks:
        node["marks"] = marks
    out.append(node)
