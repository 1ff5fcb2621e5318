"""Follow-up issues stored twice (workers/followup_duplicates.py) against the loopback Jira emulator, Cloud and Data
Center in the same functions: a create stored later than the quiet period is deleted and the recorded key kept, a
delete Jira refuses is named in the thread once, and a doubtful version with no copy deletes and says nothing."""

from __future__ import annotations

import pytest

from emulators.jira_cloud import JiraEmulator
from sessions.session import Session, State
from tests.workers.fakes import FakeQueue, FakeSlack
from tests.workers.followup_world import QUIET, approved, backdate, creates, ctx, jira, root
from workers import duplicates, jobs, posting
from workers.context import WorkerContext
from workers.followups import Marks

pytestmark = pytest.mark.unit

__all__ = ["ctx", "jira"]  # the fixtures (tests/workers/followup_world.py)


def said(ctx: WorkerContext) -> list[str]:
    assert isinstance(ctx.slack, FakeSlack)
    return [str(c["message"]["text"]) for kind, c in ctx.slack.calls if kind == "post"]


def checks(ctx: WorkerContext, session: Session) -> list[float]:
    assert isinstance(ctx.queue, FakeQueue)
    wanted = "workers.jobs.remove_followup_duplicates"
    return [d.total_seconds() for d, name, args in ctx.queue.scheduled if name == wanted and args == (session.id, 1)]


def posted_after_a_repeated_create(ctx: WorkerContext, jira: JiraEmulator, *, stored: bool) -> Session:
    """Item 1's first create gets a 503 (stored behind it or not); the conclusive search misses it (the index lags
    past the quiet period), so item 1 is created again, and the comment is posted with that key."""
    session = approved(ctx)
    jira.inject("POST", f"{root(jira)}/issue", status=503, timeout_after_store=stored)
    jira.followups.index_lag_searches = 1  # each new issue is hidden from the next search
    posting.run(ctx, session.id, 1, 1)
    backdate(ctx, session, 1)
    posting.run(ctx, session.id, 1, 2)
    done = ctx.store.get(session.id)
    assert done is not None and done.state is State.posted
    assert creates(jira) == [503, 201, 201]
    assert checks(ctx, session) == [max(duplicates.DUPLICATE_CHECK_FLOOR_SECONDS, q * QUIET)
                                    for q in duplicates.DUPLICATE_CHECKS]  # fmt: skip
    return done


def recorded(ctx: WorkerContext, session: Session, item: int) -> str:
    key = ctx.store.noted(Marks(session.id, 1).key(item))
    assert key is not None
    return key


def test_an_issue_stored_later_than_the_quiet_period_is_deleted_and_the_commented_key_kept(
    ctx: WorkerContext, jira: JiraEmulator
) -> None:
    session = posted_after_a_repeated_create(ctx, jira, stored=True)
    kept = recorded(ctx, session, 1)
    [late] = [k for k, i in jira.followups.created.items() if k != kept and i.properties["postmortem-bot"]["item"] == 1]
    [comment] = jira.comments("PROJ-1")
    assert kept.encode() in comment.raw and late.encode() not in comment.raw
    before = len(said(ctx))
    jobs.remove_followup_duplicates(session.id, 1)  # the kept copy is still hidden by the index: the late one goes
    assert jira.followups.deletes == [(late, 204)]
    items = sorted(i.properties["postmortem-bot"]["item"] for i in jira.followups.created.values())
    assert items == [1, 3] and kept in jira.followups.created and recorded(ctx, session, 3) in jira.followups.created
    [told] = said(ctx)[before:]
    assert f"action item 1 had two follow-up issues: I deleted the extra one ({late}). {kept}" in told
    for _ in duplicates.DUPLICATE_CHECKS[1:]:  # the later checks: one issue per item, nothing to do or say
        jobs.remove_followup_duplicates(session.id, 1)
    assert jira.followups.deletes == [(late, 204)] and len(said(ctx)) == before + 1


def test_a_copy_jira_will_not_delete_is_named_with_its_link_in_the_thread_once(
    ctx: WorkerContext, jira: JiraEmulator
) -> None:
    jira.followups.no_delete.add("PROJ")  # the bot's account lacks Delete issues
    session = posted_after_a_repeated_create(ctx, jira, stored=True)
    kept = recorded(ctx, session, 1)
    [late] = [k for k in jira.followups.created if k not in (kept, recorded(ctx, session, 3))]
    before = len(said(ctx))
    for _ in duplicates.DUPLICATE_CHECKS:  # every check finds the copy, and Jira refuses each time
        jobs.remove_followup_duplicates(session.id, 1)
    assert [status for key, status in jira.followups.deletes] == [403] * len(duplicates.DUPLICATE_CHECKS)
    assert {key for key, status in jira.followups.deletes} == {late} and late in jira.followups.created
    [told] = said(ctx)[before:]
    assert "action item 1 has two follow-up issues" in told and f"the extra one, {late} (" in told
    assert f"Please delete it: {jira.base_url}/browse/{late}" in told


def test_a_repeated_create_with_nothing_stored_twice_deletes_and_says_nothing(
    ctx: WorkerContext, jira: JiraEmulator
) -> None:
    session = posted_after_a_repeated_create(ctx, jira, stored=False)  # the 503 stored nothing
    before, searches = len(said(ctx)), jira.followups.searches
    for _ in duplicates.DUPLICATE_CHECKS:
        jobs.remove_followup_duplicates(session.id, 1)
    assert jira.followups.searches == searches + len(duplicates.DUPLICATE_CHECKS)  # each check looked
    assert jira.followups.deletes == [] and len(said(ctx)) == before
    assert len(jira.followups.created) == 2


def test_a_version_with_no_repeated_create_schedules_no_check(ctx: WorkerContext, jira: JiraEmulator) -> None:
    session = approved(ctx)
    posting.run(ctx, session.id, 1, 1)
    assert creates(jira) == [201, 201] and checks(ctx, session) == []
