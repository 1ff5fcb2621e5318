"""What the emulators give the message shortcut: whole threads through conversations.replies (paged, a channel the
bot cannot read, a deleted message), conversations.open, views.update keeping typed values and refusing a stale hash,
a signed `message_action`, and Jira issue descriptions and remote links on both deployments."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

from bot.localstack import JIRA_TOKEN, jira_emulator
from emulators.driver import SlackDriver
from emulators.jira_cloud import JiraEmulator
from emulators.slack_api import SlackEmulator
from emulators.slack_threads import TOMBSTONE_TEXT
from workers.jira_gateway import JiraError, JiraGateway
from workers.jira_reads import read_issue

pytestmark = pytest.mark.unit


@pytest.fixture
def slack() -> Iterator[SlackEmulator]:
    with SlackEmulator(bot_token="xoxb-t") as emulator:
        yield emulator


def client(slack: SlackEmulator) -> WebClient:
    return WebClient(token="xoxb-t", base_url=slack.base_url)


def test_a_thread_is_paged_with_its_parent_first(slack: SlackEmulator) -> None:
    root = slack.say_as("U1", "C1", "PAY-1 hangs")
    replies = [slack.say_as("U2", "C1", f"reply {i}", thread_ts=root) for i in range(5)]
    slack.say_as("U3", "C1", "another thread")
    first = client(slack).conversations_replies(channel="C1", ts=root, limit=4)
    assert [m["ts"] for m in first["messages"]] == [root, *replies[:3]] and first["has_more"]
    cursor = first["response_metadata"]["next_cursor"]
    rest = client(slack).conversations_replies(channel="C1", ts=root, limit=4, cursor=cursor)
    assert [m["ts"] for m in rest["messages"]] == replies[3:] and not rest["has_more"]
    one = client(slack).conversations_replies(channel="C1", ts=root, oldest=replies[2], inclusive=True, limit=2)
    assert [m["ts"] for m in one["messages"]] == [root, replies[2]]


def test_unreadable_channels_and_deleted_messages_answer_as_slack(slack: SlackEmulator) -> None:
    root = slack.say_as("U1", "C1", "parent")
    reply = slack.say_as("U2", "C1", "reply", thread_ts=root)
    slack.delete_message("C1", reply)
    slack.delete_message("C1", root)
    [tombstone] = client(slack).conversations_replies(channel="C1", ts=root)["messages"]
    assert tombstone["subtype"] == "tombstone" and tombstone["text"] == TOMBSTONE_TEXT
    slack.make_unreadable("C1", "not_in_channel")
    with pytest.raises(SlackApiError) as refused:
        client(slack).conversations_replies(channel="C1", ts=root)
    assert refused.value.response["error"] == "not_in_channel"
    assert client(slack).conversations_open(users="U42")["channel"]["id"] == "D42"


def test_views_update_keeps_what_was_typed_and_refuses_a_stale_hash(slack: SlackEmulator) -> None:
    def view(value: str) -> dict[str, object]:
        element = {"type": "plain_text_input", "action_id": "owner", "initial_value": value}
        block = {"type": "input", "block_id": "owner", "label": {"type": "plain_text", "text": "Owner"}}
        return {
            "type": "modal",
            "title": {"type": "plain_text", "text": "T"},
            "submit": {"type": "plain_text", "text": "OK"},
            "blocks": [{**block, "element": element}],
        }

    opened = client(slack).views_open(trigger_id=slack.issue_trigger_id(), view=view("x"))["view"]
    slack.type_into(opened["id"], "owner", "typed by the person")
    client(slack).views_update(view_id=opened["id"], hash=opened["hash"], view=view("from Jira"))
    assert slack.shown_value(opened["id"], "owner") == "typed by the person"
    with pytest.raises(SlackApiError) as stale:
        client(slack).views_update(view_id=opened["id"], hash=opened["hash"], view=view("again"))
    assert stale.value.response["error"] == "hash_conflict"


def test_the_driver_signs_a_message_action_naming_the_message(slack: SlackEmulator) -> None:
    root = slack.say_as("U1", "C1", "PAY-1 hangs")
    reply = slack.say_as("U2", "C1", "trace", thread_ts=root)
    driver = SlackDriver("http://127.0.0.1:9", "secret", slack=slack)
    with pytest.raises(OSError):  # nothing listens there: the payload is built and signed all the same
        driver.message_shortcut(reply, channel_id="C1", user_id="U2")
    payload = driver.last_payload
    assert payload["type"] == "message_action" and payload["callback_id"] == "postmortem_from_message"
    assert payload["message"] == {"type": "message", "ts": reply, "user": "U2", "text": "trace", "thread_ts": root}


@pytest.fixture(params=["cloud", "datacenter"])
def jira(request: pytest.FixtureRequest) -> Iterator[JiraEmulator]:
    with jira_emulator(request.param) as emulator:
        yield emulator


def gateway(jira: JiraEmulator) -> JiraGateway:
    datacenter = jira.list_expands_properties
    email = "" if datacenter else jira.email
    return JiraGateway(jira.base_url, email, JIRA_TOKEN, deployment="datacenter" if datacenter else "cloud")


def test_issue_fields_and_remote_links_on_both_deployments(jira: JiraEmulator) -> None:
    jira.add_user("acc-1", display_name="Priya Raman")
    jira.add_issue("PAY-1", assignee_account_id="acc-1", status="Done")
    jira.issue_reads.describe("PAY-1", [("p", "prose"), ("code", "E42 timeout")])
    jira.issue_reads.add_remote_link("PAY-1", "https://github.com/a/b/pull/3")
    facts = read_issue(gateway(jira), "PAY-1")
    assert (facts.assignee, facts.status, facts.remote_urls) == (
        "Priya Raman",
        "Done",
        ("https://github.com/a/b/pull/3",),
    )
    if jira.list_expands_properties:
        assert facts.description == "prose\n\n{code}\nE42 timeout\n{code}"
    else:
        assert facts.description["content"][1] == {
            "type": "codeBlock",
            "content": [{"type": "text", "text": "E42 timeout"}],
        }
    with pytest.raises(JiraError) as missing:
        read_issue(gateway(jira), "PAY-404")
    assert missing.value.status == 404
