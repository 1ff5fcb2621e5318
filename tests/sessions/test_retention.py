"""RQ keeps a job's arguments (user text) no longer than a session lives."""

from __future__ import annotations

import pytest
import redis
from rq import Queue
from rq.serializers import JSONSerializer

from handlers.deps import Deps
from sessions.retention import job_options
from sessions.store import DEFAULT_TTL_SECONDS, SessionStore

pytestmark = pytest.mark.unit


def test_every_handler_enqueue_carries_a_failure_ttl_no_longer_than_a_session(redis_conn: redis.Redis) -> None:
    queue = Queue("retention-test", connection=redis_conn, serializer=JSONSerializer)
    deps = Deps(store=SessionStore(redis_conn), queue=queue)
    enqueued = [deps.enqueue("perform", "s1", [{"kind": "say", "key": "posting"}]), deps.enqueue_offer("start_reply")]
    jobs = [queue.fetch_job(e.id) for e in enqueued]  # as RQ stored them
    assert [j.failure_ttl if j else None for j in jobs] == [DEFAULT_TTL_SECONDS, DEFAULT_TTL_SECONDS]
    assert all(j is not None and j.result_ttl is not None and j.result_ttl <= 3600 for j in jobs)
    assert job_options()["failure_ttl"] < 365 * 24 * 3600  # RQ's default is a year
