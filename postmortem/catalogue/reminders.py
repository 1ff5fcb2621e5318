"""Reminders and expiry: one reminder before an idle session expires, and the notice when it does."""

from __future__ import annotations

MESSAGES: dict[str, dict[str, str]] = {
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
    "button_resume": {"en": "Resume (Edit)", "ja": "再開（編集）"},
    "expired": {
        "en": "This post-mortem of {ticket} expired after {days} idle. Nothing was posted. Start again with "
        "`/post-mortem {ticket}`.",
        "ja": "{ticket} の事後分析は {days} 更新がなかったため期限切れになりました。何も投稿していません。"
        "`/post-mortem {ticket}` で再開できます。",
    },
    # A length of time in its largest whole unit (renderers/reminders.py): one and many.
    "duration_day": {"en": "{count} day", "ja": "{count} 日間"},
    "duration_days": {"en": "{count} days", "ja": "{count} 日間"},
    "duration_hour": {"en": "{count} hour", "ja": "{count} 時間"},
    "duration_hours": {"en": "{count} hours", "ja": "{count} 時間"},
    "duration_minute": {"en": "{count} minute", "ja": "{count} 分"},
    "duration_minutes": {"en": "{count} minutes", "ja": "{count} 分"},
    "duration_second": {"en": "{count} second", "ja": "{count} 秒"},
    "duration_seconds": {"en": "{count} seconds", "ja": "{count} 秒"},
}
