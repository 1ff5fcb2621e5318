"""What the follow-up e2e tests share (tests/e2e/test_followups_*.py): a conversation with action items, the
create requests Jira got, the issues of a conversation's session, and its one comment."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from itertools import count

from bot.localstack import LocalStack
from emulators.jira_followups import CreatedIssue
from tests.e2e.helpers import Conversation, comment_posts, example_fields, running_stack

TICKETS = count(1)
SLOT = b"\\u27e8"  # "⟨" as the request body carries it: no slot may be left unfilled


@contextmanager
def followup_stack(deployment: str, quiet: int) -> Iterator[LocalStack]:
    """The stack the follow-up tests run on: short Jira timeouts, a 1 s watchdog, `quiet` s of quiet period."""
    settings = {"JIRA_TIMEOUT": "2", "POSTMORTEM_WATCHDOG_SECONDS": "1", "POSTMORTEM_POST_QUIET_SECONDS": str(quiet)}
    with running_stack(settings, deployment=deployment) as local:
        yield local


def start(stack: LocalStack, lines: list[str], *, stem: str = "cache-eviction.en", prefix: str = "FLT") -> Conversation:
    chat = Conversation(stack, ticket=f"{prefix}-{next(TICKETS)}")
    fields = example_fields(stem, why_symptom="a", how_found="b", action_items="\n".join(lines))
    fields.pop("action_items_none", None)
    chat.start(fields)
    return chat


def drafted(stack: LocalStack, lines: list[str], **kwargs: str) -> Conversation:
    chat = start(stack, lines, **kwargs)
    chat.wait_text("Reply `post it`")
    return chat


def root(stack: LocalStack) -> str:
    return "/rest/api/2" if stack.deployment == "datacenter" else "/rest/api/3"


def create_path(stack: LocalStack) -> str:
    return f"{root(stack)}/issue"


def creates(stack: LocalStack, since: int = 0) -> list[int]:
    return [p.status for p in stack.jira.posts[since:] if p.path == create_path(stack)]


def label_of(chat: Conversation) -> str:
    first = next(f for f in chat.files() if "-issue-" in f["name"])
    return str(json.loads(first["bytes"])["fields"]["labels"][0])


def made(stack: LocalStack, chat: Conversation) -> list[CreatedIssue]:
    return stack.jira.followups.issues_labelled(label_of(chat))


def session_id(chat: Conversation) -> str:
    return label_of(chat).removeprefix("postmortem-")


def one_comment_naming(stack: LocalStack, chat: Conversation, keys: list[str]) -> bytes:
    """Exactly one comment, every slot filled, naming each key (a key an earlier version made is also a link)."""
    [comment] = stack.jira.comments(chat.ticket)
    assert SLOT not in comment.raw
    for key in keys:
        assert key.encode() in comment.raw, (key, comment.raw)
    assert comment_posts(stack, chat.ticket) == [201]
    return comment.raw


def links_of(stack: LocalStack, ticket: str) -> list[tuple[str, str, str]]:
    return [link for link in stack.jira.followups.links if ticket in link[1:]]
