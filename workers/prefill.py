"""The RQ job behind the message shortcut (DESIGN §4 "Starting where the debugging happened"): read the debugging
thread and the Jira issue, then update the modal the shortcut opened (`views.update` with the view's `hash`; Slack
keeps what the person typed in the inputs, whose block and action ids stay the same). Also the one reply in the
debugging thread once the session's own thread exists.

Whatever fails, the modal is still updated with a plain reason: a channel the bot cannot read gives Jira alone and
a session run by DM; Jira unreadable gives Slack alone; a message that is gone gives nothing.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field, replace
from typing import Any, cast

from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

from postmortem.messages import say
from postmortem.model import Lang
from renderers.prefill import Found, Note, prefilled_view
from rules.prefill import description_code_blocks, fix_urls, message_links, slack_code_blocks, ticket_of, ticket_of_keys
from rules.triggers import jira_keys
from sessions.session import Session
from workers import permissions
from workers.context import WorkerContext, current
from workers.jira_gateway import JiraError
from workers.jira_reads import IssueFacts, JiraCaller, read_issue
from workers.slack_retry import SLACK_FAILURES

log = logging.getLogger(__name__)

#: At most this many messages of a thread are read, and at most this many bytes of their text (then it says so).
MAX_MESSAGES = 200
MAX_BYTES = 1_000_000
#: Slack's answers that mean the bot cannot read the channel at all (private and not a member, or not invited).
UNREADABLE = frozenset({"not_in_channel", "channel_not_found", "missing_scope", "access_denied"})
#: Slack's answers that mean the thread or its message is gone.
GONE = frozenset({"thread_not_found", "message_not_found"})
#: Failures of Slack or Jira that may pass: the permission check could not run now.
_FOR_NOW: tuple[type[BaseException], ...] = (JiraError, *SLACK_FAILURES)
#: How long the one reply in the debugging thread is remembered as sent.
REPLY_ONCE_SECONDS = 30 * 24 * 3600


@dataclass
class Thread:
    """A thread as read: its messages (bounded), whether the bound cut it, and why it could not be read."""

    messages: list[dict[str, Any]] = field(default_factory=list)
    bounded: bool = False
    size: int = 0
    error: str | None = None


def fill(
    view_id: str,
    view_hash: str,
    channel: str,
    message_ts: str,
    thread_ts: str,
    user: str,
    lang: str,
    message_keys: list[str],
    metadata: dict[str, Any],
) -> None:
    """Read, then update the modal `view_id` (opened with `view_hash`) with what was found. The job carries the
    Jira keys the shortcut's payload named (`message_keys`), never the message's text (SECURITY.md)."""
    ctx = current()
    shown: Lang = "ja" if lang == "ja" else "en"
    client = cast(WebClient, getattr(ctx.slack, "client", None))
    meta = dict(metadata)
    known = meta.pop("known_ticket", None)  # the key a Start button carried: it wins over what the thread names
    known = known if isinstance(known, str) and known else None
    from_start = bool(meta.pop("from_start", False))
    try:
        found, meta = gather(ctx, client, channel, message_ts, thread_ts, user, message_keys, meta, known=known)
    except Exception as exc:  # whatever failed, the form says so plainly and stays usable
        # the error's type only: its message or traceback could quote the thread's text (SECURITY.md)
        log.warning("the shortcut's reads failed (%s); the modal says so", type(exc).__name__)
        found = Found(notes=(Note("prefill_failed"),))
    found = replace(found, from_parent=from_start)
    if found.ticket is None and known:
        found = replace(found, ticket=known, ticket_from="start")
    view = prefilled_view(found, lang=shown, private_metadata=json.dumps(meta))
    try:
        client.views_update(view_id=view_id, hash=view_hash, view=view)
    except SlackApiError as exc:
        # hash_conflict: the view changed meanwhile; not_found: the person already submitted or closed it.
        log.info("prefilled modal not updated (%s)", exc.response.get("error"))


def gather(
    ctx: WorkerContext,
    client: WebClient,
    channel: str,
    message_ts: str,
    thread_ts: str,
    user: str,
    message_keys: list[str],
    meta: dict[str, Any],
    *,
    known: str | None = None,
) -> tuple[Found, dict[str, Any]]:
    """(what was found, the modal's private_metadata): where the session will run and the debugging thread."""
    notes: list[Note] = []
    thread = read_thread(client, channel, thread_ts)
    origin: dict[str, Any] = {"channel": channel, "ts": thread_ts}
    if thread.error in UNREADABLE:
        notes.append(Note("prefill_no_channel", {"error": thread.error}))
        meta["channel"] = direct_channel(client, user)
        ticket, source = _prefer(known, *ticket_of_keys(message_keys, []))
        return _with_jira(ctx, Found(ticket=ticket, ticket_from=source), notes, ticket, message_keys, user=user), {
            **meta,
            "origin": origin,
        }
    chosen = next((m for m in thread.messages if m.get("ts") == message_ts and _visible(m)), None)
    if chosen is None and thread.bounded:  # past the bound: the chosen message itself is still read
        chosen = read_message(client, channel, thread_ts, message_ts)
    if thread.error and thread.error not in GONE:
        notes.append(Note("prefill_slack_failed", {"error": thread.error}))
        ticket, source = _prefer(known, *ticket_of_keys(message_keys, []))
        return _with_jira(ctx, Found(ticket=ticket, ticket_from=source), notes, ticket, message_keys, user=user), meta
    if chosen is None:
        notes.append(Note("prefill_message_gone"))
        return Found(notes=tuple(notes)), meta
    meta["origin"] = {**origin, "url": _permalink(client, channel, thread_ts)}  # the debugging thread, read
    if thread.bounded:
        notes.append(
            Note("prefill_bounded", {"n": len(thread.messages), "kb": thread.size // 1000, "max_n": MAX_MESSAGES})
        )
    else:
        n = len(thread.messages)
        notes.append(Note("prefill_read", {"n": n}) if n > 1 else Note("prefill_read_one"))
    read = [m for m in thread.messages if _visible(m)]
    if chosen not in thread.messages:  # read past the bound: its links count too
        read.append(chosen)
    texts = [str(m.get("text") or "") for m in read]
    chosen_text = str(chosen.get("text") or "")
    ticket, source = _prefer(known, *ticket_of(chosen_text, texts))
    found = Found(
        ticket=ticket,
        ticket_from=source,
        thread_fix=tuple(fix_urls(u for m in read for u in message_links(m))),
        message_code=tuple(slack_code_blocks(chosen_text)),
    )
    return _with_jira(ctx, found, notes, ticket, jira_keys(chosen_text), texts, user=user), meta


def _prefer(known: str | None, ticket: str | None, source: str | None) -> tuple[str | None, str | None]:
    """The key a Start button carried wins (the person clicked Start for it), said as such unless the thread agrees."""
    return (known, "start") if known and known != ticket else (ticket, source)


def _with_jira(
    ctx: WorkerContext,
    found: Found,
    notes: list[Note],
    ticket: str | None,
    message_keys: list[str],
    thread: list[str] | None = None,
    *,
    user: str,
) -> Found:
    """Add what the issue says; a Jira that cannot be read is said, and Slack's findings stay."""
    if ticket is None:
        keys = _keys_named(message_keys, thread or [])
        notes.append(Note("prefill_many_keys", {"keys": ", ".join(keys)}) if len(keys) > 1 else Note("prefill_no_key"))
        return replace(found, notes=tuple(notes))
    if (refused := _not_theirs(ctx, user, ticket)) is not None:  # the issue is shown only to who may see it
        notes.append(Note("prefill_jira_failed", {"ticket": ticket, "why": refused}))
        return replace(found, notes=tuple(notes))
    try:
        facts = read_issue(cast(JiraCaller, ctx.jira), ticket)
    except (JiraError, AttributeError) as exc:
        notes.append(Note("prefill_jira_failed", {"ticket": ticket, "why": _why(exc)}))
        return replace(found, notes=tuple(notes))
    return _from_issue(found, facts, notes)


def _from_issue(found: Found, facts: IssueFacts, notes: list[Note]) -> Found:
    if not facts.links_read:
        notes.append(Note("prefill_links_unread", {"ticket": facts.key}))
    return replace(
        found,
        owner=facts.assignee,
        jira_fix=tuple(fix_urls(facts.remote_urls)),
        jira_code=tuple(description_code_blocks(facts.description)),
        notes=tuple(notes),
    )


def _keys_named(message_keys: list[str], thread: list[str]) -> list[str]:
    named = list(dict.fromkeys(message_keys))
    if named:
        return named
    return list(dict.fromkeys(k for t in thread for k in jira_keys(t)))


def _not_theirs(ctx: WorkerContext, user: str, ticket: str) -> Note | None:
    """With POSTMORTEM_JIRA_PERMISSION_CHECK on, the issue's content is copied into the form only for a person Jira
    lets comment on it (as a session's start requires); a check that cannot run now copies nothing either."""
    if not ctx.permission_check:
        return None
    try:
        permissions.check(ctx, user, ticket)
    except permissions.Refusal:
        return Note("prefill_jira_not_yours")
    except _FOR_NOW:
        return Note("prefill_jira_down")
    return None


def _why(exc: Exception) -> Note:
    """Why Jira could not be read, in words (rendered in the modal's language)."""
    status = exc.status if isinstance(exc, JiraError) else None
    named = {401: "prefill_jira_forbidden", 403: "prefill_jira_forbidden", 404: "prefill_jira_missing"}
    return Note(named.get(status or 0, "prefill_jira_down"))


def read_thread(client: WebClient, channel: str, thread_ts: str) -> Thread:
    """conversations.replies, page by page, up to MAX_MESSAGES messages or MAX_BYTES of text."""
    thread = Thread()
    cursor: str | None = None
    while True:
        try:
            page = client.conversations_replies(channel=channel, ts=thread_ts, limit=MAX_MESSAGES, cursor=cursor)
        except SlackApiError as exc:
            thread.error = str(exc.response.get("error") or "error")
            return thread
        for message in page.get("messages") or []:
            size = len(str(message.get("text") or "").encode())
            if len(thread.messages) >= MAX_MESSAGES or thread.size + size > MAX_BYTES:
                thread.bounded = True
                return thread
            thread.messages.append(message)
            thread.size += size
        cursor = ((page.get("response_metadata") or {}).get("next_cursor")) or None
        if not page.get("has_more") or not cursor:
            return thread


def read_message(client: WebClient, channel: str, thread_ts: str, message_ts: str) -> dict[str, Any] | None:
    """One message of a thread by its ts (conversations.replies from it, inclusive); None when it is gone."""
    try:
        page = client.conversations_replies(channel=channel, ts=thread_ts, oldest=message_ts, inclusive=True, limit=2)
    except SlackApiError:
        return None
    found = next((m for m in page.get("messages") or [] if m.get("ts") == message_ts), None)
    return found if isinstance(found, dict) and _visible(found) else None


def direct_channel(client: WebClient, user: str) -> str:
    """The app's DM with the person (conversations.open); their user id when Slack will not open it (a post to a
    user id still lands in the app's DM)."""
    try:
        response = client.conversations_open(users=user)
    except SlackApiError as exc:
        log.warning("could not open a DM with the requester: %s", exc.response.get("error"))
        return user
    return str((response.get("channel") or {}).get("id") or user)


def _permalink(client: WebClient, channel: str, ts: str) -> str | None:
    try:
        response = client.chat_getPermalink(channel=channel, message_ts=ts)
    except SlackApiError:
        return None
    url = response.get("permalink")
    return str(url) if isinstance(url, str) and url.startswith("https://") else None


def _visible(message: dict[str, Any]) -> bool:
    """A message a person can still read: not a deleted one's tombstone, not hidden."""
    return message.get("subtype") not in ("tombstone", "message_deleted") and not message.get("hidden")


def tell_debug_thread(ctx: WorkerContext, session: Session) -> None:
    """Once the session has its own thread: one short reply in the debugging thread, linking to it. Only where the
    session runs in the same channel (the bot reads and writes there); best effort, never twice."""
    if not (session.debug_ts and session.thread_ts and session.debug_channel == session.channel):
        return
    if not ctx.store.claim_once(f"debug-reply:{session.id}", REPLY_ONCE_SECONDS):
        return
    url = ctx.slack.permalink(session.channel, session.thread_ts)
    words = say("debug_thread_link", session.lang)
    text_link = f"<{url}|{words}>" if url and url.startswith("https://") else words
    text = say("debug_thread_reply", session.lang, user=session.requester, ticket=session.ticket, link=text_link)
    try:
        ctx.slack.post(session.debug_channel, {"text": text}, thread_ts=session.debug_ts)
    except SlackApiError as exc:
        log.warning("could not reply in the debugging thread of session %s: %s", session.id, exc.response.get("error"))
