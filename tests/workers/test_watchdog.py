"""The watchdog re-enqueues work a dead worker left in rendering or posting, and nothing else."""

from __future__ import annotations

import time

import pytest

from sessions.claims import post_lock
from sessions.retention import job_options
from tests.workers.helpers import World, new, posting, rendering
from workers import jobs, watchdog

pytestmark = pytest.mark.unit

LATER = time.time() + 3600


def test_a_stale_post_without_a_runner_is_enqueued_again_once(world: World) -> None:
    session, _ = posting(world)
    assert watchdog.sweep(world.ctx, stale_after=30, now=LATER) == [f"post_comment:{session.id}"]
    assert world.queue.enqueued == [("workers.jobs.post_comment", (session.id, 1), job_options())]
    assert watchdog.sweep(world.ctx, stale_after=30, now=LATER) == []


def test_a_fresh_post_is_left_alone(world: World) -> None:
    posting(world)
    assert watchdog.sweep(world.ctx, stale_after=30, now=time.time()) == []


def test_a_post_holding_its_lock_or_scheduled_for_retry_is_left_alone(world: World) -> None:
    held, _ = posting(world)
    assert world.store.claim_once(post_lock(held.id, 1), 60)
    assert watchdog.sweep(world.ctx, stale_after=30, now=LATER) == []
    world.store.release_claim(post_lock(held.id, 1))
    assert world.store.claim_once(f"post-scheduled:{held.id}:1", 60)
    assert watchdog.sweep(world.ctx, stale_after=30, now=LATER) == []


def test_a_stale_render_is_enqueued_again(world: World) -> None:
    session = rendering(world)
    assert watchdog.sweep(world.ctx, stale_after=30, now=LATER) == [f"render:{session.id}"]


def test_sessions_that_are_not_in_flight_are_not_indexed(world: World) -> None:
    new(world)
    posted, _ = posting(world)
    assert world.store.record_posted(posted.id, "10001", "https://jira/browse/PROJ-1") is not None
    assert world.store.inflight_ids() == []
    assert watchdog.sweep(world.ctx, stale_after=0, now=LATER) == []


def test_backoff_grows_and_is_capped() -> None:
    assert [jobs.backoff(a) for a in (1, 2, 3, 4, 10)] == [1.0, 2.0, 4.0, 8.0, 30.0]


def test_a_render_that_dies_again_and_again_fails_with_a_retry_instead_of_looping(world: World) -> None:
    session = rendering(world)
    for _ in range(watchdog.MAX_RENDER_SWEEPS):
        assert watchdog.sweep(world.ctx, stale_after=30, now=LATER) == [f"render:{session.id}"]
        assert watchdog.sweep(world.ctx, stale_after=30, now=LATER) == []
        world.store.release_claim(f"sweep:render:{session.id}:{session.version}")  # stale_after passed
    assert watchdog.sweep(world.ctx, stale_after=30, now=LATER) == [f"failed:{session.id}"]
    after = world.store.get(session.id)
    assert after is not None and after.state.value == "failed"
    assert watchdog.sweep(world.ctx, stale_after=30, now=LATER) == []


def test_a_thread_not_started_because_the_worker_died_is_started_again(world: World) -> None:
    from sessions.session import Session

    session = world.store.create(Session(ticket="PROJ-1", requester="U1", channel="C1"))
    duty = jobs.advance_duty(session.id)
    world.store.owe(duty)  # as handlers/form.py does on submission
    assert watchdog.sweep(world.ctx, stale_after=30, now=time.time()) == []
    assert world.store.claim_once(duty, 60)  # a live run holds the lease
    assert watchdog.sweep(world.ctx, stale_after=30, now=LATER) == []
    world.store.release_claim(duty)  # the run died: its lease lapsed
    assert watchdog.sweep(world.ctx, stale_after=30, now=LATER) == [f"advance:{session.id}"]
    jobs.advance(session.id)
    started = world.store.get(session.id)
    assert started is not None and started.thread_ts is not None
    assert world.store.duties() == []
