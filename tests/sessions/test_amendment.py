"""Amendments as data (sessions/amendment.py, the guards in sessions/session.py) and the diff they show
(renderers/amendment.py): a posted session changes only to start version N+1 of the same comment."""

from __future__ import annotations

import pytest
import redis

from renderers.amendment import DIFF_LIMIT, diff_message, markdown_diff
from renderers.home import state_label
from sessions import amendment
from sessions.conversation import apply_step
from sessions.session import Session, State, valid_move
from sessions.store import SessionStore
from tests.sessions.helpers import complete_pm, to_drafted

pytestmark = pytest.mark.unit

APPROVERS = frozenset({"U_APPROVER"})


@pytest.fixture
def store(redis_conn: redis.Redis) -> SessionStore:
    return SessionStore(redis_conn, ttl_seconds=3600)


def posted(store: SessionStore) -> Session:
    s = store.create(Session(ticket="AMD-1", requester="U1", channel="C1", thread_ts="1.0", inputs=complete_pm()))
    to_drafted(store, s.id)
    assert store.approve(s.id, version=1, user="U1") is not None
    done = store.record_posted(s.id, "10001", "https://jira/browse/AMD-1?focusedCommentId=10001")
    assert done is not None and done.state is State.posted
    return done


def reply(store: SessionStore, session: Session, text: str, user: str = "U1") -> Session:
    apply_step(store, session.id, lambda s: amendment.on_reply(s, text, user=user, approvers=APPROVERS, ts=2000.0))
    found = store.get(session.id)
    assert found is not None
    return found


def test_a_field_reply_on_a_posted_record_starts_version_n_plus_one(store: SessionStore) -> None:
    s = posted(store)
    started = reply(store, s, "summary: A corrected summary of what broke. Fixed by PR 42.")
    assert (started.state, started.version, started.amending) == (State.rendering, 2, True)
    assert (started.posted_version, started.posted_by, started.comment_id) == (1, "U1", "10001")
    assert started.approved_version is None and started.revision_requests == 1
    assert started.inputs["summary"].startswith("A corrected summary")


def test_an_approver_may_amend_and_anyone_else_changes_nothing(store: SessionStore) -> None:
    s = posted(store)
    outcome = amendment.on_reply(s, "summary: mine now", user="U_OTHER", approvers=APPROVERS, ts=2000.0)
    assert outcome.session is None
    assert [(e.kind, e.key, e.user) for e in outcome.effects] == [("ephemeral", "only_approvers", "U_OTHER")]
    assert amendment.on_reply(s, "nice write-up", user="U_OTHER", approvers=APPROVERS, ts=2000.0).effects == ()
    assert reply(store, s, "summary: corrected by the approver.", user="U_APPROVER").amending


def test_the_third_revision_asks_first_counting_amendments(store: SessionStore) -> None:
    s = store.get(posted(store).id)
    assert s is not None
    s = store.update(s.id, lambda x: x.with_changes(revision_requests=2))  # two revisions already
    assert s is not None
    asked = reply(store, s, "summary: third time.")
    assert (asked.state, asked.version, asked.awaiting_revision_target) == (State.posted, 1, True)
    started = reply(store, asked, "summary: third time.")
    assert (started.state, started.version, started.revision_requests) == (State.rendering, 2, 4)


def test_an_amendment_keeps_the_destination_and_cancel_keeps_the_record(store: SessionStore) -> None:
    s = posted(store)
    outcome = amendment.on_reply(s, "destination: wiki", user="U1", approvers=APPROVERS, ts=2000.0)
    assert outcome.session is None and outcome.effects[0].key == "amend_field_fixed"
    started = reply(store, s, "summary: corrected.")
    drafted = to_drafted_amendment(store, started)
    back = reply(store, drafted, "cancel")
    assert (back.state, back.approved_version, back.approved_by, back.amending) == (State.posted, 1, "U1", False)
    assert back.comment_id == "10001"


def to_drafted_amendment(store: SessionStore, session: Session) -> Session:
    assert store.save_draft(session.id, session.version, b'{"body": 2}', "0" * 64) is not None
    drafted = store.mark_drafted(session.id, version=session.version, shown_at=3000.0)
    assert drafted is not None
    return drafted


def test_the_guards_refuse_every_other_change_of_a_posted_record(store: SessionStore) -> None:
    s = posted(store)
    assert not valid_move(s, s.with_changes(state=State.rendering, version=2))  # not marked as an amendment
    assert not valid_move(s, s.with_changes(inputs={}))  # posted text never changes in place
    started = s.with_changes(
        state=State.rendering, version=2, amending=True, approved_version=None, approved_by=None, posted_version=1
    )
    assert not valid_move(s, started)  # who approved the posted version is kept
    assert valid_move(s, started.with_changes(posted_by="U1"))
    assert not valid_move(s, started.with_changes(posted_by="U1", comment_id="999"))


def test_the_diff_is_unified_and_bounded() -> None:
    old = "\n".join(f"line {i}" for i in range(400))
    new = "\n".join(f"line {i}" + (" changed" if i % 3 == 0 else "") for i in range(400))
    diff, left_out = markdown_diff(old, new, old_version=1, new_version=2)
    assert diff.startswith("--- v1\n+++ v2\n@@ ")
    assert "-line 0\n+line 0 changed" in diff
    assert len(diff) <= DIFF_LIMIT and left_out > 0
    whole, none_left = markdown_diff(old, new, old_version=1, new_version=2, limit=10**9)
    assert none_left == 0 and whole.startswith(diff + "\n")  # cut at a line end, nothing else changed
    assert len(whole.split("\n")) == len(diff.split("\n")) + left_out
    assert markdown_diff("same", "same", old_version=1, new_version=2) == ("", 0)


def test_the_diff_message_fences_and_escapes_the_text() -> None:
    old = "## Summary\n\nA <b> & B\n"
    new = "## Summary\n\nA <b> & C\n```\ncode\n```\n"
    message = diff_message(old, new, posted=1, version=2, ticket="AMD-1", comment="10001", lang="en")
    text = message["text"]
    assert "-A &lt;b&gt; &amp; B\n+A &lt;b&gt; &amp; C" in text
    assert text.count("```") == 2  # the diff's own fence cannot close the code block
    assert "`PUT …/comment/10001`" in text and message["blocks"][0]["text"]["text"] == text
    assert len(text) < 3000
    same = diff_message(old, old, posted=1, version=2, ticket="AMD-1", comment="10001", lang="ja")
    assert "v1" in same["text"] and "```" not in same["text"]
    missing = diff_message(None, new, posted=1, version=2, ticket="AMD-1", comment="10001", lang="en")
    assert "no diff is shown" in missing["text"]


def test_home_and_list_say_amended_with_the_version() -> None:
    base = Session(ticket="AMD-1", requester="U1", channel="C1", state=State.posted, version=3, approved_version=3)
    assert state_label(base, "en") == "posted"
    amended = base.with_changes(amendments=2, posted_version=3)
    assert (state_label(amended, "en"), state_label(amended, "ja")) == ("amended (v3)", "修正済み（v3）")


def test_a_refused_follow_up_releases_the_approval_back_to_the_shown_draft_and_nothing_else(
    store: SessionStore,
) -> None:
    s = store.create(Session(ticket="AMD-2", requester="U1", channel="C1", thread_ts="1.0", inputs=complete_pm()))
    to_drafted(store, s.id)
    posting = store.approve(s.id, version=1, user="U1")
    assert posting is not None
    released = posting.with_changes(state=State.drafted, approved_version=None, approved_by=None, error="refused")
    assert valid_move(posting, released)
    assert not valid_move(posting, released.with_changes(inputs={**posting.inputs, "summary": "other"}))
    assert not valid_move(posting, released.with_changes(version=2))
    assert not valid_move(posting, released.with_changes(approved_by="U1"))  # half released is no release
    assert store.update(s.id, lambda x: released, expect_states={State.posting}) is not None
    assert store.approve(s.id, version=1, user="U1") is not None  # the same version may be approved again


def test_a_correction_while_posting_is_refused_with_a_word_on_amending_afterwards(store: SessionStore) -> None:
    s = store.create(Session(ticket="AMD-3", requester="U1", channel="C1", thread_ts="1.0", inputs=complete_pm()))
    to_drafted(store, s.id)
    posting = store.approve(s.id, version=1, user="U1")
    assert posting is not None
    outcome = amendment.on_reply(posting, "summary: changed.", user="U1", approvers=APPROVERS, ts=2000.0)
    assert outcome.session is None and [e.key for e in outcome.effects] == ["amend_wait_posting"]
    other = amendment.on_reply(posting, "summary: changed.", user="U_OTHER", approvers=APPROVERS, ts=2000.0)
    assert "amend_wait_posting" not in [e.key for e in other.effects]


def test_the_ticket_or_destination_cannot_change_while_amending(store: SessionStore) -> None:
    s = posted(store)
    amending = reply(store, s, "summary: A corrected summary of what broke. Fixed by PR 42.")
    for text in ("destination: wiki", "destination: pr_description"):
        outcome = amendment.on_reply(amending, text, user="U1", approvers=APPROVERS, ts=3000.0)
        assert outcome.session is None and [e.key for e in outcome.effects] == ["amend_field_fixed"], text
    edited = amendment.on_edit(amending, {**amending.inputs, "destination": "pr_description"})
    assert edited.session is None and [e.key for e in edited.effects] == ["amend_field_fixed"]
