"""Validation failures said to people as plain sentences in their language: pydantic's own wording
("1 validation error for Session…", "Input should be 'en' or 'ja'") never reaches a thread or a modal."""

from __future__ import annotations

from pydantic import ValidationError

from postmortem.messages import field_label, say
from postmortem.model import InputError, Lang

#: pydantic error types → the catalogue sentence that says the same thing plainly.
_PLAIN: dict[str, str] = {
    "missing": "invalid_missing",
    "string_too_short": "invalid_empty",
    "too_short": "invalid_empty",
    "string_too_long": "invalid_too_long",
    "too_long": "invalid_too_long",
    "literal_error": "invalid_choice",
    "enum": "invalid_choice",
    "bool_parsing": "invalid_yes_no",
    "bool_type": "invalid_yes_no",
    "string_pattern_mismatch": "invalid_format",
}


def plain_reason(exc: Exception, lang: Lang) -> str:
    """One sentence for a person about why a value was refused (the field named by its label)."""
    if isinstance(exc, InputError) and exc.kind is None:
        return exc.message  # written for people already (postmortem/fieldtext.py, renderers/modal.py)
    field, kind, expected = _parts(exc)
    if field == "ticket":
        return say("invalid_ticket", lang)
    label = field_label(field.split(".")[0], lang) if field else ""
    key = _PLAIN.get(kind, "invalid_value")
    return say(key, lang, field=label or field or "?", choices=expected or "")


def _parts(exc: Exception) -> tuple[str, str, str | None]:
    if isinstance(exc, InputError):
        return exc.field, exc.kind or "", exc.expected
    if isinstance(exc, ValidationError) and exc.errors():
        err = exc.errors()[0]
        expected = (err.get("ctx") or {}).get("expected")
        return ".".join(str(p) for p in err["loc"]), str(err["type"]), None if expected is None else str(expected)
    return "", "", None
