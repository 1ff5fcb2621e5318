"""Clauses, not phrases: the gate and the lint on wordings of each class of the issue, in new words (the
blind batches have their own test), and the Japanese analyser loaded once and only for Japanese."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import pytest

from postmortem.model import PostMortem
from rules import japanese
from rules.evidence import CHECKED_FIELDS, check_text
from rules.gate import check_inputs
from rules.lint import lint
from rules.textmask import mask, rates

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

# Neighbours of the second blind batch's misses, in other words, tenses and both languages.
REFUSED += [
    # A placeholder or someone else's word inside a repro that claims every run.
    ("repro", "Steps: <paste the steps here> -- crashes every time according to support.", "placeholder_inside"),
    ("repro", "Crashes every time according to support.", "hearsay"),
    ("repro", "It fails on every run, per the vendor.", "hearsay"),
    ("repro", "手順：<ここに手順を記入> 毎回落ちる。", "placeholder_inside"),
    ("repro", "Repro: [add steps] -- crashes on every run, 10/10.", "placeholder_inside"),
    ("repro", "QA曰く毎回落ちる。", "hearsay"),
    ("repro", "サポートから毎回落ちると聞いた。", "hearsay"),
    ("repro", "QA can reproduce it every time with their script.", "hearsay"),
    ("confirmed_by", "QA confirmed it in staging.", "hearsay"),
    ("root_cause", "追加のログで確認する必要があるが、`tz_convert()` のDST処理が原因。", "hypothesis"),
    # Vague timing, a count per period, seen a few times, an estimated rate.
    ("repro", "Open the dashboard and leave it running; sooner or later the chart freezes.", "not_on_demand"),
    ("repro", "The nightly export breaks about three times a month.", "not_on_demand"),
    ("repro", "夜間ジョブで週に1〜2回、CSVが欠ける。", "not_on_demand"),
    ("repro", "本番で何度か発生した。条件はまだわかっていない。", "not_on_demand"),
    ("repro", "Seen it a few times on staging, not sure what triggers it.", "not_on_demand"),
    ("repro", "失敗率は感覚で2割くらい？正確には数えていません。", "not_done"),
    ("repro", "Fails maybe 1 in 5? Haven't counted.", "not_done"),
    # The symptom said again as its cause; a suspicion still to be confirmed.
    ("root_cause", "Login fails because the auth service returns an error.", "no_mechanism"),
    ("root_cause", "The page shows stale prices because the price cache serves stale prices.", "no_mechanism"),
    ("root_cause", "The job hangs because the worker does not respond at all.", "no_mechanism"),
    ("root_cause", "検索結果が0件になるのは、検索処理が0件を返しているためです。", "no_mechanism"),
    ("root_cause", "確定APIが500エラーを返すため、決済が失敗する。", "no_mechanism"),
    ("root_cause", "PDF生成処理が空のデータを出力するため、請求書PDFが空になる。", "no_mechanism"),
    (
        "root_cause",
        "We're thinking the leak comes from the image decoder; need to confirm with a heap dump.",
        "hypothesis",
    ),
    ("root_cause", "原因は画像デコーダのリークで、要確認です。", "hypothesis"),
    # Hearsay and a coincidence in time in place of an experiment.
    ("confirmed_by", "The vendor told us the patched firmware fixes it.", "hearsay"),
    ("confirmed_by", "The crash times correlate with the GC pauses, so the GC is the cause.", "inference"),
    (
        "confirmed_by",
        "エラー発生のタイミングとデプロイ時刻が重なっているので、原因はデプロイで間違いない。",
        "inference",
    ),
    # A test that passed before the fix shows nothing about it.
    ("validation", "このテストは修正前から通っていたので今回も OK。", "no_pass"),
    ("validation", "`test_export` was already passing before the fix and still passes.", "no_pass"),
    ("validation", "`test_refund` was green even before the fix, and it is green now.", "no_pass"),
    ("validation", "このテストは修正なしでも通るが、今回も通った。", "no_pass"),
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
    # Context beside an on-demand repro: a customer's report, a rarely used feature.
    ("repro", "The customer reported it first; I reproduced it locally with `./repro.sh` 12/12."),
    ("repro", "滅多に使われない「一括削除」を実行すると毎回 500 が返る。10/10。"),
    ("repro", "The rarely used bulk-export option crashes every time: `export --bulk` 20/20."),
    # A hypothesis tested or ruled out before the mechanism or the experiment.
    (
        "root_cause",
        "最初はネットワーク遅延を疑ったが違った。`Pool.acquire()` がタイムアウト時に接続を返却しないため、"
        "プールが枯渇する。",
    ),
    (
        "root_cause",
        "We initially thought it was the disk; it wasn't. `flush()` drops the last page when `n % 4096 == 0`.",
    ),
    (
        "root_cause",
        "Checkout fails because `ConfirmHandler` reads `order.total` before `apply_coupon()` writes it, so the total "
        "is null.",
    ),
    (
        "confirmed_by",
        "キャッシュ説かもと思って無効化してみたけど変化なし。`seq` を付けて古い応答を捨てたら 30 回中 0 回。",
    ),
    (
        "confirmed_by",
        "We thought the NIC might be involved, so we swapped it -- no change. Pinning `q=0` fixed it, 5/5.",
    ),
    # Japanese outcomes in their own words, a scale not re-tested, a deploy as a point in time.
    ("validation", "修正後に元の再現手順を 20 回流し、全件が正しく保存された。大規模データでの確認は未実施。"),
    ("validation", "デプロイ後、夜間バッチを再実行したら最後まで完走した。"),
    ("validation", "修正後、処理時間は 120 ms/件 に戻った（障害時 900 ms/件）。"),
    ("validation", "再現シナリオを 40 回実行し、エラーは一度も出なかった。"),
    ("validation", "修正後、患者バナーは50回の切り替えで毎回正しい名前を表示した。"),
    ("validation", "修正版で再現手順を流したら、期待どおりの結果になった。10/10。"),
    ("repro", "Press <Enter> twice in the search box with `layout=compact`; the page freezes every time."),
    ("validation", "`test_split_ship` failed before the fix and passes now, 30/30. A 24h soak also ran clean."),
    ("root_cause", "`parse()` が末尾の改行を返すため、キー比較が一致しない。"),
    # References in other systems.
    ("fix_ref", "Change-Id: I0123456789abcdef0123456789abcdef01234567"),
    ("fix_ref", "Differential Revision D20481"),
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


@pytest.mark.parametrize(
    ("lang", "text"),
    [
        ("ja", "72時間ソークテストで異常なし。"),
        ("en", "A 48-hour soak run finished with no errors."),
    ],
)
def test_a_soak_alone_contradicts_a_ticked_repro_or_test(
    clean: Callable[[str], PostMortem], lang: str, text: str
) -> None:
    pm = clean(lang).replace(validation=text, validation_kinds=["original_repro_passes"])
    reasons = [m.reason for m in check_inputs(pm) if m.field == "validation"]
    assert reasons and ("Original repro passes" in reasons[0] or "元の再現手順が成功" in reasons[0]), reasons
    with_repro = f"{text} `./repro.sh` 30/30 passes." if lang == "en" else f"{text}再現手順も 30 回中 0 回の失敗。"
    assert not [m for m in check_inputs(pm.replace(validation=with_repro)) if m.field == "validation"]


#: Neighbouring wordings of the classes read in the latest round: other tenses, word orders, both languages.
ROUND3_REFUSED = [
    ("repro", "We never managed to make it crash on staging; we'll wait for it to happen again."),
    ("repro", "Could not get the importer to fail locally."),
    ("repro", "本番で一回だけ落ちた。手元では未再現。"),
    ("repro", "It would probably be reproducible with a larger mempool, we'd expect."),
    ("confirmed_by", "再現環境が無いので、実験は行わなかった。"),
    ("confirmed_by", "Logged every INSERT: the duplicate shows up 3 times in 10 runs. Next step is to find out why."),
    ("root_cause", "A lock-ordering issue between the reader and writer threads."),
    ("root_cause", "The exporter hangs in an endless loop in `flush()` for empty batches."),
    ("fix_ref", "The PR will be #91 when we open it."),
    ("validation", "Run <failing test>: passed."),
]
ROUND3_ACCEPTED = [
    ("root_cause", "Billing service compute the total with an int16 counter, so order 40000 wrap to a negative total."),
    ("fix_ref", "#512 (the old branch name `todo/xx` was renamed before the merge)"),
    ("fix_ref", "Gerrit change I0a1b2c3d4e (merged)"),
    ("fix_ref", "PR #77 — the release is planned for Friday, but the fix is already merged."),
    (
        "confirmed_by",
        "Support said totals looked off, so we replayed the 120 orders with the fix: all matched the ledger.",
    ),
    (
        "validation",
        "Re-ran the nightly import with the file that failed: 9,210 rows imported, every total matches the source.",
    ),
]


@pytest.mark.parametrize(("field", "text"), ROUND3_REFUSED)
def test_round3_neighbours_are_refused(field: str, text: str) -> None:
    assert check_text(field, text) is not None


@pytest.mark.parametrize(("field", "text"), ROUND3_ACCEPTED)
def test_round3_neighbours_are_accepted(field: str, text: str) -> None:
    assert check_text(field, text) is None


#: Neighbours of the fourth blind batch's classes: reading or matching is no experiment, a check still running
#: is not done, a second symptom or an upgrade in time is no mechanism, a bare reference takes its clause's tense;
#: and nouns that look like hedges or plans (a `suspect` flag, a legality monitor, 乗務予定, a scope beside a pass).
ROUND4_REFUSED = [
    ("confirmed_by", "Went through the diff of `Pool.release()` with the team and we all agree the lease leaks."),
    ("confirmed_by", "Walked through `Scheduler.tick()` in the code; it plainly cannot handle a negative offset."),
    ("confirmed_by", "Reading the implementation of `LeaseMap.evict()` shows the entry is never removed."),
    ("confirmed_by", "The backtrace from the customer crash matches the one from staging, so that settles it."),
    ("confirmed_by", "Reordering the locks would fix it; on paper all 12 interleavings work out."),
    ("confirmed_by", "Raising the pool size could explain all 4 incidents."),
    ("confirmed_by", "The replay with the fix is still running; 5 of 40 batches are clean so far."),
    ("confirmed_by", "A re-run of the full import is currently underway; the first 2 of 9 files matched."),
    ("confirmed_by", "実装を読み直して、`flush()` が二重に呼ばれる経路があることを確認しました。"),
    ("confirmed_by", "差分を精査したところ、ロックの順序が逆になっていた。"),
    ("confirmed_by", "本番のバックトレースが手元のものと同じだったので、原因は確定。"),
    ("confirmed_by", "修正版のリリース後、ダッシュボード上でエラー率は 0 のまま 3 日経過。"),
    ("confirmed_by", "修正版で 1 か月分のリプレイを実行中です。最初の 3 日分は問題なし。"),
    ("root_cause", "The kiosk freezes because the card reader stops responding."),
    ("root_cause", "Payments time out since the gateway doesn't answer anymore."),
    ("root_cause", "決済がタイムアウトするのは、ゲートウェイが応答しないためです。"),
    ("root_cause", "画面が固まるのは、カードリーダーが反応しなくなるからだ。"),
    ("root_cause", "It began right after we migrated to Postgres 16, so it's the database upgrade."),
    ("root_cause", "Appeared when we switched to the new JDK; must be the version bump."),
    ("root_cause", "According to the vendor's advisory, `decode()` overflows on long frames. Not checked by us."),
    ("root_cause", "Going by the maintainer's reply on the tracker, `scan()` reads past the buffer."),
    ("fix_ref", "#912, will push it after lunch"),
    ("fix_ref", "branch `fix/tz`, going to rebase it onto main first"),
    ("fix_ref", "MR !77 — about to open it"),
    ("repro", "Repro steps will be: start two workers, kill one; the lease is lost. Setting up the rig now."),
]
ROUND4_ACCEPTED = [
    ("validation", "Replayed 200 orders: no unmatched lines. Not re-tested on the EU cluster."),
    ("validation", "Ran the reset at 23:59:58 with the fix: kept the streak 20/20 on Android 14."),
    ("validation", "The 30 original repro runs with the fix: 30/30 matched the ledger."),
    ("validation", "Resent the 80 messages: 0 duplicated orders, and the nightly job finished."),
    ("validation", "Reran the repro 40 times on the patched build and could not get a lost lease (was 40/40 before)."),
    ("validation", "元の再現手順を 20 回実行し、二重計上は 0 回。macOS は未検証。"),
    ("validation", "再現スクリプトを修正版で 50 回流して失敗 0 回。Windows では未確認（対象外）。"),
    (
        "confirmed_by",
        "Replayed the 500 flagged suspect samples with the fix: all went to manual review; reverted, 41 auto-released.",
    ),
    (
        "confirmed_by",
        "出発予定の変更を 20 回流したところ、修正版では 20 回とも通知が正しく消え、元のビルドでは 20 回とも残った。",
    ),
    ("fix_ref", "PR #88「出発予定の再計算を修正」（マージ済み）"),
    (
        "root_cause",
        "The `risk` flag is mapped to `H` in `flags.yaml`, so suspect orders are auto-approved by `Router.route()`.",
    ),
    ("repro", "勤務予定の CSV を `import --month 10` で取り込むと、毎回 10/27 の夜勤で休憩が 1 時間短くなる。"),
    ("validation", "Replayed the week through the rate monitor with the fix: 0 false alerts (was 9)."),
]


@pytest.mark.parametrize(("field", "text"), ROUND4_REFUSED)
def test_round4_neighbours_are_refused(field: str, text: str) -> None:
    assert check_text(field, text) is not None


@pytest.mark.parametrize(("field", "text"), ROUND4_ACCEPTED)
def test_round4_neighbours_are_accepted(field: str, text: str) -> None:
    assert check_text(field, text) is None


@pytest.mark.parametrize(
    ("text", "rate"),
    [
        ("Saw it 3 times in about 400 runs.", Fraction(3, 400)),
        ("It failed 2 times in roughly 1,000 runs.", Fraction(2, 1000)),
        ("Of around 200 attempts it crashed twice.", Fraction(2, 200)),
        ("今週 100 回ほど流して 2 回発生しました。", Fraction(2, 100)),
        ("約 200 回中 3 回程度。", Fraction(3, 200)),
        ("100 回のうち 2 回。", Fraction(2, 100)),
        ("5 回実行し、5 回とも発生しました。", Fraction(1)),
    ],
)
def test_an_approximate_count_is_still_a_rate(text: str, rate: Fraction) -> None:
    assert [r for r, _ in rates(mask(text))] == [rate]


def test_a_date_is_not_a_rate() -> None:
    assert rates(mask("10/27 の夏時間終了をまたぐ夜間便")) == ()
    assert [r for r, _ in rates(mask("3/10 の確率で失敗"))] == [Fraction(3, 10)]


@pytest.mark.parametrize(
    ("line", "masked"),
    [
        ("2024-05-12 のリプレイを 3 回実行し、二重発行は 0 件でした。", False),  # a date leading prose
        ("2026-11-30: reran the suite 20 times, all green", False),
        ("2024-05-12 10:11:12 ERROR lock wait timeout exceeded", True),  # a pasted log line
        ("2024-05-12T10:11:12Z worker-3 retrying", True),
        ("10:11:12 WARN queue full", True),
    ],
)
def test_a_date_alone_leads_prose_and_a_date_with_its_time_leads_a_log_line(line: str, masked: bool) -> None:
    words = [w for w in ("リプレイ", "reran", "lock", "retrying", "queue") if w in line]
    assert (words[0] not in mask(line)) is masked
