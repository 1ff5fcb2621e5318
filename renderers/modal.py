"""The `/post-mortem` modal (DESIGN §4 "Modal") and the reading of its submitted state, in one module."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from postmortem.fieldtext import (
    CHOICE_LABELS,
    FIELD_ORDER,
    MODAL_MAX_CHARS,
    format_action_items,
    message,
    parse_action_items,
    ticket_from_text,
)
from postmortem.limits import check_structure
from postmortem.messages import field_label
from postmortem.model import TEXT_FIELDS, InputError, Lang

CALLBACK_ID = "postmortem"
#: The scope flags share one checkboxes input: block_id and action_id `scope`, option values = field names.
SCOPE_BLOCK = "scope"
SCOPE_FLAGS: tuple[str, ...] = ("customer_impacting", "trivial")
#: One input a field, in §2 order; the scope flags become the one `scope` block where they stand.
INPUT_FIELDS: tuple[str, ...] = tuple(f for f in FIELD_ORDER if f not in SCOPE_FLAGS)
#: Inputs whose values are prose or lists; the rest are one line.
MULTILINE = frozenset({
    "summary", "symptom", "repro", "root_cause", "why_symptom", "fix", "how_found", "why_missed",
    "validation", "action_items",
})

#: The hint under each block: what a good value looks like (labels: postmortem.messages.FIELD_LABELS).
FIELD_HINTS: dict[str, dict[str, str]] = {
    "ticket": {"en": "Issue key of the original bug, e.g. PROJ-123.",
               "ja": "元のバグの課題キー（例: PROJ-123）。"},
    "summary": {"en": ("One paragraph: what broke for the user or workload, and one sentence on "
                       "what fixed it."),
                "ja": "1 段落で: ユーザーやワークロードで何が壊れたか、何で直したかを 1 文で。"},
    "owner": {"en": "The person or team who owns the fix. Never guessed by the bot.",
              "ja": "修正を担当する人またはチーム。ボットが推測することはありません。"},
    "symptom": {"en": "What was observed, verbatim: test output, errors, log lines, numbers.",
                "ja": "観測された内容をそのまま: テスト出力、エラー、ログ、数値。"},
    "repro": {"en": ("Deterministic steps, or steps that reproduce a flake at high "
                     "frequency."),
              "ja": "確実に再現する手順、またはフレークを高頻度で再現する手順。"},
    "root_cause": {"en": "The mechanism, with code identifiers — not a hypothesis.",
                   "ja": "コード上の識別子を含むメカニズム。仮説ではなく。"},
    "why_symptom": {"en": "The chain from the root cause to what was observed.",
                    "ja": "根本原因から観測された症状までのつながり。"},
    "fix_ref": {"en": "PR, commit or branch of the fix, e.g. org/repo#123 or a PR URL.",
                "ja": "修正の PR・コミット・ブランチ（例: org/repo#123、PR の URL）。"},
    "fix": {"en": ("What changed and why it addresses the cause rather than hiding the symptom; "
                   "earlier attempts."),
            "ja": "何を変えたか、なぜ症状を隠さず原因に対処しているか。以前の試みも。"},
    "how_found": {"en": ("How the repro became deterministic: tools, rejected "
                         "hypotheses, the deciding experiment."),
                  "ja": "再現を確実にした方法: ツール、否定された仮説、決め手となった実験。"},
    "why_missed_category": {"en": "The closest category.",
                            "ja": "最も近い分類。"},
    "why_missed": {"en": "The honest explanation of the gap, blameless.",
                   "ja": "ギャップの率直な説明。個人を責めずに。"},
    "validation": {"en": ("How the fix was verified: tests, workloads, before/after numbers, "
                          "soak runs."),
                   "ja": "修正の検証方法: テスト、ワークロード、修正前後の数値、連続稼働テスト。"},
    "validation_scope": {"en": "What was not re-tested (honest scope).",
                         "ja": "再テストしていないもの（正直な範囲）。"},
    "action_items": {"en": ("One a line: what | owner | tracking. Or just the word none "
                            "when the fix is sufficient."),
                     "ja": ("1 行に 1 件: 内容 | 担当 | 追跡。フォローアップが不要なら「なし」"
                            "とだけ書きます。")},
    "destination": {"en": ("Only a Jira comment is posted; the others are attached to the "
                           "thread as a Markdown file."),
                    "ja": ("投稿されるのは Jira コメントのみ。それ以外は Markdown ファイルとして"
                           "スレッドに添付されます。")},
    "lang": {"en": "Headings of the post-mortem and the bot's messages.",
             "ja": "事後分析の見出しとボットのメッセージ。"},
    SCOPE_BLOCK: {"en": ("Post-mortems are for fixed bugs: an outage needs an incident report, "
                         "a trivial fix needs none."),
                  "ja": ("事後分析は修正済みのバグが対象です。障害にはインシデントレポート、"
                         "軽微な修正には不要です。")},
}

SCOPE_LABELS: dict[str, dict[str, str]] = {
    "customer_impacting": {"en": "Customer-facing outage (needs an incident report)",
                           "ja": "顧客に影響する障害（インシデントレポートが必要）"},
    "trivial": {"en": "Trivial fix (typo, obvious one-line change)",
                "ja": "軽微な修正（タイプミス、明らかな 1 行の修正）"},
}

_UI: dict[str, dict[str, str]] = {
    "title": {"en": "Post-mortem", "ja": "事後分析"},
    "submit": {"en": "Submit", "ja": "送信"},
    "close": {"en": "Cancel", "ja": "キャンセル"},
    "choose": {"en": "Choose…", "ja": "選択…"},
    "intro": {"en": "Fill in what you know. Only the ticket is required here: the bot asks in the thread "
                    "for anything the post-mortem still needs, and says why.",
              "ja": "わかる範囲で入力してください。ここで必須なのはチケットだけです。足りない項目は、"
                    "ボットが理由とともにスレッドで質問します。"},
    "kept": {"en": "The current value ({n} characters) is too long to show here. It is kept unless you type "
                   "a replacement.",
             "ja": "現在の値（{n} 文字）は長すぎてここに表示できません。新しい値を入力しない限り、"
                   "そのまま保持されます。"},
}


def build_modal(
    *,
    ticket: str | None,
    values: Mapping[str, Any] | None = None,
    lang: Lang = "en",
    private_metadata: str = "",
) -> dict[str, Any]:
    """The view for `views.open`: a blank form for `/post-mortem KEY`, or prefilled from a session (Edit)."""
    if len(private_metadata) > MODAL_MAX_CHARS:
        raise ValueError("private_metadata is longer than Slack's 3,000 characters")
    values = dict(values or {})
    if ticket:
        values["ticket"] = ticket.strip()
    texts = prefill_texts(values, lang=lang)
    blocks: list[dict[str, Any]] = [{"type": "context", "elements": [_text(_UI["intro"][lang], "mrkdwn")]}]
    for field in INPUT_FIELDS:
        if field in CHOICE_LABELS:
            initial = values.get(field) or {"destination": "jira_comment", "lang": lang}.get(field)
            blocks.append(_select_block(field, initial, lang))
        else:
            blocks.append(_text_block(field, texts.get(field, ""), lang))
        if field == "action_items":
            blocks.append(_scope_block(values, lang))
    return {
        "type": "modal",
        "callback_id": CALLBACK_ID,
        "title": _text(_UI["title"][lang]),
        "submit": _text(_UI["submit"][lang]),
        "close": _text(_UI["close"][lang]),
        "private_metadata": private_metadata,
        "blocks": blocks,
    }


def prefill_texts(values: Mapping[str, Any], *, lang: Lang = "en") -> dict[str, str]:
    """The text each plain_text_input would show for these §2 values, before the 3,000-character cut."""
    texts = {f: values[f] for f in ("ticket", *TEXT_FIELDS) if isinstance(values.get(f), str)}
    texts["action_items"] = format_action_items(
        values.get("action_items") or (), bool(values.get("action_items_none")), lang=lang
    )
    return texts


def too_long_to_prefill(values: Mapping[str, Any], *, lang: Lang = "en") -> set[str]:
    """Fields whose value a plain_text_input cannot hold: shown empty, and kept when left empty."""
    return {f for f, text in prefill_texts(values, lang=lang).items() if len(text) > MODAL_MAX_CHARS}


def fields_from_view_state(
    values: Any, *, previous: Mapping[str, Any] | None = None
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
    kept = too_long_to_prefill(previous, lang=lang) if previous else set()
    fields: dict[str, Any] = {}
    errors: dict[str, str] = {}
    for field in INPUT_FIELDS:
        action = _action(state, field)
        try:
            if field in CHOICE_LABELS:
                fields.update(_choice(field, _selected(action), lang))
            else:
                text = _typed(action)
                if not text and field in kept and previous is not None:
                    fields.update(_kept(field, previous))
                else:
                    fields.update(_typed_fields(field, text, lang))
        except InputError as exc:
            errors[field] = exc.message
    checked = _selected_many(_action(state, SCOPE_BLOCK))
    unknown = [v for v in checked if v not in SCOPE_FLAGS]
    if unknown:
        errors[SCOPE_BLOCK] = message("choice", lang, value=unknown[0], choices=", ".join(SCOPE_FLAGS))
    fields.update({flag: flag in checked for flag in SCOPE_FLAGS})
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


def _choice(field: str, value: str | None, lang: str) -> dict[str, Any]:
    if value is None:
        return {field: None} if field == "why_missed_category" else {}
    if value not in CHOICE_LABELS[field]:
        # Only the exact option values come from the form; labels are read in thread answers only.
        choices = ", ".join(CHOICE_LABELS[field])
        raise InputError(field, message("choice", lang, value=value[:80], choices=choices))
    return {field: value}


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


def _input(block_id: str, element: dict[str, Any], lang: Lang, hint: str | None = None) -> dict[str, Any]:
    return {
        "type": "input",
        "block_id": block_id,
        "optional": block_id != "ticket",
        "label": _text(field_label(block_id, lang)),
        "hint": _text(hint or FIELD_HINTS[block_id][lang]),
        "element": element,
    }


def _text_block(field: str, initial: str, lang: Lang) -> dict[str, Any]:
    element: dict[str, Any] = {
        "type": "plain_text_input",
        "action_id": field,
        "multiline": field in MULTILINE,
        "max_length": MODAL_MAX_CHARS,
    }
    hint = None
    if len(initial) > MODAL_MAX_CHARS:
        hint = _UI["kept"][lang].format(n=len(initial))
    elif initial:
        element["initial_value"] = initial
    return _input(field, element, lang, hint)


def _select_block(field: str, initial: Any, lang: Lang) -> dict[str, Any]:
    options = [_option(value, labels[lang]) for value, labels in CHOICE_LABELS[field].items()]
    element: dict[str, Any] = {
        "type": "static_select",
        "action_id": field,
        "placeholder": _text(_UI["choose"][lang]),
        "options": options,
    }
    chosen = [o for o in options if o["value"] == initial]
    if chosen:
        element["initial_option"] = chosen[0]
    return _input(field, element, lang)


def _scope_block(values: Mapping[str, Any], lang: Lang) -> dict[str, Any]:
    options = [_option(flag, SCOPE_LABELS[flag][lang]) for flag in SCOPE_FLAGS]
    element: dict[str, Any] = {"type": "checkboxes", "action_id": SCOPE_BLOCK, "options": options}
    checked = [o for o in options if values.get(o["value"]) is True]
    if checked:
        element["initial_options"] = checked
    return _input(SCOPE_BLOCK, element, lang)
