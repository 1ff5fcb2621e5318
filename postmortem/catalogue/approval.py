"""Approval and posting: who may approve, the one comment posted, and what follows it."""

from __future__ import annotations

MESSAGES: dict[str, dict[str, str]] = {
    # Asking for approval, and replies that approve nothing.
    "approve_question": {
        "en": "Reply `post it`, `go ahead` or `yes` to post v{version} as a comment on {ticket}.",
        "ja": "{ticket} にコメントとして v{version} を投稿するには「投稿してください」「進めてください」または「はい」と返信してください。",
    },
    "approve_how": {
        "en": "That reply approves nothing, so nothing was posted. To post v{version} to {ticket}, reply with "
        "only the words post it, go ahead or yes: no other words, no code, no quote.",
        "ja": "その返信は承認になりません。何も投稿していません。v{version} を {ticket} に投稿するには、"
        "「投稿してください」「進めてください」または「はい」だけを返信してください（ほかの言葉、コード、引用は含めないでください）。",
    },
    "output_only": {
        "en": "Destination `{destination}`: the Markdown is attached above. Nothing is posted anywhere.",
        "ja": "掲載先 `{destination}`：Markdown を上に添付しました。どこにも投稿しません。",
    },
    "approval_before_draft": {
        "en": "That reply came before the draft was shown, so it approves nothing. Read v{version}, then approve it.",
        "ja": "その返信は下書きの表示より前のため、承認になりません。v{version} を確認してから承認してください。",
    },
    "stale_approval": {
        "en": "That approval was for v{shown}, but v{version} is the current draft. Approve v{version} to post it.",
        "ja": "その承認は v{shown} に対するものですが、現在の下書きは v{version} です。投稿するには v{version} を承認してください。",
    },
    "already_approved": {
        "en": "v{version} is already approved; it is posted once.",
        "ja": "v{version} はすでに承認済みです。投稿は 1 回だけです。",
    },
    # Who may approve and publish, refusals said plainly.
    "only_approvers": {
        "en": "Only <@{requester}> (or a configured approver) can approve, edit or cancel this post-mortem.",
        "ja": "この事後分析を承認・編集・キャンセルできるのは <@{requester}>（または設定された承認者）だけです。",
    },
    "needs_reviewer": {
        "en": "Nothing was posted: this workspace needs a reviewer. One of the configured approvers other than <@{requester}> must approve v{version}.",
        "ja": "投稿していません：このワークスペースではレビュアーの承認が必要です。<@{requester}> 以外の設定された承認者が v{version} を承認してください。",
    },
    "perm_no_email": {
        "en": "Nothing was posted: Slack did not give the bot an e-mail address for <@{user}>, so it cannot check that they may comment on {ticket} in Jira. Press Retry once that is fixed.",
        "ja": "投稿していません：Slack から <@{user}> のメールアドレスを取得できなかったため、Jira の {ticket} にコメントできるか確認できません。解決したら「再試行」を押してください。",
    },
    "perm_refused": {
        "en": "Nothing was posted: no Jira user with the e-mail address of <@{user}> may comment on {ticket}. The approval must come from someone who can comment on this issue in Jira (with an e-mail address the bot's Jira account can see). Press Retry once that is fixed.",
        "ja": "投稿していません：<@{user}> のメールアドレスを持つ Jira ユーザーで {ticket} にコメントできる人がいません。承認は Jira でこの課題にコメントできる人（ボットの Jira アカウントからメールアドレスが見える人）が行ってください。解決したら「再試行」を押してください。",
    },
    "perm_unchecked_slack": {
        "en": "Slack did not answer when the bot asked for the approver's e-mail address, needed to check who may "
        "comment in Jira.",
        "ja": "Jira でコメントできる人か確認するために承認者のメールアドレスを Slack に問い合わせましたが、"
        "応答がありませんでした。",
    },
    "perm_unchecked": {
        "en": "Nothing was posted: the bot could not check in Jira that <@{user}> may comment on {ticket}. {reason} Press Retry to try again.",
        "ja": "投稿していません：<@{user}> が {ticket} にコメントできるか Jira で確認できませんでした。{reason} 「再試行」を押してもう一度お試しください。",
    },
    # Posting, once.
    "posting": {
        "en": "Approved by <@{user}>. Posting v{version} to {ticket}…",
        "ja": "<@{user}> が承認しました。v{version} を {ticket} に投稿しています…",
    },
    "posted": {"en": "Posted to {ticket}: {url}", "ja": "{ticket} に投稿しました：{url}"},
    "posted_by_dm": {
        "en": "Posted to {ticket}: {url}\nI could not say so in the post-mortem's thread (Slack: {error}).",
        "ja": "{ticket} に投稿しました：{url}\n事後分析のスレッドには伝えられませんでした（Slack：{error}）。",
    },
    "duplicate_removed": {
        "en": "Jira stored an earlier attempt late, so {ticket} had this post-mortem twice: I deleted the extra "
        "comment ({comment}). The link above is the one that stays.",
        "ja": "Jira が以前の送信を遅れて保存したため、{ticket} にこの事後分析が二つありました。余分なコメント"
        "（{comment}）を削除しました。上のリンクのコメントが残ります。",
    },
    "duplicate_left": {
        "en": "Jira stored an earlier attempt late, so {ticket} has this post-mortem twice, and I could not delete "
        "the extra one ({reason}). Please delete it: {url}",
        "ja": "Jira が以前の送信を遅れて保存したため、{ticket} にこの事後分析が二つあります。余分なコメントを"
        "削除できませんでした（{reason}）。削除してください：{url}",
    },
    "frozen": {
        "en": "v{version} is approved, so this record no longer changes. Start a new /post-mortem for changes.",
        "ja": "v{version} は承認済みのため、この記録は変更しません。変更する場合は新しく /post-mortem を実行してください。",
    },
    # After posting: the hand-off to management-talk.
    "offer_handoff": {
        "en": "Want a leadership-toned version? I can hand off to management-talk.",
        "ja": "リーダー向けのトーンにした版も必要ですか？ management-talk に引き継げます。",
    },
    "handed_off": {
        "en": "Handed off to management-talk (job `{job_id}`).",
        "ja": "management-talk に引き継ぎました（ジョブ `{job_id}`）。",
    },
    "button_handoff": {"en": "Hand off to management-talk", "ja": "management-talk に引き継ぐ"},
    # Cancelling.
    "cancelled": {"en": "Cancelled. Nothing was posted.", "ja": "キャンセルしました。何も投稿していません。"},
    "button_cancel": {"en": "Cancel", "ja": "キャンセル"},
}
