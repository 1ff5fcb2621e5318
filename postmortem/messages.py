"""The bot's sentences in English and Japanese, one catalogue entry each, so both languages stay in step.

`_CATALOGUE` holds every sentence the bot says in a thread, a DM, a modal error or a failure reason, and
`say(key, lang, **params)` fills one in; the field labels are here too. What describes a field (the modal's
hints, the gate's reasons for a missing input, the section headings) lives with that field's definition.
"""

from __future__ import annotations

from postmortem.field_table import REGISTRY
from postmortem.model import Lang

#: Each field's label (from the field registry), and the modal's one block that is not a field.
FIELD_LABELS: dict[str, dict[str, str]] = {
    **{f.name: f.label for f in REGISTRY.fields},
    "scope": {"en": "Scope", "ja": "対象範囲"},
}

_CATALOGUE: dict[str, dict[str, str]] = {
    "parent": {
        "en": "Post-mortem for {ticket}, requested by <@{user}>. I'll work in this thread.",
        "ja": "{ticket} の事後分析（依頼者 <@{user}>）。このスレッドで進めます。",
    },
    "missing_intro": {
        "en": "I can't draft this post-mortem yet: a post-mortem built on a hypothesis is worse than none. Missing:",
        "ja": "まだ事後分析を作成できません。仮説に基づく事後分析は誤解を招きます。不足している項目：",
    },
    "answer_rejected": {
        "en": "That answer doesn't fill *{label}* yet: {reason} Please reply again.",
        "ja": "その返信では *{label}* を埋められません：{reason} もう一度返信してください。",
    },
    "scope_stop": {
        "en": "{reason}\nReply `continue` to write a bug-fix post-mortem anyway, or `cancel`.",
        "ja": "{reason}\nバグ修正の事後分析として続ける場合は `continue`（続行）、やめる場合は `cancel`（キャンセル）と返信してください。",
    },
    "declined": {"en": "{reason}\nNothing to write here.", "ja": "{reason}\n事後分析は作成しません。"},
    "rendering": {"en": "Rendering draft v{version}…", "ja": "下書き v{version} を作成しています…"},
    "lint_header": {
        "en": "Tone check: {count} note(s). I never edit your text; change a field with `<field>: <text>`.",
        "ja": "トーンの確認：{count} 件。本文は書き換えません。変更は `<field>: <text>` で返信してください。",
    },
    "approve_question": {
        "en": "Reply `post it`, `go ahead` or `yes` to post v{version} as a comment on {ticket}.",
        "ja": "{ticket} にコメントとして v{version} を投稿するには「投稿してください」「進めてください」または「はい」と返信してください。",
    },
    "output_only": {
        "en": "Destination `{destination}`: the Markdown is attached above. Nothing is posted anywhere.",
        "ja": "掲載先 `{destination}`：Markdown を上に添付しました。どこにも投稿しません。",
    },
    "only_approvers": {
        "en": "Only <@{requester}> (or a configured approver) can approve, edit or cancel this post-mortem.",
        "ja": "この事後分析を承認・編集・キャンセルできるのは <@{requester}>（または設定された承認者）だけです。",
    },
    "posting": {
        "en": "Approved by <@{user}>. Posting v{version} to {ticket}…",
        "ja": "<@{user}> が承認しました。v{version} を {ticket} に投稿しています…",
    },
    "posted": {"en": "Posted to {ticket}: {url}", "ja": "{ticket} に投稿しました：{url}"},
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
    "posted_by_dm": {
        "en": "Posted to {ticket}: {url}\nI could not say so in the post-mortem's thread (Slack: {error}).",
        "ja": "{ticket} に投稿しました：{url}\n事後分析のスレッドには伝えられませんでした（Slack：{error}）。",
    },
    "offer_handoff": {
        "en": "Want a leadership-toned version? I can hand off to management-talk.",
        "ja": "リーダー向けのトーンにした版も必要ですか？ management-talk に引き継げます。",
    },
    "handed_off": {
        "en": "Handed off to management-talk (job `{job_id}`).",
        "ja": "management-talk に引き継ぎました（ジョブ `{job_id}`）。",
    },
    "cancelled": {"en": "Cancelled. Nothing was posted.", "ja": "キャンセルしました。何も投稿していません。"},
    "frozen": {
        "en": "v{version} is approved, so this record no longer changes. Start a new /post-mortem for changes.",
        "ja": "v{version} は承認済みのため、この記録は変更しません。変更する場合は新しく /post-mortem を実行してください。",
    },
    "third_revision": {
        "en": "This is the third revision. Before I change anything: which section has a concrete problem? "
        "Reply `<field>: <new text>` for that section.",
        "ja": "3 回目の修正です。変更する前に、どのセクションに具体的な問題があるか教えてください。"
        "そのセクションを `<field>: <新しい内容>` で返信してください。",
    },
    "unknown_field": {
        "en": "`{field}` is not a field I know. Fields: {fields}",
        "ja": "`{field}` という項目はありません。項目：{fields}",
    },
    "post_failed": {
        "en": "Posting to Jira failed: {reason} The draft and your approval are kept; press Retry when fixed.",
        "ja": "Jira への投稿に失敗しました：{reason} 下書きと承認は保持しています。解決したら「再試行」を押してください。",
    },
    "render_failed": {"en": "I couldn't render the draft: {reason}", "ja": "下書きを作成できませんでした：{reason}"},
    "unavailable": {
        "en": "postmortem-bot is unavailable right now (its store does not answer). Nothing was lost; try again shortly.",
        "ja": "postmortem-bot は現在利用できません（ストアが応答しません）。データは失われていません。少し後で再度お試しください。",
    },
    "session_gone": {
        "en": "This post-mortem session has ended or expired.",
        "ja": "この事後分析のセッションは終了したか期限切れです。",
    },
    "ticket_not_found": {
        "en": "Jira has no issue {ticket} (or the bot cannot see it). Reply in this thread with the right key.",
        "ja": "Jira に {ticket} という課題がありません（またはボットから見えません）。正しいキーをこのスレッドに返信してください。",
    },
    "stale_approval": {
        "en": "That approval was for v{shown}, but v{version} is the current draft. Approve v{version} to post it.",
        "ja": "その承認は v{shown} に対するものですが、現在の下書きは v{version} です。投稿するには v{version} を承認してください。",
    },
    "approval_before_draft": {
        "en": "That reply came before the draft was shown, so it approves nothing. Read v{version}, then approve it.",
        "ja": "その返信は下書きの表示より前のため、承認になりません。v{version} を確認してから承認してください。",
    },
    "still_rendering": {
        "en": "Draft v{version} is still being prepared, so I did not act on that reply. Send it again once the draft is shown.",
        "ja": "下書き v{version} をまだ作成中のため、その返信は処理していません。下書きが表示されてから、もう一度送ってください。",
    },
    "scope_first": {
        "en": "First answer `continue` (write a bug-fix post-mortem anyway) or `cancel`.",
        "ja": "先に `continue`（バグ修正の事後分析として続ける）か `cancel`（キャンセル）で答えてください。",
    },
    "body_shown": {
        "en": "The file above is the exact request body for Jira (v{version}), byte for byte what will be posted.",
        "ja": "上のファイルが Jira に送るリクエスト本文（v{version}）そのもので、投稿されるバイト列と同一です。",
    },
    "slack_failed": {
        "en": "I could not start the post-mortem thread for {ticket} in <#{channel}> (Slack said `{error}`). Invite me to that channel, then press Retry: everything you entered is kept.",
        "ja": "<#{channel}> で {ticket} の事後分析スレッドを開始できませんでした（Slack の応答：`{error}`）。ボットをそのチャンネルに招待してから「再試行」を押してください。入力内容は保存されています。",
    },
    "already_approved": {
        "en": "v{version} is already approved; it is posted once.",
        "ja": "v{version} はすでに承認済みです。投稿は 1 回だけです。",
    },
    "button_edit": {"en": "Edit", "ja": "編集"},
    "button_cancel": {"en": "Cancel", "ja": "キャンセル"},
    "button_retry": {"en": "Retry", "ja": "再試行"},
    "button_handoff": {"en": "Hand off to management-talk", "ja": "management-talk に引き継ぐ"},
    # --- c-security: who may approve and publish, refusals said plainly (issue 13) ---
    "needs_reviewer": {
        "en": "Nothing was posted: this workspace needs a reviewer. One of the configured approvers other than <@{requester}> must approve v{version}.",
        "ja": "投稿していません：このワークスペースではレビュアーの承認が必要です。<@{requester}> 以外の設定された承認者が v{version} を承認してください。",
    },
    "ticket_hidden": {
        "en": "Jira has no issue {ticket} that you can comment on (it may not exist, or you may not have access to it). Reply in this thread with the right key.",
        "ja": "Jira に、あなたがコメントできる {ticket} という課題がありません（存在しないか、アクセス権がない可能性があります）。正しいキーをこのスレッドに返信してください。",
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
    # plain sentences for refused values (postmortem/errors.py): never pydantic's own wording
    "invalid_missing": {"en": "{field} is required.", "ja": "{field} は必須です。"},
    "invalid_empty": {"en": "{field} cannot be empty.", "ja": "{field} を空にはできません。"},
    "invalid_too_long": {"en": "{field} is too long.", "ja": "{field} が長すぎます。"},
    "invalid_choice": {
        "en": "{field} must be one of: {choices}.",
        "ja": "{field} は次のいずれかにしてください：{choices}。",
    },
    "invalid_yes_no": {"en": "{field} must be yes or no.", "ja": "{field} は「はい」か「いいえ」で答えてください。"},
    "invalid_format": {"en": "{field} is not in the expected format.", "ja": "{field} の形式が正しくありません。"},
    "invalid_ticket": {
        "en": "That is not a Jira issue key: write a key like PROJ-123.",
        "ja": "Jira の課題キーではありません。PROJ-123 のようなキーを書いてください。",
    },
    "invalid_value": {
        "en": "{field} has a value the bot cannot use. Check it and send it again.",
        "ja": "{field} の値を使えません。確認してもう一度送ってください。",
    },
    # a1-registry: the Done button of a checkboxes question (DESIGN §4 "Modal").
    "button_done": {"en": "Done", "ja": "完了"},
    # a2-hygiene: what reached Japanese threads in English (modal errors, answers, Jira failures, limits).
    "form_lost_channel": {
        "en": "This form lost its channel; run /post-mortem again.",
        "ja": "このフォームはチャンネルの情報を失いました。もう一度 /post-mortem を実行してください。",
    },
    "form_session_gone": {
        "en": "This post-mortem session has ended, or you cannot edit it.",
        "ja": "この事後分析のセッションは終了したか、あなたには編集できません。",
    },
    "form_draft_changed": {
        "en": "The draft changed to v{version} while this form was open. Copy your changes, close the form and press Edit on the latest draft.",
        "ja": "このフォームを開いている間に下書きが v{version} に変わりました。変更内容をコピーしてフォームを閉じ、最新の下書きの「編集」を押してください。",
    },
    "answer_too_long": {
        "en": "{n} characters; at most {limit} fit here",
        "ja": "{n} 文字あります。ここに入るのは {limit} 文字までです",
    },
    "answer_empty": {"en": "the answer is empty", "ja": "回答が空です"},
    "answer_unknown_field": {
        "en": "not a field that can be set; one of: {choices}",
        "ja": "設定できる項目ではありません。次のいずれかです: {choices}",
    },
    "answer_choice": {
        "en": "{value!r} is not one of: {choices}",
        "ja": "{value!r} は次のいずれでもありません: {choices}",
    },
    "answer_yes_no": {"en": "answer yes or no", "ja": "「はい」か「いいえ」で答えてください"},
    "answer_ticket": {
        "en": "{value!r} is not a Jira issue key: expected a key like PROJ-123",
        "ja": "{value!r} は Jira の課題キーではありません。PROJ-123 のような形式で入力してください",
    },
    "answer_ticket_missing": {
        "en": "enter the Jira issue key of the bug, like PROJ-123",
        "ja": "バグの Jira 課題キーを入力してください（例: PROJ-123）",
    },
    "answer_item_parts": {
        "en": "line {line}: {parts} parts; at most 3 (what | owner | tracking), write \\| for a | inside a part",
        "ja": "{line} 行目: {parts} 個に分かれています。最大 3 個（内容 | 担当 | 追跡）です。項目内の | は \\| と書いてください",
    },
    "answer_item_what": {
        "en": "line {line}: the item itself (before the first |) is empty",
        "ja": "{line} 行目: 項目の内容（最初の | の前）が空です",
    },
    "answer_item_none": {
        "en": "line {line}: 'none' must be the only line when there are no action items",
        "ja": "{line} 行目: 「なし」は対応項目がないときに 1 行だけで書いてください",
    },
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
    "comment_too_long": {
        "en": "the Jira comment would be {length:,} characters; Jira allows {limit:,}. Shorten the longest sections: {sections}. Nothing was truncated.",
        "ja": "Jira コメントは {length:,} 文字になりますが、Jira の上限は {limit:,} 文字です。長いセクションを短くしてください：{sections}。何も切り詰めていません。",
    },
    "comment_too_long_no_sections": {"en": "none", "ja": "なし"},
    "post_body_mismatch": {
        "en": "the approved request body is missing or no longer matches its sha256",
        "ja": "承認されたリクエスト本文が見つからないか、その sha256 と一致しなくなっています",
    },
    "worker_stopped_twice": {"en": "the worker stopped twice", "ja": "ワーカーが 2 回停止しました"},
    "slack_refused_draft": {
        "en": "Slack refused part of the draft ({error})",
        "ja": "Slack が下書きの一部を受け付けませんでした（{error}）",
    },
    # a2-hygiene: the ways in (renderers/offers.py); `{for_ticket}` is the `*_for` entry, or empty with no key.
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
    # --- f-home (issue 14): help, list, App Home, reminders, the Jira offer's fallback ---
    "help_text": {
        "en": "*How /post-mortem works*\n"
        "1. `/post-mortem PROJ-123` opens a form; only the Jira key is required there.\n"
        "2. I open a thread in this channel and ask, one at a time, for what the record still needs: a "
        "deterministic repro and how often it triggers, the root-cause mechanism, the experiment that "
        "confirmed it, the fix reference (PR / commit / branch) and how the fix was validated.\n"
        "3. I post the draft and the exact Jira request body. Change a field by replying "
        "`<field>: <text>` or press Edit.\n"
        "4. Approve by replying `post it`, `go ahead` or `yes` (also 「投稿してください」「進めてください」「はい」): "
        "one comment is posted on the ticket.\n"
        "*Ways in*: `/post-mortem PROJ-123`; mention me (`@postmortem-bot write the post-mortem for "
        "PROJ-123`); the Start button I offer after a verified fix or when Jira resolves your bug.\n"
        "*Find your drafts*: `/post-mortem list`, or my Home tab.\n"
        "*Cancel*: press Cancel under the draft or in the Home tab, or reply `cancel` in the thread.",
        "ja": "*/post-mortem の使い方*\n"
        "1. `/post-mortem PROJ-123` でフォームが開きます。必須は Jira キーだけです。\n"
        "2. このチャンネルにスレッドを作り、記録に足りない項目を 1 つずつ質問します：決定的な再現手順と"
        "再現頻度、根本原因のメカニズム、それを確認した実験、修正の参照（PR／コミット／ブランチ）、修正の検証方法。\n"
        "3. 下書きと Jira に送るリクエスト本文そのものを投稿します。項目を変えるには `<field>: <内容>` と"
        "返信するか「編集」を押してください。\n"
        "4. 「投稿してください」「進めてください」「はい」（英語の `post it`、`go ahead`、`yes` も可）と返信すると"
        "承認になり、チケットにコメントを 1 件投稿します。\n"
        "*始め方*：`/post-mortem PROJ-123`、メンション（「@postmortem-bot PROJ-123 の事後分析を書いて」）、"
        "検証済みの修正の後や Jira でバグが解決したときに表示する「事後分析を始める」ボタン。\n"
        "*下書きを探す*：`/post-mortem list` またはホームタブ。\n"
        "*キャンセル*：下書きの下かホームタブの「キャンセル」を押すか、スレッドに「キャンセル」（`cancel`）と返信してください。",
    },
    "list_header": {"en": "*Your post-mortems* (newest first):", "ja": "*あなたの事後分析*（新しい順）："},
    "list_empty": {
        "en": "You have no post-mortem sessions. Start one with `/post-mortem PROJ-123`.",
        "ja": "事後分析のセッションはありません。`/post-mortem PROJ-123` で始めてください。",
    },
    "list_row": {"en": "*{ticket}* · {state} · v{version}{link}", "ja": "*{ticket}* · {state} · v{version}{link}"},
    "list_row_requester": {
        "en": "*{ticket}* · {state} · v{version} · by <@{requester}>{link}",
        "ja": "*{ticket}* · {state} · v{version} · 依頼者 <@{requester}>{link}",
    },
    "thread_link": {"en": "<{url}|thread>", "ja": "<{url}|スレッド>"},
    "state_collecting": {"en": "collecting inputs", "ja": "入力の収集中"},
    "state_scope_check": {"en": "waiting for a scope answer", "ja": "対象範囲の確認待ち"},
    "state_rendering": {"en": "drafting", "ja": "下書きを作成中"},
    "state_drafted": {"en": "drafted, awaiting approval", "ja": "下書き済み・承認待ち"},
    "state_posting": {"en": "posting", "ja": "投稿中"},
    "state_posted": {"en": "posted", "ja": "投稿済み"},
    "state_failed": {"en": "failed (Retry in the thread)", "ja": "失敗（スレッドで再試行）"},
    "state_cancelled": {"en": "cancelled", "ja": "キャンセル済み"},
    "state_expired": {"en": "expired", "ja": "期限切れ"},
    "home_title": {"en": "Your post-mortems", "ja": "あなたの事後分析"},
    "home_open": {"en": "Open", "ja": "作業中"},
    "home_posted": {"en": "Recently posted", "ja": "最近の投稿"},
    "home_awaiting": {"en": "Drafts awaiting your approval", "ja": "あなたの承認待ちの下書き"},
    "home_empty": {
        "en": "Nothing open. Start a post-mortem with `/post-mortem PROJ-123`; `/post-mortem help` explains the flow.",
        "ja": "作業中のものはありません。`/post-mortem PROJ-123` で事後分析を始めてください。"
        "流れは `/post-mortem help` で確認できます。",
    },
    "home_more": {"en": "Showing the {count} newest.", "ja": "新しい {count} 件を表示しています。"},
    "reminder": {
        "en": "<@{user}>, this post-mortem of {ticket} has been idle and expires {when} unless something "
        "changes. Press Resume (Edit) or reply here to go on, or Cancel if it is no longer needed.",
        "ja": "<@{user}> さん、{ticket} の事後分析はしばらく更新がなく、このままだと {when} に期限切れになります。"
        "続けるには「再開（編集）」を押すかここに返信してください。不要なら「キャンセル」を押してください。",
    },
    "reminder_no_edit": {
        "en": "<@{user}>, this post-mortem of {ticket} has been idle and expires {when}. Open this thread to go "
        "on, or press Cancel if it is no longer needed.",
        "ja": "<@{user}> さん、{ticket} の事後分析はしばらく更新がなく、{when} に期限切れになります。"
        "続けるにはこのスレッドを開いてください。不要なら「キャンセル」を押してください。",
    },
    "expired": {
        "en": "This post-mortem of {ticket} expired after {days} idle. Nothing was posted. Start again with "
        "`/post-mortem {ticket}`.",
        "ja": "{ticket} の事後分析は {days} 更新がなかったため期限切れになりました。何も投稿していません。"
        "`/post-mortem {ticket}` で再開できます。",
    },
    "button_resume": {"en": "Resume (Edit)", "ja": "再開（編集）"},
    "offer_fallback": {
        "en": "{ticket} was resolved. Its assignee in Jira, {name}, has no Slack account I can reach (their "
        "e-mail is hidden or matches nobody here). Could someone pass on the offer to write its post-mortem?",
        "ja": "{ticket} が解決済みになりました。Jira の担当者 {name} さんに Slack で連絡できません"
        "（メールアドレスが非公開か、一致するユーザーがいません）。事後分析の作成をどなたか伝えていただけますか？",
    },
    # b-fidelity: structure limits (postmortem/limits.py) and the Jira request body.
    "too_deep": {
        "en": "lists or quotes are nested more than {limit} levels deep; flatten them to {limit} levels or fewer",
        "ja": "リストや引用の入れ子が {limit} 段を超えています。{limit} 段以下にしてください",
    },
    "too_many_blocks": {
        "en": "more than {limit} paragraphs, list items or quotes; shorten it or attach the rest as a file",
        "ja": "段落・リスト項目・引用が {limit} 個を超えています。短くするか、残りをファイルで添付してください",
    },
    "jira_requested_by": {"en": "Requested by {name} in the {thread}.", "ja": "依頼者：{name}（{thread}）"},
    "jira_slack_thread": {"en": "Slack thread", "ja": "Slack のスレッド"},
    # b-fidelity: questions that name a field the way the person may answer it (`{reply_as}` is the field id
    # in English and the Japanese label in Japanese, so Japanese messages show no English ids).
    "ask_field_as": {
        "en": "Please reply in this thread with *{label}* as `{reply_as}: <text>`: {reason}",
        "ja": "このスレッドに *{label}* を `{reply_as}：<内容>` の形で返信してください：{reason}",
    },
    "ask_field_next": {
        "en": "Let's start with *{label}*: reply `{reply_as}: <text>` in this thread.",
        "ja": "まず *{label}* から始めましょう。このスレッドに `{reply_as}：<内容>` の形で返信してください。",
    },
    "ask_optional_as": {
        "en": "Usually included: *{label}*. Reply `{reply_as}: <text>`, or `skip` to leave the section out.",
        "ja": "通常は記載する項目です：*{label}*。`{reply_as}：<内容>` で返信するか、`skip` で省略してください。",
    },
    "revise_hint_as": {
        "en": "I don't rewrite your text. Reply `<field>: <new text>` (for example `{reply_as}: ...`) or press Edit.",
        "ja": "本文は書き換えません。`<項目名>：<新しい内容>`（例：`{reply_as}：...`）で返信するか、「編集」を押してください。",
    },
    # --- branch e-gate: the evidence gate's text checks, the tone lint's new rules, scope read from the text ---
    "gate_degenerate": {
        "en": 'has no words, only punctuation, spaces or invisible characters ("{found}")',
        "ja": "文字がありません。句読点・空白・不可視文字だけです（「{found}」）",
    },
    "gate_unknown": {
        "en": 'says the cause is not known yet ("{found}")',
        "ja": "原因がまだわかっていないと書かれています（「{found}」）",
    },
    "gate_not_on_demand": {
        "en": 'says it cannot be reproduced on demand ("{found}")',
        "ja": "必要なときに再現できないと書かれています（「{found}」）",
    },
    "gate_rare": {
        "en": 'reproduces too rarely to run on demand ("{found}"); a flake needs about one run in ten or more',
        "ja": "再現頻度が低すぎます（「{found}」）。不安定な再現には、およそ 10 回に 1 回以上の頻度が必要です",
    },
    "gate_hope": {
        "en": 'is a hope, not a verification ("{found}")',
        "ja": "期待であって、検証ではありません（「{found}」）",
    },
    "gate_stand_in": {
        "en": 'a review, a merge or a deploy is not a verification ("{found}"); show the repro or test passing',
        "ja": "レビュー・マージ・デプロイは検証ではありません（「{found}」）。再現手順やテストが成功したことを書いてください",
    },
    "gate_not_fixed": {
        "en": 'says the fix is not made yet ("{found}")',
        "ja": "修正がまだ行われていないと書かれています（「{found}」）",
    },
    "lint_marketing": {
        "en": 'marketing words ("{found}"): record what happened, in plain words',
        "ja": "宣伝的な表現（「{found}」）：起きたことを平易な言葉で記録してください",
    },
    "lint_placeholder": {
        "en": 'placeholder left in the text ("{found}"): fill it in, or leave it out',
        "ja": "仮の値が残っています（「{found}」）：埋めるか、削除してください",
    },
    "lint_long_summary": {
        "en": "the summary has {count} paragraphs: the seed asks for one",
        "ja": "概要が {count} 段落あります：1 段落で書いてください",
    },
    "lint_long_paragraph": {
        "en": "a paragraph of {count} characters (over {limit}): keep paragraphs short",
        "ja": "{count} 文字相当の段落があります（上限 {limit}）：段落は短くしてください",
    },
    "lint_item_placeholder": {
        "en": 'action item {n} ("{what}") has a placeholder part ("{found}")',
        "ja": "対応項目 {n}（{what}）に仮の値があります（「{found}」）",
    },
    "scope_hint_customer_impacting": {
        "en": 'the text reads like a customer-facing outage ("{found}"), but customer_impacting is not ticked: '
        "an outage needs its own incident report; tick it if that is what happened",
        "ja": "本文は顧客に影響する停止／インシデントのように読めます（「{found}」）が、customer_impacting に"
        "チェックがありません。停止であれば別途インシデントレポートが必要です。該当する場合はチェックしてください",
    },
    "scope_hint_trivial": {
        "en": 'the text reads like a trivial fix ("{found}"), but trivial is not ticked: for a typo or an obvious '
        "one-line fix the PR description is the record; tick it if that is what this is",
        "ja": "本文は軽微な修正のように読めます（「{found}」）が、trivial にチェックがありません。誤字や明らかな"
        "一行修正なら PR の説明が記録になります。該当する場合はチェックしてください",
    },
    "scope_ask_customer_impacting": {
        "en": 'The text reads like a customer-facing outage or incident ("{found}"). An outage needs its own incident '
        "report (timeline, impact, paging history, communications), which a bug-fix post-mortem is not. "
        "Continue only if you confirm that a bug-fix post-mortem is wanted.",
        "ja": "本文は顧客に影響する停止／インシデントのように読めます（「{found}」）。停止には別途インシデントレポート"
        "（タイムライン、影響範囲、ページング履歴、コミュニケーション記録）が必要で、バグ修正の事後分析はその"
        "代わりになりません。バグ修正の事後分析が必要だと確認された場合にのみ続行します。",
    },
    "scope_ask_trivial": {
        "en": 'The text reads like a trivial fix ("{found}"). For a typo or an obvious one-line fix the PR description '
        "is the record, with no post-mortem. Continue only if you confirm that a post-mortem is wanted.",
        "ja": "本文は軽微な修正のように読めます（「{found}」）。誤字や明らかな一行修正なら、事後分析ではなく PR の説明が"
        "記録になります。事後分析が必要だと確認された場合にのみ続行します。",
    },
    "gate_guessed": {
        "en": 'is not a named owner ("{found}")',
        "ja": "担当者が特定されていません（「{found}」）",
    },
    # d-resilience (issue 12): Jira asked the bot to wait.
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
    # The gate's reasons (rules/gate.py: `{found}` quotes the words that showed the problem) and the
    # tone lint's notes (rules/lint.py), one catalogue with the rest.
    "gate_absent": {"en": "not given", "ja": "入力がありません"},
    "gate_placeholder": {"en": 'only a placeholder ("{found}")', "ja": "「{found}」は仮の値です"},
    "gate_hypothesis": {
        "en": 'written as a hypothesis ("{found}"): the mechanism is not known',
        "ja": "仮説として書かれています（「{found}」）。メカニズムが特定されていません",
    },
    "gate_no_ref": {
        "en": 'no PR, commit or branch found in "{found}"',
        "ja": "「{found}」に PR／コミット／ブランチへの参照が見つかりません",
    },
    "gate_pending": {
        "en": 'says the fix is not verified yet ("{found}")',
        "ja": "修正がまだ検証されていません（「{found}」）",
    },
    "gate_rare_rate": {
        "en": 'repro rate "{found}": a rare failure is not a repro the next engineer can run',
        "ja": "再現頻度が「{found}」の失敗は、次の担当者が実行できる再現手順になりません",
    },
    "gate_weak_kinds": {
        "en": '"{found}" alone do not show that the fix works',
        "ja": "「{found}」だけでは修正が効くことを示せません",
    },
    "gate_category": {
        "en": '"{found}" is not a category',
        "ja": "「{found}」は分類ではありません",
    },
    "lint_hedging": {
        "en": 'hedging ("{found}"): state it as fact, or leave it out',
        "ja": "曖昧な表現（「{found}」）：断言するか、書かないでください",
    },
    "lint_blame": {
        "en": 'blame ("{found}"): describe the gap, the bug and the fix, not a person',
        "ja": "非難（「{found}」）：個人ではなく、ギャップ・バグ・修正について書いてください",
    },
    "lint_no_identifier": {
        "en": "no code identifier: name the functions, files, fields, conditions or commit SHAs",
        "ja": "コード識別子がありません：関数名、ファイルパス、フィールド、分岐条件、コミット SHA などを書いてください",
    },
    "lint_vague_mechanism": {
        "en": 'vague mechanism ("{found}"): say which function skipped which event under which condition',
        "ja": "曖昧なメカニズム（「{found}」）：どの関数がどの条件でどのイベントをスキップしたかを書いてください",
    },
    "lint_advocacy": {
        "en": 'advocacy ("{found}"): a proposal belongs in a separate document linked from an action item',
        "ja": "主張（「{found}」）：提案は別の文書にして、対応項目からリンクしてください",
    },
    "lint_no_scope": {
        "en": "no stated scope: say what was not re-tested (configurations, workloads)",
        "ja": "検証範囲が書かれていません：再テストしていない構成／ワークロードを書いてください",
    },
    "lint_no_category": {
        "en": "why_missed has no category: ci_gap, latent_code, workload_gap, incomplete_fix, review_miss "
        "or no_good_reason",
        "ja": "見逃された理由に分類がありません：ci_gap、latent_code、workload_gap、incomplete_fix、"
        "review_miss、no_good_reason から選んでください",
    },
    "lint_item_owner": {
        "en": 'action item {n} ("{what}") has no owner',
        "ja": "対応項目 {n}（{what}）に担当者がありません",
    },
    "lint_item_tracking": {
        "en": 'action item {n} ("{what}") has no tracking artifact (ticket, PR, test name or link)',
        "ja": "対応項目 {n}（{what}）に追跡用の成果物（チケット、PR、テスト名、リンク）がありません",
    },
    "lint_empty_section": {
        "en": "{heading} is empty: it is usually included; add it, or leave it out on purpose",
        "ja": "「{heading}」が空です：通常は記載します。書くか、意図して省いてください",
    },
}


def say(key: str, lang: Lang, **params: object) -> str:
    """One message of the catalogue in `lang`, with its parameters filled in."""
    return _CATALOGUE[key][lang].format(**params)


def field_label(field: str, lang: Lang) -> str:
    """A field's human label; the field name itself when it has none."""
    return FIELD_LABELS.get(field, {}).get(lang, field)


def lang_of_locale(locale: str | None) -> Lang:
    """The bot's language for a Slack locale (`ja-JP` → ja; anything else, or none, → en)."""
    return "ja" if (locale or "").lower().startswith("ja") else "en"


def reply_as(field: str, lang: Lang) -> str:
    """How a person names a field in a `<field>: <text>` reply: its id in English, its label in Japanese."""
    return field_label(field, lang) if lang == "ja" else field
