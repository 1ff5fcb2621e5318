"""The synchronous middles of the ways in besides `/post-mortem`: a mention, the offer after a fix, the Start button.

Listeners (handlers/listeners.py) run these in a thread before the ack, so they only read and write
Redis and enqueue `workers.offers.*`; the Slack calls happen in the worker.

The store's ticket index (`SessionStore.find_by_ticket`) is read so that no one is offered a post-mortem
that is already being written. One small index of its own lives next to the store's keys, under its prefix:
`seen-keys:<channel>:<thread_ts>` → the Jira keys named in a thread's messages, so a mention in the
thread can prefill the one key the thread names (the bot keeps no message text, only keys).
"""

from __future__ import annotations

import json
import logging
import re
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError, field_validator

from handlers import form
from handlers.deps import EVENT_DEDUP_SECONDS, Deps
from postmortem.model import Lang, is_ticket
from rules.triggers import classify, jira_keys, language_of
from sessions.claims import event_claim, offer_thread_claim, offer_ticket_claim
from sessions.session import Session

log = logging.getLogger(__name__)

#: One unasked offer per ticket and per thread within this time (a month: a post-mortem is written in days).
OFFER_ONCE_SECONDS = 30 * 24 * 3600
#: Keys named in a thread are remembered this long for a later mention in it.
SEEN_KEYS_SECONDS = 7 * 24 * 3600
#: Keys read from one message (the rest are ignored): an offer names one key, and a message naming thousands
#: must not cost thousands of Redis writes or claims (SECURITY.md says this number).
MAX_KEYS_PER_MESSAGE = 5
#: Channel kinds where the bot offers unasked (it only receives messages of channels it is a member of).
OFFER_CHANNEL_TYPES = frozenset({"channel", "group"})


def session_for_ticket(deps: Deps, ticket: str) -> Session | None:
    """The stored session started for this ticket, if any (whatever its state: even a cancelled one)."""
    return deps.store.find_by_ticket(ticket)


def claim_offer(deps: Deps, *, tickets: list[str], thread: str | None) -> bool:
    """Take the once-per-thread and once-per-ticket claims together; all or none (a loser gives back its own)."""
    keys = ([offer_thread_claim(thread)] if thread else []) + [offer_ticket_claim(t) for t in tickets]
    taken: list[str] = []
    for key in keys:
        if not deps.store.claim_once(key, OFFER_ONCE_SECONDS):
            for done in taken:
                deps.store.release_claim(done)
            return False
        taken.append(key)
    return True


def _seen_keys(deps: Deps, channel: str, root: str) -> list[str]:
    if deps.redis is None:
        return []
    members = deps.redis.smembers(deps.store.seen_keys_key(channel, root))
    return sorted(m.decode() if isinstance(m, bytes) else str(m) for m in members)


def _remember_keys(deps: Deps, channel: str, root: str, keys: list[str]) -> None:
    if deps.redis is None or not keys:
        return
    name = deps.store.seen_keys_key(channel, root)
    with deps.redis.pipeline(transaction=False) as pipe:
        pipe.sadd(name, *keys)
        pipe.expire(name, SEEN_KEYS_SECONDS)
        pipe.execute()


def _one(keys: list[str]) -> str | None:
    return keys[0] if len(keys) == 1 else None


def _lang(deps: Deps, text: str) -> Lang:
    return deps.default_lang or language_of(text)


def mention(
    deps: Deps, *, channel: str, user: str, text: str, ts: str, thread_ts: str | None, event_id: str | None
) -> None:
    """`@postmortem-bot ...`: a request gets the Start button in the thread; anything else a private hint."""
    if thread_ts and deps.store.find_by_thread(channel, thread_ts) is not None:
        return  # a reply in a session's thread: flow.thread_reply reads it
    if event_id and not deps.store.claim_once(event_claim(event_id), EVENT_DEDUP_SECONDS):
        log.info("event %s already handled (Slack retry)", event_id)
        return
    root, lang = thread_ts or ts, _lang(deps, text)
    if classify(text, mentioned=True) != "request":
        deps.enqueue_offer("mention_help", channel, user, thread_ts, lang)
        return
    named = jira_keys(text)[:MAX_KEYS_PER_MESSAGE]
    ticket = _one(named or _seen_keys(deps, channel, root))  # the message's own keys win over the thread's
    deps.enqueue_offer("start_reply", channel, root, ticket, lang)


def message(
    deps: Deps,
    *,
    channel: str,
    channel_type: str,
    user: str,
    text: str,
    ts: str,
    thread_ts: str | None,
    bot_user_id: str | None,
    thread_checked: bool = False,
) -> None:
    """A channel message outside a session: remember the keys it names; offer once after a verified fix.
    `thread_checked`: the caller already found that its thread is no session's (flow.thread_reply)."""
    in_thread = bool(thread_ts and thread_ts != ts)
    if in_thread and not thread_checked and deps.store.find_by_thread(channel, str(thread_ts)) is not None:
        return
    root = thread_ts or ts
    named = jira_keys(text)[:MAX_KEYS_PER_MESSAGE]
    _remember_keys(deps, channel, root, named)
    if bot_user_id and f"<@{bot_user_id}>" in text:
        return  # addressed to the bot: the app_mention listener answers it
    if not deps.offers_enabled or (deps.offer_channels and channel not in deps.offer_channels):
        return
    if channel_type not in OFFER_CHANNEL_TYPES or classify(text, mentioned=False) != "announcement":
        return
    tickets = named or _seen_keys(deps, channel, root)[:MAX_KEYS_PER_MESSAGE]
    if any(session_for_ticket(deps, t) is not None for t in tickets):
        return
    offered = _one(tickets)  # only the key the offer names is claimed: others stay free for their own offer
    if not claim_offer(deps, tickets=[offered] if offered else [], thread=f"{channel}:{root}"):
        return
    reply_in = thread_ts if in_thread else None
    deps.enqueue_offer("offer_ephemeral", channel, user, reply_in, offered, _lang(deps, text), root)


#: A Slack message timestamp ("1712345678.000100"); anything else a button carries is dropped.
_SLACK_TS = re.compile(r"\d{1,12}\.\d{1,9}")


class StartValue(BaseModel):
    """What the Start button carries (renderers/offers.start_value); re-validated on the click. `ts`: the
    debugging thread's root (a button without it, or with a malformed one, knows no thread)."""

    model_config = ConfigDict(extra="ignore")

    ticket: str | None = None
    channel: str = ""
    lang: Lang = "en"
    ts: str = ""

    @field_validator("ticket")
    @classmethod
    def _key(cls, value: str | None) -> str | None:
        return value if is_ticket(value) else None

    @field_validator("ts", mode="before")
    @classmethod
    def _ts(cls, value: Any) -> str:
        return value if isinstance(value, str) and _SLACK_TS.fullmatch(value) else ""


def start_view(deps: Deps, *, value: str, clicked_in: str) -> dict[str, Any] | None:
    """The Start button: the `/post-mortem` modal, prefilled with the key it carries; None for a bad value."""
    try:
        start = StartValue.model_validate(json.loads(value or "{}"))
    except (ValueError, ValidationError):
        log.warning("Start button with an unreadable value")
        return None
    channel = start.channel or clicked_in
    if not channel:
        return None
    return form.open_view(ticket=start.ticket, channel=channel, lang=deps.default_lang or start.lang)
