"""Inputs and store steps shared by the tests of sessions, handlers, workers and the end-to-end runs."""

from __future__ import annotations

import hashlib
from typing import Any

from postmortem.model import load_postmortem
from sessions.session import Session, State, begin_render
from sessions.store import SessionStore
from tests.helpers import EXAMPLES

ROOT_CAUSE = (
    "`Pool::release` returns the connection before `flush()` completes, so the next borrower reads stale bytes."
)


def complete_pm(**overrides: Any) -> dict[str, Any]:
    """Every input and every usually-included section given (the cache-eviction example, filled out)."""
    pm = load_postmortem(EXAMPLES / "cache-eviction.en.yaml")
    data = pm.model_dump(mode="json", exclude={"ticket", "lang"})
    data.update(why_symptom="Stale pages were served after compaction.", how_found="Bisected with --count 20.")
    data.update(overrides)
    return data


#: The sessions' lifetime in the store tests (seconds): short, so a test can read it back from Redis.
TTL = 3600


def body_of(version: int) -> bytes:
    return f'{{"body": {{"version": {version}}}, "note": "caf\\u00e9"}}'.encode()


def to_drafted(store: SessionStore, session_id: str) -> Session:
    """Render and show the next version, as the render worker does."""
    s = store.update(session_id, begin_render)
    assert s is not None
    body = body_of(s.version)
    assert store.save_draft(session_id, s.version, body, hashlib.sha256(b"adf").hexdigest()) is not None
    drafted = store.mark_drafted(session_id, version=s.version, shown_at=1000.0 + s.version, message_ts="1.2")
    assert drafted is not None and drafted.state is State.drafted
    return drafted
