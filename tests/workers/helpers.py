"""The jobs' world in tests (a real store, fake Slack, Jira and queues, one installed WorkerContext) and the
session steps the workers' tests start from."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import redis

from renderers.adf import render_adf
from renderers.jira_comment import comment_request
from sessions.conversation import model_of
from sessions.session import Session, State, begin_render
from sessions.store import SessionStore
from tests.sessions.helpers import complete_pm
from tests.workers.fakes import FakeJira, FakeQueue, FakeSlack
from workers import context
from workers.context import Policy, WorkerContext

PARENT_TS = "1699999999.000001"


@dataclass
class World:
    store: SessionStore
    slack: FakeSlack
    jira: FakeJira
    queue: FakeQueue
    handoff: FakeQueue
    redis: redis.Redis
    ctx: WorkerContext


def install_world(
    redis_conn: redis.Redis,
    *,
    slack: FakeSlack | None = None,
    jira: FakeJira | None = None,
    policy: Policy | None = None,
    deployment: str = "cloud",
) -> World:
    """Install a WorkerContext on these fakes (the caller's fixture puts `context._installed` back after);
    `deployment` is the Jira drafted for (`cloud`: the v3 ADF body, `datacenter`: the v2 wiki-markup body)."""
    store, queue, handoff = SessionStore(redis_conn), FakeQueue(), FakeQueue()
    slack = FakeSlack() if slack is None else slack
    jira = FakeJira() if jira is None else jira
    ctx = WorkerContext(
        store=store,
        slack=slack,
        jira=jira,
        queue=queue,
        handoff_queue=handoff,
        policy=policy or Policy(),
        jira_deployment=deployment,
    )
    context.install(ctx)
    return World(store, slack, jira, queue, handoff, redis_conn, ctx)


def new(w: World, **changes: Any) -> Session:
    base = Session(ticket="PROJ-1", requester="U1", channel="C1", thread_ts=PARENT_TS, inputs=complete_pm())
    return w.store.create(base.with_changes(**changes))


def rendering(w: World, **changes: Any) -> Session:
    s = w.store.update(new(w, **changes).id, begin_render)
    assert s is not None and s.state is State.rendering
    return s


def posting(w: World) -> tuple[Session, bytes]:
    """A session approved at v1 with a real Jira request body (of the world's deployment) stored for it."""
    s = rendering(w)
    request = comment_request(render_adf(model_of(s)), deployment=w.ctx.jira_deployment, session=s.id, version=1)
    assert w.store.save_draft(s.id, 1, request.body, request.sha256) is not None
    assert w.store.mark_drafted(s.id, version=1, shown_at=1000.0) is not None
    approved = w.store.approve(s.id, version=1, user="U1")
    assert approved is not None and approved.state is State.posting
    return approved, request.body


def buttons(message: dict[str, Any]) -> list[str]:
    return [e["action_id"] for b in message["blocks"] if b["type"] == "actions" for e in b["elements"]]
