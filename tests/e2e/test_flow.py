"""The product end to end: /post-mortem → modal → thread questions → draft → approval → one Jira comment."""

from __future__ import annotations

import json
from itertools import count
from typing import Any

import pytest

from bot.localstack import LocalStack
from emulators.driver import modal_values
from postmortem.model import load_postmortem
from tests.conftest import EXAMPLES

pytestmark = pytest.mark.e2e

_channels = count(1)


def _fields(stem: str, **overrides: Any) -> dict[str, Any]:
    pm = load_postmortem(EXAMPLES / f"{stem}.yaml")
    data = pm.model_dump(exclude_defaults=True, mode="json")
    items = data.pop("action_items", [])
    if items:
        data["action_items"] = "\n".join(" | ".join(i.get(k) or "" for k in ("what", "owner", "tracking"))
                                         for i in items)
    if data.pop("action_items_none", False):
        data["action_items"] = "none"
    data.update(overrides)
    return {k: v for k, v in data.items() if v is not None}


class Conversation:
    """One person's session in a fresh channel, with waits on what the emulators saw."""

    def __init__(self, stack: LocalStack, *, user: str = "U1", ticket: str = "PROJ-1") -> None:
        self.stack, self.user, self.ticket = stack, user, ticket
        self.channel = f"C{next(_channels):04d}"
        self.driver = stack.driver()
        self.jira_key = ticket
        self.thread_ts = ""

    def start(self, fields: dict[str, Any]) -> None:
        assert self.driver.slash_command(text=self.ticket, user_id=self.user, channel_id=self.channel).status_code == 200
        self.stack.slack.wait_for(lambda s: s.views and s.views[-1]["view"]["private_metadata"].find(self.channel) >= 0)
        response = self.driver.view_submission(values=modal_values({"ticket": self.ticket, **fields}), user_id=self.user)
        assert response.status_code == 200, response.text
        assert not response.content or json.loads(response.content).get("response_action") != "errors", response.text
        parent = self.stack.slack.wait_for(lambda s: next((m for m in s.messages(channel=self.channel)
                                                           if not m.get("thread_ts")), None))
        self.thread_ts = parent["ts"]

    def thread(self) -> list[dict[str, Any]]:
        return self.stack.slack.messages(channel=self.channel, thread_ts=self.thread_ts)

    def wait_text(self, needle: str, *, after: int = 0) -> dict[str, Any]:
        return self.stack.slack.wait_for(
            lambda s: next((m for m in self.thread()[after:] if needle in m["text"]), None), timeout=20)

    def reply(self, text: str, *, user: str | None = None, **kwargs: Any) -> None:
        response = self.driver.message(text, user=user or self.user, channel=self.channel,
                                       thread_ts=self.thread_ts, **kwargs)
        assert response.status_code == 200, response.text


def test_happy_path_en_posts_one_comment_with_the_bytes_shown(stack: LocalStack) -> None:
    stack.jira.add_issue("CACHE-88")
    chat = Conversation(stack, ticket="CACHE-88")
    chat.start(_fields("cache-eviction.en", why_symptom="x", how_found="y"))
    question = chat.wait_text("post it")
    shown = stack.slack.wait_for(lambda s: s.files(channel=chat.channel))
    assert shown[-1]["name"] == "CACHE-88-postmortem-v1.json"
    chat.reply("post it")
    chat.wait_text("Posted to CACHE-88")
    comments = stack.jira.comments("CACHE-88")
    assert len(comments) == 1
    assert comments[0].raw == shown[-1]["bytes"]
    assert question["ts"]
