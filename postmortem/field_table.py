"""The DESIGN §2 fields and the rules' nine sections, declared once (the registry's data; see postmortem/fields.py)."""

from __future__ import annotations

from postmortem.fields import Field, Option, Registry, SectionHead


def _opt(value: str, en: str, ja: str) -> Option:
    return Option(value, {"en": en, "ja": ja})


def _t(en: str, ja: str) -> dict[str, str]:
    return {"en": en, "ja": ja}


#: Section order in every rendering (docs/rules.md#the-sections-in-this-order; DESIGN §2).
HEADS: tuple[SectionHead, ...] = (
    SectionHead("summary", _t("Summary", "概要")),
    SectionHead("symptom", _t("Symptom", "症状")),
    SectionHead("root_cause", _t("Root cause", "根本原因")),
    SectionHead("why_symptom", _t("Why the symptom appeared", "症状が発生した理由")),
    SectionHead("fix", _t("Fix", "修正")),
    SectionHead("how_found", _t("How it was found", "発見の経緯")),
    SectionHead("why_missed", _t("Why it was missed", "見逃された理由")),
    SectionHead("validation", _t("Validation", "検証")),
    SectionHead("action_items", _t("Action items", "対応項目")),
)

#: The categories for "Why it was missed" (docs/rules.md#the-sections-in-this-order).
WHY_MISSED_OPTIONS: tuple[Option, ...] = (
    _opt("ci_gap", "CI gap", "CI のギャップ"),
    _opt("latent_code", "Latent code", "潜在的なコード"),
    _opt("workload_gap", "Workload gap", "ワークロードのギャップ"),
    _opt("incomplete_fix", "Incomplete earlier fix", "以前の修正が不完全"),
    _opt("review_miss", "Review miss", "レビューでの見落とし"),
    _opt("no_good_reason", "No good reason: this should have been caught", "妥当な理由はありません。検出すべきでした"),
)

#: How often the repro triggers the bug (DESIGN §2): `rarely` is refused by the gate.
REPRO_RATE_OPTIONS: tuple[Option, ...] = (
    _opt("every_run", "Every run", "毎回"),
    _opt(
        "high_frequency", "High frequency (fails about one run in ten or more)", "高頻度（およそ 10 回に 1 回以上失敗）"
    ),
    _opt("rarely", "Rarely", "まれ"),
)

#: The verifications of "Validation" (docs/rules.md#the-sections-in-this-order); the first four show that the
#: fix works, the last two alone do not.
VALIDATION_KIND_OPTIONS: tuple[Option, ...] = (
    _opt("original_repro_passes", "Original repro passes", "元の再現手順が成功"),
    _opt("failing_test_passes", "Failing test passes", "失敗していたテストが成功"),
    _opt("workload_completes", "Workload completes", "ワークロードが完了"),
    _opt("perf_restored", "Performance restored", "性能が回復"),
    _opt("stress_soak", "Stress or soak run", "ストレス／連続稼働テスト"),
    _opt("other_configs", "Other configurations", "他の構成"),
)

DESTINATION_OPTIONS: tuple[Option, ...] = (
    _opt("jira_comment", "Jira comment", "Jira コメント"),
    _opt("pr_description", "PR description (Markdown file)", "PR の説明（Markdown ファイル）"),
    _opt("docs_file", "docs/postmortems/ file", "docs/postmortems/ のファイル"),
    _opt("wiki", "Wiki page (Markdown file)", "Wiki ページ（Markdown ファイル）"),
)

LANG_OPTIONS: tuple[Option, ...] = (_opt("en", "English", "英語"), _opt("ja", "Japanese", "日本語"))

FIELDS: tuple[Field, ...] = (
    Field(
        "ticket",
        "text",
        "meta",
        None,
        _t("Jira key", "Jira キー"),
        _t("Issue key of the original bug, e.g. PROJ-123.", "元のバグの課題キー（例: PROJ-123）。"),
        doc_label=_t("Ticket", "チケット"),
    ),
    Field(
        "summary",
        "multiline",
        "required_section",
        "summary",
        _t("Summary", "概要"),
        _t(
            "One paragraph: what broke for the user or workload, and one sentence on what fixed it.",
            "1 段落で: ユーザーやワークロードで何が壊れたか、何で直したかを 1 文で。",
        ),
    ),
    Field(
        "owner",
        "text",
        "required_section",
        "summary",
        _t("Owner of the fix", "修正の担当者"),
        _t(
            "The person or team who owns the fix. Never guessed by the bot.",
            "修正を担当する人またはチーム。ボットが推測することはありません。",
        ),
        doc_label=_t("Owner", "担当者"),
        show="facts",
    ),
    Field(
        "symptom",
        "multiline",
        "usually_included",
        "symptom",
        _t("Symptom", "症状"),
        _t(
            "What was observed, verbatim: test output, errors, log lines, numbers.",
            "観測された内容をそのまま: テスト出力、エラー、ログ、数値。",
        ),
    ),
    Field(
        "repro",
        "multiline",
        "required_input",
        "symptom",
        _t("Deterministic repro", "決定的な再現手順"),
        _t(
            "Deterministic steps, or steps that reproduce a flake at high frequency.",
            "確実に再現する手順、またはフレークを高頻度で再現する手順。",
        ),
        doc_label=_t("Reproduction", "再現手順"),
        show="below",
    ),
    Field(
        "repro_rate",
        "select",
        "required_input",
        "symptom",
        _t("How often the repro fails", "再現の頻度"),
        _t(
            "Every run, or a flake that fails at least about one run in ten. A rare failure is not a repro yet.",
            "毎回、またはおよそ 10 回に 1 回以上失敗するフレーク。"
            "まれにしか起きないものは、まだ再現手順ではありません。",
        ),
        doc_label=_t("How often", "再現頻度"),
        options=REPRO_RATE_OPTIONS,
        ask="buttons",
    ),
    Field(
        "root_cause",
        "multiline",
        "required_input",
        "root_cause",
        _t("Root cause (the mechanism)", "根本原因（メカニズム）"),
        _t(
            "The mechanism, with code identifiers — not a hypothesis.",
            "コード上の識別子を含むメカニズム。仮説ではなく。",
        ),
        names_code=True,
    ),
    Field(
        "confirmed_by",
        "multiline",
        "required_input",
        "how_found",
        _t("What confirmed the mechanism", "メカニズムを確認した方法"),
        _t(
            "The one experiment that confirmed the cause, e.g. forcing numStreams = 2 made the hang disappear. "
            '"The fix makes the original repro pass, and reverting it brings the failure back" is a valid '
            "answer: no extra experiment is needed.",
            "原因を確認できた唯一の実験（例: numStreams = 2 に強制したところ停止が消えた）。"
            "「修正で元の再現手順が成功し、修正を戻すと再び失敗する」も有効な回答です。追加の実験は不要です。",
        ),
        doc_label=_t("Confirmed by", "確認方法"),
    ),
    Field(
        "why_symptom",
        "multiline",
        "usually_included",
        "why_symptom",
        _t("Why the symptom appeared", "症状が発生した理由"),
        _t("The chain from the root cause to what was observed.", "根本原因から観測された症状までのつながり。"),
    ),
    Field(
        "fix_ref",
        "text",
        "required_input",
        "fix",
        _t("Fix reference (PR / commit / branch)", "修正の参照（PR／コミット／ブランチ）"),
        _t(
            "PR, commit or branch of the fix, e.g. org/repo#123 or a PR URL.",
            "修正の PR・コミット・ブランチ（例: org/repo#123、PR の URL）。",
        ),
        doc_label=_t("Fix reference", "修正の参照"),
        show="refs",
    ),
    Field(
        "fix",
        "multiline",
        "required_section",
        "fix",
        _t("Fix", "修正"),
        _t(
            "What changed and why it addresses the cause rather than hiding the symptom; earlier attempts.",
            "何を変えたか、なぜ症状を隠さず原因に対処しているか。以前の試みも。",
        ),
        names_code=True,
    ),
    Field(
        "how_found",
        "multiline",
        "usually_included",
        "how_found",
        _t("How it was found", "発見の経緯"),
        _t(
            "How the repro became deterministic: tools, rejected hypotheses, the deciding experiment.",
            "再現を確実にした方法: ツール、否定された仮説、決め手となった実験。",
        ),
    ),
    Field(
        "why_missed_category",
        "select",
        "usually_included",
        "why_missed",
        _t("Why it was missed (category)", "見逃された理由（分類）"),
        _t("The closest category.", "最も近い分類。"),
        doc_label=_t("Category", "分類"),
        options=WHY_MISSED_OPTIONS,
        ask="none",
        show="lead",
    ),
    Field(
        "why_missed",
        "multiline",
        "usually_included",
        "why_missed",
        _t("Why it was missed", "見逃された理由"),
        _t("The honest explanation of the gap, blameless.", "ギャップの率直な説明。個人を責めずに。"),
    ),
    Field(
        "validation",
        "multiline",
        "required_input",
        "validation",
        _t("Validation", "検証"),
        _t(
            "How the fix was verified: tests, workloads, before/after numbers, soak runs.",
            "修正の検証方法: テスト、ワークロード、修正前後の数値、連続稼働テスト。",
        ),
    ),
    Field(
        "validation_kinds",
        "multiselect",
        "required_input",
        "validation",
        _t("Verifications done", "実施した検証"),
        _t(
            "Tick what was done. At least one of the first four shows that the fix works; a soak run or other "
            "configurations alone do not.",
            "実施したものを選んでください。修正が効くことを示すには、最初の 4 つのうち少なくとも 1 つが必要です。"
            "連続稼働テストや他の構成だけでは示せません。",
        ),
        doc_label=_t("Verified", "実施した検証"),
        options=VALIDATION_KIND_OPTIONS,
        ask="checkboxes",
    ),
    Field(
        "validation_scope",
        "text",
        "optional",
        "validation",
        _t("What was not re-tested", "再テストしていない範囲"),
        _t("What was not re-tested (honest scope).", "再テストしていないもの（正直な範囲）。"),
        doc_label=_t("Scope", "検証範囲"),
    ),
    Field(
        "action_items",
        "list",
        "usually_included",
        "action_items",
        _t("Action items", "対応項目"),
        _t(
            "One a line: what | owner | tracking. Or just the word none when the fix is sufficient.",
            "1 行に 1 件: 内容 | 担当 | 追跡。フォローアップが不要なら「なし」とだけ書きます。",
        ),
        ask="items",
        also=("action_items_none",),
    ),
    Field(
        "customer_impacting",
        "flag",
        "scope",
        None,
        _t("Customer-facing outage (needs an incident report)", "顧客に影響する障害（インシデントレポートが必要）"),
        _t(
            "An outage needs an incident report; the bot asks before it goes on.",
            "障害にはインシデントレポートが必要です。続ける前にボットが確認します。",
        ),
    ),
    Field(
        "trivial",
        "flag",
        "scope",
        None,
        _t("Trivial fix (typo, obvious one-line change)", "軽微な修正（タイプミス、明らかな 1 行の修正）"),
        _t(
            "A trivial fix needs no post-mortem: the PR description is the record.",
            "軽微な修正に事後分析は不要です。PR の説明が記録になります。",
        ),
    ),
    Field(
        "destination",
        "select",
        "meta",
        None,
        _t("Destination", "掲載先"),
        _t(
            "Only a Jira comment is posted; the others are attached to the thread as a Markdown file.",
            "投稿されるのは Jira コメントのみ。それ以外は Markdown ファイルとしてスレッドに添付されます。",
        ),
        options=DESTINATION_OPTIONS,
    ),
    Field(
        "lang",
        "select",
        "meta",
        None,
        _t("Language", "言語"),
        _t("Headings of the post-mortem and the bot's messages.", "事後分析の見出しとボットのメッセージ。"),
        options=LANG_OPTIONS,
    ),
)

#: The product's registry: every module derives its part of the vocabulary from this.
REGISTRY = Registry(FIELDS, HEADS)
