"""The reminder before an idle session expires, and the notice when it does (pure Block Kit)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from postmortem.messages import say
from postmortem.model import Lang
from renderers.mrkdwn import escape_mrkdwn
from renderers.prompts import ACTION_CANCEL, ACTION_EDIT
from sessions.session import CANCELLABLE_STATES, Session, editable

Message = dict[str, Any]

#: Each unit's size in seconds and its catalogue entries (`duration_<unit>`, `duration_<unit>s` for many).
_UNITS: tuple[tuple[float, str], ...] = ((86400, "day"), (3600, "hour"), (60, "minute"), (1, "second"))


def duration(seconds: float, lang: Lang) -> str:
    """A length of time in the largest whole unit that fits: "14 days", "3 hours", 「14 日間」."""
    for size, unit in _UNITS:
        if seconds >= size or size == 1:
            count = max(1, round(seconds / size))
            return say(f"duration_{unit}" if count == 1 else f"duration_{unit}s", lang, count=count)
    raise AssertionError("unreachable")


def when(epoch: float) -> str:
    """A moment as Slack shows it in each reader's own time zone (with a UTC fallback for other clients)."""
    fallback = datetime.fromtimestamp(epoch, tz=UTC).strftime("%Y-%m-%d %H:%M UTC")
    return f"<!date^{int(epoch)}^{{date_short_pretty}} {{time}}|{fallback}>"


def reminder(session: Session, *, expires_at: float) -> Message:
    """One reminder, in the thread: Resume (Edit) where an edit is allowed, and Cancel."""
    lang = session.lang
    key = "reminder" if editable(session) else "reminder_no_edit"
    text = say(key, lang, user=session.requester, ticket=escape_mrkdwn(session.ticket), when=when(expires_at))
    elements = []
    if editable(session):
        elements.append(
            {
                "type": "button",
                "action_id": ACTION_EDIT,
                "value": session.id,
                "style": "primary",
                "text": {"type": "plain_text", "text": say("button_resume", lang)},
            }
        )
    if session.state in CANCELLABLE_STATES:
        elements.append(
            {
                "type": "button",
                "action_id": ACTION_CANCEL,
                "value": session.id,
                "style": "danger",
                "text": {"type": "plain_text", "text": say("button_cancel", lang)},
            }
        )
    blocks: list[dict[str, Any]] = [{"type": "section", "text": {"type": "mrkdwn", "text": text}}]
    if elements:
        blocks.append({"type": "actions", "block_id": f"reminder_{session.id}", "elements": elements})
    return {"text": text, "blocks": blocks}


def expired(session: Session, *, idle_seconds: float) -> Message:
    """The notice that replaces silence when an idle session expires."""
    text = say("expired", session.lang, ticket=escape_mrkdwn(session.ticket), days=duration(idle_seconds, session.lang))
    return {"text": text, "blocks": [{"type": "section", "text": {"type": "mrkdwn", "text": text}}]}
