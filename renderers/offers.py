"""The "Start post-mortem" messages (a mention's answer, the offer after a fix, the assignee's DM) as Block Kit.

Every way in ends in one button; its click opens the same modal as `/post-mortem`. The button's value
carries what the click needs and nothing more: the Jira key to prefill (or none), the channel the session
should run in, the language, and (a mention's answer, an offer after a fix) the debugging thread's root ts, so the
click opens the message shortcut's prefilled modal reading that thread.
"""

from __future__ import annotations

import json
from typing import Any

from postmortem.messages import say
from postmortem.model import Lang
from renderers.mrkdwn import escape_mrkdwn

Message = dict[str, Any]

#: The action id of the Start button (handlers listen for it).
ACTION_START = "postmortem_start"


def start_value(*, ticket: str | None, channel: str, lang: Lang, thread: str | None = None) -> str:
    """The Start button's value: JSON with the key to prefill (or null), the session's channel, the language,
    and the debugging thread's root ts when the button knows it."""
    value: dict[str, str | None] = {"ticket": ticket, "channel": channel, "lang": lang}
    if thread:
        value["ts"] = thread
    return json.dumps(value, separators=(",", ":"))


def _with_start(text: str, *, ticket: str | None, channel: str, lang: Lang, thread: str | None = None) -> Message:
    button = {
        "type": "button",
        "style": "primary",
        "action_id": ACTION_START,
        "text": {"type": "plain_text", "text": say("start_button", lang)},
        "value": start_value(ticket=ticket, channel=channel, lang=lang, thread=thread),
    }
    blocks = [
        {"type": "section", "text": {"type": "mrkdwn", "text": text}},
        {"type": "actions", "block_id": ACTION_START, "elements": [button]},
    ]
    return {"text": text, "blocks": blocks}


def _say(key: str, ticket: str | None, lang: Lang) -> str:
    """A catalogue message naming the ticket (escaped) when there is one: `{for_ticket}` is `<key>_for`."""
    escaped = escape_mrkdwn(ticket) if ticket else ""
    for_ticket = say(f"{key}_for", lang, ticket=escaped) if escaped else ""
    return say(key, lang, ticket=escaped, for_ticket=for_ticket)


def requested(*, ticket: str | None, channel: str, lang: Lang, thread: str | None = None) -> Message:
    """The answer to a mention that asked for a post-mortem, posted in its thread (`thread`: that thread's root)."""
    text = _say("start_requested", ticket, lang)
    return _with_start(text, ticket=ticket, channel=channel, lang=lang, thread=thread)


def offer(*, ticket: str | None, channel: str, lang: Lang, thread: str | None = None) -> Message:
    """The ephemeral offer to the author of a message that announced a verified fix (`thread`: the root of the
    thread that message is in, or its own ts)."""
    text = _say("start_offer", ticket, lang)
    return _with_start(text, ticket=ticket, channel=channel, lang=lang, thread=thread)


def assignee_offer(*, ticket: str, lang: Lang) -> Message:
    """The DM to the assignee of a Bug Jira reports resolved; the session runs where the button is clicked."""
    text = say("start_assignee", lang, ticket=escape_mrkdwn(ticket))
    return _with_start(text, ticket=ticket, channel="", lang=lang)


def mention_help(lang: Lang) -> Message:
    """The ephemeral hint for a mention that asked for nothing the bot does."""
    text = say("start_help", lang)
    return {"text": text, "blocks": [{"type": "section", "text": {"type": "mrkdwn", "text": text}}]}


def fallback_offer(*, ticket: str, assignee: str, lang: Lang) -> Message:
    """POSTMORTEM_OFFER_FALLBACK_CHANNEL: the assignee has no reachable Slack user, so the channel is told,
    naming them by their Jira display name; the Start button runs the session where it is clicked."""
    text = say("offer_fallback", lang, ticket=escape_mrkdwn(ticket), name=escape_mrkdwn(assignee))
    return _with_start(text, ticket=ticket, channel="", lang=lang)
