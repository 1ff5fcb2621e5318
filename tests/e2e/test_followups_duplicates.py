"""Follow-up issues stored twice (workers/followup_duplicates.py) end to end: a copy Jira will not delete is named in
the thread once, however many checks find it, and a doubtful version with no copy deletes and says nothing.

Real `serve` and `worker` processes on a real Redis, on Jira Cloud (v3, ADF) and Jira Data Center (v2, wiki markup).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import redis
from rq import Queue
from rq.job import Job
from rq.serializers import JSONSerializer

from bot.localstack import JIRA_DEPLOYMENTS, LocalStack
from tests.e2e.followup_helpers import create_path, followup_stack, made, one_comment_naming, session_id, start
from tests.e2e.helpers import Conversation, wait_until

pytestmark = pytest.mark.e2e

QUIET = 3  # the first check runs 10 s (the floor) after the issues exist
CHECK = "workers.jobs.remove_followup_duplicates"


@pytest.fixture(scope="module", params=JIRA_DEPLOYMENTS)
def stack(request: pytest.FixtureRequest) -> Iterator[LocalStack]:
    with followup_stack(request.param, QUIET) as local:
        yield local


def posted_after_a_repeated_create(stack: LocalStack, project: str, *, stored: bool) -> Conversation:
    """One `new` item whose first create answers 503 (stored behind it or not) while the index lags past the quiet
    period: the item is created again and the comment posted with that key."""
    chat = start(stack, ["Alert on a stalled queue | Priya | new"], prefix=project)
    chat.wait_text("Reply `post it`")
    stack.jira.inject("POST", create_path(stack), status=503, timeout_after_store=stored)
    stack.jira.followups.index_lag_seconds = QUIET * 2
    try:
        chat.reply("yes")
        chat.wait_text(f"Posted to {chat.ticket}", timeout=60)
    finally:
        stack.jira.followups.index_lag_seconds = 0
    return chat


def checks_done(stack: LocalStack, chat: Conversation) -> int:
    """How many duplicate checks of the conversation's session the worker has finished."""
    conn = redis.Redis.from_url(stack.redis_url)
    queue = Queue("postmortem", connection=conn, serializer=JSONSerializer)
    jobs = Job.fetch_many(queue.finished_job_registry.get_job_ids(), connection=conn, serializer=JSONSerializer)
    return sum(1 for j in jobs if j is not None and j.func_name == CHECK and list(j.args) == [session_id(chat), 1])


def deletes_of(stack: LocalStack, keys: set[str]) -> list[tuple[str, int]]:
    return [d for d in stack.jira.followups.deletes if d[0] in keys]


def test_a_copy_jira_will_not_delete_is_named_in_the_thread_once(stack: LocalStack) -> None:
    project = "FDR"
    stack.jira.followups.no_delete.add(project)  # the bot's account lacks Delete issues
    try:
        chat = posted_after_a_repeated_create(stack, project, stored=True)
        [late, kept] = made(stack, chat)
        one_comment_naming(stack, chat, [kept.key])
        told = chat.wait_text("has two follow-up issues", timeout=60)
        assert f"the extra one, {late.key} (" in told["text"] and f"/browse/{late.key}" in told["text"]
        queue = Queue("postmortem", connection=redis.Redis.from_url(stack.redis_url), serializer=JSONSerializer)
        for _ in range(2):  # the later checks, now rather than in minutes
            queue.enqueue(CHECK, session_id(chat), 1)
        wait_until(lambda: checks_done(stack, chat) >= 3, 30, "three checks to finish")
    finally:
        stack.jira.followups.no_delete.discard(project)
    assert deletes_of(stack, {late.key, kept.key}) == [(late.key, 403)] * 3
    assert sum(late.key in m["text"] for m in chat.thread()) == 1
    assert len(made(stack, chat)) == 2  # nothing deleted: a person deletes it from the link


def test_a_repeated_create_with_nothing_stored_twice_deletes_and_says_nothing(stack: LocalStack) -> None:
    chat = posted_after_a_repeated_create(stack, "FDN", stored=False)  # the 503 stored nothing
    [only] = made(stack, chat)
    one_comment_naming(stack, chat, [only.key])
    wait_until(lambda: checks_done(stack, chat) >= 1, 60, "the first duplicate check to finish")
    assert deletes_of(stack, {only.key}) == [] and len(made(stack, chat)) == 1
    assert not any("two follow-up issues" in m["text"] for m in chat.thread())
