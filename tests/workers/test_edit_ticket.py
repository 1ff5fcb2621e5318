"""An Edit that changes the ticket is a new start on that ticket: applied only when the ticket exists, the
requester may comment on it and no other open session holds it; otherwise the thread is told why and the
draft stays where it was. On the fakes, then on the real gateways against the Slack and Jira emulators."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest
import redis

from emulators.jira_cloud import JiraEmulator
from emulators.slack_api import SlackEmulator
from postmortem.messages import say
from renderers.adf import render_adf
from renderers.jira import jira_request
from sessions.conversation import model_of
from sessions.session import Session, State, begin_render
from sessions.store import SessionStore
from tests.sessions.helpers import complete_pm
from tests.workers.fakes import FakeQueue
from tests.workers.helpers import World, rendering
from workers import context, jobs
from workers.context import WorkerContext
from workers.jira_gateway import JiraError, JiraGateway
from workers.slack_gateway import SlackGateway, slack_client

pytestmark = pytest.mark.unit


def shown(world_store: SessionStore, session: Session) -> Session:
    """v1 of a rendering session rendered and shown, as the render job leaves it."""
    request = jira_request(render_adf(model_of(session)), session=session.id, version=1)
    assert world_store.save_draft(session.id, 1, request.body, request.sha256) is not None
    drafted = world_store.mark_drafted(session.id, version=1, shown_at=1000.0)
    assert drafted is not None and drafted.state is State.drafted
    return drafted


def started(store: SessionStore, ticket: str, requester: str, thread_ts: str) -> Session:
    """A session rendering its v1 in thread `thread_ts` of C1."""
    created = store.create(
        Session(ticket=ticket, requester=requester, channel="C1", thread_ts=thread_ts, inputs=complete_pm())
    )
    rendering_v1 = store.update(created.id, begin_render)
    assert rendering_v1 is not None
    return rendering_v1


def edited(ticket: str, **changes: Any) -> dict[str, Any]:
    """The fields an Edit form gives (handlers/form.py passes them to the job as they are)."""
    return {**complete_pm(), "ticket": ticket, **changes}


def test_an_edit_to_a_ticket_that_passes_moves_the_draft_and_renders_it_again(world: World) -> None:
    s = shown(world.store, rendering(world))
    jobs.edit_ticket(s.id, 1, edited("PROJ-2", summary="Moved to the right issue."), "U1")
    after = world.store.get(s.id)
    assert after is not None and after.ticket == "PROJ-2" and after.version == 2 and after.state is State.drafted
    assert after.inputs["summary"] == "Moved to the right issue."
    assert world.slack.texts[0] == say("rendering", "en", version=2)
    assert ("issue_exists", {"ticket": "PROJ-2"}) in world.jira.calls


def test_an_edit_to_a_ticket_jira_does_not_have_is_refused_and_changes_nothing(world: World) -> None:
    s = shown(world.store, rendering(world))
    world.jira.missing_issues.add("NOPE-9")
    jobs.edit_ticket(s.id, 1, edited("NOPE-9"), "U1")
    assert world.store.get(s.id) == s
    assert world.slack.texts == [say("edit_ticket_not_found", "en", ticket="NOPE-9", current="PROJ-1")]


def test_an_edit_jira_cannot_check_now_is_refused_and_can_be_tried_again(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    s = shown(world.store, rendering(world))

    def down(ticket: str) -> bool:
        raise JiraError("Jira answered 503.", status=503, retryable=True)

    monkeypatch.setattr(world.jira, "issue_exists", down)
    jobs.edit_ticket(s.id, 1, edited("PROJ-2"), "U1")
    assert world.store.get(s.id) == s
    [text] = world.slack.texts
    assert text.startswith("The edit was not applied: Jira could not say now whether PROJ-2")


def test_an_edit_to_a_ticket_another_open_session_took_meanwhile_is_refused(world: World) -> None:
    s = shown(world.store, rendering(world))
    world.store.create(Session(ticket="PROJ-2", requester="U5", channel="C2"))  # after the form was checked
    jobs.edit_ticket(s.id, 1, edited("PROJ-2"), "U1")
    assert world.store.get(s.id) == s
    assert world.slack.texts == [say("edit_ticket_taken", "en", ticket="PROJ-2", current="PROJ-1")]
    assert world.jira.calls == []  # refused before asking Jira


def test_an_edit_overtaken_by_a_newer_draft_is_not_applied(world: World) -> None:
    s = shown(world.store, rendering(world))
    jobs.edit_ticket(s.id, 0, edited("PROJ-2"), "U1")  # the form was opened on an older version
    after = world.store.get(s.id)
    assert after is not None and after.ticket == "PROJ-1" and after.version == 1
    assert world.slack.texts == [say("edit_draft_changed", "en", version=1)]


# The issue's own case, on the real gateways: a requester who may comment on A but not on B.


@pytest.fixture(scope="module")
def emulators() -> Iterator[tuple[SlackEmulator, JiraEmulator]]:
    with SlackEmulator(bot_token="xoxb-test") as slack, JiraEmulator("bot@example.com", "jira-token") as jira:
        yield slack, jira


@pytest.fixture
def real(
    redis_conn: redis.Redis, emulators: tuple[SlackEmulator, JiraEmulator], monkeypatch: pytest.MonkeyPatch
) -> tuple[WorkerContext, SlackEmulator, JiraEmulator]:
    slack, jira = emulators
    jira.browse_users = True
    ctx = WorkerContext(
        store=SessionStore(redis_conn),
        slack=SlackGateway(slack_client("xoxb-test", slack.base_url)),
        jira=JiraGateway(jira.base_url, "bot@example.com", "jira-token", timeout=5),
        queue=FakeQueue(),
        handoff_queue=FakeQueue(),
        permission_check=True,
    )
    monkeypatch.setattr(context, "_installed", [])
    context.install(ctx)
    return ctx, slack, jira


def test_a_requester_who_may_not_comment_on_the_new_ticket_cannot_move_the_draft_there(
    real: tuple[WorkerContext, SlackEmulator, JiraEmulator],
) -> None:
    ctx, slack, jira = real
    slack.add_user("UREQ1", email="req1@example.com")
    for key in ("MINE-1", "THEIRS-1"):
        jira.add_issue(key)
    jira.grant("acc-req1", "MINE-1", email="req1@example.com")  # may comment on MINE-1 only
    s = shown(ctx.store, started(ctx.store, "MINE-1", "UREQ1", "1700000000.000100"))
    jobs.edit_ticket(s.id, 1, edited("THEIRS-1"), "UREQ1")
    after = ctx.store.get(s.id)
    assert after is not None and after.ticket == "MINE-1" and after.version == 1
    said = [m["text"] for m in slack.messages(channel="C1") if m.get("thread_ts") == s.thread_ts]
    assert said[-1] == say("edit_ticket_hidden", "en", ticket="THEIRS-1", current="MINE-1", requester="UREQ1")
    jobs.edit_ticket(s.id, 1, edited("NOSUCH-1"), "UREQ1")  # a key that does not exist: the same answer
    again = [m["text"] for m in slack.messages(channel="C1") if m.get("thread_ts") == s.thread_ts][-1]
    assert again.replace("NOSUCH-1", "KEY") == said[-1].replace("THEIRS-1", "KEY")
    assert json.loads(ctx.store.draft_body(s.id, 1) or b"{}")["properties"][0]["value"]["session"] == s.id
    approved = ctx.store.approve(s.id, version=1, user="UREQ1")
    assert approved is not None
    jobs.post_comment(s.id, 1)
    assert len(jira.comments("MINE-1")) == 1 and jira.comments("THEIRS-1") == []


def test_the_permission_check_off_still_checks_that_the_ticket_exists(
    real: tuple[WorkerContext, SlackEmulator, JiraEmulator],
) -> None:
    ctx, slack, jira = real
    context.install(replace(ctx, permission_check=False))
    jira.add_issue("OPEN-1")
    s = shown(ctx.store, started(ctx.store, "OPEN-1", "U1", "1700000000.000200"))
    jobs.edit_ticket(s.id, 1, edited("GONE-1"), "U1")
    after = ctx.store.get(s.id)
    assert after is not None and after.ticket == "OPEN-1"
