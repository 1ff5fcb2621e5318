"""The `/post-mortem` modal (DESIGN §4 "Modal") and the reading of its submitted state, in one module."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from postmortem.field_table import REGISTRY
from postmortem.fields import Field, Registry
from postmortem.fieldtext import (
    MODAL_MAX_CHARS,
    format_action_items,
    message,
    parse_action_items,
    ticket_from_text,
)
from postmortem.limits import check_structure
from postmortem.messages import both, field_label, say
from postmortem.model import InputError, Lang

CALLBACK_ID = "postmortem"
#: The scope flags share one checkboxes input: block_id and action_id `scope`, option values = field names.
SCOPE_BLOCK = "scope"
SCOPE_FLAGS: tuple[str, ...] = REGISTRY.flags
#: One input a field, in §2 order (the registry's); the scope flags become the one `scope` block where they stand.
INPUT_FIELDS: tuple[str, ...] = tuple(f for f in REGISTRY.names if f not in SCOPE_FLAGS)


def _multiline(field: Field) -> bool:
    """Prose and lists take several lines; the rest are one line (any registry's fields)."""
    return field.kind in ("multiline", "list")


#: The §2 inputs whose values are prose or lists.
MULTILINE = frozenset(f.name for f in REGISTRY.fields if _multiline(f))


def build_modal(
    *,
    ticket: str | None,
    values: Mapping[str, Any] | None = None,
    lang: Lang = "en",
    private_metadata: str = "",
    registry: Registry = REGISTRY,
    hints: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """The view for `views.open`: a blank form for `/post-mortem KEY`, or prefilled from a session (Edit).
    `hints` replace the registry's hint of text inputs (where a prefilled value came from: renderers/prefill.py).

    One input a field of the registry, in its order: text, a `static_select`, or `checkboxes`; the scope
    flags share one `scope` block where the first of them stands.
    """
    if len(private_metadata) > MODAL_MAX_CHARS:
        raise ValueError("private_metadata is longer than Slack's 3,000 characters")
    values = dict(values or {})
    if ticket:
        values["ticket"] = ticket.strip()
    texts = prefill_texts(values, lang=lang, registry=registry)
    blocks: list[dict[str, Any]] = [{"type": "context", "elements": [_text(say("modal_intro", lang), "mrkdwn")]}]
    for field in registry.fields:
        if field.kind == "flag":
            if field.name == registry.flags[0]:
                blocks.append(_scope_block(values, lang, registry))
        elif field.kind == "select":
            initial = values.get(field.name) or {"destination": "jira_comment", "lang": lang}.get(field.name)
            blocks.append(_select_block(field, initial, lang))
        elif field.kind == "multiselect":
            blocks.append(_checks_block(field, values.get(field.name) or (), lang))
        else:
            blocks.append(_text_block(field, texts.get(field.name, ""), lang, (hints or {}).get(field.name)))
    return {
        "type": "modal",
        "callback_id": CALLBACK_ID,
        "title": _text(say("modal_title", lang)),
        "submit": _text(say("modal_submit", lang)),
        "close": _text(say("modal_close", lang)),
        "private_metadata": private_metadata,
        "blocks": blocks,
    }


def prefill_texts(values: Mapping[str, Any], *, lang: Lang = "en", registry: Registry = REGISTRY) -> dict[str, str]:
    """The text each plain_text_input would show for these §2 values, before the 3,000-character cut."""
    texts = {f: values[f] for f in ("ticket", *registry.text_fields) if isinstance(values.get(f), str)}
    texts["action_items"] = format_action_items(
        values.get("action_items") or (), bool(values.get("action_items_none")), lang=lang
    )
    return texts


def too_long_to_prefill(values: Mapping[str, Any], *, lang: Lang = "en", registry: Registry = REGISTRY) -> set[str]:
    """Fields whose value a plain_text_input cannot hold: shown empty, and kept when left empty."""
    texts = prefill_texts(values, lang=lang, registry=registry)
    return {f for f, text in texts.items() if len(text) > MODAL_MAX_CHARS}


def fields_from_view_state(
    values: Any, *, previous: Mapping[str, Any] | None = None, registry: Registry = REGISTRY
) -> tuple[dict[str, Any], dict[str, str]]:
    """`view.state.values` → (§2 fields for PostMortem.model_validate, errors by block_id); never raises.

    Every input of the modal gets a key (empty text → None, no items → [] with action_items_none False,
    unchecked flags → False), so the result replaces a session's values whole; `destination` and `lang`
    are left out when nothing is selected, so the model's (or the caller's) default applies. `previous`
    is what an Edit modal was prefilled from: a field too long to prefill, left empty, keeps that value.
    Error messages are in the language selected in the form.
    """
    state: Mapping[str, Any] = values if isinstance(values, Mapping) else {}
    lang: Lang = "ja" if _selected(_action(state, "lang")) == "ja" else "en"
    kept = too_long_to_prefill(previous, lang=lang, registry=registry) if previous else set()
    fields: dict[str, Any] = {}
    errors: dict[str, str] = {}
    for field in registry.fields:
        action = _action(state, field.name)
        try:
            if field.kind == "select":
                fields.update(_choice(field, _selected(action), lang))
            elif field.kind == "multiselect":
                fields[field.name] = _choices(field, _selected_many(action), lang)
            elif field.kind != "flag":
                text = _typed(action)
                if not text and field.name in kept and previous is not None:
                    fields.update(_kept(field.name, previous))
                else:
                    fields.update(_typed_fields(field.name, text, lang))
        except InputError as exc:
            errors[field.name] = exc.message
    checked = _selected_many(_action(state, SCOPE_BLOCK))
    unknown = [v for v in checked if v not in registry.flags]
    if unknown:
        errors[SCOPE_BLOCK] = message("choice", lang, value=unknown[0], choices=", ".join(registry.flags))
    fields.update({flag: flag in checked for flag in registry.flags})
    return fields, errors


def _typed_fields(field: str, text: str, lang: str) -> dict[str, Any]:
    if len(text) > MODAL_MAX_CHARS:
        raise InputError(field, message("too_long", lang, n=len(text), limit=MODAL_MAX_CHARS))
    if field == "ticket":
        if not text:
            raise InputError(field, message("ticket_missing", lang))
        return {"ticket": ticket_from_text(text, lang=lang)}
    if field == "action_items":
        items, none = parse_action_items(text, lang=lang)
        return {"action_items": items, "action_items_none": none}
    check_structure(field, text, "ja" if lang == "ja" else "en")
    return {field: text or None}


def _choice(field: Field, value: str | None, lang: str) -> dict[str, Any]:
    """A select's value; unset is None, except for `destination` and `lang`, left to their defaults."""
    if value is None:
        return {} if field.role == "meta" else {field.name: None}
    return {field.name: _choices(field, [value], lang)[0]}


def _choices(field: Field, values: list[str], lang: str) -> list[str]:
    # Only the exact option values come from the form; labels are read in thread answers only.
    labels = field.option_labels()
    unknown = [v for v in values if v not in labels]
    if unknown:
        raise InputError(field.name, message("choice", lang, value=unknown[0][:80], choices=", ".join(labels)))
    return values


def _kept(field: str, previous: Mapping[str, Any]) -> dict[str, Any]:
    if field == "action_items":
        old = previous.get("action_items") or ()
        items = [dict(i) if isinstance(i, Mapping) else i.model_dump() for i in old]
        return {"action_items": items, "action_items_none": bool(previous.get("action_items_none"))}
    return {field: previous.get(field)}


def _action(state: Mapping[str, Any], block_id: str) -> Mapping[str, Any]:
    """Slack's `values[block_id][action_id]`; tolerant of missing or odd shapes (Slack omits unset ones)."""
    block = state.get(block_id)
    if not isinstance(block, Mapping):
        return {}
    action = block.get(block_id)
    if action is None and len(block) == 1:
        action = next(iter(block.values()))
    return action if isinstance(action, Mapping) else {}


def _typed(action: Mapping[str, Any]) -> str:
    value = action.get("value")
    return value.strip() if isinstance(value, str) else ""


def _selected(action: Mapping[str, Any]) -> str | None:
    option = action.get("selected_option")
    value = option.get("value") if isinstance(option, Mapping) else None
    return value if isinstance(value, str) else None


def _selected_many(action: Mapping[str, Any]) -> list[str]:
    options = action.get("selected_options")
    if not isinstance(options, list):
        return []
    return [o["value"] for o in options if isinstance(o, Mapping) and isinstance(o.get("value"), str)]


def _text(text: str, kind: str = "plain_text") -> dict[str, Any]:
    return {"type": kind, "text": text}


def _option(value: str, label: str) -> dict[str, Any]:
    return {"text": _text(label), "value": value}


def _input(field: Field, element: dict[str, Any], lang: Lang, hint: str | None = None) -> dict[str, Any]:
    return {
        "type": "input",
        "block_id": field.name,
        "optional": field.name != "ticket",
        "label": _text(field.label[lang]),
        "hint": _text(hint or field.hint[lang]),
        "element": element,
    }


def _text_block(field: Field, initial: str, lang: Lang, given_hint: str | None = None) -> dict[str, Any]:
    element: dict[str, Any] = {
        "type": "plain_text_input",
        "action_id": field.name,
        "multiline": _multiline(field),
        "max_length": MODAL_MAX_CHARS,
    }
    hint = given_hint
    if len(initial) > MODAL_MAX_CHARS:
        hint = say("modal_kept", lang, n=len(initial))
    elif initial:
        element["initial_value"] = initial
    return _input(field, element, lang, hint)


def _select_block(field: Field, initial: Any, lang: Lang) -> dict[str, Any]:
    options = [_option(o.value, o.label[lang]) for o in field.options]
    element: dict[str, Any] = {
        "type": "static_select",
        "action_id": field.name,
        "placeholder": _text(say("modal_choose", lang)),
        "options": options,
    }
    chosen = [o for o in options if o["value"] == initial]
    if chosen:
        element["initial_option"] = chosen[0]
    return _input(field, element, lang)


def _checks_block(field: Field, initial: Any, lang: Lang) -> dict[str, Any]:
    options = [_option(o.value, o.label[lang]) for o in field.options]
    element: dict[str, Any] = {"type": "checkboxes", "action_id": field.name, "options": options}
    checked = [o for o in options if o["value"] in set(initial)]
    if checked:
        element["initial_options"] = checked
    return _input(field, element, lang)


def _scope_block(values: Mapping[str, Any], lang: Lang, registry: Registry) -> dict[str, Any]:
    flags = [registry.field(flag) for flag in registry.flags]
    options = [_option(flag.name, flag.label[lang]) for flag in flags]
    element: dict[str, Any] = {"type": "checkboxes", "action_id": SCOPE_BLOCK, "options": options}
    checked = [o for o in options if values.get(o["value"]) is True]
    if checked:
        element["initial_options"] = checked
    label = {lang_: field_label(SCOPE_BLOCK, lang_) for lang_ in ("en", "ja")}
    # The scope flags' own hints are in the registry; the block that gathers them has this one.
    scope = Field(SCOPE_BLOCK, "multiselect", "scope", None, label, both("modal_scope_hint"))
    return _input(scope, element, lang)
