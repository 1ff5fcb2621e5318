"""The modal a message shortcut opens, then the same modal prefilled with what the thread and the issue say
(DESIGN §4 "Starting where the debugging happened"). Pure: `Found` in, a view out.

Only `ticket`, `owner`, `fix_ref` and `symptom` are ever prefilled, each with a hint naming its source; the
evidence inputs stay empty whatever was found. A status line above the inputs says what was read and, plainly,
what could not be.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from postmortem.fieldtext import MODAL_MAX_CHARS
from postmortem.messages import say
from postmortem.model import Lang
from renderers.modal import build_modal
from rules.prefill import cut_fenced

#: The only inputs a shortcut prefills; everything else (the evidence above all) is the person's to state.
PREFILLED: frozenset[str] = frozenset({"ticket", "owner", "fix_ref", "symptom"})
#: Where the key came from → its hint.
_TICKET_HINTS = {"message": "hint_ticket_message", "thread": "hint_ticket_thread", "start": "hint_ticket_start"}
#: The block that says what was read, under the modal's intro.
STATUS_BLOCK = "prefill_status"


@dataclass(frozen=True)
class Note:
    """One sentence of the status line: a catalogue key and its parameters."""

    key: str
    params: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Found:
    """What the thread and the Jira issue gave, each with its source; `notes` say what could not be read."""

    ticket: str | None = None
    ticket_from: str | None = None  # "message", "thread", or "start" (the key a Start button carried)
    owner: str | None = None
    jira_fix: tuple[str, ...] = ()
    thread_fix: tuple[str, ...] = ()
    jira_code: tuple[str, ...] = ()
    message_code: tuple[str, ...] = ()
    notes: tuple[Note, ...] = ()
    #: The message read is the thread's first one (a Start button), not one the person chose (the shortcut).
    from_parent: bool = False


def loading_view(*, lang: Lang, private_metadata: str, ticket: str | None = None) -> dict[str, Any]:
    """The modal opened at once, within the trigger's 3 s, before anything is read (with the key a Start button
    already carries)."""
    view = build_modal(ticket=ticket, lang=lang, private_metadata=private_metadata)
    return _with_status(view, [say("prefill_reading", lang)])


def prefilled_view(found: Found, *, lang: Lang, private_metadata: str) -> dict[str, Any]:
    """The modal with what was found: the values, their sources as hints, and the status line."""
    values, hints = prefill_values(found, lang)
    assert set(values) <= PREFILLED, "only references and verbatim text are prefilled"
    view = build_modal(
        ticket=values.pop("ticket", None), values=values, lang=lang, private_metadata=private_metadata, hints=hints
    )
    lines = [_said(n, lang) for n in found.notes]
    if (found.jira_code or found.message_code) and "symptom" not in hints:  # a first line longer than the input
        lines.append(say("prefill_symptom_too_long", lang, limit=f"{MODAL_MAX_CHARS:,}"))
    lines.append(say("prefill_done" if hints else "prefill_none", lang))
    return _with_status(view, lines)


def prefill_values(found: Found, lang: Lang) -> tuple[dict[str, str], dict[str, str]]:
    """(input texts by field, hints by field) for what was found."""
    values: dict[str, str] = {}
    hints: dict[str, str] = {}
    key = found.ticket or ""
    if found.ticket:
        values["ticket"] = found.ticket
        source = "thread" if found.from_parent and found.ticket_from == "message" else found.ticket_from
        hints["ticket"] = say(_TICKET_HINTS.get(source or "", "hint_ticket_message"), lang)
    if found.owner:
        values["owner"] = found.owner
        hints["owner"] = say("hint_owner", lang, ticket=key)
    fixes = list(dict.fromkeys([*found.jira_fix, *found.thread_fix]))
    shown_fixes = _fit_words(fixes, MODAL_MAX_CHARS)
    if shown_fixes:
        values["fix_ref"] = " ".join(shown_fixes)
        hints["fix_ref"] = _fix_hint(found, shown_fixes, lang, key)
        if len(shown_fixes) < len(fixes):
            hints["fix_ref"] += say("hint_fix_cut", lang, left=len(fixes) - len(shown_fixes))
    # a block pasted both in the issue and in the message is shown once
    seen = {b.strip() for b in found.jira_code}
    message_only = tuple(b for b in dict.fromkeys(found.message_code) if b.strip() not in seen)
    blocks = [*dict.fromkeys(found.jira_code), *message_only]
    if blocks:
        cut = cut_fenced(blocks, MODAL_MAX_CHARS)
        if cut.text:
            values["symptom"] = cut.text
            hint = _symptom_hint(replace(found, message_code=message_only), lang, key)
            if cut.total is not None:
                hint += say("hint_symptom_cut", lang, shown=len(cut.text), total=cut.total)
            hints["symptom"] = hint
    return values, hints


def _fix_hint(found: Found, shown: list[str], lang: Lang, key: str) -> str:
    """Where the links shown came from, counting only those shown."""
    jira = len([u for u in shown if u in found.jira_fix])
    thread = len(shown) - jira
    if jira and thread:
        return say("hint_fix_both", lang, ticket=key, jira=jira, thread=thread)
    if jira:
        return say("hint_fix_jira_one" if jira == 1 else "hint_fix_jira", lang, ticket=key, n=jira)
    return say("hint_fix_thread_one" if thread == 1 else "hint_fix_thread", lang, n=thread)


def _symptom_hint(found: Found, lang: Lang, key: str) -> str:
    parent = "_parent" if found.from_parent else ""
    if found.jira_code and found.message_code:
        return say(f"hint_symptom_both{parent}", lang, ticket=key)
    if found.jira_code:
        return say("hint_symptom_jira", lang, ticket=key)
    return say(f"hint_symptom_message{parent}", lang)


def _fit_words(words: list[str], limit: int) -> list[str]:
    """Whole words (URLs), as many as fit space separated: a link is never cut."""
    kept: list[str] = []
    for word in words:
        if len(" ".join([*kept, word])) > limit:
            break
        kept.append(word)
    return kept


def _said(note: Note, lang: Lang) -> str:
    """A note in words; a parameter that is itself a note (a reason) is said in the same language."""
    params = {k: _said(v, lang) if isinstance(v, Note) else v for k, v in note.params.items()}
    return say(note.key, lang, **params)


def _with_status(view: dict[str, Any], lines: list[str]) -> dict[str, Any]:
    status = {
        "type": "context",
        "block_id": STATUS_BLOCK,
        "elements": [{"type": "plain_text", "text": "\n".join(lines)[:MODAL_MAX_CHARS]}],
    }
    return {**view, "blocks": [view["blocks"][0], status, *view["blocks"][1:]]}
