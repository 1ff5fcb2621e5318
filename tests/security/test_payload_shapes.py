"""Signed payloads the bot cannot understand are a 400, never a 500: Slack's own shapes with a part missing,
null or of another type, and the fixtures of bolt-python's workflow steps.

Each of these once reached Bolt or a listener and came back as a 500 with a traceback; the bot now refuses
them at the edge (bot/slack_shapes.py), before Bolt builds anything from them.
"""

from __future__ import annotations

import copy
import itertools
import json
from collections.abc import Iterator
from typing import Any
from urllib.parse import parse_qs, urlencode

import pytest
import redis
import requests

from emulators.driver import SlackDriver, modal_values
from emulators.slack_api import SlackEmulator
from renderers.offers import ACTION_START
from renderers.prompts import ACTION_CANCEL, ACTION_CHECKS, ACTION_DONE, ACTION_EDIT, ACTION_HANDOFF, ACTION_RETRY
from sessions.session import Session
from sessions.store import SessionStore
from tests.asgi import SECRET, call, slack_headers

pytestmark = pytest.mark.unit

_ids = itertools.count(1)


@pytest.fixture
def session(redis_conn: redis.Redis) -> Session:
    """A session whose thread is C1/1.0, so a reply there is read as the session's."""
    store = SessionStore(redis_conn)
    created = store.create(Session(ticket="PROJ-1", requester="U1", channel="C1"))
    store.bind_thread(created.id, "C1", "1.0")
    return created


def event(inner: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    return "json", {"type": "event_callback", "event_id": f"EvS{next(_ids)}", "team_id": "T1", "event": inner}


def interaction(payload: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    return "form", payload


def post(app: Any, encoding: str, payload: dict[str, Any]) -> int:
    if encoding == "json":
        body, content_type = json.dumps(payload).encode(), b"application/json"
    else:
        body, content_type = urlencode({"payload": json.dumps(payload)}).encode(), b"application/x-www-form-urlencoded"
    return call(app, "/slack/events", [body], headers=slack_headers(body, content_type=content_type)).status


_USER = {"id": "U1", "username": "u1", "team_id": "T1"}
_TEAM = {"id": "T1", "domain": "emulated"}
#: bolt-python's own fixtures for steps from apps (tests/scenario_tests_async/test_workflow_steps.py), trimmed.
STEP_EDIT = {
    "type": "workflow_step_edit",
    "token": "verification-token",
    "action_ts": "1601541356.268786",
    "team": _TEAM,
    "user": _USER,
    "callback_id": "copy_review",
    "trigger_id": "111.222.xxx",
    "workflow_step": {"workflow_id": "12345", "step_id": "111-222-333-444-555", "inputs": {}, "outputs": []},
}
STEP_SAVE = {
    "type": "view_submission",
    "team": _TEAM,
    "user": _USER,
    "api_app_id": "A111",
    "trigger_id": "111.222.xxx",
    "view": {"id": "V111", "type": "workflow_step", "callback_id": "copy_review", "state": {"values": {}}},
    "response_urls": [],
    "workflow_step": {"workflow_step_edit_id": "111.222.zzz", "workflow_id": "12345", "step_id": "111-222"},
}
STEP_EXECUTE = {
    "type": "workflow_step_execute",
    "callback_id": "copy_review",
    "workflow_step": {"workflow_step_execute_id": "zzz", "workflow_id": "12345", "step_id": "1", "inputs": {}},
    "event_ts": "1601541373.225894",
}


def _without(payload: dict[str, Any], key: str) -> dict[str, Any]:
    return {k: v for k, v in payload.items() if k != key}


#: Signed but incomplete: each was a 500 with a traceback before the edge refused it.
INCOMPLETE = {
    "an action without its action_id": interaction(
        {"type": "block_actions", "user": _USER, "team": _TEAM, "actions": [{}]}
    ),
    "no actions at all in block_actions": interaction({"type": "block_actions", "user": _USER, "actions": []}),
    "a reply in a session's thread whose ts is no number": event(
        {"type": "message", "user": "U1", "channel": "C1", "text": "post it", "ts": "soon", "thread_ts": "1.0"}
    ),
    "a workflow step's edit without its workflow_step (shortcut-like)": interaction(
        _without(STEP_EDIT, "workflow_step")
    ),
    "a workflow step's save without its workflow_step": interaction(_without(STEP_SAVE, "workflow_step")),
    "a click whose user is null": interaction(
        {"type": "block_actions", "user": None, "actions": [{"action_id": ACTION_CANCEL, "value": "x"}]}
    ),
    "a form without its user": interaction(
        {"type": "view_submission", "view": {"type": "modal", "callback_id": "postmortem", "state": {"values": {}}}}
    ),
    "a form whose view is null": interaction({"type": "view_submission", "user": _USER, "view": None}),
    "an event that is null": ("json", {"type": "event_callback", "event_id": "EvNULL", "event": None}),
    "an enterprise that is a number": interaction(
        {"type": "block_actions", "user": _USER, "enterprise": 7, "actions": [{"action_id": ACTION_CANCEL}]}
    ),
    "an event whose channel is a number": event({"type": "message", "user": "U1", "channel": 7, "ts": "2.0"}),
    "a click whose channel is a string": interaction(
        {"type": "block_actions", "user": _USER, "channel": "C1", "actions": [{"action_id": ACTION_START}]}
    ),
    "response_urls that are not a list of objects": interaction(
        {"type": "view_submission", "user": _USER, "view": {"type": "modal", "callback_id": "x"}, "response_urls": "u"}
    ),
    "response_urls that are null": interaction(
        {"type": "view_submission", "user": _USER, "view": {"type": "modal", "callback_id": "x"}, "response_urls": None}
    ),
}


@pytest.mark.parametrize("name", INCOMPLETE)
def test_signed_incomplete_payloads_are_a_400(app: Any, session: Session, name: str) -> None:
    encoding, payload = INCOMPLETE[name]
    assert post(app, encoding, payload) == 400


@pytest.mark.parametrize(
    ("encoding", "payload"),
    [
        interaction(STEP_EDIT),
        interaction(STEP_SAVE),
        event(STEP_EXECUTE),
        event(_without(STEP_EXECUTE, "callback_id")),
        event({**STEP_EXECUTE, "workflow_step": None}),
        ("json", {"type": "workflow_step_execute", "workflow_step": {}}),  # an event without its envelope
    ],
)
def test_workflow_steps_the_bot_does_not_offer_are_acknowledged_not_a_500(
    app: Any, encoding: str, payload: dict[str, Any]
) -> None:
    assert post(app, encoding, payload) == 200


# --- Every part of the real payloads, one at a time: missing, null or of another type -----------------------


class _Capturing(SlackDriver):
    """The emulators' driver, keeping what it would POST (encoding and payload) instead of sending it."""

    captured: list[tuple[str, dict[str, Any]]]

    def post(self, body: bytes, content_type: str, **_: Any) -> requests.Response:
        if content_type.startswith("application/json"):
            self.captured.append(("json", json.loads(body)))
        else:
            form = parse_qs(body.decode())
            self.captured.append(("form", json.loads(form["payload"][0])) if "payload" in form else ("command", form))
        answer = requests.Response()
        answer.status_code = 200
        return answer


def real_payloads(slack: SlackEmulator, session_id: str) -> list[tuple[str, dict[str, Any]]]:
    driver = _Capturing("http://127.0.0.1:9/slack/events", SECRET, slack=slack)
    driver.captured = []
    driver.view_submission(
        values=modal_values({"ticket": "PROJ-1", "summary": "x"}), private_metadata=json.dumps({"channel": "C1"})
    )
    for action in (ACTION_CANCEL, ACTION_CHECKS, ACTION_DONE, ACTION_EDIT, ACTION_HANDOFF, ACTION_RETRY):
        driver.block_action(action, session_id, thread_ts="1.0")
    driver.block_action(ACTION_START, json.dumps({"ticket": "PROJ-1", "channel": "C1"}))
    driver.message("post it", thread_ts="1.0")
    driver.app_mention("post-mortem PROJ-1")
    driver.app_home_opened()
    return [(encoding, payload) for encoding, payload in driver.captured if encoding != "command"]


#: What replaces a part: nothing, null, and the types Slack never sends in its place.
_KINDS: dict[str, Any] = {"null": None, "number": 7, "list of an empty object": [{}], "string": "x"}
_DROPPED = object()


def mutations(part: Any, path: tuple[str | int, ...] = ()) -> Iterator[tuple[tuple[str | int, ...], Any]]:
    """Each key of each object down to three levels (and a list's first item): dropped, or replaced."""
    if isinstance(part, dict):
        for key, value in part.items():
            yield path + (key,), _DROPPED
            for replacement in _KINDS.values():
                yield path + (key,), replacement
            if len(path) < 2:
                yield from mutations(value, path + (key,))
    elif isinstance(part, list) and part:
        yield from mutations(part[0], path + (0,))


def mutated(payload: dict[str, Any], path: tuple[str | int, ...], replacement: Any) -> dict[str, Any]:
    changed = copy.deepcopy(payload)
    parent: Any = changed
    for step in path[:-1]:
        parent = parent[step]
    if replacement is _DROPPED:
        del parent[path[-1]]
    else:
        parent[path[-1]] = replacement
    return changed


def test_no_part_of_a_real_payload_missing_null_or_mistyped_is_a_500(
    app: Any, slack: SlackEmulator, session: Session
) -> None:
    failures = []
    for encoding, payload in real_payloads(slack, session.id):
        for path, replacement in mutations(payload):
            changed = mutated(payload, path, replacement)
            if isinstance(changed.get("event_id"), str):
                changed["event_id"] = f"EvM{next(_ids)}"  # each one new, not a retry the bot skips
            if path == ("trigger_id",) and isinstance(replacement, str):
                continue  # a well-formed trigger Slack refuses: views.open's answer, not the payload's shape
            if isinstance(changed.get("trigger_id"), str):
                changed["trigger_id"] = slack.issue_trigger_id()  # a click's trigger is good once, for 3 s
            status = post(app, encoding, changed)
            if status >= 500:
                failures.append((payload.get("type"), path, "dropped" if replacement is _DROPPED else replacement))
    assert failures == []
