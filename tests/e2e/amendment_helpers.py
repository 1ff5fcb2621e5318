"""What the amendment e2e tests share (tests/e2e/test_amendment*.py): their stack, a session read back from
Redis, the PUTs Jira answered for a comment, and the marker a request body carries."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import redis

from bot.localstack import LocalStack
from sessions.session import Session, State
from sessions.store import SessionStore
from tests.e2e.helpers import Conversation, example_fields, running_stack, wait_until

#: The configured approver besides the requester.
APPROVER = "U_APPROVER"


@contextmanager
def amendment_stack(deployment: str, **settings: str) -> Iterator[LocalStack]:
    """Short Jira timeouts, a 1 s watchdog, `APPROVER` as an approver, and any other settings given."""
    base = {"JIRA_TIMEOUT": "2", "POSTMORTEM_WATCHDOG_SECONDS": "1", "POSTMORTEM_APPROVERS": APPROVER}
    with running_stack(base | settings, deployment=deployment) as local:
        yield local


def session_of(stack: LocalStack, chat: Conversation) -> Session:
    found = SessionStore(redis.Redis.from_url(stack.redis_url)).find_by_thread(chat.channel, chat.thread_ts)
    assert found is not None
    return found


def settled(stack: LocalStack, chat: Conversation) -> None:
    """Wait until the session is recorded posted (the link is said just before)."""
    wait_until(lambda: session_of(stack, chat).state is State.posted, 20, "the session recorded posted")


def puts(stack: LocalStack, chat: Conversation, comment_id: str) -> list[int]:
    """The statuses Jira answered to the PUTs of that comment, in order."""
    path = re.escape(f"{stack.comment_path(chat.ticket)}/{comment_id}")
    return [int(m) for m in re.findall(rf"^PUT {path} -> (\d+)", stack.jira.dump(), flags=re.MULTILINE)]


def marker(body: bytes) -> dict[str, Any]:
    """The postmortem-bot property a request body carries."""
    return next(p["value"] for p in json.loads(body)["properties"] if p["key"] == "postmortem-bot")


def post_session(
    stack: LocalStack,
    ticket: str,
    *,
    stem: str = "cache-eviction.en",
    ask: str = "Reply `post it`",
    yes: str = "yes",
    said: str = "Posted to",
) -> Conversation:
    """A session of the example `stem` on `ticket`, approved with `yes` and posted as v1, its post settled."""
    chat = Conversation(stack, ticket=ticket)
    chat.start(example_fields(stem, why_symptom="`evict_range` stops early.", how_found="`git bisect`."))
    chat.wait_text(ask)
    chat.reply(yes)
    chat.wait_text(said)
    settled(stack, chat)
    return chat
