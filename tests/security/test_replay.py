"""Replays do nothing twice: one captured, signed modal submission sent again makes no second session."""

from __future__ import annotations

import json
import time
from typing import Any
from urllib.parse import urlencode

import pytest
import redis

from emulators.driver import modal_values
from tests.asgi import call, slack_headers

pytestmark = pytest.mark.unit


def submission(ticket: str | None, *, view_id: str = "V0001") -> tuple[bytes, dict[str, bytes]]:
    """A signed view_submission of the new-session modal (Slack's shape), and its headers."""
    view = {
        "id": view_id,
        "type": "modal",
        "callback_id": "postmortem",
        "team_id": "T0001",
        "private_metadata": json.dumps({"channel": "C1", "lang": "en"}),
        "state": {"values": modal_values({"ticket": ticket, "summary": "Hang on eviction"})},
    }
    payload = {
        "type": "view_submission",
        "team": {"id": "T0001"},
        "user": {"id": "U1", "team_id": "T0001"},
        "api_app_id": "A1",
        "trigger_id": f"t-{time.time_ns()}",
        "view": view,
    }
    body = urlencode({"payload": json.dumps(payload)}).encode()
    return body, slack_headers(body, content_type=b"application/x-www-form-urlencoded")


def sessions(conn: redis.Redis) -> int:
    return len(conn.keys("pm:session:*"))


def test_a_replayed_submission_makes_one_session(app: Any, redis_conn: redis.Redis) -> None:
    body, headers = submission("PROJ-7")
    answers = [call(app, "/slack/events", [body], headers=headers) for _ in range(3)]
    assert [a.status for a in answers] == [200, 200, 200]
    assert sessions(redis_conn) == 1


def test_a_corrected_resubmission_of_the_same_view_goes_through(app: Any, redis_conn: redis.Redis) -> None:
    wrong, headers = submission("not a key")
    refused = call(app, "/slack/events", [wrong], headers=headers)
    assert refused.status == 200 and b"errors" in refused.body and sessions(redis_conn) == 0
    corrected, headers = submission("PROJ-8")  # same view id, corrected field
    assert call(app, "/slack/events", [corrected], headers=headers).status == 200
    assert sessions(redis_conn) == 1
