"""Follow-up issue keys in the session's record (DESIGN §4 "Follow-up issues", "Amendment"). Pure.

Once the issue of an action item marked `new` exists, the session's inputs say its key in that item's `tracking`
(`CACHE-901`), from the moment it is known (workers/followups.py `ensure_issues`, while posting). So the Amend and
Edit forms prefill the key, a later version renders the key where the posted one had it, and an item that keeps its
key is never created again, whatever its text becomes: only items whose `tracking` is `new` in a version are.

Writing the key is the one change a session accepts to its inputs after approval (sessions/session.py `valid_move`
asks `records_keys`): the approved bytes are unchanged, only what a next version starts from.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from postmortem.catalogue.followups import TRACKING_NEW
from postmortem.model import is_ticket
from sessions.session import Session, State

__all__ = ["is_new", "record_keys", "records_keys"]

_NEW = frozenset(w.casefold() for w in TRACKING_NEW)


def is_new(tracking: object) -> bool:
    """Whether an action item's `tracking` asks for a new Jira issue (`new`, ja `新規`, any case)."""
    return isinstance(tracking, str) and tracking.strip().casefold() in _NEW


def record_keys(session: Session, made: Mapping[int, tuple[str, str]]) -> Session | None:
    """The session with each created item's `tracking` set to its issue key; `made`: item position (1-based) →
    (the issue's summary, its key). Only an item still marked new whose text is that summary changes (the inputs
    are the approved version's: the positions match); None when nothing changes."""
    items = session.inputs.get("action_items")
    if not isinstance(items, list | tuple):
        return None
    recorded: list[Any] = []
    for position, item in enumerate(items, start=1):
        hit = made.get(position)
        if hit and isinstance(item, dict) and is_new(item.get("tracking")) and _what(item) == hit[0].strip():
            item = {**item, "tracking": hit[1]}
        recorded.append(item)
    if recorded == list(items):
        return None
    return session.with_changes(inputs={**session.inputs, "action_items": recorded})


def records_keys(before: Session, after: Session) -> bool:
    """posting → posting where nothing changes but some action items' `tracking`, each from new to an issue key."""
    if before.state is not State.posting or after.state is not State.posting:
        return False
    if any(getattr(before, f) != getattr(after, f) for f in Session.model_fields if f not in ("inputs", "updated_at")):
        return False
    old, new = before.inputs, after.inputs
    if {k: v for k, v in old.items() if k != "action_items"} != {k: v for k, v in new.items() if k != "action_items"}:
        return False
    old_items, new_items = old.get("action_items"), new.get("action_items")
    if not isinstance(old_items, list | tuple) or not isinstance(new_items, list | tuple):
        return False
    if len(old_items) != len(new_items) or list(old_items) == list(new_items):
        return False
    return all(a == b or _keyed(a, b) for a, b in zip(old_items, new_items, strict=True))


def _keyed(before: Any, after: Any) -> bool:
    if not isinstance(before, dict) or not isinstance(after, dict) or set(before) | {"tracking"} != set(after):
        return False
    same = all(before.get(k) == after.get(k) for k in after if k != "tracking")
    return same and is_new(before.get("tracking")) and is_ticket(after.get("tracking"))


def _what(item: Mapping[str, Any]) -> str:
    what = item.get("what")
    return what.strip() if isinstance(what, str) else ""
