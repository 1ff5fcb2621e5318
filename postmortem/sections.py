"""The nine sections in their fixed order, their headings and the rules' fixed sentences, per language.

Sections, labels and options come from the field registry (postmortem/field_table.py); this module keeps the
names the renderers and the lint have always used.
"""

from __future__ import annotations

from postmortem.field_table import REGISTRY
from postmortem.fields import Section
from postmortem.messages import both

__all__ = ["ACTION_ITEMS_NONE", "LABELS", "SECTIONS", "Section"]

#: Section order in every rendering (docs/rules.md#the-sections-in-this-order; DESIGN §2), with the fields each shows.
SECTIONS: tuple[Section, ...] = REGISTRY.sections

#: The rules' explicit sentence when there are no action items (docs/rules.md#the-sections-in-this-order).
ACTION_ITEMS_NONE: dict[str, str] = both("action_items_none")

#: Small labels used inside sections: each field's document label, and the words of an action item.
LABELS: dict[str, dict[str, str]] = {
    **{f.name: {lang: REGISTRY.doc_label(f.name, lang) for lang in ("en", "ja")} for f in REGISTRY.fields},
    **{name: both(f"label_{name}") for name in ("category", "item_owner", "item_tracking")},
}
