"""The ways in besides `/post-mortem`, end to end on the emulators: a mention in words, the offer after a
verified fix, and Jira's resolved event; each ends in the command's modal and the same session flow.

Two stacks (offers on with a webhook secret; offers off without one) share the e2e Redis database, so
only one runs at a time: `Stacks.use` stops the other before starting the one a test needs.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
import redis
import requests

from bot.localstack import LocalStack
from emulators.driver import modal_values
from renderers.offers import ACTION_START
from tests.e2e.helpers import E2E_REDIS_URL, SECRET, channel, start_value, unique, webhook
from tests.handlers.helpers import jira_event

pytestmark = pytest.mark.e2e

BOT = "UBOT"


class Stacks:
    """At most one LocalStack alive at a time (both would otherwise share one Redis queue)."""

    ENVS: dict[str, dict[str, str]] = {
        "on": {"JIRA_WEBHOOK_SECRET": SECRET, "POSTMORTEM_OFFERS": "on"},
        "off": {"POSTMORTEM_OFFERS": "off"},
    }

    def __init__(self) -> None:
        self.name = ""
        self.stack: LocalStack | None = None

    def use(self, name: str) -> LocalStack:
        if self.name != name or self.stack is None:
            self.close()
            redis.Redis.from_url(E2E_REDIS_URL).flushdb()
            self.stack = LocalStack(redis_url=E2E_REDIS_URL, extra_env=self.ENVS[name]).start()
            self.name = name
        return self.stack

    def close(self) -> None:
        if self.stack is not None:
            self.stack.stop()
        self.stack, self.name = None, ""


@pytest.fixture(scope="module")
def stacks() -> Iterator[Stacks]:
    both = Stacks()
    try:
        yield both
    finally:
        both.close()


@pytest.fixture
def on(stacks: Stacks) -> LocalStack:
    return stacks.use("on")


@pytest.fixture
def off(stacks: Stacks) -> LocalStack:
    return stacks.use("off")


# helpers ------------------------------------------------------------------------------------------


def reply_in_thread(stack: LocalStack, chan: str, thread_ts: str) -> dict[str, Any]:
    return stack.slack.wait_for(
        lambda s: next((m for m in s.messages(channel=chan, thread_ts=thread_ts) if start_value(m) is not None), None),
        timeout=15,
    )


def ephemerals_with_start(stack: LocalStack, chan: str) -> list[dict[str, Any]]:
    return [m for m in stack.slack.ephemerals(channel=chan) if start_value(m) is not None]


def sentinel(stack: LocalStack) -> None:
    """Wait until everything enqueued so far ran: a mention's answer is enqueued after it (one FIFO worker)."""
    chan = channel()
    assert stack.driver().app_mention("RCA please", channel=chan).status_code == 200
    stack.slack.wait_for(lambda s: s.messages(channel=chan), timeout=15)


def click_start(
    stack: LocalStack, message: dict[str, Any], *, chan: str, user: str = "U1", ephemeral: bool = False
) -> dict[str, Any]:
    """Click the Start button; the modal views.open received."""
    before = len(stack.slack.views)
    container = {"type": "message", "message_ts": message["ts"], "channel_id": chan, "is_ephemeral": ephemeral}
    response = stack.driver().block_action(
        ACTION_START,
        json.dumps(start_value(message)),
        user_id=user,
        channel_id=chan,
        message_ts=message["ts"],
        container=container,
    )
    assert response.status_code == 200, response.text
    opened: dict[str, Any] = stack.slack.wait_for(lambda s: s.views[-1] if len(s.views) > before else None, timeout=10)
    assert opened["action"] == "open" and opened["view"]["callback_id"] == "postmortem"
    view: dict[str, Any] = opened["view"]
    return view


def prefilled_ticket(view: dict[str, Any]) -> str | None:
    block = next(b for b in view["blocks"] if b.get("block_id") == "ticket")
    value: str | None = block["element"].get("initial_value")
    return value


# 1. mentions and phrases --------------------------------------------------------------------------

PHRASES = {
    "en": [
        "post-mortem",
        "postmortem",
        "RCA",
        "root cause analysis",
        "write up this fix",
        "document this fix",
        "summarize the root cause",
    ],
    "ja": [
        "事後分析を書いて",
        "ポストモーテムを書いて",
        "RCAを書いて",
        "根本原因分析を書いて",
        "この修正を文書化して",
        "根本原因をまとめて",
        "このバグの対応を記録に残して",
    ],
}


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_each_phrase_family_gets_the_start_button_with_the_key(on: LocalStack, lang: str) -> None:
    driver, chan = on.driver(), channel()
    sent = []
    for phrase in PHRASES[lang]:
        key, ts = unique(), on.slack.next_ts()
        text = f"{key} {phrase}" if lang == "ja" else f"please, {phrase} for {key}"
        assert driver.app_mention(text, channel=chan, ts=ts).status_code == 200
        sent.append((key, ts))
    for key, ts in sent:
        answer = reply_in_thread(on, chan, ts)
        assert start_value(answer) == {"ticket": key, "channel": chan, "lang": lang, "ts": ts}
        assert key in answer["text"]
    assert on.slack.ephemerals(channel=chan) == []


def test_the_start_button_opens_the_command_modal_and_the_same_session_flow(on: LocalStack) -> None:
    key, chan, ts = unique("CACHE"), channel(), on.slack.next_ts()
    on.jira.add_issue(key)
    assert on.driver().app_mention(f"root cause analysis for {key}", channel=chan, ts=ts).status_code == 200
    view = click_start(on, reply_in_thread(on, chan, ts), chan=chan)
    assert prefilled_ticket(view) == key
    assert json.loads(view["private_metadata"]) == {"channel": chan, "lang": "en"}
    response = on.driver().view_submission(values=modal_values({"ticket": key}))
    assert response.status_code == 200 and b"errors" not in response.content, response.text
    parent = on.slack.wait_for(
        lambda s: next((m for m in s.messages(channel=chan) if not m.get("thread_ts") and key in m["text"]), None),
        timeout=15,
    )
    assert "Post-mortem for" in parent["text"]


def test_two_keys_prefill_nothing(on: LocalStack) -> None:
    chan, ts = channel(), on.slack.next_ts()
    assert on.driver().app_mention(f"RCA for {unique()} and {unique()}", channel=chan, ts=ts).status_code == 200
    answer = reply_in_thread(on, chan, ts)
    assert start_value(answer) == {"ticket": None, "channel": chan, "lang": "en", "ts": ts}
    assert prefilled_ticket(click_start(on, answer, chan=chan)) is None


def test_a_mention_in_a_thread_uses_the_one_key_the_thread_named(on: LocalStack) -> None:
    key, chan, driver = unique(), channel(), on.driver()
    parent = on.slack.next_ts()
    assert driver.message(f"{key}: the trainer hangs after eviction", channel=chan, ts=parent).status_code == 200
    assert driver.app_mention("このバグの対応を記録に残して", channel=chan, thread_ts=parent).status_code == 200
    assert start_value(reply_in_thread(on, chan, parent)) == {
        "ticket": key,
        "channel": chan,
        "lang": "ja",
        "ts": parent,
    }


def test_phrases_without_a_mention_start_nothing(on: LocalStack) -> None:
    chan, driver = channel(), on.driver()
    for text in ("postmortem is tomorrow's meeting topic", f"write the post-mortem for {unique()}", "事後分析を書いて"):
        assert driver.message(text, channel=chan).status_code == 200
    sentinel(on)
    assert on.slack.messages(channel=chan) == [] and on.slack.ephemerals(channel=chan) == []


# 2. the offer after a fix -------------------------------------------------------------------------


def test_a_verified_fix_gets_one_ephemeral_offer(on: LocalStack) -> None:
    key, chan, driver = unique(), channel(), on.driver()
    first = on.slack.next_ts()
    assert (
        driver.message(f"merged the fix for {key} and the repro passes", user="U5", channel=chan, ts=first).status_code
        == 200
    )
    offer = on.slack.wait_for(lambda s: ephemerals_with_start(on, chan), timeout=15)[0]
    assert offer["user"] == "U5" and start_value(offer) == {"ticket": key, "channel": chan, "lang": "en", "ts": first}
    # the same thread, the same ticket elsewhere, a Slack retry: no second offer
    assert driver.message("fixed in #5751", channel=chan, thread_ts=first).status_code == 200
    assert driver.message(f"{key} fix landed in main", channel=channel()).status_code == 200
    sentinel(on)
    assert len(ephemerals_with_start(on, chan)) == 1
    assert on.slack.messages(channel=chan) == []  # nothing public, unasked
    assert prefilled_ticket(click_start(on, offer, chan=chan, user="U5", ephemeral=True)) == key


def test_japanese_fix_announcement_gets_an_offer(on: LocalStack) -> None:
    chan, ts = channel(), on.slack.next_ts()
    assert on.driver().message("修正をマージしました。再現手順も通りました", channel=chan, ts=ts).status_code == 200
    offer = on.slack.wait_for(lambda s: ephemerals_with_start(on, chan), timeout=15)[0]
    assert start_value(offer) == {"ticket": None, "channel": chan, "lang": "ja", "ts": ts}


def test_not_verified_yet_gets_no_offer(on: LocalStack) -> None:
    chan, driver = channel(), on.driver()
    for text in (
        f"merged the fix for {unique()}, not verified yet",
        "修正をマージしました。まだ検証していません",
        "fixed in #5751?",
    ):
        assert driver.message(text, channel=chan).status_code == 200
    sentinel(on)
    assert on.slack.ephemerals(channel=chan) == [] and on.slack.messages(channel=chan) == []


def test_no_offer_once_a_session_for_the_ticket_exists(on: LocalStack) -> None:
    key, chan = unique("CACHE"), channel()
    on.jira.add_issue(key)
    driver = on.driver()
    assert driver.slash_command(text=key, channel_id=chan).status_code == 200
    on.slack.wait_for(lambda s: s.views and chan in s.views[-1]["view"]["private_metadata"], timeout=10)
    assert driver.view_submission(values=modal_values({"ticket": key})).status_code == 200
    on.slack.wait_for(lambda s: s.messages(channel=chan), timeout=15)
    assert redis.Redis.from_url(E2E_REDIS_URL).exists(f"pm:ticket:{key}")
    assert driver.message(f"fixed in #12 for {key}, the repro passes", channel=channel()).status_code == 200
    sentinel(on)
    assert not any((start_value(m) or {}).get("ticket") == key for m in on.slack.ephemerals())


# 3. Jira's resolved event -------------------------------------------------------------------------


def test_a_resolved_bug_dms_its_assignee_once(on: LocalStack) -> None:
    key = unique("BUG")
    on.slack.add_user("U71", email="dev71@example.com")
    response = webhook(on, jira_event(key, account_id="acc-71", email="dev71@example.com"), delivery="dup-1")
    assert (response.status_code, response.json()) == (202, {"ok": True, "offered": key})
    dm = on.slack.wait_for(lambda s: s.messages(channel="U71"), timeout=15)[0]
    assert key in dm["text"] and start_value(dm) == {"ticket": key, "channel": "", "lang": "en"}
    again = webhook(on, jira_event(key, account_id="acc-71", email="dev71@example.com"), delivery="dup-1")
    assert (again.status_code, again.json()["ignored"]) == (200, "duplicate delivery")
    view = click_start(on, dm, chan="D071")
    assert prefilled_ticket(view) == key and json.loads(view["private_metadata"])["channel"] == "D071"
    sentinel(on)
    assert len(on.slack.messages(channel="U71")) == 1


def test_a_hidden_email_is_looked_up_in_jira(on: LocalStack) -> None:
    key = unique("BUG")
    on.jira.add_user("acc-72", email="dev72@example.com")
    on.slack.add_user("U72", email="dev72@example.com", locale="ja-JP")
    assert webhook(on, jira_event(key, account_id="acc-72", email=None)).status_code == 202
    dm = on.slack.wait_for(lambda s: s.messages(channel="U72"), timeout=15)[0]
    assert key in dm["text"] and (start_value(dm) or {}).get("lang") == "ja"


def test_rejected_malformed_and_non_resolving_events_offer_nothing(on: LocalStack) -> None:
    on.slack.add_user("U73", email="dev73@example.com")
    resolved = jira_event(unique("BUG"), account_id="acc-73", email="dev73@example.com")
    assert webhook(on, resolved, secret="wrong-secret").status_code == 401
    unsigned = requests.post(f"{on.bot_url}/jira/webhook", json=resolved, timeout=10)
    assert unsigned.status_code == 401
    assert webhook(on, None, raw=b"{not json").status_code == 400
    story = jira_event(unique("BUG"), issue_type="Story", account_id="acc-73", email="dev73@example.com")
    unresolved = jira_event(
        unique("BUG"), category="indeterminate", status="In Review", account_id="acc-73", email="dev73@example.com"
    )
    for payload, reason in ((story, "not a Bug"), (unresolved, "not a transition into a resolved status")):
        response = webhook(on, payload)
        assert (response.status_code, response.json()["ignored"]) == (200, reason)
    sentinel(on)
    assert on.slack.messages(channel="U73") == []


# offers off ---------------------------------------------------------------------------------------


def test_offers_off_offers_nothing_but_mentions_still_answer(off: LocalStack) -> None:
    chan, driver = channel(), off.driver()
    assert driver.message(f"merged the fix for {unique()} and the repro passes", channel=chan).status_code == 200
    assert driver.message("修正をマージしました", channel=chan).status_code == 200
    ts = off.slack.next_ts()
    assert driver.app_mention("write up this fix", channel=chan, ts=ts).status_code == 200
    assert start_value(reply_in_thread(off, chan, ts)) == {"ticket": None, "channel": chan, "lang": "en", "ts": ts}
    assert off.slack.ephemerals(channel=chan) == []


def test_without_a_webhook_secret_every_webhook_is_refused(off: LocalStack) -> None:
    response = webhook(off, jira_event(unique("BUG")))
    assert response.status_code == 401 and "JIRA_WEBHOOK_SECRET" in response.json()["error"]
