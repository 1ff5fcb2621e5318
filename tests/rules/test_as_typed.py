"""A refusal quotes the person's words: what the readers saw masked (a code span, a quote, a name) is shown as typed."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest

from postmortem.model import PostMortem
from rules.as_typed import as_typed
from rules.gate import check_field, check_inputs
from rules.textmask import MASKED_CODE

pytestmark = pytest.mark.unit

Example = Callable[[str], PostMortem]


@pytest.mark.parametrize(
    ("field", "text", "typed"),
    [
        (
            "root_cause",
            "Root cause is `telemetry-agg` getting OOM-killed on the launch laptop once a flight passes 40,000 "
            "samples; `uplink_writer` then repeats the last frame.",
            "`telemetry-agg` getting OOM-killed",
        ),
        ("confirmed_by", "Loaded the minidump in `WinDbg`: the faulting frame is `ring_push`.", "`WinDbg`"),
        ("validation", "「大丈夫そう」と `qa-bot` が言っていました。", "`qa-bot`"),
    ],
)
def test_a_quoted_phrase_shows_the_code_the_person_typed(field: str, text: str, typed: str) -> None:
    reason = check_field(field, text, "ja" if "「" in text else "en")
    assert reason is not None
    assert typed in reason, reason
    assert MASKED_CODE.search(reason.split("needed")[0].split("必要なもの")[0]) is None, reason


def test_a_contradiction_with_the_ticked_answer_quotes_the_code_too(example: Example) -> None:
    pm = example("tada-hang.ja").replace(
        validation="元の再現手順を 100 回流し 0 回でした。スイート全体では `test_bell` が 1 件落ちました。",
        validation_kinds=["original_repro_passes"],
    )
    (missing,) = [m for m in check_inputs(pm) if m.field == "validation"]
    assert "`test_bell`" in missing.reason, missing.reason


def test_a_phrase_cut_short_is_shown_cut_short_with_its_code() -> None:
    text = "The export hangs because the `pool_worker` threads stop making progress under load on big tenants."
    shown = as_typed("The export hangs because the Q threads stop making progress…", text)
    assert shown == "The export hangs because the `pool_worker` threads stop making progress…"


def test_a_fenced_block_in_a_quote_is_cut_to_a_bound() -> None:
    fence = "```\n" + "x = 1\n" * 200 + "```"
    shown = as_typed("ran Q and it hangs", f"I ran {fence} and it hangs")
    assert shown.startswith("ran ```") and shown.endswith("…")
    assert len(shown) <= len("ran Q and it hangs") + 120


@pytest.mark.parametrize(
    ("phrase", "text"),
    [
        ("no Q here", "nothing of the kind is in this text"),  # not found: the reader's words stay
        ("Q", "`x` alone"),  # no word to find it by
        ("plain words", "plain words, nothing masked"),  # nothing masked in the phrase
    ],
)
def test_a_phrase_that_cannot_be_placed_is_shown_as_the_reader_said_it(phrase: str, text: str) -> None:
    assert as_typed(phrase, text) == phrase


def test_placing_a_phrase_in_a_large_field_is_bounded() -> None:
    text = "`a` fails and " * 20_000  # the anchor word is everywhere, the phrase nowhere
    start = time.process_time()
    assert as_typed("Q fails and Q crashes", text) == "Q fails and Q crashes"
    assert time.process_time() - start < 0.5
