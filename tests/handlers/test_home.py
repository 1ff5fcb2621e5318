"""`help` and `list` are command words, in either language; anything else is read as the ticket key."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
import redis
import yaml
from slack_sdk.web.async_client import AsyncWebClient

from handlers.deps import Deps
from handlers.home import answer, subcommand
from handlers.storecalls import StoreCalls
from postmortem.messages import say
from postmortem.model import Lang
from sessions.session import Session
from sessions.store import SessionStore
from tests.handlers.fakes import FakeQueue
from tests.helpers import ROOT

pytestmark = pytest.mark.unit


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("help", "help"),
        ("HELP", "help"),
        (" list ", "list"),
        ("ヘルプ", "help"),
        ("一覧", "list"),
        ("PROJ-1", None),
        ("", None),
        (None, None),
        ("help PROJ-1", None),
        ("listing", None),
    ],
)
def test_command_words(text: str | None, expected: str | None) -> None:
    assert subcommand(text) == expected


def test_the_manifest_enables_the_home_tab_its_event_and_names_the_command_words() -> None:
    manifest = yaml.safe_load((ROOT / "slack-manifest.yaml").read_text())
    assert manifest["features"]["app_home"]["home_tab_enabled"] is True
    assert "app_home_opened" in manifest["settings"]["event_subscriptions"]["bot_events"]
    hint = manifest["features"]["slash_commands"][0]["usage_hint"]
    assert "help" in hint and "list" in hint


class Respond:
    """Records what the handler answered through the response_url."""

    def __init__(self) -> None:
        self.answers: list[dict[str, Any]] = []

    async def __call__(self, **kwargs: Any) -> None:
        self.answers.append(kwargs)


async def english(client: AsyncWebClient, user: str) -> Lang:
    return "en"


#: `list` reads the caller's language through `english` above, so this client is never called.
CLIENT = AsyncWebClient(token="xoxb-test")


def test_list_during_a_store_outage_is_a_plain_sentence() -> None:
    down = redis.Redis(host="127.0.0.1", port=1, socket_connect_timeout=0.2)
    deps = Deps(store=SessionStore(down), queue=FakeQueue())
    respond = Respond()
    asyncio.run(answer(deps, StoreCalls(), "list", {"user_id": "U1"}, CLIENT, respond, english))
    assert respond.answers == [{"text": say("unavailable", "en"), "response_type": "ephemeral"}]


def test_list_answers_with_the_callers_sessions(redis_conn: redis.Redis) -> None:
    store = SessionStore(redis_conn)
    store.create(Session(ticket="MINE-1", requester="U1", channel="C1"))
    store.create(Session(ticket="THEIRS-1", requester="U2", channel="C1"))
    respond = Respond()
    deps = Deps(store=store, queue=FakeQueue())
    asyncio.run(answer(deps, StoreCalls(), "list", {"user_id": "U1"}, CLIENT, respond, english))
    assert "MINE-1" in respond.answers[0]["text"] and "THEIRS-1" not in respond.answers[0]["text"]
    assert respond.answers[0]["response_type"] == "ephemeral"
