"""Failures and retries: what went wrong, in the session's language, and that nothing was lost."""

from __future__ import annotations

MESSAGES: dict[str, dict[str, str]] = {
    # Posting to Jira failed or must wait.
    "post_failed": {
        "en": "Posting to Jira failed: {reason} The draft and your approval are kept; press Retry when fixed.",
        "ja": "Jira への投稿に失敗しました：{reason} 下書きと承認は保持しています。解決したら「再試行」を押してください。",
    },
    "post_waiting": {
        "en": "Jira asked me to wait {seconds} s before posting to {ticket}. Nothing is posted yet; I'll try "
        "again by myself then. Press Retry to try now, or Cancel to stop.",
        "ja": "Jira から {seconds} 秒待つよう求められたため、{ticket} への投稿を待っています。まだ何も投稿していません。"
        "その後に自動で再試行します。今すぐ試すには「再試行」、中止するには「キャンセル」を押してください。",
    },
    "retry_after_capped": {
        "en": "Jira asked me to wait {seconds} s before posting to {ticket}, longer than I wait by myself "
        "({cap} s). Nothing was posted. Press Retry later, or Cancel.",
        "ja": "Jira から {seconds} 秒待つよう求められました。自動で待つ上限（{cap} 秒）を超えるため、{ticket} "
        "には何も投稿していません。後で「再試行」を押すか、「キャンセル」してください。",
    },
    "button_retry": {"en": "Retry", "ja": "再試行"},
    # Jira's answers (workers/jira_errors.py).
    "jira_timeout": {"en": "Jira did not answer in time.", "ja": "Jira が時間内に応答しませんでした。"},
    "jira_unreachable": {"en": "Jira is unreachable at {url}.", "ja": "{url} の Jira に接続できません。"},
    "jira_credentials": {
        "en": "Jira rejected the bot's credentials (check JIRA_EMAIL and JIRA_API_TOKEN).",
        "ja": "Jira がボットの認証情報を拒否しました（JIRA_EMAIL と JIRA_API_TOKEN を確認してください）。",
    },
    "jira_forbidden": {
        "en": "The Jira account has no permission to comment on this issue.",
        "ja": "Jira アカウントにこの課題へコメントする権限がありません。",
    },
    "jira_not_found": {
        "en": "Jira says the issue does not exist (or the bot cannot see it).",
        "ja": "Jira によるとこの課題は存在しません（またはボットから見えません）。",
    },
    "jira_rate_limited": {
        "en": "Jira is rate-limiting the bot; trying again in {seconds:g} s.",
        "ja": "Jira がボットのリクエストを制限しています。{seconds:g} 秒後に再試行します。",
    },
    "jira_server_error": {"en": "Jira answered {status}.", "ja": "Jira が {status} を返しました。"},
    "jira_rejected": {
        "en": "Jira rejected the comment ({status}): {detail}",
        "ja": "Jira がコメントを拒否しました（{status}）：{detail}",
    },
    "jira_rejected_no_reason": {
        "en": "Jira rejected the comment ({status}): no reason given",
        "ja": "Jira がコメントを拒否しました（{status}）。理由は示されていません。",
    },
    "jira_properties_refused": {
        "en": "Jira refused the comment's properties ({status}: {detail}). Without them the bot cannot tell its "
        "own comment from others, so it posted nothing rather than risk posting twice. This Jira must accept "
        "comment properties (Data Center / Server 8.14 or later): ask its administrator, then press Retry.",
        "ja": "Jira がコメントのプロパティを拒否しました（{status}：{detail}）。プロパティがないと自分のコメントを"
        "見分けられず二重投稿の恐れがあるため、何も投稿していません。この Jira はコメントのプロパティを受け付ける"
        "必要があります（Data Center / Server 8.14 以降）。管理者に確認してから「再試行」を押してください。",
    },
    # A request body that cannot be posted.
    "comment_too_long": {
        "en": "the Jira comment would be {length:,} characters; Jira allows {limit:,}. Shorten the longest sections: {sections}. Nothing was truncated.",
        "ja": "Jira コメントは {length:,} 文字になりますが、Jira の上限は {limit:,} 文字です。長いセクションを短くしてください：{sections}。何も切り詰めていません。",
    },
    "comment_too_long_no_sections": {"en": "none", "ja": "なし"},
    # A draft that took longer than its render budget (renderers/draft.py); `field` is a label.
    "render_too_slow": {
        "en": "{field} took more than {seconds:g} s to lay out. Shorten it, or attach the rest as a file.",
        "ja": "「{field}」の整形に {seconds:g} 秒以上かかりました。短くするか、残りをファイルで添付してください。",
    },
    "render_too_slow_document": {"en": "The draft", "ja": "本文"},
    "post_body_mismatch": {
        "en": "the approved request body is missing or no longer matches its sha256",
        "ja": "承認されたリクエスト本文が見つからないか、その sha256 と一致しなくなっています",
    },
    # Drafting failed, a worker stopped, the store does not answer.
    "render_failed": {"en": "I couldn't render the draft: {reason}", "ja": "下書きを作成できませんでした：{reason}"},
    "slack_refused_draft": {
        "en": "Slack refused part of the draft ({error})",
        "ja": "Slack が下書きの一部を受け付けませんでした（{error}）",
    },
    "worker_stopped_twice": {"en": "the worker stopped twice", "ja": "ワーカーが 2 回停止しました"},
    "unavailable": {
        "en": "postmortem-bot is unavailable right now (its store does not answer). Nothing was lost; try again shortly.",
        "ja": "postmortem-bot は現在利用できません（ストアが応答しません）。データは失われていません。少し後で再度お試しください。",
    },
    "session_gone": {
        "en": "This post-mortem session has ended or expired (or the bot lost its record), so that did nothing: "
        "nothing was posted. To start again, run /post-mortem with the issue key.",
        "ja": "この事後分析のセッションは終了したか期限切れです（またはボットが記録を失いました）。そのため何も"
        "行っておらず、何も投稿していません。やり直すには、課題キーを付けて /post-mortem を実行してください。",
    },
}
