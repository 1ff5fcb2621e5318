"""The nine sections in their fixed order, their headings and the fixed sentences of the seed, per language.

Sections, labels and options come from the field registry (postmortem/field_table.py); this module keeps the
names the renderers and the lint have always used.
"""

from __future__ import annotations

from postmortem.field_table import REGISTRY
from postmortem.fields import Section

__all__ = ["ACTION_ITEMS_NONE", "LABELS", "SECTIONS", "Section"]

#: Section order in every rendering (seed 構成; DESIGN §2), with the fields each shows.
SECTIONS: tuple[Section, ...] = REGISTRY.sections

#: The seed's explicit sentence when there are no action items.
ACTION_ITEMS_NONE: dict[str, str] = {
    "en": "None — the fix is sufficient; no follow-up is needed for this class of bug.",
    "ja": "なし — 修正で十分であり、この種のバグに関するフォローアップは不要です。",
}

#: Small labels used inside sections: each field's document label, and the words of an action item.
LABELS: dict[str, dict[str, str]] = {
    **{f.name: {lang: REGISTRY.doc_label(f.name, lang) for lang in ("en", "ja")} for f in REGISTRY.fields},
    "category": {"en": "Category", "ja": "分類"},
    "item_owner": {"en": "owner", "ja": "担当"},
    "item_tracking": {"en": "tracking", "ja": "追跡"},
}
