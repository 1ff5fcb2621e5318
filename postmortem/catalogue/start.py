"""Starting a session: the `/post-mortem` form, what it refuses, and the thread it opens."""

from __future__ import annotations

MESSAGES: dict[str, dict[str, str]] = {
    # The form (renderers/modal.py): its frame, its one line of guidance and the scope block's hint.
    "modal_title": {"en": "Post-mortem", "ja": "事後分析"},
    "modal_submit": {"en": "Submit", "ja": "送信"},
    "modal_close": {"en": "Cancel", "ja": "キャンセル"},
    "modal_choose": {"en": "Choose…", "ja": "選択…"},
    "modal_intro": {
        "en": "Fill in what you know. Only the ticket is required here: the bot asks in the thread "
        "for anything the post-mortem still needs, and says why.",
        "ja": "わかる範囲で入力してください。ここで必須なのはチケットだけです。足りない項目は、"
        "ボットが理由とともにスレッドで質問します。",
    },
    "modal_kept": {
        "en": "The current value ({n} characters) is too long to show here. It is kept unless you type a replacement.",
        "ja": "現在の値（{n} 文字）は長すぎてここに表示できません。新しい値を入力しない限り、そのまま保持されます。",
    },
    "modal_scope_hint": {
        "en": "Post-mortems are for fixed bugs: an outage needs an incident report, a trivial fix needs none.",
        "ja": "事後分析は修正済みのバグが対象です。障害にはインシデントレポート、軽微な修正には不要です。",
    },
    # A submitted form that cannot be used.
    "form_lost_channel": {
        "en": "This form lost its channel; run /post-mortem again.",
        "ja": "このフォームはチャンネルの情報を失いました。もう一度 /post-mortem を実行してください。",
    },
    "form_unconfirmed": {
        "en": "postmortem-bot could not confirm in time that this form was saved: its store is unavailable or slow "
        "right now. Submit it again in a moment: if it was saved, that finds it, and a post-mortem is never "
        "started twice.",
        "ja": "postmortem-bot はこのフォームが保存されたことを時間内に確認できませんでした（ストアが利用できないか、"
        "応答が遅れています）。少し後でもう一度送信してください。保存済みならそれを見つけます。"
        "事後分析が二重に始まることはありません。",
    },
    "submission_found": {
        "en": "Your earlier submission already started the post-mortem of {ticket}: it goes on in its thread. "
        "No second one was started.",
        "ja": "{ticket} の事後分析は、先ほどの送信ですでに始まっています。スレッドで続けてください。"
        "二つ目は作成していません。",
    },
    "form_session_gone": {
        "en": "This post-mortem session has ended, or you cannot edit it.",
        "ja": "この事後分析のセッションは終了したか、あなたには編集できません。",
    },
    "form_draft_changed": {
        "en": "The draft changed to v{version} while this form was open. Copy your changes, close the form and press Edit on the latest draft.",
        "ja": "このフォームを開いている間に下書きが v{version} に変わりました。変更内容をコピーしてフォームを閉じ、最新の下書きの「編集」を押してください。",
    },
    # An Edit that changes the ticket is a new start on it: refused, with the reason, unless it passes.
    "form_ticket_taken": {
        "en": "Another open post-mortem is already on {ticket}. Keep {current}, or finish or cancel that one first.",
        "ja": "{ticket} にはすでに進行中の事後分析があります。{current} のままにするか、先にそちらを完了またはキャンセルしてください。",
    },
    "edit_ticket_taken": {
        "en": "The edit was not applied: another open post-mortem is already on {ticket}. This one stays on {current}; nothing changed.",
        "ja": "編集は適用していません：{ticket} にはすでに進行中の事後分析があります。この事後分析は {current} のままで、何も変更していません。",
    },
    "edit_ticket_not_found": {
        "en": "The edit was not applied: Jira has no issue {ticket} (or the bot cannot see it). This post-mortem stays on {current}; nothing changed.",
        "ja": "編集は適用していません：Jira に {ticket} という課題がありません（またはボットから見えません）。この事後分析は {current} のままで、何も変更していません。",
    },
    "edit_ticket_hidden": {
        "en": "The edit was not applied: Jira has no issue {ticket} that <@{requester}> can comment on (it may not exist, or they may not have access to it). This post-mortem stays on {current}; nothing changed.",
        "ja": "編集は適用していません：Jira に、<@{requester}> がコメントできる {ticket} という課題がありません（存在しないか、アクセス権がない可能性があります）。この事後分析は {current} のままで、何も変更していません。",
    },
    "edit_ticket_unchecked": {
        "en": "The edit was not applied: Jira could not say now whether {ticket} can take this post-mortem ({reason}). It stays on {current}; nothing changed. Try the edit again later.",
        "ja": "編集は適用していません：{ticket} にこの事後分析を移せるか、今は Jira で確認できませんでした（{reason}）。{current} のままで、何も変更していません。後でもう一度編集してください。",
    },
    "edit_draft_changed": {
        "en": "The edit was not applied: the draft changed to v{version} meanwhile. Press Edit on the latest draft.",
        "ja": "編集は適用していません：その間に下書きが v{version} に変わりました。最新の下書きの「編集」を押してください。",
    },
    # The thread's first message, and a ticket Jira does not know (asked again in the thread).
    "parent": {
        "en": "Post-mortem for {ticket}, requested by <@{user}>. I'll work in this thread.",
        "ja": "{ticket} の事後分析（依頼者 <@{user}>）。このスレッドで進めます。",
    },
    "ticket_not_found": {
        "en": "Jira has no issue {ticket} (or the bot cannot see it). Reply in this thread with the right key.",
        "ja": "Jira に {ticket} という課題がありません（またはボットから見えません）。正しいキーをこのスレッドに返信してください。",
    },
    "ticket_hidden": {
        "en": "Jira has no issue {ticket} that you can comment on (it may not exist, or you may not have access to it). Reply in this thread with the right key.",
        "ja": "Jira に、あなたがコメントできる {ticket} という課題がありません（存在しないか、アクセス権がない可能性があります）。正しいキーをこのスレッドに返信してください。",
    },
    "slack_failed": {
        "en": "I could not start the post-mortem thread for {ticket} in <#{channel}> (Slack said `{error}`). Invite me to that channel, then press Retry: everything you entered is kept.",
        "ja": "<#{channel}> で {ticket} の事後分析スレッドを開始できませんでした（Slack の応答：`{error}`）。ボットをそのチャンネルに招待してから「再試行」を押してください。入力内容は保存されています。",
    },
}
