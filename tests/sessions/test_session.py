"""The session model and its transition table, without Redis."""

from __future__ import annotations

import json

import pytest
import redis
from pydantic import ValidationError

from sessions.session import (
    FINAL_STATES,
    TRANSITIONS,
    Draft,
    Session,
    State,
    allowed,
    begin_render,
    may_approve,
    revision_step,
    valid_move,
)
from sessions.store import SessionStore

pytestmark = pytest.mark.unit

SHA = "a" * 64


def make(**changes: object) -> Session:
    base = Session(ticket="PROJ-1", requester="U1", channel="C1")
    return base.with_changes(**changes) if changes else base


def shown(version: int) -> Draft:
    return Draft(version=version, sha256=SHA, body_sha256=SHA, shown_at=100.0 + version)


def test_table_covers_every_state_and_final_states_lead_nowhere() -> None:
    assert set(TRANSITIONS) == set(State)
    for state in FINAL_STATES:
        assert TRANSITIONS[state] == frozenset()
    assert FINAL_STATES == {State.posted, State.cancelled, State.expired}


@pytest.mark.parametrize(
    ("src", "dst"),
    [
        ("collecting", "scope_check"),
        ("collecting", "rendering"),
        ("scope_check", "rendering"),
        ("rendering", "drafted"),
        ("drafted", "posting"),
        ("posting", "posted"),
        ("drafted", "rendering"),
        ("posting", "failed"),
        ("failed", "posting"),
        ("failed", "rendering"),
        ("drafted", "cancelled"),
    ],
)
def test_design_transitions_are_allowed(src: str, dst: str) -> None:
    assert allowed(State(src), State(dst))


@pytest.mark.parametrize(
    ("src", "dst"),
    [
        ("collecting", "posting"),
        ("collecting", "drafted"),
        ("rendering", "posting"),
        ("posting", "rendering"),
        ("posting", "cancelled"),
        ("posted", "posting"),
        ("cancelled", "collecting"),
        ("expired", "rendering"),
        ("posted", "failed"),
    ],
)
def test_other_transitions_are_not(src: str, dst: str) -> None:
    assert not allowed(State(src), State(dst))


def test_session_round_trips_through_json() -> None:
    s = make(inputs={"summary": "x"}, skipped=frozenset({"how_found"}), drafts=(shown(1),), version=1)
    assert Session.model_validate_json(s.model_dump_json()) == s


def test_session_rejects_unknown_fields_and_bad_ids() -> None:
    with pytest.raises(ValidationError):
        Session.model_validate({**make().model_dump(), "surprise": 1})
    with pytest.raises(ValidationError):
        make(id="a b/c")


def test_ids_are_url_safe_and_distinct() -> None:
    assert make().id != make().id
    assert make().id.isalnum()


def test_posting_needs_an_approval_of_the_shown_version() -> None:
    drafted = make(state=State.drafted, version=2, drafts=(shown(1), shown(2)))
    assert not valid_move(drafted, drafted.with_changes(state=State.posting))
    assert not valid_move(drafted, drafted.with_changes(state=State.posting, approved_version=1, approved_by="U1"))
    assert valid_move(drafted, drafted.with_changes(state=State.posting, approved_version=2, approved_by="U1"))


def test_drafted_needs_a_shown_draft() -> None:
    rendering = make(state=State.rendering, version=1)
    unshown = Draft(version=1, sha256=SHA, body_sha256=SHA)
    assert not valid_move(rendering, rendering.with_changes(state=State.drafted, drafts=(unshown,)))
    assert valid_move(rendering, rendering.with_changes(state=State.drafted, drafts=(shown(1),)))


def test_final_sessions_and_approved_records_do_not_change() -> None:
    posted = make(state=State.posted, version=1, drafts=(shown(1),), approved_version=1, approved_by="U1")
    assert not valid_move(posted, posted.with_changes(state=State.posting))
    assert not valid_move(posted, posted.with_changes(comment_url="x"))
    assert not valid_move(posted, posted.with_changes(updated_at=posted.updated_at + 5))
    posting = posted.with_changes(state=State.posting)
    assert not valid_move(posting, posting.with_changes(inputs={"summary": "changed"}))
    assert valid_move(posting, posting.with_changes(state=State.failed, error="503"))


def test_identity_fields_never_change() -> None:
    s = make()
    assert not valid_move(s, s.with_changes(requester="U2"))
    assert not valid_move(s, s.with_changes(channel="C2"))


def test_may_approve_requester_or_configured_approvers() -> None:
    s = make()
    assert may_approve(s, "U1", frozenset())
    assert may_approve(s, "U9", frozenset({"U9"}))
    assert not may_approve(s, "U2", frozenset({"U9"}))
    assert not may_approve(s, "", frozenset({""}))


def test_begin_render_bumps_the_version_except_on_a_render_retry() -> None:
    fresh = make()
    assert begin_render(fresh) == fresh.with_changes(state=State.rendering, version=1)
    drafted = make(state=State.drafted, version=1, drafts=(shown(1),))
    assert begin_render(drafted) == drafted.with_changes(state=State.rendering, version=2)
    failed = make(state=State.failed, version=2, error="boom")
    retried = begin_render(failed)
    assert retried is not None and retried.version == 2 and retried.error is None
    assert begin_render(failed.with_changes(approved_version=1, approved_by="U1")) is None
    assert begin_render(make(state=State.posting)) is None


def test_third_revision_asks_for_the_section_first() -> None:
    assert revision_step(make(revision_requests=0)) == "rerender"
    assert revision_step(make(revision_requests=1)) == "rerender"
    assert revision_step(make(revision_requests=2)) == "ask_target"
    assert revision_step(make(revision_requests=2, awaiting_revision_target=True)) == "rerender"
    assert revision_step(make(revision_requests=3)) == "ask_target"


def test_shown_version_is_what_a_reply_could_have_seen() -> None:
    s = make(state=State.drafted, version=2, drafts=(shown(1), shown(2)))
    assert s.shown_version(100.5) is None
    assert s.shown_version(101.5) == 1
    assert s.shown_version(500.0) == 2


def test_rendering_always_names_its_version() -> None:
    s = make()
    assert not valid_move(s, s.with_changes(state=State.rendering))
    assert valid_move(s, s.with_changes(state=State.rendering, version=1))
    failed = make(state=State.failed, version=1)
    assert not valid_move(failed, failed.with_changes(state=State.rendering, version=2))


def test_posted_needs_the_comment() -> None:
    posting = make(state=State.posting, version=1, drafts=(shown(1),), approved_version=1, approved_by="U1")
    assert not valid_move(posting, posting.with_changes(state=State.posted))
    assert valid_move(posting, posting.with_changes(state=State.posted, comment_id="1", comment_url="u"))


def test_a_retired_field_is_dropped_when_a_stored_session_loads() -> None:
    stored = {**make(pending_field="symptom").model_dump(mode="json"), "asked_optional": True}
    loaded = Session.model_validate_json(json.dumps(stored))
    assert loaded.pending_field == "symptom" and "asked_optional" not in loaded.model_dump()


def test_a_session_stored_with_a_retired_field_loads_through_the_store(redis_conn: redis.Redis) -> None:
    # Sessions written before `asked_optional` was retired carry it; they load, and the next write drops it.
    store = SessionStore(redis_conn)
    session = store.create(Session(ticket="PROJ-1", requester="U1", channel="C1", pending_field="symptom"))
    key = f"pm:session:{session.id}"
    raw = json.loads(redis_conn.get(key) or b"{}")
    redis_conn.set(key, json.dumps({**raw, "asked_optional": True}))
    loaded = store.get(session.id)
    assert loaded is not None and loaded.pending_field == "symptom"
    updated = store.update(session.id, lambda s: s.with_changes(pending_field=None))
    assert updated is not None and "asked_optional" not in json.loads(redis_conn.get(key) or b"{}")


def test_a_session_stored_with_its_inputs_under_the_old_name_loads_through_the_store(redis_conn: redis.Redis) -> None:
    # Sessions written before `pm` was renamed `inputs` keep their inputs; the next write stores the new name.
    store = SessionStore(redis_conn)
    session = store.create(Session(ticket="PROJ-1", requester="U1", channel="C1", inputs={"summary": "kept"}))
    key = f"pm:session:{session.id}"
    raw = json.loads(redis_conn.get(key) or b"{}")
    raw["pm"] = raw.pop("inputs")
    redis_conn.set(key, json.dumps(raw))
    loaded = store.get(session.id)
    assert loaded is not None and loaded.inputs == {"summary": "kept"}
    updated = store.update(session.id, lambda s: s.with_changes(pending_field="repro"))
    written = json.loads(redis_conn.get(key) or b"{}")
    assert updated is not None and written["inputs"] == {"summary": "kept"} and "pm" not in written
