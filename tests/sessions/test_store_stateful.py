"""Random reply sequences against the store: one approval at most, no post without it, finals stay final."""

from __future__ import annotations

import hashlib
from collections import Counter

import pytest
import redis
from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from rules.classifier import Kind, classify_reply
from sessions.session import FINAL_STATES, Session, State, allowed, begin_render, may_approve, revision_step
from sessions.store import SessionStore
from tests.helpers import TEST_REDIS_URL

pytestmark = pytest.mark.unit

REQUESTER, APPROVER, STRANGER = "U1", "U9", "U2"
APPROVERS = frozenset({APPROVER})
USERS = st.sampled_from([REQUESTER, APPROVER, STRANGER])
TEXTS = st.sampled_from(
    [
        "yes",
        "post it",
        "はい",
        "go ahead :+1:",
        "yes?",
        "not yet",
        "yes but fix the summary",
        "no",
        "summary: a better summary",
        "root_cause: `evict()` drops the tail",
        "fix the root cause",
        "cancel",
        "キャンセル",
        "continue",
        "skip",
        "foo: bar",
        "投稿してください",
    ]
)
CHANNEL, THREAD = "C1", "100.1"


class ReplyMachine(RuleBasedStateMachine):
    """A thin handler and thin workers over the real store, driven by random deliveries."""

    def __init__(self) -> None:
        super().__init__()
        self.conn = redis.Redis.from_url(TEST_REDIS_URL, socket_timeout=2)
        self.conn.flushdb()
        self.store = SessionStore(self.conn, ttl_seconds=600)
        session = self.store.create(Session(ticket="PROJ-1", requester=REQUESTER, channel=CHANNEL))
        self.id = session.id
        self.store.bind_thread(self.id, CHANNEL, THREAD)
        self.approvals: Counter[int] = Counter()
        self.comments: list[bytes] = []  # the fake Jira issue's comments by this session
        self.final: Session | None = None
        self.last = self.session()

    def teardown(self) -> None:
        self.conn.flushdb()
        self.conn.close()

    def session(self) -> Session:
        s = self.store.get(self.id)
        assert s is not None
        return s

    @initialize(drafts=st.integers(0, 2))
    def start(self, drafts: int) -> None:
        """Begin from collecting, or with some versions already drafted, so later states are explored."""
        for _ in range(drafts):
            self.complete()
            self.render(roll=1)
        self.last = self.session()

    # the handler: dedup, classify, one transition

    @rule(text=TEXTS, user=USERS, event=st.integers(0, 40))
    def reply(self, text: str, user: str, event: int) -> None:
        if not self.store.claim_once(f"slack:Ev{event}", 600):
            return
        s = self.store.find_by_thread(CHANNEL, THREAD)
        assert s is not None
        kind = classify_reply(text).kind
        if not may_approve(s, user, APPROVERS):
            return
        if kind is Kind.approve:
            self._approve(s.version, user)
        elif kind is Kind.cancel:
            self.store.transition(self.id, set(State) - FINAL_STATES - {State.posting}, State.cancelled)
        elif kind is Kind.continue_:
            self.store.update(self.id, begin_render, expect_states={State.scope_check})
        elif kind in (Kind.revise, Kind.field_answer):
            self.store.update(self.id, _revise, expect_states={State.drafted})

    @rule(version=st.integers(0, 4), user=USERS)
    def replayed_approval(self, version: int, user: str) -> None:
        """A second replica, or a stale reply, approving some version without the dedup claim."""
        self._approve(version, user)

    def _approve(self, version: int, user: str) -> None:
        if self.store.approve(self.id, version=version, user=user, approvers=APPROVERS) is not None:
            assert may_approve(self.last, user, APPROVERS)
            assert self.last.state is State.drafted and version == self.last.version  # only the current draft
            self.approvals[version] += 1

    # the workers and other events

    @rule()
    def scope_question(self) -> None:
        self.store.transition(self.id, {State.collecting}, State.scope_check)

    @rule()
    def complete(self) -> None:
        self.store.update(self.id, begin_render)

    @rule(roll=st.integers(0, 3))
    def render(self, roll: int) -> None:
        s = self.session()
        if s.state is not State.rendering:
            return
        if roll == 0:
            self.store.record_failed(self.id, "render failed")
            return
        body = f'{{"v": {s.version}, "pm": {sorted(s.inputs.items())!r}}}'.encode()
        self.store.save_draft(self.id, s.version, body, hashlib.sha256(body).hexdigest())
        self.store.mark_drafted(self.id, version=s.version, shown_at=float(s.version))

    @rule(outcome=st.sampled_from(["ok", "ok", "fail_before", "fail_after"]))
    def post(self, outcome: str) -> None:
        s = self.session()
        if s.state is not State.posting:
            return
        body = self.store.approved_body(s)
        assert body is not None
        if self.comments:  # the worker finds its own earlier comment before posting again
            self.store.record_posted(self.id, "c1", "https://jira/c1")
            return
        if outcome != "fail_before":
            self.comments.append(body)
        if outcome == "ok":
            self.store.record_posted(self.id, "c1", "https://jira/c1")
        else:
            self.store.record_failed(self.id, "timeout")

    @rule()
    def retry(self) -> None:
        self.store.retry(self.id)

    @rule(to=st.sampled_from(list(State)), roll=st.integers(0, 9))
    def arbitrary_transition(self, to: State, roll: int) -> None:
        if to not in FINAL_STATES or roll == 0:  # rarely end early, so later states are explored too
            self.store.transition(self.id, set(State), to)

    @rule(roll=st.integers(0, 9))
    def expire(self, roll: int) -> None:
        if roll == 0:
            self.store.transition(self.id, set(State) - {State.posting}, State.expired)

    # invariants

    @invariant()
    def hold(self) -> None:
        s = self.session()
        event(f"reached {s.state.value}")  # --hypothesis-show-statistics shows the states explored
        self.one_approval_at_most()
        self.moves_follow_the_table(s)
        self.posting_needs_an_allowed_approval_of_shown_bytes(s)

    def one_approval_at_most(self) -> None:
        assert sum(self.approvals.values()) <= 1

    def moves_follow_the_table(self, s: Session) -> None:
        assert s.state is self.last.state or allowed(self.last.state, s.state)
        if self.final is not None:
            assert s == self.final
        if s.state in FINAL_STATES and self.final is None:
            self.final = s
        self.last = s

    def posting_needs_an_allowed_approval_of_shown_bytes(self, s: Session) -> None:
        if s.state in (State.posting, State.posted) or s.approved_version is not None:
            assert s.approved_version is not None and s.approved_by in {REQUESTER, APPROVER}
            assert self.approvals[s.approved_version] == 1
            draft = s.draft(s.approved_version)
            assert draft is not None and draft.shown_at is not None
            assert self.store.approved_body(s) is not None
        assert len(self.comments) <= 1
        if self.comments:
            assert self.comments[0] == self.store.approved_body(s)
        if s.state is State.posted:
            assert self.comments


def _revise(s: Session) -> Session | None:
    """The handler's revision: re-render, except the third time, when it first asks which section."""
    if revision_step(s) == "ask_target":
        return s.with_changes(awaiting_revision_target=True)
    changed = s.with_changes(
        inputs={**s.inputs, "summary": f"revision {s.revision_requests + 1}"},
        revision_requests=s.revision_requests + 1,
        awaiting_revision_target=False,
    )
    return begin_render(changed)


ReplyMachine.TestCase.settings = settings(
    max_examples=150, stateful_step_count=50, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
TestReplyMachine = ReplyMachine.TestCase
