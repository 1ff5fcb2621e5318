"""An approved amendment written over the same Jira comment (DESIGN §4 "Amendment"); it never adds a comment.

`PUT {root}/issue/{ticket}/comment/{id}` sends the exact request body shown for approval: the new body (ADF on
Cloud, a wiki-markup string on Data Center) with the `postmortem-bot` property's new version and sha256. Jira
documents a comment's `properties` as optional on create *and* update, and also has
`PUT {root}/comment/{id}/properties/postmortem-bot`; the property is then set through that too, so the record
says the new version whatever a site does with the body's `properties`. Both PUTs are idempotent: a retry after
a 5xx or a timeout just sends them again. A 429's Retry-After is honoured as for a post (workers/approved.py);
the amendment holds the same lease a post holds and stays `posting` until the thread was told, so the watchdog
recovers a worker that died anywhere. A 404 means the comment was deleted in Jira: nothing is posted, the
approval is cleared, and Retry shows the version again for a new approval, after which it is posted as a new
comment (workers/approved.py).
"""

from __future__ import annotations

import contextlib
import json
import logging
from typing import Any, Protocol, runtime_checkable

from postmortem.messages import say
from postmortem.model import ActionItem, PostMortem
from renderers import prompts
from renderers.amendment import diff_message, with_amend_button
from renderers.followups import is_new
from sessions.claims import draft_steps_scope, step_claim
from sessions.session import Session, State
from workers import approved, followup_drafts, followups
from workers.context import WorkerContext
from workers.jira_gateway import PROPERTY_KEY, JiraApi, JiraError
from workers.leases import Lease, Steps
from workers.slack_retry import SLACK_FAILURES, step_delay

log = logging.getLogger(__name__)

#: An amendment fails with its own sentence; every step before its PUT is the post's (workers/approved.py).
AMEND = approved.Job(
    "amendment",
    lambda session, reason: prompts.notice("amend_failed", session.lang, ticket=session.ticket, reason=reason),
)


@runtime_checkable
class JiraRest(Protocol):
    """The one REST primitive (workers/jira_gateway.py `JiraGateway.call`)."""

    api: JiraApi

    def call(
        self, method: str, path: str, *, params: dict[str, Any] | None = None, data: dict[str, Any] | None = None
    ) -> dict[str, Any]: ...


def amended_steps_scope(session_id: str, version: int) -> str:
    """The steps of applying one amendment: the PUT, the property, the thread told (`Steps`)."""
    return f"amended:{session_id}:{version}"


def update_comment(rest: JiraRest, ticket: str, comment_id: str, body: bytes) -> None:
    """PUT the exact request body shown for approval over the comment (the bytes on the wire are `body`)."""
    data = json.loads(body)
    if json.dumps(data).encode() != body:
        raise ValueError("request body is not in the client's serialisation; refusing to send other bytes")
    rest.call("PUT", f"{rest.api.root}/issue/{ticket}/comment/{comment_id}", data=data)


def set_property(rest: JiraRest, comment_id: str, body: bytes) -> None:
    """`PUT {root}/comment/{id}/properties/postmortem-bot` with the value the body carries (version, sha256)."""
    value = next(p["value"] for p in json.loads(body)["properties"] if p.get("key") == PROPERTY_KEY)
    rest.call("PUT", f"{rest.api.root}/comment/{comment_id}/properties/{PROPERTY_KEY}", data=value)


def run(ctx: WorkerContext, session_id: str, version: int, attempt: int) -> None:
    """One run of applying the amendment (session, version); any number of runs leave one comment, updated."""
    with approved.approved_run(ctx, session_id, version, what="amendment", wanted=lambda s: s.amending) as held:
        if held is not None and held[0].amending:
            _apply(ctx, held[0], version, attempt, held[1])


def _apply(ctx: WorkerContext, session: Session, version: int, attempt: int, lease: Lease) -> None:
    steps = Steps(ctx.store, amended_steps_scope(session.id, version), ctx.store.ttl)
    if not steps.done("put") and not approved.approver_checked(ctx, session, version, attempt, AMEND):
        return
    body = approved.body_to_send(ctx, session, version, attempt, lease, AMEND)
    if body is None:
        return
    if not session.comment_id:
        approved.fail(ctx, session, say("post_body_mismatch", session.lang), AMEND)
        return
    rest, comment_id = ctx.jira, session.comment_id
    if not isinstance(rest, JiraRest):
        raise TypeError("the Jira port has no REST call: amendments need workers/jira_gateway.py JiraGateway")
    try:
        steps.once("put", lambda: update_comment(rest, session.ticket, comment_id, body))
        steps.once("property", lambda: set_property(rest, comment_id, body))
    except JiraError as exc:
        if exc.status == 404:
            _comment_gone(ctx, session, version)
            return
        approved.after_error(ctx, session, version, attempt, exc, AMEND)
        return
    _announce(ctx, session, steps, attempt)


def _announce(ctx: WorkerContext, session: Session, steps: Steps, attempt: int) -> None:
    """The thread is told once (with the Amend button), then posting → posted with the new version recorded."""
    version = session.approved_version or 0
    link = prompts.notice("amended", session.lang, ticket=session.ticket, version=version, url=session.comment_url)
    issues = followups.announcement(ctx, session, version)
    try:
        steps.once("link", lambda: ctx.say(session, with_amend_button(link, session.id, session.lang)))
        if issues is not None:
            steps.once("issues", lambda: ctx.say(session, issues))
    except SLACK_FAILURES as exc:
        delay = step_delay(exc, attempt)
        if delay is not None:
            log.warning("telling the thread of %s's amendment failed (%s); again in %.1f s", session.id, exc, delay)
            approved.reschedule(ctx, session.id, version, attempt + 1, delay)
            return
    _record_amended(ctx, session.id)


def _record_amended(ctx: WorkerContext, session_id: str) -> Session | None:
    def applied(s: Session) -> Session:
        return s.with_changes(
            state=State.posted,
            amending=False,
            posted_version=s.approved_version,
            posted_by=s.approved_by,
            amendments=s.amendments + 1,
            error=None,
        )

    return ctx.store.update(session_id, applied, expect_states={State.posting})


def _comment_gone(ctx: WorkerContext, session: Session, version: int) -> None:
    """The comment was deleted in Jira: nothing is posted; Retry renders v(N+1) again (the same bytes) and asks for
    a new approval, after which workers/posting.py posts it as a new comment."""

    def gone(s: Session) -> Session:
        return s.with_changes(
            state=State.failed,
            amending=False,
            comment_id=None,
            comment_url=None,
            approved_version=None,
            approved_by=None,
            error=f"comment deleted in Jira before amendment v{version}",
        )

    if ctx.store.update(session.id, gone, expect_states={State.posting}) is None:
        return
    ctx.store.release_claim(step_claim(draft_steps_scope(session.id, version), "question"))  # asked again on Retry
    message = prompts.notice("amend_comment_gone", session.lang, ticket=session.ticket, version=version)
    with contextlib.suppress(*SLACK_FAILURES):
        ctx.say(session, prompts.with_button(message, "button_retry", prompts.ACTION_RETRY, session.id, session.lang))


def markdown_key(session_id: str, version: int) -> str:
    """Where a version's Markdown is kept (as long as the session), for the diff of a later amendment."""
    return f"markdown:{session_id}:{version}"


def keep_markdown(ctx: WorkerContext, session: Session, markdown: str) -> None:
    """Keep the Markdown of the version being drafted (workers/drafting.py)."""
    ctx.store.note(markdown_key(session.id, session.version), markdown, ctx.store.ttl)


def diff_of(ctx: WorkerContext, session: Session) -> dict[str, Any]:
    """The thread message with version N+1's diff against the posted version (renderers/amendment.py)."""
    posted = session.posted_version or 0
    return diff_message(
        posted_markdown(ctx, session.id, posted),
        ctx.store.noted(markdown_key(session.id, session.version)) or "",
        posted=posted,
        version=session.version,
        ticket=session.ticket,
        comment=session.comment_id or "",
        lang=session.lang,
    )


def posted_markdown(ctx: WorkerContext, session_id: str, version: int) -> str | None:
    """The Markdown of a posted version as Jira has it: each follow-up slot filled with the key it got (the kept
    Markdown is the draft's, with slots), so an item that keeps its key shows no change in an amendment's diff."""
    markdown = ctx.store.noted(markdown_key(session_id, version))
    if markdown is None:
        return None
    for issue, key in followups.created(ctx, session_id, version):
        markdown = markdown.replace(issue.slot, key)
    return markdown


def with_earlier_issues(ctx: WorkerContext, session: Session, pm: PostMortem) -> PostMortem:
    """Items are created only when their `tracking` is new: one that keeps its key (the record says it once the issue
    exists: sessions/followup_keys.py) is never created again, whatever its text. A safety net for an item still
    marked new whose text is exactly the summary of an issue an earlier version made, and whose key no item keeps
    (typed again as `new`): it carries that key, so no issue is made twice (same text: the keys in order, one each)."""
    kept = {item.tracking.strip() for item in pm.action_items if item.tracking}
    earlier = followup_drafts.earlier_keys(ctx, session).items()
    made = {what: [key for key in keys if key not in kept] for what, keys in earlier}
    if not made:
        return pm

    def carried(item: ActionItem) -> ActionItem:
        keys = made.get(item.what.strip()) if is_new(item.tracking) else None
        return item.model_copy(update={"tracking": keys.pop(0)}) if keys else item

    return pm.model_copy(update={"action_items": tuple(carried(item) for item in pm.action_items)})
