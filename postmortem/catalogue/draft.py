"""The draft: rendering it, revising it, and the few words of the document that are not the person's."""

from __future__ import annotations

MESSAGES: dict[str, dict[str, str]] = {
    # Rendering and revising.
    "rendering": {"en": "Rendering draft v{version}…", "ja": "下書き v{version} を作成しています…"},
    "still_rendering": {
        "en": "Draft v{version} is still being prepared, so I did not act on that reply. Send it again once the draft is shown.",
        "ja": "下書き v{version} をまだ作成中のため、その返信は処理していません。下書きが表示されてから、もう一度送ってください。",
    },
    "body_shown": {
        "en": "The file above is the exact request body for Jira (v{version}), byte for byte what will be posted.",
        "ja": "上のファイルが Jira に送るリクエスト本文（v{version}）そのもので、投稿されるバイト列と同一です。",
    },
    "revise_hint_as": {
        "en": "I don't rewrite your text. Reply `<field>: <new text>` (for example `{reply_as}: ...`) or press Edit.",
        "ja": "本文は書き換えません。`<項目名>：<新しい内容>`（例：`{reply_as}：...`）で返信するか、「編集」を押してください。",
    },
    "third_revision": {
        "en": "This is the third revision. Before I change anything: which section has a concrete problem? "
        "Reply `<field>: <new text>` for that section.",
        "ja": "3 回目の修正です。変更する前に、どのセクションに具体的な問題があるか教えてください。"
        "そのセクションを `<field>: <新しい内容>` で返信してください。",
    },
    "button_edit": {"en": "Edit", "ja": "編集"},
    # Words of the document itself: its title, the explicit sentence when there are no action items,
    # the small labels inside sections, and the Jira comment's footer.
    "document_title": {"en": "Post-mortem", "ja": "事後分析"},
    "action_items_none": {
        "en": "None — the fix is sufficient; no follow-up is needed for this class of bug.",
        "ja": "なし — 修正で十分であり、この種のバグに関するフォローアップは不要です。",
    },
    "label_category": {"en": "Category", "ja": "分類"},
    "label_item_owner": {"en": "owner", "ja": "担当"},
    "label_item_tracking": {"en": "tracking", "ja": "追跡"},
    "jira_requested_by": {"en": "Requested by {name} in the {thread}.", "ja": "依頼者：{name}（{thread}）"},
    "jira_slack_thread": {"en": "Slack thread", "ja": "Slack のスレッド"},
}
