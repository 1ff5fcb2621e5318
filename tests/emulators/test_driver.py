"""The signed driver against a real Bolt app served over loopback HTTP, talking to the Slack emulator."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest
from slack_bolt import App
from slack_bolt.request import BoltRequest
from slack_sdk import WebClient

from emulators.driver import SlackDriver, modal_values
from emulators.http import Emulator, Request, Response
from emulators.slack_api import SlackEmulator

pytestmark = pytest.mark.unit

SECRET = "test-signing-secret"
MODAL = {
    "type": "modal",
    "callback_id": "postmortem",
    "title": {"type": "plain_text", "text": "Post-mortem"},
    "submit": {"type": "plain_text", "text": "Draft"},
    "private_metadata": "session-1",
    "blocks": [
        {
            "type": "input",
            "block_id": "repro",
            "label": {"type": "plain_text", "text": "Repro"},
            "element": {"type": "plain_text_input", "action_id": "repro", "multiline": True},
        }
    ],
}


@dataclass
class Seen:
    """What the Bolt listeners received."""

    items: list[tuple[str, Any]] = field(default_factory=list)

    def of(self, kind: str) -> list[Any]:
        return [payload for k, payload in self.items if k == kind]


class BoltHost(Emulator):
    """Serves a Bolt App on loopback the way the bot's HTTP mode does (signature checks included)."""

    def __init__(self, app: App) -> None:
        super().__init__()
        self.app = app

    def handle(self, request: Request) -> Response:
        query: dict[str, Sequence[str]] = dict(request.query)
        headers: dict[str, str | Sequence[str]] = dict(request.headers)
        answer = self.app.dispatch(BoltRequest(body=request.body.decode(), query=query, headers=headers))
        return Response(answer.status, answer.body.encode(), {k: v[0] for k, v in answer.headers.items()})


Setup = tuple[SlackEmulator, SlackDriver, Seen]


def _build_app(slack: SlackEmulator, seen: Seen) -> App:
    app = App(
        signing_secret=SECRET,
        client=WebClient(token="xoxb-test", base_url=slack.base_url),
        process_before_response=True,
    )

    @app.command("/post-mortem")
    def command(ack: Any, body: dict[str, Any], client: WebClient) -> None:
        ack()
        seen.items.append(("command", body))
        client.views_open(trigger_id=body["trigger_id"], view=MODAL)

    @app.view("postmortem")
    def submission(ack: Any, body: dict[str, Any], view: dict[str, Any]) -> None:
        ack()
        seen.items.append(("view", body))

    @app.action("approve")
    def approve(ack: Any, body: dict[str, Any]) -> None:
        ack()
        seen.items.append(("action", body))

    @app.event("message")
    def message(event: dict[str, Any], request: Any) -> None:
        seen.items.append(("message", (event, request.headers.get("x-slack-retry-num"))))

    @app.event("app_mention")
    def mention(event: dict[str, Any]) -> None:
        seen.items.append(("mention", event))

    return app


@pytest.fixture
def setup() -> Iterator[Setup]:
    seen = Seen()
    with SlackEmulator() as slack:
        with BoltHost(_build_app(slack, seen)) as host:
            yield slack, SlackDriver(host.base_url, SECRET, slack=slack), seen


def test_slash_command_opens_the_modal_with_the_issued_trigger(setup: Setup) -> None:
    slack, driver, seen = setup
    assert driver.slash_command(text="PROJ-7", user_id="U9", channel_id="C3").status_code == 200
    (body,) = seen.of("command")
    assert (body["text"], body["user_id"], body["channel_id"]) == ("PROJ-7", "U9", "C3")
    assert [v["trigger_id"] for v in slack.views] == [body["trigger_id"]]


def test_view_submission_carries_values_metadata_and_view(setup: Setup) -> None:
    slack, driver, seen = setup
    driver.slash_command()
    values = modal_values({"repro": "run it 3 times", "lang": "ja", "trivial": False})
    assert driver.view_submission(values=values, user_id="U2").status_code == 200
    (body,) = seen.of("view")
    assert body["view"]["state"]["values"] == values
    assert body["view"]["private_metadata"] == "session-1"
    assert body["view"]["id"] == slack.views[0]["view"]["id"]
    assert body["user"]["id"] == "U2" and body["team"]["id"] == "T0001" and body["trigger_id"]


def test_block_action_on_the_latest_message(setup: Setup) -> None:
    slack, driver, seen = setup
    client = WebClient(token="xoxb-test", base_url=slack.base_url)
    parent = client.chat_postMessage(channel="C1", text="draft")["ts"]
    reply = client.chat_postMessage(channel="C1", text="v1", thread_ts=parent)["ts"]
    driver.block_action("approve", "v1", user_id="U1", channel_id="C1")
    (body,) = seen.of("action")
    assert body["container"]["message_ts"] == reply and body["container"]["thread_ts"] == parent
    assert body["actions"][0]["value"] == "v1" and body["message"]["text"] == "v1" and body["trigger_id"]


def test_thread_message_and_retry_headers(setup: Setup) -> None:
    _, driver, seen = setup
    driver.message("approve", user="U1", channel="C1", thread_ts="1700000000.000100", event_id="Ev1")
    driver.message(
        "approve",
        user="U1",
        channel="C1",
        thread_ts="1700000000.000100",
        event_id="Ev1",
        retry_num=1,
        ts=driver.last_payload["event"]["ts"],
    )
    (first, no_retry), (second, retry) = seen.of("message")
    assert first["thread_ts"] == "1700000000.000100" and first["ts"] == second["ts"]
    assert (no_retry, retry) == (None, ["1"])  # Bolt keeps header values as lists
    assert driver.last_payload["event_id"] == "Ev1"


def test_app_mention_gets_the_mention(setup: Setup) -> None:
    _, driver, seen = setup
    driver.app_mention("help")
    assert seen.of("mention")[0]["text"] == "<@UBOT> help"


def test_url_verification_echoes_the_challenge(setup: Setup) -> None:
    _, driver, _ = setup
    answer = driver.url_verification("c-123")
    assert answer.status_code == 200 and answer.json() == {"challenge": "c-123"}


def test_bad_signatures_and_old_timestamps_are_refused(setup: Setup) -> None:
    _, driver, seen = setup
    body = json.dumps({"type": "url_verification", "challenge": "x"}).encode()
    old = driver.post(body, "application/json", timestamp=int(time.time()) - 600)
    forged = driver.post(body, "application/json", headers={"X-Slack-Signature": "v0=" + "0" * 64})
    unsigned = driver.post(body, "application/json", signed=False)
    assert [old.status_code, forged.status_code, unsigned.status_code] == [401, 401, 401]
    headers = driver.sign(body, 1_700_000_000)
    assert headers["X-Slack-Request-Timestamp"] == "1700000000"
    assert headers["X-Slack-Signature"].startswith("v0=")


def test_modal_values_shapes_like_slack() -> None:
    values = modal_values(
        {
            "repro": "step 1",
            "why_missed_category": "ci_gap",
            "destination": "jira_comment",
            "customer_impacting": True,
            "trivial": False,
            "action_items": [{"what": "add test", "owner": "@aki", "tracking": "PROJ-9"}, "fix docs | team | -"],
        }
    )
    assert values["repro"] == {"repro": {"type": "plain_text_input", "value": "step 1"}}
    assert values["why_missed_category"]["why_missed_category"]["selected_option"]["value"] == "ci_gap"
    assert values["destination"]["destination"]["type"] == "static_select"
    assert values["scope"]["scope"]["selected_options"] == [
        {"text": {"type": "plain_text", "text": "customer_impacting"}, "value": "customer_impacting"}
    ]
    assert values["action_items"]["action_items"]["value"] == "add test | @aki | PROJ-9\nfix docs | team | -"
    assert modal_values({"action_items_none": True})["action_items"]["action_items"]["value"] == "none"
    assert modal_values({"lang": None})["lang"]["lang"]["selected_option"] is None
