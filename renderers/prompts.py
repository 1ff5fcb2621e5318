"""The bot's own Slack messages (questions, notices, buttons) as Block Kit data, built from the message catalogue."""

from __future__ import annotations

import re
from typing import Any

from postmortem.field_table import REGISTRY
from postmortem.messages import field_label, reply_as, say
from postmortem.model import Lang
from postmortem.sections import ACTION_ITEMS_NONE
from renderers.mrkdwn import escape_mrkdwn, escape_own

Message = dict[str, Any]

#: Button action ids (handlers listen for these); each button's value is the session id.
ACTION_EDIT = "postmortem_edit"
ACTION_CANCEL = "postmortem_cancel"
ACTION_RETRY = "postmortem_retry"
ACTION_HANDOFF = "postmortem_handoff"
#: A question's answer controls (DESIGN §4 "Modal"): `postmortem_choose:<field>:<value>` buttons answer at once,
#: `postmortem_checks:<field>` checkboxes are read when `postmortem_done:<field>` is pressed. Values: session id.
ACTION_CHOOSE = "postmortem_choose"
ACTION_CHECKS = "postmortem_checks"
ACTION_DONE = "postmortem_done"
#: What the `action_items` question's button answers: the explicit none (docs/rules.md#the-sections-in-this-order).
_NONE_ANSWER = "none"

#: The questions about one field; each gets that field's answer controls (buttons, checkboxes) when it has any.
QUESTION_KEYS = frozenset({"ask_field_as", "ask_field_next", "ask_optional_as"})

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
    button: dict[str, Any] = {
        "type": "button",
        "text": {"type": "plain_text", "text": label},
        "action_id": action_id,
        "value": value,
    }
    if style:
        button["style"] = style
    return button


def notice(key: str, lang: Lang, **params: Any) -> Message:
    """One catalogued message as a single section; a question about a field (`ask_field`, `ask_optional`, with
    the `session` it belongs to) also gets that field's answer controls, if it has any."""
    text = escape_own(say(key, lang, **_safe(params, lang)))
    blocks = [_section(text)]
    if key in QUESTION_KEYS and params.get("session"):
        blocks += answer_controls(str(params["field"]), str(params["session"]), lang)
    return {"text": text, "blocks": blocks}


def answer_controls(field: str, session_id: str, lang: Lang) -> list[dict[str, Any]]:
    """One button an option, checkboxes and a Done button, or the explicit-none button; typing still works."""
    spec = REGISTRY.get(field)
    if spec is None:
        return []
    block_id = f"ask_{field}"
    if spec.ask == "buttons":
        buttons = [_button(o.label[lang], f"{ACTION_CHOOSE}:{field}:{o.value}", session_id) for o in spec.options]
        return [{"type": "actions", "block_id": block_id, "elements": buttons}]
    if spec.ask == "checkboxes":
        options = [{"text": {"type": "plain_text", "text": o.label[lang]}, "value": o.value} for o in spec.options]
        checks = {"type": "checkboxes", "action_id": f"{ACTION_CHECKS}:{field}", "options": options}
        done = _button(say("button_done", lang), f"{ACTION_DONE}:{field}", session_id, "primary")
        return [{"type": "actions", "block_id": block_id, "elements": [checks, done]}]
    if spec.ask == "items":
        none = _button(ACTION_ITEMS_NONE[lang], f"{ACTION_CHOOSE}:{field}:{_NONE_ANSWER}", session_id)
        return [{"type": "actions", "block_id": block_id, "elements": [none]}]
    return []


def answer_of_action(action_id: str, state: Any) -> tuple[str, list[str]] | None:
    """The field and the values an answer control gives: a button's option, or the boxes ticked when Done was
    pressed (read from the message's `state.values`). None for any other action."""
    kind, _, rest = action_id.partition(":")
    if kind == ACTION_CHOOSE:
        field, _, value = rest.partition(":")
        return (field, [value]) if field and value else None
    if kind != ACTION_DONE or not rest:
        return None
    values = state.get("values") if isinstance(state, dict) else None
    block = values.get(f"ask_{rest}") if isinstance(values, dict) else None
    checks = block.get(f"{ACTION_CHECKS}:{rest}") if isinstance(block, dict) else None
    chosen = checks.get("selected_options") if isinstance(checks, dict) else None
    picked = [o.get("value") for o in chosen or [] if isinstance(o, dict)]
    return rest, [v for v in picked if isinstance(v, str)]


def missing_list(missing: list[tuple[str, str]], lang: Lang) -> Message:
    """The refusal: every missing input with its reason, and no draft."""
    lines = [f"• {_named(f, lang)}{escape_mrkdwn(r)}" for f, r in missing]
    text = escape_own(say("missing_intro", lang)) + "\n" + "\n".join(lines)
    return {"text": text, "blocks": [_section(chunk) for chunk in _chunks(text)]}


def lint_warnings(warnings: list[tuple[str, str]], lang: Lang) -> Message:
    """Tone-lint notes, each naming its field; never edits."""
    lines = [f"• {_named(f, lang) if lang == 'ja' else f'`{f}`: '}{escape_mrkdwn(t)}" for f, t in warnings]
    text = escape_own(say("lint_header", lang, count=len(warnings))) + "\n" + "\n".join(lines)
    return {"text": text, "blocks": [_section(chunk) for chunk in _chunks(text)]}


def approval_question(session_id: str, *, ticket: str, version: int, lang: Lang) -> Message:
    """The last message of a draft: how to approve, and the Edit / Cancel buttons."""
    text = escape_own(say("approve_question", lang, version=version, ticket=escape_mrkdwn(ticket)))
    actions = {
        "type": "actions",
        "block_id": f"draft_v{version}",
        "elements": [
            _button(say("button_edit", lang), ACTION_EDIT, session_id),
            _button(say("button_cancel", lang), ACTION_CANCEL, session_id, "danger"),
        ],
    }
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
