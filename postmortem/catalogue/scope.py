"""Scope: a bug-fix post-mortem is not an outage's incident report, and a trivial fix needs none."""

from __future__ import annotations

MESSAGES: dict[str, dict[str, str]] = {
    # A scope flag the person ticked (rules/gate.py): trivial is declined, an outage is confirmed first.
    "scope_marked_trivial": {
        "en": "This is marked trivial (a typo or an obvious one-line fix): the PR description is the record, "
        "so no post-mortem is drafted.",
        "ja": "軽微な修正（誤字、明らかな一行修正）とされています。記録には PR の説明を使うため、"
        "事後分析は作成しません。",
    },
    "scope_marked_customer_impacting": {
        "en": "This is marked customer-impacting: an outage needs its own incident report (timeline, impact, "
        "paging history, communications), which a bug-fix post-mortem is not. Continue only if you "
        "confirm that a bug-fix post-mortem is wanted as well.",
        "ja": "顧客に影響する停止／インシデントとされています。別途インシデントレポート"
        "（タイムライン、影響範囲、ページング履歴、コミュニケーション記録）が必要で、"
        "バグ修正の事後分析はその代わりになりません。"
        "バグ修正の事後分析も必要だと確認された場合にのみ続行します。",
    },
    "scope_stop": {
        "en": "{reason}\nReply `continue` to write a bug-fix post-mortem anyway, or `cancel`.",
        "ja": "{reason}\nバグ修正の事後分析として続ける場合は `continue`（続行）、やめる場合は `cancel`（キャンセル）と返信してください。",
    },
    "scope_first": {
        "en": "First answer `continue` (write a bug-fix post-mortem anyway) or `cancel`.",
        "ja": "先に `continue`（バグ修正の事後分析として続ける）か `cancel`（キャンセル）で答えてください。",
    },
    "declined": {"en": "{reason}\nNothing to write here.", "ja": "{reason}\n事後分析は作成しません。"},
    # A scope read from the text (rules/scope_text.py): a hint for the CLI, a question in the thread.
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
}
