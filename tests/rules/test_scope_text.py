"""Scope read from the text (docs/rules.md#when-not-to): an outage or a trivial fix described in words makes the bot ask
the scope question even with the box unticked; it never decides alone, and only the flags decide exit 4."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
import yaml

from bot.cli import main
from postmortem.model import Lang, PostMortem, load_postmortem
from rules.scope_text import hint_text, scope_hints, scope_question
from sessions.conversation import next_step, on_edit
from sessions.replies import on_reply
from sessions.session import Draft, Session, State
from tests.helpers import EXAMPLES

pytestmark = pytest.mark.unit

OUTAGES = [
    ("en", "summary", "SEV-1: exports failed for all tenants for 40 minutes; fixed by an inclusive bound."),
    ("en", "symptom", "The status page showed the export API as degraded for two hours."),
    ("en", "symptom", "Customers could not log in to the dashboard between 09:10 and 09:55."),
    ("en", "why_missed", "The on-call was paged only after the outage had lasted 30 minutes."),
    ("en", "summary", "The checkout service was down in eu-west-1 after the cache compaction."),
    ("ja", "summary", "顧客向けサービスの停止が 40 分間発生しました。上限を包含的にして修正しました。"),
    ("ja", "symptom", "ユーザーがダッシュボードにログインできない状態が 45 分続きました。"),
    ("ja", "symptom", "ステータスページで API の障害を告知しました。"),
    ("ja", "summary", "SEV2 のインシデントとして扱われ、サービス全体が停止しました。"),
]
TRIVIAL = [
    ("en", "fix", "Fixed a typo in the config key `cache.max_gib`."),
    ("en", "summary", "A one-line fix: the bound in `evict_range` is now inclusive."),
    ("ja", "fix", "設定キーの誤字を修正しました。"),
    ("ja", "summary", "`evict_range` の一行の修正です。"),
]
NOT_SCOPE = [
    ("en", "symptom", "A customer noticed that large exports were slower than usual."),
    ("en", "summary", "Customers reported stale pages after compaction; `evict_range` skipped the last shard."),
    ("en", "why_missed", "This was not an outage: one batch job retried and succeeded."),
    ("en", "symptom", "Latency went down after the fix, and memory paging stayed flat."),
    ("ja", "symptom", "評価ステップでワークロードが無期限に停止しました。"),
    ("ja", "symptom", "`tadaKernel_AllReduce_f32_RING` で障害が起き、学習が停止しました。"),
    ("ja", "why_missed", "顧客のワークロードで初めて問題が発生しました。"),
    ("ja", "summary", "これは顧客向けサービスの停止ではありません。単一ジョブのハングです。"),
]


def pm_with(lang: str, field: str, text: str) -> PostMortem:
    stem = "cache-eviction.en" if lang == "en" else "tada-hang.ja"
    return load_postmortem(EXAMPLES / f"{stem}.yaml").replace(**{field: text})


@pytest.mark.parametrize(("lang", "field", "text"), OUTAGES)
def test_an_outage_in_words_asks_the_scope_question(lang: str, field: str, text: str) -> None:
    pm = pm_with(lang, field, text)
    assert [h.flag for h in scope_hints(pm)] == ["customer_impacting"]
    stop = scope_question(pm, confirmed=False)
    assert stop is not None and (stop.flag, stop.confirmable) == ("customer_impacting", True)
    assert scope_hints(pm)[0].found in stop.reason
    assert scope_question(pm, confirmed=True) is None


@pytest.mark.parametrize(("lang", "field", "text"), TRIVIAL)
def test_a_trivial_fix_in_words_asks_and_never_declines(lang: str, field: str, text: str) -> None:
    stop = scope_question(pm_with(lang, field, text), confirmed=False)
    assert stop is not None and (stop.flag, stop.confirmable) == ("trivial", True)


@pytest.mark.parametrize(("lang", "field", "text"), NOT_SCOPE)
def test_a_bug_customers_noticed_or_a_hang_is_not_an_outage(lang: str, field: str, text: str) -> None:
    assert scope_hints(pm_with(lang, field, text)) == []


@pytest.mark.parametrize("stem", ["tada-hang.ja", "cache-eviction.en"])
def test_the_examples_ask_no_scope_question(stem: str) -> None:
    """The bundled example (tada-hang.ja) is a hang: its 停止 and 顧客 must not read as an outage."""
    assert scope_hints(load_postmortem(EXAMPLES / f"{stem}.yaml")) == []


def test_a_ticked_flag_is_not_asked_again_from_the_text() -> None:
    pm = pm_with("en", "summary", OUTAGES[0][2]).replace(customer_impacting=True)
    assert scope_hints(pm) == []


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_hint_text_names_the_flag_in_the_language(lang: Lang) -> None:
    hint = scope_hints(pm_with("en", "summary", OUTAGES[0][2]))[0]
    text = hint_text(hint, lang)
    assert "customer_impacting" in text and hint.found in text
    assert ("チェック" in text) == (lang == "ja")


# The conversation asks it like the flag's question; `continue` goes on


def collecting(pm: dict[str, Any]) -> Session:
    base = Session(ticket="PROJ-1", requester="U1", channel="C1", thread_ts="1700000000.000100")
    return base.with_changes(inputs=pm)


def test_next_step_asks_the_scope_question_for_an_outage_in_words() -> None:
    data = load_postmortem(EXAMPLES / "cache-eviction.en.yaml").model_dump(mode="json", exclude={"ticket", "lang"})
    data["symptom"] = OUTAGES[1][2]
    outcome = next_step(collecting(data))
    assert outcome.session is not None and outcome.session.state is State.scope_check
    assert [e.key for e in outcome.effects] == ["scope_stop"]
    assert "status page" in outcome.effects[0].params["reason"]
    confirmed = on_reply(outcome.session, "continue", user="U1", approvers=frozenset(), ts=1.0)
    assert confirmed.session is not None and confirmed.session.scope_confirmed
    after = next_step(confirmed.session)
    assert after.session is None or after.session.state is not State.scope_check


# The CLI: a warning line, and the exit code stays the flags'


def run_check(tmp_path: Path, **changes: object) -> tuple[int, str, str]:
    data = yaml.safe_load((EXAMPLES / "cache-eviction.en.yaml").read_text(encoding="utf-8"))
    data.update(changes)
    path = tmp_path / "in.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    return main(["check", str(path)], out=out, err=err), out.getvalue(), err.getvalue()


def test_check_warns_about_a_scope_in_words_and_still_exits_0(tmp_path: Path) -> None:
    code, out, _ = run_check(tmp_path, symptom=OUTAGES[1][2], fix=TRIVIAL[0][2])
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith('warning: customer_impacting: the text reads like a customer-facing outage ("status')
    assert lines[1].startswith('warning: trivial: the text reads like a trivial fix ("typo")')


def test_only_the_flag_decides_exit_4(tmp_path: Path) -> None:
    code, out, err = run_check(tmp_path, symptom=OUTAGES[1][2], customer_impacting=True)
    assert code == 4 and out == "" and err.startswith("out of scope: customer_impacting")


def test_an_edit_that_describes_an_outage_goes_back_to_the_scope_question() -> None:
    data = load_postmortem(EXAMPLES / "cache-eviction.en.yaml").model_dump(mode="json", exclude={"ticket", "lang"})
    drafted = collecting(data).with_changes(
        state=State.drafted, version=1, drafts=(Draft(version=1, sha256="a" * 64, body_sha256="a" * 64, shown_at=1.0),)
    )
    edited = on_edit(drafted, {**data, "symptom": OUTAGES[1][2]})
    assert edited.session is not None and edited.session.state is State.collecting
    assert [e.kind for e in edited.effects] == ["advance"]
    asked = next_step(edited.session)
    assert asked.session is not None and asked.session.state is State.scope_check
