"""The approval grammar, table-driven: only the plain phrase approves; anything that could mean otherwise doesn't.

Each row is a reply as Slack sends it (its three HTML escapes applied) and what it must be read as. A posted
comment is never taken back, so every doubtful row is on the side of not posting.
"""

from __future__ import annotations

import pytest

from rules.classifier import MAX_APPROVAL_CHARS, Kind, classify_reply, is_approval

pytestmark = pytest.mark.unit

BOT = "UBOT"
A, U, N = Kind.approve, Kind.unclear_approval, None  # N: not an approval, and not told how to approve

ROWS: list[tuple[str, Kind | None]] = [
    # English: the phrases, their punctuation, case and spacing.
    ("yes", A),
    ("Yes", A),
    ("YES!", A),
    ("yes.", A),
    ("yes, please", A),
    ("Yes please!", A),
    ("post it", A),
    ("Post it.", A),
    ("please post it", A),
    ("post it please", A),
    ("go ahead", A),
    ("Go ahead!!", A),
    ("ok, post it", A),
    ("okay go ahead", A),
    ("yes post it", A),
    ("  yes \n", A),
    ("ｙｅｓ", A),
    ("Ｐｏｓｔ ｉｔ！", A),
    # English with what an approval may carry: the bot's mention, positive emoji (with skin tones).
    ("<@UBOT> yes", A),
    ("<@UBOT|postmortem-bot> post it", A),
    ("yes <@UBOT>", A),
    ("<@UBOT>, go ahead", A),
    ("yes 👍", A),
    ("👍 yes", A),
    ("yes 👍🏽", A),
    ("go ahead ✅", A),
    ("post it ✔️", A),
    ("yes 🚀🎉", A),
    ("yes :+1:", A),
    ("yes :thumbsup:", A),
    ("yes :+1::skin-tone-3:", A),
    ("post it :white_check_mark:", A),
    ("go ahead :pray:", A),
    ("yes :tada: :rocket:", A),
    # English: code, quotes, negative signs.
    ("`yes`", U),
    ("`post it`", U),
    ("```yes```", U),
    ("```\npost it\n```", U),
    ("yes `now`", U),
    ("> yes", U),
    ("&gt; yes", U),
    ("&gt;&gt;&gt; post it", U),
    ("ok\n&gt; post it", U),
    ("post it 🚫", U),
    ("post it 👎", U),
    ("yes ❌", U),
    ("go ahead ✋", U),
    ("yes ⛔", U),
    ("post it :x:", U),
    ("post it :no_entry:", U),
    ("post it :no_entry_sign:", U),
    ("yes :thumbsdown:", U),
    ("yes :-1:", U),
    ("go ahead :hand:", U),
    ("yes :octagonal_sign:", U),
    ("yes :no_good:", U),
    ("yes 🤔", U),
    ("yes :thinking_face:", U),
    ("~post it~", U),
    ("*yes*", U),
    ("_go ahead_", U),
    # English: other words, questions, markup.
    ("yes?", U),
    ("post it?", U),
    ("Go ahead ?", U),
    ("post it now", U),
    ("post it to wiki", U),
    ("don't post it", U),
    ("do not post it", U),
    ("yes no", U),
    ("no, yes", U),
    ("I said yes earlier", U),
    ("yes :)", U),
    ("yes <@U2>", U),
    ("<@UBOT> yes <@U0ALICE>", U),
    ("yes <!here>", U),
    ("yes <https://example.com>", U),
    ("yes <#C123|general>", U),
    ("yes &amp; no", U),
    ("post\u200bit", U),
    ("y\u200bes", N),
    ("yes\u202e", U),
    ("yesterday", N),
    ("yess", N),
    ("ok", N),
    ("lgtm", N),
    ("sure", N),
    ("👍", N),
    (":+1:", N),
    ("", N),
    ("no", N),
    ("nope", N),
    # Japanese: the phrases, with their punctuation.
    ("はい", A),
    ("はい。", A),
    ("はい！", A),
    ("はい、お願いします", A),
    ("投稿してください", A),
    ("投稿してください。", A),
    ("投稿して下さい", A),
    ("進めてください", A),
    ("進めてください！", A),
    ("はい、投稿してください", A),
    ("はい 進めてください。", A),
    ("<@UBOT> 投稿してください", A),
    ("はい🙏", A),
    ("投稿してください :pray:", A),
    ("進めてください 👍🏻", A),
    # Japanese: code, quotes, negative signs, other words, questions.
    ("`はい`", U),
    ("```投稿してください```", U),
    ("&gt; 投稿してください", U),
    ("投稿してください 🚫", U),
    ("はい ❌", U),
    ("進めてください :x:", U),
    ("はい 🙅", U),
    ("投稿してください？", U),
    ("はい?", U),
    ("まだ投稿しないで、進めてください", U),
    ("投稿してくださいね", U),
    ("はいはい", U),
    ("はいですか", U),
    ("投稿しないでください", N),
    ("いいえ", N),
    ("まだです", N),
    ("お願いします", N),
]


def _expected(kind: Kind | None) -> Kind:
    return Kind.other if kind is None else kind


@pytest.mark.parametrize(("text", "kind"), ROWS)
def test_only_the_plain_phrase_approves(text: str, kind: Kind | None) -> None:
    assert classify_reply(text, bot_user_id=BOT).kind is _expected(kind)
    assert is_approval(text, bot_user_id=BOT) is (kind is A)


def test_the_table_is_large_and_covers_both_languages() -> None:
    japanese = [t for t, _ in ROWS if any("\u3040" <= ch <= "\u9fff" for ch in t)]
    assert len(ROWS) >= 100 and len(japanese) >= 25
    assert {k for _, k in ROWS} == {A, U, N}


def test_without_the_bots_id_no_mention_is_the_bots() -> None:
    assert classify_reply("<@UBOT> yes").kind is Kind.other  # addressed to someone: talk between people
    assert not is_approval("yes <@UBOT>") and is_approval("yes")


def test_a_long_reply_is_never_an_approval() -> None:
    padded = "yes" + " " * MAX_APPROVAL_CHARS
    assert classify_reply(padded).kind is not Kind.approve
    assert classify_reply("yes" + " " * (MAX_APPROVAL_CHARS - 10)).kind is Kind.approve


def test_revision_words_stay_a_revision() -> None:
    assert classify_reply("yes but fix the summary").kind is Kind.revise
