"""The demo's view of follow-up issues: the comment body expected in Jira once the worker created them."""

from __future__ import annotations

import json

from renderers.followups import fill
from sessions.store import SessionStore, connect
from workers.followups import Marks


def with_keys(shown: bytes, redis_url: str) -> tuple[bytes, list[str]]:
    """The comment body shown with its slots filled by the keys of the issues the worker created, and one line per
    issue (`KEY: summary`); the body itself when the draft had no `tracking: new` item."""
    value = json.loads(shown)["properties"][0]["value"]
    conn = connect(redis_url, timeout=5.0)
    try:
        marks, kept = Marks(str(value["session"]), int(value["version"])), SessionStore(conn)
        planned = json.loads(kept.noted(marks.plan()) or "[]")
        keys = {p["slot"]: kept.noted(marks.key(p["item"])) or "" for p in planned}
    finally:
        conn.close()
    lines = [f"{keys[p['slot']]}: {p['summary']}" for p in planned]
    return (fill(shown, keys) if keys else shown), lines
