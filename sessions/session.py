"""One `/post-mortem` run as data: its states, the allowed transitions, who may approve (pure)."""

from __future__ import annotations

import re
import secrets
import time
from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from postmortem.model import TICKET_RE, Lang


class State(StrEnum):
    """Where a session is (DESIGN §3): collecting → scope_check → rendering → drafted → posting → posted."""

    collecting = "collecting"
    scope_check = "scope_check"
    rendering = "rendering"
    drafted = "drafted"
    posting = "posting"
    posted = "posted"
    failed = "failed"
    cancelled = "cancelled"
    expired = "expired"


#: States nothing leaves; no write changes a session in one: the record of what happened stays.
FINAL_STATES: frozenset[State] = frozenset({State.posted, State.cancelled, State.expired})

#: Every allowed transition, written out. A session never "moves" to the state it is in.
#: drafted → collecting / scope_check: the Edit modal emptied a required input or set a scope flag.
#: posting has no way to cancelled / expired: the post may be in flight; it ends in posted or failed.
#: failed → collecting / scope_check: an Edit after a failed render emptied an input or set a scope flag.
#: failed → posting (a failed post, on Retry) and failed → rendering (a failed render) are told apart by
#: `approved_version` in `valid_move`.
TRANSITIONS: dict[State, frozenset[State]] = {
    State.collecting: frozenset({State.scope_check, State.rendering, State.cancelled, State.expired}),
    State.scope_check: frozenset({State.collecting, State.rendering, State.cancelled, State.expired}),
    State.rendering: frozenset({State.drafted, State.failed, State.cancelled, State.expired}),
    State.drafted: frozenset(
        {State.rendering, State.posting, State.collecting, State.scope_check, State.cancelled, State.expired}
    ),
    State.posting: frozenset({State.posted, State.failed}),
    State.failed: frozenset(
        {State.posting, State.rendering, State.collecting, State.scope_check, State.cancelled, State.expired}
    ),
    State.posted: frozenset(),
    State.cancelled: frozenset(),
    State.expired: frozenset(),
}

#: Session ids go into Redis keys, RQ job ids and Jira comment properties: letters, digits, `_`, `-`.
SESSION_ID_RE = re.compile(r"^[A-Za-z0-9_-]{1,64}$")

#: Session fields no longer written; a session stored with one still loads (the value is dropped).
RETIRED_FIELDS: frozenset[str] = frozenset({"asked_optional"})
#: Fields stored under an older name, read under the new one (`pm` held a dict, not the model `pm` elsewhere).
RENAMED_FIELDS: dict[str, str] = {"pm": "inputs"}

#: Revisions that just re-render; from the next one on the bot first asks which section is wrong
#: (docs/rules.md#rules-that-are-never-bent).
FREE_REVISIONS = 2


def new_session_id() -> str:
    """A fresh, URL- and RQ-safe session id."""
    return secrets.token_hex(8)


class Draft(BaseModel):
    """One rendered version: the digests of what was shown, so the bytes posted are the bytes approved."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    version: int = Field(ge=1)
    sha256: str = Field(pattern=r"^[0-9a-f]{64}$")
    body_sha256: str = Field(pattern=r"^[0-9a-f]{64}$")
    shown_at: float | None = None
    message_ts: str | None = None


class Session(BaseModel):
    """Everything the bot knows about one run; stored as JSON in Redis so any replica can continue it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(default_factory=new_session_id, pattern=SESSION_ID_RE.pattern)
    state: State = State.collecting
    ticket: str = Field(pattern=TICKET_RE.pattern)  # names Jira URLs and file names: a whole key or nothing
    requester: str = Field(min_length=1)
    channel: str = Field(min_length=1)
    thread_ts: str | None = None
    lang: Lang = "en"
    #: The person's inputs so far, by DESIGN §2 field name (the model is made from them: conversation.model_of).
    inputs: dict[str, Any] = Field(default_factory=dict)
    version: int = Field(default=0, ge=0)
    drafts: tuple[Draft, ...] = ()
    pending_field: str | None = None
    listed_missing: bool = False
    skipped: frozenset[str] = frozenset()
    scope_confirmed: bool = False
    revision_requests: int = Field(default=0, ge=0)
    awaiting_revision_target: bool = False
    approved_version: int | None = None
    approved_by: str | None = None
    comment_id: str | None = None
    comment_url: str | None = None
    #: Amendments (DESIGN §4 "Amendment"): the version the Jira comment holds and who approved it, while a newer
    #: version is prepared to replace it (`amending`), and how many amendments were applied.
    posted_version: int | None = None
    posted_by: str | None = None
    amending: bool = False
    amendments: int = Field(default=0, ge=0)
    error: str | None = None
    #: Where a message shortcut started it (DESIGN §4 "Starting where the debugging happened"): the debugging
    #: thread's channel, root ts and permalink, for its one reply and the Jira comment's link back.
    debug_channel: str | None = None
    debug_ts: str | None = None
    debug_url: str | None = None
    created_at: float = Field(default_factory=time.time)
    updated_at: float = Field(default_factory=time.time)

    @model_validator(mode="before")
    @classmethod
    def _drop_retired(cls, data: Any) -> Any:
        """Sessions stored before a field was retired or renamed still load: retired keys are dropped, renamed
        ones read under their new name."""
        if isinstance(data, dict) and any(key in data for key in (*RETIRED_FIELDS, *RENAMED_FIELDS)):
            return {RENAMED_FIELDS.get(k, k): v for k, v in data.items() if k not in RETIRED_FIELDS}
        return data

    def with_changes(self, **changes: Any) -> Session:
        """A validated copy with some fields changed (the model is frozen)."""
        return Session.model_validate({**self.model_dump(), **changes})

    def draft(self, version: int) -> Draft | None:
        """The draft record of one version, if it was rendered."""
        return next((d for d in self.drafts if d.version == version), None)

    def shown_version(self, reply_ts: float) -> int | None:
        """The latest version whose draft was shown at or before a reply: what that reply can approve."""
        shown = [d.version for d in self.drafts if d.shown_at is not None and d.shown_at <= reply_ts]
        return max(shown, default=None)

    @property
    def is_final(self) -> bool:
        """True once nothing can change the session any more."""
        return self.state in FINAL_STATES


def allowed(from_state: State, to_state: State) -> bool:
    """Whether the table allows this move at all."""
    return to_state in TRANSITIONS[from_state]


#: Fields that name the run; no update changes them.
_IDENTITY = ("id", "requester", "channel", "created_at")

#: The record of what was approved (DESIGN §3): fixed once an approval is accepted.
APPROVED_FIELDS = ("inputs", "ticket", "lang", "version", "drafts", "approved_version", "approved_by")


def valid_move(before: Session, after: Session) -> bool:
    """The table plus the guards that need both sides: posting needs a bound approval of a shown draft."""
    from sessions import amendment, followup_keys  # they import this module; their moves live with their steps

    if changed(before, after, _IDENTITY):
        return False
    if followup_keys.records_keys(before, after):  # a created follow-up issue's key written into its item
        return True
    if before.is_final:
        return amendment.begins(before, after)
    if before.amending and (verdict := amendment.step_verdict(before, after)) is not None:
        return verdict
    if amendment.releases_approval(before, after):
        return True
    if before.approved_version is not None and changed(before, after, APPROVED_FIELDS):
        return False
    if before.state is after.state:
        return True
    if not allowed(before.state, after.state):
        return False
    if after.state is State.posting:
        return _approved_draft_shown(after) and (
            before.state is not State.drafted or after.approved_version == before.version
        )
    if after.state is State.rendering:  # a new version, or the same one again after a failed render
        if before.state is State.failed:
            return before.approved_version is None and after.version == before.version
        return after.version == before.version + 1
    if after.state is State.posted:
        return bool(after.comment_id and after.comment_url)
    # An Edit after a failed render.
    if before.state is State.failed and after.state in (State.collecting, State.scope_check):
        return before.approved_version is None
    if after.state is State.drafted:
        draft = after.draft(after.version)
        return draft is not None and draft.shown_at is not None
    return True


def rebinds_approval(before: Session, after: Session) -> bool:
    """Whether a change of the approval is an amendment's own, not a bypass of `approve` (sessions/amendment.py)."""
    from sessions import amendment  # it imports this module; its moves live with its steps

    return amendment.rebinds_approval(before, after)


def changed(before: Session, after: Session, fields: tuple[str, ...]) -> bool:
    """Whether any of `fields` differs between the two."""
    return any(getattr(before, f) != getattr(after, f) for f in fields)


def _approved_draft_shown(session: Session) -> bool:
    if session.approved_version is None or not session.approved_by:
        return False
    draft = session.draft(session.approved_version)
    return draft is not None and draft.shown_at is not None


def may_approve(session: Session, user: str, approvers: frozenset[str]) -> bool:
    """The requester, or one of the configured approvers (POSTMORTEM_APPROVERS), may approve a draft."""
    return bool(user) and (user == session.requester or user in approvers)


def may_publish(session: Session, user: str, approvers: frozenset[str], *, reviewer: bool) -> bool:
    """Whose approval posts: with POSTMORTEM_APPROVAL=reviewer, an approver other than the requester."""
    if reviewer:
        return bool(user) and user != session.requester and user in approvers
    return may_approve(session, user, approvers)


def revision_step(session: Session) -> Literal["rerender", "ask_target"]:
    """Seed: a first and second revision just re-render; from the third on, first ask which section is wrong.

    The handler sets `awaiting_revision_target` when this says "ask_target"; the next revision after the
    person names a section re-renders (and clears the flag), so every revision past the second asks once.
    """
    if session.revision_requests >= FREE_REVISIONS and not session.awaiting_revision_target:
        return "ask_target"
    return "rerender"


def begin_render(session: Session) -> Session | None:
    """The session moved to rendering: a new version, or the same one when retrying a failed render."""
    if session.state is State.failed:
        if session.approved_version is not None:
            return None
        return session.with_changes(state=State.rendering, error=None)
    if not allowed(session.state, State.rendering):
        return None
    return session.with_changes(state=State.rendering, version=session.version + 1, error=None)


#: States in which a session can still be cancelled (an approved post is never cancelled mid-flight).
CANCELLABLE_STATES: frozenset[State] = frozenset(
    {State.collecting, State.scope_check, State.rendering, State.drafted, State.failed}
)


#: States the Edit (Resume) modal reopens in: a draft and a failed render are revised; a session still
#: collecting inputs or waiting for a scope answer is resumed (its inputs replaced, the questions go on).
EDITABLE_STATES: frozenset[State] = frozenset({State.collecting, State.scope_check, State.drafted, State.failed})

#: Of those, the states in which an edit is a revision of a shown draft (it counts toward the third).
REVISED_STATES: frozenset[State] = frozenset({State.drafted, State.failed})


def editable(session: Session) -> bool:
    """Whether the Edit (Resume) modal may reopen: never after an approval (DESIGN §3)."""
    return session.approved_version is None and session.state in EDITABLE_STATES
