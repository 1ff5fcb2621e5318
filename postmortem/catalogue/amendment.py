"""Amendments (DESIGN §4 "Amendment"): a posted record corrected in place, the same Jira comment edited."""

from __future__ import annotations

MESSAGES: dict[str, dict[str, str]] = {
    "amend_rendering": {
        "en": "Amending the posted v{posted}: rendering v{version}. Nothing changes in Jira until you approve it.",
        "ja": "投稿済みの v{posted} を修正します：v{version} を作成しています。承認するまで Jira は変わりません。",
    },
    "amend_hint": {
        "en": "To amend the posted record, reply `<field>: <new text>` (for example `{reply_as}: ...`) or press Amend.",
        "ja": "投稿済みの記録を修正するには、`<項目名>：<新しい内容>`（例：`{reply_as}：...`）で返信するか、「修正」を押してください。",
    },
    "amend_field_fixed": {
        "en": "An amendment edits the same comment on {ticket}, so `{field}` cannot change. Start a new /post-mortem "
        "for another ticket or destination.",
        "ja": "修正は {ticket} の同じコメントを編集するため、`{field}` は変更できません。別のチケットや掲載先には新しく "
        "/post-mortem を実行してください。",
    },
    "amend_wait_posting": {
        "en": "v{version} is being posted now, so nothing changes until it is. Once its link is in this thread, "
        "reply `<field>: <text>` again (or press Amend) to amend it.",
        "ja": "v{version} を投稿中のため、投稿が終わるまで変更できません。このスレッドにリンクが表示されたら、"
        "もう一度 `<項目名>: <内容>` で返信する（または「修正」を押す）と修正できます。",
    },
    "button_wait_posting": {
        "en": "v{version} is being posted now, so Edit and Cancel change nothing until it is. Once its link is in this "
        "thread, press Amend (or reply `<field>: <text>`) to amend it.",
        "ja": "v{version} を投稿中のため、投稿が終わるまで「編集」や「キャンセル」では変更できません。このスレッドに"
        "リンクが表示されたら、「修正」を押す（または `<項目名>: <内容>` で返信する）と修正できます。",
    },
    "amend_diff": {
        "en": "*v{version} against the posted v{posted}* (Markdown). Approving v{version} replaces the text of the same "
        "comment on {ticket} (`PUT …/comment/{comment}`); no comment is added.",
        "ja": "*投稿済みの v{posted} と v{version} の差分*（Markdown）。v{version} を承認すると {ticket} の同じコメント"
        "（`PUT …/comment/{comment}`）の本文を置き換えます。コメントは追加しません。",
    },
    "amend_diff_cut": {
        "en": "… {lines} more lines of the diff not shown; the attached file is the whole request body.",
        "ja": "… 差分の残り {lines} 行は省略しました。添付ファイルがリクエスト本文の全体です。",
    },
    "amend_no_change": {
        "en": "v{version} has the same text as the posted v{posted}.",
        "ja": "v{version} の本文は投稿済みの v{posted} と同じです。",
    },
    "amend_diff_missing": {
        "en": "The text of the posted v{posted} is no longer kept, so no diff is shown; the attached file is the whole "
        "request body.",
        "ja": "投稿済みの v{posted} の本文が残っていないため、差分は表示できません。添付ファイルがリクエスト本文の全体です。",
    },
    "amend_question": {
        "en": "Reply `post it`, `go ahead` or `yes` to replace the text of the comment on {ticket} with v{version}. "
        "Cancel keeps the record as posted.",
        "ja": "{ticket} のコメントの本文を v{version} に置き換えるには「投稿してください」「進めてください」または「はい」と"
        "返信してください。「キャンセル」を押すと投稿済みの記録のままにします。",
    },
    "amending": {
        "en": "Approved by <@{user}>. Updating the comment on {ticket} with v{version}…",
        "ja": "<@{user}> が承認しました。{ticket} のコメントを v{version} に更新しています…",
    },
    "amended": {
        "en": "Amended the record on {ticket} to v{version} (same comment): {url}",
        "ja": "{ticket} の記録を v{version} に修正しました（同じコメント）：{url}",
    },
    "amend_comment_gone": {
        "en": "The comment on {ticket} was deleted in Jira, so v{version} was not applied and nothing was posted. "
        "Press Retry to show v{version} again: once approved, it is posted as a new comment.",
        "ja": "{ticket} のコメントが Jira で削除されていたため、v{version} は反映されず、何も投稿していません。"
        "「再試行」を押すと v{version} をもう一度表示します。承認すると新しいコメントとして投稿します。",
    },
    "amend_abandoned": {
        "en": "Amendment cancelled. The record on {ticket} stays as posted (v{version}).",
        "ja": "修正を取り消しました。{ticket} の記録は投稿済みの v{version} のままです。",
    },
    "amend_failed": {
        "en": "The comment on {ticket} was not updated: {reason}",
        "ja": "{ticket} のコメントを更新できませんでした：{reason}",
    },
    "button_amend": {"en": "Amend", "ja": "修正"},
    "state_amended": {"en": "amended (v{version})", "ja": "修正済み（v{version}）"},
}
