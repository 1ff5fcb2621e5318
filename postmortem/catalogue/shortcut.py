"""The message shortcut and the prefilled modal (DESIGN §4 "Starting where the debugging happened")."""

from __future__ import annotations

MESSAGES: dict[str, dict[str, str]] = {
    # The shortcut's name in the message menu (slack-manifest.yaml carries the English one).
    "shortcut_name": {"en": "Write a post-mortem", "ja": "事後分析を書く"},
    "shortcut_description": {
        "en": "Start a bug-fix post-mortem from this message and its thread",
        "ja": "このメッセージとスレッドからバグ修正の事後分析を始める",
    },
    # The modal's status line while the thread and the issue are read, then what was read.
    "prefill_reading": {
        "en": "Reading this thread and its Jira issue… What you type meanwhile is kept.",
        "ja": "このスレッドと Jira 課題を読んでいます… その間に入力した内容はそのまま残ります。",
    },
    "prefill_done": {
        "en": "Filled in only references and verbatim text, each input saying where from. Check them: submitting is "
        "your confirmation. The evidence (repro, root cause, validation…) is yours to state.",
        "ja": "参照と原文そのままの引用だけを入力しました（各欄に出典を記載）。確認してください：送信があなたの確認になります。"
        "根拠（再現手順・根本原因・検証など）はあなたが記入してください。",
    },
    "prefill_none": {
        "en": "Nothing could be filled in from this message, its thread or Jira.",
        "ja": "このメッセージ、スレッド、Jira から入力できる内容はありませんでした。",
    },
    "prefill_read": {
        "en": "Read {n} messages of this thread.",
        "ja": "このスレッドのメッセージを {n} 件読みました。",
    },
    "prefill_read_one": {
        "en": "Read this one message (it has no thread).",
        "ja": "このメッセージ 1 件を読みました（スレッドはありません）。",
    },
    "prefill_bounded": {
        "en": "This thread is long: I read only its first {n} messages ({kb} KB; at most {max_n} messages or 1 MB). "
        "Later messages were not read.",
        "ja": "このスレッドは長いため、最初の {n} 件（{kb} KB。上限は {max_n} 件または 1 MB）だけを読みました。"
        "それ以降のメッセージは読んでいません。",
    },
    "prefill_no_channel": {
        "en": "I cannot read this channel ({error}): nothing was taken from its thread; only the Jira key of the "
        "message you chose and the Jira issue were used. The post-mortem will run in a direct message with you.",
        "ja": "このチャンネルを読めません（{error}）。スレッドからは何も取得せず、選んだメッセージの Jira キーと Jira "
        "課題だけを使いました。事後分析はあなたとのダイレクトメッセージで進めます。",
    },
    "prefill_slack_failed": {
        "en": "Slack did not let me read this thread ({error}): nothing was taken from it.",
        "ja": "Slack でこのスレッドを読めませんでした（{error}）。スレッドからは何も取得していません。",
    },
    "prefill_message_gone": {
        "en": "The message you chose could not be read (deleted, or not visible to me): nothing was filled from it.",
        "ja": "選んだメッセージを読めませんでした（削除されたか、表示できません）。そこからは何も入力していません。",
    },
    "prefill_failed": {
        "en": "Something went wrong while reading this thread and its issue: nothing was filled in. Fill in the form "
        "as usual.",
        "ja": "スレッドと課題を読む途中で問題が起きたため、何も入力していません。通常どおりフォームに記入してください。",
    },
    "prefill_symptom_too_long": {
        "en": "The code blocks were not copied: their first line alone is longer than the input's {limit} characters, "
        "and they are cut only at a line boundary.",
        "ja": "コードブロックは写していません：最初の 1 行だけで入力欄の上限 {limit} 文字を超え、切るのは行の区切りだけのためです。",
    },
    "prefill_no_key": {
        "en": "No single Jira key in this message or its thread: type it in the Jira key input.",
        "ja": "このメッセージにもスレッドにも Jira キーが 1 つに定まりません。Jira キー欄に入力してください。",
    },
    "prefill_many_keys": {
        "en": "Several Jira keys are named ({keys}), so none was chosen: type the right one.",
        "ja": "複数の Jira キー（{keys}）が書かれているため選んでいません。正しいものを入力してください。",
    },
    "prefill_jira_failed": {
        "en": "Jira could not be read for {ticket} ({why}): filled from Slack alone.",
        "ja": "{ticket} を Jira から読めませんでした（{why}）。Slack からだけ入力しました。",
    },
    "prefill_links_unread": {
        "en": "Jira did not list {ticket}'s remote links just now: no fix link was taken from them.",
        "ja": "Jira が {ticket} のリモートリンクを返さなかったため、そこから修正のリンクは取得していません。",
    },
    "prefill_jira_forbidden": {"en": "no permission", "ja": "権限がありません"},
    "prefill_jira_missing": {
        "en": "no such issue, or it is hidden from the bot",
        "ja": "課題が存在しないか、ボットから見えません",
    },
    "prefill_jira_not_yours": {
        "en": "Jira does not show that you may comment on it, so nothing was copied from it",
        "ja": "Jira 上であなたがコメントできることを確認できないため、そこからは何も写していません",
    },
    "prefill_jira_down": {"en": "Jira did not answer", "ja": "Jira が応答しませんでした"},
    # Each prefilled input's hint: where its value came from.
    "hint_ticket_message": {"en": "From the message you chose.", "ja": "選んだメッセージから。"},
    "hint_ticket_thread": {
        "en": "From this thread (the one key it names).",
        "ja": "このスレッドから（書かれている唯一のキー）。",
    },
    "hint_ticket_start": {
        "en": "The key named where this post-mortem was asked for.",
        "ja": "事後分析を依頼した場所に書かれていたキー。",
    },
    "hint_owner": {"en": "From {ticket}'s assignee in Jira.", "ja": "Jira の {ticket} の担当者から。"},
    "hint_fix_jira": {"en": "From {n} of {ticket}'s remote links.", "ja": "{ticket} のリモートリンク {n} 件から。"},
    "hint_fix_thread": {"en": "From {n} links in this thread.", "ja": "このスレッドのリンク {n} 件から。"},
    "hint_fix_thread_one": {"en": "From a link in this thread.", "ja": "このスレッドのリンク 1 件から。"},
    "hint_fix_jira_one": {"en": "From {ticket}'s remote link.", "ja": "{ticket} のリモートリンク 1 件から。"},
    "hint_fix_both": {
        "en": "From {jira} of {ticket}'s remote links and {thread} in this thread.",
        "ja": "{ticket} のリモートリンク {jira} 件と、このスレッドのリンク {thread} 件から。",
    },
    "hint_fix_cut": {
        "en": " {left} more did not fit in the input.",
        "ja": " ほかの {left} 件は入力欄に収まりませんでした。",
    },
    "hint_symptom_jira": {
        "en": "Verbatim from the code blocks of {ticket}'s description.",
        "ja": "{ticket} の説明のコードブロックをそのまま引用。",
    },
    "hint_symptom_message": {
        "en": "Verbatim from the code blocks of the message you chose.",
        "ja": "選んだメッセージのコードブロックをそのまま引用。",
    },
    "hint_symptom_both": {
        "en": "Verbatim from the code blocks of {ticket}'s description and of the message you chose.",
        "ja": "{ticket} の説明と、選んだメッセージのコードブロックをそのまま引用。",
    },
    "hint_symptom_message_parent": {
        "en": "Verbatim from the code blocks of this thread's first message.",
        "ja": "このスレッドの最初のメッセージのコードブロックをそのまま引用。",
    },
    "hint_symptom_both_parent": {
        "en": "Verbatim from the code blocks of {ticket}'s description and of this thread's first message.",
        "ja": "{ticket} の説明と、このスレッドの最初のメッセージのコードブロックをそのまま引用。",
    },
    "hint_symptom_cut": {
        "en": " Cut at a line boundary to {shown} of {total} characters (the input's limit).",
        "ja": " 入力欄の上限のため、行の区切りで {total} 文字中 {shown} 文字に切りました。",
    },
    # The one reply in the debugging thread, and the Jira comment's link back to it.
    "debug_thread_reply": {
        "en": "<@{user}> started the post-mortem of *{ticket}*: {link}.",
        "ja": "<@{user}> さんが *{ticket}* の事後分析を始めました：{link}",
    },
    "debug_thread_link": {"en": "its own thread", "ja": "専用スレッド"},
    "jira_debugged_in": {"en": " The debugging happened in {thread}.", "ja": "（デバッグの経緯：{thread}）"},
    "jira_debug_thread": {"en": "this Slack thread", "ja": "Slack のスレッド"},
}
