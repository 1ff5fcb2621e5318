"""Follow-up issues (DESIGN §4): created exactly once each on approval, before the comment, which is then posted
with their keys in its slots.

When the draft is made (workers/followup_drafts.py): the create bodies are rendered, kept with the version, and
checked as Jira would check them: a summary over 255 characters or with a line break, a project where the bot may
not create or link issues, an issue type the project lacks. Any of these refuses the draft, naming the item,
before anyone approves.

On approval (`ensure_issues`), under the post's lease, the same guarantees as the comment (workers/posting.py):
the time each create POST began is kept in Redis before it is sent; while such a mark stands, the session's issues
are first looked up by label (Jira's search index lags: a search that finds nothing is trusted only
`quiet_seconds` after the attempt began, else `Pending` says when to look again); a key once known is kept, and
written into its item's `tracking` in the session's record (sessions/followup_keys.py), so no later version creates
that item again. Each issue is then linked to the ticket (a link attempted before is first looked for). A worker
dying anywhere leaves the session `posting`, and the watchdog's rerun resumes where it stopped; so does Retry after a
failure. A create repeated while an earlier one might still be stored marks the version doubtful: its issues are
searched again later and any copy but the recorded key is deleted (workers/followup_duplicates.py).
"""

from __future__ import annotations

import contextlib
import json
import logging
import time
from dataclasses import dataclass
from typing import Any

from postmortem.messages import say
from postmortem.model import Lang
from renderers import followups as plan
from renderers import prompts
from renderers.amendment import amend_question
from renderers.followups import NewIssue
from sessions.followup_keys import record_keys
from sessions.session import Session, State
from workers import duplicates
from workers import jira_followups as rest_calls
from workers.context import WorkerContext
from workers.jira_gateway import JiraError
from workers.leases import Lease
from workers.slack_retry import SLACK_FAILURES

log = logging.getLogger(__name__)

__all__ = [
    "Marks",
    "Pending",
    "Refused",
    "announcement",
    "created",
    "ensure_issues",
    "filled_body",
    "planned",
    "release_approval",
]


class Pending(Exception):
    """The issues cannot all be known yet: look again in `wait` seconds (None: another run holds the post)."""

    def __init__(self, wait: float | None) -> None:
        super().__init__(f"follow-up issues pending ({wait})")
        self.wait = wait


class Refused(Exception):
    """Jira refused to create (or link) the issue of one action item (a 4xx other than 429): trying the same bytes
    again cannot help, so the approval is released for the item to be corrected (`release_approval`)."""

    def __init__(self, item: int, what: str, error: JiraError) -> None:
        super().__init__(f"follow-up issue of item {item} refused: {error}")
        self.item, self.what, self.error = item, what, error

    def reason(self, lang: Lang) -> str:
        """What Jira said, without the comment's wording of a rejection."""
        detail = self.error.params.get("detail") if self.error.key == "jira_rejected" else None
        status = self.error.status
        return f"{status}: {detail}" if detail else self.error.text(lang)


@dataclass(frozen=True)
class Marks:
    """The Redis marks of one (session, version)'s issues (kept as long as the session)."""

    session: str
    version: int

    def plan(self) -> str:
        return f"followups:{self.session}:{self.version}"

    def attempt(self, item: int) -> str:
        return f"followup-attempt:{self.session}:{self.version}:{item}"

    def key(self, item: int) -> str:
        return f"followup-key:{self.session}:{self.version}:{item}"

    def linking(self, item: int) -> str:
        return f"followup-linking:{self.session}:{self.version}:{item}"

    def linked(self, item: int) -> str:
        return f"followup-linked:{self.session}:{self.version}:{item}"

    def posted(self) -> str:
        return f"followups-posted:{self.session}:{self.version}"

    def doubt(self) -> str:  # a create was repeated while an earlier one might still be stored
        return f"followup-doubt:{self.session}:{self.version}"


def planned(ctx: WorkerContext, session_id: str, version: int) -> list[NewIssue]:
    """The new issues shown with a version's draft (none when it had no `tracking: new`)."""
    kept = ctx.store.noted(Marks(session_id, version).plan())
    if not kept:
        return []
    return [NewIssue(k["item"], k["n"], k["slot"], k["summary"], k["body"].encode()) for k in json.loads(kept)]


# on approval -----------------------------------------------------------------------------------------------------


def created(ctx: WorkerContext, session_id: str, version: int) -> list[tuple[NewIssue, str]]:
    """Each planned issue of a version with its key, for those that exist."""
    marks = Marks(session_id, version)
    return [(i, key) for i in planned(ctx, session_id, version) if (key := ctx.store.noted(marks.key(i.item)))]


def announcement(ctx: WorkerContext, session: Session, version: int) -> dict[str, Any] | None:
    """The thread's line listing the new issues' keys (and links), when the version made any."""
    made = created(ctx, session.id, version)
    if not made:
        return None
    site = (ctx.jira_url or "").rstrip("/")
    keys = ", ".join(
        say("followup_created_item", session.lang, issue=key, n=issue.item) + (f" {site}/browse/{key}" if site else "")
        for issue, key in made
    )
    return prompts.notice("followups_created", session.lang, count=len(made), ticket=session.ticket, keys=keys)


def filled_body(ctx: WorkerContext, session: Session, version: int, body: bytes, lease: Lease | None = None) -> bytes:
    """The approved comment body with its slots filled, once every issue exists and is linked (`ensure_issues`);
    the body itself when the version has no new issue. Both bodies are kept (the filled one under its own mark)."""
    keys = ensure_issues(ctx, session, version, lease)
    if not keys:
        return body
    _check_later_if_doubtful(ctx, session.id, version)
    issues = {i.item: i for i in planned(ctx, session.id, version)}
    filled = plan.fill(body, {issues[item].slot: key for item, key in keys.items()})
    ctx.store.note(Marks(session.id, version).posted(), filled.decode(), ctx.store.ttl)
    return filled


def ensure_issues(ctx: WorkerContext, session: Session, version: int, lease: Lease | None = None) -> dict[int, str]:
    """Every planned issue of (session, version) exists once and is linked to the ticket: item → key.

    Raises JiraError (a failed call: the caller retries as for comments), Pending (look again later)."""
    issues = planned(ctx, session.id, version)
    if not issues:
        return {}
    marks, ticket = Marks(session.id, version), session.ticket
    keys = {i.item: key for i in issues if (key := ctx.store.noted(marks.key(i.item)))}
    began = {i.item: _began(ctx, marks.attempt(i.item)) for i in issues if i.item not in keys}
    linking = {item for item in keys if ctx.store.claimed(marks.linking(item))}
    linked = {item for item in keys if ctx.store.claimed(marks.linked(item))}
    if any(b is not None for b in began.values()) or linking - linked:
        _look_up(ctx, session, version, issues, keys, linked, began)
    _record(ctx, session.id, issues, keys)  # again on every run: a worker may have died before it
    rest = rest_calls.rest_of(ctx.jira)
    for issue in issues:
        if issue.item in keys:
            continue
        if lease is not None and not lease.renew():
            raise Pending(None)
        if began.get(issue.item) is not None:  # the earlier create may yet be stored, later than the quiet period
            ctx.store.note(marks.doubt(), "1", ctx.store.ttl)
        ctx.store.note(marks.attempt(issue.item), repr(time.time()), ctx.store.ttl)  # ambiguous until Jira answers
        try:
            keys[issue.item] = rest_calls.create_issue(rest, issue.body)
        except JiraError as exc:
            if not exc.ambiguous:  # refused (4xx, 429): nothing was stored
                ctx.store.release_claim(marks.attempt(issue.item))
            if not exc.retryable:
                raise Refused(issue.item, issue.summary, exc) from exc
            raise
        _keep(ctx, marks, issue.item, keys[issue.item])
        _record(ctx, session.id, issues, keys)
    summaries = {i.item: i.summary for i in issues}
    for item, key in keys.items():
        if item not in linked:
            ctx.store.note(marks.linking(item), "1", ctx.store.ttl)
            try:
                rest_calls.link(rest, key, ticket)
            except JiraError as exc:
                if not exc.retryable:
                    raise Refused(item, summaries.get(item, key), exc) from exc
                raise
            ctx.store.note(marks.linked(item), "1", ctx.store.ttl)
    return keys


def release_approval(ctx: WorkerContext, session: Session, version: int, refused: Refused) -> None:
    """A refused create after approval: nothing is posted (the issues made so far are kept, never made again) and the
    approval is released: the version shown waits for approval again (posting → drafted), so the person corrects the
    item (`action_items: …`, Edit: a new version) or approves the same version again. The thread says which and why."""

    def released(s: Session) -> Session:
        return s.with_changes(state=State.drafted, approved_version=None, approved_by=None, error=str(refused))

    drafted = ctx.store.update(session.id, released, expect_states={State.posting})
    if drafted is None:
        return
    log.warning("%s v%s: %s; approval released", session.id, version, refused)
    message = prompts.notice(
        "followup_create_refused",
        session.lang,
        n=refused.item,
        what=refused.what[:80],
        reason=refused.reason(session.lang),
        made=len(created(ctx, session.id, version)),
        count=len(planned(ctx, session.id, version)),
        version=version,
    )
    question = prompts.approval_question(session.id, ticket=session.ticket, version=version, lang=session.lang)
    if drafted.amending:
        question = amend_question(question, ticket=session.ticket, version=version, lang=session.lang)
    with contextlib.suppress(*SLACK_FAILURES):
        ctx.say(drafted, message)
        ctx.say(drafted, question)


def _look_up(
    ctx: WorkerContext,
    session: Session,
    version: int,
    issues: list[NewIssue],
    keys: dict[int, str],
    linked: set[int],
    began: dict[int, float | None],
) -> None:
    """Before any retry: the session's issues by label. An item not found whose attempt began less than the quiet
    period before the search is not trusted to be missing (Pending)."""
    marks, quiet = Marks(session.id, version), ctx.policy.quiet_seconds
    searched_at = time.time()
    rest = rest_calls.rest_of(ctx.jira)
    found = rest_calls.find_issues(rest, session=session.id, label=plan.label_of(session.id), ticket=session.ticket)
    wanted = {i.item for i in issues}
    for issue in found:
        if issue.version != version or issue.item not in wanted or issue.item is None:
            continue
        if issue.item not in keys:
            keys[issue.item] = issue.key
            _keep(ctx, marks, issue.item, issue.key)
            log.info("follow-up issue %s of %s v%s found, not created again", issue.key, session.id, version)
        if issue.linked:
            linked.add(issue.item)
            ctx.store.note(marks.linked(issue.item), "1", ctx.store.ttl)
    waits = [
        start + quiet - time.time()
        for item, start in began.items()
        if item not in keys and start is not None and searched_at < start + quiet
    ]
    if waits:
        raise Pending(max(0.0, max(waits)))


def _record(ctx: WorkerContext, session_id: str, issues: list[NewIssue], keys: dict[int, str]) -> None:
    """The session's record says each known key in its item's `tracking` (sessions/followup_keys.py): a later
    version (an amendment, or an edit after a failure) starts from the key and never creates that item again."""
    made = {i.item: (i.summary, keys[i.item]) for i in issues if i.item in keys}
    if made:
        ctx.store.update(session_id, lambda s: record_keys(s, made), expect_states={State.posting})


def _check_later_if_doubtful(ctx: WorkerContext, session_id: str, version: int) -> None:
    """Every key is known: a doubtful version's issues are searched for copies later (workers/followup_duplicates.py),
    on the comments' schedule. A crash before the mark is released schedules them again: harmless."""
    doubt = Marks(session_id, version).doubt()
    if ctx.store.noted(doubt) is None:
        return
    for quiet_periods in duplicates.DUPLICATE_CHECKS:
        delay = max(duplicates.DUPLICATE_CHECK_FLOOR_SECONDS, quiet_periods * ctx.policy.quiet_seconds)
        ctx.later(delay, "remove_followup_duplicates", session_id, version)
    ctx.store.release_claim(doubt)


def _keep(ctx: WorkerContext, marks: Marks, item: int, key: str) -> None:
    ctx.store.note(marks.key(item), key, ctx.store.ttl)
    ctx.store.release_claim(marks.attempt(item))


def _began(ctx: WorkerContext, mark: str) -> float | None:
    noted = ctx.store.noted(mark)
    try:
        return float(noted) if noted is not None else None
    except ValueError:
        return 0.0  # unreadable: the attempt is long over; a search now is conclusive
