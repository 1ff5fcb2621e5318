"""The message shortcut's declaration and the payloads it reads: the manifest names it as the catalogue does, a
`message_action` gives the thread to read, a Start button in a thread too, and the form's metadata gives the session
its debugging thread (an https permalink only)."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pytest
import yaml

from handlers.deps import Deps
from handlers.form import _origin
from handlers.shortcut import SHORTCUT_ID, _enqueue, origin_of, start_origin
from postmortem.messages import say

pytestmark = pytest.mark.unit

ROOT = Path(__file__).resolve().parents[2]


def test_the_manifest_declares_the_message_shortcut_as_the_catalogue_names_it() -> None:
    manifest = yaml.safe_load((ROOT / "slack-manifest.yaml").read_text())
    (shortcut,) = manifest["features"]["shortcuts"]
    assert shortcut == {
        "name": say("shortcut_name", "en"),
        "type": "message",
        "callback_id": SHORTCUT_ID,
        "description": say("shortcut_description", "en"),
    }
    scopes = manifest["oauth_config"]["scopes"]["bot"]
    assert {"commands", "channels:history", "groups:history", "im:write"} <= set(scopes)
    assert say("shortcut_name", "ja") == "事後分析を書く"


def action(**message: Any) -> dict[str, Any]:
    return {
        "type": "message_action",
        "callback_id": SHORTCUT_ID,
        "trigger_id": "1.2.3",
        "user": {"id": "U1"},
        "channel": {"id": "C1"},
        "message_ts": message.get("ts", "200.1"),
        "message": {"type": "message", "ts": "200.1", "text": "PAY-1 ```x```", **message},
    }


def test_a_reply_is_read_in_its_thread_and_a_parent_in_its_own() -> None:
    assert origin_of(action(thread_ts="100.1")) == {
        "channel": "C1",
        "ts": "200.1",
        "thread_ts": "100.1",
        "user": "U1",
        "text": "PAY-1 ```x```",
    }
    assert (origin_of(action()) or {}).get("thread_ts") == "200.1"
    assert origin_of({**action(), "channel": {}}) is None


def click(value: dict[str, Any], **message: Any) -> dict[str, Any]:
    return {
        "type": "block_actions",
        "user": {"id": "U2"},
        "channel": {"id": "C1"},
        "container": {"type": "message", "message_ts": "300.1", "channel_id": "C1"},
        "message": {"ts": "300.1", **message},
        "actions": [{"value": json.dumps(value)}],
    }


def test_a_start_button_in_a_thread_reads_that_thread_and_elsewhere_opens_the_plain_form() -> None:
    found = start_origin(click({"ticket": "PAY-1", "channel": "C1", "lang": "ja"}, thread_ts="100.1"))
    assert found is not None
    origin, start = found
    assert (origin["thread_ts"], origin["ts"], origin["user"], start.ticket, start.lang) == (
        "100.1",
        "100.1",
        "U2",
        "PAY-1",
        "ja",
    )
    assert start_origin(click({"ticket": "PAY-1", "channel": "C1", "lang": "en"})) is None  # no thread
    assert start_origin(click({"ticket": None, "channel": "C9", "lang": "en"}, thread_ts="100.1")) is None


def test_a_start_button_carrying_its_message_reads_that_thread_and_an_old_or_forged_one_opens_the_plain_form() -> None:
    # an offer under a top-level channel message: the click has no thread, the value carries the message's ts
    found = start_origin(click({"ticket": None, "channel": "C1", "lang": "en", "ts": "100.1"}))
    assert found is not None
    origin, start = found
    assert (origin["channel"], origin["ts"], origin["thread_ts"], origin["user"], start.ts) == (
        "C1",
        "100.1",
        "100.1",
        "U2",
        "100.1",
    )
    # a button from before the value carried the ts, a malformed ts, a ts of another channel, a DM's empty channel
    for value in (
        {"ticket": "PAY-1", "channel": "C1", "lang": "en"},
        {"ticket": None, "channel": "C1", "lang": "en", "ts": "../100.1"},
        {"ticket": None, "channel": "C1", "lang": "en", "ts": 100.1},
        {"ticket": None, "channel": "C9", "lang": "en", "ts": "100.1"},
        {"ticket": "PAY-1", "channel": "", "lang": "en", "ts": "100.1"},
    ):
        assert start_origin(click(value)) is None, value


def test_the_form_gives_the_session_its_debugging_thread_with_an_https_link_only() -> None:
    url = "https://acme.slack.com/archives/C1/p100"
    assert _origin({"origin": {"channel": "C1", "ts": "100.1", "url": url}}) == {
        "debug_channel": "C1",
        "debug_ts": "100.1",
        "debug_url": url,
    }
    assert "debug_url" not in _origin({"origin": {"channel": "C1", "ts": "100.1", "url": "javascript:x"}})
    assert _origin({"channel": "C1"}) == {}


class Queue:
    def __init__(self) -> None:
        self.jobs: list[tuple[Any, ...]] = []

    def enqueue(self, *args: Any, **kwargs: Any) -> None:
        self.jobs.append(args)


def test_the_job_gets_the_keys_the_message_named_never_its_text() -> None:
    queue = Queue()
    origin = origin_of(action(text="secret token xoxb-1 in LED-7 and <https://x.atlassian.net/browse/LED-7|LED-7>"))
    assert origin is not None
    _enqueue(cast(Deps, SimpleNamespace(queue=queue)), view_id="V1", view_hash="h", origin=origin, lang="en", meta={})
    ((name, *args),) = queue.jobs
    assert name == "workers.jobs.prefill_modal" and args[7] == ["LED-7"]
    assert "secret" not in json.dumps(args)
