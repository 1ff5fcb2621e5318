"""handlers/listeners.py in process: signed Slack requests through the ASGI app `create_app` builds, the
Slack emulator on loopback, a real store and RQ queue. Fast where tests/e2e starts processes."""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
import time
from collections.abc import Iterator, MutableMapping
from typing import Any

import pytest
import redis
import requests
from rq.job import Job
from slack_sdk import WebClient

from bot.app import Service, create_app, job_queue, slack_session
from bot.settings import load_settings
from emulators.driver import SlackDriver, modal_values
from emulators.slack_api import SlackEmulator
from postmortem.messages import say
from renderers.modal import CALLBACK_ID
from renderers.offers import ACTION_START
from renderers.prompts import ACTION_CANCEL, ACTION_CHECKS, ACTION_CHOOSE, ACTION_EDIT, ACTION_HANDOFF, ACTION_RETRY
from sessions.session import Session
from sessions.store import SessionStore
from tests.helpers import TEST_REDIS_URL

pytestmark = pytest.mark.unit

BOT_TOKEN, SIGNING_SECRET = "xoxb-in-process", "in-process-secret"
THREAD = "1700000000.000100"


class InProcess(SlackDriver):
    """The signed-request driver, delivering to the ASGI app on an event loop in a thread (no socket)."""

    def __init__(self, service: Service, slack: SlackEmulator, loop: asyncio.AbstractEventLoop) -> None:
        super().__init__("http://in-process", SIGNING_SECRET, slack=slack)
        self.service, self.loop = service, loop

    def deliver(self, body: bytes, headers: dict[str, str]) -> requests.Response:
        """The signed request (the driver's own headers) to the ASGI app instead of a socket."""
        status, content = asyncio.run_coroutine_threadsafe(self._asgi(body, headers), self.loop).result(timeout=10)
        response = requests.Response()
        response.status_code, response._content = status, content
        return response

    async def _asgi(self, body: bytes, headers: dict[str, str]) -> tuple[int, bytes]:
        sent: list[dict[str, Any]] = []
        chunks = [{"type": "http.request", "body": body, "more_body": False}]

        async def receive() -> dict[str, Any]:
            return chunks.pop(0) if chunks else {"type": "http.disconnect"}

        async def send(message: MutableMapping[str, Any]) -> None:
            sent.append(dict(message))

        scope = {
            "type": "http",
            "method": "POST",
            "path": "/slack/events",
            "query_string": b"",
            "headers": [(k.lower().encode(), v.encode()) for k, v in headers.items()],
            "http_version": "1.1",
            "scheme": "http",
            "server": ("in-process", 80),
            "root_path": "",
        }
        await self.service.http(scope, receive, send)
        return int(sent[0]["status"]), b"".join(m.get("body", b"") for m in sent[1:])


@pytest.fixture
def slack() -> Iterator[SlackEmulator]:
    with SlackEmulator(bot_token=BOT_TOKEN) as emulator:
        yield emulator


@pytest.fixture
def bot(slack: SlackEmulator, redis_conn: redis.Redis) -> Iterator[InProcess]:
    env = {
        "SLACK_BOT_TOKEN": BOT_TOKEN,
        "SLACK_SIGNING_SECRET": SIGNING_SECRET,
        "SLACK_API_URL": slack.base_url,
        "JIRA_URL": "https://example.atlassian.net",
        "JIRA_EMAIL": "bot@example.com",
        "JIRA_API_TOKEN": "t",
        "REDIS_URL": TEST_REDIS_URL,
    }
    service = create_app(load_settings(env), redis_conn=redis_conn)
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, name="in-process-bot", daemon=True)
    thread.start()
    session = contextlib.AsyncExitStack()
    asyncio.run_coroutine_threadsafe(session.enter_async_context(slack_session(service.bolt)), loop).result(5)
    try:
        yield InProcess(service, slack, loop)
    finally:
        asyncio.run_coroutine_threadsafe(session.aclose(), loop).result(5)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(5)
        loop.close()


def jobs(conn: redis.Redis) -> list[Job]:
    return job_queue(conn).get_jobs()


def jobs_after_the_answer(conn: redis.Redis, count: int = 1) -> list[Job]:
    """The jobs a listener enqueues once it has answered (work after the ack), waited for with a deadline."""
    deadline = time.monotonic() + 5
    while len(found := jobs(conn)) < count and time.monotonic() < deadline:
        time.sleep(0.01)  # polling for work the listener started after its answer
    return found


def test_a_signed_command_is_acked_at_once_and_opens_the_modal(bot: InProcess, slack: SlackEmulator) -> None:
    answer = bot.slash_command(text="PROJ-7", channel_id="C9")
    assert answer.status_code == 200 and answer.content == b""
    view = slack.wait_for(lambda s: s.views)[0]["view"]
    assert view["callback_id"] == CALLBACK_ID and json.loads(view["private_metadata"])["channel"] == "C9"
    ticket = next(b for b in view["blocks"] if b.get("block_id") == "ticket")
    assert ticket["element"]["initial_value"] == "PROJ-7"


def test_unsigned_tampered_and_stale_requests_are_refused(
    bot: InProcess, slack: SlackEmulator, redis_conn: redis.Redis
) -> None:
    body = b"command=%2Fpost-mortem&text=PROJ-1&user_id=U1&channel_id=C1&trigger_id=1.2.3"
    form = "application/x-www-form-urlencoded"
    assert bot.post(body, form, signed=False).status_code == 401
    assert bot.post(body, form, timestamp=1_600_000_000).status_code == 401
    assert bot.post(body, form, headers={"X-Slack-Signature": "v0=" + "0" * 64}).status_code == 401
    assert slack.calls_to("views.open") == [] and redis_conn.dbsize() == 0


def test_a_submitted_modal_stores_the_session_and_enqueues_advance(
    bot: InProcess, slack: SlackEmulator, redis_conn: redis.Redis
) -> None:
    bot.slash_command(text="PROJ-7", channel_id="C9")
    slack.wait_for(lambda s: s.views)
    answer = bot.view_submission(values=modal_values({"ticket": "PROJ-7", "summary": "Cache evicts early"}))
    assert answer.status_code == 200 and answer.content == b""
    [job] = jobs_after_the_answer(redis_conn)
    assert job.func_name == "workers.jobs.advance"
    session = SessionStore(redis_conn).get(str(job.args[0]))
    assert session is not None and (session.ticket, session.channel, session.requester) == ("PROJ-7", "C9", "U1")


def test_a_malformed_key_is_a_field_error_and_stores_nothing(
    bot: InProcess, slack: SlackEmulator, redis_conn: redis.Redis
) -> None:
    bot.slash_command(text="", channel_id="C9")
    slack.wait_for(lambda s: s.views)
    answer = bot.view_submission(values=modal_values({"ticket": "not a key"}))
    assert answer.status_code == 200
    assert answer.json()["response_action"] == "errors" and "ticket" in answer.json()["errors"]
    assert jobs(redis_conn) == []


def test_a_thread_reply_is_handled_once_across_slacks_retries(bot: InProcess, redis_conn: redis.Redis) -> None:
    store = SessionStore(redis_conn)
    session = store.create(Session(ticket="PROJ-1", requester="U1", channel="C1", thread_ts=THREAD))
    for retry in (None, 1, 2):
        assert bot.message("cancel", thread_ts=THREAD, event_id="EvONCE", retry_num=retry).status_code == 200
    assert [j.func_name for j in jobs(redis_conn)] == ["workers.jobs.perform"]
    cancelled = store.get(session.id)
    assert cancelled is not None and cancelled.state.value == "cancelled"


def test_a_mention_asking_for_a_post_mortem_enqueues_the_start_button(bot: InProcess, redis_conn: redis.Redis) -> None:
    assert bot.app_mention("write the post-mortem for PROJ-3", ts="100.1").status_code == 200
    [job] = jobs(redis_conn)
    assert job.func_name == "workers.offers.start_reply" and job.args == ["C1", "100.1", "PROJ-3", "en"]


def test_a_strangers_cancel_click_is_answered_privately_and_changes_nothing(
    bot: InProcess, redis_conn: redis.Redis
) -> None:
    store = SessionStore(redis_conn)
    session = store.create(Session(ticket="PROJ-1", requester="U1", channel="C1", thread_ts=THREAD))
    assert bot.block_action("postmortem_cancel", session.id, user_id="U666").status_code == 200
    [job] = jobs(redis_conn)
    assert job.func_name == "workers.jobs.perform"
    assert [(e["kind"], e["user"]) for e in job.args[1]] == [("ephemeral", "U666")]
    assert store.get(session.id) == session


def test_every_session_button_reaches_its_listener_with_the_edges_it_names(
    bot: InProcess, redis_conn: redis.Redis, caplog: pytest.LogCaptureFixture
) -> None:
    """Bolt passes each listener the arguments it names, `deps` and `calls` from the context: a stranger's
    click on any session button is told privately who may act, and nothing is missing."""
    store = SessionStore(redis_conn)
    session = store.create(Session(ticket="PROJ-1", requester="U1", channel="C1", thread_ts=THREAD))
    clicks = (ACTION_EDIT, ACTION_CANCEL, ACTION_RETRY, ACTION_HANDOFF, f"{ACTION_CHOOSE}:summary:x")
    for action in clicks:
        assert bot.block_action(action, session.id, user_id="U666").status_code == 200
    assert bot.block_action(f"{ACTION_CHECKS}:summary", session.id, user_id="U1").status_code == 200
    told = [(j.func_name, [(e["kind"], e["user"]) for e in j.args[1]]) for j in jobs(redis_conn)]
    assert told == [("workers.jobs.perform", [("ephemeral", "U666")])] * len(clicks)
    assert store.get(session.id) == session
    assert [r.getMessage() for r in caplog.records if "is not a valid argument" in r.getMessage()] == []


def test_the_start_button_opens_the_modal_and_the_home_tab_is_made_due(
    bot: InProcess, slack: SlackEmulator, redis_conn: redis.Redis
) -> None:
    value = json.dumps({"ticket": "PROJ-4", "channel": "C2", "lang": "en"})
    assert bot.block_action(ACTION_START, value).status_code == 200
    view = slack.wait_for(lambda s: s.views)[0]["view"]
    assert view["callback_id"] == CALLBACK_ID and json.loads(view["private_metadata"])["channel"] == "C2"
    assert bot.app_home_opened("U5").status_code == 200
    assert redis_conn.zscore(SessionStore(redis_conn).users.due_key, "U5") is not None


@pytest.mark.parametrize("error", ["expired_trigger_id", "exchanged_trigger_id"])
def test_a_start_click_whose_trigger_came_too_late_is_no_server_error(
    bot: InProcess, slack: SlackEmulator, error: str
) -> None:
    slack.fail_next("views.open", error)
    value = json.dumps({"ticket": "PROJ-4", "channel": "C2", "lang": "en"})
    assert bot.block_action(ACTION_START, value).status_code == 200
    assert slack.views == []


def test_the_url_handshake_is_answered(bot: InProcess) -> None:
    answer = bot.url_verification("the-challenge")
    assert answer.status_code == 200 and answer.json()["challenge"] == "the-challenge"


# a session that is gone: never silence in its thread, silence everywhere else ----------------------------


def test_a_click_on_a_button_of_a_session_that_is_gone_is_answered_privately(
    bot: InProcess, slack: SlackEmulator, redis_conn: redis.Redis
) -> None:
    clicks = (ACTION_EDIT, ACTION_CANCEL, ACTION_RETRY, ACTION_HANDOFF, f"{ACTION_CHOOSE}:summary:x")
    before = len(slack.responses)
    for action in clicks:
        assert bot.block_action(action, "0123456789abcdef", user_id="U1").status_code == 200
    answers = slack.wait_for(lambda s: s.responses[before:] if len(s.responses) >= before + len(clicks) else None)
    assert [(a["payload"]["text"], a["payload"]["response_type"]) for a in answers] == [
        (say("session_gone", "en"), "ephemeral")
    ] * len(clicks)
    assert jobs(redis_conn) == []


def test_a_reply_in_a_post_mortem_thread_whose_session_is_gone_is_answered_once_a_while(
    bot: InProcess, slack: SlackEmulator, redis_conn: redis.Redis
) -> None:
    client = WebClient(token=BOT_TOKEN, base_url=slack.base_url)
    parent = str(client.chat_postMessage(channel="C1", text="Post-mortem for PROJ-1")["ts"])  # the bot's own
    for _ in range(2):
        assert bot.message("post it", channel="C1", thread_ts=parent).status_code == 200
    [job] = jobs(redis_conn)  # told once a while, not at every message
    assert job.func_name == "workers.jobs.session_gone" and job.args == ["C1", parent, "U1", "en"]


def test_chat_in_a_thread_the_bot_did_not_start_stays_silent(bot: InProcess, redis_conn: redis.Redis) -> None:
    assert bot.message("yes, post it", channel="C1", thread_ts="1600000000.000001").status_code == 200
    assert jobs(redis_conn) == []
