"""The Slack emulator driven by the real slack_sdk WebClient: auth, triggers, limits, uploads, waits."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
import requests
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

from emulators.slack_api import SlackEmulator

pytestmark = pytest.mark.unit


@pytest.fixture
def slack() -> Iterator[SlackEmulator]:
    with SlackEmulator() as emulator:
        yield emulator


@pytest.fixture
def client(slack: SlackEmulator) -> WebClient:
    return WebClient(token="xoxb-test", base_url=slack.base_url)


def _error(call: Any) -> Any:
    with pytest.raises(SlackApiError) as caught:
        call()
    return caught.value.response


def _modal(**overrides: Any) -> dict[str, Any]:
    return {
        "type": "modal",
        "callback_id": "postmortem",
        "title": {"type": "plain_text", "text": "Post-mortem"},
        "submit": {"type": "plain_text", "text": "Draft"},
        "blocks": [],
        **overrides,
    }


def _section(text: str) -> dict[str, Any]:
    return {"type": "section", "text": {"type": "mrkdwn", "text": text}}


def test_base_url_is_what_webclient_wants(slack: SlackEmulator) -> None:
    assert slack.base_url.startswith("http://127.0.0.1:") and slack.base_url.endswith("/api/")


def test_auth_test_checks_the_bearer_token(slack: SlackEmulator, client: WebClient) -> None:
    assert client.auth_test()["user_id"] == "UBOT"
    bad = _error(lambda: WebClient(token="xoxb-wrong", base_url=slack.base_url).auth_test())
    assert bad["error"] == "invalid_auth"
    assert [c.method for c in slack.calls] == ["auth.test", "auth.test"]


def test_views_open_takes_a_trigger_once(slack: SlackEmulator, client: WebClient) -> None:
    trigger = slack.issue_trigger_id()
    opened = client.views_open(trigger_id=trigger, view=_modal())
    assert opened["view"]["id"].startswith("V") and opened["view"]["callback_id"] == "postmortem"
    again = _error(lambda: client.views_open(trigger_id=trigger, view=_modal()))
    assert again["error"] == "exchanged_trigger_id"
    unknown = _error(lambda: client.views_open(trigger_id="1.2.nope", view=_modal()))
    assert unknown["error"] == "invalid_trigger_id"
    assert [v["action"] for v in slack.views] == ["open"]


def test_expired_trigger() -> None:
    with SlackEmulator(trigger_ttl=0.0) as slack:
        client = WebClient(token="xoxb-test", base_url=slack.base_url)
        trigger = slack.issue_trigger_id()
        late = _error(lambda: client.views_open(trigger_id=trigger, view=_modal()))
        assert late["error"] == "expired_trigger_id"


@pytest.mark.parametrize(
    "view, pointer",
    [
        (_modal(title={"type": "plain_text", "text": "x" * 25}), "/view/title/text"),
        (_modal(blocks=[_section("x")] * 101), "/view/blocks"),
        (
            _modal(
                blocks=[
                    {
                        "type": "input",
                        "block_id": "repro",
                        "label": {"type": "plain_text", "text": "Repro"},
                        "element": {"type": "plain_text_input", "action_id": "repro", "max_length": 3001},
                    }
                ]
            ),
            "/view/blocks/0/element/max_length",
        ),
        (
            {
                **_modal(
                    blocks=[
                        {
                            "type": "input",
                            "label": {"type": "plain_text", "text": "x"},
                            "element": {"type": "plain_text_input"},
                        }
                    ]
                ),
                "submit": None,
            },
            "/view/submit",
        ),
    ],
)
def test_views_open_rejects_views_slack_rejects(
    slack: SlackEmulator, client: WebClient, view: dict[str, Any], pointer: str
) -> None:
    answer = _error(lambda: client.views_open(trigger_id=slack.issue_trigger_id(), view=view))
    assert answer["error"] == "invalid_arguments"
    assert any(pointer in m for m in answer["response_metadata"]["messages"])


def test_views_update_and_push(slack: SlackEmulator, client: WebClient) -> None:
    view_id = client.views_open(trigger_id=slack.issue_trigger_id(), view=_modal())["view"]["id"]
    client.views_update(view_id=view_id, view=_modal(private_metadata="s1"))
    client.views_push(trigger_id=slack.issue_trigger_id(), view=_modal())
    assert [v["action"] for v in slack.views] == ["open", "update", "push"]
    current = slack.current_view(view_id)
    assert current is not None and current["private_metadata"] == "s1"
    assert _error(lambda: client.views_update(view_id="V404", view=_modal()))["error"] == "not_found"


def test_post_message_in_threads_with_increasing_ts(slack: SlackEmulator, client: WebClient) -> None:
    parent = client.chat_postMessage(channel="C1", text="parent")["ts"]
    reply = client.chat_postMessage(channel="C1", thread_ts=parent, blocks=[_section("reply")], text="reply")
    other = client.chat_postMessage(channel="C2", text="elsewhere")["ts"]
    assert float(parent) < float(reply["ts"]) < float(other)
    assert [m["text"] for m in slack.messages(channel="C1")] == ["parent", "reply"]
    thread = slack.messages(thread_ts=parent)
    assert [(m["ts"], m["user"], m["blocks"]) for m in thread] == [(reply["ts"], "UBOT", [_section("reply")])]


@pytest.mark.parametrize(
    "blocks, error",
    [
        ([_section("x")] * 51, "invalid_blocks"),
        ([_section("x" * 3001)], "invalid_blocks"),
        ([{"type": "header", "text": {"type": "plain_text", "text": "h" * 151}}], "invalid_blocks"),
        ([{"type": "markdown", "text": "m" * 12_001}], "invalid_blocks"),
        ([_section("y" * 2900)] * 5, "msg_blocks_too_long"),
        ([], "no_text"),
    ],
)
# slack-sdk warns when a chat.postMessage has no `text`; these calls leave it out on purpose.
@pytest.mark.filterwarnings("ignore:The top-level `text` argument is missing:UserWarning")
def test_post_message_limits(slack: SlackEmulator, client: WebClient, blocks: list[Any], error: str) -> None:
    assert _error(lambda: client.chat_postMessage(channel="C1", blocks=blocks))["error"] == error
    assert slack.messages() == []


def test_limits_at_the_edge_pass(slack: SlackEmulator, client: WebClient) -> None:
    client.chat_postMessage(channel="C1", text="t", blocks=[_section("x" * 3000)] * 4)
    client.chat_postMessage(channel="C1", text="t", blocks=[{"type": "markdown", "text": "m" * 12_000}])
    assert len(slack.messages()) == 2


def test_long_text_is_truncated_and_recorded(slack: SlackEmulator, client: WebClient) -> None:
    answer = client.chat_postMessage(channel="C1", text="z" * 40_005)
    (message,) = slack.messages()
    assert len(message["text"]) == 40_000 and message["truncated"]
    assert answer["warning"] == "message_truncated"


def test_form_encoded_blocks_are_decoded(slack: SlackEmulator, client: WebClient) -> None:
    client.api_call("chat.postMessage", data={"channel": "C9", "blocks": json.dumps([_section("form")])})
    assert slack.messages(channel="C9")[0]["blocks"] == [_section("form")]


def test_ephemeral_update_and_unknown_method(slack: SlackEmulator, client: WebClient) -> None:
    assert (
        _error(lambda: client.api_call("chat.postEphemeral", json={"channel": "C1", "text": "x"}))["error"]
        == "invalid_arguments"
    )
    client.chat_postEphemeral(channel="C1", user="U1", text="only you")
    assert [e["text"] for e in slack.ephemerals(user="U1")] == ["only you"]
    ts = client.chat_postMessage(channel="C1", text="v1")["ts"]
    client.chat_update(channel="C1", ts=ts, text="v2")
    assert slack.messages()[0]["text"] == "v2" and slack.messages()[0]["edited"]
    missing = _error(lambda: client.chat_update(channel="C1", ts="1.2", text="x"))
    assert missing["error"] == "message_not_found"
    assert _error(lambda: client.api_call("nope.nothing"))["error"] == "unknown_method"


def test_users_and_conversations(slack: SlackEmulator, client: WebClient) -> None:
    slack.add_user("U1", name="aki", locale="ja-JP", email="aki@example.com")
    assert client.users_info(user="U1", include_locale=True)["user"]["locale"] == "ja-JP"
    assert "locale" not in client.users_info(user="U1")["user"]  # Slack sends it only when asked
    assert client.users_lookupByEmail(email="aki@example.com")["user"]["id"] == "U1"
    assert _error(lambda: client.users_info(user="U404"))["error"] == "user_not_found"
    assert client.conversations_info(channel="C7")["channel"]["id"] == "C7"


def test_files_upload_v2_end_to_end(slack: SlackEmulator, client: WebClient) -> None:
    ts = client.chat_postMessage(channel="C1", text="draft")["ts"]
    body = b'{"body": {"type": "doc"}, "h\\u00e9": 1}'
    done = client.files_upload_v2(channel="C1", thread_ts=ts, filename="PROJ-1.json", content=body)
    assert done["file"]["name"] == "PROJ-1.json"
    (stored,) = slack.files(channel="C1", thread_ts=ts)
    assert stored["bytes"] == body and stored["name"] == "PROJ-1.json"
    assert [c.method for c in slack.calls][-3:] == [
        "files.getUploadURLExternal",
        "(upload)",
        "files.completeUploadExternal",
    ]


def test_multipart_upload_and_unuploaded_file(slack: SlackEmulator, client: WebClient) -> None:
    got = client.files_getUploadURLExternal(filename="a.md", length=5)
    assert requests.post(got["upload_url"], files={"file": ("a.md", b"# hi\n")}, timeout=5).status_code == 200
    client.files_completeUploadExternal(files=[{"id": got["file_id"], "title": "A"}], channel_id="C1")
    assert slack.files()[0]["bytes"] == b"# hi\n" and slack.files()[0]["title"] == "A"
    other = client.files_getUploadURLExternal(filename="b.md", length=1)
    assert (
        _error(lambda: client.files_completeUploadExternal(files=[{"id": other["file_id"]}]))["error"]
        == "file_not_found"
    )


def test_fail_next_ratelimited_once(slack: SlackEmulator, client: WebClient) -> None:
    slack.fail_next("chat.postMessage", retry_after=7)
    limited = _error(lambda: client.chat_postMessage(channel="C1", text="x"))
    assert limited.status_code == 429 and limited.headers["Retry-After"] == "7"
    assert limited["error"] == "ratelimited"
    slack.fail_next("views.open", "internal_error")
    assert _error(lambda: client.views_open(trigger_id="t", view=_modal()))["error"] == "internal_error"
    assert client.chat_postMessage(channel="C1", text="x")["ok"]
    assert len(slack.calls_to("chat.postMessage")) == 2


def test_wait_for_wakes_on_the_recorded_call(slack: SlackEmulator, client: WebClient) -> None:
    threading.Timer(0.2, lambda: client.chat_postMessage(channel="C5", text="later")).start()
    started = time.monotonic()
    found = slack.wait_for(lambda s: s.messages(channel="C5"), timeout=5)
    assert found[0]["text"] == "later" and time.monotonic() - started < 4


def test_wait_for_times_out_with_a_dump(slack: SlackEmulator, client: WebClient) -> None:
    client.chat_postMessage(channel="C1", text="something else")
    with pytest.raises(TimeoutError, match="chat.postMessage"):
        slack.wait_for(lambda s: s.messages(channel="C404"), timeout=0.2)


def test_invalid_json_body(slack: SlackEmulator) -> None:
    answer = requests.post(
        slack.base_url + "chat.postMessage",
        data=b"{nope",
        headers={"Content-Type": "application/json", "Authorization": "Bearer xoxb-test"},
        timeout=5,
    )
    assert answer.json() == {"ok": False, "error": "invalid_json"}


def test_views_publish_keeps_one_home_per_user_apart_from_the_modals(slack: SlackEmulator, client: WebClient) -> None:
    home = {"type": "home", "blocks": [_section("mine")]}
    client.views_publish(user_id="U1", view=home)
    client.views_publish(user_id="U1", view={"type": "home", "blocks": [_section("newer")]})
    shown = slack.home_view("U1")
    assert shown is not None and shown["blocks"] == [_section("newer")]
    assert slack.home_view("U2") is None and slack.views == [] and slack.current_view() is None
    assert _error(lambda: client.views_publish(user_id="U1", view=_modal()))["error"] == "invalid_arguments"
    too_many = {"type": "home", "blocks": [_section(str(i)) for i in range(101)]}
    assert _error(lambda: client.views_publish(user_id="U1", view=too_many))["error"] == "invalid_arguments"
    duplicate = {"type": "home", "blocks": [{**_section("a"), "block_id": "x"}, {**_section("b"), "block_id": "x"}]}
    assert _error(lambda: client.views_publish(user_id="U1", view=duplicate))["error"] == "invalid_arguments"
    assert len(slack.calls_to("views.publish")) == 5
