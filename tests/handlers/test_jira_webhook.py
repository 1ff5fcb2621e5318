"""`POST /jira/webhook`: signature first, then parse, dedupe, decide, enqueue; on a real store, fake queue."""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace
from typing import Any

import pytest
import redis
from pydantic import SecretStr
from starlette.requests import Request
from starlette.responses import Response

from handlers import jira_webhook
from handlers.deps import Deps
from handlers.jira_webhook import receive, signature_ok
from handlers.storecalls import StoreCalls
from sessions.session import Session
from sessions.store import SessionStore
from tests.handlers.fakes import FakeQueue
from tests.handlers.helpers import SECRET, jira_event, sign

pytestmark = pytest.mark.unit


def deliver(
    deps: Deps, payload: Any, *, delivery: str | None = "d-1", signature: str | None = None, raw: bytes | None = None
) -> tuple[int, dict[str, Any]]:
    body = raw if raw is not None else json.dumps(payload).encode()
    return receive(deps, body, signature=sign(body) if signature is None else signature, delivery=delivery)


def test_a_bug_resolved_offers_to_its_assignee(deps: Deps, queue: FakeQueue) -> None:
    status, answer = deliver(deps, jira_event())
    assert (status, answer) == (202, {"ok": True, "offered": "PROJ-1"})
    assert [(c.name, c.args) for c in queue.calls] == [
        ("workers.offers.offer_assignee", ("PROJ-1", "acc-1", "dev@example.com", None, "Dev", None))
    ]


def test_a_missing_email_is_left_to_the_worker_to_look_up(deps: Deps, queue: FakeQueue) -> None:
    assert deliver(replace(deps, default_lang="ja"), jira_event(email=None))[0] == 202
    assert queue.calls[0].args == ("PROJ-1", "acc-1", None, "ja", "Dev", None)


def test_a_resolution_set_counts_as_resolved(deps: Deps, queue: FakeQueue) -> None:
    items = [{"field": "resolution", "fieldId": "resolution", "from": None, "to": "10000", "toString": "Fixed"}]
    assert deliver(deps, jira_event(category="indeterminate", items=items))[0] == 202


@pytest.mark.parametrize(
    ("payload", "reason"),
    [
        (jira_event(issue_type="Story"), "not a Bug"),
        (jira_event(category="indeterminate", status="In Review"), "not a transition into a resolved status"),
        (
            jira_event(items=[{"field": "summary", "fieldId": "summary", "toString": "new title"}]),
            "not a transition into a resolved status",
        ),
        (
            jira_event(
                items=[{"field": "resolution", "fieldId": "resolution", "to": None, "toString": None}],
                category="indeterminate",
            ),
            "not a transition into a resolved status",
        ),
        (jira_event(account_id=None), "no assignee"),
        (jira_event(event="jira:issue_created"), "not an issue update"),
    ],
)
def test_no_offer_for_other_issues_and_transitions(
    deps: Deps, queue: FakeQueue, payload: dict[str, Any], reason: str
) -> None:
    assert deliver(deps, payload) == (200, {"ok": True, "ignored": reason})
    assert queue.calls == []


@pytest.mark.parametrize(
    "signature",
    [
        "",
        "sha256=" + "0" * 64,
        "sha1=abc",
        sign(b"other body"),
        sign(json.dumps(jira_event()).encode(), "wrong-secret"),
    ],
)
def test_a_bad_signature_is_401_and_does_nothing(
    deps: Deps, queue: FakeQueue, redis_conn: redis.Redis, signature: str
) -> None:
    assert deliver(deps, jira_event(), signature=signature)[0] == 401
    assert queue.calls == [] and redis_conn.dbsize() == 0


def test_without_a_configured_secret_everything_is_401(deps: Deps, queue: FakeQueue) -> None:
    for secret in (None, SecretStr("")):
        status, answer = deliver(replace(deps, jira_webhook_secret=secret), jira_event(), signature=sign(b"", ""))
        assert status == 401 and "JIRA_WEBHOOK_SECRET" in answer["error"]
    assert queue.calls == []


@pytest.mark.parametrize(
    "raw",
    [
        b"",
        b"not json",
        b"[]",
        b'{"webhookEvent": ""}',
        b'{"issue": {}}',
        b'{"webhookEvent": "jira:issue_updated"}',
        b'{"webhookEvent": "jira:issue_updated", "issue": {"key": "bad key"}}',
    ],
)
def test_a_signed_but_malformed_payload_is_400(deps: Deps, queue: FakeQueue, raw: bytes) -> None:
    assert deliver(deps, None, raw=raw)[0] == 400
    assert queue.calls == []


def test_a_duplicate_delivery_is_ignored(deps: Deps, queue: FakeQueue) -> None:
    assert deliver(deps, jira_event(), delivery="d-9")[0] == 202
    assert deliver(deps, jira_event(), delivery="d-9") == (200, {"ok": True, "ignored": "duplicate delivery"})
    assert len(queue.calls) == 1


def test_without_a_delivery_id_the_body_deduplicates(deps: Deps, queue: FakeQueue) -> None:
    assert deliver(deps, jira_event(), delivery=None)[0] == 202
    assert deliver(deps, jira_event(), delivery=None)[1]["ignored"] == "duplicate delivery"


def test_one_offer_per_ticket_across_deliveries(deps: Deps, queue: FakeQueue) -> None:
    assert deliver(deps, jira_event(), delivery="d-1")[0] == 202
    assert deliver(deps, jira_event(), delivery="d-2")[1]["ignored"] == "already offered for this ticket"
    assert len(queue.calls) == 1


def test_no_offer_when_a_session_exists_or_offers_are_off(deps: Deps, queue: FakeQueue) -> None:
    deps.store.create(Session(ticket="PROJ-1", requester="U1", channel="C1"))  # indexed by its ticket
    assert deliver(deps, jira_event(), delivery="d-1")[1]["ignored"].startswith("a post-mortem session exists")
    assert deliver(replace(deps, offers_enabled=False), jira_event("PROJ-2"), delivery="d-2")[1] == {
        "ok": True,
        "ignored": "offers are off",
    }
    assert queue.calls == []


def test_signature_check_is_on_the_exact_bytes() -> None:
    body = json.dumps(jira_event()).encode()
    assert signature_ok(SECRET, body, sign(body))
    assert signature_ok(SECRET, body, sign(body).upper().replace("SHA256=", "sha256="))
    assert not signature_ok(SECRET, body + b" ", sign(body))
    assert not signature_ok(SECRET, body, None)


# the Starlette endpoint ---------------------------------------------------------------------------


def call(deps: Deps, body: bytes, headers: dict[str, str]) -> tuple[int, dict[str, Any]]:
    chunks = [body[i : i + 65536] for i in range(0, len(body), 65536)] or [b""]
    messages = [{"type": "http.request", "body": c, "more_body": i < len(chunks) - 1} for i, c in enumerate(chunks)]

    async def receive_() -> dict[str, Any]:
        return messages.pop(0)

    scope = {
        "type": "http",
        "method": "POST",
        "path": "/jira/webhook",
        "query_string": b"",
        "headers": [(k.lower().encode(), v.encode()) for k, v in headers.items()],
    }

    async def run() -> Response:
        return await jira_webhook.endpoint(deps, StoreCalls())(Request(scope, receive_))

    response = asyncio.run(run())
    return response.status_code, json.loads(bytes(response.body))


def test_the_endpoint_reads_jiras_headers(deps: Deps, queue: FakeQueue) -> None:
    body = json.dumps(jira_event()).encode()
    headers = {
        "X-Hub-Signature": sign(body),
        "X-Atlassian-Webhook-Identifier": "abc",
        "Content-Type": "application/json",
    }
    assert call(deps, body, headers)[0] == 202
    assert call(deps, body, headers) == (200, {"ok": True, "ignored": "duplicate delivery"})
    assert call(deps, body, {"X-Atlassian-Webhook-Identifier": "abd"})[0] == 401


def test_the_endpoint_refuses_huge_bodies(deps: Deps, queue: FakeQueue) -> None:
    body = b"x" * (jira_webhook.MAX_BODY_BYTES + 1)
    assert call(deps, body, {"X-Hub-Signature": sign(body)})[0] == 413


def test_a_store_outage_is_503_so_jira_retries(deps: Deps, queue: FakeQueue) -> None:
    down = redis.Redis(host="127.0.0.1", port=1, socket_connect_timeout=0.2)
    body = json.dumps(jira_event()).encode()
    status, _ = call(replace(deps, store=SessionStore(down), redis=down), body, {"X-Hub-Signature": sign(body)})
    assert status == 503


# POSTMORTEM_JIRA_ISSUE_TYPES (f-home) -------------------------------------------------------------


def typed(name: str, type_id: str = "") -> dict[str, Any]:
    event = jira_event()
    event["issue"]["fields"]["issuetype"] = {"name": name, **({"id": type_id} if type_id else {})}
    return event


@pytest.mark.parametrize(
    ("configured", "name", "type_id", "offered"),
    [
        (frozenset({"Bug", "バグ"}), "バグ", "10004", True),  # a Jira site in Japanese, by default
        (frozenset({"Bug", "バグ"}), "bug", "", True),  # names ignore case
        (frozenset({"Bug", "バグ"}), "Defect", "10004", False),  # a renamed type is not a Bug by name...
        (frozenset({"10004"}), "Defect", "10004", True),  # ...but its configured id still counts
        (frozenset({"10004"}), "Bug", "10001", False),  # only the configured id when ids are given
        (frozenset({"Production Bug"}), "production bug", "", True),
    ],
)
def test_the_configured_issue_types_earn_the_offer(
    deps: Deps, queue: FakeQueue, configured: frozenset[str], name: str, type_id: str, offered: bool
) -> None:
    status, answer = deliver(replace(deps, jira_issue_types=configured), typed(name, type_id))
    assert (status == 202) is offered, answer
    assert bool(queue.calls) is offered


def test_the_fallback_channel_and_display_name_ride_along(deps: Deps, queue: FakeQueue) -> None:
    assert deliver(replace(deps, offer_fallback_channel="CFALL"), jira_event())[0] == 202
    assert queue.calls[0].args[-2:] == ("Dev", "CFALL")


def test_a_data_center_payload_offers_to_the_assignee_named_by_user_key(deps: Deps, queue: FakeQueue) -> None:
    """Data Center / Server names users by key and login (no accountId) and its changelog items have no fieldId."""
    payload = jira_event()
    payload["issue"]["fields"]["assignee"] = {
        "self": "https://jira.example.com/rest/api/2/user?username=dev",
        "name": "dev",
        "key": "JIRAUSER10100",
        "emailAddress": "dev@example.com",
        "displayName": "Dev",
        "active": True,
    }
    for item in payload["changelog"]["items"]:
        item.pop("fieldId", None)
    assert deliver(deps, payload)[0] == 202
    assert queue.calls[0].args == ("PROJ-1", "JIRAUSER10100", "dev@example.com", None, "Dev", None)
