"""Who may approve and publish: reviewer mode (handlers), and the Jira permission check (workers), the
latter on the real gateways against the Slack and Jira emulators."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace

import pytest
import redis

from emulators.jira_cloud import JiraEmulator
from emulators.slack_api import SlackEmulator
from handlers.deps import Deps
from postmortem.messages import say
from renderers.adf import render_adf
from renderers.jira import jira_request
from renderers.prompts import ACTION_RETRY
from sessions.conversation import model_of
from sessions.session import Session, State, begin_render
from sessions.store import SessionStore
from tests.handlers.fakes import FakeQueue
from tests.handlers.helpers import APPROVER, drafted, keys_of, reply
from tests.sessions.helpers import complete_pm
from tests.workers.fakes import FakeQueue as FakeJobQueue
from workers import context, jobs, permissions
from workers.context import WorkerContext
from workers.jira_gateway import JiraGateway
from workers.slack_gateway import SlackGateway, slack_client

pytestmark = pytest.mark.unit

THREAD = "1700000000.000100"


# reviewer mode ------------------------------------------------------------------------------------


@pytest.fixture
def reviewer(redis_conn: redis.Redis) -> tuple[Deps, FakeQueue]:
    queue = FakeQueue()
    deps = Deps(
        store=SessionStore(redis_conn),
        queue=queue,
        approvers=frozenset({APPROVER, "U1"}),
        approval="reviewer",
    )
    return deps, queue


def test_in_reviewer_mode_the_requester_cannot_approve_their_own(reviewer: tuple[Deps, FakeQueue]) -> None:
    deps, queue = reviewer
    s = drafted(deps.store)  # requested by U1, who is also an approver
    reply(deps, s, "post it", user="U1")
    after = deps.store.get(s.id)
    assert after is not None and after.state is State.drafted and after.approved_version is None
    assert keys_of(queue) == [("say", "needs_reviewer")]
    assert not any(e["kind"] == "post" for e in queue.effects())


def test_in_reviewer_mode_another_approver_approves(reviewer: tuple[Deps, FakeQueue]) -> None:
    deps, queue = reviewer
    s = drafted(deps.store)
    reply(deps, s, "post it", user=APPROVER)
    after = deps.store.get(s.id)
    assert after is not None and after.state is State.posting and after.approved_by == APPROVER
    assert keys_of(queue) == [("say", "posting"), ("post", "")]


def test_the_store_refuses_a_self_approval_in_reviewer_mode(redis_conn: redis.Redis) -> None:
    s = drafted(SessionStore(redis_conn))
    store = SessionStore(redis_conn)
    assert store.approve(s.id, version=1, user="U1", approvers=frozenset({"U1"}), reviewer=True) is None
    assert store.approve(s.id, version=1, user="U7", approvers=frozenset({"U7"}), reviewer=True) is not None


# the Jira permission check ------------------------------------------------------------------------


@dataclass
class World:
    store: SessionStore
    slack: SlackEmulator
    jira: JiraEmulator
    ctx: WorkerContext


@pytest.fixture(scope="module")
def emulators() -> Iterator[tuple[SlackEmulator, JiraEmulator]]:
    with SlackEmulator(bot_token="xoxb-test") as slack, JiraEmulator("bot@example.com", "jira-token") as jira:
        yield slack, jira


@pytest.fixture
def world(
    redis_conn: redis.Redis, emulators: tuple[SlackEmulator, JiraEmulator], monkeypatch: pytest.MonkeyPatch
) -> World:
    slack, jira = emulators
    jira.browse_users = True
    store = SessionStore(redis_conn)
    ctx = WorkerContext(
        store=store,
        slack=SlackGateway(slack_client("xoxb-test", slack.base_url)),
        jira=JiraGateway(jira.base_url, "bot@example.com", "jira-token", timeout=5),
        queue=FakeJobQueue(),
        handoff_queue=FakeJobQueue(),
        permission_check=True,
    )
    monkeypatch.setattr(context, "_installed", [])
    context.install(ctx)
    return World(store, slack, jira, ctx)


_keys = iter(range(100, 10_000))


def approved_by(w: World, user: str) -> Session:
    """A fresh issue and a session approved at v1 by `user`, its real request body stored."""
    ticket = f"PERM-{next(_keys)}"
    w.jira.add_issue(ticket)
    s = w.store.create(Session(ticket=ticket, requester=user, channel="C1", thread_ts=THREAD, inputs=complete_pm()))
    s = w.store.update(s.id, begin_render) or s
    request = jira_request(render_adf(model_of(s)), session=s.id, version=1)
    assert w.store.save_draft(s.id, 1, request.body, request.sha256) is not None
    assert w.store.mark_drafted(s.id, version=1, shown_at=1000.0) is not None
    approved = w.store.approve(s.id, version=1, user=user)
    assert approved is not None
    return approved


def thread_texts(w: World) -> list[str]:
    return [str(m.get("text")) for m in w.slack.messages(channel="C1") if m.get("thread_ts") == THREAD]


def test_an_approver_who_may_comment_in_jira_posts(world: World) -> None:
    world.slack.add_user("UOK1", email="ok1@example.com")
    s = approved_by(world, "UOK1")
    world.jira.grant("acc-ok1", s.ticket, email="ok1@example.com")
    jobs.post_comment(s.id, 1)
    after = world.store.get(s.id)
    assert after is not None and after.state is State.posted and len(world.jira.comments(s.ticket)) == 1


@pytest.mark.parametrize(
    "case, key",
    [
        ("no slack e-mail", "perm_no_email"),
        ("no jira account", "perm_refused"),
        ("no permission on this issue", "perm_refused"),
        ("e-mail hidden in jira", "perm_refused"),
        ("bot may not browse users", "perm_unchecked"),
    ],
)
def test_a_refused_approver_posts_nothing_and_is_told_why(world: World, case: str, key: str) -> None:
    user = f"UR{abs(hash(case)) % 10_000}"
    email = f"{user.lower()}@example.com"
    world.slack.add_user(user, email=None if case == "no slack e-mail" else email)
    s = approved_by(world, user)
    if case == "no permission on this issue":
        world.jira.grant(f"acc-{user}", "OTHER-1", email=email)
    if case in ("e-mail hidden in jira", "bot may not browse users"):
        world.jira.grant(f"acc-{user}", s.ticket, email=email, email_hidden=case == "e-mail hidden in jira")
    world.jira.browse_users = case != "bot may not browse users"
    jobs.post_comment(s.id, 1)
    after = world.store.get(s.id)
    assert after is not None and after.state is State.failed
    assert world.jira.comments(s.ticket) == []
    told = say(key, "en", user=f"<@{user}>", ticket=s.ticket, reason="").split("<@")[0]
    assert any(t.startswith(told) for t in thread_texts(world))
    retry = [m for m in world.slack.messages(channel="C1") if ACTION_RETRY in str(m.get("blocks"))]
    assert retry, "the refusal offers Retry"


def test_the_check_is_off_when_configured(world: World) -> None:
    s = approved_by(world, "UOFF1")  # no Slack e-mail, no Jira user
    context.install(replace(world.ctx, permission_check=False))
    jobs.post_comment(s.id, 1)
    after = world.store.get(s.id)
    assert after is not None and after.state is State.posted


def test_missing_and_forbidden_issues_get_the_same_answer_at_the_start(world: World) -> None:
    world.slack.add_user("UST1", email="st1@example.com")
    world.jira.add_issue("SEEN-1")
    world.jira.grant("acc-st1", "SEEN-1", email="st1@example.com")
    world.jira.add_issue("HIDDEN-1")  # exists; UST1 may not see it
    assert permissions.may_comment(world.ctx, "UST1", "SEEN-1")
    assert not permissions.may_comment(world.ctx, "UST1", "HIDDEN-1")
    assert not permissions.may_comment(world.ctx, "UST1", "NOSUCH-1")
    answers = []
    for ticket in ("HIDDEN-1", "NOSUCH-1"):
        s = world.store.create(
            Session(ticket=ticket, requester="UST1", channel="C1", thread_ts=THREAD, inputs=complete_pm())
        )
        before = len(thread_texts(world))
        jobs.advance(s.id)
        answers.append(thread_texts(world)[before:][0].replace(ticket, "KEY"))
        after = world.store.get(s.id)
        assert after is not None and after.pending_field == "ticket"
    assert answers[0] == answers[1]


@pytest.mark.parametrize("fault", ["jira 503", "jira 429", "slack 503", "slack internal_error"])
def test_slack_or_jira_failing_the_check_for_now_retries_the_post_instead_of_refusing(world: World, fault: str) -> None:
    context.install(
        replace(world.ctx, slack=SlackGateway(slack_client("xoxb-test", world.slack.base_url, retry_window=0)))
    )
    world.slack.add_user("UTMP1", email="tmp1@example.com")
    s = approved_by(world, "UTMP1")
    world.jira.grant("acc-tmp1", s.ticket, email="tmp1@example.com")
    if fault.startswith("jira"):
        world.jira.inject("GET", "/rest/api/3/user/permission/search", status=int(fault.split()[1]), retry_after=2)
    else:
        world.slack.fail_next(
            "users.info",
            "service_unavailable" if fault == "slack 503" else "internal_error",
            status=503 if fault == "slack 503" else 200,
        )
    jobs.post_comment(s.id, 1)
    waiting = world.store.get(s.id)
    assert waiting is not None and waiting.state is State.posting and world.jira.comments(s.ticket) == []
    queue: FakeJobQueue = current_queue()
    _, name, args = queue.scheduled[-1]
    assert name == "workers.jobs.post_comment" and args == (s.id, 1, 2)
    jobs.post_comment(*args)  # Slack and Jira answer again
    after = world.store.get(s.id)
    assert after is not None and after.state is State.posted and len(world.jira.comments(s.ticket)) == 1


def test_a_check_jira_cannot_answer_at_the_start_does_not_stop_the_session(world: World) -> None:
    world.slack.add_user("UST9", email="st9@example.com")
    world.jira.add_issue("BUSY-1")
    world.jira.inject("GET", "/rest/api/3/user/permission/search", status=503)
    assert permissions.may_comment(world.ctx, "UST9", "BUSY-1")  # the post checks again


def current_queue() -> FakeJobQueue:
    queue = context.current().queue
    assert isinstance(queue, FakeJobQueue)
    return queue
