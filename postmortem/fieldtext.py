"""Text a person typed (a modal input or a thread answer) read as DESIGN §2 field values, and written back."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from typing import Any, get_args

from postmortem.limits import check_structure
from postmortem.model import (
    TEXT_FIELDS,
    TICKET_RE,
    Destination,
    InputError,
    Lang,
    PostMortem,
    WhyMissedCategory,
)
from postmortem.sections import WHY_MISSED_LABELS

#: Slack's `plain_text_input` max_length: the most one modal input can hold (NOTES, Slack limits).
MODAL_MAX_CHARS = 3_000
#: The most one thread answer may set a field to: Slack's `markdown` block limit, so the field still
#: fits one draft message. Longer than the modal's limit on purpose: logs in `symptom` can be long.
THREAD_MAX_CHARS = 12_000

#: DESIGN §2 order, from the model itself (`action_items_none` is set through `action_items`).
FIELD_ORDER: tuple[str, ...] = tuple(f for f in PostMortem.model_fields if f != "action_items_none")

#: Fields a person may set with `<field>: <text>` in the thread: all of §2. `ticket` included, since
#: the Edit modal can change it too and every revision is a new version that needs its own approval.
ANSWERABLE_FIELDS: tuple[str, ...] = FIELD_ORDER

DESTINATIONS: tuple[str, ...] = get_args(Destination)
LANGS: tuple[str, ...] = get_args(Lang)
WHY_MISSED_CATEGORIES: tuple[str, ...] = get_args(WhyMissedCategory)

#: How the destinations are called in the modal and accepted in a thread answer.
DESTINATION_LABELS: dict[str, dict[str, str]] = {
    "jira_comment": {"en": "Jira comment", "ja": "Jira コメント"},
    "pr_description": {"en": "PR description (Markdown file)", "ja": "PR の説明（Markdown ファイル）"},
    "docs_file": {"en": "docs/postmortems/ file", "ja": "docs/postmortems/ のファイル"},
    "wiki": {"en": "Wiki page (Markdown file)", "ja": "Wiki ページ（Markdown ファイル）"},
}

#: How the languages are called, in each language.
LANG_LABELS: dict[str, dict[str, str]] = {
    "en": {"en": "English", "ja": "英語"},
    "ja": {"en": "Japanese", "ja": "日本語"},
}

#: The select-like fields: value → label per language. Values are the §2 literals.
CHOICE_LABELS: dict[str, dict[str, dict[str, str]]] = {
    "why_missed_category": WHY_MISSED_LABELS,
    "destination": DESTINATION_LABELS,
    "lang": LANG_LABELS,
}

#: Words for the scope flags (compared after `_norm`).
_YES = frozenset({"yes", "y", "true", "on", "はい", "あり"})
_NO = frozenset({"no", "n", "false", "off", "いいえ", "なし"})
#: The explicit "no action items" word, English or Japanese.
_NONE_WORDS = frozenset({"none", "なし", "無し"})

_BULLET_RE = re.compile(r"^(?:・\s*|[-*•](?:\s+|$)|\d{1,3}[.)](?:\s+|$))")
_PIPE_RE = re.compile(r"(?<!\\)\|")
_BROWSE_RE = re.compile(r"/browse/([A-Za-z][A-Za-z0-9_]*-\d+)")
_TRAILING_PUNCT = ".。!,、 "

_MESSAGES: dict[str, dict[str, str]] = {
    "too_long": {"en": "{n} characters; at most {limit} fit here",
                 "ja": "{n} 文字あります。ここに入るのは {limit} 文字までです"},
    "empty": {"en": "the answer is empty", "ja": "回答が空です"},
    "unknown_field": {"en": "not a field that can be set; one of: {choices}",
                      "ja": "設定できる項目ではありません。次のいずれかです: {choices}"},
    "choice": {"en": "{value!r} is not one of: {choices}",
               "ja": "{value!r} は次のいずれでもありません: {choices}"},
    "yes_no": {"en": "answer yes or no", "ja": "「はい」か「いいえ」で答えてください"},
    "ticket": {"en": "{value!r} is not a Jira issue key: expected a key like PROJ-123",
               "ja": "{value!r} は Jira の課題キーではありません。PROJ-123 のような形式で入力してください"},
    "ticket_missing": {"en": "enter the Jira issue key of the bug, like PROJ-123",
                       "ja": "バグの Jira 課題キーを入力してください（例: PROJ-123）"},
    "item_parts": {"en": "line {line}: {parts} parts; at most 3 (what | owner | tracking), write \\| for a | "
                         "inside a part",
                   "ja": "{line} 行目: {parts} 個に分かれています。最大 3 個（内容 | 担当 | 追跡）です。"
                         "項目内の | は \\| と書いてください"},
    "item_what": {"en": "line {line}: the item itself (before the first |) is empty",
                  "ja": "{line} 行目: 項目の内容（最初の | の前）が空です"},
    "item_none": {"en": "line {line}: 'none' must be the only line when there are no action items",
                  "ja": "{line} 行目: 「なし」は対応項目がないときに 1 行だけで書いてください"},
}


def message(key: str, lang: str, **params: Any) -> str:
    """One user-facing error sentence in the session's language (English when the language is unknown)."""
    texts = _MESSAGES[key]
    return texts.get(lang, texts["en"]).format(**params)


def updates_from_text(
    field: str, text: str, *, lang: str = "en", limit: int = THREAD_MAX_CHARS
) -> dict[str, Any]:
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
    if field in ("customer_impacting", "trivial"):
        return {field: yes_no(field, text, lang=lang)}
    return {field: choice_from_text(field, text, lang=lang)}


def ticket_from_text(text: str, *, lang: str = "en") -> str:
    """A Jira issue key from a key as typed (any case) or a `/browse/KEY` link; InputError otherwise."""
    raw = text.strip().strip("`<>")
    found = _BROWSE_RE.search(raw)
    key = (found.group(1) if found else raw).upper()
    if not TICKET_RE.match(key):
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
