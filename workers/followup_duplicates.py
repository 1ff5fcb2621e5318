"""A follow-up issue Jira stored twice, found and deleted: every copy but the key the session recorded goes.

A create that timed out may be stored later than the quiet period (workers/followups.py), after the bot created the
item's issue again. Such a version is marked doubtful when the create is repeated; once every key is known, checks run
on the comments' schedule (workers/duplicates.py `DUPLICATE_CHECKS`). Each searches the session's issues by label and
property, and for an item with more than one issue deletes each one but the recorded key (the one in the comment),
telling the thread. Jira may refuse (`DELETE issue/{key}` needs the Delete issues permission, which many bot accounts
lack): the thread then gets the copy's key and link, so a person deletes it.

Each check is idempotent: a copy deleted twice answers 404 (gone), and each copy is told of once (a claim), so checks
running side by side, or a rerun after a worker died mid-way, delete and say nothing twice.
"""

from __future__ import annotations

import contextlib
import logging

from renderers import prompts
from renderers.followups import label_of
from sessions.session import Session
from workers import jira_followups as rest_calls
from workers.context import WorkerContext
from workers.followups import Marks, planned
from workers.jira_gateway import JiraError
from workers.slack_retry import SLACK_FAILURES

log = logging.getLogger(__name__)


def remove(ctx: WorkerContext, session_id: str, version: int) -> None:
    """Delete every issue of (session, version) whose item already has a recorded key other than it, and say so."""
    session = ctx.store.get(session_id)
    if session is None:
        return
    marks = Marks(session_id, version)
    recorded = {i.item: key for i in planned(ctx, session_id, version) if (key := ctx.store.noted(marks.key(i.item)))}
    if not recorded:
        return
    try:
        rest = rest_calls.rest_of(ctx.jira)
        found = rest_calls.find_issues(rest, session=session_id, label=label_of(session_id), ticket=session.ticket)
    except JiraError as exc:
        log.warning("could not look for duplicate follow-up issues of %s v%s: %s", session_id, version, exc)
        return
    for issue in found:
        if issue.version != version or issue.item is None or recorded.get(issue.item) in (None, issue.key):
            continue
        _delete(ctx, session, marks, issue.item, issue.key)


def _delete(ctx: WorkerContext, session: Session, marks: Marks, item: int, key: str) -> None:
    """Delete one copy; the thread is told once that it went, or where it is when Jira refused."""
    deleting = f"followup-dup-deleting:{marks.session}:{marks.version}:{key}"
    ours = ctx.store.claimed(deleting)  # a delete sent before: a 404 now is that delete, its answer lost
    ctx.store.note(deleting, "1", ctx.store.ttl)
    try:
        rest_calls.delete_issue(rest_calls.rest_of(ctx.jira), key)
    except JiraError as exc:
        if exc.status == 404 and ours:
            log.info("duplicate follow-up issue %s of %s is already deleted", key, session.id)
        elif exc.status == 404:  # deleted by someone else: nothing to say
            return
        elif exc.retryable:  # it may be gone after all, or Jira is busy: the next check looks again
            log.warning("duplicate follow-up issue %s of %s not deleted yet: %s", key, session.id, exc)
            return
        else:
            log.error("duplicate follow-up issue %s of %s could not be deleted: %s", key, session.id, exc)
            site = (ctx.jira_url or "").rstrip("/")
            url = f"{site}/browse/{key}" if site else key
            reason = exc.text(session.lang)
            _tell(ctx, session, marks, key, "followup_duplicate_left", n=item, issue=key, url=url, reason=reason)
            return
    else:
        log.warning("deleted duplicate follow-up issue %s of %s (a create stored late)", key, session.id)
    kept = ctx.store.noted(marks.key(item)) or ""
    _tell(ctx, session, marks, key, "followup_duplicate_removed", n=item, issue=key, kept=kept)


def _tell(ctx: WorkerContext, session: Session, marks: Marks, key: str, message: str, **params: object) -> None:
    told = f"followup-dup-told:{marks.session}:{marks.version}:{key}"
    if ctx.store.claim_once(told, ctx.store.ttl):  # said once, whichever check got here first
        with contextlib.suppress(*SLACK_FAILURES):
            ctx.say(session, prompts.notice(message, session.lang, **params))
