"""Help, the list of one's post-mortems and the Home tab."""

from __future__ import annotations

MESSAGES: dict[str, dict[str, str]] = {
    # `/post-mortem help`.
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
    # `/post-mortem list`.
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
    # A session's state, as the list and the Home tab name it.
    "state_collecting": {"en": "collecting inputs", "ja": "入力の収集中"},
    "state_scope_check": {"en": "waiting for a scope answer", "ja": "対象範囲の確認待ち"},
    "state_rendering": {"en": "drafting", "ja": "下書きを作成中"},
    "state_drafted": {"en": "drafted, awaiting approval", "ja": "下書き済み・承認待ち"},
    "state_posting": {"en": "posting", "ja": "投稿中"},
    "state_posted": {"en": "posted", "ja": "投稿済み"},
    "state_failed": {"en": "failed (Retry in the thread)", "ja": "失敗（スレッドで再試行）"},
    "state_cancelled": {"en": "cancelled", "ja": "キャンセル済み"},
    "state_expired": {"en": "expired", "ja": "期限切れ"},
    # The Home tab.
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
}
