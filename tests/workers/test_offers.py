"""The offer jobs, run in-process with hand-written Slack and Jira fakes."""

from __future__ import annotations

import json
from typing import Any

import pytest
import redis

from emulators.jira_cloud import JiraEmulator
from emulators.slack_api import SlackEmulator
from renderers.offers import ACTION_START
from tests.workers.fakes import FakeJira, FakeSlack
from tests.workers.helpers import World, install_world
from workers import context, offers
from workers.jira_gateway import JiraError, JiraGateway
from workers.slack_gateway import SlackGateway, slack_client

pytestmark = pytest.mark.unit


@pytest.fixture
def world(redis_conn: redis.Redis, monkeypatch: pytest.MonkeyPatch) -> World:
    monkeypatch.setattr(context, "_installed", [])
    slack = FakeSlack(people={"dev@example.com": "U2"}, locales={"U2": "ja-JP"})
    return install_world(redis_conn, slack=slack, jira=FakeJira(emails={"acc-1": "dev@example.com"}))


def start_button(message: dict[str, Any]) -> dict[str, Any]:
    buttons = [e for b in message["blocks"] for e in b.get("elements", []) if e.get("action_id") == ACTION_START]
    assert len(buttons) == 1
    value: dict[str, Any] = json.loads(buttons[0]["value"])
    return value


def test_start_reply_posts_the_button_in_the_thread(world: World) -> None:
    offers.start_reply("C1", "200.1", "PROJ-1", "en")
    post = world.slack.posts[0]
    assert (post["channel"], post["thread_ts"]) == ("C1", "200.1")
    assert "PROJ-1" in post["message"]["text"]
    assert start_button(post["message"]) == {"ticket": "PROJ-1", "channel": "C1", "lang": "en", "ts": "200.1"}


def test_start_reply_without_a_key_prefills_nothing(world: World) -> None:
    offers.start_reply("C1", "200.1", None, "ja")
    message = world.slack.posts[0]["message"]
    assert start_button(message) == {"ticket": None, "channel": "C1", "lang": "ja", "ts": "200.1"}
    assert "事後分析" in message["text"]


def test_the_offer_after_a_fix_is_ephemeral(world: World) -> None:
    offers.offer_ephemeral("C1", "U1", "100.1", "PROJ-1", "en")
    assert world.slack.posts == []
    shown = world.slack.of("ephemeral")[0]
    assert (shown["channel"], shown["user"], shown["thread_ts"]) == ("C1", "U1", "100.1")
    assert start_button(shown["message"]) == {"ticket": "PROJ-1", "channel": "C1", "lang": "en", "ts": "100.1"}


def test_the_offer_under_a_channel_message_carries_that_message_and_an_old_job_still_offers(world: World) -> None:
    offers.offer_ephemeral("C1", "U1", None, "PROJ-1", "en", "100.1")  # under a top-level message: no thread yet
    offers.offer_ephemeral("C1", "U1", None, None, "ja")  # queued before the job took the root
    first, old = world.slack.of("ephemeral")
    assert first["thread_ts"] is None and start_button(first["message"])["ts"] == "100.1"
    assert start_button(old["message"]) == {"ticket": None, "channel": "C1", "lang": "ja"}


def test_mention_help_is_ephemeral(world: World) -> None:
    offers.mention_help("C1", "U1", None, "en")
    assert world.slack.posts == [] and "/post-mortem" in world.slack.of("ephemeral")[0]["message"]["text"]


def test_the_assignee_gets_a_dm_with_the_key(world: World) -> None:
    offers.offer_assignee("PROJ-1", "acc-1", "dev@example.com", "en")
    dm = world.slack.posts[0]
    assert dm["channel"] == "U2" and dm["thread_ts"] is None
    assert "PROJ-1" in dm["message"]["text"]
    assert start_button(dm["message"]) == {"ticket": "PROJ-1", "channel": "", "lang": "en"}  # no thread: a DM
    assert world.jira.of("user_email") == []


def test_a_hidden_email_is_looked_up_in_jira_and_the_locale_decides_the_language(world: World) -> None:
    offers.offer_assignee("PROJ-1", "acc-1", None, None)
    assert world.jira.of("user_email") == [{"account_id": "acc-1"}]
    dm = world.slack.posts[0]
    assert start_button(dm["message"])["lang"] == "ja" and "PROJ-1" in dm["message"]["text"]


@pytest.mark.parametrize(
    ("ticket", "account", "email"),
    [
        ("PROJ-1", "acc-unknown", None),  # Jira has no e-mail for them
        ("PROJ-1", "acc-1", "nobody@example.com"),  # no Slack account with that e-mail
        ("not a key", "acc-1", "dev@example.com"),  # a bad job argument
        ("PROJ-1", "", "dev@example.com"),
    ],
)
def test_no_dm_when_the_assignee_cannot_be_found(world: World, ticket: str, account: str, email: str | None) -> None:
    offers.offer_assignee(ticket, account, email, "en")
    assert world.slack.posts == []


# the gateway calls, against the emulators ---------------------------------------------------------


def test_gateways_find_the_assignee_and_dm_them() -> None:
    slack = SlackEmulator(bot_token="xoxb-test")
    jira = JiraEmulator(email="bot@example.com", api_token="jira-token")
    slack.start()
    jira.start()
    try:
        slack.add_user("U2", email="dev@example.com")
        jira.add_user("acc-1", email="dev@example.com")
        jira.add_user("acc-2")
        gateway = SlackGateway(slack_client("xoxb-test", slack.base_url))
        assert gateway.lookup_user_by_email("dev@example.com") == "U2"
        assert gateway.lookup_user_by_email("nobody@example.com") is None
        gateway.dm("U2", {"text": "hi"})
        assert [m["text"] for m in slack.messages(channel="U2")] == ["hi"]
        jira_gateway = JiraGateway(jira.base_url, "bot@example.com", "jira-token")
        assert jira_gateway.user_email("acc-1") == "dev@example.com"
        assert jira_gateway.user_email("acc-2") is None
        assert jira_gateway.user_email("acc-unknown") is None
    finally:
        slack.stop()
        jira.stop()


# no reachable Slack user: the fallback channel, or one clear log line (f-home) ----------------------


def test_an_unreachable_assignee_is_named_in_the_fallback_channel_once(world: World) -> None:
    offers.offer_assignee("PROJ-1", "acc-9", None, None, "Hanako Yamada", "CFALL")
    assert len(world.slack.posts) == 1
    post = world.slack.posts[0]
    assert post["channel"] == "CFALL" and "Hanako Yamada" in post["message"]["text"]
    assert "PROJ-1" in post["message"]["text"]
    assert start_button(post["message"]) == {"ticket": "PROJ-1", "channel": "", "lang": "en"}


def test_no_slack_match_for_the_email_also_uses_the_fallback_in_the_configured_language(world: World) -> None:
    offers.offer_assignee("PROJ-1", "acc-1", "nobody@example.com", "ja", "Dev", "CFALL")
    assert "Dev" in world.slack.posts[0]["message"]["text"] and "解決済み" in world.slack.posts[0]["message"]["text"]


def test_without_a_fallback_channel_one_clear_log_line(world: World, caplog: pytest.LogCaptureFixture) -> None:
    offers.offer_assignee("PROJ-1", "acc-9", None, None, "Hanako Yamada", None)
    assert world.slack.posts == []
    lines = [r.getMessage() for r in caplog.records if "PROJ-1" in r.getMessage()]
    assert len(lines) == 1 and "acc-9" in lines[0] and "POSTMORTEM_OFFER_FALLBACK_CHANNEL" in lines[0]
    assert not any("Hanako" in r.getMessage() for r in caplog.records)  # a name is personal data: the id is logged


def test_jira_failing_the_email_lookup_still_reaches_the_fallback(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    world.jira.emails = {}

    def broken(account_id: str) -> str | None:
        raise JiraError("Jira answered 500.", status=500, retryable=True)

    monkeypatch.setattr(world.jira, "user_email", broken)
    offers.offer_assignee("PROJ-1", "acc-1", None, "en", "Dev", "CFALL")
    assert [p["channel"] for p in world.slack.posts] == ["CFALL"]


def test_a_refused_fallback_post_is_logged_as_an_error(world: World, caplog: pytest.LogCaptureFixture) -> None:
    world.slack.refuse_channels["CFALL"] = "not_in_channel"
    offers.offer_assignee("PROJ-1", "acc-9", None, None, "Dev", "CFALL")
    assert any(r.levelname == "ERROR" and "not_in_channel" in r.getMessage() for r in caplog.records)
