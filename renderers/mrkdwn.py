"""Markdown lines as Slack mrkdwn: links, bold, strike and code spans translated; the person's text escaped.

`&`, `<` and `>` in their text are escaped, so `<!channel>`, `<!here>`, `<@U123>` and `<https://x|y>` show as
typed; the only `<...>` sequences in the output are links built here from http(s)/mailto URLs.
"""

from __future__ import annotations

import bisect
import re

# Markdown we translate to mrkdwn: [text](url), <url>, **bold**, ~~strike~~ and code spans (kept as they are).
# Read by a scan (_mrkdwn_segment) that does in linear time what this one regex did, to the character:
#   (?P<code>(?P<ticks>`+).+?(?P=ticks)) | \[(?P<ltext>...)\]\((?P<lurl>...)\) | <(?P<auto>...)> | \*\*...\*\* | ~~...~~
# The regex took cubic time on a line of backticks (12,000 of them: two minutes) and quadratic time on many
# `**` or `~~` that never close; each alternative starts with its own character, so each is found on its own.
_START_RE = re.compile(r"[`\[<]|\*\*|~~")
_LINK_RE = re.compile(r"\[(?P<ltext>[^\[\]\n]+)\]\((?P<lurl>(?:https?://|mailto:)[^\s()<>]+)\)")
_AUTO_RE = re.compile(r"<(?P<auto>(?:https?://|mailto:)[^\s<>]+)>")
_TICKS_RE = re.compile(r"`+")
#: Where `**` / `~~` can close a span: right after a non-blank character.
_CLOSERS_RE = {"*": re.compile(r"(?<=\S)(?=\*\*)"), "~": re.compile(r"(?<=\S)(?=~~)")}


def escape_mrkdwn(text: str) -> str:
    """Neutralise `&`, `<` and `>` so no text can become a mention, a channel ping or a link in Slack."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


#: The Slack markup the bot's own sentences use on purpose: a mention, a channel, `<!here>`, a link.
_OWN_MARKUP_RE = re.compile(r"<(?:[@#!][^<>]*|(?:https?|mailto):[^<>]*)>")
_BARE_AMP_RE = re.compile(r"&(?!(?:amp|lt|gt);)")


def escape_own(text: str) -> str:
    """One of the bot's own sentences as mrkdwn: what it shows literally (`<field>: <text>`, a bare `&`) is
    escaped so Slack never reads it as a link or a mention; the markup it uses on purpose is kept. Its
    parameters are escaped before they are filled in (`escape_mrkdwn`), and are not escaped twice."""
    out: list[str] = []
    pos = 0
    for markup in _OWN_MARKUP_RE.finditer(text):
        out += [_literal(text[pos : markup.start()]), markup.group(0)]
        pos = markup.end()
    out.append(_literal(text[pos:]))
    return "".join(out)


def _literal(text: str) -> str:
    return _BARE_AMP_RE.sub("&amp;", text).replace("<", "&lt;").replace(">", "&gt;")


def _link(url: str, label: str | None = None) -> str:
    """A Slack link built by us: the URL escaped and without `|`, the label escaped."""
    target = escape_mrkdwn(url).replace("|", "%7C")
    return f"<{target}|{escape_mrkdwn(label)}>" if label else f"<{target}>"


def mrkdwn_line(line: str) -> str:
    """One line of Markdown as mrkdwn: links, bold and strike translated, everything else escaped."""
    if "\n" not in line:
        return _mrkdwn_segment(line)
    return "\n".join(map(_mrkdwn_segment, line.split("\n")))  # no span crosses a line break


def _mrkdwn_segment(line: str) -> str:
    """mrkdwn_line for text without line breaks: one pass over the places where a span can start."""
    out: list[str] = []
    pos = scan = 0  # text before `pos` is written out; the next span is looked for from `scan`
    code = _CodeSpans(line) if "`" in line else None
    closers: dict[str, list[int]] = {}
    while match := _START_RE.search(line, scan):
        start = match.start()
        char = line[start]
        piece: str | None = None
        end = start
        if char == "`":
            assert code is not None
            code_end, scan = code.at(start)
            if code_end is None:
                continue
            end, piece = code_end, escape_mrkdwn(line[start:code_end])
        elif char == "[":
            if link := _LINK_RE.match(line, start):
                end, piece = link.end(), _link(link.group("lurl"), link.group("ltext"))
        elif char == "<":
            if auto := _AUTO_RE.match(line, start):
                end, piece = auto.end(), _link(auto.group("auto"))
        else:  # ** or ~~
            if char not in closers:
                closers[char] = [m.start() for m in _CLOSERS_RE[char].finditer(line)]
            close = _closing(line, start, closers[char])
            if close is not None:
                inner = mrkdwn_line(line[start + 2 : close])
                end, piece = close + 2, f"*{inner}*" if char == "*" else f"~{inner}~"
        if piece is None:
            scan = start + 1
            continue
        out.append(escape_mrkdwn(line[pos:start]))
        out.append(piece)
        pos = scan = end
    out.append(escape_mrkdwn(line[pos:]))
    return "".join(out)


def _closing(line: str, start: int, closers: list[int]) -> int | None:
    r"""Where the `**x**` / `~~x~~` opened at `start` closes, as `\*\*(\S(?:.*?\S)?)\*\*` finds it, or None.

    The text must start with a non-blank; the regex tries the shortest text of two characters or more
    ending in a non-blank first (the optional group is greedy), and a text of one character last.
    """
    if start + 2 >= len(line) or line[start + 2].isspace():
        return None
    i = bisect.bisect_left(closers, start + 4)
    if i < len(closers):
        return closers[i]
    return start + 3 if line.startswith(line[start] * 2, start + 3) else None


class _CodeSpans:
    """Code spans as `(`+).+?(?P=ticks)` finds them at a given backtick, in time linear in the line.

    At a backtick with r backticks from it to the end of its run, the regex tries k = r, r-1, ... backticks
    and, for each, the first k backticks at least one character further on. A later run of k or more gives
    that closer; failing that, k <= (r-1)//2 closes inside the run itself (for r >= 3); else (r <= 2, no
    backtick later) no span starts in the rest of the run. The scan resumes after each span, so the walk
    to the closing run never goes back over a run.
    """

    def __init__(self, line: str) -> None:
        self.runs = [(m.start(), m.end()) for m in _TICKS_RE.finditer(line)]
        self.longest_after = [0] * (len(self.runs) + 1)  # longest run after run i
        for i in range(len(self.runs) - 1, 0, -1):
            start, end = self.runs[i]
            self.longest_after[i - 1] = max(self.longest_after[i], end - start)
        self.run = 0  # the run being read (positions only move forward)

    def at(self, pos: int) -> tuple[int | None, int]:
        """(end of the span starting at `pos`, or None; where to look on from)."""
        while self.runs[self.run][1] <= pos:
            self.run += 1
        run_end = self.runs[self.run][1]
        r = run_end - pos
        k = min(r, self.longest_after[self.run])
        if k >= (r - 1) // 2 + 1:
            j = self.run + 1
            while self.runs[j][1] - self.runs[j][0] < k:
                j += 1
            self.run = j
            end = self.runs[j][0] + k
            return end, end
        if r >= 3:
            end = pos + 2 * ((r - 1) // 2) + 1
            return end, end
        return None, run_end
