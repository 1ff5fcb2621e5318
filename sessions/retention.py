"""How long RQ keeps a job's arguments (which carry user text): never longer than a session lives.

RQ keeps a failed job, arguments included, for a year by default; every enqueue passes these options.
"""

from __future__ import annotations

from typing import Any

from sessions.store import DEFAULT_TTL_SECONDS

#: A finished job's result is kept briefly (results are None; the arguments are what matter).
RESULT_TTL_SECONDS = 600


def job_options(session_ttl: int = DEFAULT_TTL_SECONDS) -> dict[str, Any]:
    """The keyword options for `Queue.enqueue` / `enqueue_in`: a failed job expires with its session."""
    return {"failure_ttl": session_ttl, "result_ttl": RESULT_TTL_SECONDS}
