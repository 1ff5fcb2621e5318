"""References in the text become links in the ADF: Jira keys to `<JIRA_URL>/browse/<KEY>`, bare URLs.

Only when the Jira site is known, and never inside code (code spans, code blocks) or an existing link.
A Jira key links when it belongs to the ticket's own project, or when the person gave it as a reference
(`fix_ref`, an action item's `tracking`); tokens that merely look like keys (`UTF-8`, `SHA-256`,
`ISO-8601`) stay text. Done on the ADF, which the Slack preview is made from, so both show the same links.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from renderers.adf_input import normalize_link
from renderers.links import is_safe_href
from rules.refs import NOT_IN_URL

Node = dict[str, Any]

#: A key, and a bare URL. Each starts with its first character and looks behind it afterwards: a pattern that
#: starts by looking behind is tried at every position (ten times slower on a long text).
_KEY_RE = re.compile(r"([A-Z](?<![\w./#-][A-Z])[A-Z0-9_]{0,254})-([1-9][0-9]{0,17})(?![\w-])")
#: A URL ends before a quote and before an invisible or direction character (zero-width, bidi, soft hyphen), so the
#: link shown and the link followed are the same: "http://x.example\u200b/a" links `http://x.example` only. It ends
#: before Japanese punctuation, full-width punctuation and hiragana too: 「https://a.example/runbookを参照」 links the
#: URL, not the sentence (a path in kanji or katakana stays in it): the characters the gate's reference reader stops
#: at too (rules/refs.py).
_URL_RE = re.compile(rf"h(?<![\w<(\[/]h)ttps?://[^{NOT_IN_URL}]+[^{NOT_IN_URL}.,;:!?']")
#: What every reference holds (a URL's scheme, a key's `ABC-1`): a text without it is left as it is.
_MAYBE_RE = re.compile(r"https?://|[A-Z][A-Z0-9_]*-[1-9]")
#: Prefixes of standards, hashes and encodings that share the shape of a Jira key.
NOT_PROJECTS = frozenset(
    {
        "UTF",
        "UCS",
        "SHA",
        "MD",
        "ISO",
        "RFC",
        "IEEE",
        "IEC",
        "AES",
        "RSA",
        "CRC",
        "HTTP",
        "TLS",
        "SSL",
        "CVE",
        "CWE",
        "PEP",
        "ECMA",
        "ANSI",
        "FIPS",
        "IPV",
        "X",
        "H",
        "P",
        "GPT",
        "DDR",
        "PCIE",
        "USB",
        "HDMI",
        "WCAG",
        "JSR",
        "CP",
        "LATIN",
    }
)


def keys_in(texts: Iterable[str | None]) -> frozenset[str]:
    """The Jira keys written in these texts (standards such as `UTF-8` left out)."""
    return frozenset(
        m.group(0) for text in texts if text for m in _KEY_RE.finditer(text) if m.group(1) not in NOT_PROJECTS
    )


def link_references(doc: Node, *, jira_url: str | None, project: str, keys: frozenset[str]) -> Node:
    """`doc` with bare URLs and Jira keys linked (`doc` is not changed; the parts without a reference are shared)."""
    if not jira_url:
        return doc
    browse = jira_url.rstrip("/") + "/browse/"

    def target(match: re.Match[str]) -> str | None:
        text = match.group(0)
        if match.re is _URL_RE:
            return normalize_link(text) if is_safe_href(text) else None
        key_project = match.group(1)
        return browse + text if key_project == project or text in keys else None

    return _walk(doc, target)


def _walk(node: Node, target: Any) -> Node:
    """`node` with the references in its text linked: a new node where something changed, else `node` itself."""
    if node.get("type") == "codeBlock" or "content" not in node:
        return node
    children = node["content"]
    content: list[Node] | None = None  # made once a child changes
    for i, child in enumerate(children):
        if child.get("type") == "text" and _MAYBE_RE.search(child["text"]):
            new = _split(child, target)
        elif "content" in child:
            new = [_walk(child, target)]
        else:  # the common case: text with nothing that could be a reference, a hardBreak, a rule
            if content is not None:
                content.append(child)
            continue
        if content is None:
            if len(new) == 1 and new[0] is child:
                continue
            content = children[:i]
        content.extend(new)
    return node if content is None else {**node, "content": content}


def _split(node: Node, target: Any) -> list[Node]:
    """A text node cut around the references it holds, each reference carrying a link mark."""
    marks = node.get("marks", [])
    if any(m["type"] in ("code", "link") for m in marks):
        return [node]
    text = node["text"]
    found = sorted([*_URL_RE.finditer(text), *_KEY_RE.finditer(text)], key=lambda m: m.start())
    pieces: list[Node] = []
    pos = 0
    for match in found:
        href = target(match)
        if href is None or match.start() < pos:
            continue
        if match.start() > pos:
            pieces.append({**node, "text": text[pos : match.start()]})
        pieces.append({**node, "text": match.group(0), "marks": [{"type": "link", "attrs": {"href": href}}, *marks]})
        pos = match.end()
    if not pieces:
        return [node]
    if pos < len(text):
        pieces.append({**node, "text": text[pos:]})
    return pieces
