"""The one rule for which link targets become links (DESIGN §2): http(s) with a host, or mailto with an address.

Everything else stays text, link text included: relative paths, bare words, `data:`, app schemes such as
`vscode://` or `intent:`, protocol-relative `//host`. Atlassian's ADF validator refuses several of those,
and Jira may answer a comment holding them with 400, so the renderers and the security checks
use this one function.
"""

from __future__ import annotations

import re

#: `http://` or `https://` followed by a host (a character that is no delimiter), or `mailto:` and an address.
_SAFE_RE = re.compile(r"(?:https?://[^\s/?#@\\]|mailto:[^\s@/]+@[^\s@]+)", re.IGNORECASE)


def is_safe_href(url: str) -> bool:
    """True when `url` may be a link target: http(s) with a host, or mailto with an address."""
    return bool(_SAFE_RE.match(url.strip()))
