"""The nine sections in their fixed order, their headings and the fixed sentences of the seed, per language."""

from __future__ import annotations

from dataclasses import dataclass

from postmortem.model import Lang


@dataclass(frozen=True)
class Section:
    """One section of the post-mortem: its key, the fields it shows and whether the seed requires it."""

    key: str
    fields: tuple[str, ...]
    required: bool
    heading: dict[str, str]


#: Section order in every rendering (seed 構成; DESIGN §2). `repro` is shown in the Symptom section.
SECTIONS: tuple[Section, ...] = (
    Section("summary", ("summary", "owner"), True, {"en": "Summary", "ja": "概要"}),
    Section("symptom", ("symptom", "repro"), False, {"en": "Symptom", "ja": "症状"}),
    Section("root_cause", ("root_cause",), True, {"en": "Root cause", "ja": "根本原因"}),
    Section("why_symptom", ("why_symptom",), False, {"en": "Why the symptom appeared", "ja": "症状が発生した理由"}),
    Section("fix", ("fix", "fix_ref"), True, {"en": "Fix", "ja": "修正"}),
    Section("how_found", ("how_found",), False, {"en": "How it was found", "ja": "発見の経緯"}),
    Section("why_missed", ("why_missed_category", "why_missed"), False,
            {"en": "Why it was missed", "ja": "見逃された理由"}),
    Section("validation", ("validation", "validation_scope"), True, {"en": "Validation", "ja": "検証"}),
    Section("action_items", ("action_items", "action_items_none"), False,
            {"en": "Action items", "ja": "対応項目"}),
)

#: Sections the seed says are "usually included": asked for once, `skip` leaves them out.
USUALLY_INCLUDED: tuple[str, ...] = ("symptom", "why_symptom", "how_found", "why_missed", "action_items")

#: The seed's categories for "Why it was missed".
WHY_MISSED_LABELS: dict[str, dict[str, str]] = {
    "ci_gap": {"en": "CI gap", "ja": "CI のギャップ"},
    "latent_code": {"en": "Latent code", "ja": "潜在的なコード"},
    "workload_gap": {"en": "Workload gap", "ja": "ワークロードのギャップ"},
    "incomplete_fix": {"en": "Incomplete earlier fix", "ja": "以前の修正が不完全"},
    "review_miss": {"en": "Review miss", "ja": "レビューでの見落とし"},
    "no_good_reason": {"en": "No good reason: this should have been caught",
                       "ja": "妥当な理由はありません。検出すべきでした"},
}

#: The seed's explicit sentence when there are no action items.
ACTION_ITEMS_NONE: dict[str, str] = {
    "en": "None — the fix is sufficient; no follow-up is needed for this class of bug.",
    "ja": "なし — 修正で十分であり、この種のバグに関するフォローアップは不要です。",
}

#: Small labels used inside sections.
LABELS: dict[str, dict[str, str]] = {
    "repro": {"en": "Reproduction", "ja": "再現手順"},
    "owner": {"en": "Owner", "ja": "担当者"},
    "fix_ref": {"en": "Fix reference", "ja": "修正の参照"},
    "ticket": {"en": "Ticket", "ja": "チケット"},
    "validation_scope": {"en": "Scope", "ja": "検証範囲"},
    "category": {"en": "Category", "ja": "分類"},
    "item_owner": {"en": "owner", "ja": "担当"},
    "item_tracking": {"en": "tracking", "ja": "追跡"},
}


def heading(section_key: str, lang: Lang) -> str:
    """The heading of a section in a language."""
    return next(s.heading[lang] for s in SECTIONS if s.key == section_key)
