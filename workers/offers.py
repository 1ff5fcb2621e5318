"""The RQ jobs of the ways in besides `/post-mortem`: the Start button after a mention, the offer after a fix,
the DM to the assignee of a resolved Bug (the Jira and Slack look-ups happen here, never in the handler).

Handlers enqueue these by name (`workers.offers.<name>`) with JSON arguments, re-checked here.
"""

from __future__ import annotations

import logging
from typing import Any

from postmortem.messages import lang_of_locale
from postmortem.model import Lang, is_ticket
from renderers import offers
from workers.context import WorkerContext, current

log = logging.getLogger(__name__)


def offer_claim(ticket: str) -> str:
    """The claim handlers take when they enqueue an offer of `ticket` (handlers/mentions.claim_offer)."""
    return f"offer:ticket:{ticket}"


def _lang(value: Any) -> Lang | None:
    return value if value in ("en", "ja") else None


def _ticket(value: Any) -> str | None:
    return value if is_ticket(value) else None


def start_reply(channel: str, thread_ts: str, ticket: str | None, lang: str) -> None:
    """Answer a mention that asked for a post-mortem: the Start button, in the mention's thread."""
    ctx = current()
    message = offers.requested(ticket=_ticket(ticket), channel=channel, lang=_lang(lang) or "en")
    ctx.slack.post(channel, message, thread_ts=thread_ts)


def mention_help(channel: str, user: str, thread_ts: str | None, lang: str) -> None:
    """A mention that asked for nothing the bot does: how to ask, shown only to its author."""
    current().slack.ephemeral(channel, user, offers.mention_help(_lang(lang) or "en"), thread_ts=thread_ts)


def offer_ephemeral(channel: str, user: str, thread_ts: str | None, ticket: str | None, lang: str) -> None:
    """The one offer after a message announced a verified fix: ephemeral, to its author only."""
    message = offers.offer(ticket=_ticket(ticket), channel=channel, lang=_lang(lang) or "en")
    current().slack.ephemeral(channel, user, message, thread_ts=thread_ts)


def offer_assignee(ticket: str, account_id: str, email: str | None, lang: str | None) -> None:
    """DM the assignee of a Bug Jira reports resolved; the e-mail comes from Jira when the payload hid it."""
    ctx = current()
    key = _ticket(ticket)
    if key is None or not account_id:
        log.warning("offer_assignee with an invalid ticket or account id; nothing sent")
        return
    address = email or ctx.jira.user_email(account_id)
    if not address:
        log.info("no e-mail for the assignee of %s (hidden by privacy settings?); no offer sent", key)
        ctx.store.release_claim(offer_claim(key))  # no offer was sent: a later one may be
        return
    user = ctx.slack.lookup_user_by_email(address)
    if user is None:
        log.info("the assignee of %s has no Slack account with their Jira e-mail; no offer sent", key)
        ctx.store.release_claim(offer_claim(key))
        return
    ctx.slack.dm(user, offers.assignee_offer(ticket=key, lang=_lang(lang) or _user_lang(ctx, user)))


def _user_lang(ctx: WorkerContext, user: str) -> Lang:
    """POSTMORTEM_LANG was not set: the assignee's Slack locale decides."""
    return lang_of_locale(ctx.slack.user_locale(user))
