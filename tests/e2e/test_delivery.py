"""Delivery promises under faults: one comment per approved version, nothing lost, Slack's clock.

Real `serve` and `worker` processes on a real Redis; faults come from the Jira emulator's injections and
from killing processes. Jira calls time out after 2 s here and the watchdog sweeps every second. Every test
runs against Jira Cloud (REST v3, ADF) and Jira Data Center (REST v2, wiki markup, a personal access token).
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from itertools import count

import pytest
import redis
from rq import Queue
from rq.serializers import JSONSerializer

from bot.localstack import BOT_TOKEN, JIRA_DEPLOYMENTS, JIRA_TOKEN, SIGNING_SECRET, LocalStack, free_port
from renderers.adf import render_adf
from renderers.jira_comment import comment_request
from sessions.session import Session, begin_render
from sessions.store import SessionStore
from tests.e2e.helpers import Conversation, comment_posts, example_fields, posted_once, running_stack
from tests.sessions.helpers import complete_pm

pytestmark = pytest.mark.e2e

TICKETS = count(1)
APPROVER = "U_APPROVER"


@pytest.fixture(scope="module", params=JIRA_DEPLOYMENTS)
def stack(request: pytest.FixtureRequest) -> Iterator[LocalStack]:
    with running_stack(
        {
            "JIRA_TIMEOUT": "2",
            "POSTMORTEM_WATCHDOG_SECONDS": "1",
            "POSTMORTEM_APPROVERS": APPROVER,
            "POSTMORTEM_POST_QUIET_SECONDS": "3",
        },
        deployment=request.param,
    ) as local:
        yield local
    assert_no_secret_leaked(local)


def assert_no_secret_leaked(stack: LocalStack) -> None:
    """Promise 4: no configured secret in the logs of the whole run, in Slack or in Jira."""
    seen = [
        stack.logs(),
        json.dumps(stack.slack.messages(), default=str),
        json.dumps(stack.slack.ephemerals(), default=str),
        b"".join(p.body for p in stack.jira.posts).decode("utf-8", "replace"),
    ]
    for secret in (BOT_TOKEN, SIGNING_SECRET, JIRA_TOKEN):
        assert not any(secret in text for text in seen), f"secret {secret[:6]}… leaked"


def drafted(stack: LocalStack) -> Conversation:
    chat = Conversation(stack, ticket=f"DLV-{next(TICKETS)}")
    chat.start(example_fields("cache-eviction.en", why_symptom="`evict_range` stops early.", how_found="`git bisect`."))
    chat.wait_text("Reply `post it`")
    return chat


def test_slack_retries_of_the_approval_event_post_once(stack: LocalStack) -> None:
    chat = drafted(stack)
    for retry in (None, 1, 2, 3):
        chat.reply("yes", event_id="EvSAMEAPPROVAL" + chat.ticket.replace("-", ""), retry_num=retry)
    posted_once(stack, chat)
    assert sum("Approved by" in m["text"] for m in chat.thread()) == 1


def test_two_yeses_and_two_approvers_at_once_post_once(stack: LocalStack) -> None:
    chat = drafted(stack)
    with ThreadPoolExecutor(4) as pool:
        list(pool.map(lambda who: chat.reply("yes", user=who), ["U1", "U1", APPROVER, APPROVER]))
    posted_once(stack, chat)
    assert comment_posts(stack, chat.ticket) == [201]


def test_the_post_job_enqueued_twice_posts_once(stack: LocalStack) -> None:
    chat = drafted(stack)
    conn = redis.Redis.from_url(stack.redis_url)
    session = SessionStore(conn).find_by_thread(chat.channel, chat.thread_ts)
    assert session is not None
    chat.reply("go ahead")
    queue = Queue("postmortem", connection=conn, serializer=JSONSerializer)
    for _ in range(2):
        queue.enqueue("workers.jobs.post_comment", session.id, 1)
    posted_once(stack, chat)
    assert comment_posts(stack, chat.ticket) == [201]


def test_429_with_retry_after_is_honoured_then_posts_once(stack: LocalStack) -> None:
    chat = drafted(stack)
    stack.jira.inject("POST", stack.comment_path(chat.ticket), status=429, retry_after=1)
    chat.reply("yes")
    posted_once(stack, chat)
    assert comment_posts(stack, chat.ticket) == [429, 201]


def test_503_twice_then_201_posts_once(stack: LocalStack) -> None:
    chat = drafted(stack)
    stack.jira.inject("POST", stack.comment_path(chat.ticket), status=503, times=2)
    chat.reply("yes")
    posted_once(stack, chat)
    assert comment_posts(stack, chat.ticket) == [503, 503, 201]


def test_a_timeout_after_jira_stored_the_comment_is_recorded_not_reposted(stack: LocalStack) -> None:
    chat = drafted(stack)
    stack.jira.inject("POST", stack.comment_path(chat.ticket), timeout_after_store=True, stall=10)
    chat.reply("yes")
    posted_once(stack, chat)
    assert len(comment_posts(stack, chat.ticket)) == 1
    stack.jira.release()


def test_a_503_after_jira_stored_the_comment_is_found_not_reposted(stack: LocalStack) -> None:
    chat = drafted(stack)
    stack.jira.inject("POST", stack.comment_path(chat.ticket), status=503, timeout_after_store=True)
    chat.reply("yes")
    posted_once(stack, chat)
    assert comment_posts(stack, chat.ticket) == [503]  # stored once; the 503 made it search, not post again


def test_worker_killed_after_the_post_reached_jira_is_recovered_within_two_minutes(stack: LocalStack) -> None:
    chat = drafted(stack)
    stack.jira.inject("POST", stack.comment_path(chat.ticket), timeout_after_store=True, stall=60)
    chat.reply("yes")
    stack.jira.wait_for(lambda j: j.comments(chat.ticket), timeout=20)
    stack.processes["worker"].stop(kill=True)  # SIGKILL to the worker and its work horse
    killed_at = time.monotonic()
    stack.start_worker("worker-2")
    posted_once(stack, chat, within=120)  # promise 2: the thread learns the outcome within 2 minutes
    print(f"\nrecovered {time.monotonic() - killed_at:.1f} s after the SIGKILL")
    assert len(comment_posts(stack, chat.ticket)) == 1
    stack.jira.release()


def test_jira_failures_are_told_plainly_and_retry_posts_once(stack: LocalStack) -> None:
    chat = drafted(stack)
    stack.jira.inject("POST", stack.comment_path(chat.ticket), status=401)
    chat.reply("yes")
    failed = chat.wait_text("rejected the bot's credentials")
    assert any(e.get("action_id") == "postmortem_retry" for b in failed["blocks"] for e in b.get("elements", []))
    chat.click("postmortem_retry", message=failed)
    posted_once(stack, chat)
    assert comment_posts(stack, chat.ticket) == [401, 201]


def test_an_unknown_ticket_is_asked_again(stack: LocalStack) -> None:
    chat = Conversation(stack, ticket=f"NOPE-{next(TICKETS)}")
    chat.start(example_fields("cache-eviction.en", why_symptom="a", how_found="b"), in_jira=False)
    chat.wait_text(f"Jira has no issue {chat.ticket}")
    real = f"DLV-{next(TICKETS)}"
    stack.jira.add_issue(real)
    chat.reply(real)
    chat.wait_text("Reply `post it`")
    assert chat.files()[-1]["name"] == f"{real}-postmortem-v1.json"


def test_burst_of_approvals_with_two_workers_posts_each_once(stack: LocalStack) -> None:
    store = SessionStore(redis.Redis.from_url(stack.redis_url))
    sessions = [_seed_drafted(stack, store, i) for i in range(200)]
    if "worker-b" not in stack.processes:
        stack.start_worker("worker-b")
    driver = stack.driver()
    started = time.monotonic()
    with ThreadPoolExecutor(20) as pool:
        statuses = list(
            pool.map(
                lambda s: driver.message("yes", user=s.requester, channel=s.channel, thread_ts=s.thread_ts).status_code,
                sessions,
            )
        )
    assert statuses == [200] * 200
    stack.jira.wait_for(lambda j: all(j.comments(s.ticket) for s in sessions), timeout=120)
    elapsed = time.monotonic() - started
    assert all(len(stack.jira.comments(s.ticket)) == 1 for s in sessions)
    print(f"\nburst: 200 approvals -> 200 comments in {elapsed:.1f} s with 2 workers")


def _seed_drafted(stack: LocalStack, store: SessionStore, i: int) -> Session:
    """A session at drafted(v1) with its exact body, as the render job leaves it (fast to set up)."""
    ticket = f"BURST-{i + 1}"
    stack.jira.add_issue(ticket)
    channel, thread_ts = f"CB{i:04d}", stack.slack.next_ts()
    session = store.create(
        Session(ticket=ticket, requester="U1", channel=channel, thread_ts=thread_ts, inputs=complete_pm())
    )
    rendering = store.update(session.id, begin_render)
    assert rendering is not None
    from sessions.conversation import model_of

    adf = render_adf(model_of(rendering))
    request = comment_request(adf, deployment=stack.deployment, session=session.id, version=1)
    assert store.save_draft(session.id, 1, request.body, request.sha256) is not None
    shown = store.mark_drafted(session.id, version=1, shown_at=float(thread_ts), message_ts=thread_ts)
    assert shown is not None
    return shown


def test_restarting_bot_and_worker_loses_nothing(stack: LocalStack) -> None:
    chat = Conversation(stack, ticket=f"DLV-{next(TICKETS)}")
    fields = example_fields("cache-eviction.en", why_symptom="a", how_found="b")
    validation = fields.pop("validation")
    chat.start(fields)
    chat.wait_text("start with *Validation*")
    for name in [n for n in stack.processes if n.startswith("worker")] + ["serve"]:
        stack.processes.pop(name).stop()
    stack.start_process("serve", "--host", "127.0.0.1").wait_for_line("Uvicorn running on")
    stack.start_worker("worker")
    chat.reply(validation)
    chat.wait_text("Reply `post it`")
    chat.reply("yes")
    posted_once(stack, chat)


def test_slack_is_answered_within_3s_when_redis_is_down() -> None:
    dead = f"redis://127.0.0.1:{free_port()}/0"
    local = LocalStack(redis_url=dead)
    local.slack.start()
    local.jira.start()
    try:
        local.start_process("serve", "--host", "127.0.0.1").wait_for_line("Uvicorn running on")
        driver = local.driver()
        started = time.monotonic()
        assert driver.slash_command(text="PROJ-1").status_code == 200
        local.slack.wait_for(lambda s: s.views)
        from emulators.driver import modal_values

        submitted = driver.view_submission(values=modal_values({"ticket": "PROJ-1", "summary": "x"}))
        reply = driver.message("yes", thread_ts="1700000000.000001")
        elapsed = time.monotonic() - started
        # A thread reply may be an approval: never a silent 200, Slack sends a non-2xx event again.
        assert submitted.status_code == 200 and reply.status_code == 503
        errors = submitted.json()
        assert errors["response_action"] == "errors" and "unavailable" in errors["errors"]["ticket"]
        assert elapsed < 3.0, f"Slack waited {elapsed:.2f} s"
    finally:
        local.stop()


def test_no_secret_in_the_error_texts_of_a_jira_outage(stack: LocalStack) -> None:
    chat = drafted(stack)
    stack.jira.inject("POST", stack.comment_path(chat.ticket), status=403)
    chat.reply("yes")
    failed = chat.wait_text("no permission")
    assert JIRA_TOKEN not in failed["text"] and BOT_TOKEN not in failed["text"]


def test_edits_deletions_other_threads_old_buttons_and_broken_payloads_change_nothing(stack: LocalStack) -> None:
    chat = drafted(stack)
    driver = chat.driver
    before = len(chat.thread())
    sent = [
        driver.message("yes", channel=chat.channel, thread_ts=chat.thread_ts, subtype="message_changed"),
        driver.message("yes", channel=chat.channel, thread_ts=chat.thread_ts, subtype="message_deleted"),
        driver.message("yes", channel=chat.channel, thread_ts="1600000000.000001"),  # another thread
        driver.message("yes", channel="C_ELSEWHERE", thread_ts=chat.thread_ts),  # same ts, other channel
        driver.block_action("postmortem_cancel", "no-such-session", channel_id=chat.channel),
        driver.block_action("postmortem_retry", "", channel_id=chat.channel),
        driver.post(b"payload=%7B%22type%22%3A%22block_actions%22%7D", "application/x-www-form-urlencoded"),
        driver.event({"type": "message", "channel": chat.channel, "thread_ts": chat.thread_ts}),  # no user
        driver.event({"type": "message"}),
    ]
    # Old buttons, other threads and events without a user are acknowledged and ignored; a block_actions
    # payload without the parts Bolt reads is refused (400): never a 500, never an action.
    assert [r.status_code for r in sent] == [200] * 6 + [400, 200, 200]
    chat.reply("summary: The cache served stale pages after `compact()`.")  # a real change still works after
    chat.wait_text("to post v2")
    assert stack.jira.comments(chat.ticket) == []
    assert not any("Approved by" in m["text"] for m in chat.thread()[before:])
    serve_log = "\n".join(line for line in stack.logs().splitlines() if line.startswith("[serve]"))
    assert "Traceback" not in serve_log


def test_an_approval_of_an_older_version_does_not_post_the_newer_one(stack: LocalStack) -> None:
    chat = drafted(stack)
    v1_question = chat.wait_text("to post v1")
    chat.reply("owner: Priya (storage)")
    chat.wait_text("to post v2")
    typed_before_v2 = float(v1_question["ts"]) + 0.000001  # a "yes" typed while only v1 was shown
    chat.reply("yes", ts=f"{typed_before_v2:.6f}")
    chat.wait_text("was for v1")
    assert stack.jira.comments(chat.ticket) == []
    chat.reply("yes")
    posted_once(stack, chat)
    assert stack.jira.comments(chat.ticket)[0].property_map["postmortem-bot"]["version"] == 2
