"""What a debugging thread and its Jira issue already say, read without inventing (DESIGN §4 "Starting where the
debugging happened"): the one Jira key, fix links of a pull/merge request or commit shape, and code blocks copied
verbatim. Pure: text in, facts out; the reading of Slack and Jira happens in workers/prefill.py.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from rules.triggers import jira_keys

#: A URL in Slack text (`<https://…|label>` or bare) or in Jira text: RFC 3986 characters only, so the Japanese or
#: full-width punctuation written right after a link (「…」、。) is not part of it; trailing punctuation is not either.
_URL = re.compile(r"https?://[A-Za-z0-9\-._~:/?#\[\]@!$&()*+,;=%]+")
_TRAILING = ".,;:!?)]}*_~"

_SHA = r"[0-9a-fA-F]{7,40}"
_REST = r"(?:/[^?#]*)?$"
#: Hosts of the hosted forges; one of them followed by more labels (`github.com.example.net`) is not that forge.
_SAAS = ("github.com", "gitlab.com", "bitbucket.org")
#: (host, path) shapes of a pull/merge request or a commit: github.com or GitHub Enterprise (a host with a label
#: naming github, `ghe` or `git`), GitLab (its `/-/` paths on any host; the older paths without `/-/` on a host
#: naming gitlab), bitbucket.org, Bitbucket Data Center (`/projects/…/repos/` or `/users/…/repos/`, under an optional
#: context path). Issues, branches, trees, compares and CI runs are not fixes, nor `/pull/3` on other hosts.
_ANY_HOST = re.compile(r".")
_FIX_SHAPES = (
    (
        re.compile(r"(?:^|\.)(?:github[a-z0-9-]*|ghe(?:-[a-z0-9-]*)?|git(?:-[a-z0-9-]*)?)\."),
        re.compile(rf"^/[^/]+/[^/]+/(?:pull/\d+|commit/{_SHA}|pull/\d+/commits/{_SHA}){_REST}"),
    ),
    (_ANY_HOST, re.compile(rf"^/(?:[^/]+/)+-/(?:merge_requests/\d+|commit/{_SHA}){_REST}")),
    (
        re.compile(r"(?:^|\.)gitlab[a-z0-9-]*\."),
        re.compile(rf"^/(?:[^/]+/)+(?:merge_requests/\d+|commit/{_SHA}){_REST}"),
    ),
    (re.compile(r"(?:^|\.)bitbucket\.org$"), re.compile(rf"^/[^/]+/[^/]+/(?:pull-requests/\d+|commits/{_SHA}){_REST}")),
    (
        _ANY_HOST,
        re.compile(rf"^(?:/[^/]+)?/(?:projects|users)/[^/]+/repos/[^/]+/(?:pull-requests/\d+|commits/{_SHA}){_REST}"),
    ),
)

#: A Slack code block: between two fences of three backticks.
_SLACK_FENCE = re.compile(r"```(.*?)```", re.DOTALL)
#: Slack links a URL or an e-mail address even inside a code block (`<https://x>`, `<mailto:a@b|a@b>`); the person
#: sees (and typed) the label, or the URL when there is none. A `<` that was typed arrives escaped (`&lt;`).
_SLACK_LINK = re.compile(r"<((?:https?|mailto):[^<>|]*)(?:\|([^<>]*))?>")
#: Jira wiki markup's code and preformatted blocks (Data Center descriptions).
_WIKI_BLOCK = re.compile(r"\{(code|noformat)(?::[^}]*)?\}(.*?)\{\1\}", re.DOTALL)


@dataclass(frozen=True)
class Cut:
    """Text cut to fit an input: `text`, and the length before the cut (`total`) when it was cut."""

    text: str
    total: int | None = None


def unescape_slack(text: str) -> str:
    """Slack escapes three characters in message text; the verbatim text has them back."""
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")


def ticket_of(message_text: str, thread_texts: Iterable[str]) -> tuple[str | None, str | None]:
    """(the key, where from: `message` or `thread`): the one key the message names, else the one the thread names.
    Two different keys where the key is looked for give no key (nothing is guessed)."""
    return ticket_of_keys(jira_keys(message_text), [k for text in thread_texts for k in jira_keys(text)])


def ticket_of_keys(message_keys: Iterable[str], thread_keys: Iterable[str]) -> tuple[str | None, str | None]:
    """`ticket_of` over keys already read (the message's, then the thread's): one distinct key, or none."""
    named = list(dict.fromkeys(message_keys))
    if named:
        return (named[0], "message") if len(named) == 1 else (None, None)
    seen = list(dict.fromkeys(thread_keys))
    return (seen[0], "thread") if len(seen) == 1 else (None, None)


def urls_in(text: str) -> list[str]:
    """Every http(s) URL in the text, in order, once each."""
    found: list[str] = []
    for match in _URL.finditer(text or ""):
        url = match.group(0).rstrip(_TRAILING)
        if url not in found:
            found.append(url)
    return found


#: Where a Slack message keeps links besides its text: attachments (unfurls, apps' messages such as a forge's "pull
#: request merged") and blocks (rich text `link` elements, sections' text).
_LINK_KEYS = frozenset({"text", "url", "title_link", "from_url", "original_url", "pretext", "fallback", "value"})


def message_links(message: Mapping[str, Any]) -> list[str]:
    """Every http(s) URL of a Slack message, in its text, its attachments and its blocks, in order, once each."""
    parts = [str(message.get("text") or "")]

    def walk(node: Any) -> None:
        if isinstance(node, Mapping):
            for key, value in node.items():
                if key in _LINK_KEYS and isinstance(value, str):
                    parts.append(value)
                else:
                    walk(value)
        elif isinstance(node, list):
            for child in node:
                walk(child)

    walk([message.get("attachments"), message.get("blocks")])
    return urls_in(unescape_slack("\n".join(parts)))


def is_fix_url(url: str) -> bool:
    """Whether a URL has the shape of a pull or merge request or a commit (GitHub, GitLab, Bitbucket)."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return False
    if parts.scheme not in ("http", "https") or not parts.hostname or "@" in parts.netloc:
        return False  # a link carrying credentials (`https://user:token@host/…`) is never copied anywhere
    host = parts.hostname.lower()
    if any(f"{saas}." in f"{host}." and not f".{host}.".endswith(f".{saas}.") for saas in _SAAS):
        return False  # github.com.example.net: a look-alike of a hosted forge
    return any(on.search(host) and shape.match(parts.path) for on, shape in _FIX_SHAPES)


def fix_urls(urls: Iterable[str]) -> list[str]:
    """The fix-shaped URLs among these, in order, once each."""
    kept: list[str] = []
    for url in urls:
        if is_fix_url(url) and url not in kept:
            kept.append(url)
    return kept


def slack_code_blocks(text: str) -> list[str]:
    """The code blocks of a Slack message, verbatim: as the person sees them (Slack's links shown as their text, its
    escapes undone), the fences' own newlines dropped."""
    blocks = []
    for match in _SLACK_FENCE.finditer(text or ""):
        shown = _SLACK_LINK.sub(lambda m: m.group(2) or m.group(1), match.group(1))
        body = unescape_slack(shown).strip("\n")
        if body.strip():
            blocks.append(body)
    return blocks


def wiki_code_blocks(text: str) -> list[str]:
    """The `{code}` and `{noformat}` blocks of a Jira wiki-markup text (Data Center), verbatim."""
    return [m.group(2).strip("\n") for m in _WIKI_BLOCK.finditer(text or "") if m.group(2).strip()]


def adf_code_blocks(doc: Any) -> list[str]:
    """The `codeBlock` nodes of an ADF document (Jira Cloud), verbatim, in document order."""
    blocks: list[str] = []

    def walk(node: Any) -> None:
        if isinstance(node, Mapping):
            if node.get("type") == "codeBlock":
                text = "".join(str(c.get("text") or "") for c in node.get("content") or () if isinstance(c, Mapping))
                if text.strip():
                    blocks.append(text.strip("\n"))
                return
            for child in node.get("content") or ():
                walk(child)
        elif isinstance(node, list):
            for child in node:
                walk(child)

    walk(doc)
    return blocks


def description_code_blocks(description: Any) -> list[str]:
    """A Jira description's code blocks: an ADF document on Cloud, a wiki-markup string on Data Center."""
    if isinstance(description, str):
        return wiki_code_blocks(description)
    return adf_code_blocks(description)


def fenced(blocks: Iterable[str]) -> str:
    """Code blocks as Slack text: each between fences, one blank line apart."""
    return "\n\n".join(f"```\n{b}\n```" for b in blocks)


def cut_fenced(blocks: list[str], limit: int) -> Cut:
    """The blocks as fenced text within `limit` characters, cut at a line boundary (the open fence closed)."""
    whole = fenced(blocks)
    if len(whole) <= limit:
        return Cut(whole)
    lines = whole.split("\n")
    kept: list[str] = []
    size, inside = 0, False
    for line in lines:
        opening = line == "```" and not inside
        closing_cost = 0 if (line == "```" and inside) else (4 if (inside or opening) else 0)
        if size + len(line) + 1 + closing_cost > limit:
            break
        kept.append(line)
        size += len(line) + 1
        if line == "```":
            inside = not inside
    if inside:
        if kept and kept[-1] == "```":  # an empty block just opened: drop it
            kept.pop()
        else:
            kept.append("```")
    return Cut("\n".join(kept).rstrip("\n"), total=len(whole))
