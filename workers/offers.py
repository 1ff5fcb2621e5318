"""The RQ jobs of the ways in besides `/post-mortem`: the Start button after a mention, the offer after a fix,
the DM to the assignee of a resolved Bug (the Jira and Slack look-ups happen here, never in the handler).

Handlers enqueue these by name (`workers.offers.<name>`) with JSON arguments, re-checked here.
"""

from __future__ import annotations

import logging
from typing import Any

from slack_sdk.errors import SlackApiError

from postmortem.messages import lang_of_locale
from postmortem.model import Lang, is_ticket
from renderers import offers
from sessions.claims import offer_ticket_claim
from workers.context import WorkerContext, current
from workers.jira_gateway import JiraError

log = logging.getLogger(__name__)


def _lang(value: Any) -> Lang | None:
    return value if value in ("en", "ja") else None


def _ticket(value: Any) -> str | None:
    return value if is_ticket(value) else None


def start_reply(channel: str, thread_ts: str, ticket: str | None, lang: str) -> None:
    """Answer a mention that asked for a post-mortem: the Start button, in the mention's thread."""
    ctx = current()
    message = offers.requested(ticket=_ticket(ticket), channel=channel, lang=_lang(lang) or "en", thread=thread_ts)
    ctx.slack.post(channel, message, thread_ts=thread_ts)


def mention_help(channel: str, user: str, thread_ts: str | None, lang: str) -> None:
    """A mention that asked for nothing the bot does: how to ask, shown only to its author."""
    current().slack.ephemeral(channel, user, offers.mention_help(_lang(lang) or "en"), thread_ts=thread_ts)


def offer_ephemeral(
    channel: str, user: str, thread_ts: str | None, ticket: str | None, lang: str, root: str | None = None
) -> None:
    """The one offer after a message announced a verified fix: ephemeral, to its author only. `root`: the thread
    the Start button reads (the message's thread, or the message itself); jobs queued before it existed have none."""
    thread = root or thread_ts
    message = offers.offer(ticket=_ticket(ticket), channel=channel, lang=_lang(lang) or "en", thread=thread)
    current().slack.ephemeral(channel, user, message, thread_ts=thread_ts)


def offer_assignee(
    ticket: str,
    account_id: str,
    email: str | None,
    lang: str | None,
    display_name: str | None = None,
    fallback_channel: str | None = None,
) -> None:
    """DM the assignee of a Bug Jira reports resolved; the e-mail comes from Jira when the payload hid it.
    When no Slack user can be reached, POSTMORTEM_OFFER_FALLBACK_CHANNEL gets one message naming the assignee
    by their Jira display name, or else one clear log line: never silence."""
    ctx = current()
    key = _ticket(ticket)
    if key is None or not account_id:
        log.warning("offer_assignee with an invalid ticket or account id; nothing sent")
        return
    try:
        address = email or ctx.jira.user_email(account_id)
    except JiraError as exc:
        log.warning("could not read the e-mail of the assignee of %s from Jira: %s", key, exc)
        address = None
    user = ctx.slack.lookup_user_by_email(address) if address else None
    if user is None:
        why = "their Jira e-mail matches no Slack user" if address else "Jira hides their e-mail"
        if not _unreachable(
            ctx,
            key,
            account_id=account_id,
            name=display_name or account_id,
            why=why,
            channel=fallback_channel,
            lang=_lang(lang) or "en",
        ):
            ctx.store.release_claim(offer_ticket_claim(key))  # no offer was sent: a later one may be
        return
    ctx.slack.dm(user, offers.assignee_offer(ticket=key, lang=_lang(lang) or _user_lang(ctx, user)))


def _unreachable(
    ctx: WorkerContext, key: str, *, account_id: str, name: str, why: str, channel: str | None, lang: Lang
) -> bool:
    """The assignee cannot be reached in Slack: one message in the fallback channel, else one log line.
    Whether an offer was sent. The channel is told the assignee's name; the log only their Jira account id."""
    if not channel:
        log.warning(
            "no post-mortem offer for %s: its assignee (Jira account %s) has no reachable Slack user (%s), and "
            "POSTMORTEM_OFFER_FALLBACK_CHANNEL is not set",
            key,
            account_id,
            why,
        )
        return False
    try:
        ctx.slack.post(channel, offers.fallback_offer(ticket=key, assignee=name, lang=lang))
    except SlackApiError as exc:
        log.error(
            "no post-mortem offer for %s: its assignee (Jira account %s) has no reachable Slack user (%s), and "
            "posting in POSTMORTEM_OFFER_FALLBACK_CHANNEL %s failed: %s",
            key,
            account_id,
            why,
            channel,
            exc.response.get("error", "error"),
        )
        return False
    log.info("offered the post-mortem of %s in the fallback channel (assignee %s: %s)", key, account_id, why)
    return True


def _user_lang(ctx: WorkerContext, user: str) -> Lang:
    """POSTMORTEM_LANG was not set: the assignee's Slack locale decides."""
    return lang_of_locale(ctx.slack.user_locale(user))
