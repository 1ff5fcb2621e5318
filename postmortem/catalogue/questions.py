"""Questions in the thread and the evidence gate: what is missing, why, and what would do."""

from __future__ import annotations

MESSAGES: dict[str, dict[str, str]] = {
    # Asking for a field; `{reply_as}` is the field id in English and its label in Japanese, so Japanese
    # messages show no English ids.
    "missing_intro": {
        "en": "I can't draft this post-mortem yet: a post-mortem built on a hypothesis is worse than none. Missing:",
        "ja": "まだ事後分析を作成できません。仮説に基づく事後分析は誤解を招きます。不足している項目：",
    },
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
    "answer_rejected": {
        "en": "That answer doesn't fill *{label}* yet: {reason} Please reply again.",
        "ja": "その返信では *{label}* を埋められません：{reason} もう一度返信してください。",
    },
    "button_done": {"en": "Done", "ja": "完了"},
    # The gate's reasons (rules/gate.py); `{found}` quotes the words that showed the problem.
    "gate_absent": {"en": "not given", "ja": "入力がありません"},
    "gate_placeholder": {"en": 'only a placeholder ("{found}")', "ja": "「{found}」は仮の値です"},
    "gate_placeholder_inside": {
        "en": 'a placeholder stands where the facts belong ("{found}")',
        "ja": "事実を書くべきところが仮の記述のままです（「{found}」）",
    },
    "gate_degenerate": {
        "en": 'has no words, only punctuation, spaces or invisible characters ("{found}")',
        "ja": "文字がありません。句読点・空白・不可視文字だけです（「{found}」）",
    },
    "gate_hypothesis": {
        "en": 'written as a hypothesis ("{found}"): the mechanism is not known',
        "ja": "仮説として書かれています（「{found}」）。メカニズムが特定されていません",
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
    "gate_rare_rate": {
        "en": 'repro rate "{found}": a rare failure is not a repro the next engineer can run',
        "ja": "再現頻度が「{found}」の失敗は、次の担当者が実行できる再現手順になりません",
    },
    "gate_no_ref": {
        "en": 'no PR, commit or branch found in "{found}"',
        "ja": "「{found}」に PR／コミット／ブランチへの参照が見つかりません",
    },
    "gate_not_fixed": {
        "en": 'says the fix is not made yet ("{found}")',
        "ja": "修正がまだ行われていないと書かれています（「{found}」）",
    },
    "gate_pending": {
        "en": 'says the fix is not verified yet ("{found}")',
        "ja": "修正がまだ検証されていません（「{found}」）",
    },
    "gate_hope": {
        "en": 'is a hope, not a verification ("{found}")',
        "ja": "期待であって、検証ではありません（「{found}」）",
    },
    "gate_stand_in": {
        "en": 'a review, a merge or a deploy is not a verification ("{found}"); show the repro or test passing',
        "ja": "レビュー・マージ・デプロイは検証ではありません（「{found}」）。再現手順やテストが成功したことを書いてください",
    },
    "gate_weak_kinds": {
        "en": '"{found}" alone do not show that the fix works',
        "ja": "「{found}」だけでは修正が効くことを示せません",
    },
    "gate_guessed": {
        "en": 'is not a named owner ("{found}")',
        "ja": "担当者が特定されていません（「{found}」）",
    },
    "gate_category": {
        "en": '"{found}" is not a category',
        "ja": "「{found}」は分類ではありません",
    },
    # Clause readings and positive evidence (rules/reading.py, rules/evidence_clauses.py).
    "gate_hearsay": {
        "en": 'is someone else\'s word, not what you ran or saw ("{found}")',
        "ja": "伝聞であって、自分で実行・確認した結果ではありません（「{found}」）",
    },
    "gate_appearance": {
        "en": 'says how it looks, not what was observed ("{found}")',
        "ja": "様子・印象であって、観測した結果ではありません（「{found}」）",
    },
    "gate_conjecture": {
        "en": 'is a conjecture, not a result ("{found}")',
        "ja": "推測であって、結果ではありません（「{found}」）",
    },
    "gate_not_done": {
        "en": 'says it has not been done yet ("{found}")',
        "ja": "まだ実施されていないと書かれています（「{found}」）",
    },
    "gate_planned": {
        "en": 'is a plan, not something done ("{found}")',
        "ja": "予定であって、実施済みのことではありません（「{found}」）",
    },
    "gate_watching": {
        "en": 'watching dashboards or waiting for a recurrence is not a check ("{found}")',
        "ja": "監視や再発待ちは検証ではありません（「{found}」）",
    },
    "gate_inference": {
        "en": 'a reading of the code, a review or an agreement is not an experiment ("{found}")',
        "ja": "コードの読解・レビュー・合意は実験ではありません（「{found}」）",
    },
    "gate_alternatives": {
        "en": 'offers more than one possible cause ("{found}"): the mechanism is not settled',
        "ja": "原因の候補が複数挙げられています（「{found}」）。メカニズムが確定していません",
    },
    "gate_no_mechanism": {
        "en": 'names no element and what it does wrong; it restates the symptom or only names a kind of bug ("{found}")',
        "ja": "どの要素が何を誤るのかが書かれていません。症状の言い換えか、不具合の種類だけです（「{found}」）",
    },
    "gate_no_experiment": {
        "en": 'states no experiment and what it showed ("{found}")',
        "ja": "実施した実験とその結果が書かれていません（「{found}」）",
    },
    "gate_no_pass": {
        "en": 'states no completed check and its outcome ("{found}")',
        "ja": "実施済みの確認とその結果が書かれていません（「{found}」）",
    },
    "gate_ref_pending": {
        "en": 'the reference does not resolve yet ("{found}")',
        "ja": "参照先がまだ存在しません（「{found}」）",
    },
    "gate_contradicts": {
        "en": 'the text ("{found}") contradicts the answer "{answer}"',
        "ja": "本文（「{found}」）が回答「{answer}」と矛盾しています",
    },
    # What each gate field needs, said once: every reason for that field ends with it.
    "gate_needed": {"en": "{reason} — needed: {needed}", "ja": "{reason}。必要なもの：{needed}"},
    "needed_summary": {
        "en": "one paragraph on what broke for the user or workload, and one sentence on what fixed it",
        "ja": "ユーザー／ワークロードの観点で何が壊れたのか（1段落）と、何によって修正されたのか（1文）",
    },
    "needed_owner": {
        "en": "the person or team who owns the fix (never guessed)",
        "ja": "修正の担当者（個人またはチーム。推測では埋めません）",
    },
    "needed_repro": {
        "en": "steps the next engineer can run that reproduce it every time, or a flake at high frequency",
        "ja": "次の担当者が実行できる決定的な再現手順、または高頻度で不安定さを再現できる手順",
    },
    "needed_root_cause": {
        "en": "the mechanism, with code identifiers, confirmed rather than suspected",
        "ja": "仮説ではなく特定されたメカニズム（コード識別子つき）",
    },
    "needed_fix_ref": {
        "en": "the PR, commit or branch of the fix (a URL, owner/repo#N, #N, a commit SHA or a branch)",
        "ja": "修正の PR／コミット／ブランチへの参照（URL、owner/repo#N、#N、コミット SHA、ブランチ名）",
    },
    "needed_fix": {
        "en": "what changed, and why it addresses the cause rather than hiding the symptom",
        "ja": "何を変更したのか、なぜ症状を隠すのではなく根本原因に対処するのか",
    },
    "needed_validation": {
        "en": "the original repro, failing test or workload shown passing with the fix",
        "ja": "元の再現手順、失敗していたテスト、またはワークロードが修正後に成功したこと",
    },
    "needed_repro_rate": {
        "en": "how often the steps trigger the bug: every run, or a flake that fails about one run in ten or more",
        "ja": "手順でバグが起きる頻度（毎回、またはおよそ 10 回に 1 回以上失敗するフレーク）",
    },
    "needed_confirmed_by": {
        "en": 'the one experiment that confirmed the mechanism; "the fix makes the original repro pass, and '
        'reverting it brings the failure back" is a valid answer',
        "ja": "メカニズムを確認した唯一の実験。"
        "「修正で元の再現手順が成功し、修正を戻すと再び失敗する」も有効な回答です",
    },
    "needed_validation_kinds": {
        "en": "at least one verification that shows the fix works: original repro passes, failing test passes, "
        "workload completes or performance restored",
        "ja": "修正が効くことを示す検証を少なくとも 1 つ（元の再現手順が成功、失敗していたテストが成功、"
        "ワークロードが完了、性能が回復）",
    },
}
