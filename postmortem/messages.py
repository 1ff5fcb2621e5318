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
