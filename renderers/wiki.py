"""The post-mortem as Jira wiki markup (Data Center / Server, REST v2), made from the same ADF the Cloud comment is.

Converting the ADF (itself made from the Markdown of renderers/markdown.py `section_bodies`) keeps one structure
for every destination. The fidelity rule holds here too: every character the person typed shows as typed in
Jira's wiki renderer. The rules relied on, with their sources, are in docs/platform-notes.md:
- a backslash keeps a character of Jira's escaping set as text; it is put before each such character that wiki
  markup reads (`* _ - + ^ ~ ? { } [ ] | ! # ( )`), and before nothing else (`\\.` would show the backslash);
- `\\\\` is a line break, so a typed backslash stays bare only before a character that is neither a backslash nor
  escapable, and is written `&#92;` otherwise; an `&` that starts an entity is written `&amp;`;
- line starts that escapes cannot reach (`h1.` to `h6.`, `bq.`) get their first letter as an entity, and the
  emoticons `:P` / `:D` their colon (`&#58;`);
- code blocks are `{noformat}` (nothing inside is read), inline code `{{…}}` with its text escaped (Jira still
  reads effects, links and macros inside); links only for http(s) and mailto (renderers/links.py), and none to
  an IPv6 host, which the notation cannot hold (its text shows);
- headings are `h2.` (the title) and `h3.` (the sections): ADF level n becomes `h{n+1}.`.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

from postmortem.model import Lang, PostMortem
from renderers.adf import render_adf
from renderers.budget import gc_paused
from renderers.jira import (
    INTERNAL_PROPERTY,
    JIRA_COMMENT_LIMIT,
    PROPERTY_KEY,
    CommentTooLong,
    JiraRequest,
    visibility,
)
from renderers.links import is_safe_href
from renderers.wiki_escape import ESCAPED, escape, escape_all, safe_target

Node = dict[str, Any]

_EFFECT = {"strong": "*", "em": "_", "strike": "-"}
_EFFECT_ORDER = ("strong", "em", "strike")
#: Literal-region macros, in the order tried: the first whose closing tag the text does not hold is used.
_LITERAL_MACROS = ("noformat", "code")
_MACRO_AFTER_BRACE = re.compile(r"(?i)(?:noformat|code)(?:$|[}:])")
#: What Jira takes for a blank after a link's `[`.
_BLANKS = " \t\u3000\u00a0"
#: A line break in a list item (`\\`) and an escape right after it (`\(`).
_BREAK_THEN_ESCAPE = re.compile(r"\\\\\\(.)")
#: A target with an IPv6 host (`http://[::1]/`): a `]` would end the link, and `%5D` is no host a browser opens,
#: so such a link is shown as its text only (the text shows the URL when the person gave no other).
UNLINKABLE_RE = re.compile(r"(?i)https?://(?:[^@/?#\[\]]*@)?\[")


class _Writer:
    """ADF blocks to wiki lines; lists carry their marker prefix (`*`, `#`, `**`, `*#`, ...)."""

    def document(self, doc: Node) -> str:
        return "\n\n".join(self.block(node, "") for node in doc.get("content", []))

    def block(self, node: Node, prefix: str) -> str:
        kind = node.get("type")
        content = node.get("content", [])
        if kind == "paragraph":
            return inline(content, "\n")
        if kind == "heading":
            level = min(int(node.get("attrs", {}).get("level", 1)) + 1, 6)
            return f"h{level}. " + inline(content, " ")
        if kind in ("bulletList", "orderedList"):
            return self.list_block(node, prefix)
        if kind == "blockquote":
            return "{quote}\n" + self.quote_text(node) + "\n{quote}"
        if kind == "codeBlock":
            return literal_block("".join(n.get("text", "") for n in content))
        if kind == "rule":
            return "----"
        return inline(content, "\n")  # not reached for the ADF renderers/adf.py builds

    def quote_text(self, node: Node) -> str:
        """A quote inside a quote: its blocks, in the outer one (a `{quote}` inside `{quote}` would close it)."""
        return "\n\n".join(
            self.quote_text(child) if child.get("type") == "blockquote" else self.block(child, "")
            for child in node.get("content", [])
        )

    def list_block(self, node: Node, prefix: str) -> str:
        order = node.get("attrs", {}).get("order", 1)
        # Wiki lists cannot start at n, and a code block in an item ends the list (the next item would be 1 again):
        # the numbers as text.
        numbered = node["type"] == "orderedList" and (order != 1 or any(map(_holds_code, node.get("content", []))))
        marker = prefix + ("#" if node["type"] == "orderedList" and not numbered else "*")
        if numbered and not prefix:
            marker = ""
        lines: list[str] = []
        for n, item in enumerate(node.get("content", []), start=order if numbered else 1):
            number = f"{n}. " if numbered else ""
            lines.extend(self.item(item, marker, number))
        return "\n".join(lines)

    def item(self, item: Node, marker: str, number: str) -> list[str]:
        """One list item: its text on the marker's line, nested lists and code blocks on lines of their own."""
        lines: list[str] = []
        texts: list[str] = []

        def flush() -> None:
            if texts or number:  # an item with no text of its own gets no marker line (a bare `*` would show)
                lines.append((f"{marker} " if marker else "") + number + "\\\\".join(texts))
            texts.clear()

        for child in item.get("content", []):
            kind = child.get("type")
            if kind in ("bulletList", "orderedList"):
                flush()
                number = ""
                lines.append(self.list_block(child, marker or "*"))
            elif kind == "codeBlock":
                flush()
                number = ""
                lines.append(self.block(child, marker))
            elif kind == "blockquote":
                texts.extend(t for t in (self.item_text(c) for c in child.get("content", [])) if t)
            else:
                texts.append(self.item_text(child))
        flush()
        return lines

    def item_text(self, node: Node) -> str:
        if node.get("type") in ("paragraph", "heading"):
            return inline(node.get("content", []), "\\\\")
        if node.get("type") == "blockquote":
            return "\\\\".join(self.item_text(c) for c in node.get("content", []))
        return self.block(node, "")


def _holds_code(item: Node) -> bool:
    return any(child.get("type") == "codeBlock" for child in item.get("content", []))


def literal_block(text: str) -> str:
    """A code block shown verbatim: `{noformat}`, else `{code}`, else each line as escaped `{{…}}`."""
    lowered = text.lower()
    for macro in _LITERAL_MACROS:
        if "{" + macro not in lowered:
            return "{" + macro + "}\n" + text + "\n{" + macro + "}"
    return "\n".join(monospace(line) if line else "" for line in text.split("\n"))


def monospace(text: str) -> str:
    """Inline code: `{{…}}` around the escaped text (see `_braced`)."""
    return _braced(escape(text))


def _braced(inner: str) -> str:
    """Escaped text in `{{…}}`; a text starting `code` or `noformat` gets its first letter as an entity, so the
    braces and it cannot read as the `{code}` / `{noformat}` macro."""
    if _MACRO_AFTER_BRACE.match(inner):
        inner = f"&#{ord(inner[0])};" + inner[1:]
    return "{{" + inner + "}}"


def inline(nodes: list[Node], line_break: str) -> str:
    """Text nodes with their marks; effects only where Jira reads them (non-blank ends, no letter beside)."""
    rendered = _rendered(nodes)
    following: list[str] | None = None  # the first character written after each node, once a node needs it
    out: list[str] = []
    for i, node in enumerate(nodes):
        node_marks = node.get("marks")
        if not node_marks:  # plain text, the most frequent, or a line break
            out.append(line_break if node.get("type") == "hardBreak" else rendered[i])
            continue
        if node.get("type") == "hardBreak":
            out.append(line_break)
            continue
        text = rendered[i]
        marks = {m["type"]: m for m in node_marks}
        if "code" not in marks:
            before = out[-1][-1:] if out and out[-1] else ""
            if following is None:
                following = _following(rendered)
            text = _effects(node.get("text", ""), text, marks, before, following[i])
        if "link" in marks:
            href = str(marks["link"]["attrs"]["href"])
            if is_safe_href(href) and not UNLINKABLE_RE.match(href):
                text = _link(text, safe_target(href))
        out.append(text)
    written = "".join(out)
    if line_break == "\\\\" and "\\\\\\" in written:
        # Jira reads no escape after a backslash: `\\` then `\(` would show `\(`. The character, as an entity; a
        # typed backslash (before a character that needs no escape), as one.
        written = _BREAK_THEN_ESCAPE.sub(_after_break, written)
    return written


def _after_break(m: re.Match[str]) -> str:
    char = m.group(1)
    return f"\\\\&#{ord(char)};" if char in ESCAPED else f"\\\\&#92;{char}"  # ours, or a typed one


def _link(text: str, target: str) -> str:
    """`[text|target]` as Jira's link parser reads it: it splits at the first `|` whatever escapes it (so a `|` in
    the text is an entity, and a bracket too: no escape is left for the parser to honour or not) and takes no `[`
    followed by a blank for a link (so leading blanks stand before it)."""
    label = text.lstrip(_BLANKS)
    lead = text[: len(text) - len(label)]
    label = label.replace("\\|", "&#124;").replace("|", "&#124;").replace("\\]", "&#93;").replace("\\[", "&#91;")
    return f"{lead}[{label}|{target}]" if label else f"{lead}[{target}]"


def _following(rendered: list[str]) -> list[str]:
    """The first character written after each node (a line break's is a newline)."""
    following = [""] * len(rendered)
    after = ""
    for i in range(len(rendered) - 1, -1, -1):
        following[i] = after
        after = rendered[i][:1] or after
    return following


def _rendered(nodes: list[Node]) -> list[str]:
    """Each node before its effects and link: a line break, inline code, or its text, escaped all at once."""
    out: list[str] = []
    at: list[int] = []  # where each text to escape goes
    texts: list[str] = []
    code: set[int] = set()  # which of them are inline code
    for node in nodes:
        if node.get("type") == "hardBreak":
            out.append("\n")
            continue
        marks = node.get("marks")
        if marks and any(m["type"] == "code" for m in marks):
            code.add(len(at))
        at.append(len(out))
        texts.append(node.get("text", ""))
        out.append("")
    for n, (place, text) in enumerate(zip(at, escape_all(texts), strict=True)):
        out[place] = _braced(text) if n in code else text
    return out


def _effects(raw: str, text: str, marks: dict[str, Node], before: str, after: str) -> str:
    """`text` inside the effect markers its marks ask for, blanks kept outside; none where Jira would not read them."""
    wanted = [_EFFECT[name] for name in _EFFECT_ORDER if name in marks]
    if not wanted:
        return text
    core = text.strip(" \t")
    if not core or raw.strip(" \t") != raw.strip(" \t").strip() or "\n" in core:
        return text
    lead = text[: len(text) - len(text.lstrip(" \t"))]
    trail = text[len(text.rstrip(" \t")) :]
    outside_before = lead[-1:] or before
    outside_after = trail[:1] or after
    if outside_before.isalnum() or outside_after.isalnum() or core.endswith("\\"):
        return text
    opened = "".join(wanted)
    return lead + opened + core + opened[::-1] + trail


@gc_paused
def adf_to_wiki(doc: Node) -> str:
    """An ADF document (as renderers/adf.py builds it) as wiki markup."""
    return _Writer().document(doc)


def render_wiki(pm: PostMortem, lang: Lang | None = None, *, jira_url: str | None = None) -> str:
    """The post-mortem as wiki markup: the ADF posted to Jira Cloud, written for Jira Data Center."""
    return adf_to_wiki(render_adf(pm, lang, jira_url=jira_url))


def section_lengths(wiki: str) -> list[tuple[str, int]]:
    """Each section's heading and its length in characters, longest first (ties in document order)."""
    sizes: list[tuple[str, int]] = []
    for block in wiki.split("\n\n"):
        if block.startswith("h3. "):
            sizes.append((block[4:], 0))
        elif sizes:
            name, size = sizes[-1]
            sizes[-1] = (name, size + len(block) + 2)
    return sorted(sizes, key=lambda pair: -pair[1])


def wiki_request(wiki: str, *, session: str, version: int, visible_to: str | None = None) -> JiraRequest:
    """The POST body for `/rest/api/2/issue/{ticket}/comment`: the same properties as on Cloud, a string body.

    The sha256 is of the body's JSON as it appears in the request (`json.dumps(wiki)`), as on Cloud. Over
    Jira's 32,767 characters the body is refused, never cut.
    """
    if len(wiki) > JIRA_COMMENT_LIMIT:
        raise CommentTooLong(len(wiki), JIRA_COMMENT_LIMIT, section_lengths(wiki))
    digest = hashlib.sha256(json.dumps(wiki).encode()).hexdigest()
    request: dict[str, Any] = {
        "body": wiki,
        "properties": [
            {"key": PROPERTY_KEY, "value": {"session": session, "version": version, "sha256": digest}},
            INTERNAL_PROPERTY,
        ],
    }
    if (limited := visibility(visible_to)) is not None:
        request["visibility"] = limited
    return JiraRequest(body=json.dumps(request).encode(), sha256=digest)
