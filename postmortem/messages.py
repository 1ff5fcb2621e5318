"""Everything the bot says, in English and Japanese, in one catalogue so both languages stay in step."""

from __future__ import annotations

from postmortem.model import Lang

FIELD_LABELS: dict[str, dict[str, str]] = {
    "ticket": {"en": "Jira key", "ja": "Jira キー"},
    "summary": {"en": "Summary", "ja": "概要"},
    "owner": {"en": "Owner of the fix", "ja": "修正の担当者"},
    "symptom": {"en": "Symptom", "ja": "症状"},
    "repro": {"en": "Deterministic repro", "ja": "決定的な再現手順"},
    "root_cause": {"en": "Root cause (the mechanism)", "ja": "根本原因（メカニズム）"},
    "why_symptom": {"en": "Why the symptom appeared", "ja": "症状が発生した理由"},
    "fix_ref": {"en": "Fix reference (PR / commit / branch)", "ja": "修正の参照（PR／コミット／ブランチ）"},
    "fix": {"en": "Fix", "ja": "修正"},
    "how_found": {"en": "How it was found", "ja": "発見の経緯"},
    "why_missed_category": {"en": "Why it was missed (category)", "ja": "見逃された理由（分類）"},
    "why_missed": {"en": "Why it was missed", "ja": "見逃された理由"},
    "validation": {"en": "Validation", "ja": "検証"},
    "validation_scope": {"en": "What was not re-tested", "ja": "再テストしていない範囲"},
    "action_items": {"en": "Action items", "ja": "対応項目"},
    "destination": {"en": "Destination", "ja": "掲載先"},
    "lang": {"en": "Language", "ja": "言語"},
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
    "ask_field": {
        "en": "Please reply in this thread with *{label}* (`{field}`): {reason}",
        "ja": "このスレッドに *{label}*（`{field}`）を返信してください：{reason}",
    },
    "ask_optional": {
        "en": "Usually included: *{label}* (`{field}`). Reply with it, or `skip` to leave the section out.",
        "ja": "通常は記載する項目です：*{label}*（`{field}`）。返信するか、`skip` で省略してください。",
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
    "posting": {"en": "Approved by <@{user}>. Posting v{version} to {ticket}…",
                "ja": "<@{user}> が承認しました。v{version} を {ticket} に投稿しています…"},
    "posted": {"en": "Posted to {ticket}: {url}", "ja": "{ticket} に投稿しました：{url}"},
    "offer_handoff": {
        "en": "Want a leadership-toned version? I can hand off to management-talk.",
        "ja": "リーダー向けのトーンにした版も必要ですか？ management-talk に引き継げます。",
    },
    "handed_off": {"en": "Handed off to management-talk (job `{job_id}`).",
                   "ja": "management-talk に引き継ぎました（ジョブ `{job_id}`）。"},
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
    "unknown_field": {"en": "`{field}` is not a field I know. Fields: {fields}",
                      "ja": "`{field}` という項目はありません。項目：{fields}"},
    "post_failed": {
        "en": "Posting to Jira failed: {reason} The draft and your approval are kept; press Retry when fixed.",
        "ja": "Jira への投稿に失敗しました：{reason} 下書きと承認は保持しています。解決したら「再試行」を押してください。",
    },
    "render_failed": {"en": "I couldn't render the draft: {reason}", "ja": "下書きを作成できませんでした：{reason}"},
    "unavailable": {
        "en": "postmortem-bot is unavailable right now (its store does not answer). Nothing was lost; try again shortly.",
        "ja": "postmortem-bot は現在利用できません（ストアが応答しません）。データは失われていません。少し後で再度お試しください。",
    },
    "session_gone": {"en": "This post-mortem session has ended or expired.",
                     "ja": "この事後分析のセッションは終了したか期限切れです。"},
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
    "revise_hint": {
        "en": "I don't rewrite your text. Reply `<field>: <new text>` (for example `{field}: ...`) or press Edit.",
        "ja": "本文は書き換えません。`<field>: <新しい内容>`（例：`{field}: ...`）で返信するか、「編集」を押してください。",
    },
    "already_approved": {
        "en": "v{version} is already approved; it is posted once.",
        "ja": "v{version} はすでに承認済みです。投稿は 1 回だけです。",
    },
    "button_edit": {"en": "Edit", "ja": "編集"},
    "button_cancel": {"en": "Cancel", "ja": "キャンセル"},
    "button_retry": {"en": "Retry", "ja": "再試行"},
    "button_handoff": {"en": "Hand off to management-talk", "ja": "management-talk に引き継ぐ"},
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
    "list_row_requester": {"en": "*{ticket}* · {state} · v{version} · by <@{requester}>{link}",
                           "ja": "*{ticket}* · {state} · v{version} · 依頼者 <@{requester}>{link}"},
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
