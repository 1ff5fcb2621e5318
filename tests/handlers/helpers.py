"""Sessions, replies and Jira webhook deliveries shared by the handlers' tests and the security tests."""

from __future__ import annotations

import hashlib
import hmac
import json
from typing import Any

from handlers import flow
from handlers.deps import Deps
from sessions.session import Session, State, begin_render
from sessions.store import SessionStore
from tests.handlers.fakes import FakeQueue
from tests.sessions.helpers import complete_pm

THREAD = "1700000000.000100"
APPROVER = "U7"
#: The Jira webhook secret the handlers' tests configure.
SECRET = "jira-webhook-secret"


def stored(store: SessionStore, **changes: Any) -> Session:
    base = Session(ticket="PROJ-1", requester="U1", channel="C1", thread_ts=THREAD, inputs=complete_pm())
    return store.create(base.with_changes(**changes) if changes else base)


def show_next_version(store: SessionStore, session_id: str) -> Session:
    """Render and show the next version as the render job does (shown at t = 1000 + version)."""
    rendering = store.update(session_id, begin_render)
    assert rendering is not None
    body = json.dumps({"body": {"v": rendering.version}}).encode()
    assert store.save_draft(session_id, rendering.version, body, hashlib.sha256(body).hexdigest())
    shown = store.mark_drafted(session_id, version=rendering.version, shown_at=1000.0 + rendering.version)
    assert shown is not None and shown.state is State.drafted
    return shown


def drafted(store: SessionStore, versions: int = 1) -> Session:
    s = stored(store)
    for _ in range(versions):
        s = show_next_version(store, s.id)
    return s


def reply(
    deps: Deps, s: Session, text: str, *, user: str = "U1", ts: str = "2000.000001", event_id: str | None = "Ev1"
) -> None:
    flow.thread_reply(deps, channel=s.channel, thread_ts=THREAD, user=user, text=text, ts=ts, event_id=event_id)


def keys_of(queue: FakeQueue) -> list[tuple[str, str]]:
    return [(e["kind"], e["key"]) for e in queue.effects()]


def jira_event(
    key: str = "PROJ-1",
    *,
    issue_type: str = "Bug",
    category: str = "done",
    status: str = "Done",
    items: list[dict[str, Any]] | None = None,
    account_id: str | None = "acc-1",
    email: str | None = "dev@example.com",
    event: str = "jira:issue_updated",
) -> dict[str, Any]:
    """A Jira Cloud `jira:issue_updated` payload (the fields the bot reads, and some it does not)."""
    assignee = (
        None
        if account_id is None
        else {
            "accountId": account_id,
            "displayName": "Dev",
            "active": True,
            **({"emailAddress": email} if email else {}),
        }
    )
    changes = (
        items
        if items is not None
        else [
            {
                "field": "status",
                "fieldtype": "jira",
                "fieldId": "status",
                "from": "3",
                "fromString": "In Progress",
                "to": "10001",
                "toString": status,
            }
        ]
    )
    return {
        "timestamp": 1_700_000_000_000,
        "webhookEvent": event,
        "issue_event_type_name": "issue_generic",
        "user": {"accountId": "acc-admin", "displayName": "Admin"},
        "issue": {
            "id": "10001",
            "key": key,
            "self": f"https://acme.atlassian.net/rest/api/3/issue/{key}",
            "fields": {
                "summary": "Hang on eviction",
                "issuetype": {"name": issue_type},
                "status": {"name": status, "statusCategory": {"key": category, "id": 3}},
                "resolution": None,
                "assignee": assignee,
            },
        },
        "changelog": {"id": "99", "items": changes},
    }


def sign(body: bytes, secret: str = SECRET) -> str:
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
