"""`POST /jira/webhook`: a Bug that Jira reports resolved gets its assignee a post-mortem offer in Slack.

Answer fast, as Jira expects: verify the signature over the raw bytes (before parsing anything), parse,
drop duplicate deliveries, decide, enqueue `workers.offers.offer_assignee`. The Jira user lookup and the
Slack DM happen in the worker. Without JIRA_WEBHOOK_SECRET every request is refused: an unauthenticated
endpoint that makes the bot message people is not run at all.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from pydantic import AliasChoices, BaseModel, ConfigDict, Field, ValidationError
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from handlers.deps import Deps
from handlers.mentions import claim_offer, session_for_ticket
from handlers.storecalls import StoreCalls, StoreUnavailable
from postmortem.model import TICKET_RE
from sessions.claims import webhook_claim

log = logging.getLogger(__name__)

SIGNATURE_HEADER = "X-Hub-Signature"
DELIVERY_HEADER = "X-Atlassian-Webhook-Identifier"
#: Jira retries a delivery for a while; a delivery id is remembered for a week.
DELIVERY_DEDUP_SECONDS = 7 * 24 * 3600
#: Issue payloads carry every field (descriptions included); anything larger is not a Jira event.
MAX_BODY_BYTES = 5 * 1024 * 1024
#: The event this endpoint acts on and the status category that means resolved (issue types: Deps).
ISSUE_UPDATED = "jira:issue_updated"
DONE_CATEGORY = "done"


Answer = tuple[int, dict[str, Any]]


class _Loose(BaseModel):
    model_config = ConfigDict(extra="ignore", populate_by_name=True)


class _Named(_Loose):
    name: str = ""


class _Category(_Loose):
    key: str = ""


class _IssueType(_Loose):
    id: str = ""
    name: str = ""


class _Status(_Loose):
    name: str = ""
    category: _Category | None = Field(default=None, alias="statusCategory")


class _User(_Loose):
    #: Cloud names a user by accountId; Data Center / Server by its user key (workers look the user up by either).
    account_id: str | None = Field(default=None, validation_alias=AliasChoices("accountId", "key"))
    email: str | None = Field(default=None, alias="emailAddress")
    display_name: str | None = Field(default=None, alias="displayName")


class _Fields(_Loose):
    issuetype: _IssueType | None = None
    status: _Status | None = None
    resolution: _Named | None = None
    assignee: _User | None = None


class _Issue(_Loose):
    key: str = Field(pattern=TICKET_RE.pattern)
    fields: _Fields = Field(default_factory=_Fields)


class _Item(_Loose):
    field: str = ""
    field_id: str | None = Field(default=None, alias="fieldId")
    to: str | None = None
    to_string: str | None = Field(default=None, alias="toString")

    @property
    def name(self) -> str:
        return (self.field_id or self.field).lower()


class _Changelog(_Loose):
    items: list[_Item] = Field(default_factory=list)


class JiraEvent(_Loose):
    """The part of a Jira webhook payload the bot reads, Cloud or Data Center (Jira sends much more; the rest is
    ignored)."""

    webhook_event: str = Field(alias="webhookEvent", min_length=1)
    issue: _Issue | None = None
    changelog: _Changelog | None = None


def signature_ok(secret: str, body: bytes, header: str | None) -> bool:
    """Jira's `X-Hub-Signature: sha256=<hex HMAC-SHA256 of the raw body>`, compared in constant time."""
    if not secret or not header or not header.startswith("sha256="):
        return False
    expected = hmac.new(secret.encode(), body, hashlib.sha256).hexdigest().encode()
    given = header.removeprefix("sha256=").strip().lower()
    # Compared as bytes: `compare_digest` refuses a non-ASCII str with a TypeError (a 500, not a 401).
    return hmac.compare_digest(expected, given.encode("utf-8", "surrogateescape"))


def issue_type_counts(issue_type: _IssueType | None, configured: frozenset[str]) -> bool:
    """POSTMORTEM_JIRA_ISSUE_TYPES: a configured id matches the type's id (stable when the type is renamed or
    shown in another language); a configured name matches its name, ignoring case."""
    if issue_type is None:
        return False
    ids = {c for c in configured if c.isdigit()}
    names = {c.casefold() for c in configured if not c.isdigit()}
    return (bool(issue_type.id) and issue_type.id in ids) or (
        bool(issue_type.name) and issue_type.name.casefold() in names
    )


def resolved_bug(event: JiraEvent, issue_types: frozenset[str] = frozenset({"Bug", "バグ"})) -> str | None:
    """Why this event offers nothing, or None when it is a Bug's transition into a resolved status."""
    if event.webhook_event != ISSUE_UPDATED or event.issue is None:
        return "not an issue update"
    fields = event.issue.fields
    if not issue_type_counts(fields.issuetype, issue_types):
        return "not a Bug"
    items = event.changelog.items if event.changelog else []
    category = fields.status.category.key if fields.status and fields.status.category else ""
    to_done = any(i.name == "status" for i in items) and category.lower() == DONE_CATEGORY
    resolution_set = any(i.name == "resolution" and (i.to or i.to_string) for i in items)
    if not (to_done or resolution_set):
        return "not a transition into a resolved status"
    if fields.assignee is None or not fields.assignee.account_id:
        return "no assignee"
    return None


def receive(deps: Deps, body: bytes, *, signature: str | None, delivery: str | None) -> Answer:
    """One delivery: (HTTP status, JSON answer). 401 unauthenticated, 400 malformed, 202 offer enqueued."""
    secret = deps.jira_webhook_secret.get_secret_value() if deps.jira_webhook_secret else ""
    if not secret:
        return 401, {"ok": False, "error": "JIRA_WEBHOOK_SECRET is not configured; webhooks are refused"}
    if not signature_ok(secret, body, signature):
        return 401, {"ok": False, "error": "bad or missing X-Hub-Signature"}
    try:
        event = JiraEvent.model_validate(json.loads(body))
    except (ValueError, ValidationError, RecursionError):  # not JSON, not UTF-8, nested past Python's limit
        return 400, {"ok": False, "error": "not a Jira webhook payload"}
    if event.webhook_event == ISSUE_UPDATED and event.issue is None:
        return 400, {"ok": False, "error": "jira:issue_updated without an issue"}
    delivery_id = (delivery or "").strip()[:200] or hashlib.sha256(body).hexdigest()
    if not deps.store.claim_once(webhook_claim(delivery_id), DELIVERY_DEDUP_SECONDS):
        return 200, {"ok": True, "ignored": "duplicate delivery"}
    reason = resolved_bug(event, deps.jira_issue_types) or (None if deps.offers_enabled else "offers are off")
    assignee = event.issue.fields.assignee if event.issue else None
    if reason is not None or event.issue is None or assignee is None or not assignee.account_id:
        return 200, {"ok": True, "ignored": reason}
    ticket = event.issue.key
    if session_for_ticket(deps, ticket) is not None:
        return 200, {"ok": True, "ignored": "a post-mortem session exists for this ticket"}
    if not claim_offer(deps, tickets=[ticket], thread=None):
        return 200, {"ok": True, "ignored": "already offered for this ticket"}
    deps.enqueue_offer(
        "offer_assignee",
        ticket,
        assignee.account_id,
        assignee.email,
        deps.default_lang,
        assignee.display_name,
        deps.offer_fallback_channel,
    )
    log.info("offering a post-mortem of %s to its assignee", ticket)
    return 202, {"ok": True, "offered": ticket}


async def _read(request: Request, limit: int) -> bytes | None:
    """The raw body, or None once it passes `limit` (never buffered past it)."""
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            return None
        chunks.append(chunk)
    return b"".join(chunks)


def endpoint(deps: Deps, calls: StoreCalls) -> Callable[[Request], Awaitable[Response]]:
    """The Starlette endpoint for `POST /jira/webhook`; its Redis work runs on the store's threads within
    their budget (handlers/storecalls.py), off the event loop."""

    async def jira_webhook(request: Request) -> Response:
        body = await _read(request, MAX_BODY_BYTES)
        if body is None:
            return JSONResponse({"ok": False, "error": "payload too large"}, status_code=413)
        try:
            status, answer = await calls.run(
                receive,
                deps,
                body,
                signature=request.headers.get(SIGNATURE_HEADER),
                delivery=request.headers.get(DELIVERY_HEADER),
            )
        except StoreUnavailable:
            log.warning("store unavailable on a Jira webhook; Jira will retry")
            return JSONResponse({"ok": False, "error": "unavailable"}, status_code=503)
        return JSONResponse(answer, status_code=status)

    return jira_webhook
