"""The tone lint: the tone rules (docs/rules.md#tone) as warnings on a post-mortem that passed the gate; never edits."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from postmortem.fields import Registry, empty_value
from postmortem.messages import say
from postmortem.model import Lang, PostMortem
from rules import phrases, tone

#: Rule ids in the order their warnings appear within one field.
RULES: tuple[str, ...] = (
    "empty_section",
    "no_identifier",
    "vague_mechanism",
    "hedging",
    "blame",
    "advocacy",
    "no_scope",
    "no_category",
    "item_owner",
    "item_tracking",
    "marketing",
    "placeholder",
    "long_summary",
    "long_paragraph",
    "item_placeholder",
)

#: Fields that must state a mechanism (the fields that must name code are the registry's `code_fields`).
_MECHANISM_FIELDS: tuple[str, ...] = ("root_cause", "why_symptom")

#: Phrase rules for prose; action items take the first two (advocacy belongs in an action item).
_TONE_RULES: tuple[tuple[str, Callable[[str], list[str]]], ...] = (
    ("hedging", tone.hedges),
    ("blame", tone.blames),
    ("advocacy", lambda text: phrases.find(phrases.ADVOCACY, text)),
    ("marketing", tone.marketing),
)


@dataclass(frozen=True)
class LintWarning:
    """One tone problem: the field to look at, the rule id and a one-line text in the session's language."""

    field: str
    rule: str
    text: str


def lint(pm: PostMortem) -> list[LintWarning]:
    """Every tone warning, ordered by field (DESIGN §2), then action item, then rule."""
    keyed: list[tuple[tuple[int, int, int], LintWarning]] = []
    registry = type(pm).registry
    order = registry.model_order

    def warn(field: str, rule: str, item: int = -1, **values: str) -> None:
        text = say(f"lint_{rule}", pm.lang, **values)
        key = (order.index(field), item, RULES.index(rule))
        keyed.append((key, LintWarning(field, rule, text)))

    for field in registry.text_fields:
        value = pm.text(field)
        if value is None:
            continue
        _text_rules(pm, field, value, warn, registry.code_fields)
    _why_missed_rules(pm, warn)
    _validation_rules(pm, warn)
    _action_item_rules(pm, warn)
    for section in registry.usually_included:
        if _is_empty(pm, registry, section):  # named by the field asked for it, which the order knows
            warn(registry.asked_in(section)[0], "empty_section", heading=registry.heading(section, pm.lang))
    return [w for _, w in sorted(keyed, key=lambda kw: kw[0])]


def _text_rules(pm: PostMortem, field: str, value: str, warn: _Warn, code_fields: tuple[str, ...]) -> None:
    """The rules that read one text field: identifiers, mechanism, tone phrases, placeholders, length."""
    if field in code_fields and not phrases.has_identifier(value):
        warn(field, "no_identifier")
    if field in _MECHANISM_FIELDS and (vague := tone.vague(value)):
        warn(field, "vague_mechanism", found=_join(vague, pm.lang))
    for rule, find in _TONE_RULES:
        if found := find(value):
            warn(field, rule, found=_join(found, pm.lang))
    if placeholders := tone.placeholders(value):
        warn(field, "placeholder", found=_join(placeholders, pm.lang))
    if field == "summary" and (count := len(tone.paragraphs(value))) > 1:
        warn(field, "long_summary", count=str(count))
    if (columns := tone.long_paragraph(value)) is not None:
        warn(field, "long_paragraph", count=str(columns), limit=str(tone.LONG_PARAGRAPH_COLUMNS))


def _why_missed_rules(pm: PostMortem, warn: _Warn) -> None:
    if pm.why_missed is not None and pm.why_missed_category is None:
        warn("why_missed_category", "no_category")


def _validation_rules(pm: PostMortem, warn: _Warn) -> None:
    """A validation needs an honest scope: `validation_scope`, or a scope sentence in the validation."""
    if pm.validation is None or phrases.find(phrases.SCOPE_STATED, pm.validation):
        return
    if pm.validation_scope is None or phrases.is_placeholder(pm.validation_scope):
        warn("validation_scope", "no_scope")


def _action_item_rules(pm: PostMortem, warn: _Warn) -> None:
    """Each item needs an owner and a tracking artifact; its text is tone-checked like a section."""
    for n, item in enumerate(pm.action_items, start=1):
        what = _clip(item.what)
        if item.owner is None or phrases.is_placeholder(item.owner):
            warn("action_items", "item_owner", n, n=str(n), what=what)
        if item.tracking is None or phrases.is_placeholder(item.tracking):
            warn("action_items", "item_tracking", n, n=str(n), what=what)
        for rule, find in _TONE_RULES[:2]:
            if found := find(item.what):
                warn("action_items", rule, n, found=_join(found, pm.lang))
        parts = [p for p in (item.what, item.owner, item.tracking) if p and not phrases.is_placeholder(p)]
        if found := [f for part in parts for f in tone.placeholders(part)]:
            warn("action_items", "item_placeholder", n, n=str(n), what=what, found=_join(found[:3], pm.lang))


def _is_empty(pm: PostMortem, registry: Registry, section: str) -> bool:
    """A usually-included section is empty when none of the fields asked for it holds anything."""
    return all(empty_value(getattr(pm, name)) for name in registry.asked_in(section))


class _Warn(Protocol):
    """The signature of `warn` inside `lint`, for the helpers' type hints."""

    def __call__(self, field: str, rule: str, item: int = -1, **values: str) -> None: ...


def _join(found: list[str], lang: Lang) -> str:
    return ('", "' if lang == "en" else "」「").join(found)


def _clip(text: str, limit: int = 40) -> str:
    text = re.sub(r"\s+", " ", text)
    return text if len(text) <= limit else text[: limit - 1] + "…"
