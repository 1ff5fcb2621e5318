"""Counts written in words are read as the figures they are, in both languages, and nothing else is."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from postmortem.model import PostMortem
from rules.gate import check_inputs
from rules.numerals import as_digits

pytestmark = pytest.mark.unit

Example = Callable[[str], PostMortem]


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("三十回中八回です", " 30 回中 8 回です"),
        ("二十回繰り返し、二十回とも届きました", " 20 回繰り返し、 20 回とも届きました"),
        ("全十二巻", "全 12 巻"),
        ("百二十件", " 120 件"),
        ("I ran it forty times and counted eleven double-feeds", "I ran it 40 times and counted 11 double-feeds"),
        ("two hundred replays", "200 replays"),
        ("three hundred and twenty runs", "320 runs"),
        ("twenty-five runs", "25 runs"),
        ("eleven out of forty", "11 out of 40"),
        ("it failed in seven of forty runs", "it failed in 7 of 40 runs"),
        ("one run in five", "one run in 5"),  # one stays a word
    ],
)
def test_a_count_in_words_is_read_as_its_figure(text: str, read: str) -> None:
    assert as_digits(text) == read


@pytest.mark.parametrize(
    "text",
    [
        "十分な時間",  # enough, not ten minutes
        "二度と起きない",  # never again
        "一度だけ",  # a sighting, read as words
        "数百回で出ます",  # some hundreds: no figure
        "二三回",  # two or three: no one figure
        "the other two courses",  # not a count of runs
        "two of the replay hosts",
        "three nights in a row",  # a duration, not runs
    ],
)
def test_words_that_are_not_a_count_of_runs_stay_words(text: str) -> None:
    assert as_digits(text) == text


@pytest.mark.parametrize(
    ("lang", "repro", "rate", "refused"),
    [
        ("ja", "`typeset --vertical` を実行するとルビが次ページに飛びます。三十回中八回です。", "high_frequency",
         False),
        ("en", "Run `clock_replay` on Thursday's feed. I replayed it two hundred times and it skipped once.",
         "high_frequency", True),
        ("en", "Run `drill.sh`. I ran it forty times this morning and counted eleven double-feeds.", "high_frequency",
         False),
        ("en", "Run `import chips.csv`. On mine it finishes cleanly in twenty tries out of twenty.", "every_run", True),
    ],
)  # fmt: skip
def test_a_rate_in_words_decides_as_the_figure_would(
    example: Example, lang: str, repro: str, rate: str, refused: bool
) -> None:
    pm = example("tada-hang.ja" if lang == "ja" else "cache-eviction.en").replace(repro=repro, repro_rate=rate)
    assert any(m.field == "repro" for m in check_inputs(pm)) is refused


def test_performance_ticked_and_not_measured_names_that_answer_only(example: Example) -> None:
    pm = example("tada-hang.ja").replace(
        validation="元の再現手順を 20 回流し、失敗は 0 回でした。処理時間は今回は計測していません。",
        validation_kinds=["original_repro_passes", "perf_restored"],
    )
    (missing,) = [m for m in check_inputs(pm) if m.field == "validation"]
    assert "計測していません" in missing.reason and "性能" in missing.reason
    assert "元の再現手順が成功" not in missing.reason.split("必要なもの")[0]
