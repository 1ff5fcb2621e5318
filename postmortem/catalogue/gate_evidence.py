"""The evidence gate's reasons added with the structural readers (rules/evidence_steps.py); `{found}` quotes the
words that showed the problem."""

from __future__ import annotations

MESSAGES: dict[str, dict[str, str]] = {
    "gate_no_steps": {
        "en": 'names no step to run, only what goes wrong ("{found}")',
        "ja": "実行する手順がなく、起きることだけが書かれています（「{found}」）",
    },
    "gate_fails_after": {
        "en": 'failures are still counted after the fix ("{found}")',
        "ja": "修正後にも失敗が数えられています（「{found}」）",
    },
    "gate_rate_guessed": {
        "en": 'the rate is guessed, not counted ("{found}"): say how many runs and how many failed',
        "ja": "頻度が数えたものではなく推測です（「{found}」）。何回実行して何回失敗したかを書いてください",
    },
    "gate_not_a_change": {
        "en": 'names an issue, a build or a page of notes, not the change that fixes it ("{found}")',
        "ja": "修正そのものではなく、課題・ビルド・資料ページを指しています（「{found}」）",
    },
    "gate_single_trial": {
        "en": 'a result seen in a single trial ("{found}"), which shows nothing about a failure that comes and goes',
        "ja": "一度だけの試行の結果です（「{found}」）。たまに起きる不具合については何も示しません",
    },
}
