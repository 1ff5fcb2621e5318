"""The structural readers of round 5 (docs/rules.md#how-the-gate-reads-the-inputs): rates read from counts in
any wording, and the probe texts each reader was built for, decided by the whole gate as bench/heldout.py does."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import yaml

from bench.heldout import measure
from rules.evidence_rates import counts
from rules.evidence_refs import ref_pending
from rules.evidence_sighting import sighting
from rules.evidence_steps import has_steps
from rules.textmask import mask

pytestmark = pytest.mark.unit

PROBES = Path(__file__).with_name("structural_probes.yaml")


@pytest.mark.parametrize(
    ("text", "rate"),
    [
        ("2 of the last 300 runs hit the timeout.", Fraction(1, 150)),
        ("Happens in about 1 run out of every 200 on CI.", Fraction(1, 200)),
        ("Out of 1000 replays, 3 dropped the session.", Fraction(3, 1000)),
        ("I repeated this 10 times on the rack; it failed all 10.", Fraction(1)),
        ("After 2,000 iterations of the fuzz harness we got exactly two crashes.", Fraction(1, 1000)),
        ("It fails on every 50th run or so.", Fraction(1, 50)),
        ("It hangs about a third of the time.", Fraction(1, 3)),
        ("We've seen the 502s on two of the last thirty runs.", Fraction(1, 15)),
        ("30 回回したところ、7 回で `SSL_ERROR_SYSCALL` が出た。", Fraction(7, 30)),
        ("1000 回流したところ、失敗は 4 回でした。", Fraction(1, 250)),
        ("直近 200 ビルド中 3 ビルドで落ちている。", Fraction(3, 200)),
        ("だいたい半分くらいの確率で落ちる。", Fraction(1, 2)),
    ],
)
def test_a_count_in_any_wording_is_read_as_a_rate(text: str, rate: Fraction) -> None:
    assert rate in {found for found, _ in counts(mask(text))}


@pytest.mark.parametrize(
    "text",
    ["12 of the 500 orders get the wrong price.", "Start one of the 3 replicas.", "Step 2: wait 10 s."],
)
def test_a_share_of_things_is_not_a_rate(text: str) -> None:
    assert counts(mask(text)) == ()


@pytest.mark.parametrize(
    ("text", "seen"),
    [
        ("Most nights it's fine; it blew up last Thursday.", True),
        ("I saw it fail one time on my laptop; haven't seen it since.", True),
        ("手元で一度だけ再現しましたが、その後は再現していません。", True),
        ("評価ステップを 1 回だけ実行する 30 秒のテスト。", False),
        ("It fails once the cache is full, every run.", False),
    ],
)
def test_a_sighting_is_not_a_run(text: str, seen: bool) -> None:
    assert (sighting(mask(text)) is not None) is seen


@pytest.mark.parametrize(
    ("text", "steps"),
    [
        ("NovaSeq のランで FASTQ demux ステップが失敗する。", False),
        ("Flaky, 1 run in 3.", True),
        ("Run the export job for a 2 GiB table.", True),
        ("1. open the app\n2. rotate twice", True),
    ],
)
def test_a_repro_states_something_to_run(text: str, steps: bool) -> None:
    assert has_steps(text) is steps


@pytest.mark.parametrize(
    ("text", "pending"),
    [
        ("Local commit `4c1d9e2` on my laptop; haven't pushed it yet.", True),
        ("Upstream issue #4411 (waiting for the maintainers to fix it)", True),
        ("PR #88 (closed without merging; a new one is coming)", True),
        ("Commit `b7e41c2` on main; the follow-up refactor will be opened as a separate PR next sprint.", False),
        ("MR !731, waiting for review from the storage team.", False),
        ("mobile-app#2231", False),
    ],
)
def test_a_reference_resolves_only_when_others_can_open_it(text: str, pending: bool) -> None:
    assert (ref_pending(text) is not None) is pending


def test_every_probe_is_decided_as_labelled() -> None:
    cases: list[dict[str, Any]] = yaml.safe_load(PROBES.read_text(encoding="utf-8"))
    assert len(cases) >= 250 and {c["expect"] for c in cases} == {"accept", "refuse"}
    _, wrong = measure(cases)
    assert [(kind, case["id"]) for kind, case, _ in wrong] == []
