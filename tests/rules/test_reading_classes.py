"""The classes read in round 6 (docs/gate-measurements.md), each on its own reader, in words that are neither
batch 7's nor the probes': a class is held by its shape, not by a sentence. The whole gate's decisions on the
probe texts of each class are in tests/rules/structural_probes.yaml (ids p7-*)."""

from __future__ import annotations

import pytest

from rules.evidence import check_text
from rules.evidence_after import fails_after
from rules.evidence_agreement import not_every_run
from rules.evidence_contrast import with_without
from rules.evidence_sighting import sighting
from rules.evidence_spec import norm_says
from rules.evidence_trials import cut_short, single_trial
from rules.reading import watching
from rules.textmask import mask

pytestmark = pytest.mark.unit


@pytest.mark.parametrize(
    ("text", "every"),
    [
        ("Nearly every time the daemon starts, `init_db()` deadlocks.", False),
        ("Practically always the first upload times out.", False),
        ("おおむね毎回、初回のアップロードがタイムアウトする。", False),
        ("正常に終わるのは 0 回: `init_db()` は起動のたびに毎回デッドロックする。", True),
        ("The first upload times out every time.", True),
    ],
)
def test_a_hedged_or_compound_every_run_marker_is_not_every_run(text: str, every: bool) -> None:
    assert (not_every_run(mask(text)) is None) is every


@pytest.mark.parametrize(
    ("text", "dated"),
    [
        ("The cron job blew up three days ago on `batch-3`.", True),
        ("We spotted the truncated PDF on 14 February in the archive.", True),
        ("先週の金曜に一度だけバックアップが壊れていた。", True),
        ("Start the job at any time of day; it fails on the first batch.", False),
    ],
)
def test_a_failure_seen_at_a_point_in_time_is_a_sighting(text: str, dated: bool) -> None:
    assert (sighting(mask(text)) is not None) is dated


@pytest.mark.parametrize(
    ("text", "single"),
    [
        ("Lowered `batch_size` to 1 and the next try went through; I haven't tried it again.", True),
        ("A single shot with `--no-jit` and the miscompile was gone.", True),
        ("一回きりだが、JIT を切ると結果が正しくなった。", True),
        ("Lowered `batch_size` to 1: 400 of 400 runs went through; at 8, 61 of 400 failed.", False),
        ("JIT を切ると 300 回とも正しく、戻すと 300 回中 45 回で結果がずれた。", False),
    ],
)
def test_a_single_trial_is_not_a_result(text: str, single: bool) -> None:
    assert (single_trial(mask(text)) is not None) is single


@pytest.mark.parametrize(
    ("text", "short"),
    [
        ("The backfill went beyond the old hang point and we then halted it early.", True),
        ("Only 2 of 12 regions were replayed with the fix; both finished.", True),
        ("バックフィルは以前のハング地点を過ぎたが、途中で止めた。", True),
        ("The backfill ran to completion over all 12 regions in 5 h.", False),
    ],
)
def test_a_workload_cut_short_did_not_complete(text: str, short: bool) -> None:
    assert (cut_short(mask(text)) is not None) is short


@pytest.mark.parametrize(
    ("text", "after"),
    [
        ("With the patch, 2,000 boots: a couple of panics (previously 300).", True),
        ("Patched build: 4 of 500 requests timed out.", True),
        ("The patched build is at 993/1000 green.", True),
        ("修正版では 500 回中 2 回ハングした。", True),
        ("Went from 300 panics in 2,000 boots to 0 with the patch.", False),
        ("Patched build: 500/500 green, where main had 41 failures.", False),
    ],
)
def test_any_failure_counted_after_the_fix_is_not_a_pass(text: str, after: bool) -> None:
    assert fails_after(mask(text)) is after


@pytest.mark.parametrize(
    ("text", "watch"),
    [
        ("In the monitoring cluster we rebuilt the agent; 50/50 restarts clean.", False),
        ("監視ジョブのテストが 50 回とも通った。", False),
        ("We've been monitoring it on the fixed build; quiet.", True),
        ("監視ダッシュボードで様子を見ている。", True),
    ],
)
def test_a_watching_word_that_names_a_thing_is_not_watching(text: str, watch: bool) -> None:
    assert any(watching(part) is not None for part in mask(text).split(";")) is watch


@pytest.mark.parametrize(
    ("text", "contrast"),
    [
        ("Setting `nodelay` let all 600 messages through in order; with it unset, 90 were reordered.", True),
        ("Leaving the index out made every query correct; without it, 12 of 100 were wrong.", True),
        ("圧縮を有効にすると 200 件中 17 件が壊れ、無効にすると 0 件だった。", True),
        ("The query was wrong 12 times in 100.", False),
    ],
)
def test_a_with_without_contrast_is_the_shape_of_an_experiment(text: str, contrast: bool) -> None:
    assert (with_without(mask(text)) is not None) is contrast


@pytest.mark.parametrize(
    ("sentence", "norm"),
    [
        ("The SMTP standard allows a server to answer 421 at any time, and it may then close the socket.", True),
        ("IEEE 754 specifies that NaN compares unequal, so a sort may place it anywhere.", True),
        ("The on-call says it may be the socket.", False),
        ("It may be the socket.", False),
    ],
)
def test_a_modal_after_a_norm_is_the_norm_speaking(sentence: str, norm: bool) -> None:
    assert norm_says(sentence, sentence.index(" may ")) is norm


@pytest.mark.parametrize(
    "text",
    [
        "https://git.example.org/team/svc/pulls/<number>",
        "https://github.com/acme/svc/pull/xyz",
        "https://github.com/acme/svc/commit/ZZZZZZZ",
        "https://gitlab.example.org/g/svc/-/merge_requests/（未作成）",
    ],
)
def test_a_reference_whose_number_is_not_digits_is_a_placeholder(text: str) -> None:
    found = check_text("fix_ref", text)
    assert found is not None and found[0] == "placeholder"
