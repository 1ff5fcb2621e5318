"""The post-mortem input model: one vocabulary (DESIGN §2) for the CLI file, the modal, the session and tests."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, ClassVar, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, create_model, field_validator, model_validator

from postmortem.field_table import REGISTRY
from postmortem.fields import Lang, Registry

__all__ = ["Lang", "TEXT_FIELDS", "PostMortem", "model_for"]

Destination = Literal["jira_comment", "pr_description", "docs_file", "wiki"]
WhyMissedCategory = Literal["ci_gap", "latent_code", "workload_gap", "incomplete_fix", "review_miss", "no_good_reason"]
ReproRate = Literal["every_run", "high_frequency", "rarely"]
ValidationKind = Literal[
    "original_repro_passes",
    "failing_test_passes",
    "workload_completes",
    "perf_restored",
    "stress_soak",
    "other_configs",
]

#: Jira issue keys: a project key (letter first, then letters, digits or `_`), a dash, a number.
#: Always test a whole value with `is_ticket` (`fullmatch`): `match` lets `$` accept a trailing newline.
TICKET_RE = re.compile(r"^[A-Z][A-Z0-9_]{0,254}-[1-9][0-9]{0,17}$")


def is_ticket(value: object) -> bool:
    """Whether `value` is exactly a Jira issue key: nothing before it, nothing (not even a newline) after."""
    return isinstance(value, str) and TICKET_RE.fullmatch(value) is not None


#: Text fields, in the order of DESIGN §2 (from the registry; the modal and the thread prompts use it too).
TEXT_FIELDS: tuple[str, ...] = REGISTRY.text_fields


class InputError(ValueError):
    """A post-mortem input that cannot be read; `field` names what is wrong (CLI exit 2)."""

    def __init__(self, field: str, message: str, *, kind: str | None = None, expected: str | None = None) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message
        #: pydantic's error type when `message` is pydantic's wording (postmortem/errors.py says it plainly).
        self.kind = kind
        self.expected = expected


class ActionItem(BaseModel):
    """One follow-up outside the fix PR: what, who owns it, where it is tracked."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True, frozen=True)

    what: str = Field(min_length=1)
    owner: str | None = None
    tracking: str | None = None

    @field_validator("owner", "tracking", mode="before")
    @classmethod
    def _blank_is_none(cls, value: Any) -> Any:
        return _blank_to_none(value)


class PostMortem(BaseModel):
    """Everything the person gave for one post-mortem. Nothing here is ever invented by the bot.

    The fields follow the registry (postmortem/field_table.py) in its order, typed by kind as the checklist in
    postmortem/fields.py says; they are written out, not made from the registry, so that mypy and pydantic's
    plugin check every use. tests/postmortem/test_fields.py fails on any field one has and the other lacks.
    """

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True, frozen=True)
    #: The registry this model follows; renderers, the gate and the lint read it from the model's class.
    registry: ClassVar[Registry] = REGISTRY

    ticket: str
    summary: str | None = None
    owner: str | None = None
    symptom: str | None = None
    repro: str | None = None
    repro_rate: ReproRate | None = None
    root_cause: str | None = None
    confirmed_by: str | None = None
    why_symptom: str | None = None
    fix_ref: str | None = None
    fix: str | None = None
    how_found: str | None = None
    why_missed_category: WhyMissedCategory | None = None
    why_missed: str | None = None
    validation: str | None = None
    validation_kinds: tuple[ValidationKind, ...] = ()
    validation_scope: str | None = None
    action_items: tuple[ActionItem, ...] = ()
    action_items_none: bool = False
    customer_impacting: bool = False
    trivial: bool = False
    destination: Destination = "jira_comment"
    lang: Lang = "en"

    @field_validator("ticket", mode="before")
    @classmethod
    def _ticket_key(cls, value: Any) -> Any:
        if isinstance(value, str):
            value = value.strip().upper()
            if not is_ticket(value):
                raise ValueError("not a Jira issue key (expected a key like PROJ-123)")
        return value

    @model_validator(mode="before")
    @classmethod
    def _blank_text_is_none(cls, data: Any) -> Any:
        """Blank text and an unset select say nothing: None (for every text field of the registry)."""
        if not isinstance(data, dict):
            return data
        blanks = [f.name for f in cls.registry.fields if f.is_text or f.kind == "select" and f.role != "meta"]
        return {k: _blank_to_none(v) if k in blanks else v for k, v in data.items()}

    @field_validator("action_items", "validation_kinds", mode="before")
    @classmethod
    def _none_is_empty(cls, value: Any) -> Any:
        return () if value is None else value

    @field_validator("validation_kinds")
    @classmethod
    def _kinds_once_in_order(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        """Each kind once, in the registry's order, however they were ticked or typed."""
        order = list(cls.registry.choices["validation_kinds"])
        return tuple(sorted(set(value), key=order.index))

    @model_validator(mode="after")
    def _items_xor_none(self) -> PostMortem:
        if self.action_items and self.action_items_none:
            raise ValueError("action_items and action_items_none: true cannot both be given")
        return self

    def text(self, field: str) -> str | None:
        """The value of a text field by its DESIGN §2 name."""
        value = getattr(self, field)
        return value if isinstance(value, str) else None

    def replace(self, **changes: Any) -> PostMortem:
        """A validated copy with some fields changed (the model is frozen)."""
        return type(self).model_validate({**self.model_dump(), **changes})


def model_for(registry: Registry) -> type[PostMortem]:
    """A model for a registry that declares text fields beyond the product's (tests, extensions).

    Only optional text fields can be added this way; any other kind needs its type in PostMortem.
    """
    if registry is REGISTRY:
        return PostMortem
    extra = [f for f in registry.fields if f.name not in PostMortem.model_fields]
    wrong = [f.name for f in extra if f.kind not in ("text", "multiline") or f.role in ("required_input", "meta")]
    if wrong:
        raise ValueError(f"only optional text fields can be added: {', '.join(wrong)}")
    definitions: dict[str, Any] = {f.name: (str | None, None) for f in extra}
    model: type[PostMortem] = create_model("PostMortem", __base__=PostMortem, **definitions)
    model.registry = registry
    return model


def _blank_to_none(value: Any) -> Any:
    if isinstance(value, str) and not value.strip():
        return None
    return value


def parse_postmortem(data: Any) -> PostMortem:
    """Validate raw data into a model; the first error becomes an InputError naming its field."""
    if not isinstance(data, dict):
        raise InputError("file", "expected a mapping of fields (DESIGN §2) at the top level")
    try:
        return PostMortem.model_validate(data)
    except ValidationError as exc:
        raise input_error(exc) from None


def input_error(exc: ValidationError) -> InputError:
    """The first pydantic error, said in words with the field's dotted path."""
    err = exc.errors()[0]
    field = ".".join(str(p) for p in err["loc"]) or "file"
    kind, expected = str(err["type"]), (err.get("ctx") or {}).get("expected")
    if err["type"] == "extra_forbidden":
        return InputError(field, "unknown field (see DESIGN §2 for the field names)", kind=kind)
    if err["type"] == "missing":
        return InputError(field, "required field is missing", kind=kind)
    message = str(err["msg"]).removeprefix("Value error, ")
    return InputError(field, message, kind=kind, expected=None if expected is None else str(expected))


#: libyaml's safe loader when PyYAML's wheel carries it (it reads a 1.6 MB file in 0.05 s, the pure-Python one
#: in 0.6 s); the same documents and errors either way.
_YAML_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def load_postmortem(path: str | Path) -> PostMortem:
    """Read a YAML or JSON input file (JSON is YAML, but JSON errors read better from json)."""
    path = Path(path)
    try:
        raw = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError("file", f"cannot read {path}: {exc}") from None
    try:
        data = json.loads(raw) if path.suffix.lower() == ".json" else yaml.load(raw, Loader=_YAML_LOADER)
    except (json.JSONDecodeError, yaml.YAMLError) as exc:
        raise InputError("file", f"{path} is not valid {'JSON' if path.suffix == '.json' else 'YAML'}: {exc}") from None
    return parse_postmortem(data)
