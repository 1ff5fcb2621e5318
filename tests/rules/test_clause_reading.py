"""Clauses, not phrases: the gate and the lint on wordings of each class of the issue, in new words (the
blind batches have their own test), and the Japanese analyser loaded once and only for Japanese."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from postmortem.model import PostMortem
from rules import japanese
from rules.evidence import CHECKED_FIELDS, check_text
from rules.lint import lint

pytestmark = pytest.mark.unit

REFUSED = [
    # Not done yet: present perfect, past, plain negative, まだ…ない.
    ("validation", "We have not re-run the integration suite against the fix.", "pending"),
    ("validation", "Not tried on the failing test yet; the unit tests pass.", "not_done"),
    ("validation", "修正後の再現手順はまだ実行していません。", "pending"),
    ("repro", "まだ手元で再現を試していません。", "not_done"),
    ("repro", "The steps are in the ticket; I didn't get it to hang on my laptop.", "not_done"),
    # Watching instead of verifying.
    ("validation", "Keeping an eye on the dashboards after the rollout.", "pending"),
    ("validation", "ダッシュボードを見る限り問題なさそう。", "appearance"),
    ("confirmed_by", "The error graphs have been flat since Tuesday.", "watching"),
    # A root cause with no mechanism.
    ("root_cause", "There is a race somewhere in the scheduler.", "no_mechanism"),
    ("root_cause", "The export job hangs because the export never finishes.", "no_mechanism"),
    ("root_cause", "Either the cache TTL is too short or the CDN strips the header.", "alternatives"),
    ("root_cause", "The uploads fail due to a networking issue.", "no_mechanism"),
    # Japanese hearsay and conjecture, in every field.
    ("root_cause", "ベンダーによれば、ドライバのバグでバッファが解放されないらしい。", "hypothesis"),
    ("validation", "検証チームによると、修正版では落ちなくなったとのこと。", "hearsay"),
    ("confirmed_by", "ログを見た限り、`flush()` が二重に呼ばれているようです。", "hypothesis"),
    # Placeholders in other forms.
    ("confirmed_by", "同上", "no_experiment"),
    ("fix_ref", "branch tomorrow", "no_ref"),
    ("fix_ref", "commit 9c1e2f7, not pushed yet", "ref_pending"),
    ("fix_ref", "`fix/flush-twice` ブランチを作成予定です", "ref_pending"),
    ("repro", "再現手順は後で書きます。", "planned"),
    ("repro", "`./bench.sh` を 100 回回して 2 回失敗。", "rare"),
    ("root_cause", "The server crashes because it runs out of memory and then crashes.", "no_mechanism"),
    ("confirmed_by", "It lines up with the stack trace, so it must be that.", "conjecture"),
]

ACCEPTED = [
    ("validation", "`test_evict_last_shard` failed before the fix and passes now; the repro ran 50 times, 0 failures."),
    ("validation", "修正後、元の再現手順を 30 回実行し、一度もハングしませんでした。"),
    ("validation", "The original repro passes 40/40. Not re-tested on ARM."),
    (
        "root_cause",
        "`Scheduler.tick()` reads `queue.head` after releasing `queue.lock`, so a concurrent `pop()` frees the "
        "node and `tick()` dereferences freed memory.",
    ),
    ("root_cause", "`flush_pending()` は `buf_len == 0` のとき早期 return するため、最後のチャンクが書き込まれない。"),
    ("confirmed_by", "Reverting `a1b2c3d` brought the crash back in 10 of 10 runs; re-applying it made all 10 pass."),
    ("confirmed_by", "Hypothesis found the failing input `b'\\x00'`; `test_decode_roundtrip` passes with the fix."),
    ("repro", "`make repro` fails every time. The ticket said it happens rarely in prod."),
    ("repro", "Running `./stress.sh -n 40` hangs 40/40."),
    ("fix_ref", "branch fix/evict-last-shard"),
    ("fix_ref", "Perforce CL 448213"),
    ("repro", "The customer reported it last week, and `./scripts/repro_oom.sh` reproduces it on every run here."),
    ("repro", "Run `make repro`; you will see the checksum mismatch on every run."),
    ("repro", "デプロイの後で `./run.sh` を実行すると毎回落ちる。"),
    (
        "validation",
        "The customer's nightly import ran to completion three nights in a row (it crashed every night before).",
    ),
    (
        "validation",
        "`test_history_is_trimmed` failed before the fix and passes after it. We'll also watch the dashboard.",
    ),
    (
        "root_cause",
        "The connection pool is sized at 10, and each request holds two connections while it waits for the lock; "
        "with 6 concurrent requests the pool deadlocks.",
    ),
]


@pytest.mark.parametrize(("field", "text", "kind"), REFUSED)
def test_each_class_is_refused_with_its_kind(field: str, text: str, kind: str) -> None:
    found = check_text(field, text)
    assert found is not None and found[0] == kind, found


@pytest.mark.parametrize(("field", "text"), ACCEPTED)
def test_plain_evidence_in_new_words_is_accepted(field: str, text: str) -> None:
    assert check_text(field, text) is None


def test_the_analyser_loads_once_and_not_for_english() -> None:
    japanese._tagger.cache_clear()
    assert japanese.modality("The cache is flushed on every write.") is None
    assert japanese._tagger.cache_info().currsize == 0
    assert japanese.modality("新しいビルドで直ったらしい。") == ("hearsay", "らしい")
    assert japanese.modality("あたらしい設定で確認しました。") is None
    assert japanese._tagger.cache_info().currsize == 1
    japanese.modality("原因はキャッシュかもしれません。")
    assert japanese._tagger.cache_info().misses == 1


@pytest.mark.parametrize(
    "text",
    ["\u202e\u0000\u0007 🚀🔥💥", "ÆØÅ ऄ ঌ Ꭰ ⵣ 𝔘𝔫𝔦", "\ud7ff" * 40 + "。" * 40, "ｶﾞｷﾞｸﾞ" * 500, "\x1b[31mred\x1b[0m"],
)
def test_odd_scripts_emoji_and_control_characters_never_crash(text: str) -> None:
    for field in CHECKED_FIELDS:
        check_text(field, text)


def warned(pm: PostMortem, field: str, text: str) -> list[tuple[str, str]]:
    return [(w.rule, w.text) for w in lint(pm.replace(**{field: text})) if w.field == field]


def test_a_word_that_contains_a_hedge_is_no_hedge(clean: Callable[[str], PostMortem]) -> None:
    rules = [
        rule for rule, _ in warned(clean("ja"), "why_missed", "あたらしい `numStreams` の経路は CI で未検証でした。")
    ]
    assert "hedging" not in rules


@pytest.mark.parametrize(
    ("text", "phrase"),
    [
        ("修正版で直ったらしい。", "らしい"),
        ("原因はキャッシュかもしれません。", "かもしれません"),
        ("問題なさそうです。", "そうです"),
    ],
)
def test_japanese_hedges_are_read_by_their_grammar(clean: Callable[[str], PostMortem], text: str, phrase: str) -> None:
    found = warned(clean("ja"), "why_missed", text)
    assert any(rule == "hedging" and phrase in note for rule, note in found), found


@pytest.mark.parametrize(
    ("lang", "text"),
    [
        ("en", "The scheduler should be redesigned from scratch."),
        ("en", "Let's replace the homegrown queue with a managed one."),
        ("en", "This module needs a complete rewrite."),
        ("ja", "キューは全面的に作り直すべきです。"),
        ("ja", "スケジューラの再設計が必要です。"),
    ],
)
def test_calls_to_redesign_or_replace_are_advocacy(clean: Callable[[str], PostMortem], lang: str, text: str) -> None:
    assert "advocacy" in [rule for rule, _ in warned(clean(lang), "why_missed", text)]


def test_japanese_blame_without_an_honorific_names_the_person(clean: Callable[[str], PostMortem]) -> None:
    found = warned(clean("ja"), "why_missed", "田中がレビューで上限の変更を見落とした。")
    assert any(rule == "blame" and "田中" in note for rule, note in found), found
    assert "blame" not in [rule for rule, _ in warned(clean("ja"), "why_missed", "田中さんが修正を担当しました。")]
