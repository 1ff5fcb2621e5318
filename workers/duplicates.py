"""A comment Jira stored twice, found and deleted: the copy the thread does not link goes.

A POST that timed out may be stored later than the quiet period (workers/posting.py), after the bot has
POSTed again. Such a post is marked doubtful when its second POST is sent; once the comment is recorded,
checks run a few times over the next hour and delete every copy of ours but the one recorded and linked
in the thread, saying so there.
"""

from __future__ import annotations

import contextlib
import logging

from renderers import prompts
from sessions.claims import duplicate_told_claim, post_doubt_claim
from workers.context import WorkerContext
from workers.jira_gateway import JiraError
from workers.slack_retry import SLACK_FAILURES

log = logging.getLogger(__name__)

#: Jira is searched for a duplicate this many quiet periods after a doubtful post is recorded (60 s, 5 min
#: and 1 h with the default quiet period).
DUPLICATE_CHECKS = (2, 10, 120)
#: The earliest a duplicate check runs, whatever the quiet period (it may be set to 0).
DUPLICATE_CHECK_FLOOR_SECONDS = 10.0


def check_later_if_doubtful(ctx: WorkerContext, session_id: str, version: int) -> None:
    """Schedule the checks of a doubtful post (before its comment is recorded: a crash in between leaves
    them scheduled, and a rerun scheduling them again is harmless)."""
    doubt = post_doubt_claim(session_id, version)
    if ctx.store.noted(doubt) is None:
        return
    for quiet_periods in DUPLICATE_CHECKS:
        delay = max(DUPLICATE_CHECK_FLOOR_SECONDS, quiet_periods * ctx.policy.quiet_seconds)
        ctx.later(delay, "remove_duplicates", session_id, version)
    ctx.store.release_claim(doubt)


def remove(ctx: WorkerContext, session_id: str, version: int) -> None:
    """Delete any comment of ours for (session, version) but the one recorded and linked in the thread, and
    say so there; when Jira refuses the delete, give the thread the duplicate's link to delete by hand."""
    session = ctx.store.get(session_id)
    if session is None or session.comment_id is None or session.approved_version != version:
        return
    try:
        found = ctx.jira.own_comments(session.ticket, session=session.id, version=version)
    except JiraError as exc:
        log.warning("could not look for a duplicate of comment %s on %s: %s", session.comment_id, session.ticket, exc)
        return
    if session.comment_id not in {c.id for c in found}:  # not among the newest: decide nothing blind
        return
    for extra in (c for c in found if c.id != session.comment_id):
        try:
            ctx.jira.delete_comment(session.ticket, extra.id)
        except JiraError as exc:
            log.error("duplicate comment %s on %s could not be deleted: %s", extra.id, session.ticket, exc)
            if exc.ambiguous:  # it may be gone after all: the next check looks again
                continue
            message = prompts.notice(
                "duplicate_left", session.lang, ticket=session.ticket, url=extra.url, reason=exc.text(session.lang)
            )
        else:
            log.warning("deleted duplicate comment %s on %s (a POST stored late)", extra.id, session.ticket)
            message = prompts.notice("duplicate_removed", session.lang, ticket=session.ticket, comment=extra.id)
        if ctx.store.claim_once(duplicate_told_claim(session.id, extra.id), ctx.store.ttl):  # said once
            with contextlib.suppress(*SLACK_FAILURES):
                ctx.say(session, message)
