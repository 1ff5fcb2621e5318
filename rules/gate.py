"""The evidence gate and the scope check: a post-mortem on a hypothesis misleads (docs/rules.md#when-not-to)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

from postmortem.field_table import REGISTRY
from postmortem.messages import say
from postmortem.model import Lang, PostMortem, WhyMissedCategory
from rules.as_typed import as_typed
from rules.evidence import check_text
from rules.evidence_agreement import not_every_run, only_soak, perf_unmeasured, soak_to_come, ticked_to_come
from rules.evidence_steps import has_steps
from rules.evidence_tests import generic_tests, repro_not_run
from rules.evidence_trials import cut_short
from rules.textmask import mask

#: Fields the gate asks for, in DESIGN §2 order: the required inputs and the required sections (registry).
GATE_FIELDS: tuple[str, ...] = REGISTRY.required

#: The structured evidence (DESIGN §2): the person's explicit statement, checked by value, not by words.
STRUCTURED_FIELDS: tuple[str, ...] = ("repro_rate", "validation_kinds")
#: A repro rate that is not a repro, and verifications that alone do not show that the fix works.
_REFUSED_RATES: frozenset[str] = frozenset({"rarely"})
_WEAK_KINDS: frozenset[str] = frozenset({"stress_soak", "other_configs"})
#: Verifications the text must name when they are ticked: a soak run alone is none of them.
_SHOWN_BY_NAME: frozenset[str] = frozenset({"original_repro_passes", "failing_test_passes", "workload_completes"})


@dataclass(frozen=True)
class Missing:
    """One input the gate refuses without: its DESIGN §2 field and why, in the session's language."""

    field: str
    reason: str


@dataclass(frozen=True)
class ScopeStop:
    """Why this is not a bug-fix post-mortem; `confirmable` says whether the person may still continue."""

    flag: Literal["customer_impacting", "trivial"]
    reason: str
    confirmable: bool


def check_inputs(pm: PostMortem) -> list[Missing]:
    """Every gate field absent or not acceptable, in DESIGN §2 order; empty means it may be drafted."""
    missing: list[Missing] = []
    for field in GATE_FIELDS:
        reason = check_value(field, getattr(pm, field), pm.lang)
        if field in _PARTNER:
            reason = _disagreement(pm, field) or reason
        if field == "repro" and reason is None and not has_steps(pm.repro):
            reason = _reason(field, "no_steps", [_clip(pm.repro or "")], pm.lang)
        if reason is not None:
            missing.append(Missing(field, reason))
    return missing


#: Text fields with a structured answer beside them; the two must agree (docs/rules.md#text-and-answers-agree).
_PARTNER: dict[str, str] = {"repro": "repro_rate", "validation": "validation_kinds"}
#: What a text says that its ticked answer denies: an occasional failure, a check not done, a guess.
_DENIES: dict[str, frozenset[str]] = {
    "repro": frozenset(
        {"rare", "not_on_demand", "not_done", "planned", "hearsay", "appearance", "conjecture", "rate_guessed"}
    ),
    "validation": frozenset({"pending", "not_done", "planned", "hope", "hearsay", "appearance", "conjecture"}),
}


#: What only the text against its answer shows (rules.evidence_agreement, rules.evidence_trials).
_CONTRADICTIONS = frozenset(
    {
        "not_every_run",
        "only_soak",
        "cut_short",
        "generic_tests",
        "perf_unmeasured",
        "soak_pending",
        "configs_to_come",
        "workload_to_come",
        "repro_not_run",
    }
)
#: The one ticked kind such a text denies.
_THE_ONE_KIND = {
    "generic_tests": "failing_test_passes",
    "perf_unmeasured": "perf_restored",
    "cut_short": "workload_completes",
    "soak_pending": "stress_soak",
    "configs_to_come": "other_configs",
    "workload_to_come": "workload_completes",
    "repro_not_run": "original_repro_passes",
}


def _disagreement(pm: PostMortem, field: str) -> str | None:
    """The text against its structured answer: "1 run in 500" beside high_frequency, "not yet" beside ticked
    kinds. Names both; None when they agree or the answer is not given or already refused."""
    partner = _PARTNER[field]
    answer = getattr(pm, partner)
    labels = REGISTRY.choices[partner]
    if field == "repro":
        if answer not in ("every_run", "high_frequency"):
            return None
        chosen = [labels[answer][pm.lang]]
    else:
        chosen = [labels[k][pm.lang] for k in answer or () if k in labels and k not in _WEAK_KINDS]
        if not chosen:
            return None
    text = getattr(pm, field)
    found = check_text(field, text)
    if found is None and field == "repro" and answer == "every_run":
        found = not_every_run(mask(text or ""))
    if found is None and field == "validation" and set(answer or ()) & _SHOWN_BY_NAME:
        found = only_soak(text or "")
    if found is None and field == "validation" and "workload_completes" in (answer or ()):
        found = cut_short(mask(text or ""))  # "we stopped it there": the workload did not complete
    if found is None and field == "validation" and "failing_test_passes" in (answer or ()):
        found = generic_tests(text or "")  # "all tests pass": the failing test is not named
    if found is None and field == "validation" and "stress_soak" in (answer or ()):
        found = soak_to_come(text or "")  # 「1 週間の連続運転が必要で、これは来週の予約です」: the soak is to come
    if found is None and field == "validation" and "perf_restored" in (answer or ()):
        found = perf_unmeasured(text or "")  # 「昇温時間は今回計測していません」: the performance was not measured
    if found is None and field == "validation":
        found = ticked_to_come(text or "", answer or ())  # "the 132 kV variant will be done next window"
    if found is None and field == "validation":
        found = repro_not_run(text or "", answer or ())  # only a test passed; 「実機では流していません」
    if found is None or found[0] not in _DENIES[field] | _CONTRADICTIONS:
        return None
    if found[0] in _THE_ONE_KIND:  # "all tests pass" denies the failing test ticked, not the other kinds
        chosen = [labels[_THE_ONE_KIND[found[0]]][pm.lang]]
    return _reason(field, "contradicts", [as_typed(found[1], text)], pm.lang, answer=_join(chosen, pm.lang))


def check_value(field: str, value: object, lang: Lang) -> str | None:
    """Why one field's value is not acceptable, whatever its kind (None when it is)."""
    if field in STRUCTURED_FIELDS:
        return check_structured(field, value, lang)
    return check_field(field, value if isinstance(value, str) else None, lang)


def check_structured(field: str, value: object, lang: Lang) -> str | None:
    """The structured checks: `repro_rate` given and not `rarely`; `validation_kinds` with at least one
    verification that shows the fix works (a soak run or other configurations alone do not)."""
    labels = REGISTRY.choices[field]
    if field == "repro_rate":
        if not isinstance(value, str) or not value:
            return _reason(field, "absent", [], lang)
        return _reason(field, "rare_rate", [labels[value][lang]], lang) if value in _REFUSED_RATES else None
    kinds = [k for k in value if isinstance(k, str)] if isinstance(value, (list, tuple)) else []
    if not kinds:
        return _reason(field, "absent", [], lang)
    if all(k in _WEAK_KINDS for k in kinds):
        return _reason(field, "weak_kinds", [labels[k][lang] for k in kinds if k in labels], lang)
    return None


def check_field(field: str, value: str | None, lang: Lang) -> str | None:
    """Why one field's value is not acceptable (None when it is): also used for one answer in the thread."""
    problem = _problem(field, value)
    if problem is None:
        return None
    kind, found = problem
    return _reason(field, kind, found, lang)


def _reason(field: str, kind: str, found: list[str], lang: Lang, **extra: str) -> str:
    """What is wrong, then what is needed, in the session's language."""
    text = say(f"gate_{kind}", lang, found=_join(found, lang), **extra)
    if field not in GATE_FIELDS:
        return text
    return say("gate_needed", lang, reason=text, needed=say(f"needed_{field}", lang))


def check_scope(pm: PostMortem, *, confirmed: bool = False) -> ScopeStop | None:
    """Stop a post-mortem that is not for a bug fix: trivial is declined, an outage needs confirming first."""
    if pm.trivial:
        return ScopeStop("trivial", say("scope_marked_trivial", pm.lang), confirmable=False)
    if pm.customer_impacting and not confirmed:
        return ScopeStop("customer_impacting", say("scope_marked_customer_impacting", pm.lang), confirmable=True)
    return None


def _problem(field: str, value: str | None) -> tuple[str, list[str]] | None:
    """The kind of problem with a value and the words that show it; None when acceptable."""
    if field == "why_missed_category":
        ok = value is None or value in get_args(WhyMissedCategory)
        return None if ok else ("category", [value or ""])
    if field not in GATE_FIELDS or field in STRUCTURED_FIELDS:
        return None
    if value is None or not value.strip():
        return ("absent", [])
    if (found := check_text(field, value)) is not None:
        return (found[0], [as_typed(found[1], value)])
    return None


def _clip(text: str, limit: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _join(found: list[str], lang: Lang) -> str:
    return ('", "' if lang == "en" else "」「").join(found)
