"""The phrase matcher: requests (only when the bot is mentioned), fix announcements, Jira keys; near-misses."""

from __future__ import annotations

import pytest

from rules.triggers import announces_fix, classify, is_request, jira_keys, language_of

pytestmark = pytest.mark.unit

BOT = "<@UBOT>"

REQUESTS = [
    # en: every phrase family of the issue
    "write the post-mortem for PROJ-1",
    "can you do a postmortem?",
    "Post mortem please",
    "RCA for this one",
    "root cause analysis please",
    "please write up this fix",
    "document this fix",
    "summarize the root cause",
    "summarise the root cause",
    "we need an rca",
    "Post-Mortems for PROJ-1 and PROJ-2",
    # ja
    "事後分析を書いて",
    "ポストモーテムを書いて",
    "RCAを書いて",
    "根本原因分析を書いて",
    "この修正を文書化して",
    "根本原因をまとめて",
    "このバグの対応を記録に残して",
    "PROJ-1 の事後分析をお願いします",
]

NOT_REQUESTS = [
    "hello",
    "thanks!",
    "what can you do?",
    "fixed in #5751",
    "ORCA is a whale",
    "the RCAs folder",
    "don't write a postmortem for this",
    "no postmortem needed, it was a typo",
    "事後分析は不要です",
    "`postmortem` is the name of the module",
    "postmortemize",
    "運用を文書化して",
]


@pytest.mark.parametrize("text", REQUESTS)
def test_requests_in_both_languages_are_recognised_when_mentioned(text: str) -> None:
    assert classify(f"{BOT} {text}", mentioned=True) == "request"
    assert is_request(text)


@pytest.mark.parametrize("text", NOT_REQUESTS)
def test_near_misses_are_not_requests(text: str) -> None:
    assert classify(f"{BOT} {text}", mentioned=True) is None


@pytest.mark.parametrize(
    "text",
    [
        "postmortem is tomorrow's meeting topic",
        "write the post-mortem for PROJ-1",
        "RCA please",
        "事後分析を書いて",
        "let's summarize the root cause later",
    ],
)
def test_without_a_mention_a_request_phrase_starts_nothing(text: str) -> None:
    assert classify(text, mentioned=False) is None


ANNOUNCEMENTS = [
    "fixed in #5751",
    "Fixed by org/repo#12, repro passes now",
    "merged the fix for PROJ-1 and the repro passes",
    "The fix is merged and the soak run is green",
    "fix landed in main",
    "PROJ-7 is fixed: 0/500 hangs",
    "the fix is in",
    "shipped the fix for the eviction bug",
    "resolved by abc1234f",
    "修正をマージしました",
    "修正をマージしました。再現手順も通りました",
    "PROJ-3 修正しました",
    "直りました！",
    "修正がマージされました",
    "修正をデプロイしました",
    # あたらしい and めずらしい end in らしい but are words, not the hedge (the analyser reads them).
    "あたらしいキャッシュ層の修正をマージしました。元の再現テストが通りました。",
    "めずらしいケースでしたが修正をマージしました。再現手順も通りました",
]

NOT_ANNOUNCEMENTS = [
    # not verified yet / hedged
    "merged the fix, not verified yet",
    "fixed in #5751 but not tested yet",
    "Merged the fix. Not verified yet.",
    "fixed in #12, will verify tomorrow",
    "fix is merged, verification pending",
    "I think it's fixed in #12",
    "probably fixed by #12",
    "should be fixed by #12",
    "fixed in #12, untested",
    "修正をマージしました。まだ検証していません",
    "修正をマージしました（未検証）",
    "修正をマージしました、確認中です",
    # not done / planned / questions
    "not fixed yet",
    "still failing after #12",
    "the fix is not merged",
    "will merge the fix tomorrow",
    "going to fix it in #12",
    "fixed in #5751?",
    "is it fixed?",
    "the fix is in review",
    "reverted the fix #12",
    "直りましたか？",
    "修正予定です",
    "まだ直っていません",
    "修正中です",
    "修正をマージしました。直ったらしい",
    "修正をデプロイしました、たぶん直ったと思います",
    "修正をマージしました。これで直るかもしれません",
    # unrelated
    "postmortem is tomorrow's meeting topic",
    "fixed the typo",
    "the header is fixed width",
    "hello world",
    "we fixed lunch at noon",
    "`fixed in` is a string in the code",
]


@pytest.mark.parametrize("text", ANNOUNCEMENTS)
def test_verified_fix_announcements_are_recognised(text: str) -> None:
    assert announces_fix(text)
    assert classify(text, mentioned=False) == "announcement"


@pytest.mark.parametrize("text", NOT_ANNOUNCEMENTS)
def test_unverified_planned_hedged_or_unrelated_messages_are_not_announcements(text: str) -> None:
    assert not announces_fix(text)
    assert classify(text, mentioned=False) is None


@pytest.mark.parametrize(
    ("text", "keys"),
    [
        ("PROJ-1", ["PROJ-1"]),
        ("fix for PROJ-12 and CACHE-3", ["PROJ-12", "CACHE-3"]),
        ("<https://acme.atlassian.net/browse/PROJ-9|PROJ-9>", ["PROJ-9"]),
        ("PROJ-1を修正しました", ["PROJ-1"]),
        ("（PROJ-2）", ["PROJ-2"]),
        ("UTF-8 and SHA-256 and ISO-8601", []),
        ("proj-1 lower case", []),
        ("A-1 one letter", []),
        ("PROJ-0 or PROJ-01", []),
        ("CVE-2024-1234", []),
        ("x-PROJ-1 or PROJ-1x", []),
        ("PROJ-1, PROJ-1 again", ["PROJ-1"]),
    ],
)
def test_jira_keys(text: str, keys: list[str]) -> None:
    assert jira_keys(text) == keys


def test_language_follows_the_message() -> None:
    assert language_of("事後分析を書いて") == "ja"
    assert language_of("write up this fix") == "en"
    assert language_of("PROJ-1 のRCA") == "ja"
