"""The listeners' synchronous middles on a real session store: one state change, the right jobs enqueued."""

from __future__ import annotations

import json
from typing import Any

import pytest
import redis

from emulators.driver import modal_values
from handlers import flow, form
from handlers.deps import Deps
from postmortem.messages import say
from renderers.modal import CALLBACK_ID
from sessions.session import Session, State
from sessions.store import SessionStore
from tests.handlers.fakes import FakeQueue
from tests.handlers.helpers import APPROVER, THREAD, drafted, keys_of, reply, stored
from tests.sessions.helpers import ROOT_CAUSE, complete_pm

pytestmark = pytest.mark.unit


@pytest.fixture
def store(redis_conn: redis.Redis) -> SessionStore:
    return SessionStore(redis_conn)


@pytest.fixture
def queue() -> FakeQueue:
    return FakeQueue()


@pytest.fixture
def deps(store: SessionStore, queue: FakeQueue) -> Deps:
    return Deps(store=store, queue=queue, approvers=frozenset({APPROVER}))


def new_view(fields: dict[str, Any], *, channel: str = "C1") -> dict[str, Any]:
    return {
        "private_metadata": json.dumps({"channel": channel, "lang": "en"}),
        "state": {"values": modal_values(fields)},
    }


# submit -------------------------------------------------------------------------------------------


def test_submit_creates_a_session_and_enqueues_advance(deps: Deps, store: SessionStore, queue: FakeQueue) -> None:
    assert form.submit(deps, user="U1", view=new_view({"ticket": "proj-1", "root_cause": ROOT_CAUSE})) is None
    assert [c.name for c in queue.calls] == ["workers.jobs.advance"]
    session = store.get(queue.calls[0].args[0])
    assert session is not None
    assert (session.ticket, session.requester, session.channel) == ("PROJ-1", "U1", "C1")
    assert session.state is State.collecting and session.inputs["root_cause"] == ROOT_CAUSE


def test_submit_with_a_bad_ticket_returns_an_error_on_the_ticket_block(
    deps: Deps, queue: FakeQueue, redis_conn: redis.Redis
) -> None:
    errors = form.submit(deps, user="U1", view=new_view({"ticket": "not a key"}))
    assert errors is not None and set(errors) == {"ticket"}
    assert "PROJ-123" in errors["ticket"]
    assert queue.calls == []
    assert redis_conn.dbsize() == 0


def test_submit_without_a_channel_is_refused(deps: Deps, queue: FakeQueue) -> None:
    view = {"private_metadata": "{}", "state": {"values": modal_values({"ticket": "PROJ-1"})}}
    errors = form.submit(deps, user="U1", view=view)
    assert errors is not None and "channel" in errors["ticket"]
    assert queue.calls == []


@pytest.mark.parametrize(
    "view",
    [
        {},
        {"state": {"values": []}},
        {"state": {"values": {"ticket": "x", "summary": {"summary": 5}}}},
        {"private_metadata": "[1]"},
        {"private_metadata": "{not json"},
        {"private_metadata": json.dumps({"session": "nope"})},
        {"state": None},
        {"state": "garbage"},
        {"private_metadata": 5},
    ],
)
def test_a_garbage_view_never_raises_and_creates_nothing(
    deps: Deps, queue: FakeQueue, view: Any, redis_conn: redis.Redis
) -> None:
    errors = form.submit(deps, user="U1", view=view)
    assert errors and "ticket" in errors
    assert queue.calls == []
    assert redis_conn.dbsize() == 0


# thread replies -----------------------------------------------------------------------------------


def test_replies_in_unknown_threads_are_ignored(
    deps: Deps, store: SessionStore, queue: FakeQueue, redis_conn: redis.Redis
) -> None:
    assert (
        flow.thread_reply(
            deps, channel="C1", thread_ts="999.000001", user="U1", text="post it", ts="1000.1", event_id="Ev1"
        )
        is False
    )  # so the listener lets the offers read it
    assert queue.calls == []
    assert redis_conn.dbsize() == 0  # not even the event claim


def test_a_reply_in_a_session_thread_is_the_sessions(deps: Deps, store: SessionStore) -> None:
    drafted(store)
    assert (
        flow.thread_reply(
            deps, channel="C1", thread_ts=THREAD, user="U9", text="fixed in #12, PROJ-2", ts="2000.1", event_id="EvS"
        )
        is True
    )


def test_a_duplicate_event_is_handled_once(deps: Deps, store: SessionStore, queue: FakeQueue) -> None:
    s = stored(store, inputs={}, pending_field="summary", listed_missing=True)
    for _ in range(2):
        reply(deps, s, "Reads returned stale pages. Fixed by an inclusive bound.", event_id="EvSame")
    assert len(queue.named("perform")) == 1
    assert keys_of(queue) == [("advance", "")]
    after = store.get(s.id)
    assert after is not None and after.inputs["summary"].startswith("Reads returned stale pages")


def test_approval_moves_to_posting_and_enqueues_one_post(deps: Deps, store: SessionStore, queue: FakeQueue) -> None:
    s = drafted(store)
    reply(deps, s, "post it", event_id="Ev1")
    after = store.get(s.id)
    assert after is not None
    assert after.state is State.posting and after.approved_version == 1 and after.approved_by == "U1"
    assert len(queue.named("perform")) == 1
    assert keys_of(queue) == [("say", "posting"), ("post", "")]
    assert queue.effects()[1]["version"] == 1


def test_a_second_yes_does_not_post_again(deps: Deps, store: SessionStore, queue: FakeQueue) -> None:
    s = drafted(store)
    reply(deps, s, "yes", event_id="Ev1")
    reply(deps, s, "yes", event_id="Ev2", ts="2000.000002")
    posts = [e for e in queue.effects() if e["kind"] == "post"]
    assert len(posts) == 1
    second = queue.named("perform")[-1].args[1]
    assert [e["kind"] for e in second] == ["say"]


def test_a_second_yes_is_told_it_is_already_approved(deps: Deps, store: SessionStore, queue: FakeQueue) -> None:
    s = drafted(store)
    reply(deps, s, "yes", event_id="Ev1")
    reply(deps, s, "yes", event_id="Ev2", ts="2000.000002")
    assert queue.named("perform")[-1].args[1][0]["key"] == "already_approved"


def test_a_stale_approval_changes_nothing(deps: Deps, store: SessionStore, queue: FakeQueue) -> None:
    s = drafted(store, versions=2)  # v1 shown at 1001, v2 at 1002
    reply(deps, s, "post it", ts="1001.5")
    after = store.get(s.id)
    assert after is not None and after.state is State.drafted and after.approved_version is None
    assert keys_of(queue) == [("say", "stale_approval")]


@pytest.mark.parametrize("text", ["`yes`", "```post it```", "&gt; yes", "post it 🚫", "post it :x:", "yes 👎"])
def test_an_approval_in_code_a_quote_or_with_a_negative_sign_posts_nothing_and_says_how(
    deps: Deps, store: SessionStore, queue: FakeQueue, text: str
) -> None:
    s = drafted(store)
    reply(deps, s, text)
    after = store.get(s.id)
    assert after is not None and after.state is State.drafted and after.approved_version is None
    assert keys_of(queue) == [("say", "approve_how")]
    assert queue.effects()[0]["params"] == {"version": 1, "ticket": "PROJ-1"}


def test_a_configured_approver_may_approve(deps: Deps, store: SessionStore, queue: FakeQueue) -> None:
    s = drafted(store)
    reply(deps, s, "go ahead", user=APPROVER)
    after = store.get(s.id)
    assert after is not None and after.state is State.posting and after.approved_by == APPROVER


def test_a_stranger_cannot_approve(deps: Deps, store: SessionStore, queue: FakeQueue) -> None:
    s = drafted(store)
    reply(deps, s, "post it", user="U9")
    after = store.get(s.id)
    assert after is not None and after.state is State.drafted
    assert keys_of(queue) == [("ephemeral", "only_approvers")]
    assert queue.effects()[0]["user"] == "U9"


# buttons ------------------------------------------------------------------------------------------


def test_cancel_by_a_stranger_only_tells_them(deps: Deps, store: SessionStore, queue: FakeQueue) -> None:
    s = drafted(store)
    flow.cancel(deps, session_id=s.id, user="U9")
    after = store.get(s.id)
    assert after is not None and after.state is State.drafted
    assert keys_of(queue) == [("ephemeral", "only_approvers")]


def test_cancel_by_the_requester_cancels(deps: Deps, store: SessionStore, queue: FakeQueue) -> None:
    s = drafted(store)
    flow.cancel(deps, session_id=s.id, user="U1")
    after = store.get(s.id)
    assert after is not None and after.state is State.cancelled
    assert keys_of(queue) == [("say", "cancelled")]


def test_cancel_while_posting_is_refused(deps: Deps, store: SessionStore, queue: FakeQueue) -> None:
    s = drafted(store)
    assert store.approve(s.id, version=1, user="U1") is not None
    flow.cancel(deps, session_id=s.id, user="U1")
    after = store.get(s.id)
    assert after is not None and after.state is State.posting
    assert keys_of(queue) == [("say", "button_wait_posting")]  # amend once the link is there, not a new /post-mortem


def test_retry_after_a_failed_post_posts_the_same_version(deps: Deps, store: SessionStore, queue: FakeQueue) -> None:
    s = drafted(store)
    assert store.approve(s.id, version=1, user="U1") is not None
    assert store.record_failed(s.id, "Jira answered 503") is not None
    flow.retry(deps, session_id=s.id, user="U1")
    after = store.get(s.id)
    assert after is not None and after.state is State.posting and after.approved_version == 1
    assert [(e["kind"], e["version"]) for e in queue.effects()] == [("post", 1)]


def test_retry_by_a_stranger_changes_nothing(deps: Deps, store: SessionStore, queue: FakeQueue) -> None:
    s = drafted(store)
    assert store.approve(s.id, version=1, user="U1") is not None
    assert store.record_failed(s.id, "Jira answered 503") is not None
    flow.retry(deps, session_id=s.id, user="U9")
    after = store.get(s.id)
    assert after is not None and after.state is State.failed
    assert keys_of(queue) == [("ephemeral", "only_approvers")]


def test_handoff_enqueues_the_handoff_job_for_the_requester_only(
    deps: Deps, store: SessionStore, queue: FakeQueue
) -> None:
    s = stored(store)
    flow.handoff(deps, session_id=s.id, user="U_STRANGER")
    with pytest.raises(flow.SessionGone):  # the listener tells the person who clicked (test_listeners.py)
        flow.handoff(deps, session_id="unknown", user="U1")
    flow.handoff(deps, session_id=s.id, user="U1")
    assert [c.name for c in queue.calls] == ["workers.jobs.perform", "workers.jobs.handoff"]
    assert queue.calls[0].args[1][0]["key"] == "only_approvers"
    assert queue.calls[1].args == (s.id, "U1")


# the Edit button and the edit modal ---------------------------------------------------------------


def test_edit_view_is_prefilled_for_the_requester(deps: Deps, store: SessionStore, queue: FakeQueue) -> None:
    s = drafted(store)
    view = flow.edit_view(deps, session_id=s.id, user="U1")
    assert view is not None and view["callback_id"] == CALLBACK_ID
    assert json.loads(view["private_metadata"])["session"] == s.id
    blocks = {b.get("block_id"): b for b in view["blocks"]}
    assert blocks["root_cause"]["element"]["initial_value"] == s.inputs["root_cause"]
    assert blocks["ticket"]["element"]["initial_value"] == "PROJ-1"
    assert queue.calls == []


def test_edit_view_for_a_stranger_is_refused(deps: Deps, store: SessionStore, queue: FakeQueue) -> None:
    s = drafted(store)
    assert flow.edit_view(deps, session_id=s.id, user="U9") is None
    assert keys_of(queue) == [("ephemeral", "only_approvers")]


def test_edit_view_after_two_revisions_asks_which_section(deps: Deps, store: SessionStore, queue: FakeQueue) -> None:
    s = drafted(store)
    assert store.update(s.id, lambda x: x.with_changes(revision_requests=2)) is not None
    assert flow.edit_view(deps, session_id=s.id, user="U1") is None
    assert keys_of(queue) == [("say", "third_revision")]
    after = store.get(s.id)
    assert after is not None and after.awaiting_revision_target and after.revision_requests == 3
    assert after.inputs == s.inputs and after.version == 1
    assert flow.edit_view(deps, session_id=s.id, user="U1") is not None  # the next one opens


def test_edit_view_after_approval_is_frozen(deps: Deps, store: SessionStore, queue: FakeQueue) -> None:
    s = drafted(store)
    assert store.approve(s.id, version=1, user="U1") is not None
    assert flow.edit_view(deps, session_id=s.id, user="U1") is None
    assert keys_of(queue) == [("say", "button_wait_posting")]  # still posting: amend once the link is there


def test_an_edit_submission_renders_a_new_version(deps: Deps, store: SessionStore, queue: FakeQueue) -> None:
    s = drafted(store)
    fields = {**complete_pm(), "ticket": "PROJ-1", "summary": "New summary of the stale reads. Fixed by x."}
    fields.pop("action_items_none")
    fields["action_items"] = "none"
    view = {
        "private_metadata": json.dumps({"session": s.id, "channel": "C1", "version": 1}),
        "state": {"values": modal_values(fields)},
    }
    assert form.submit(deps, user="U1", view=view) is None
    after = store.get(s.id)
    assert after is not None and after.state is State.rendering and after.version == 2
    assert after.inputs["summary"] == "New summary of the stale reads. Fixed by x."
    assert keys_of(queue) == [("say", "rendering"), ("render", "")]


def test_an_edit_form_opened_on_an_older_version_changes_nothing(
    deps: Deps, store: SessionStore, queue: FakeQueue
) -> None:
    s = drafted(store, versions=2)
    view = {
        "private_metadata": json.dumps({"session": s.id, "channel": "C1", "version": 1}),
        "state": {"values": modal_values({**complete_pm(), "ticket": "PROJ-1", "summary": "stale form"})},
    }
    errors = form.submit(deps, user="U1", view=view)
    assert errors is not None and "v2" in errors["ticket"]
    after = store.get(s.id)
    assert after is not None and after.version == 2 and after.inputs["summary"] != "stale form"
    assert queue.calls == []


def test_an_edit_submission_by_a_stranger_is_refused(deps: Deps, store: SessionStore, queue: FakeQueue) -> None:
    s = drafted(store)
    view = {"private_metadata": json.dumps({"session": s.id}), "state": {"values": modal_values({"ticket": "P-1"})}}
    errors = form.submit(deps, user="U9", view=view)
    assert errors is not None and set(errors) == {"ticket"}
    after = store.get(s.id)
    assert after is not None and after.state is State.drafted and after.version == 1
    assert queue.calls == []


def edit_of(s_id: str, version: int, **changes: Any) -> dict[str, Any]:
    fields = {**complete_pm(), "ticket": "PROJ-1", **changes}
    fields.pop("action_items_none")
    fields["action_items"] = "none"
    return {
        "private_metadata": json.dumps({"session": s_id, "channel": "C1", "version": version}),
        "state": {"values": modal_values(fields)},
    }


def test_an_edit_that_changes_the_ticket_changes_nothing_before_a_worker_checks_it(
    deps: Deps, store: SessionStore, queue: FakeQueue
) -> None:
    s = drafted(store)
    assert form.submit(deps, user="U1", view=edit_of(s.id, 1, ticket="proj-2", summary="Moved.")) is None
    assert store.get(s.id) == s  # the draft stays on PROJ-1 until PROJ-2 passes a new start's checks
    [call] = queue.calls
    assert call.name == "workers.jobs.edit_ticket" and call.args[:2] == (s.id, 1) and call.args[3] == "U1"
    assert call.args[2]["ticket"] == "PROJ-2" and call.args[2]["summary"] == "Moved."


def test_an_edit_to_a_ticket_another_open_session_holds_is_refused_in_the_form(
    deps: Deps, store: SessionStore, queue: FakeQueue
) -> None:
    s = drafted(store)
    other = store.create(Session(ticket="PROJ-2", requester="U5", channel="C2"))
    errors = form.submit(deps, user="U1", view=edit_of(s.id, 1, ticket="PROJ-2"))
    assert errors == {"ticket": say("form_ticket_taken", "en", ticket="PROJ-2", current="PROJ-1")}
    assert store.get(s.id) == s and queue.calls == []
    assert store.transition(other.id, {State.collecting}, State.cancelled) is not None  # once it ended, free
    assert form.submit(deps, user="U1", view=edit_of(s.id, 1, ticket="PROJ-2")) is None
    assert [c.name for c in queue.calls] == ["workers.jobs.edit_ticket"]


def test_an_expired_session_answers_an_attempt_to_act_and_ignores_chatter(
    deps: Deps, store: SessionStore, queue: FakeQueue
) -> None:
    s = drafted(store)
    assert store.transition(s.id, {State.drafted}, State.expired) is not None
    reply(deps, s, "thanks everyone", event_id="Ev1")
    reply(deps, s, "post it", event_id="Ev2")
    assert keys_of(queue) == [("ephemeral", "session_gone")] and queue.effects()[0]["user"] == "U1"
    for button in (flow.cancel, flow.retry, flow.handoff):
        with pytest.raises(flow.SessionGone):
            button(deps, session_id=s.id, user="U1")
    with pytest.raises(flow.SessionGone):
        flow.edit_view(deps, session_id=s.id, user="U1")


def test_retry_after_the_thread_could_not_be_started_runs_advance_again(
    deps: Deps, store: SessionStore, queue: FakeQueue
) -> None:
    s = stored(store, thread_ts=None, error="slack: not_in_channel")
    flow.retry(deps, session_id=s.id, user="U1")
    assert [(c.name, c.args) for c in queue.calls] == [("workers.jobs.advance", (s.id,))]


def test_a_failure_after_the_event_claim_lets_slacks_retry_through(
    deps: Deps, store: SessionStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    s = drafted(store)

    def broken(*args: object, **kwargs: object) -> None:
        raise redis.TimeoutError("slow Redis")

    monkeypatch.setattr(deps.store, "update", broken)
    with pytest.raises(redis.TimeoutError):
        reply(deps, s, "yes", event_id="EvRETRY")
    assert store.claim_once("event:EvRETRY", 60)  # released, so the retry would be handled


# The answer controls of a question (DESIGN §4 "Modal")


def click(action_id: str, session_id: str, *, user: str = "U1", state: dict[str, Any] | None = None) -> dict[str, Any]:
    return {
        "type": "block_actions",
        "user": {"id": user},
        "state": state or {},
        "actions": [{"action_id": action_id, "value": session_id, "type": "button"}],
    }


def test_a_question_button_sets_its_field_and_moves_on(deps: Deps, store: SessionStore, queue: FakeQueue) -> None:
    s = stored(store, inputs=complete_pm(repro_rate=None), pending_field="repro_rate", listed_missing=True)
    flow.answer_click(deps, body=click("postmortem_choose:repro_rate:high_frequency", s.id))
    after = store.get(s.id)
    assert after is not None and after.inputs["repro_rate"] == "high_frequency" and after.pending_field is None
    assert keys_of(queue) == [("advance", "")]


def test_done_reads_the_ticked_boxes(deps: Deps, store: SessionStore, queue: FakeQueue) -> None:
    s = stored(store, inputs=complete_pm(validation_kinds=[]), pending_field="validation_kinds", listed_missing=True)
    ticked = {
        "values": {
            "ask_validation_kinds": {
                "postmortem_checks:validation_kinds": {
                    "type": "checkboxes",
                    "selected_options": [{"value": "workload_completes"}, {"value": "stress_soak"}],
                }
            }
        }
    }
    flow.answer_click(deps, body=click("postmortem_done:validation_kinds", s.id, state=ticked))
    after = store.get(s.id)
    assert after is not None and after.inputs["validation_kinds"] == ["workload_completes", "stress_soak"]
    assert keys_of(queue) == [("advance", "")]


def test_a_strangers_click_changes_nothing(deps: Deps, store: SessionStore, queue: FakeQueue) -> None:
    s = stored(store, inputs=complete_pm(repro_rate=None), pending_field="repro_rate", listed_missing=True)
    flow.answer_click(deps, body=click("postmortem_choose:repro_rate:every_run", s.id, user="U9"))
    after = store.get(s.id)
    assert after is not None and after.inputs.get("repro_rate") is None
    assert keys_of(queue) == [("ephemeral", "only_approvers")]


def test_edit_view_resumes_a_collecting_session_even_after_revisions(
    deps: Deps, store: SessionStore, queue: FakeQueue
) -> None:
    s = stored(store, inputs={"summary": "only this so far"}, pending_field="repro", revision_requests=5)
    view = flow.edit_view(deps, session_id=s.id, user="U1")
    assert view is not None and json.loads(view["private_metadata"])["session"] == s.id
    blocks = {b.get("block_id"): b for b in view["blocks"]}
    assert blocks["summary"]["element"]["initial_value"] == "only this so far"
    assert queue.calls == []  # no "which section?" question: resuming is not a revision
