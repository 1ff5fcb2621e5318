"""The demo's transcript: which catalogue message the bot sent, and how each line of the narration reads.

Kept apart from the conversation player (bot/demo.py): this part only reads text and writes lines, it
drives nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from emulators.jira_records import JiraComment, PostAttempt
from postmortem.messages import FIELD_LABELS, say
from postmortem.model import Lang

#: Catalogue messages the transcript recognises; those in FAILURES end the demo with exit 1.
KEYS = (
    "parent",
    "missing_intro",
    "ask_field_as",
    "ask_field_next",
    "ask_optional_as",
    "scope_stop",
    "rendering",
    "lint_header",
    "body_shown",
    "approve_question",
    "posting",
    "posted",
    "offer_handoff",
    "followup_bodies_shown",
    "followups_created",
    "answer_rejected",
    "declined",
    "cancelled",
    "post_failed",
    "render_failed",
    "unavailable",
    "session_gone",
    "stale_approval",
    "already_approved",
    "unknown_field",
    "frozen",
    "revise_hint_as",
    "output_only",
)
FAILURES = frozenset(KEYS[KEYS.index("answer_rejected") :])
#: Shown in full: what the bot asks, and its tone notes; the rest is cut to its first line.
SHOWN_IN_FULL = frozenset(
    {
        "missing_intro",
        "ask_field_as",
        "ask_field_next",
        "ask_optional_as",
        "scope_stop",
        "approve_question",
        "lint_header",
    }
)
#: The questions that ask for one field, and those that ask for a usually-included one.
ASK_FIELD = frozenset({"ask_field_as", "ask_field_next"})
ASK_OPTIONAL = frozenset({"ask_optional_as"})


@dataclass(frozen=True)
class Event:
    """One line of the transcript: `kind` (command, modal, bot, reply, file, jira, link, offer, output)."""

    kind: str
    key: str = ""
    text: str = ""


def recognise(text: str) -> tuple[str | None, dict[str, str]]:
    """Which catalogue message this is (either language) and its parameters; (None, {}) for the draft itself."""
    for key in KEYS:
        for lang in ("en", "ja"):
            if match := _pattern(key, lang).fullmatch(text):
                return key, {k: v for k, v in match.groupdict().items() if v is not None}
    return None, {}


_PATTERNS: dict[tuple[str, str], re.Pattern[str]] = {}


def _pattern(key: str, lang: Lang) -> re.Pattern[str]:
    """The catalogue text as a regex: its `{params}` become groups (found by asking `say` for them)."""
    if (key, lang) not in _PATTERNS:
        params: dict[str, str] = {}
        while True:
            try:
                text = say(key, lang, **params)
                break
            except KeyError as exc:
                params[str(exc.args[0])] = f"\x00{exc.args[0]}\x00"
        regex, named = "", set()
        for i, piece in enumerate(re.split(r"\x00(\w+)\x00", text)):
            if i % 2 == 0:
                regex += re.escape(piece)
            else:
                regex += f"(?P={piece})" if piece in named else f"(?P<{piece}>.*?)"
                named.add(piece)
        _PATTERNS[key, lang] = re.compile(regex + r"(?:\n.*)?", re.DOTALL)
    return _PATTERNS[key, lang]


def asked_field(params: dict[str, str]) -> str:
    """The field a question asks for, from its parameters (the id, or the label a Japanese question shows)."""
    named = params.get("field") or params.get("reply_as", "")
    by_label = {label: field for field, labels in FIELD_LABELS.items() for label in labels.values()}
    return by_label.get(named, named)


def bot_line(key: str, text: str) -> str:
    """A catalogue message in the thread: what the bot asks in full, anything else cut to its first line."""
    return f"[thread] bot: {indent(text if key in SHOWN_IN_FULL else short(text))}"


def jira_line(post: PostAttempt, stored: JiraComment | None) -> str:
    """One POST Jira received; for a stored comment, its id and the marker property the bot set on it."""
    line = f"[jira] POST {post.path} ({len(post.body):,} bytes) → {post.status}"
    if stored is not None and post.path.endswith("/comment"):
        marker = stored.property_map.get("postmortem-bot") or {}
        line += (
            f", comment id {stored.id}; property postmortem-bot: session {marker.get('session')}, "
            f"v{marker.get('version')}, sha256 {str(marker.get('sha256'))[:12]}…"
        )
    return line


def short(text: str, limit: int = 100) -> str:
    """The first line, cut at `limit` characters; ` …` says something was left out."""
    lines = text.strip().splitlines() or [""]
    first = lines[0]
    return first if len(first) <= limit and len(lines) == 1 else first[:limit].rstrip() + " …"


def indent(text: str) -> str:
    """Continuation lines indented under the line's label."""
    return text.replace("\n", "\n    ")
