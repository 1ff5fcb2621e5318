"""Home views are published per person, coalesced: counted as views.publish calls in the Slack emulator."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

import pytest
import redis

from emulators.slack_api import SlackEmulator
from sessions.session import Session, State
from sessions.store import SessionStore
from tests.sessions.helpers import to_drafted
from workers.home import HomePublisher
from workers.slack_gateway import slack_client

pytestmark = pytest.mark.unit

WINDOW = 0.4


@pytest.fixture
def slack() -> Iterator[SlackEmulator]:
    emulator = SlackEmulator(bot_token="xoxb-test")
    emulator.start()
    emulator.add_user("U1", locale="ja-JP")
    emulator.add_user("U2")
    emulator.add_user("UAPP")
    yield emulator
    emulator.stop()


@pytest.fixture
def store(redis_conn: redis.Redis) -> SessionStore:
    store = SessionStore(redis_conn)
    store.users.coalesce_seconds = WINDOW
    return store


@pytest.fixture
def publisher(store: SessionStore, slack: SlackEmulator) -> HomePublisher:
    return HomePublisher(store, slack_client("xoxb-test", slack.base_url), approvers=frozenset({"UAPP"}))


def publishes(slack: SlackEmulator, user: str) -> list[dict[str, object]]:
    return [c for c in slack.calls_to("views.publish") if c["user_id"] == user]


def run_until(publisher: HomePublisher, done: Callable[[], bool], timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < deadline, "condition not reached"
        publisher.run_due()
        time.sleep(0.02)  # polling pace, as the worker's loop; correctness comes from the condition


def new(store: SessionStore, user: str = "U1", **changes: object) -> Session:
    return store.create(Session(ticket="PROJ-1", requester=user, channel="C1", thread_ts="1.1").with_changes(**changes))


def test_a_burst_of_one_persons_sessions_is_one_publish(
    store: SessionStore, slack: SlackEmulator, publisher: HomePublisher
) -> None:
    made = [new(store, ticket=f"PROJ-{i + 1}") for i in range(30)]
    for session in made[:10]:
        to_drafted(store, session.id)
    run_until(publisher, lambda: len(publishes(slack, "U1")) >= 1)
    settle = time.monotonic() + WINDOW * 2
    while time.monotonic() < settle:  # nothing else is due: the burst stays one publish
        publisher.run_due()
    assert len(publishes(slack, "U1")) == 1
    view = publishes(slack, "U1")[0]["view"]
    assert isinstance(view, dict) and view["type"] == "home"
    assert "あなたの事後分析" in str(view)  # U1's Slack locale is Japanese
    assert "*PROJ-29*" in str(view) and "*PROJ-9*" not in str(view)  # the 20 newest rows


def test_changes_after_a_publish_wait_for_the_window(
    store: SessionStore, slack: SlackEmulator, publisher: HomePublisher
) -> None:
    session = new(store, ticket="CACHE-77")
    store.users.request_home("U1")
    assert publisher.run_due() == ["U1"]
    assert "CACHE-77" in str(publishes(slack, "U1")[-1]["view"])
    first = time.monotonic()
    store.transition(session.id, {State.collecting}, State.cancelled)
    store.users.request_home("U1")  # opened again at once: still at most one publish per window
    assert publisher.run_due() == []
    run_until(publisher, lambda: len(publishes(slack, "U1")) == 2)
    assert time.monotonic() - first >= WINDOW * 0.9
    assert "CACHE-77" not in str(publishes(slack, "U1")[-1]["view"])  # a cancelled session leaves the Home


def test_approvers_get_the_drafts_awaiting_them_and_others_see_nothing(
    store: SessionStore, slack: SlackEmulator, publisher: HomePublisher
) -> None:
    to_drafted(store, new(store, ticket="SECRET-7").id)
    run_until(publisher, lambda: bool(publishes(slack, "UAPP")) and bool(publishes(slack, "U1")))
    assert "SECRET-7" in str(publishes(slack, "UAPP")[-1]["view"])
    store.users.request_home("U2")
    run_until(publisher, lambda: bool(publishes(slack, "U2")))
    assert "SECRET-7" not in str(publishes(slack, "U2")[-1]["view"])


def test_a_refused_publish_is_logged_not_raised(
    store: SessionStore, slack: SlackEmulator, publisher: HomePublisher, caplog: pytest.LogCaptureFixture
) -> None:
    slack.fail_next("views.publish", "invalid_blocks")  # refused for good (internal_error is retried)
    store.users.request_home("U1")
    assert publisher.run_due() == []
    assert "views.publish for U1 failed: invalid_blocks" in caplog.text
