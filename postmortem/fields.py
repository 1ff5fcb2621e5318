"""The field registry: each DESIGN §2 field declared once, and everything the product derives from it.

A `Registry` is plain data. The gate's required set, the lint's order, the thread's questions and the
`<field>: <text>` answers, the modal's blocks, the labels, the sections and the Markdown template (hence the
ADF and the Slack preview, made from it) all read it. Tests build their own registry (`Registry.extended`)
and a model for it (`postmortem.model.model_for`) instead of patching globals.

Adding a field takes:

1. postmortem/field_table.py: one `Field` in `FIELDS`, at its DESIGN §2 place: name, kind, role, section,
   label and hint in both languages; `doc_label`, `show`, `options`, `ask`, `also` when the defaults do
   not fit. A new section is one `SectionHead` in `HEADS` (postmortem/field_choices.py) as well.
2. postmortem/model.py: one attribute of `PostMortem` at the same place, typed by its kind: text and
   multiline `str | None = None`, select `Literal[...] | None = None`, multiselect
   `tuple[Literal[...], ...] = ()`, list `tuple[<item model>, ...] = ()` (and a `bool = False` for each
   name in `also`), flag `bool = False`. It stays written out so that mypy and pydantic's plugin check
   every `pm.<field>` and `PostMortem(<field>=...)`; tests/postmortem/test_fields.py fails until the
   model has exactly the registry's fields, in its order, with these types.
3. docs/architecture.md §2: one row in the field table (the name is an interface people type).

Nothing else names the field: the modal, the thread, the gate, the lint and the three renderings follow
the registry, and tests/renderers/test_section_reach.py fails if a field of a section does not reach that
section's body in Markdown, ADF and Slack. Only behaviour of its own needs code of its own: a rule about
its text (rules/), or a way of showing it that no `Show` value gives (`_part` in
renderers/templates/postmortem.md.j2).
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass
from typing import Any, Literal

Lang = Literal["en", "ja"]
#: One sentence or label in each language.
Texts = dict[str, str]

#: What a person enters: one line, prose, one option, any options, a yes/no box, a list of items.
Kind = Literal["text", "multiline", "select", "multiselect", "flag", "list"]
#: What the gate does with the field (DESIGN §2 "gate" column; `optional` is shown when given, never asked).
Role = Literal["required_input", "required_section", "usually_included", "optional", "scope", "meta"]
#: How the thread asks for it when it is missing: typed text, one button an option, checkboxes and a Done
#: button, typed items with a button for the explicit none, or not asked on its own.
Ask = Literal["text", "buttons", "checkboxes", "items", "none"]
#: How its section's body shows a field (`_part` in renderers/templates/postmortem.md.j2): as written (the
#: section's own text, first); after its bold label, on the label's line when it is one line; always below its
#: label (steps); labelled, with each PR or commit reference linked or in code; the label and the chosen
#: options on one line; that line above the section's text; on the Summary's line with the ticket (elsewhere,
#: on a line of its own); a bulleted list, or the explicit-none sentence when its `also` box is ticked.
Show = Literal["text", "labelled", "below", "refs", "line", "lead", "facts", "items"]

TEXT_KINDS: frozenset[str] = frozenset({"text", "multiline"})
CHOICE_KINDS: frozenset[str] = frozenset({"select", "multiselect"})
REQUIRED_ROLES: frozenset[str] = frozenset({"required_input", "required_section"})


@dataclass(frozen=True)
class Option:
    """One value of a select or multi-select field: the §2 value and its label in each language."""

    value: str
    label: Texts


@dataclass(frozen=True)
class Field:
    """One field of DESIGN §2. `doc_label` names it inside its section of the document (default: `label`);
    `also` lists further model fields this one input sets (`action_items` sets `action_items_none`);
    `names_code` says the rules want code identifiers in it (the lint warns when there are none);
    `show` is how its section shows it when the default (`display`) does not fit."""

    name: str
    kind: Kind
    role: Role
    section: str | None
    label: Texts
    hint: Texts
    doc_label: Texts | None = None
    options: tuple[Option, ...] = ()
    ask: Ask = "text"
    also: tuple[str, ...] = ()
    names_code: bool = False
    show: Show | None = None

    @property
    def is_text(self) -> bool:
        """Prose or a line a person types (the ticket key is not: it is the session's identity)."""
        return self.kind in TEXT_KINDS and self.role != "meta"

    @property
    def display(self) -> Show:
        """How its section shows it: as declared, else a list as items, a choice on a label's line, the field
        named after its section as written, any other text after its label."""
        if self.show is not None:
            return self.show
        if self.kind == "list":
            return "items"
        if self.kind in CHOICE_KINDS:
            return "line"
        return "text" if self.name == self.section else "labelled"

    def option_labels(self) -> dict[str, Texts]:
        """value → label per language, in the declared order."""
        return {o.value: o.label for o in self.options}


@dataclass(frozen=True)
class SectionHead:
    """A section of the document as declared: its key and its heading per language."""

    key: str
    heading: Texts


@dataclass(frozen=True)
class Section:
    """One section of the post-mortem: its key, the model fields it shows, its heading per language."""

    key: str
    fields: tuple[str, ...]
    heading: Texts


@dataclass(frozen=True)
class Registry:
    """The fields in DESIGN §2 order and the sections in document order."""

    fields: tuple[Field, ...]
    heads: tuple[SectionHead, ...]

    def __post_init__(self) -> None:
        names = [f.name for f in self.fields]
        if len(set(names)) != len(names):
            raise ValueError("a field is declared twice")
        keys = {h.key for h in self.heads}
        strays = [f.name for f in self.fields if f.section is not None and f.section not in keys]
        if strays:
            raise ValueError(f"fields in no declared section: {', '.join(strays)}")
        boxes = [f.name for f in self.fields if f.kind == "flag" and f.section is not None]
        if boxes:  # a yes/no box has no text for a section's body: flags are scope questions
            raise ValueError(f"a flag cannot be shown in a section: {', '.join(boxes)}")

    def extended(self, *fields: Field, heads: tuple[SectionHead, ...] = ()) -> Registry:
        """A copy with more fields (at the end of §2 order) and more sections (at the end of the document)."""
        return dataclasses.replace(self, fields=self.fields + fields, heads=self.heads + heads)

    def field(self, name: str) -> Field:
        """One field by name; KeyError for a name that is not declared."""
        return self._by_name[name]

    def get(self, name: str) -> Field | None:
        """One field by name, or None."""
        return self._by_name.get(name)

    @functools.cached_property
    def _by_name(self) -> dict[str, Field]:
        return {f.name: f for f in self.fields}

    @functools.cached_property
    def names(self) -> tuple[str, ...]:
        """Every field's name in §2 order."""
        return tuple(f.name for f in self.fields)

    @functools.cached_property
    def model_order(self) -> tuple[str, ...]:
        """The model's fields in order: each field followed by the ones it also sets."""
        return tuple(n for f in self.fields for n in (f.name, *f.also))

    @functools.cached_property
    def text_fields(self) -> tuple[str, ...]:
        """The fields that hold a person's prose or line, in §2 order."""
        return tuple(f.name for f in self.fields if f.is_text)

    @functools.cached_property
    def required(self) -> tuple[str, ...]:
        """What the gate refuses without: the required inputs and the required sections, in §2 order."""
        return tuple(f.name for f in self.fields if f.role in REQUIRED_ROLES)

    @functools.cached_property
    def choices(self) -> dict[str, dict[str, Texts]]:
        """The select and multi-select fields: value → label per language."""
        return {f.name: f.option_labels() for f in self.fields if f.kind in CHOICE_KINDS}

    @functools.cached_property
    def flags(self) -> tuple[str, ...]:
        """The scope flags, in order."""
        return tuple(f.name for f in self.fields if f.kind == "flag")

    @functools.cached_property
    def sections(self) -> tuple[Section, ...]:
        """Every section in document order with the model fields it shows."""
        return tuple(
            Section(h.key, tuple(n for f in self.fields if f.section == h.key for n in (f.name, *f.also)), h.heading)
            for h in self.heads
        )

    @functools.cached_property
    def usually_included(self) -> tuple[str, ...]:
        """Sections docs/rules.md calls usually included: asked for once, `skip` leaves them out."""
        return tuple(s.key for s in self.sections if self.asked_in(s.key))

    @functools.cached_property
    def code_fields(self) -> tuple[str, ...]:
        """Fields that must name code (docs/rules.md#the-sections-in-this-order: Root cause, Fix)."""
        return tuple(f.name for f in self.fields if f.names_code)

    def shown_in(self, section: str) -> tuple[Field, ...]:
        """Every field of a section in the order its body shows them: a `lead` line, the section's own text,
        then the others in §2 order (a required input declared before the text it supports follows it)."""
        rank: dict[str, int] = {"lead": 0, "text": 1}
        return tuple(sorted((f for f in self.fields if f.section == section), key=lambda f: rank.get(f.display, 2)))

    def asked_in(self, section: str) -> tuple[str, ...]:
        """A usually-included section's fields (and what they also set), the one asked for first."""
        own = [f for f in self.fields if f.section == section and f.role == "usually_included"]
        own.sort(key=lambda f: f.ask == "none")
        return tuple(n for f in own for n in (f.name, *f.also))

    def heading(self, section: str, lang: str) -> str:
        """A section's heading in a language."""
        return next(h.heading[lang] for h in self.heads if h.key == section)

    def label(self, name: str, lang: str) -> str | None:
        """A field's label in a language, if the field is declared."""
        found = self.get(name)
        return found.label[lang] if found else None

    def doc_label(self, name: str, lang: str) -> str:
        """How the document names a field inside its section."""
        found = self.field(name)
        return (found.doc_label or found.label)[lang]


def empty_value(value: Any) -> bool:
    """A model value that says nothing: None, blank text, no items, an unticked box."""
    if isinstance(value, str):
        return not value.strip()
    return value is None or value is False or value == () or value == []
