"""Who may publish on Jira through the bot: a person who may comment on the issue in Jira themselves.

The bot posts with its own Jira account, which can usually see more issues than any one person. So before
a post (and when a session starts) the person's Slack e-mail (users.info, scope `users:read.email`) must be
the e-mail of a Jira user whom `GET /rest/api/3/user/permission/search?permissions=ADD_COMMENTS` lists for
the issue. "The issue does not exist" and "you may not see it" are one answer, so the check is no oracle
for which keys exist. POSTMORTEM_JIRA_PERMISSION_CHECK=off skips all of this (SECURITY.md says what that gives up).
"""

from __future__ import annotations

import logging

from slack_sdk.errors import SlackApiError

from sessions.claims import may_post_claim
from sessions.session import Session
from workers.context import WorkerContext
from workers.jira_gateway import JiraError
from workers.slack_retry import SLACK_FAILURES, retry_delay

log = logging.getLogger(__name__)

#: A successful check of (session, person, issue) is remembered this long, so a post's retries do not repeat it.
CHECKED_SECONDS = 600
#: What `check` raises when Slack or Jira failed for now (not a refusal).
_TEMPORARY: tuple[type[BaseException], ...] = (JiraError, *SLACK_FAILURES)


class Refusal(Exception):
    """A person may not publish on the issue; `key` names the catalogue message that says why."""

    def __init__(self, key: str, reason: str = "") -> None:
        super().__init__(key)
        self.key = key
        self.reason = reason


def check(ctx: WorkerContext, user: str, ticket: str) -> None:
    """Raise Refusal unless `user` (a Slack id) is a Jira user allowed to comment on `ticket`.

    A temporary failure of Slack or Jira (a 429, a 5xx, a timeout: what their clients' retries did not ride
    out) is not a refusal: the JiraError or the Slack failure is raised for the caller to try again later."""
    try:
        email = ctx.slack.user_email(user)
    except SlackApiError as exc:
        if retry_delay(exc, 1) is not None:
            raise
        raise Refusal("perm_no_email") from exc
    if not email:
        log.warning("Slack shows no e-mail for %s: is the users:read.email scope granted?", user)
        raise Refusal("perm_no_email")
    try:
        allowed = ctx.jira.may_comment(ticket, email)
    except JiraError as exc:
        if exc.retryable:
            raise
        raise Refusal("perm_unchecked", str(exc)) from exc
    if not allowed:
        raise Refusal("perm_refused")


def may_comment(ctx: WorkerContext, user: str, ticket: str) -> bool:
    """For the start of a session: False when the requester may not comment on the issue (or it does not
    exist: the same answer). A check that could not run is not a refusal here: the post checks again."""
    if not ctx.permission_check:
        return True
    try:
        check(ctx, user, ticket)
    except Refusal as refusal:
        return refusal.key == "perm_unchecked"
    except _TEMPORARY as exc:  # Slack or Jira having a bad moment: the post checks again
        log.warning("could not check now whether %s may comment on %s: %s", user, ticket, exc)
    return True


def ticket_refusal(ctx: WorkerContext, requester: str, ticket: str) -> str | None:
    """What a session starting on `ticket` for `requester` is told when it may not: `ticket_not_found`, or with
    the permission check `ticket_hidden` for a missing issue and a forbidden one alike (no oracle for which keys
    exist); None when it may start. JiraError when Jira cannot say now (the caller decides what that means)."""
    if ctx.jira.issue_exists(ticket) and may_comment(ctx, requester, ticket):
        return None
    return "ticket_hidden" if ctx.permission_check else "ticket_not_found"


def approver_refusal(ctx: WorkerContext, session: Session) -> Refusal | None:
    """Called by the post job right before it posts: None to go on, else why the approver may not publish
    (the job fails the post and says it). A temporary failure of Slack or Jira is raised (see `check`): the
    post job reschedules itself, as after any other temporary failure."""
    user = session.approved_by or session.requester
    remembered = may_post_claim(session.id, user, session.ticket)
    if not ctx.permission_check or ctx.store.claimed(remembered):
        return None
    try:
        check(ctx, user, session.ticket)
    except Refusal as refusal:
        log.info("post of %s refused: %s may not comment on %s (%s)", session.id, user, session.ticket, refusal.key)
        return refusal
    ctx.store.claim_once(remembered, CHECKED_SECONDS)
    return None
