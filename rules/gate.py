"""The evidence gate and the scope check: a post-mortem built on a hypothesis is worse than none (seed)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

from postmortem.field_table import REGISTRY
from postmortem.messages import say
from postmortem.model import Lang, PostMortem, WhyMissedCategory
from rules.evidence import check_text

#: Fields the gate asks for, in DESIGN §2 order: the required inputs and the required sections (registry).
GATE_FIELDS: tuple[str, ...] = REGISTRY.required

#: The structured evidence (DESIGN §2): the person's explicit statement, checked by value, not by words.
STRUCTURED_FIELDS: tuple[str, ...] = ("repro_rate", "validation_kinds")
#: A repro rate that is not a repro, and verifications that alone do not show that the fix works.
_REFUSED_RATES: frozenset[str] = frozenset({"rarely"})
_WEAK_KINDS: frozenset[str] = frozenset({"stress_soak", "other_configs"})


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


#: What each gate field needs, said once; every reason ends with it.
_NEEDED: dict[str, dict[str, str]] = {
    "summary": {
        "en": "one paragraph on what broke for the user or workload, and one sentence on what fixed it",
        "ja": "ユーザー／ワークロードの観点で何が壊れたのか（1段落）と、何によって修正されたのか（1文）",
    },
    "owner": {
        "en": "the person or team who owns the fix (never guessed)",
        "ja": "修正の担当者（個人またはチーム。推測では埋めません）",
    },
    "repro": {
        "en": "steps the next engineer can run that reproduce it every time, or a flake at high frequency",
        "ja": "次の担当者が実行できる決定的な再現手順、または高頻度で不安定さを再現できる手順",
    },
    "root_cause": {
        "en": "the mechanism, with code identifiers, confirmed rather than suspected",
        "ja": "仮説ではなく特定されたメカニズム（コード識別子つき）",
    },
    "fix_ref": {
        "en": "the PR, commit or branch of the fix (a URL, owner/repo#N, #N, a commit SHA or a branch)",
        "ja": "修正の PR／コミット／ブランチへの参照（URL、owner/repo#N、#N、コミット SHA、ブランチ名）",
    },
    "fix": {
        "en": "what changed, and why it addresses the cause rather than hiding the symptom",
        "ja": "何を変更したのか、なぜ症状を隠すのではなく根本原因に対処するのか",
    },
    "validation": {
        "en": "the original repro, failing test or workload shown passing with the fix",
        "ja": "元の再現手順、失敗していたテスト、またはワークロードが修正後に成功したこと",
    },
    "repro_rate": {
        "en": "how often the steps trigger the bug: every run, or a flake that fails about one run in ten or more",
        "ja": "手順でバグが起きる頻度（毎回、またはおよそ 10 回に 1 回以上失敗するフレーク）",
    },
    "confirmed_by": {
        "en": 'the one experiment that confirmed the mechanism; "the fix makes the original repro pass, and '
        'reverting it brings the failure back" is a valid answer',
        "ja": "メカニズムを確認した唯一の実験。"
        "「修正で元の再現手順が成功し、修正を戻すと再び失敗する」も有効な回答です",
    },
    "validation_kinds": {
        "en": "at least one verification that shows the fix works: original repro passes, failing test passes, "
        "workload completes or performance restored",
        "ja": "修正が効くことを示す検証を少なくとも 1 つ（元の再現手順が成功、失敗していたテストが成功、"
        "ワークロードが完了、性能が回復）",
    },
}

_SCOPE_REASON: dict[str, dict[str, str]] = {
    "trivial": {
        "en": "This is marked trivial (a typo or an obvious one-line fix): the PR description is the record, "
        "so no post-mortem is drafted.",
        "ja": "軽微な修正（誤字、明らかな一行修正）とされています。記録には PR の説明を使うため、"
        "事後分析は作成しません。",
    },
    "customer_impacting": {
        "en": "This is marked customer-impacting: an outage needs its own incident report (timeline, impact, "
        "paging history, communications), which a bug-fix post-mortem is not. Continue only if you "
        "confirm that a bug-fix post-mortem is wanted as well.",
        "ja": "顧客に影響する停止／インシデントとされています。別途インシデントレポート"
        "（タイムライン、影響範囲、ページング履歴、コミュニケーション記録）が必要で、"
        "バグ修正の事後分析はその代わりになりません。"
        "バグ修正の事後分析も必要だと確認された場合にのみ続行します。",
    },
}


def check_inputs(pm: PostMortem) -> list[Missing]:
    """Every gate field absent or not acceptable, in DESIGN §2 order; empty means it may be drafted."""
    missing: list[Missing] = []
    for field in GATE_FIELDS:
        reason = check_value(field, getattr(pm, field), pm.lang)
        if reason is not None:
            missing.append(Missing(field, reason))
    return missing


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


def _reason(field: str, kind: str, found: list[str], lang: Lang) -> str:
    """What is wrong, then what is needed, in the session's language."""
    text = say(f"gate_{kind}", lang, found=_join(found, lang))
    if field not in _NEEDED:
        return text
    needed = _NEEDED[field][lang]
    return f"{text} — needed: {needed}" if lang == "en" else f"{text}。必要なもの：{needed}"


def check_scope(pm: PostMortem, *, confirmed: bool = False) -> ScopeStop | None:
    """Stop a post-mortem that is not for a bug fix: trivial is declined, an outage needs confirming first."""
    if pm.trivial:
        return ScopeStop("trivial", _SCOPE_REASON["trivial"][pm.lang], confirmable=False)
    if pm.customer_impacting and not confirmed:
        return ScopeStop("customer_impacting", _SCOPE_REASON["customer_impacting"][pm.lang], confirmable=True)
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
        return (found[0], [found[1]])
    return None


def _join(found: list[str], lang: Lang) -> str:
    return ('", "' if lang == "en" else "」「").join(found)
