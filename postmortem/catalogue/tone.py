"""The tone lint's notes (rules/lint.py): it never edits the text, it says what to change and why."""

from __future__ import annotations

MESSAGES: dict[str, dict[str, str]] = {
    "lint_header": {
        "en": "Tone check: {count} note(s). I never edit your text; change a field with `<field>: <text>`.",
        "ja": "トーンの確認：{count} 件。本文は書き換えません。変更は `<field>: <text>` で返信してください。",
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
