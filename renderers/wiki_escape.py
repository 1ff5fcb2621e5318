"""Text escaped for Jira's wiki renderer (renderers/wiki.py writes the rest of the comment).

A backslash keeps a character of Jira's escaping set as text; it goes before each such character that wiki markup
reads, and before nothing else. The escapes that depend on what follows a character or on the line it starts
(a typed backslash, an entity's `&`, the colon of `:P`, the first letter of `h1.` or `bq.`) are marked first, one
regex substitution each, and the escapes are then written one `str.replace` a character, in C.
docs/platform-notes.md lists the rules and their sources.
"""

from __future__ import annotations

import re

#: Characters of Jira's escaping set that wiki markup reads as markup somewhere; each takes a backslash.
ESCAPED = frozenset("*_-+^~?{}[]|!#()")
#: Jira's whole escaping set (BackslashEscapeRendererComponent): a backslash before any of these is consumed.
ESCAPABLE = ESCAPED | frozenset("%@")
#: Where a character's escape depends on what follows it or on the line it starts, each with the private-use
#: character that stands for its escape until the escapes are written: a backslash that `\\`, a line
#: break, an escapable character or the end would consume; an `&` that starts an entity; the colon of `:P` /
#: `:D`; the first letter of `h1.` to `h6.` or `bq.` at a line's start, after its blanks. Each pattern runs only
#: when its trigger is found: the two line-start patterns have no literal to look for and try every position (90 ms
#: on 1.5 MB of text), while `h1.` to `h6.` and `bq.` are found in a scan for a literal.
#: The colon after a scheme Jira links by itself in text (its UrlRendererComponent): as an entity, a URL the
#: person did not make a link (`ftp://…`, `file:///…`, a URL in code) stays text, with no backslash shown in it.
_SCHEME_COLON = "".join(
    rf"|(?<={scheme}):" for scheme in ("http", "https", "ftp", "ftps", "sftp", "file", "irc", "news", "nntp", "mailto")
)
_HEADING = re.compile(r"h[1-6]\.")
_QUOTE = re.compile(r"bq\.")
_CONTEXTS = (
    (re.compile(r"\\"), re.compile(r"\\(?=[\\\n%@*_\-+^~?{}\[\]|!#()]|\Z)"), "\ue000"),
    (re.compile("&"), re.compile(r"&(?=#[0-9]{1,7};|#[xX][0-9a-fA-F]{1,6};|[A-Za-z][A-Za-z0-9]{1,31};)"), "\ue001"),
    (re.compile(":"), re.compile(r":(?=[PDpd])" + _SCHEME_COLON, re.IGNORECASE), "\ue002"),
    (_HEADING, re.compile(r"^([ \t]*+)h(?=[1-6]\.)", re.MULTILINE), "\\1\ue003"),
    (_QUOTE, re.compile(r"^([ \t]*+)b(?=q\.)", re.MULTILINE), "\\1\ue004"),
)
_PLACEHOLDERS = {"\ue000": "&#92;", "\ue001": "&amp;", "\ue002": "&#58;", "\ue003": "&#104;", "\ue004": "&#98;"}
_PLACEHOLDER_RE = re.compile("[\ue000-\ue004]")
#: Every other character of the escaping set that wiki markup reads, with its backslash.
_ESCAPES = tuple((char, "\\" + char) for char in sorted(ESCAPED))


def _written(text: str, *, marked: bool = True) -> str:
    """Every character of the escaping set with its backslash, then (when `marked`) each mark as its escape: one
    `str.replace` a character, in C (a translation table with strings in it goes through a dict a character)."""
    for char, escaped in _ESCAPES:
        if char in text:
            text = text.replace(char, escaped)
    if marked:
        for mark, escaped in _PLACEHOLDERS.items():  # after: the entities hold `#`, which is in the set
            if mark in text:
                text = text.replace(mark, escaped)
    return text


#: The contexts in one pattern, for a text that holds a private-use mark itself.
_CONTEXT_RE = re.compile(
    r"(\\(?=[\\\n%@*_\-+^~?{}\[\]|!#()]|\Z)|&(?=#[0-9]{1,7};|#[xX][0-9a-fA-F]{1,6};|[A-Za-z][A-Za-z0-9]{1,31};)"
    r"|:(?=[PDpd])" + _SCHEME_COLON + r"|^[ \t]*+(?:h(?=[1-6]\.)|b(?=q\.)))",
    re.MULTILINE | re.IGNORECASE,
)
_CONTEXT_ESCAPE = {"\\": "&#92;", "&": "&amp;", ":": "&#58;"}


def escape(text: str) -> str:
    """Text that Jira's wiki renderer shows exactly as `text` (line breaks kept as line breaks).

    Each contextual escape is marked first (a regex substitution each, in C), then every escape is written; a text
    that holds one of the marks itself (private-use characters) is cut at its contexts instead.
    """
    if _PLACEHOLDER_RE.search(text):
        parts = _CONTEXT_RE.split(text)  # text, context, text, context, ..., text
        parts[0::2] = [_written(part, marked=False) for part in parts[0::2]]
        parts[1::2] = [_CONTEXT_ESCAPE.get(found) or f"{found[:-1]}&#{ord(found[-1])};" for found in parts[1::2]]
        return "".join(parts)
    for trigger, pattern, mark in _CONTEXTS:
        if trigger.search(text):
            text = pattern.sub(mark, text)
    return _written(text)


#: The contexts for many texts escaped at once, joined by NUL (which no ADF text holds): a NUL ends a text as the
#: end of the string does, and a line starts after it.
_JOINED_CONTEXTS = (
    (_CONTEXTS[0][0], re.compile(r"\\(?=[\\\n\x00%@*_\-+^~?{}\[\]|!#()]|\Z)"), "\ue000"),
    *_CONTEXTS[1:3],
    (_HEADING, re.compile(r"(?:^|(?<=\x00))([ \t]*+)h(?=[1-6]\.)", re.MULTILINE), "\\1\ue003"),
    (_QUOTE, re.compile(r"(?:^|(?<=\x00))([ \t]*+)b(?=q\.)", re.MULTILINE), "\\1\ue004"),
)


def escape_all(texts: list[str]) -> list[str]:
    """`escape` of each text, made in one pass over them all (a paragraph holds thousands of text nodes)."""
    joined = "\x00".join(texts)
    if joined.count("\x00") != len(texts) - 1 or _PLACEHOLDER_RE.search(joined):
        return [escape(text) for text in texts]
    for trigger, pattern, mark in _JOINED_CONTEXTS:
        if trigger.search(joined):
            joined = pattern.sub(mark, joined)
    return _written(joined).split("\x00")


def safe_target(href: str) -> str:
    """A link target that cannot end the `[text|target]` link early (its delimiters percent-encoded)."""
    return re.sub(r"[\s\[\]|{}\\]", lambda m: "".join(f"%{b:02X}" for b in m.group(0).encode()), href)
