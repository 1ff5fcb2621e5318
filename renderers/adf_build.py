"""The walk that builds an ADF document from pulldown-cmark events (renderers/adf.py says what it chooses).

One Builder per conversion: a stack of open blocks, the inline state of the paragraph being filled, and the
marks in force. Text continuing the node made last with the same marks is appended to it, so a paragraph of
many events stays a few nodes.
"""

from __future__ import annotations

from typing import Any

from renderers.adf_input import PARSER, normalize_link, written
from renderers.adf_nodes import Mark, Node, append_block, append_text, code_block, finish, plain_lines, same_marks
from renderers.links import is_safe_href

_MARK_ORDER = ("em", "strong", "strike")
_MARK_OF = {"Emphasis": "em", "Strong": "strong", "Strikethrough": "strike"}


class Builder:
    """One conversion: a stack of open blocks and the inline state of the paragraph being filled."""

    def __init__(self) -> None:
        self.root: Node = {"version": 1, "type": "doc", "content": []}
        self.stack: list[Node] = [self.root]
        self.out: list[Node] | None = None  # content of the open paragraph or heading
        self.implicit = False  # that paragraph was opened for a tight list item's text
        self.depth = dict.fromkeys(_MARK_ORDER, 0)
        self.links: list[Mark] = []
        self.starts: list[tuple[int, str]] = []  # per open link: where its text starts, its target as typed
        self.rejected: list[tuple[str, str]] = []  # refused link targets, as Markdown to write back
        self.link_kinds: list[bool] = []  # per open link: True when it is a real link mark
        self.image: list[str] | None = None  # alt text being collected
        self.image_depth = 0
        self.image_src = ""
        self.code: list[str] | None = None  # text of the open code block or HTML block
        self.language = ""
        self.current: list[Mark] = []  # the marks in force for text, recomputed when they change
        self.tail: Node | None = None  # the text node `plain_text` made last, and the marks it was made with
        self.tail_marks: list[Mark] | None = None

    def build(self, md: str) -> Node:
        event: Any
        value: Any
        for event in PARSER.events(md):
            if event.__class__ is str:
                self.bare(event)
            elif "Text" in event:  # the most frequent event first: most often text continuing the last node
                out = self.out
                if out and out[-1] is self.tail and self.current is self.tail_marks and self.code is self.image is None:
                    out[-1]["text"] += event["Text"]
                else:
                    self.plain_text(event["Text"])
            elif "Start" in event:
                value = event["Start"]
                if value.__class__ is str and value in _MARK_OF and self.image is None:  # emphasis, inlined
                    self.depth[_MARK_OF[value]] += 1
                    self.current = self.marks(self.links)
                else:
                    self.start(value)
            elif "End" in event:
                value = event["End"]
                if value.__class__ is str and value in _MARK_OF and self.image is None:
                    self.depth[_MARK_OF[value]] -= 1
                    self.current = self.marks(self.links)
                else:
                    self.end(value)
            elif "Code" in event:
                self.code_span(event["Code"])
            elif "InlineHtml" in event:
                self.text(event["InlineHtml"])
            elif "Html" in event:
                if self.code is not None:
                    self.code.append(event["Html"])
                else:
                    self.text(event["Html"])
        self.close_implicit()
        return self.root

    def plain_text(self, value: str) -> None:
        """A Text event: text continuing the last node when its marks are the same, else a node of its own."""
        out = self.out
        if out is None or self.code is not None or self.image is not None:
            self.text(value)
            return
        if out:
            last = out[-1]
            if (last is self.tail and self.current is self.tail_marks) or (
                "text" in last and same_marks(last.get("marks", ()), self.current)
            ):
                last["text"] += value
                return
        if value:  # a new node (as `append_text` makes it, once it found nothing to merge with)
            node: Node = {"type": "text", "text": value}
            if self.current:
                node["marks"] = list(self.current)
            out.append(node)
            self.tail, self.tail_marks = node, self.current

    # Blocks

    def start(self, tag: Any) -> None:
        if tag.__class__ is str:
            if tag in _MARK_OF:
                if self.image is None:
                    self.depth[_MARK_OF[tag]] += 1
                    self.current = self.marks(self.links)
            elif tag == "Paragraph":
                self.close_implicit()
                self.open_inline({"type": "paragraph", "content": []})
            elif tag == "Item":
                self.close_implicit()
                self.stack.append({"type": "listItem", "content": []})
            elif tag == "Subscript":
                self.text("~")
            elif tag == "HtmlBlock":
                self.close_implicit()
                self.code = []
            return
        ((kind, value),) = tag.items()
        if kind == "Link":
            self.open_link(value)
        elif kind == "Image":
            self.open_image(value)
        elif kind == "Heading":
            self.close_implicit()
            self.open_inline({"type": "heading", "attrs": {"level": int(value["level"][1])}, "content": []})
        elif kind == "List":
            self.close_implicit()
            if value is None:
                self.stack.append({"type": "bulletList", "content": []})
            elif value != 1:
                self.stack.append({"type": "orderedList", "attrs": {"order": value}, "content": []})
            else:
                self.stack.append({"type": "orderedList", "content": []})
        elif kind == "BlockQuote":
            self.close_implicit()
            self.stack.append({"type": "blockquote", "content": []})
        elif kind == "CodeBlock":
            self.close_implicit()
            self.code = []
            self.language = value["Fenced"].strip() if value.__class__ is dict else ""

    def end(self, tag: Any) -> None:
        if tag.__class__ is str:
            if tag in _MARK_OF:
                if self.image is None:
                    self.depth[_MARK_OF[tag]] -= 1
                    self.current = self.marks(self.links)
            elif tag == "Paragraph":
                self.close_inline()
            elif tag == "Link":
                self.close_link()
            elif tag == "Image":
                self.close_image()
            elif tag == "Subscript":
                self.text("~")
            elif tag == "CodeBlock":
                text = "".join(self.code or ())
                self.code = None
                self.add_block(code_block(text, self.language))
            elif tag == "HtmlBlock":
                text = "".join(self.code or ()).rstrip("\n")
                self.code = None
                self.add_block({"type": "paragraph", "content": plain_lines(text)})
            elif tag == "Item":
                self.close_container()
            return
        kind = next(iter(tag))
        if kind == "Heading":
            self.close_inline()
        else:  # List, BlockQuote
            self.close_container()

    def bare(self, event: str) -> None:
        if event == "Rule":
            self.close_implicit()
            self.add_block({"type": "rule"})
        elif self.image is None:  # SoftBreak, HardBreak: not part of an image's alt text
            if self.out is None:
                self.open_implicit()
            assert self.out is not None
            self.out.append({"type": "hardBreak"})

    def open_inline(self, node: Node) -> None:
        self.stack.append(node)
        self.out = node["content"]

    def close_inline(self) -> None:
        node = self.stack.pop()
        self.out = None
        self.implicit = False
        self.add_block(node)

    def open_implicit(self) -> None:
        self.open_inline({"type": "paragraph", "content": []})
        self.implicit = True

    def close_implicit(self) -> None:
        if self.implicit:
            self.close_inline()

    def close_container(self) -> None:
        self.close_implicit()
        self.add_block(finish(self.stack.pop()))

    def add_block(self, child: Node) -> None:
        append_block(self.stack[-1], child)

    # Inlines

    def text(self, text: str) -> None:
        if self.code is not None:
            self.code.append(text)
        elif self.image is not None:
            self.image.append(text)
        else:
            if self.out is None:
                self.open_implicit()
            assert self.out is not None
            append_text(self.out, text, self.current)

    def code_span(self, text: str) -> None:
        if self.image is not None:
            self.image.append(text)
            return
        if self.out is None:
            self.open_implicit()
        assert self.out is not None
        code: list[Mark] = [self.links[-1], {"type": "code"}] if self.links else [{"type": "code"}]
        append_text(self.out, text, code)

    def marks(self, links: list[Mark]) -> list[Mark]:
        """The marks in force, each once, in a fixed order."""
        marks = [links[-1]] if links else []
        depth = self.depth
        marks.extend({"type": name} for name in _MARK_ORDER if depth[name])
        return marks

    def open_link(self, data: dict[str, Any]) -> None:
        if self.image is not None:
            self.image_depth += 1  # a link inside an image's alt text: only its text counts
            return
        href = data["dest_url"]
        if data["link_type"] == "Email":
            href = "mailto:" + href
        if not is_safe_href(href):
            self.link_kinds.append(False)
            self.rejected.append(written(data))
            self.text(self.rejected[-1][0])
            return
        attrs: dict[str, Any] = {"href": normalize_link(href)}
        if data["title"]:
            attrs["title"] = data["title"]
        self.link_kinds.append(True)
        self.links.append({"type": "link", "attrs": attrs})
        self.current = self.marks(self.links)
        if self.out is None:
            self.open_implicit()
        assert self.out is not None
        self.starts.append((len(self.out), data["dest_url"]))

    def close_link(self) -> None:
        if self.image is not None:
            self.image_depth -= 1
            return
        if not self.link_kinds.pop():
            self.text(self.rejected.pop()[1])
            return
        assert self.out is not None
        start, typed = self.starts.pop()
        if start == len(self.out):  # `[](url)`: no text to carry the link, so the URL as typed is the text
            append_text(self.out, typed, self.current)
        self.links.pop()
        self.current = self.marks(self.links)

    def open_image(self, data: dict[str, Any]) -> None:
        if self.image is not None:
            self.image_depth += 1
            return
        self.image = []
        self.image_depth = 0
        src = data["dest_url"]
        self.image_src = normalize_link(src) if is_safe_href(src) else ""

    def close_image(self) -> None:
        if self.image_depth:
            self.image_depth -= 1
            return
        alt = "".join(self.image or ())
        self.image = None
        src = self.image_src
        target = self.links if self.links else ([{"type": "link", "attrs": {"href": src}}] if src else [])
        if self.out is None:
            self.open_implicit()
        assert self.out is not None
        append_text(self.out, alt or src, self.marks(target))
