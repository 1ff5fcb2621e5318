"""The DESIGN §2 fields, declared once (the registry's data; see postmortem/fields.py). Sections and choices:
postmortem/field_choices.py."""

from __future__ import annotations

from postmortem.field_choices import (
    DESTINATION_OPTIONS,
    HEADS,
    LANG_OPTIONS,
    REPRO_RATE_OPTIONS,
    VALIDATION_KIND_OPTIONS,
    WHY_MISSED_OPTIONS,
    en_ja,
)
from postmortem.fields import Field, Registry

FIELDS: tuple[Field, ...] = (
    Field(
        "ticket",
        "text",
        "meta",
        None,
        en_ja("Jira key", "Jira キー"),
        en_ja("Issue key of the original bug, e.g. PROJ-123.", "元のバグの課題キー（例: PROJ-123）。"),
        doc_label=en_ja("Ticket", "チケット"),
    ),
    Field(
        "summary",
        "multiline",
        "required_section",
        "summary",
        en_ja("Summary", "概要"),
        en_ja(
            "One paragraph: what broke for the user or workload, and one sentence on what fixed it.",
            "1 段落で: ユーザーやワークロードで何が壊れたか、何で直したかを 1 文で。",
        ),
    ),
    Field(
        "owner",
        "text",
        "required_section",
        "summary",
        en_ja("Owner of the fix", "修正の担当者"),
        en_ja(
            "The person or team who owns the fix. Never guessed by the bot.",
            "修正を担当する人またはチーム。ボットが推測することはありません。",
        ),
        doc_label=en_ja("Owner", "担当者"),
        show="facts",
    ),
    Field(
        "symptom",
        "multiline",
        "usually_included",
        "symptom",
        en_ja("Symptom", "症状"),
        en_ja(
            "What was observed, verbatim: test output, errors, log lines, numbers.",
            "観測された内容をそのまま: テスト出力、エラー、ログ、数値。",
        ),
    ),
    Field(
        "repro",
        "multiline",
        "required_input",
        "symptom",
        en_ja("Deterministic repro", "決定的な再現手順"),
        en_ja(
            "Deterministic steps, or steps that reproduce a flake at high frequency.",
            "確実に再現する手順、またはフレークを高頻度で再現する手順。",
        ),
        doc_label=en_ja("Reproduction", "再現手順"),
        show="below",
    ),
    Field(
        "repro_rate",
        "select",
        "required_input",
        "symptom",
        en_ja("How often the repro fails", "再現の頻度"),
        en_ja(
            "Every run, or a flake that fails at least about one run in ten. A rare failure is not a repro yet.",
            "毎回、またはおよそ 10 回に 1 回以上失敗するフレーク。"
            "まれにしか起きないものは、まだ再現手順ではありません。",
        ),
        doc_label=en_ja("How often", "再現頻度"),
        options=REPRO_RATE_OPTIONS,
        ask="buttons",
    ),
    Field(
        "root_cause",
        "multiline",
        "required_input",
        "root_cause",
        en_ja("Root cause (the mechanism)", "根本原因（メカニズム）"),
        en_ja(
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
        en_ja("What confirmed the mechanism", "メカニズムを確認した方法"),
        en_ja(
            "The one experiment that confirmed the cause, e.g. forcing numStreams = 2 made the hang disappear. "
            '"The fix makes the original repro pass, and reverting it brings the failure back" is a valid '
            "answer: no extra experiment is needed.",
            "原因を確認できた唯一の実験（例: numStreams = 2 に強制したところ停止が消えた）。"
            "「修正で元の再現手順が成功し、修正を戻すと再び失敗する」も有効な回答です。追加の実験は不要です。",
        ),
        doc_label=en_ja("Confirmed by", "確認方法"),
    ),
    Field(
        "why_symptom",
        "multiline",
        "usually_included",
        "why_symptom",
        en_ja("Why the symptom appeared", "症状が発生した理由"),
        en_ja("The chain from the root cause to what was observed.", "根本原因から観測された症状までのつながり。"),
    ),
    Field(
        "fix_ref",
        "text",
        "required_input",
        "fix",
        en_ja("Fix reference (PR / commit / branch)", "修正の参照（PR／コミット／ブランチ）"),
        en_ja(
            "PR, commit or branch of the fix, e.g. org/repo#123 or a PR URL.",
            "修正の PR・コミット・ブランチ（例: org/repo#123、PR の URL）。",
        ),
        doc_label=en_ja("Fix reference", "修正の参照"),
        show="refs",
    ),
    Field(
        "fix",
        "multiline",
        "required_section",
        "fix",
        en_ja("Fix", "修正"),
        en_ja(
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
        en_ja("How it was found", "発見の経緯"),
        en_ja(
            "How the repro became deterministic: tools, rejected hypotheses, the deciding experiment.",
            "再現を確実にした方法: ツール、否定された仮説、決め手となった実験。",
        ),
    ),
    Field(
        "why_missed_category",
        "select",
        "usually_included",
        "why_missed",
        en_ja("Why it was missed (category)", "見逃された理由（分類）"),
        en_ja("The closest category.", "最も近い分類。"),
        doc_label=en_ja("Category", "分類"),
        options=WHY_MISSED_OPTIONS,
        ask="none",
        show="lead",
    ),
    Field(
        "why_missed",
        "multiline",
        "usually_included",
        "why_missed",
        en_ja("Why it was missed", "見逃された理由"),
        en_ja("The honest explanation of the gap, blameless.", "ギャップの率直な説明。個人を責めずに。"),
    ),
    Field(
        "validation",
        "multiline",
        "required_input",
        "validation",
        en_ja("Validation", "検証"),
        en_ja(
            "How the fix was verified: tests, workloads, before/after numbers, soak runs.",
            "修正の検証方法: テスト、ワークロード、修正前後の数値、連続稼働テスト。",
        ),
    ),
    Field(
        "validation_kinds",
        "multiselect",
        "required_input",
        "validation",
        en_ja("Verifications done", "実施した検証"),
        en_ja(
            "Tick what was done. At least one of the first four shows that the fix works; a soak run or other "
            "configurations alone do not.",
            "実施したものを選んでください。修正が効くことを示すには、最初の 4 つのうち少なくとも 1 つが必要です。"
            "連続稼働テストや他の構成だけでは示せません。",
        ),
        doc_label=en_ja("Verified", "実施した検証"),
        options=VALIDATION_KIND_OPTIONS,
        ask="checkboxes",
    ),
    Field(
        "validation_scope",
        "text",
        "optional",
        "validation",
        en_ja("What was not re-tested", "再テストしていない範囲"),
        en_ja("What was not re-tested (honest scope).", "再テストしていないもの（正直な範囲）。"),
        doc_label=en_ja("Scope", "検証範囲"),
    ),
    Field(
        "action_items",
        "list",
        "usually_included",
        "action_items",
        en_ja("Action items", "対応項目"),
        en_ja(
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
        en_ja("Customer-facing outage (needs an incident report)", "顧客に影響する障害（インシデントレポートが必要）"),
        en_ja(
            "An outage needs an incident report; the bot asks before it goes on.",
            "障害にはインシデントレポートが必要です。続ける前にボットが確認します。",
        ),
    ),
    Field(
        "trivial",
        "flag",
        "scope",
        None,
        en_ja("Trivial fix (typo, obvious one-line change)", "軽微な修正（タイプミス、明らかな 1 行の修正）"),
        en_ja(
            "A trivial fix needs no post-mortem: the PR description is the record.",
            "軽微な修正に事後分析は不要です。PR の説明が記録になります。",
        ),
    ),
    Field(
        "destination",
        "select",
        "meta",
        None,
        en_ja("Destination", "掲載先"),
        en_ja(
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
        en_ja("Language", "言語"),
        en_ja("Headings of the post-mortem and the bot's messages.", "事後分析の見出しとボットのメッセージ。"),
        options=LANG_OPTIONS,
    ),
)

#: The product's registry: every module derives its part of the vocabulary from this.
REGISTRY = Registry(FIELDS, HEADS)
