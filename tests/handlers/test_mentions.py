"""The middles of the mention, the offer after a fix and the Start button, on a real store with a fake queue."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest
import redis

from handlers import mentions
from handlers.deps import Deps
from renderers.modal import CALLBACK_ID
from renderers.offers import start_value
from sessions.session import Session
from sessions.store import SessionStore
from tests.handlers.fakes import FakeQueue

pytestmark = pytest.mark.unit

BOT = "UBOT"


@pytest.fixture
def queue() -> FakeQueue:
    return FakeQueue()


@pytest.fixture
def deps(redis_conn: redis.Redis, queue: FakeQueue) -> Deps:
    return Deps(store=SessionStore(redis_conn), queue=queue, redis=redis_conn)


def jobs(queue: FakeQueue) -> list[tuple[str, tuple[Any, ...]]]:
    return [(c.name.removeprefix("workers.offers."), c.args) for c in queue.calls]


def say(
    deps: Deps,
    text: str,
    *,
    ts: str = "100.1",
    thread_ts: str | None = None,
    channel: str = "C1",
    user: str = "U1",
    channel_type: str = "channel",
) -> None:
    mentions.message(
        deps,
        channel=channel,
        channel_type=channel_type,
        user=user,
        text=text,
        ts=ts,
        thread_ts=thread_ts,
        bot_user_id=BOT,
    )


def mention(
    deps: Deps, text: str, *, ts: str = "200.1", thread_ts: str | None = None, event_id: str | None = "Ev1"
) -> None:
    mentions.mention(
        deps, channel="C1", user="U1", text=f"<@{BOT}> {text}", ts=ts, thread_ts=thread_ts, event_id=event_id
    )


# mentions -------------------------------------------------------------------------------------------


def test_a_request_gets_the_start_button_in_its_thread_with_the_one_key(deps: Deps, queue: FakeQueue) -> None:
    mention(deps, "write the post-mortem for PROJ-1")
    assert jobs(queue) == [("start_reply", ("C1", "200.1", "PROJ-1", "en"))]


def test_a_japanese_request_is_answered_in_japanese(deps: Deps, queue: FakeQueue) -> None:
    mention(deps, "PROJ-1 の事後分析を書いて")
    assert jobs(queue) == [("start_reply", ("C1", "200.1", "PROJ-1", "ja"))]


def test_two_keys_prefill_nothing(deps: Deps, queue: FakeQueue) -> None:
    mention(deps, "RCA for PROJ-1 and PROJ-2")
    assert jobs(queue) == [("start_reply", ("C1", "200.1", None, "en"))]


def test_the_thread_key_is_used_when_the_mention_names_none(deps: Deps, queue: FakeQueue) -> None:
    say(deps, "PROJ-7 hangs under load", ts="100.1")
    say(deps, "found it, PROJ-7 again", ts="100.2", thread_ts="100.1")
    mention(deps, "document this fix", ts="100.3", thread_ts="100.1")
    assert jobs(queue) == [("start_reply", ("C1", "100.1", "PROJ-7", "en"))]


def test_a_thread_naming_two_keys_prefills_nothing(deps: Deps, queue: FakeQueue) -> None:
    say(deps, "PROJ-7 or PROJ-8?", ts="100.1")
    mention(deps, "summarize the root cause", ts="100.3", thread_ts="100.1")
    assert jobs(queue) == [("start_reply", ("C1", "100.1", None, "en"))]


def test_a_mention_without_a_request_gets_a_private_hint(deps: Deps, queue: FakeQueue) -> None:
    mention(deps, "postmortem is tomorrow's meeting topic, no postmortem needed")
    mention(deps, "hello", event_id="Ev2")
    assert [name for name, _ in jobs(queue)] == ["mention_help", "mention_help"]


def test_a_slack_retry_of_a_mention_is_answered_once(deps: Deps, queue: FakeQueue) -> None:
    mention(deps, "RCA please")
    mention(deps, "RCA please")
    assert len(queue.calls) == 1


def test_a_mention_in_a_session_thread_is_left_to_the_session(deps: Deps, queue: FakeQueue) -> None:
    session = deps.store.create(Session(ticket="PROJ-1", requester="U1", channel="C1", thread_ts="300.1"))
    mention(deps, "write the postmortem", ts="300.2", thread_ts=session.thread_ts)
    assert queue.calls == []


# the offer after a fix ------------------------------------------------------------------------------


def test_a_verified_fix_gets_one_ephemeral_offer(deps: Deps, queue: FakeQueue) -> None:
    say(deps, "merged the fix for PROJ-1 and the repro passes")
    assert jobs(queue) == [("offer_ephemeral", ("C1", "U1", None, "PROJ-1", "en", "100.1"))]  # + the thread's root


def test_at_most_one_offer_per_ticket_and_per_thread(deps: Deps, queue: FakeQueue) -> None:
    say(deps, "fixed in #5751", ts="100.1")
    say(deps, "and fixed in #5752 too", ts="100.2", thread_ts="100.1")  # same thread
    say(deps, "PROJ-1 is fixed", ts="101.1")
    say(deps, "PROJ-1 fix landed in main", ts="102.1")  # same ticket, other thread
    assert jobs(queue) == [
        ("offer_ephemeral", ("C1", "U1", None, None, "en", "100.1")),
        ("offer_ephemeral", ("C1", "U1", None, "PROJ-1", "en", "101.1")),
    ]


def test_a_refused_ticket_claim_gives_the_thread_back(deps: Deps, queue: FakeQueue) -> None:
    say(deps, "PROJ-1 is fixed", ts="101.1")
    say(deps, "PROJ-1 is fixed", ts="102.1")  # ticket already offered: nothing, and thread 102.1 stays free
    say(deps, "PROJ-2 is fixed", ts="102.2", thread_ts="102.1")
    assert [args[3] for _, args in jobs(queue)] == ["PROJ-1", "PROJ-2"]


def test_an_offer_in_a_thread_is_shown_in_that_thread(deps: Deps, queue: FakeQueue) -> None:
    say(deps, "修正をマージしました", ts="100.2", thread_ts="100.1")
    assert jobs(queue) == [("offer_ephemeral", ("C1", "U1", "100.1", None, "ja", "100.1"))]


def test_not_verified_yet_gets_no_offer_and_keeps_the_offer_for_later(deps: Deps, queue: FakeQueue) -> None:
    say(deps, "merged the fix for PROJ-1, not verified yet", ts="100.1")
    assert queue.calls == []
    say(deps, "PROJ-1 verified: the repro passes, fixed in #12", ts="100.2", thread_ts="100.1")
    assert [name for name, _ in jobs(queue)] == ["offer_ephemeral"]


def test_no_offer_when_a_session_for_the_ticket_exists(deps: Deps, queue: FakeQueue) -> None:
    session = deps.store.create(Session(ticket="PROJ-1", requester="U1", channel="C9"))
    say(deps, "fixed in #12 (PROJ-1)")
    assert queue.calls == []
    assert mentions.session_for_ticket(deps, "PROJ-1") == session


def test_offers_off_or_outside_the_allowed_channels_offer_nothing(deps: Deps, queue: FakeQueue) -> None:
    say(replace(deps, offers_enabled=False), "fixed in #12")
    say(replace(deps, offer_channels=frozenset({"C2"})), "fixed in #12", ts="101.1")
    assert queue.calls == []
    say(replace(deps, offer_channels=frozenset({"C2"})), "fixed in #12", ts="102.1", channel="C2")
    assert len(queue.calls) == 1


def test_no_offer_in_direct_messages_or_for_messages_to_the_bot(deps: Deps, queue: FakeQueue) -> None:
    say(deps, "fixed in #12", channel="D1", channel_type="im")
    say(deps, f"<@{BOT}> fixed in #12, write the postmortem", ts="101.1")
    assert queue.calls == []


def test_messages_in_a_session_thread_are_not_read_here(deps: Deps, queue: FakeQueue, redis_conn: redis.Redis) -> None:
    deps.store.create(Session(ticket="PROJ-1", requester="U1", channel="C1", thread_ts="300.1"))
    say(deps, "fixed in #12, PROJ-2", ts="300.2", thread_ts="300.1")
    assert queue.calls == []
    assert not redis_conn.exists(deps.store.seen_keys_key("C1", "300.1"))


def test_without_the_redis_indexes_offers_still_work_once_per_thread(deps: Deps, queue: FakeQueue) -> None:
    bare = replace(deps, redis=None)
    say(bare, "fixed in #12 for PROJ-1")
    say(bare, "fixed in #13", ts="100.2", thread_ts="100.1")
    assert len(queue.calls) == 1


# the Start button -----------------------------------------------------------------------------------


def test_start_opens_the_command_modal_prefilled_with_the_key(deps: Deps) -> None:
    view = mentions.start_view(deps, value=start_value(ticket="PROJ-1", channel="C1", lang="ja"), clicked_in="C5")
    assert view is not None and view["callback_id"] == CALLBACK_ID
    assert json.loads(view["private_metadata"]) == {"channel": "C1", "lang": "ja"}
    ticket = next(b for b in view["blocks"] if b.get("block_id") == "ticket")
    assert ticket["element"].get("initial_value") == "PROJ-1"


def test_start_without_a_key_or_channel_uses_the_clicked_channel_and_an_empty_ticket(deps: Deps) -> None:
    view = mentions.start_view(
        replace(deps, default_lang="en"), value=start_value(ticket=None, channel="", lang="ja"), clicked_in="D7"
    )
    assert view is not None
    assert json.loads(view["private_metadata"]) == {"channel": "D7", "lang": "en"}
    ticket = next(b for b in view["blocks"] if b.get("block_id") == "ticket")
    assert not ticket["element"].get("initial_value")


@pytest.mark.parametrize("value", ["", "not json", "[1]", '{"lang": "fr"}'])
def test_a_bad_start_value_opens_nothing(deps: Deps, value: str) -> None:
    assert mentions.start_view(deps, value=value, clicked_in="") is None


def test_a_tampered_key_is_not_prefilled(deps: Deps) -> None:
    value = json.dumps({"ticket": "<!channel>", "channel": "C1", "lang": "en"})
    view = mentions.start_view(deps, value=value, clicked_in="C1")
    assert view is not None
    ticket = next(b for b in view["blocks"] if b.get("block_id") == "ticket")
    assert not ticket["element"].get("initial_value")
