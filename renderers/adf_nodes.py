"""The ADF schema's rules for assembling nodes, so the event walk in renderers/adf.py cannot break them.

What a list item or a quote may hold (anything else is reshaped, never dropped), what a closing container
or a code block must have, and text nodes merged when their marks are the same (never an empty one).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

Node = dict[str, Any]
Mark = dict[str, Any]

#: Block node types each container may hold (the schema's rules for listItem and blockquote).
_ALLOWED = {
    "listItem": frozenset({"paragraph", "bulletList", "orderedList", "codeBlock"}),
    "blockquote": frozenset({"paragraph", "bulletList", "orderedList", "codeBlock"}),
}
_FIRST_IN_ITEM = frozenset({"paragraph", "codeBlock"})


def finish(node: Node) -> Node:
    """Give a closing container what the schema requires of it (a first paragraph, at least one child)."""
    kind = node["type"]
    content = node["content"]
    if kind == "listItem" and (not content or content[0]["type"] not in _FIRST_IN_ITEM):
        content.insert(0, {"type": "paragraph", "content": []})
    elif kind == "blockquote" and not content:
        content.append({"type": "paragraph", "content": []})
    return node


def append_block(parent: Node, child: Node) -> None:
    """Add a block to its container, reshaping blocks the container may not hold (never dropping text)."""
    allowed = _ALLOWED.get(parent["type"])
    if allowed is None or child["type"] in allowed:
        parent["content"].append(child)
    elif child["type"] == "blockquote":
        for grandchild in child["content"]:
            append_block(parent, grandchild)
    elif child["type"] == "heading":
        parent["content"].append({"type": "paragraph", "content": child["content"]})
    else:  # a rule: keep a visible separator
        parent["content"].append({"type": "paragraph", "content": [{"type": "text", "text": "---"}]})


def code_block(text: str, language: str) -> Node:
    """A fenced or indented code block, its text verbatim and unmarked (never an empty text node)."""
    node: Node = {"type": "codeBlock"}
    if language:
        node["attrs"] = {"language": language}
    if text.endswith("\n"):
        text = text[:-1]
    if text:
        node["content"] = [{"type": "text", "text": text}]
    return node


def plain_lines(text: str) -> list[Node]:
    """Text shown as written, one hardBreak per line break."""
    nodes: list[Node] = []
    for i, line in enumerate(text.split("\n")):
        if i:
            nodes.append({"type": "hardBreak"})
        if line:
            nodes.append({"type": "text", "text": line})
    return nodes


def same_marks(a: Sequence[Mark], b: Sequence[Mark]) -> bool:
    """Equal marks, where a link is the same only if it is the same link (two links keep both hrefs)."""
    return len(a) == len(b) and all(x is y if x.get("type") == "link" else x == y for x, y in zip(a, b, strict=True))


def append_text(out: list[Node], text: str, marks: list[Mark]) -> None:
    """Append text, merging into the previous node when its marks are the same; never an empty node."""
    if not text:
        return
    if out and "text" in out[-1] and same_marks(out[-1].get("marks", []), marks):
        out[-1]["text"] += text
        return
    node: Node = {"type": "text", "text": text}
    if marks:
        node["marks"] = list(marks)  # its own list: the caller's may be reused for the next node
    out.append(node)
