"""How long an idle session lives, when its requester is reminded, and how long Redis keeps its record.

POSTMORTEM_SESSION_DAYS (idle lifetime, fractions allowed) and POSTMORTEM_REMINDER_HOURS (the reminder's
lead time) in one place, so the store's key TTL and the worker's reminder sweep agree.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from sessions.session import State

DAY_SECONDS = 24 * 3600

#: Redis keeps a session this long past its idle lifetime, so the sweep can still mark it expired and say so
#: in the thread (a key that vanished first would end the session in silence), and the record stays a while.
GRACE_SECONDS = DAY_SECONDS

#: States an idle session is reminded in and expires from; rendering and posting are the worker's (the
#: watchdog finishes them), and posting never expires: its post may be in flight.
IDLE_STATES: frozenset[State] = frozenset({State.collecting, State.scope_check, State.drafted, State.failed})


@dataclass(frozen=True)
class Lifetime:
    """An idle session's lifetime and reminder lead time, in seconds."""

    idle_seconds: float = 14 * DAY_SECONDS
    reminder_seconds: float = DAY_SECONDS

    @classmethod
    def of(cls, *, session_days: float, reminder_hours: float) -> Lifetime:
        """From the two settings (days and hours, fractions allowed)."""
        return cls(idle_seconds=session_days * DAY_SECONDS, reminder_seconds=reminder_hours * 3600)

    @property
    def remind_after(self) -> float:
        """Idle seconds after which the requester is reminded: the lead time before expiry, but never earlier
        than half the lifetime (a lead time as long as the life would remind at the very start)."""
        return self.idle_seconds - min(self.reminder_seconds, self.idle_seconds / 2)

    @property
    def store_ttl(self) -> int:
        """The Redis TTL of a session's keys: the idle lifetime plus the grace the expiry notice needs."""
        return math.ceil(self.idle_seconds + GRACE_SECONDS)
