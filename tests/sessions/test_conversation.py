"""The conversation's pure decisions: what to ask, what an answer or reply changes, and what to do next."""

from __future__ import annotations

from typing import Any

import pytest

from rules.gate import GATE_FIELDS
from sessions.conversation import OPTIONAL_ASKS, Effect, Outcome, next_step, on_edit
from sessions.replies import on_choice, on_reply
from sessions.session import Draft, Session, State
from tests.sessions.helpers import ROOT_CAUSE, complete_pm

pytestmark = pytest.mark.unit

SHA = "a" * 64
NOBODY: frozenset[str] = frozenset()


def session(**changes: Any) -> Session:
    base = Session(ticket="PROJ-1", requester="U1", channel="C1", thread_ts="1700000000.000100")
    return base.with_changes(**changes) if changes else base


def shown(version: int, at: float | None = None) -> Draft:
    return Draft(version=version, sha256=SHA, body_sha256=SHA, shown_at=100.0 * version if at is None else at)


def drafted(version: int = 1, **changes: Any) -> Session:
    """A session whose versions 1..version were rendered and shown (v at t = 100 * v)."""
    drafts = tuple(shown(v) for v in range(1, version + 1))
    return session(**{"inputs": complete_pm(), "state": State.drafted, "version": version, "drafts": drafts, **changes})


def reply(
    s: Session, text: str, *, user: str = "U1", approvers: frozenset[str] = NOBODY, ts: float = 10_000.0
) -> Outcome:
    return on_reply(s, text, user=user, approvers=approvers, ts=ts)


def kinds(outcome: Outcome) -> list[tuple[str, str]]:
    return [(e.kind, e.key) for e in outcome.effects]


def said(outcome: Outcome) -> list[str]:
    return [e.key for e in outcome.effects if e.kind == "say"]


# collecting: the gate's missing inputs, one question at a time ------------------------------------


def test_fresh_session_lists_every_missing_field_once_then_asks_the_first() -> None:
    out = next_step(session())
    assert out.session is not None
    listed = [e for e in out.effects if e.kind == "missing_list"]
    assert len(listed) == 1
    names = [name for name, _ in listed[0].params["missing"]]
    assert names == list(GATE_FIELDS)
    assert all(reason for _, reason in listed[0].params["missing"])
    # Right after the list, the question does not repeat the reason the list gave.
    assert kinds(out)[-1] == ("say", "ask_field_next") and "reason" not in out.effects[-1].params
    assert out.effects[-1].params["field"] == "summary"
    assert out.session.pending_field == "summary" and out.session.listed_missing


def test_a_pending_question_is_not_asked_twice() -> None:
    first = next_step(session())
    assert first.session is not None
    assert next_step(first.session) == Outcome(None)


def test_answers_fill_fields_and_the_list_is_not_repeated() -> None:
    s = next_step(session()).session
    assert s is not None
    answered = reply(s, "Reads returned stale pages after compaction. Fixed by an inclusive bound.")
    assert answered.session is not None
    assert answered.session.inputs["summary"].startswith("Reads returned stale pages")
    assert answered.session.pending_field is None
    assert kinds(answered) == [("advance", "")]
    again = next_step(answered.session)
    assert again.session is not None and again.session.pending_field == "owner"
    assert [e.kind for e in again.effects] == ["say"]  # no second missing_list


def test_an_answer_naming_another_field_fills_that_field() -> None:
    s = next_step(session()).session
    assert s is not None
    out = reply(s, f"root_cause: {ROOT_CAUSE}")
    assert out.session is not None
    assert out.session.inputs["root_cause"] == ROOT_CAUSE
    assert out.session.pending_field == "summary"  # still waiting for the question asked


@pytest.mark.parametrize(
    ("pending", "text", "words"),
    [
        ("summary", "TBD", "placeholder"),
        ("root_cause", "Probably a race in the pool, we think", "hypothesis"),
        ("fix_ref", "the fix", "no PR"),
    ],
)
def test_bad_answers_are_rejected_with_a_reason_and_change_nothing(pending: str, text: str, words: str) -> None:
    s = session(pending_field=pending, listed_missing=True)
    out = reply(s, text)
    assert out.session is None
    assert kinds(out) == [("say", "answer_rejected")]
    assert out.effects[0].params["field"] == pending
    assert words in out.effects[0].params["reason"]


@pytest.mark.parametrize("word", ["skip", "スキップ"])
def test_skip_is_refused_for_a_required_field(word: str) -> None:
    s = session(pending_field="summary", listed_missing=True)
    out = reply(s, word)
    assert out.session is None
    assert kinds(out) == [("say", "answer_rejected")]


def test_others_cannot_answer_and_their_chatter_is_ignored() -> None:
    s = session(pending_field="summary", listed_missing=True)
    answer = reply(s, "summary: something", user="U2")
    assert answer.session is None
    assert kinds(answer) == [("ephemeral", "only_approvers")]
    assert answer.effects[0].user == "U2"
    assert reply(s, "nice work everyone", user="U2") == Outcome(None)


# scope --------------------------------------------------------------------------------------------


def test_customer_impacting_stops_for_a_scope_check() -> None:
    out = next_step(session(inputs=complete_pm(customer_impacting=True)))
    assert out.session is not None and out.session.state is State.scope_check
    assert said(out) == ["scope_stop"]
    assert "incident report" in out.effects[0].params["reason"]
    assert next_step(out.session) == Outcome(None)


@pytest.mark.parametrize("word", ["continue", "続行"])
def test_continue_confirms_the_scope_and_moves_on(word: str) -> None:
    s = session(inputs=complete_pm(customer_impacting=True), state=State.scope_check)
    out = reply(s, word)
    assert out.session is not None
    assert out.session.state is State.collecting and out.session.scope_confirmed
    assert kinds(out) == [("advance", "")]
    rendering = next_step(out.session)
    assert rendering.session is not None and rendering.session.state is State.rendering


@pytest.mark.parametrize("word", ["cancel", "キャンセル"])
def test_cancel_at_the_scope_check_cancels(word: str) -> None:
    out = reply(session(inputs=complete_pm(customer_impacting=True), state=State.scope_check), word)
    assert out.session is not None and out.session.state is State.cancelled
    assert said(out) == ["cancelled"]


def test_other_replies_at_the_scope_check_change_nothing() -> None:
    s = session(inputs=complete_pm(customer_impacting=True), state=State.scope_check)
    assert reply(s, "hmm, let me think") == Outcome(None)


def test_trivial_is_declined() -> None:
    out = next_step(session(inputs=complete_pm(trivial=True)))
    assert out.session is not None and out.session.state is State.cancelled
    assert said(out) == ["declined"]
    assert "trivial" in out.effects[0].params["reason"]


# the usually-included sections --------------------------------------------------------------------


def _walk_optional(answer: str) -> tuple[Session, list[str]]:
    """Give the four inputs, then reply `answer` to each usually-included question until it renders."""
    pm = {
        k: v
        for k, v in complete_pm().items()
        if k
        not in (
            "symptom",
            "why_symptom",
            "how_found",
            "why_missed",
            "why_missed_category",
            "action_items",
            "action_items_none",
        )
    }
    s, asked = session(inputs=pm), list[str]()
    for _ in range(10):
        out = next_step(s)
        assert out.session is not None
        s = out.session
        if s.state is State.rendering:
            return s, asked
        assert said(out) == ["ask_optional_as"]
        asked.append(s.pending_field or "")
        answered = reply(s, answer)
        assert answered.session is not None, answered
        s = answered.session
    raise AssertionError(f"never rendered; asked {asked}")


def test_each_usually_included_section_is_asked_once_and_skip_leaves_it_out() -> None:
    s, asked = _walk_optional("skip")
    assert asked == [fields[0] for _, fields in OPTIONAL_ASKS]
    assert s.skipped == {section for section, _ in OPTIONAL_ASKS}
    for name in ("symptom", "why_symptom", "how_found", "why_missed"):
        assert not s.inputs.get(name)


def test_japanese_skip_skips_a_section() -> None:
    s = session(inputs=complete_pm(symptom=None), pending_field="symptom")
    out = reply(s.with_changes(lang="ja"), "スキップ")
    assert out.session is not None and out.session.skipped == {"symptom"}
    assert out.session.pending_field is None and "symptom" not in {k for k, v in out.session.inputs.items() if v}


def test_answering_a_usually_included_question_fills_it() -> None:
    s = session(inputs=complete_pm(how_found=None), pending_field="how_found")
    out = reply(s, "git bisect over 40 commits")
    assert out.session is not None and out.session.inputs["how_found"] == "git bisect over 40 commits"
    assert out.session.pending_field is None


def test_none_answers_the_action_items_question() -> None:
    s = session(inputs=complete_pm(action_items_none=False), pending_field="action_items")
    out = reply(s, "none")
    assert out.session is not None and out.session.inputs["action_items_none"] is True


# complete → rendering ---------------------------------------------------------------------------


def test_complete_inputs_go_to_rendering_version_1() -> None:
    out = next_step(session(inputs=complete_pm()))
    assert out.session is not None
    assert out.session.state is State.rendering and out.session.version == 1
    assert kinds(out) == [("say", "rendering"), ("render", "")]
    assert out.effects[0].params == {"version": 1}


# drafted: approval ------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["post it", "yes", "go ahead", "はい", "投稿してください"])
def test_requester_approval_is_bound_to_the_shown_version(text: str) -> None:
    s = drafted(2)
    out = reply(s, text, ts=250.0)
    assert out.session is None  # the store binds the approval, not the reply
    assert out.effects == (Effect("approve", user="U1", version=2),)


def test_approval_typed_before_the_latest_version_was_shown_is_stale() -> None:
    out = reply(drafted(2), "post it", ts=150.0)  # v1 shown at 100, v2 at 200
    assert out.session is None
    assert [e.kind for e in out.effects] == ["say"]
    assert out.effects[0].key == "stale_approval"
    assert out.effects[0].params == {"shown": 1, "version": 2}


def test_a_question_is_not_an_approval_and_says_how_to_approve() -> None:
    out = reply(drafted(), "yes?", ts=500.0)
    assert out.session is None
    assert [(e.kind, e.key) for e in out.effects] == [("say", "approve_how")]


def test_a_stranger_cannot_approve() -> None:
    out = reply(drafted(), "post it", user="U9", ts=500.0)
    assert out.session is None
    assert out.effects == (Effect("ephemeral", "only_approvers", {"requester": "U1"}, user="U9"),)


def test_a_configured_approver_can_approve() -> None:
    out = reply(drafted(), "post it", user="U7", approvers=frozenset({"U7"}), ts=500.0)
    assert out.effects == (Effect("approve", user="U7", version=1),)


def test_output_only_destinations_are_not_approved_for_posting() -> None:
    s = drafted(inputs=complete_pm(destination="docs_file"))
    out = reply(s, "post it", ts=500.0)
    assert out.session is None
    assert said(out) == ["output_only"]
    assert not [e for e in out.effects if e.kind == "approve"]


# drafted: revisions -----------------------------------------------------------------------------


def test_a_field_reply_makes_a_new_version() -> None:
    out = reply(drafted(), f"root_cause: {ROOT_CAUSE}", ts=500.0)
    assert out.session is not None
    assert out.session.state is State.rendering and out.session.version == 2
    assert out.session.inputs["root_cause"] == ROOT_CAUSE
    assert out.session.revision_requests == 1
    assert kinds(out) == [("say", "rendering"), ("render", "")]


def test_a_rejected_revision_changes_nothing() -> None:
    out = reply(drafted(), "root_cause: maybe a race, not sure", ts=500.0)
    assert out.session is None
    assert kinds(out) == [("say", "answer_rejected")]


def test_the_third_revision_asks_which_section_first_then_the_next_field_reply_applies() -> None:
    s = drafted(3, revision_requests=2)
    asked = reply(s, f"root_cause: {ROOT_CAUSE}", ts=500.0)
    assert said(asked) == ["third_revision"]
    assert asked.session is not None
    assert asked.session.inputs == s.inputs and asked.session.version == 3 and asked.session.state is State.drafted
    assert asked.session.awaiting_revision_target
    applied = reply(asked.session, f"root_cause: {ROOT_CAUSE}", ts=600.0)
    assert applied.session is not None
    assert applied.session.inputs["root_cause"] == ROOT_CAUSE and applied.session.version == 4
    assert applied.session.state is State.rendering and not applied.session.awaiting_revision_target


def test_a_revision_in_words_gets_a_hint_not_a_rewrite() -> None:
    out = reply(drafted(), "please fix the summary", ts=500.0)
    assert out.session is None
    assert said(out) == ["revise_hint_as"]
    assert out.effects[0].params == {"field": "summary"}


# after approval: frozen -------------------------------------------------------------------------


def approved(state: State) -> Session:
    extra: dict[str, Any] = {"comment_id": "10001", "comment_url": "https://jira/x"} if state is State.posted else {}
    return drafted(approved_version=1, approved_by="U1", state=state, **extra)


@pytest.mark.parametrize("text", [f"root_cause: {ROOT_CAUSE}", "please fix the summary"])
def test_posting_refuses_edits(text: str) -> None:
    out = reply(approved(State.posting), text, ts=500.0)
    assert out.session is None
    assert said(out) == ["frozen"]
    assert [e.kind for e in out.effects] == ["say"]


@pytest.mark.parametrize("text", ["post it", "はい"])
def test_posting_refuses_a_second_approval_with_one_reply(text: str) -> None:
    out = reply(approved(State.posting), text, ts=500.0)
    assert out.session is None
    assert [e.kind for e in out.effects] == ["say"]  # a refusal, never a second approve


@pytest.mark.parametrize("text", [f"root_cause: {ROOT_CAUSE}", "post it", "cancel"])
def test_posted_sessions_do_nothing(text: str) -> None:
    assert reply(approved(State.posted), text, ts=500.0) == Outcome(None)


@pytest.mark.parametrize("word", ["cancel", "キャンセル"])
def test_cancel_while_posting_is_refused(word: str) -> None:
    out = reply(approved(State.posting), word, ts=500.0)
    assert out.session is None
    assert said(out) == ["frozen"]


@pytest.mark.parametrize("word", ["cancel", "キャンセル"])
def test_cancel_a_draft(word: str) -> None:
    out = reply(drafted(), word, ts=500.0)
    assert out.session is not None and out.session.state is State.cancelled
    assert said(out) == ["cancelled"]


# the Edit modal ---------------------------------------------------------------------------------


def test_edit_replaces_the_inputs_and_renders_a_new_version() -> None:
    new = complete_pm(summary="A new summary of what broke. Fixed by the inclusive bound.", how_found=None)
    out = on_edit(drafted(), {**new, "ticket": "PROJ-2", "lang": "ja"})
    assert out.session is not None
    assert out.session.state is State.rendering and out.session.version == 2
    assert out.session.inputs == new  # replaced whole: how_found is gone
    assert out.session.ticket == "PROJ-2" and out.session.lang == "ja"
    assert out.session.revision_requests == 1
    assert kinds(out) == [("say", "rendering"), ("render", "")]


def test_edit_that_removes_a_required_input_goes_back_to_collecting() -> None:
    out = on_edit(drafted(), complete_pm(root_cause=None))
    assert out.session is not None
    assert out.session.state is State.collecting and out.session.version == 1
    assert not out.session.listed_missing
    assert kinds(out) == [("advance", "")]
    asked = next_step(out.session)
    assert asked.session is not None and asked.session.pending_field == "root_cause"


def test_edit_after_approval_is_frozen() -> None:
    out = on_edit(approved(State.posting), complete_pm(summary="changed"))
    assert out.session is None
    assert said(out) == ["frozen"]


# replies the bot cannot act on yet are answered, never dropped silently --------------------------


@pytest.mark.parametrize("text", ["yes", "summary: a new summary"])
def test_a_reply_while_rendering_is_told_to_come_again(text: str) -> None:
    s = session(inputs=complete_pm(), state=State.rendering, version=2)
    outcome = reply(s, text)
    assert outcome.session is None and said(outcome) == ["still_rendering"]


@pytest.mark.parametrize("text", ["yes", "summary: a new summary"])
def test_a_reply_at_the_scope_question_asks_for_continue_or_cancel(text: str) -> None:
    s = session(inputs=complete_pm(customer_impacting=True), state=State.scope_check)
    outcome = reply(s, text)
    assert outcome.session is None and said(outcome) == ["scope_first"]


def test_a_yes_addressed_to_a_colleague_approves_nothing() -> None:
    s = drafted()
    assert on_reply(s, "<@U0ALICE> yes", user="U1", approvers=NOBODY, ts=10_000.0, bot_user_id="UBOT").effects == ()
    assert kinds(on_reply(s, "<@UBOT> yes", user="U1", approvers=NOBODY, ts=10_000.0, bot_user_id="UBOT")) == [
        ("approve", "")
    ]


# The structured evidence in the thread (DESIGN §4 "Modal"): buttons, checkboxes, typed answers


def test_the_structured_questions_carry_the_session_for_their_buttons() -> None:
    s = session(inputs=complete_pm(repro_rate=None), listed_missing=True)
    out = next_step(s)
    assert out.session is not None and out.session.pending_field == "repro_rate"
    assert out.effects[-1].key == "ask_field_as"
    assert out.effects[-1].params["field"] == "repro_rate" and out.effects[-1].params["session"] == s.id


@pytest.mark.parametrize(
    "text",
    [
        "original repro passes, 失敗していたテストが成功",
        "元の再現手順が成功、failing_test_passes",
        "Failing-Test-Passes\nOriginal repro passes",
    ],
)
def test_typed_kinds_in_either_language_answer_the_checkboxes_question(text: str) -> None:
    s = session(inputs=complete_pm(validation_kinds=[]), pending_field="validation_kinds", listed_missing=True)
    out = reply(s, text)
    assert out.session is not None and out.session.pending_field is None
    assert out.session.inputs["validation_kinds"] == ["original_repro_passes", "failing_test_passes"]
    assert next_step(out.session).session is not None


@pytest.mark.parametrize(
    ("pending", "text", "words"),
    [
        ("repro_rate", "rarely", "Rarely"),
        ("repro_rate", "sometimes", "not one of"),
        ("validation_kinds", "stress or soak run, other configurations", "alone do not show"),
    ],
)
def test_structured_answers_that_are_not_enough_are_rejected(pending: str, text: str, words: str) -> None:
    s = session(inputs=complete_pm(**{pending: None}), pending_field=pending, listed_missing=True)
    out = reply(s, text)
    assert out.session is None
    assert kinds(out) == [("say", "answer_rejected")] and words in out.effects[0].params["reason"]


def test_a_button_answers_its_question_and_moves_on() -> None:
    s = session(inputs=complete_pm(repro_rate=None), pending_field="repro_rate", listed_missing=True)
    out = on_choice(s, "repro_rate", ["every_run"], user="U1", approvers=NOBODY)
    assert out.session is not None and out.session.inputs["repro_rate"] == "every_run"
    assert out.session.pending_field is None and kinds(out) == [("advance", "")]


def test_done_with_no_box_ticked_is_rejected_and_nothing_changes() -> None:
    s = session(inputs=complete_pm(validation_kinds=[]), pending_field="validation_kinds", listed_missing=True)
    out = on_choice(s, "validation_kinds", [], user="U1", approvers=NOBODY)
    assert out.session is None and kinds(out) == [("say", "answer_rejected")]


def test_the_none_button_answers_the_action_items_question() -> None:
    s = session(inputs=complete_pm(action_items_none=False), pending_field="action_items")
    out = on_choice(s, "action_items", ["none"], user="U1", approvers=NOBODY)
    assert out.session is not None and out.session.inputs["action_items_none"] is True


def test_a_strangers_click_is_told_privately_and_an_old_question_changes_nothing() -> None:
    s = session(inputs=complete_pm(repro_rate=None), pending_field="repro_rate", listed_missing=True)
    stranger = on_choice(s, "repro_rate", ["every_run"], user="U9", approvers=NOBODY)
    assert stranger.session is None and kinds(stranger) == [("ephemeral", "only_approvers")]
    assert on_choice(drafted(), "repro_rate", ["rarely"], user="U1", approvers=NOBODY) == Outcome(None)
    assert on_choice(
        drafted(state=State.cancelled), "repro_rate", ["every_run"], user="U1", approvers=NOBODY
    ) == Outcome(None)


# Resume (Edit) on a session still collecting inputs (f-home) -------------------------------------


def test_resuming_a_collecting_session_fills_the_inputs_and_renders_without_counting_a_revision() -> None:
    waiting = session(inputs=complete_pm(repro=None), pending_field="repro", listed_missing=True, revision_requests=2)
    out = on_edit(waiting, complete_pm())
    assert out.session is not None and out.session.state is State.rendering and out.session.version == 1
    assert out.session.revision_requests == 2 and out.session.pending_field is None
    assert kinds(out) == [("say", "rendering"), ("render", "")]


def test_resuming_with_an_input_still_missing_asks_for_it_again() -> None:
    waiting = session(inputs=complete_pm(repro=None, validation=None), pending_field="repro", listed_missing=True)
    out = on_edit(waiting, complete_pm(validation=None))
    assert out.session is not None and out.session.state is State.collecting
    assert kinds(out) == [("advance", "")]
    asked = next_step(out.session)
    assert asked.session is not None and asked.session.pending_field == "validation"


def test_a_rendering_session_is_not_resumed() -> None:
    out = on_edit(session(state=State.rendering, version=1), complete_pm())
    assert out.session is None and said(out) == ["frozen"]


@pytest.mark.parametrize("deep", ["- " * 248 + "x", ">" * 300 + " x"])
def test_an_answer_nested_too_deep_is_refused_plainly_and_the_session_kept(deep: str) -> None:
    # 248 nested list levels once raised RecursionError; now the field is named and nothing changes.
    out = reply(session(pending_field="root_cause", listed_missing=True), deep)
    assert out.session is None
    assert kinds(out) == [("say", "answer_rejected")]
    assert "20 levels" in out.effects[0].params["reason"]
    revision = reply(drafted(), f"root_cause: {deep}", ts=500.0)
    assert revision.session is None and kinds(revision) == [("say", "answer_rejected")]
