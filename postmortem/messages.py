"""The bot's sentences in English and Japanese, one catalogue entry each, so both languages stay in step.

`_CATALOGUE` holds every sentence the bot says in a thread, a DM, a modal, a document or a failure reason, and
`say(key, lang, **params)` fills one in; the field labels are here too. The entries live in
postmortem/catalogue/, one module a stage of the flow; what describes a field (the modal's hints, the section
headings) lives with that field's definition.
"""

from __future__ import annotations

from postmortem.catalogue import (
    amendment,
    answers,
    approval,
    draft,
    failures,
    followups,
    gate_evidence,
    home,
    offers,
    questions,
    reminders,
    scope,
    shortcut,
    start,
    tone,
)
from postmortem.field_table import REGISTRY
from postmortem.model import Lang

#: The bot's languages.
LANGS: tuple[Lang, ...] = ("en", "ja")

#: Each field's label (from the field registry), and the modal's one block that is not a field.
FIELD_LABELS: dict[str, dict[str, str]] = {
    **{f.name: f.label for f in REGISTRY.fields},
    "scope": {"en": "Scope", "ja": "対象範囲"},
}

#: The stages in the order a session meets them, then the ways in and around it.
STAGES = (
    start,
    questions,
    answers,
    scope,
    draft,
    tone,
    approval,
    failures,
    home,
    offers,
    reminders,
    followups,
    shortcut,
    amendment,
    gate_evidence,
)


def _merged(*catalogues: dict[str, dict[str, str]]) -> dict[str, dict[str, str]]:
    """One catalogue from the stages' entries; a key in two stages would silently lose one sentence."""
    merged: dict[str, dict[str, str]] = {}
    for catalogue in catalogues:
        if twice := merged.keys() & catalogue.keys():
            raise ValueError(f"catalogue keys in two stages: {sorted(twice)}")
        merged.update(catalogue)
    return merged


_CATALOGUE: dict[str, dict[str, str]] = _merged(*(stage.MESSAGES for stage in STAGES))


def say(key: str, lang: Lang, **params: object) -> str:
    """One message of the catalogue in `lang`, with its parameters filled in."""
    return _CATALOGUE[key][lang].format(**params)


def both(key: str) -> dict[str, str]:
    """One entry in every language, for the tables keyed by language (a field's hint, the document's words)."""
    return {lang: say(key, lang) for lang in LANGS}


def field_label(field: str, lang: Lang) -> str:
    """A field's human label; the field name itself when it has none."""
    return FIELD_LABELS.get(field, {}).get(lang, field)


def lang_of_locale(locale: str | None) -> Lang:
    """The bot's language for a Slack locale (`ja-JP` → ja; anything else, or none, → en)."""
    return "ja" if (locale or "").lower().startswith("ja") else "en"


def reply_as(field: str, lang: Lang) -> str:
    """How a person names a field in a `<field>: <text>` reply: its id in English, its label in Japanese."""
    return field_label(field, lang) if lang == "ja" else field
