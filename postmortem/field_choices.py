"""The rules' nine sections and the choices of the DESIGN §2 fields, declared once (data of
postmortem/field_table.py)."""

from __future__ import annotations

from postmortem.fields import Option, SectionHead


def _opt(value: str, en: str, ja: str) -> Option:
    return Option(value, {"en": en, "ja": ja})


def en_ja(en: str, ja: str) -> dict[str, str]:
    """A text in both languages."""
    return {"en": en, "ja": ja}


#: Section order in every rendering (docs/rules.md#the-sections-in-this-order; DESIGN §2).
HEADS: tuple[SectionHead, ...] = (
    SectionHead("summary", en_ja("Summary", "概要")),
    SectionHead("symptom", en_ja("Symptom", "症状")),
    SectionHead("root_cause", en_ja("Root cause", "根本原因")),
    SectionHead("why_symptom", en_ja("Why the symptom appeared", "症状が発生した理由")),
    SectionHead("fix", en_ja("Fix", "修正")),
    SectionHead("how_found", en_ja("How it was found", "発見の経緯")),
    SectionHead("why_missed", en_ja("Why it was missed", "見逃された理由")),
    SectionHead("validation", en_ja("Validation", "検証")),
    SectionHead("action_items", en_ja("Action items", "対応項目")),
)

#: The categories for "Why it was missed" (docs/rules.md#the-sections-in-this-order).
WHY_MISSED_OPTIONS: tuple[Option, ...] = (
    _opt("ci_gap", "CI gap", "CI のギャップ"),
    _opt("latent_code", "Latent code", "潜在的なコード"),
    _opt("workload_gap", "Workload gap", "ワークロードのギャップ"),
    _opt("incomplete_fix", "Incomplete earlier fix", "以前の修正が不完全"),
    _opt("review_miss", "Review miss", "レビューでの見落とし"),
    _opt("no_good_reason", "No good reason: this should have been caught", "妥当な理由はありません。検出すべきでした"),
)

#: How often the repro triggers the bug (DESIGN §2): `rarely` is refused by the gate.
REPRO_RATE_OPTIONS: tuple[Option, ...] = (
    _opt("every_run", "Every run", "毎回"),
    _opt(
        "high_frequency", "High frequency (fails about one run in ten or more)", "高頻度（およそ 10 回に 1 回以上失敗）"
    ),
    _opt("rarely", "Rarely", "まれ"),
)

#: The verifications of "Validation" (docs/rules.md#the-sections-in-this-order); the first four show that the
#: fix works, the last two alone do not.
VALIDATION_KIND_OPTIONS: tuple[Option, ...] = (
    _opt("original_repro_passes", "Original repro passes", "元の再現手順が成功"),
    _opt("failing_test_passes", "Failing test passes", "失敗していたテストが成功"),
    _opt("workload_completes", "Workload completes", "ワークロードが完了"),
    _opt("perf_restored", "Performance restored", "性能が回復"),
    _opt("stress_soak", "Stress or soak run", "ストレス／連続稼働テスト"),
    _opt("other_configs", "Other configurations", "他の構成"),
)

DESTINATION_OPTIONS: tuple[Option, ...] = (
    _opt("jira_comment", "Jira comment", "Jira コメント"),
    _opt("pr_description", "PR description (Markdown file)", "PR の説明（Markdown ファイル）"),
    _opt("docs_file", "docs/postmortems/ file", "docs/postmortems/ のファイル"),
    _opt("wiki", "Wiki page (Markdown file)", "Wiki ページ（Markdown ファイル）"),
)

LANG_OPTIONS: tuple[Option, ...] = (_opt("en", "English", "英語"), _opt("ja", "Japanese", "日本語"))
