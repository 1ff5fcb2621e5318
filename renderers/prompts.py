"""The bot's own Slack messages (questions, notices, buttons) as Block Kit data, built from the message catalogue."""

from __future__ import annotations

import re
from typing import Any

from postmortem.messages import field_label, reply_as, say
from postmortem.model import Lang
from renderers.mrkdwn import escape_mrkdwn

Message = dict[str, Any]

#: Button action ids (handlers listen for these); each button's value is the session id.
ACTION_EDIT = "postmortem_edit"
ACTION_CANCEL = "postmortem_cancel"
ACTION_RETRY = "postmortem_retry"
ACTION_HANDOFF = "postmortem_handoff"

_SLACK_ID = re.compile(r"^[UW][A-Z0-9]{2,20}$")


def _safe(params: dict[str, Any], lang: Lang) -> dict[str, Any]:
    """Escape every parameter that may carry a person's text; Slack user ids stay mentions."""
    safe: dict[str, Any] = {}
    for key, value in params.items():
        if key in ("user", "requester") and isinstance(value, str) and _SLACK_ID.match(value):
            safe[key] = value
        elif isinstance(value, str):
            safe[key] = escape_mrkdwn(value)
        else:
            safe[key] = value
    if "field" in params:
        safe["label"] = escape_mrkdwn(field_label(str(params["field"]), lang))
        safe["reply_as"] = escape_mrkdwn(reply_as(str(params["field"]), lang))
    return safe


def _named(field: str, lang: Lang) -> str:
    """A field named at the start of a line: its label (and its id in English), then the colon."""
    label = f"*{escape_mrkdwn(field_label(field, lang))}*"
    return f"{label}：" if lang == "ja" else f"{label} (`{field}`): "


def _section(text: str) -> dict[str, Any]:
    return {"type": "section", "text": {"type": "mrkdwn", "text": text[:3000]}}


def _button(label: str, action_id: str, value: str, style: str | None = None) -> dict[str, Any]:
    button: dict[str, Any] = {"type": "button", "text": {"type": "plain_text", "text": label},
                              "action_id": action_id, "value": value}
    if style:
        button["style"] = style
    return button


def notice(key: str, lang: Lang, **params: Any) -> Message:
    """One catalogued message as a single section."""
    text = say(key, lang, **_safe(params, lang))
    return {"text": text, "blocks": [_section(text)]}


def missing_list(missing: list[tuple[str, str]], lang: Lang) -> Message:
    """The refusal: every missing input with its reason, and no draft."""
    lines = [f"• {_named(f, lang)}{escape_mrkdwn(r)}" for f, r in missing]
    text = say("missing_intro", lang) + "\n" + "\n".join(lines)
    return {"text": text, "blocks": [_section(chunk) for chunk in _chunks(text)]}


def lint_warnings(warnings: list[tuple[str, str]], lang: Lang) -> Message:
    """Tone-lint notes, each naming its field; never edits."""
    lines = [f"• {_named(f, lang) if lang == 'ja' else f'`{f}`: '}{escape_mrkdwn(t)}" for f, t in warnings]
    text = say("lint_header", lang, count=len(warnings)) + "\n" + "\n".join(lines)
    return {"text": text, "blocks": [_section(chunk) for chunk in _chunks(text)]}


def approval_question(session_id: str, *, ticket: str, version: int, lang: Lang) -> Message:
    """The last message of a draft: how to approve, and the Edit / Cancel buttons."""
    text = say("approve_question", lang, version=version, ticket=escape_mrkdwn(ticket))
    actions = {"type": "actions", "block_id": f"draft_v{version}", "elements": [
        _button(say("button_edit", lang), ACTION_EDIT, session_id),
        _button(say("button_cancel", lang), ACTION_CANCEL, session_id, "danger"),
    ]}
    return {"text": text, "blocks": [_section(text), actions]}


def with_button(message: Message, key: str, action_id: str, session_id: str, lang: Lang) -> Message:
    """A message with one button under it (Retry after a failure, the hand-off offer)."""
    actions = {"type": "actions", "elements": [_button(say(key, lang), action_id, session_id, "primary")]}
    return {"text": message["text"], "blocks": [*message["blocks"], actions]}


def _chunks(text: str, size: int = 2900) -> list[str]:
    """Split at line ends so no section passes Slack's 3,000 characters; nothing is dropped."""
    chunks: list[str] = []
    current = ""
    for line in text.split("\n"):
        while len(line) > size:
            if current:
                chunks.append(current)
                current = ""
            chunks.append(line[:size])
            line = line[size:]
        candidate = f"{current}\n{line}" if current else line
        if len(candidate) > size:
            chunks.append(current)
            current = line
        else:
            current = candidate
    if current:
        chunks.append(current)
    return chunks or [" "]
