"""A reply in a post-mortem's thread whose session is gone is told so; the bot's other threads stay silent.

A post-mortem's thread is known by its parent message's Slack metadata, which outlives the session."""

from __future__ import annotations

import pytest

from postmortem.messages import say
from sessions.session import Session
from tests.workers.helpers import World
from workers import jobs
from workers.slack_gateway import SESSION_EVENT_TYPE

pytestmark = pytest.mark.unit


def test_the_parent_message_carries_the_post_mortems_metadata(world: World) -> None:
    s = world.store.create(Session(ticket="PROJ-1", requester="U1", channel="C1"))
    jobs.advance(s.id)
    parent = world.slack.posts[0]
    assert parent["thread_ts"] is None
    assert parent["message"]["metadata"] == {"event_type": SESSION_EVENT_TYPE, "event_payload": {"ticket": "PROJ-1"}}


def test_a_reply_under_a_post_mortem_whose_session_is_gone_is_told_privately(world: World) -> None:
    s = world.store.create(Session(ticket="PROJ-1", requester="U1", channel="C1"))
    jobs.advance(s.id)
    parent_ts = world.slack.posts[0]["ts"]
    world.redis.flushdb()  # Redis restarted with nothing kept
    jobs.session_gone("C1", parent_ts, "U5", "ja")
    [told] = world.slack.of("ephemeral")
    assert (told["channel"], told["user"], told["thread_ts"]) == ("C1", "U5", parent_ts)
    assert told["message"]["text"] == say("session_gone", "ja")


def test_a_reply_under_another_message_of_the_bot_stays_silent(world: World) -> None:
    offer = world.slack.post("C1", {"text": "Want to write the post-mortem of PROJ-1?", "blocks": []})
    jobs.session_gone("C1", offer, "U5", "en")
    assert world.slack.of("ephemeral") == []


def test_a_session_back_in_the_store_is_not_called_gone(world: World) -> None:
    s = world.store.create(Session(ticket="PROJ-1", requester="U1", channel="C1"))
    jobs.advance(s.id)
    jobs.session_gone("C1", world.slack.posts[0]["ts"], "U5", "en")  # the thread's session is there after all
    assert world.slack.of("ephemeral") == []
