"""Fix references (`fix_ref`): find the PR / MR URLs, `owner/repo#N`, `#N`, commit SHAs and branches in text."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

RefKind = Literal["url", "repo_pr", "pr", "commit", "branch", "change"]

#: What ends a URL: blanks and brackets, quotes, invisible and direction characters, Japanese and full-width
#: punctuation and hiragana (「https://…/pull/5751を参照」 names pull/5751).
NOT_IN_URL = (
    r"\s<>()\[\]`\"\u00ad\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\u3000-\u303f\u3041-\u309f"
    r"\uff01-\uff0f\uff1a-\uff20\uff3b-\uff40\uff5b-\uff65"
)

# One alternation, tried left to right at each position, so a URL is never also read as a SHA or branch. Every
# alternative starts at `#`, `!`, `.`, `-`, a word's start, `http` or a Japanese keyword: the lookahead first lets
# the engine pass every other position at the cost of one test (a third of the time on a long text).
_REF_RE = re.compile(
    r"(?=[#!.\-]|\b\w|(?<=[^\x00-\x7f])[0-9A-Za-z]|https?://|リビジョン|チェンジリスト)"
    rf"(?:(?P<url>https?://[^{NOT_IN_URL}]+[^{NOT_IN_URL}.,;:!?'])"
    r"|(?P<repo_pr>(?<![\w.-])[\w.-]+/[\w.-]+[#!]\d+(?![0-9A-Za-z_])|(?<![\w./-])[A-Za-z][\w.-]*[A-Za-z0-9][#!]\d+(?![0-9A-Za-z_]))"
    # Not a CI run or build's number: "CI run #8812", "build #88", "job #4".
    r"|(?P<pr>(?<![\w/])(?<!run )(?<!build )(?<!job )(?<!pipeline )(?<!workflow )[#!]\d+(?![0-9A-Za-z_]))"
    # After "branch", a name only when it looks like one: in backticks, or with a separator or a digit.
    r"|(?:\bbranch(?:\s*[:=]\s*|\s+)(?:`(?P<named_branch>[^`\s]+)`|(?P<bare_branch>[\w.-]*[/_.\d-][\w./-]*\w)))"
    # Not a file's path: "feeder/schedule.py" names a file, not a branch.
    r"|(?P<branch>(?<![\w/.-])(?![\w./-]*\.(?:py|c|h|cc|cpp|hpp|js|ts|tsx|go|rs|java|kt|rb|php|cs|swift|ya?ml|json"
    r"|toml|ini|cfg|md|txt|sh|sql|proto|html|css)(?![\w/-]))[\w.-]{2,}/[\w./-]*\w(?![\w/#!]))"
    r"|(?P<change>(?:\b(?:CL|changelist|change|revision|rev\.?|svn)|リビジョン|チェンジリスト)\s*[#:]?\s*r?\d{3,}(?![0-9A-Za-z_])"
    # Gerrit's Change-Id, Phabricator's differential revision.
    r"|\b(?:Change-Id|(?:gerrit\s+)?change)\s*:?\s*I[0-9a-f]{7,40}\b"
    r"|\b(?:(?:phabricator|differential)(?:\s+(?:revision|diff)|\s*の)?|revision|diff)\s*[#:]?\s*D\d{2,}\b"
    # Phabricator's commit: the repository's callsign, then the hash ("rGAME3f9e1c2").
    r"|(?-i:\br[A-Z]{2,12}[0-9a-f]{7,40}\b))"
    r"|(?P<commit>(?<![0-9A-Za-z_])(?=[0-9a-f]*[0-9])(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}(?![0-9A-Za-z_])))",
    re.IGNORECASE,
)


#: Words that have the shape of a branch but say there is none.
_PLACEHOLDERS = {"and/or", "tbd/tbc", "n/a", "none/tbd"}


@dataclass(frozen=True)
class FixRef:
    """One reference to the fix: its kind, the text as the person wrote it, and a URL when it is one."""

    kind: RefKind
    text: str

    @property
    def url(self) -> str | None:
        return self.text if self.kind == "url" else None


def find_fix_refs(text: str | None) -> list[FixRef]:
    """Every real-shaped reference in `text`, in order, without duplicates. "TBD" or "will fix" find none."""
    return list(_fix_refs(text or ""))


@lru_cache(maxsize=64)
def _fix_refs(text: str) -> tuple[FixRef, ...]:
    """`find_fix_refs`, found once per text: the gate reads a `fix_ref` for issues, placeholders and what is still
    to come, and the Markdown links the same text."""
    refs: list[FixRef] = []
    seen: set[tuple[str | None, str]] = set()
    for match in _REF_RE.finditer(text):
        kind = match.lastgroup
        value = match.group(kind or 0)
        if kind in ("named_branch", "bare_branch"):
            kind = "branch"
        if kind == "branch" and value.lower() in _PLACEHOLDERS or (kind, value) in seen:
            continue
        seen.add((kind, value))
        refs.append(FixRef(kind, value))  # type: ignore[arg-type]
    return tuple(refs)
