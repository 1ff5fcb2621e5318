"""Offers and ways in: the Start button, offered after a verified fix, on request, or when Jira resolves a bug."""

from __future__ import annotations

MESSAGES: dict[str, dict[str, str]] = {
    # `{for_ticket}` is the matching `*_for` entry, or empty when no key is known.
    "start_button": {"en": "Start post-mortem", "ja": "事後分析を始める"},
    "start_requested": {
        "en": "Happy to write the post-mortem{for_ticket}. Press *Start post-mortem* to open the form; I'll ask in a thread for anything the record still needs.",
        "ja": "{for_ticket}事後分析を作成します。*事後分析を始める* を押してフォームを開いてください。記録に足りない項目はスレッドで質問します。",
    },
    "start_requested_for": {"en": " for *{ticket}*", "ja": "*{ticket}* の"},
    "start_offer": {
        "en": "That sounds like a verified fix{for_ticket}. Want to write its post-mortem while the details are fresh? (Only you can see this message.)",
        "ja": "検証済みの修正のようです{for_ticket}。詳細を覚えているうちに事後分析を書きませんか？（このメッセージはあなたにだけ表示されています）",
    },
    "start_offer_for": {"en": " for *{ticket}*", "ja": "（*{ticket}*）"},
    "start_assignee": {
        "en": "*{ticket}* was resolved, and you are its assignee. Want to write the bug's post-mortem while the details are fresh?",
        "ja": "*{ticket}* が解決済みになりました（担当者: あなた）。詳細を覚えているうちにバグの事後分析を書きませんか？",
    },
    "start_help": {
        "en": "Ask me for a post-mortem in words, e.g. `@postmortem-bot write the post-mortem for PROJ-123`, or run `/post-mortem PROJ-123`.",
        "ja": "「@postmortem-bot PROJ-123 の事後分析を書いて」のように依頼するか、`/post-mortem PROJ-123` を実行してください。",
    },
    # A resolved bug whose assignee has no Slack account the bot can reach.
    "offer_fallback": {
        "en": "{ticket} was resolved. Its assignee in Jira, {name}, has no Slack account I can reach (their "
        "e-mail is hidden or matches nobody here). Could someone pass on the offer to write its post-mortem?",
        "ja": "{ticket} が解決済みになりました。Jira の担当者 {name} さんに Slack で連絡できません"
        "（メールアドレスが非公開か、一致するユーザーがいません）。事後分析の作成をどなたか伝えていただけますか？",
    },
}
