"""The labelled corpus of the evidence gate: no false accept, at most 1% false refusals, every class present."""

from __future__ import annotations

import io
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml

from bot.cli import main
from postmortem.model import Lang
from rules.as_typed import as_typed
from rules.evidence import CHECKED_FIELDS, check_text
from rules.gate import GATE_FIELDS, check_field

pytestmark = pytest.mark.unit

CORPUS = Path(__file__).with_name("gate_corpus.yaml")
_JA_RE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")

#: The corpus's classes: wordings that were once falsely accepted, and those once falsely refused.
REFUSE_CLASSES = {
    "unknown",
    "unknown_ja",
    "hypothesis_label",
    "belief",
    "hedge",
    "modal_bare",
    "ja_inference",
    "seed_hedge",
    "prod_once",
    "customer_report",
    "cant_reproduce",
    "rare_rate",
    "sometimes",
    "intermittent_ja",
    "degenerate",
    "zero_width",
    "whitespace",
    "not_verified",
    "review_as_verification",
    "merge_as_verification",
    "deploy_as_verification",
    "hope",
    "placeholder_branch",
    "placeholder_url",
    "placeholder_hash",
    "placeholder",
}
ACCEPT_CLASSES = {
    "code_span",
    "identifier",
    "quoted",
    "log_line",
    "conditional_modal",
    "system_state",
    "ja_expected_actual",
    "rejected_hypothesis",
    "words_containing",
    "high_frequency",
    "contrast",
    "with_scope",
    "review_plus_pass",
}


def load() -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = yaml.safe_load(CORPUS.read_text(encoding="utf-8"))
    return cases


def verdict(case: dict[str, Any]) -> str:
    return "refuse" if check_text(case["field"], case["text"]) else "accept"


def test_corpus_shape() -> None:
    cases = load()
    assert len(cases) >= 240
    counts = Counter(c["expect"] for c in cases)
    assert set(counts) == {"accept", "refuse"}
    assert 0.4 <= counts["accept"] / len(cases) <= 0.6, counts
    assert all(set(c) == {"field", "text", "expect", "class"} for c in cases)
    assert {c["field"] for c in cases} <= set(CHECKED_FIELDS)
    for expect in ("accept", "refuse"):
        texts = [c["text"] for c in cases if c["expect"] == expect]
        assert sum(bool(_JA_RE.search(t)) for t in texts) >= 50, expect


def test_every_class_of_the_issue_is_present() -> None:
    cases = load()
    assert REFUSE_CLASSES <= {c["class"] for c in cases if c["expect"] == "refuse"}
    assert ACCEPT_CLASSES <= {c["class"] for c in cases if c["expect"] == "accept"}


def test_no_false_accept_and_at_most_one_percent_false_refusals() -> None:
    cases = load()
    false_accepts = [c for c in cases if c["expect"] == "refuse" and verdict(c) == "accept"]
    false_refusals = [c for c in cases if c["expect"] == "accept" and verdict(c) == "refuse"]
    assert false_accepts == []
    accepts = sum(c["expect"] == "accept" for c in cases)
    assert len(false_refusals) <= accepts // 100, false_refusals


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_every_refusal_in_a_gate_field_quotes_its_phrase(lang: Lang) -> None:
    for case in load():
        if case["expect"] != "refuse" or case["field"] not in GATE_FIELDS or not case["text"].strip():
            continue
        found = check_text(case["field"], case["text"])
        reason = check_field(case["field"], case["text"], lang)
        assert found is not None and reason is not None, case
        assert as_typed(found[1], case["text"]) in reason, (case, reason)  # the phrase, in the person's words
        assert "\n" not in reason


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("The fix makes the original repro pass, and reverting it brings the failure back.", None),
        ("修正で元の再現手順が通り、修正を戻すと失敗が再び発生しました。", None),
        ("Forcing `numStreams = 2` made the hang disappear.", None),
        ("We believe forcing `numStreams = 2` would make the hang disappear.", "hypothesis"),
        ("Will try forcing `numStreams = 2` tomorrow.", "pending"),
        ("まだ試していません。", "pending"),
        ("\u200b", "degenerate"),
    ],
)
def test_confirmed_by_is_checked_though_the_model_lacks_it_here(text: str, kind: str | None) -> None:
    found = check_text("confirmed_by", text)
    assert (found[0] if found else None) == kind


def test_cli_missing_lines_keep_the_format_and_quote_the_phrase(tmp_path: Path) -> None:
    data = yaml.safe_load((CORPUS.parent.parent.parent / "examples" / "cache-eviction.en.yaml").read_text())
    data.update(
        validation="Should be fixed now.",
        repro="Seen once in production.",
        root_cause="Unknown, still investigating.",
        fix_ref="branch fix/TBD",
    )
    path = tmp_path / "in.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    assert main(["check", str(path)], out=out, err=err) == 3
    lines = err.getvalue().splitlines()
    assert [line.split(": ")[1] for line in lines] == ["repro", "root_cause", "fix_ref", "validation"]
    assert all(line.startswith("missing: ") for line in lines)
    for line, phrase in zip(lines, ["Seen once", "Unknown", "fix/TBD", "Should be fixed"], strict=True):
        assert f'"{phrase}' in line, line
