"""The evidence gate's reasons added with the structural readers (rules/evidence_steps.py); `{found}` quotes the
words that showed the problem."""

from __future__ import annotations

MESSAGES: dict[str, dict[str, str]] = {
    "gate_no_steps": {
        "en": 'names no step to run, only what goes wrong ("{found}")',
        "ja": "実行する手順がなく、起きることだけが書かれています（「{found}」）",
    },
    "gate_single_trial": {
        "en": 'a result seen in a single trial ("{found}"), which shows nothing about a failure that comes and goes',
        "ja": "一度だけの試行の結果です（「{found}」）。たまに起きる不具合については何も示しません",
    },
}
