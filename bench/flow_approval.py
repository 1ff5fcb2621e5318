"""Part (b) of bench/flow.py: approval -> Jira POST. K sessions are driven to the drafted state through the
SlackDriver (over one keep-alive session), then approved one at a time."""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import requests

from bench.flow_ack import USER
from bot.localstack import LocalStack
from emulators.driver import SlackDriver, modal_values
from postmortem.model import load_postmortem

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "cache-eviction.en.yaml"


class SessionDriver(SlackDriver):
    """SlackDriver over one keep-alive session, as Slack's own delivery would reuse its connection."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.session = requests.Session()

    def deliver(self, body: bytes, headers: dict[str, str]) -> requests.Response:
        return self.session.post(self.events_url, data=body, headers=headers, timeout=self.timeout)


@dataclass
class Chat:
    ticket: str
    channel: str
    thread_ts: str = ""


def fields() -> dict[str, Any]:
    """The seed example as modal fields, complete enough to be drafted at once (as tests/e2e/test_flow.py does)."""
    data = load_postmortem(EXAMPLE).model_dump(exclude_defaults=True, mode="json")
    items = data.pop("action_items", [])
    if items:
        data["action_items"] = "\n".join(
            " | ".join(i.get(k) or "" for k in ("what", "owner", "tracking")) for i in items
        )
    if data.pop("action_items_none", False) or not items:
        data["action_items"] = "none"
    data.update(why_symptom="The eviction skipped a shard.", how_found="Bisected on the runner.")
    return {k: v for k, v in data.items() if v is not None}


def drafted_chats(stack: LocalStack, driver: SlackDriver, k: int) -> list[Chat]:
    """K sessions opened through the modal, then waited on until each shows its approval question."""
    values = fields()
    chats = [Chat(f"BENCH-{i + 1}", f"CB{i + 1:04d}") for i in range(k)]
    slack = stack.slack
    for chat in chats:
        stack.jira.add_issue(chat.ticket)
        assert driver.slash_command(text=chat.ticket, user_id=USER, channel_id=chat.channel).status_code == 200
        view = slack.wait_for(
            lambda s, c=chat.channel: next(  # type: ignore[misc]
                (v for v in reversed(s.views) if c in v["view"].get("private_metadata", "")), None
            )
        )
        response = driver.view_submission(
            values=modal_values({**values, "ticket": chat.ticket}), user_id=USER, view_id=view["view"]["id"]
        )
        assert response.status_code == 200 and b"errors" not in response.content, response.text
    for chat in chats:
        parent = slack.wait_for(
            lambda s, c=chat.channel: next(  # type: ignore[misc]
                (m for m in s.messages(channel=c) if not m.get("thread_ts")), None
            ),
            timeout=60,
        )
        chat.thread_ts = parent["ts"]
        slack.wait_for(
            lambda s, c=chat: any(
                "Reply `post it`" in m["text"]  # type: ignore[misc]
                for m in s.messages(channel=c.channel, thread_ts=c.thread_ts)
            ),
            timeout=60,
        )
    return chats


def approval_to_post(stack: LocalStack, driver: SlackDriver, chats: list[Chat]) -> tuple[list[float], list[float]]:
    """Per session: (emulator's comment timestamp - send), (wait_for return - send), in ms; one at a time."""
    by_stamp, by_wait = [], []
    for chat in chats:
        ts = stack.slack.next_ts()
        wall, sent = time.time(), time.perf_counter()
        response = driver.message("post it", user=USER, channel=chat.channel, thread_ts=chat.thread_ts, ts=ts)
        comment = stack.jira.wait_for(lambda j, t=chat.ticket: j.comments(t), timeout=30)[0]  # type: ignore[misc]
        by_wait.append((time.perf_counter() - sent) * 1000)
        assert response.status_code == 200, response.text
        created = datetime.strptime(comment.created, "%Y-%m-%dT%H:%M:%S.%f%z").timestamp()
        by_stamp.append((created - wall) * 1000)
        # Let the worker finish this session (posted notice, hand-off offer) so the next one starts on an idle worker.
        stack.slack.wait_for(
            lambda s, c=chat: any(
                "postmortem_handoff" in str(m.get("blocks"))  # type: ignore[misc]
                for m in s.messages(channel=c.channel, thread_ts=c.thread_ts)
            ),
            timeout=30,
        )
        time.sleep(0.1)
    return by_stamp, by_wait
