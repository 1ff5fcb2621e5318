"""Offer claims can't be spammed: a message naming thousands of keys claims none of them, and a key is
claimed only when an offer naming it is sent."""

from __future__ import annotations

import json

import pytest
import redis

from handlers import mentions
from handlers.deps import Deps
from handlers.jira_webhook import receive
from handlers.mentions import MAX_KEYS_PER_MESSAGE
from tests.handlers.fakes import FakeQueue
from tests.handlers.helpers import jira_event, sign
from tests.workers.fakes import FakeJira, FakeSlack
from tests.workers.fakes import FakeQueue as FakeJobQueue
from workers import context, offers
from workers.context import WorkerContext

pytestmark = pytest.mark.unit


def claims(conn: redis.Redis) -> list[bytes]:
    return sorted(conn.scan_iter("pm:claim:offer:ticket:*", count=1000))


def announce(deps: Deps, text: str, *, ts: str = "100.1") -> None:
    mentions.message(
        deps, channel="C1", channel_type="channel", user="U1", text=text, ts=ts, thread_ts=None, bot_user_id="UBOT"
    )


def test_a_message_naming_thousands_of_keys_claims_none(deps: Deps, queue: FakeQueue, redis_conn: redis.Redis) -> None:
    keys = [f"SPAM-{n}" for n in range(1, 5014)]
    announce(deps, "Fixed in #5751: " + " ".join(keys))
    assert claims(redis_conn) == []
    remembered = redis_conn.smembers(deps.store.seen_keys_key("C1", "100.1"))
    assert len(remembered) <= MAX_KEYS_PER_MESSAGE
    assert len(queue.calls) <= 1
    body = json.dumps(jira_event("SPAM-4000")).encode()
    status, answer = receive(deps, body, signature=sign(body), delivery="d-spam")
    assert (status, answer.get("offered")) == (202, "SPAM-4000")  # its real resolution still gets its offer


def test_an_offer_naming_one_key_claims_that_key_only(deps: Deps, queue: FakeQueue, redis_conn: redis.Redis) -> None:
    announce(deps, "Fixed in #5751 for ONE-1")
    assert claims(redis_conn) == [b"pm:claim:offer:ticket:ONE-1"]
    assert [c.args[3] for c in queue.calls] == ["ONE-1"]


def test_an_offer_that_cannot_be_sent_gives_its_claim_back(
    deps: Deps, redis_conn: redis.Redis, monkeypatch: pytest.MonkeyPatch
) -> None:
    body = json.dumps(jira_event("GONE-1", email="nobody@example.com")).encode()
    assert receive(deps, body, signature=sign(body), delivery="d-gone")[0] == 202
    assert claims(redis_conn) == [b"pm:claim:offer:ticket:GONE-1"]
    monkeypatch.setattr(context, "_installed", [])
    context.install(
        WorkerContext(
            store=deps.store,
            slack=FakeSlack(),
            jira=FakeJira(),
            queue=FakeJobQueue(),
            handoff_queue=FakeJobQueue(),
        )
    )
    offers.offer_assignee("GONE-1", "acc-1", "nobody@example.com", "en")
    assert claims(redis_conn) == []
