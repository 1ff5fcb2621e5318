"""The "Start post-mortem" messages (a mention's answer, the offer after a fix, the assignee's DM) as Block Kit.

Every way in ends in one button; its click opens the same modal as `/post-mortem`. The button's value
carries what the click needs and nothing more: the Jira key to prefill (or none), the channel the session
should run in, and the language.
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

_TEXT: dict[str, dict[str, str]] = {
    "button": {"en": "Start post-mortem", "ja": "事後分析を始める"},
    "requested": {
        "en": "Happy to write the post-mortem{for_ticket}. Press *Start post-mortem* to open the form; "
              "I'll ask in a thread for anything the record still needs.",
        "ja": "{ticket_ja}事後分析を作成します。*事後分析を始める* を押してフォームを開いてください。"
              "記録に足りない項目はスレッドで質問します。",
    },
    "offer": {
        "en": "That sounds like a verified fix{for_ticket}. Want to write its post-mortem while the details are "
              "fresh? (Only you can see this message.)",
        "ja": "検証済みの修正のようです{ticket_paren}。詳細を覚えているうちに事後分析を書きませんか？"
              "（このメッセージはあなたにだけ表示されています）",
    },
    "assignee": {
        "en": "*{ticket}* was resolved, and you are its assignee. Want to write the bug's post-mortem while the "
              "details are fresh?",
        "ja": "*{ticket}* が解決済みになりました（担当者: あなた）。詳細を覚えているうちにバグの事後分析を"
              "書きませんか？",
    },
    "help": {
        "en": "Ask me for a post-mortem in words, e.g. `@postmortem-bot write the post-mortem for PROJ-123`, "
              "or run `/post-mortem PROJ-123`.",
        "ja": "「@postmortem-bot PROJ-123 の事後分析を書いて」のように依頼するか、`/post-mortem PROJ-123` を"
              "実行してください。",
    },
}


def start_value(*, ticket: str | None, channel: str, lang: Lang) -> str:
    """The Start button's value: JSON with the key to prefill (or null), the session's channel, the language."""
    return json.dumps({"ticket": ticket, "channel": channel, "lang": lang}, separators=(",", ":"))


def _with_start(text: str, *, ticket: str | None, channel: str, lang: Lang) -> Message:
    button = {"type": "button", "style": "primary", "action_id": ACTION_START,
              "text": {"type": "plain_text", "text": _TEXT["button"][lang]},
              "value": start_value(ticket=ticket, channel=channel, lang=lang)}
    blocks = [{"type": "section", "text": {"type": "mrkdwn", "text": text}},
              {"type": "actions", "block_id": ACTION_START, "elements": [button]}]
    return {"text": text, "blocks": blocks}


def _params(ticket: str | None) -> dict[str, str]:
    key = escape_mrkdwn(ticket) if ticket else ""
    return {"ticket": key, "for_ticket": f" for *{key}*" if key else "",
            "ticket_ja": f"*{key}* の" if key else "", "ticket_paren": f"（*{key}*）" if key else ""}


def requested(*, ticket: str | None, channel: str, lang: Lang) -> Message:
    """The answer to a mention that asked for a post-mortem, posted in its thread."""
    text = _TEXT["requested"][lang].format(**_params(ticket))
    return _with_start(text, ticket=ticket, channel=channel, lang=lang)


def offer(*, ticket: str | None, channel: str, lang: Lang) -> Message:
    """The ephemeral offer to the author of a message that announced a verified fix."""
    text = _TEXT["offer"][lang].format(**_params(ticket))
    return _with_start(text, ticket=ticket, channel=channel, lang=lang)


def assignee_offer(*, ticket: str, lang: Lang) -> Message:
    """The DM to the assignee of a Bug Jira reports resolved; the session runs where the button is clicked."""
    text = _TEXT["assignee"][lang].format(**_params(ticket))
    return _with_start(text, ticket=ticket, channel="", lang=lang)


def mention_help(lang: Lang) -> Message:
    """The ephemeral hint for a mention that asked for nothing the bot does."""
    text = _TEXT["help"][lang]
    return {"text": text, "blocks": [{"type": "section", "text": {"type": "mrkdwn", "text": text}}]}


def fallback_offer(*, ticket: str, assignee: str, lang: Lang) -> Message:
    """POSTMORTEM_OFFER_FALLBACK_CHANNEL: the assignee has no reachable Slack user, so the channel is told,
    naming them by their Jira display name; the Start button runs the session where it is clicked."""
    text = say("offer_fallback", lang, ticket=escape_mrkdwn(ticket), name=escape_mrkdwn(assignee))
    return _with_start(text, ticket=ticket, channel="", lang=lang)
