"""What the ADF converter reads and links to: the Markdown made parseable as written, link targets made safe.

Kept apart from the tree builder (renderers/adf.py) because these are input rules, not ADF rules:
- the parser is pulldown-cmark (through `pyromark`) with strikethrough, and subscript only to recognise
  `~x~`, which the builder writes back as text;
- link reference definitions are not parsed (`[x]: y` stays text, so nothing the person wrote vanishes);
- NUL becomes U+FFFD, as CommonMark requires (so do lone surrogates, which no parser can read);
- link targets are percent-encoded (hosts punycoded); which targets may be links at all is decided by
  renderers/links.py (http(s) and mailto only), so the builder makes no link of any other.
"""

from __future__ import annotations

import functools
import re
from typing import Any

import pyromark

#: Strike needs the extension; subscript is enabled only to recognise `~x~`, which is written back as text.
_OPTIONS = pyromark.Options.ENABLE_STRIKETHROUGH | pyromark.Options.ENABLE_SUBSCRIPT
PARSER = pyromark.Markdown(options=_OPTIONS)

_CR_RE = re.compile(r"\r\n?")
#: Rounds of escaping reference definitions: a bound on the work, whatever the input.
_DEFINITION_ROUNDS = 8
#: Where a link reference definition can start: a `[` first on its line, after blanks and the markers of quotes
#: and list items (a superset: the parser, which reads the whole text, is asked only when one is there).
_DEFINITION_START_RE = re.compile(r"(?m)^(?:[ \t>]|[-+*][ \t]|[0-9]{1,9}[.)][ \t])*+\[")
_SURROGATE_RE = re.compile("[\ud800-\udfff]")
#: Characters kept as they are in a URL (mdurl's encode set); `%XX` escapes already there are kept too.
_URL_UNSAFE_RE = re.compile(r"%(?![0-9a-fA-F]{2})|[^A-Za-z0-9;/?:@&=+$,\-_.!~*'()#%]+")
_IPV6_RE = re.compile(r"https?://(?:[^@/?#\[\]]*@)?\[[0-9A-Fa-f:.]+\]", re.IGNORECASE)
_HOST_RE = re.compile(r"((?:https?|mailto):|(?=//))(//)?([^@/?#]*@)?([^/?#:]*)", re.IGNORECASE)


def parser_source(md: str) -> str:
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
    for _ in range(_DEFINITION_ROUNDS):
        if "]:" not in md or not _DEFINITION_START_RE.search(md):
            break
        if not (definitions := PARSER.reference_definitions(md)):
            break
        # Spans are UTF-8 byte offsets of each `[label]:`; a backslash before its `[` keeps it text. Repeated
        # because a definition whose label was already defined is not reported until the first is gone (the
        # text rule, renderers/usertext.py, leaves no definition in a person's text: this is for our own).
        data = md.encode()
        pieces: list[bytes] = []
        previous = 0
        for start in sorted(data.index(b"[", d["span"]["start"]) for d in definitions.values()):
            pieces += [data[previous:start], b"\\"]
            previous = start
        md = b"".join([*pieces, data[previous:]]).decode()
    return md


def written(data: dict[str, Any]) -> tuple[str, str]:
    """The Markdown around a refused link's text, as written (approximately, for a `[text](target)`)."""
    url = data["dest_url"]
    if data["link_type"] in ("Autolink", "Email"):
        return "<", ">"
    title = f' "{data["title"]}"' if data["title"] else ""
    return "[", f"]({url}{title})"


@functools.lru_cache(maxsize=1024)
def normalize_link(url: str) -> str:
    """A link target percent-encoded and its host punycoded, as CommonMark renderers write it."""
    if not url.isascii():
        match = _HOST_RE.match(url)
        if match and not match.group(4).isascii():
            try:
                host = ".".join(
                    label if label.isascii() else "xn--" + label.encode("punycode").decode()
                    for label in match.group(4).split(".")
                )
            except UnicodeError:
                pass
            else:
                url = url[: match.start(4)] + host + url[match.end(4) :]
    if ip := _IPV6_RE.match(url):  # `http://[::1]/`: the brackets belong to the host
        return ip.group(0) + _URL_UNSAFE_RE.sub(_percent, url[ip.end() :])
    return _URL_UNSAFE_RE.sub(_percent, url)


def _percent(match: re.Match[str]) -> str:
    return "".join(f"%{b:02X}" for b in match.group(0).encode())
