"""The App Home view, the list and the help: pure Block Kit, only the person's own sessions."""

from __future__ import annotations

import pytest

from emulators import slack_limits
from postmortem.model import Lang
from renderers.home import MAX_ROWS, help_message, home_view, list_message
from renderers.prompts import ACTION_CANCEL, ACTION_EDIT
from sessions.session import Session, State

pytestmark = pytest.mark.unit


def session(
    state: State = State.collecting,
    *,
    user: str = "U1",
    created: float = 0.0,
    version: int = 1,
    ticket: str = "PROJ-1",
    approved: bool = False,
) -> Session:
    return Session(
        ticket=ticket,
        requester=user,
        channel="C1",
        thread_ts="1.1",
        state=state,
        version=version,
        created_at=1000.0 + created,
        approved_version=version if approved else None,
        approved_by="U1" if approved else None,
    )


def texts(view: dict[str, object]) -> list[str]:
    blocks = view["blocks"]
    assert isinstance(blocks, list)
    return [b["text"]["text"] for b in blocks if b["type"] in ("section", "header")]


def buttons(view: dict[str, object], session_id: str) -> list[str]:
    blocks = view["blocks"]
    assert isinstance(blocks, list)
    return [e["action_id"] for b in blocks if b["type"] == "actions" for e in b["elements"] if e["value"] == session_id]


def test_open_first_then_posted_newest_first_with_links() -> None:
    posted = session(State.posted, created=5, ticket="PROJ-5", approved=True)
    old_open = session(State.drafted, created=1, ticket="PROJ-1")
    new_open = session(State.collecting, created=3, ticket="PROJ-3")
    cancelled = session(State.cancelled, created=9, ticket="PROJ-9")
    view = home_view("U1", [posted, old_open, new_open, cancelled], [], {old_open.id: "https://t/1"}, "en")
    lines = texts(view)
    order = [next(i for i, t in enumerate(lines) if key in t) for key in ("PROJ-3", "PROJ-1", "PROJ-5")]
    assert order == sorted(order)
    assert not any("PROJ-9" in t for t in lines)
    assert any("<https://t/1|thread>" in t and "v1" in t for t in lines)
    assert slack_limits.block_problems(view["blocks"], "/view/blocks") == []


@pytest.mark.parametrize(
    ("state", "approved", "expected"),
    [
        (State.drafted, False, [ACTION_EDIT, ACTION_CANCEL]),
        (State.failed, False, [ACTION_EDIT, ACTION_CANCEL]),
        (State.failed, True, [ACTION_CANCEL]),
        (State.collecting, False, [ACTION_EDIT, ACTION_CANCEL]),
        (State.posting, True, []),
        (State.posted, True, []),
    ],
)
def test_edit_and_cancel_only_where_the_state_allows(state: State, approved: bool, expected: list[str]) -> None:
    row = session(state, approved=approved)
    assert buttons(home_view("U1", [row], [], {}, "en"), row.id) == expected


def test_nobody_sees_another_persons_sessions() -> None:
    theirs = session(State.drafted, user="U2", ticket="SECRET-1")
    view = home_view("U1", [theirs], [], {}, "en")
    assert not any("SECRET-1" in t for t in texts(view))
    assert any("Nothing open" in t for t in texts(view))
    assert list_message("U1", [theirs], {}, "en")["text"].startswith("You have no post-mortem sessions")


def test_at_most_20_rows_and_100_blocks_even_for_an_approver() -> None:
    own = [session(State.drafted, created=i, ticket=f"OWN-{i + 1}") for i in range(40)]
    awaiting = [session(State.drafted, user="U2", created=i, ticket=f"THEIRS-{i + 1}") for i in range(40)]
    view = home_view("U1", own, awaiting, {}, "en")
    lines = texts(view)
    assert sum("OWN-" in t for t in lines) == MAX_ROWS and sum("THEIRS-" in t for t in lines) == MAX_ROWS
    assert "OWN-39" in "".join(lines) and "OWN-19" not in "".join(lines)
    assert len(view["blocks"]) <= 100
    assert slack_limits.block_problems(view["blocks"], "/view/blocks") == []


def test_the_approver_section_shows_other_peoples_drafts_with_their_requester() -> None:
    theirs, mine = session(State.drafted, user="U2", ticket="PROJ-7"), session(State.drafted, ticket="PROJ-8")
    view = home_view("U1", [mine], [theirs, mine], {}, "ja")
    lines = texts(view)
    assert "あなたの承認待ちの下書き" in lines
    assert sum("PROJ-8" in t for t in lines) == 1
    assert any("PROJ-7" in t and "<@U2>" in t for t in lines)
    assert buttons(view, theirs.id) == [ACTION_EDIT, ACTION_CANCEL]


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_list_and_help_are_ephemeral_in_the_callers_language(lang: Lang) -> None:
    rows = [
        session(State.drafted, created=2, ticket="PROJ-2", version=3),
        session(State.posted, created=1, approved=True),
    ]
    listed = list_message("U1", rows, {rows[0].id: "https://t/2"}, lang)
    assert listed["response_type"] == "ephemeral"
    assert listed["text"].index("PROJ-2") < listed["text"].index("PROJ-1")
    assert "v3" in listed["text"] and "https://t/2" in listed["text"]
    assert ("下書き済み・承認待ち" in listed["text"]) == (lang == "ja")
    shown = help_message(lang)
    assert shown["response_type"] == "ephemeral"
    for word in ("post it", "投稿してください", "/post-mortem list", "cancel"):
        assert word in shown["text"]
