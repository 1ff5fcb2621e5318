"""Slack calls from workers retry 429 / 5xx / `internal_error`… inside a bounded window, then give up with a delay."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

from emulators.slack_api import SlackEmulator
from tests.workers.fakes import slack_error
from workers.slack_retry import (
    MAX_RETRY_AFTER_SECONDS,
    MAX_STEP_ATTEMPTS,
    QUICK_STEP_ATTEMPTS,
    STEP_PAUSE_SECONDS,
    SlackRetryHandler,
    retry_delay,
    step_delay,
)

pytestmark = pytest.mark.unit


class Clock:
    """A clock that only moves when the handler sleeps (no real waiting in the tests)."""

    def __init__(self) -> None:
        self.now = 0.0
        self.slept: list[float] = []

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds


@pytest.fixture
def slack() -> Iterator[SlackEmulator]:
    with SlackEmulator() as emulator:
        yield emulator


def client(slack: SlackEmulator, clock: Clock, window: float = 15.0) -> WebClient:
    handler = SlackRetryHandler(window=window, clock=clock, sleep=clock.sleep)
    return WebClient(token="xoxb-test", base_url=slack.base_url, retry_handlers=[handler])


def test_429_503_and_internal_error_are_retried_and_the_message_is_posted_once(slack: SlackEmulator) -> None:
    clock = Clock()
    slack.fail_next("chat.postMessage", "ratelimited", retry_after=2)
    slack.fail_next("chat.postMessage", "service_unavailable", status=503)
    for error in ("internal_error", "fatal_error", "request_timeout"):
        slack.fail_next("chat.postMessage", error)
    # A window wide enough for five waits at their largest jitter (2 + 1.25 + 2.5 + 5 + 5 s): this test is
    # about which failures are retried; the window has its own test below.
    response = client(slack, clock, window=30.0).chat_postMessage(channel="C1", text="draft")
    assert response["ok"]
    assert len(slack.calls_to("chat.postMessage")) == 6
    assert [m["text"] for m in slack.messages("C1")] == ["draft"]
    assert clock.slept[0] >= 2.0  # Retry-After honoured


def test_past_the_window_the_call_gives_up_and_says_when_to_try_again(slack: SlackEmulator) -> None:
    clock = Clock()
    slack.fail_next("files.getUploadURLExternal", "internal_error", times=50)
    with pytest.raises(SlackApiError) as caught:
        client(slack, clock, window=5.0).files_upload_v2(channel="C1", content=b"x", filename="a.json")
    assert clock.now <= 5.0
    delay = retry_delay(caught.value, 1)
    assert delay is not None and 1.0 <= delay <= 30.0
    assert slack.files() == []


def test_errors_that_cannot_pass_are_not_retried(slack: SlackEmulator) -> None:
    clock = Clock()
    slack.fail_next("chat.postMessage", "channel_not_found")
    with pytest.raises(SlackApiError) as caught:
        client(slack, clock).chat_postMessage(channel="C1", text="x")
    assert len(slack.calls_to("chat.postMessage")) == 1 and clock.slept == []
    assert retry_delay(caught.value, 1) is None


def test_a_huge_retry_after_is_not_slept_in_the_call_and_is_capped_for_the_reschedule(slack: SlackEmulator) -> None:
    clock = Clock()
    slack.fail_next("chat.postMessage", "ratelimited", retry_after=1_000_000_000)
    with pytest.raises(SlackApiError) as caught:
        client(slack, clock).chat_postMessage(channel="C1", text="x")
    assert clock.slept == []
    assert retry_delay(caught.value, 1) == MAX_RETRY_AFTER_SECONDS


def test_a_connection_refused_is_retried_then_reported_as_temporary() -> None:
    clock = Clock()
    dead = WebClient(
        token="xoxb-test",
        base_url="http://127.0.0.1:9/api/",
        retry_handlers=[SlackRetryHandler(window=3.0, clock=clock, sleep=clock.sleep)],
    )
    with pytest.raises(OSError) as caught:
        dead.chat_postMessage(channel="C1", text="x")
    assert len(clock.slept) >= 2
    assert retry_delay(caught.value, 1) is not None


def test_a_step_is_tried_quickly_then_every_few_minutes_for_about_a_day_then_given_up() -> None:
    failed = slack_error("service_unavailable")
    quick = [step_delay(failed, n) for n in range(1, QUICK_STEP_ATTEMPTS)]
    assert all(d is not None and d <= 30 * 1.25 for d in quick)
    later = [step_delay(failed, n) for n in range(QUICK_STEP_ATTEMPTS, MAX_STEP_ATTEMPTS)]
    assert set(later) == {STEP_PAUSE_SECONDS}
    assert sum(d or 0 for d in later) >= 23 * 3600
    assert step_delay(failed, MAX_STEP_ATTEMPTS) is None
    assert step_delay(slack_error("channel_not_found"), 1) is None  # trying again cannot help
