"""The world of the follow-up tests in the worker (tests/workers/test_followups*.py): the loopback Jira emulator on
Cloud and Data Center (the `jira` fixture's two params), a worker context on the real gateway, an approved session."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
import redis

from emulators.jira_cloud import JiraEmulator
from emulators.jira_datacenter import DataCenterJiraEmulator
from sessions.session import Session, State, begin_render
from sessions.store import SessionStore
from tests.sessions.helpers import complete_pm
from tests.workers.fakes import FakeQueue, FakeSlack
from workers import context, drafting
from workers.context import Policy, WorkerContext
from workers.followups import Marks
from workers.jira_gateway import JiraGateway

__all__ = ["ITEMS", "QUIET", "approved", "backdate", "creates", "ctx", "jira", "root", "uploads"]

QUIET = 30.0
ITEMS = [
    {"what": "Alert when the eviction queue stalls", "owner": "Priya", "tracking": "new"},
    {"what": "Fuzz `evict_range`", "owner": "Sam", "tracking": "PAY-77"},
    {"what": "Soak the cache for 24 h", "owner": "Lee", "tracking": " New "},
]


@pytest.fixture(params=["cloud", "datacenter"])
def jira(request: pytest.FixtureRequest) -> Iterator[JiraEmulator]:
    kind = DataCenterJiraEmulator if request.param == "datacenter" else JiraEmulator
    with kind(api_token="t0ken") as emulator:
        emulator.add_issue("PROJ-1")
        yield emulator


@pytest.fixture
def ctx(jira: JiraEmulator, redis_conn: redis.Redis, monkeypatch: pytest.MonkeyPatch) -> WorkerContext:
    monkeypatch.setattr(context, "_installed", [])
    dc = isinstance(jira, DataCenterJiraEmulator)
    gateway = JiraGateway(
        jira.base_url, "" if dc else jira.email, "t0ken", timeout=5, deployment="datacenter" if dc else "cloud"
    )
    installed = WorkerContext(
        store=SessionStore(redis_conn),
        slack=FakeSlack(),
        jira=gateway,  # the real gateway: the follow-up calls go through its `call`
        queue=FakeQueue(),
        handoff_queue=FakeQueue(),
        policy=Policy(quiet_seconds=QUIET, lease_seconds=2.0),
        jira_url=jira.base_url,
        jira_deployment="datacenter" if dc else "cloud",
    )
    context.install(installed)
    return installed


def root(jira: JiraEmulator) -> str:
    return "/rest/api/2" if isinstance(jira, DataCenterJiraEmulator) else "/rest/api/3"


def creates(jira: JiraEmulator) -> list[int]:
    return [p.status for p in jira.posts if p.path == f"{root(jira)}/issue"]


def rendered(ctx: WorkerContext, items: list[dict[str, Any]] = ITEMS) -> Session:
    """A new session with these action items, after the render job ran on it (drafted, or failed when refused)."""
    store = ctx.store
    session = store.create(
        Session(
            ticket="PROJ-1",
            requester="U1",
            channel="C1",
            thread_ts="1.1",
            inputs=complete_pm(action_items=items, action_items_none=False),
        )
    )
    assert store.update(session.id, begin_render) is not None
    drafting.run(ctx, session.id, 1)
    after = store.get(session.id)
    assert after is not None
    return after


def approved(ctx: WorkerContext, items: list[dict[str, Any]] = ITEMS) -> Session:
    """A session drafted by the render job (its follow-ups checked and shown), then approved at v1."""
    drafted = rendered(ctx, items)
    assert drafted.state is State.drafted, drafted
    done = ctx.store.approve(drafted.id, version=1, user="U1")
    assert done is not None
    return done


def uploads(ctx: WorkerContext) -> dict[str, bytes]:
    assert isinstance(ctx.slack, FakeSlack)
    return {c["filename"]: c["content"] for kind, c in ctx.slack.calls if kind == "upload"}


def backdate(ctx: WorkerContext, session: Session, item: int) -> None:
    """The attempt of `item` began a quiet period ago: a search now is conclusive."""
    ctx.store.note(Marks(session.id, 1).attempt(item), repr(time.time() - QUIET - 1), 3600)
