"""Follow-up issues when a draft is made (DESIGN §4): each new issue's create body rendered, checked as Jira would
check it (summary length and line breaks, the bot's Create and Link issues permissions in the project, the issue type),
kept with the version (workers/followups.py `planned`) and shown in the thread after the comment's body."""

from __future__ import annotations

import json
import logging
import re

from postmortem.messages import say
from postmortem.model import PostMortem
from renderers import followups as plan
from renderers import prompts
from renderers.followups import NewIssue
from sessions.session import Session
from workers import jira_followups as rest_calls
from workers.context import WorkerContext
from workers.followups import Marks, created, planned
from workers.jira_gateway import JiraError
from workers.leases import Steps

log = logging.getLogger(__name__)

__all__ = ["Refused", "earlier_keys", "prepare", "show"]

_EMAIL = re.compile(r"[^@\s<>|]+@[^@\s<>|]+\.[^@\s<>|]+")
_MENTION = re.compile(r"<@([UW][A-Z0-9]+)(?:\|[^>]*)?>")


class Refused(Exception):
    """The draft's follow-up issues cannot be created; `text` says why, naming each item, in the session's language."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text


def prepare(ctx: WorkerContext, session: Session, pm: PostMortem, body: bytes) -> list[NewIssue]:
    """The new issues of the version being drafted, checked and kept with it; Refused when any cannot be created.
    `pm` is the post-mortem as typed; `body` the comment request rendered from `renderers.followups.slotted(pm)`."""
    made: dict[str, str] = {}  # items earlier versions made carry their keys already (`amending.with_earlier_issues`)
    if not plan.new_items(pm, made):  # none (any plan of an earlier render of this version, now keyed, is dropped)
        ctx.store.note(Marks(session.id, session.version).plan(), "[]", ctx.store.ttl)
        return []
    rest = rest_calls.rest_of(ctx.jira)
    issues = plan.create_request(
        pm,
        session=session.id,
        version=session.version,
        issue_type=ctx.followup_issue_type,
        deployment=ctx.jira_deployment,
        jira_url=ctx.jira_url,
        assignees=_assignees(ctx, rest, pm),
        made=made,
    )
    if reasons := _problems(ctx, rest, session, issues, body):
        raise Refused(say("followups_refused", session.lang, reasons="\n".join(reasons)))
    kept = [{"item": i.item, "n": i.n, "slot": i.slot, "summary": i.summary, "body": i.body.decode()} for i in issues]
    ctx.store.note(Marks(session.id, session.version).plan(), json.dumps(kept), ctx.store.ttl)
    return issues


def earlier_keys(ctx: WorkerContext, session: Session) -> dict[str, list[str]]:
    """The issues earlier versions of the session created, by item text (stripped), in the order they were made:
    an amendment that keeps such an item `new` shows its key and never creates it again; two items with the same
    text keep one key each."""
    made: dict[str, list[str]] = {}
    for version in range(1, session.version):
        for issue, key in created(ctx, session.id, version):
            if key not in made.setdefault(issue.summary.strip(), []):
                made[issue.summary.strip()].append(key)
    return made


def _problems(
    ctx: WorkerContext, rest: rest_calls.JiraRest, session: Session, issues: list[NewIssue], body: bytes
) -> list[str]:
    lang, project = session.lang, plan.project_of(session.ticket)
    reasons = []
    for issue in issues:
        shown = issue.summary[:40]
        if len(issue.summary) > plan.SUMMARY_LIMIT:
            reasons.append(
                say("followup_summary_too_long", lang, n=issue.item, what=shown, length=len(issue.summary),
                    limit=plan.SUMMARY_LIMIT)
            )  # fmt: skip
        elif "\n" in issue.summary or "\r" in issue.summary:
            reasons.append(say("followup_summary_newline", lang, n=issue.item, what=shown.splitlines()[0]))
    for slot, count in plan.slot_counts(body, [i.slot for i in issues]).items():
        if count != 1:
            reasons.append(say("followup_slot_typed", lang, slot=slot))
    first = ", ".join(str(i.item) for i in issues)
    try:
        for permission in rest_calls.missing_permissions(rest, project):
            named = say(
                "followup_permission_create" if permission == "CREATE_ISSUES" else "followup_permission_link", lang
            )
            reasons.append(say("followup_no_permission", lang, n=first, permission=named, project=project))
        if ctx.followup_issue_type.casefold() not in {t.casefold() for t in rest_calls.issue_types(rest, project)}:
            reasons.append(
                say("followup_no_issue_type", lang, n=first, project=project, issue_type=ctx.followup_issue_type)
            )
    except JiraError as exc:
        reasons.append(say("followup_unchecked", lang, project=project, reason=exc.text(lang)))
    return reasons


def _assignees(ctx: WorkerContext, rest: rest_calls.JiraRest, pm: PostMortem) -> dict[int, dict[str, str]]:
    """Each new item whose owner is a Slack mention or an e-mail that maps to exactly one Jira user."""
    found: dict[int, dict[str, str]] = {}
    for item, _ in plan.new_items(pm):
        owner = pm.action_items[item - 1].owner or ""
        mention, email = _MENTION.fullmatch(owner.strip()), _EMAIL.fullmatch(owner.strip())
        address = ctx.slack.user_email(mention.group(1)) if mention else email.group(0) if email else None
        if address:
            try:
                if (assignee := rest_calls.assignee_for(rest, address)) is not None:
                    found[item] = assignee
            except JiraError as exc:  # unassigned rather than no draft: the owner is named in the description
                log.warning("could not look up the Jira user of item %s's owner: %s", item, exc)
    return found


def show(ctx: WorkerContext, session: Session, steps: Steps) -> None:
    """Each new issue's exact create body as a file in the thread, then one line saying what approval does."""
    issues = planned(ctx, session.id, session.version)
    for issue in issues:
        name = f"{session.ticket}-issue-{issue.n}-v{session.version}.json"
        steps.once(
            f"issue-{issue.n}",
            lambda i=issue, n=name: ctx.slack.upload(  # type: ignore[misc]
                session.channel, session.thread_ts, filename=n, content=i.body, title=n
            ),
        )
    if issues:
        slot = say("followup_slot", session.lang, n="N")
        line = prompts.notice("followup_bodies_shown", session.lang, count=len(issues), slot=slot)
        steps.once("issues-shown", lambda: ctx.say(session, line))
