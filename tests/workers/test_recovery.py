"""A run that died holding its lease is re-enqueued at the next sweep, once per death, however often it dies;
a job that never started is still left alone until its session is stale."""

from __future__ import annotations

import time

import pytest

from renderers.adf import render_adf
from renderers.jira import jira_request
from sessions.claims import advance_duty, held_claim, post_lock, question_duty, render_lock
from sessions.conversation import model_of
from sessions.session import Session
from tests.workers.helpers import World, posting, rendering
from workers import watchdog
from workers.leases import Lease

pytestmark = pytest.mark.unit

STALE = 30.0


def died_holding(world: World, key: str) -> str:
    """Take a lease as a run does, then die: no more renewals, no release; the lease lapses. Its token."""
    lease = Lease(world.store, key, 3).__enter__()
    assert lease.acquired
    lease._stop.set()  # the worker is gone: its heartbeat with it
    world.store.release_claim(key)  # what the lapse of its lifetime does
    return lease.token


def test_a_lease_given_back_leaves_no_mark_of_a_death(world: World) -> None:
    with Lease(world.store, "some-lock", 3) as lease:
        assert lease.acquired and world.store.noted(held_claim("some-lock")) == lease.token
    assert world.store.noted(held_claim("some-lock")) is None and not world.store.claimed("some-lock")


def test_a_fresh_post_whose_run_died_is_enqueued_again_at_once(world: World) -> None:
    session, _ = posting(world)
    now = time.time()  # the session is fresh: only the death says the post needs a run
    assert watchdog.sweep(world.ctx, stale_after=STALE, now=now) == []
    died_holding(world, post_lock(session.id, 1))
    assert watchdog.sweep(world.ctx, stale_after=STALE, now=now) == [f"post_comment:{session.id}"]
    assert watchdog.sweep(world.ctx, stale_after=STALE, now=now) == []  # once for that death


def test_a_second_death_in_a_row_is_picked_up_as_fast_as_the_first(world: World) -> None:
    session, _ = posting(world)
    now = time.time()
    first = died_holding(world, post_lock(session.id, 1))
    assert watchdog.sweep(world.ctx, stale_after=STALE, now=now) == [f"post_comment:{session.id}"]
    second = died_holding(world, post_lock(session.id, 1))  # the run it enqueued dies too
    assert second != first
    assert watchdog.sweep(world.ctx, stale_after=STALE, now=now) == [f"post_comment:{session.id}"]
    assert [name for name, _, _ in world.queue.enqueued] == ["workers.jobs.post_comment"] * 2


def test_a_live_run_is_left_alone_even_when_an_earlier_one_died(world: World) -> None:
    session, _ = posting(world)
    died_holding(world, post_lock(session.id, 1))
    with Lease(world.store, post_lock(session.id, 1), 3) as lease:
        assert lease.acquired
        assert watchdog.sweep(world.ctx, stale_after=STALE, now=time.time() + 3600) == []


def test_a_fresh_render_whose_run_died_is_enqueued_again_at_once(world: World) -> None:
    session = rendering(world)
    died_holding(world, render_lock(session.id, session.version))
    assert watchdog.sweep(world.ctx, stale_after=STALE, now=time.time()) == [f"render:{session.id}"]


def test_an_approval_question_whose_run_died_is_asked_again_at_once(world: World) -> None:
    session = rendering(world)
    request = jira_request(render_adf(model_of(session)), session=session.id, version=1)
    assert world.store.save_draft(session.id, 1, request.body, request.sha256) is not None
    assert world.store.mark_drafted(session.id, version=1, shown_at=time.time()) is not None
    world.store.owe(question_duty(session.id, 1))  # drafted, the question not yet in the thread
    assert watchdog.sweep(world.ctx, stale_after=STALE, now=time.time()) == [f"question:{session.id}"]
    died_holding(world, render_lock(session.id, 1))  # the run asking it died
    assert watchdog.sweep(world.ctx, stale_after=STALE, now=time.time()) == [f"question:{session.id}"]


def test_a_thread_whose_starting_run_died_is_started_again_at_once(world: World) -> None:
    session = world.store.create(Session(ticket="PROJ-1", requester="U1", channel="C1"))
    world.store.owe(advance_duty(session.id))
    assert watchdog.sweep(world.ctx, stale_after=STALE, now=time.time()) == []  # fresh: a job is on its way
    died_holding(world, advance_duty(session.id))
    assert watchdog.sweep(world.ctx, stale_after=STALE, now=time.time()) == [f"advance:{session.id}"]
