"""Markdown to Atlassian Document Format, built as data from pulldown-cmark events, valid against the ADF schema.

The parser is pulldown-cmark (Rust, through `pyromark`): CommonMark plus `~~strike~~`, nothing else.
Choices (kept consistent so the output is predictable):
- a soft line break is a `hardBreak`: people type line breaks in Slack and expect to see them in Jira;
- inline code keeps only the `code` mark, plus `link` when it sits in a link (the schema allows no other
  mark with `code`); bold/italic/strike around it are dropped for that piece, its text never is;
- HTML (blocks and inline) becomes plain text; images become their alt text linked to the image URL;
- link reference definitions are not parsed (`[x]: y` stays text, so nothing the person wrote vanishes);
- `~single tildes~` stay text (only `~~two~~` strike), as in CommonMark with the GFM strikethrough rule;
- link targets are percent-encoded (hosts punycoded); `javascript:`, `vbscript:`, `file:` and non-image
  `data:` targets make no link: the Markdown stays text;
- blocks that ADF does not allow inside a list item or a quote are unwrapped or turned into paragraphs;
- NUL becomes U+FFFD, as CommonMark requires (so do lone surrogates, which no parser can read).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import pyromark

from postmortem.model import Lang, PostMortem
from renderers.markdown import render_markdown

Node = dict[str, Any]
Mark = dict[str, Any]

#: Strike needs the extension; subscript is enabled only to recognise `~x~`, which is written back as text.
_OPTIONS = pyromark.Options.ENABLE_STRIKETHROUGH | pyromark.Options.ENABLE_SUBSCRIPT
_MARKDOWN = pyromark.Markdown(options=_OPTIONS)

#: Block node types each container may hold (the schema's rules for listItem and blockquote).
_ALLOWED = {
    "listItem": frozenset({"paragraph", "bulletList", "orderedList", "codeBlock"}),
    "blockquote": frozenset({"paragraph", "bulletList", "orderedList", "codeBlock"}),
}
_FIRST_IN_ITEM = frozenset({"paragraph", "codeBlock"})
_MARK_ORDER = ("em", "strong", "strike")
_MARK_OF = {"Emphasis": "em", "Strong": "strong", "Strikethrough": "strike"}

_CR_RE = re.compile(r"\r\n?")
_SURROGATE_RE = re.compile("[\ud800-\udfff]")
#: What CommonMark renderers refuse as a link target (markdown-it's validateLink).
_BAD_PROTO_RE = re.compile(r"(?:vbscript|javascript|file|data):")
_GOOD_DATA_RE = re.compile(r"data:image/(?:gif|png|jpeg|webp);")
#: Characters kept as they are in a URL (mdurl's encode set); `%XX` escapes already there are kept too.
_URL_UNSAFE_RE = re.compile(r"%(?![0-9a-fA-F]{2})|[^A-Za-z0-9;/?:@&=+$,\-_.!~*'()#%]+")
_HOST_RE = re.compile(r"((?:https?|mailto):|(?=//))(//)?([^@/?#]*@)?([^/?#:]*)", re.IGNORECASE)
#: Escapes an autolink's text shows decoded, unless they stand for a character with a meaning in URLs.
_ESCAPE_RE = re.compile(r"%[0-9a-fA-F]{2}")
_KEEP_ESCAPED = frozenset(";/?:@&=+$,#%")


def markdown_to_adf(md: str) -> dict[str, Any]:
    """Convert Markdown to an ADF document; deterministic, and schema-valid for any input."""
    return _Builder().build(_source(md))


def render_adf(pm: PostMortem, lang: Lang | None = None) -> dict[str, Any]:
    """The post-mortem as the ADF document posted to Jira: exactly the Markdown draft, converted."""
    return markdown_to_adf(render_markdown(pm, lang))


def _source(md: str) -> str:
    """The text the parser reads: line ends and NUL normalised, link reference definitions kept as text."""
    if "\r" in md:
        md = _CR_RE.sub("\n", md)
    if "\x00" in md:
        md = md.replace("\x00", "\ufffd")
    if not md.isascii():
        try:
            md.encode()
        except UnicodeEncodeError:
            md = _SURROGATE_RE.sub("\ufffd", md)
    while "]:" in md and (definitions := _MARKDOWN.reference_definitions(md)):
        # Spans are UTF-8 byte offsets of each `[label]:`; a backslash before its `[` keeps it text. Repeated
        # because a definition whose label was already defined is not reported until the first is gone.
        data = md.encode()
        for start in sorted((d["span"]["start"] for d in definitions.values()), reverse=True):
            start = data.index(b"[", start)
            data = data[:start] + b"\\" + data[start:]
        md = data.decode()
    return md


class _Builder:
    """One conversion: a stack of open blocks and the inline state of the paragraph being filled."""

    def __init__(self) -> None:
        self.root: Node = {"version": 1, "type": "doc", "content": []}
        self.stack: list[Node] = [self.root]
        self.out: list[Node] | None = None  # content of the open paragraph or heading
        self.implicit = False  # that paragraph was opened for a tight list item's text
        self.depth = dict.fromkeys(_MARK_ORDER, 0)
        self.links: list[Mark] = []
        self.starts: list[int] = []
        self.rejected: list[tuple[str, str]] = []  # refused link targets, as Markdown to write back
        self.link_kinds: list[bool] = []  # per open link: True when it is a real link mark
        self.image: list[str] | None = None  # alt text being collected
        self.image_depth = 0
        self.image_src = ""
        self.code: list[str] | None = None  # text of the open code block or HTML block
        self.language = ""
        self.autolink = False  # inside `<https://...>`: its text is shown decoded
        self.current: list[Mark] = []  # the marks in force for text, recomputed when they change

    def build(self, md: str) -> Node:
        event: Any
        value: Any
        for event in _MARKDOWN.events(md):
            if event.__class__ is str:
                self.bare(event)
                continue
            ((kind, value),) = event.items()
            if kind == "Text":
                out = self.out
                if out is None or self.code is not None or self.image is not None or self.autolink:
                    self.text(value)
                elif out and "text" in (last := out[-1]) and _same_marks(last.get("marks", ()), self.current):
                    last["text"] += value  # the common case, inlined: text continuing the previous node
                else:
                    _text(out, value, self.current)
            elif kind == "Start":
                self.start(value)
            elif kind == "End":
                self.end(value)
            elif kind == "Code":
                self.code_span(value)
            elif kind == "InlineHtml":
                self.text(value)
            elif kind == "Html":
                if self.code is not None:
                    self.code.append(value)
                else:
                    self.text(value)
        self.close_implicit()
        return self.root

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
                self.add_block(self.code_block())
            elif tag == "HtmlBlock":
                text = "".join(self.code or ()).rstrip("\n")
                self.code = None
                self.add_block({"type": "paragraph", "content": _plain_lines(text)})
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
        self.add_block(_finish(self.stack.pop()))

    def add_block(self, child: Node) -> None:
        _append(self.stack[-1], child)

    def code_block(self) -> Node:
        """A fenced or indented code block, its text verbatim and unmarked."""
        text = "".join(self.code or ())
        self.code = None
        node: Node = {"type": "codeBlock"}
        if self.language:
            node["attrs"] = {"language": self.language}
        if text.endswith("\n"):
            text = text[:-1]
        if text:
            node["content"] = [{"type": "text", "text": text}]
        return node

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
            if self.autolink and "%" in text:
                text = _decode_escapes(text)
            _text(self.out, text, self.current)

    def code_span(self, text: str) -> None:
        if self.image is not None:
            self.image.append(text)
            return
        if self.out is None:
            self.open_implicit()
        assert self.out is not None
        code: list[Mark] = [self.links[-1], {"type": "code"}] if self.links else [{"type": "code"}]
        _text(self.out, text, code)

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
        if _refused(href):
            self.link_kinds.append(False)
            self.rejected.append(_written(data))
            self.text(self.rejected[-1][0])
            return
        attrs: dict[str, Any] = {"href": _normalize_link(href)}
        if data["title"]:
            attrs["title"] = data["title"]
        self.link_kinds.append(True)
        self.autolink = data["link_type"] == "Autolink"
        self.links.append({"type": "link", "attrs": attrs})
        self.current = self.marks(self.links)
        if self.out is None:
            self.open_implicit()
        assert self.out is not None
        self.starts.append(len(self.out))

    def close_link(self) -> None:
        if self.image is not None:
            self.image_depth -= 1
            return
        self.autolink = False
        if not self.link_kinds.pop():
            self.text(self.rejected.pop()[1])
            return
        assert self.out is not None
        if self.starts.pop() == len(self.out):  # `[](url)`: no text to carry the link, so the URL is the text
            _text(self.out, str(self.links[-1]["attrs"]["href"]), self.current)
        self.links.pop()
        self.current = self.marks(self.links)

    def open_image(self, data: dict[str, Any]) -> None:
        if self.image is not None:
            self.image_depth += 1
            return
        self.image = []
        self.image_depth = 0
        src = data["dest_url"]
        self.image_src = "" if _refused(src, image=True) else _normalize_link(src)

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
        _text(self.out, alt or src, self.marks(target))


def _refused(url: str, image: bool = False) -> bool:
    """A target that CommonMark renderers refuse, to keep script out of links."""
    url = url.strip().lower()
    return bool(_BAD_PROTO_RE.match(url)) and not (image and _GOOD_DATA_RE.match(url))


def _written(data: dict[str, Any]) -> tuple[str, str]:
    """The Markdown around a refused link's text, as written (approximately, for a `[text](target)`)."""
    url = data["dest_url"]
    if data["link_type"] in ("Autolink", "Email"):
        return "<", ">"
    title = f' "{data["title"]}"' if data["title"] else ""
    return "[", f"]({url}{title})"


def _normalize_link(url: str) -> str:
    """A link target percent-encoded and its host punycoded, as CommonMark renderers write it."""
    if not url.isascii():
        match = _HOST_RE.match(url)
        if match and not match.group(4).isascii():
            try:
                host = ".".join(label if label.isascii() else "xn--" + label.encode("punycode").decode()
                                for label in match.group(4).split("."))
            except UnicodeError:
                pass
            else:
                url = url[: match.start(4)] + host + url[match.end(4):]
    return _URL_UNSAFE_RE.sub(_percent, url)


def _decode_escapes(text: str) -> str:
    """Percent escapes decoded where they spell UTF-8 text, except reserved characters (kept escaped)."""
    data = bytearray()
    pos = 0
    out: list[str] = []
    for match in _ESCAPE_RE.finditer(text):
        if match.start() != pos:
            out.append(_decoded(data))
            out.append(text[pos:match.start()])
        data.append(int(match.group(0)[1:], 16))
        pos = match.end()
    out.append(_decoded(data))
    out.append(text[pos:])
    return "".join(out)


def _decoded(data: bytearray) -> str:
    """A run of escaped bytes as text: valid UTF-8 decoded, anything else (and reserved ASCII) escaped."""
    text = data.decode("utf-8", "surrogateescape")
    data.clear()
    return "".join(f"%{ord(c) - 0xDC00:02X}" if "\udc80" <= c <= "\udcff"
                   else f"%{ord(c):02X}" if c in _KEEP_ESCAPED else c for c in text)


def _percent(match: re.Match[str]) -> str:
    return "".join(f"%{b:02X}" for b in match.group(0).encode())


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


def _plain_lines(text: str) -> list[Node]:
    """Text shown as written, one hardBreak per line break."""
    nodes: list[Node] = []
    for i, line in enumerate(text.split("\n")):
        if i:
            nodes.append({"type": "hardBreak"})
        if line:
            nodes.append({"type": "text", "text": line})
    return nodes


def _same_marks(a: Sequence[Mark], b: Sequence[Mark]) -> bool:
    """Equal marks, where a link is the same only if it is the same link (two links keep both hrefs)."""
    return len(a) == len(b) and all(x is y if x.get("type") == "link" else x == y for x, y in zip(a, b, strict=True))


def _text(out: list[Node], text: str, marks: list[Mark]) -> None:
    """Append text, merging into the previous node when its marks are the same; never an empty node."""
    if not text:
        return
    if out and "text" in out[-1] and _same_marks(out[-1].get("marks", []), marks):
        out[-1]["text"] += text
        return
    node: Node = {"type": "text", "text": text}
    if marks:
        node["marks"] = list(marks)  # its own list: the caller's may be reused for the next node
    out.append(node)
