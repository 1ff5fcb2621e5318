"""Text a person typed (a modal input or a thread answer) read as DESIGN §2 field values, and written back."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from typing import Any

from postmortem.field_table import REGISTRY
from postmortem.limits import check_structure
from postmortem.messages import say
from postmortem.model import TEXT_FIELDS, InputError, is_ticket

#: Slack's `plain_text_input` max_length: the most one modal input can hold (docs/platform-notes.md).
MODAL_MAX_CHARS = 3_000
#: The most one thread answer may set a field to: Slack's `markdown` block limit, so the field still
#: fits one draft message. Longer than the modal's limit on purpose: logs in `symptom` can be long.
THREAD_MAX_CHARS = 12_000

#: DESIGN §2 order, from the registry (`action_items_none` is set through `action_items`).
FIELD_ORDER: tuple[str, ...] = REGISTRY.names

#: Fields a person may set with `<field>: <text>` in the thread: all of §2. `ticket` included, since
#: the Edit modal can change it too and every revision is a new version that needs its own approval.
ANSWERABLE_FIELDS: tuple[str, ...] = FIELD_ORDER

#: The select-like fields: value → label per language. Values are the §2 literals (from the registry).
CHOICE_LABELS: dict[str, dict[str, dict[str, str]]] = REGISTRY.choices
#: The fields that take several options, typed separated by commas.
MULTI_CHOICE: frozenset[str] = frozenset(f.name for f in REGISTRY.fields if f.kind == "multiselect")

#: Words for the scope flags (compared after `_norm`).
_YES = frozenset({"yes", "y", "true", "on", "はい", "あり"})
_NO = frozenset({"no", "n", "false", "off", "いいえ", "なし"})
#: The explicit "no action items" word, English or Japanese.
_NONE_WORDS = frozenset({"none", "なし", "無し"})

_LIST_SEPARATORS_RE = re.compile(r"[,、，;；\n]+")
_BULLET_RE = re.compile(r"^(?:・\s*|[-*•](?:\s+|$)|\d{1,3}[.)](?:\s+|$))")
_PIPE_RE = re.compile(r"(?<!\\)\|")
_BROWSE_RE = re.compile(r"/browse/([A-Za-z][A-Za-z0-9_]*-\d+)")
_TRAILING_PUNCT = ".。!,、 "


def message(key: str, lang: str, **params: Any) -> str:
    """One user-facing error sentence in the session's language (English when the language is unknown); the
    sentences are the catalogue's `answer_<key>` entries (postmortem/messages.py)."""
    return say(f"answer_{key}", "ja" if lang == "ja" else "en", **params)


def updates_from_text(field: str, text: str, *, lang: str = "en", limit: int = THREAD_MAX_CHARS) -> dict[str, Any]:
    """The fields to set from one answer `<field>: <text>` (one answer may set two: `action_items`)."""
    if field not in ANSWERABLE_FIELDS:
        raise InputError(field, message("unknown_field", lang, choices=", ".join(ANSWERABLE_FIELDS)))
    text = text.strip()
    if len(text) > limit:
        raise InputError(field, message("too_long", lang, n=len(text), limit=limit))
    if not text:
        raise InputError(field, message("empty", lang))
    if field == "ticket":
        return {"ticket": ticket_from_text(text, lang=lang)}
    if field in TEXT_FIELDS:
        check_structure(field, text, "ja" if lang == "ja" else "en")
        return {field: text}
    if field == "action_items":
        items, none = parse_action_items(text, lang=lang)
        for item in items:
            check_structure(field, item["what"], "ja" if lang == "ja" else "en")
        return {"action_items": items, "action_items_none": none}
    if field in REGISTRY.flags:
        return {field: yes_no(field, text, lang=lang)}
    if field in MULTI_CHOICE:
        return {field: choices_from_text(field, text, lang=lang)}
    return {field: choice_from_text(field, text, lang=lang)}


def ticket_from_text(text: str, *, lang: str = "en") -> str:
    """A Jira issue key from a key as typed (any case) or a `/browse/KEY` link; InputError otherwise."""
    raw = text.strip().strip("`<>")
    found = _BROWSE_RE.search(raw)
    key = (found.group(1) if found else raw).upper()
    if not is_ticket(key):
        raise InputError("ticket", message("ticket", lang, value=text.strip()[:80]))
    return key


def choice_from_text(field: str, text: str, *, lang: str = "en") -> str:
    """A select field's §2 value from its value or its label in either language, case-insensitively."""
    labels = CHOICE_LABELS[field]
    wanted = _norm(text)
    for value, by_lang in labels.items():
        if wanted in {_norm(value), *(_norm(label) for label in by_lang.values())}:
            return value
    raise InputError(field, message("choice", lang, value=text.strip()[:80], choices=", ".join(labels)))


def choices_from_text(field: str, text: str, *, lang: str = "en") -> list[str]:
    """A multi-select field's §2 values from values or labels separated by commas (or 、, ;, lines), in the
    registry's order, each once."""
    parts = [part for part in _LIST_SEPARATORS_RE.split(text) if part.strip()]
    if not parts:
        choices = ", ".join(CHOICE_LABELS[field])
        raise InputError(field, message("choice", lang, value=text.strip()[:80], choices=choices))
    chosen = {choice_from_text(field, _BULLET_RE.sub("", part.strip()), lang=lang) for part in parts}
    return [value for value in CHOICE_LABELS[field] if value in chosen]


def yes_no(field: str, text: str, *, lang: str = "en") -> bool:
    """A scope flag from a yes/no word in English or Japanese."""
    word = _norm(text)
    if word in _YES:
        return True
    if word in _NO:
        return False
    raise InputError(field, message("yes_no", lang))


def parse_action_items(text: str, *, lang: str = "en") -> tuple[list[dict[str, str | None]], bool]:
    """Items typed one a line as `what | owner | tracking`, or the explicit `none`: (items, none)."""
    numbered = enumerate(text.splitlines(), 1)
    lines = [(n, _BULLET_RE.sub("", raw.strip())) for n, raw in numbered if raw.strip()]
    none_lines = [n for n, line in lines if _norm(line) in _NONE_WORDS]
    if none_lines:
        if len(lines) == 1:
            return [], True
        raise InputError("action_items", message("item_none", lang, line=none_lines[0]))
    items: list[dict[str, str | None]] = []
    for n, line in lines:
        parts = [part.strip().replace("\\|", "|") for part in _PIPE_RE.split(line)]
        if len(parts) > 3:
            raise InputError("action_items", message("item_parts", lang, line=n, parts=len(parts)))
        what, owner, tracking = (parts + ["", ""])[:3]
        if not what:
            raise InputError("action_items", message("item_what", lang, line=n))
        items.append({"what": what, "owner": owner or None, "tracking": tracking or None})
    return items, False


def format_action_items(items: Iterable[Any], none: bool = False, *, lang: str = "en") -> str:
    """The text `parse_action_items` reads back to the same items: prefills the Edit modal."""
    lines = []
    for item in items:
        parts = [_item_part(item, key) for key in ("what", "owner", "tracking")]
        while len(parts) > 1 and not parts[-1]:
            parts.pop()
        line = " |".join([parts[0], *(f" {part}" if part else "" for part in parts[1:])])
        # A lone item that reads as the "none" word keeps an empty owner so it stays an item.
        lines.append(f"{line} |" if len(parts) == 1 and _norm(line) in _NONE_WORDS else line)
    if lines:
        return "\n".join(lines)
    return ("なし" if lang == "ja" else "none") if none else ""


def _item_part(item: Any, key: str) -> str:
    value = item.get(key) if isinstance(item, Mapping) else getattr(item, key, None)
    if not isinstance(value, str):
        return ""
    # One item a line: a line break inside a part would split it, so it becomes a space.
    return " ".join(value.split()).replace("|", "\\|")


def _norm(text: str) -> str:
    """Compare words loosely: width, case, `_`/`-` as spaces, trailing punctuation."""
    text = unicodedata.normalize("NFKC", text).casefold().replace("_", " ").replace("-", " ")
    return " ".join(text.split()).strip(_TRAILING_PUNCT)
