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

Node = dict[str, Any]

_KEY_RE = re.compile(r"(?<![\w./#-])([A-Z][A-Z0-9_]{0,254})-([1-9][0-9]{0,17})(?![\w-])")
_URL_RE = re.compile(r"(?<![\w<(\[/])https?://[^\s<>()\[\]`]+[^\s<>()\[\]`.,;:!?'\"。、）]")
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
    """`doc` with bare URLs and Jira keys linked (a new document; `doc` is not changed)."""
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
    if node.get("type") == "codeBlock" or "content" not in node:
        return node
    content: list[Node] = []
    for child in node["content"]:
        if child.get("type") == "text":
            text = child["text"]
            if "://" not in text and "-" not in text:  # the common case: nothing that could be a reference
                content.append(child)
            else:
                content.extend(_split(child, target))
        elif "content" in child:
            content.append(_walk(child, target))
        else:
            content.append(child)  # a hardBreak, a rule
    return {**node, "content": content}


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
