"""Golden files, a full post-mortem to put hostile values into, and how Markdown reads back: shared by the
renderers' tests (Markdown, ADF, Slack, the Jira request)."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pyromark

from postmortem.model import PostMortem
from renderers.markdown import render_markdown, section_bodies

GOLDEN = Path(__file__).resolve().parent.parent / "golden"
STEMS = ["cache-eviction.en", "tada-hang.ja", "refused-missing.en"]


def blocks(md: str) -> list[tuple[str, str]]:
    """(kind, text) of each top-level block, read as renderers/adf.py reads it: CR line ends normalised first."""
    found: list[tuple[str, str]] = []
    depth = 0
    event: Any
    for event in pyromark.events(re.sub(r"\r\n?", "\n", md)):
        if isinstance(event, str):  # a rule or a break
            if depth == 0:
                found.append((event, ""))
            continue
        ((kind, value),) = event.items()
        if kind == "Start":
            if depth == 0:
                found.append((value if isinstance(value, str) else next(iter(value)), ""))
            depth += 1
        elif kind == "End":
            depth -= 1
        elif kind in ("Text", "Code") and depth:
            found[-1] = (found[-1][0], found[-1][1] + value)
    return found


def check_golden(path: Path, actual: str) -> None:
    """Compare with a golden file; UPDATE_GOLDEN=1 rewrites it instead."""
    if os.environ.get("UPDATE_GOLDEN") == "1" or not path.exists():
        path.write_text(actual, encoding="utf-8")
    assert actual == path.read_text(encoding="utf-8")


#: A post-mortem with all nine sections, whose fields inline values are put into one at a time.
FULL: dict[str, Any] = {
    "ticket": "A-1",
    "summary": "s",
    "owner": "Alex",
    "symptom": "sy",
    "root_cause": "`rc`",
    "why_symptom": "ws",
    "fix_ref": "https://x.example/pull/3",
    "fix": "f",
    "how_found": "hf",
    "why_missed": "wm",
    "validation": "v",
    "validation_scope": "x86",
    "action_items": [{"what": "Add a test", "owner": "Bo", "tracking": "A-2"}],
}


#: Fields whose value goes inside one of our lines ("item_*": the first action item's), and values that would
#: open a block if they started a line of their own.
INLINE_FIELDS = ["owner", "fix_ref", "validation_scope", "item_owner", "item_tracking", "item_what"]


BLOCK_OPENERS = ["\n```", "\n~~~", "\n<!--", "\n<pre>", "\n# heading", "\n- item", "\n> quote", "\r```", "\r\n<!--"]


def with_field(field: str, value: str, lang: str = "en") -> PostMortem:
    data = {**FULL, "lang": lang, "action_items": [dict(FULL["action_items"][0])]}
    if field.startswith("item_"):
        data["action_items"][0][field[5:]] = value
    else:
        data[field] = value
    return PostMortem.model_validate(data)


def headings(md: str) -> list[str]:
    return [text for kind, text in blocks(md) if kind == "Heading"]


def section_headings(pm: PostMortem) -> list[str]:
    """The headings as the Slack preview shows them: the title, then each section with its body read alone."""
    found = [title_of(pm)]
    for _key, heading, body in section_bodies(pm):
        found += [heading, *headings(body)]
    return found


def title_of(pm: PostMortem) -> str:
    return render_markdown(pm).split("\n", 1)[0][2:]
