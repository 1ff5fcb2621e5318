"""The product end to end: /post-mortem → modal → thread questions → draft → approval → one Jira comment."""

from __future__ import annotations

import json
from collections.abc import Callable
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
        data["action_items"] = "\n".join(
            " | ".join(i.get(k) or "" for k in ("what", "owner", "tracking")) for i in items
        )
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

    def start(self, fields: dict[str, Any], *, in_jira: bool = True) -> None:
        if in_jira:
            self.stack.jira.add_issue(self.ticket)
        sent = self.driver.slash_command(text=self.ticket, user_id=self.user, channel_id=self.channel)
        assert sent.status_code == 200
        view = self.stack.slack.wait_for(
            lambda s: next((v["view"] for v in s.views if self.channel in v["view"]["private_metadata"]), None)
        )
        response = self.driver.view_submission(
            values=modal_values({**fields, "ticket": self.ticket}), user_id=self.user, view_id=view["id"]
        )
        assert response.status_code == 200, response.text
        assert not response.content or json.loads(response.content).get("response_action") != "errors", response.text
        parent = self.stack.slack.wait_for(
            lambda s: next((m for m in s.messages(channel=self.channel) if not m.get("thread_ts")), None)
        )
        self.thread_ts = parent["ts"]

    def thread(self) -> list[dict[str, Any]]:
        return self.stack.slack.messages(channel=self.channel, thread_ts=self.thread_ts)

    def wait_text(self, needle: str, *, after: int = 0, timeout: float = 20) -> dict[str, Any]:
        try:
            return self.stack.slack.wait_for(
                lambda s: next((m for m in self.thread()[after:] if needle in m["text"]), None), timeout=timeout
            )
        except TimeoutError as exc:
            thread = "\n".join(m["text"][:300] for m in self.thread())
            raise AssertionError(
                f"{needle!r} not in the thread:\n{thread}\n--- logs ---\n{self.stack.logs()[-6000:]}"
            ) from exc

    def reply(self, text: str, *, user: str | None = None, **kwargs: Any) -> None:
        response = self.driver.message(
            text, user=user or self.user, channel=self.channel, thread_ts=self.thread_ts, **kwargs
        )
        assert response.status_code == 200, response.text

    def click(self, action_id: str, *, user: str | None = None, message: dict[str, Any] | None = None) -> None:
        message = message or self.with_button(action_id)
        response = self.driver.block_action(
            action_id,
            _button_value(message, action_id),
            user_id=user or self.user,
            channel_id=self.channel,
            message_ts=message["ts"],
            thread_ts=self.thread_ts,
        )
        assert response.status_code == 200, response.text

    def with_button(self, action_id: str) -> dict[str, Any]:
        return self.stack.slack.wait_for(
            lambda s: next((m for m in reversed(self.thread()) if _button_value(m, action_id)), None), timeout=20
        )

    def files(self) -> list[dict[str, Any]]:
        return self.stack.slack.files(channel=self.channel)


def _button_value(message: dict[str, Any], action_id: str) -> str:
    for block in message.get("blocks") or []:
        for element in block.get("elements", []):
            if element.get("action_id") == action_id:
                return str(element["value"])
    return ""


ISSUES = count(100)


def _ticket(prefix: str = "PROJ") -> str:
    return f"{prefix}-{next(ISSUES)}"


def test_happy_path_en_posts_one_comment_with_the_bytes_shown(stack: LocalStack) -> None:
    ticket = _ticket("CACHE")
    stack.jira.add_issue(ticket)
    chat = Conversation(stack, ticket=ticket)
    chat.start(
        _fields(
            "cache-eviction.en",
            why_symptom="The eviction skipped `shard_bits` 17.",
            how_found="Bisected with `git bisect` on the 128 GiB runner.",
        )
    )
    chat.wait_text("Reply `post it`")
    shown = chat.files()
    assert [f["name"] for f in shown] == [f"{ticket}-postmortem-v1.json"]
    body = json.loads(shown[0]["bytes"])
    assert body["properties"][0]["key"] == "postmortem-bot"
    # DESIGN §4: internal on Jira Service Management, and the last paragraph links back to this thread.
    assert body["properties"][1] == {"key": "sd.public.comment", "value": {"internal": True}}
    last = body["body"]["content"][-1]["content"]
    assert last[0]["text"].startswith("Requested by ")
    assert last[1]["marks"][0]["attrs"]["href"].startswith("https://emulated.slack.com/archives/")
    chat.reply("Post it!")
    posted = chat.wait_text(f"Posted to {ticket}")
    comments = stack.jira.comments(ticket)
    assert len(comments) == 1
    assert comments[0].raw == shown[0]["bytes"]
    assert f"/browse/{ticket}?focusedCommentId={comments[0].id}" in posted["text"]
    offer = chat.with_button("postmortem_handoff")
    assert "leadership-toned" in offer["text"]
    assert stack_queue_length(stack, "management-talk") == 0  # offered, never run by itself
    chat.click("postmortem_handoff", message=offer)
    chat.wait_text("Handed off to management-talk")
    assert stack_queue_length(stack, "management-talk") == 1


def stack_queue_length(stack: LocalStack, name: str) -> int:
    import redis as redis_lib

    return int(redis_lib.Redis.from_url(stack.redis_url).llen(f"rq:queue:{name}"))


def test_happy_path_ja_with_japanese_approval(stack: LocalStack) -> None:
    ticket = _ticket("JIRA")
    stack.jira.add_issue(ticket)
    chat = Conversation(stack, ticket=ticket)
    chat.start(_fields("tada-hang.ja"))
    question = chat.wait_text("投稿してください")
    assert "下書き" in chat.thread()[0]["text"] or any("概要" in m["text"] for m in chat.thread())
    chat.reply("投稿してください。")
    chat.wait_text(f"{ticket} に投稿しました")
    assert len(stack.jira.comments(ticket)) == 1
    assert question


def test_missing_inputs_are_listed_then_asked_one_at_a_time(stack: LocalStack) -> None:
    ticket = _ticket()
    stack.jira.add_issue(ticket)
    chat = Conversation(stack, ticket=ticket)
    fields = _fields("cache-eviction.en")
    repro, validation = fields.pop("repro"), fields.pop("validation")
    chat.start(fields)
    listing = chat.wait_text("I can't draft this post-mortem yet")
    assert "`repro`" in listing["text"] and "`validation`" in listing["text"]
    assert not chat.files(), "no partial draft"
    chat.wait_text("Let's start with *Deterministic repro*: reply `repro: <text>`")  # its reason was listed
    chat.reply(repro)
    chat.wait_text("reply in this thread with *Validation* as `validation: <text>`")
    chat.reply("TBD")
    chat.wait_text("doesn't fill")
    chat.reply(validation)
    chat.wait_text("Usually included")

    def grew_past(count: int) -> Callable[[object], bool]:
        return lambda _: len(chat.thread()) > count

    for _ in range(2):  # why_symptom, how_found
        before = len(chat.thread())
        chat.reply("skip")
        chat.stack.slack.wait_for(grew_past(before))
    chat.wait_text("Reply `post it`")
    assert [f["name"] for f in chat.files()] == [f"{ticket}-postmortem-v1.json"]


def test_structured_evidence_is_answered_with_a_button_and_with_checkboxes(stack: LocalStack) -> None:
    ticket = _ticket()
    stack.jira.add_issue(ticket)
    chat = Conversation(stack, ticket=ticket)
    fields = _fields(
        "cache-eviction.en",
        why_symptom="The eviction skipped `shard_bits` 17.",
        how_found="Bisected with `git bisect` on the 128 GiB runner.",
    )
    del fields["repro_rate"], fields["validation_kinds"]
    chat.start(fields)
    chat.click("postmortem_choose:repro_rate:high_frequency")
    asked = chat.with_button("postmortem_done:validation_kinds")
    ticked = {
        "ask_validation_kinds": {
            "postmortem_checks:validation_kinds": {
                "type": "checkboxes",
                "selected_options": [{"value": "original_repro_passes"}],
            }
        }
    }
    response = chat.driver.block_action(
        "postmortem_done:validation_kinds",
        _button_value(asked, "postmortem_done:validation_kinds"),
        user_id=chat.user,
        channel_id=chat.channel,
        message_ts=asked["ts"],
        thread_ts=chat.thread_ts,
        state=ticked,
    )
    assert response.status_code == 200, response.text
    chat.wait_text("Reply `post it`")
    draft = "\n".join(m["text"] for m in chat.thread())
    assert "High frequency" in draft and "Original repro passes" in draft


def test_outage_needs_confirmation_continue_and_cancel(stack: LocalStack) -> None:
    going = Conversation(stack, ticket=_ticket())
    going.start(_fields("cache-eviction.en", customer_impacting=True, why_symptom="a", how_found="b"))
    going.wait_text("incident report")
    going.reply("continue")
    going.wait_text("Reply `post it`")

    stopping = Conversation(stack, ticket=_ticket())
    stopping.start(_fields("cache-eviction.en", customer_impacting=True))
    stopping.wait_text("incident report")
    stopping.reply("cancel")
    stopping.wait_text("Cancelled")
    assert not stopping.files()


def test_trivial_fix_is_declined(stack: LocalStack) -> None:
    chat = Conversation(stack, ticket=_ticket())
    chat.start(_fields("cache-eviction.en", trivial=True))
    chat.wait_text("Nothing to write here")
    assert not chat.files()


def test_only_the_requester_can_approve(stack: LocalStack) -> None:
    ticket = _ticket()
    stack.jira.add_issue(ticket)
    chat = Conversation(stack, ticket=ticket)
    chat.start(_fields("cache-eviction.en", why_symptom="a", how_found="b"))
    chat.wait_text("Reply `post it`")
    chat.reply("yes", user="U_STRANGER")
    note = stack.slack.wait_for(lambda s: s.ephemerals(channel=chat.channel, user="U_STRANGER"))
    assert "Only <@U1>" in note[0]["text"]
    chat.reply("yes but fix the summary")
    chat.reply("yes")
    chat.wait_text(f"Posted to {ticket}")
    assert len(stack.jira.comments(ticket)) == 1
    assert all(p.status == 201 for p in stack.jira.posts if ticket in p.path)


def test_three_revisions_ask_which_section_before_the_third(stack: LocalStack) -> None:
    ticket = _ticket()
    stack.jira.add_issue(ticket)
    chat = Conversation(stack, ticket=ticket)
    chat.start(_fields("cache-eviction.en", why_symptom="a", how_found="b"))
    chat.wait_text("to post v1")
    chat.reply("summary: The cache served stale pages after `compact()`.")
    chat.wait_text("to post v2")
    chat.reply("owner: Priya")
    chat.wait_text("to post v3")
    chat.reply("summary: again")
    chat.wait_text("which section has a concrete problem")
    assert not any("to post v4" in m["text"] for m in chat.thread())
    chat.reply("summary: `BlockCache::evict_range` skipped the last shard.")
    chat.wait_text("to post v4")
    chat.reply("yes")
    chat.wait_text(f"Posted to {ticket}")
    comment = stack.jira.comments(ticket)[0]
    assert comment.property_map["postmortem-bot"]["version"] == 4
    assert "evict_range" in json.dumps(comment.body)


def test_other_destination_attaches_markdown_and_posts_nothing(stack: LocalStack) -> None:
    ticket = _ticket()
    stack.jira.add_issue(ticket)
    chat = Conversation(stack, ticket=ticket)
    chat.start(_fields("cache-eviction.en", destination="docs_file", why_symptom="a", how_found="b"))
    chat.wait_text("Nothing is posted anywhere")
    chat.wait_text("hand off to management-talk")  # the seed's step 5 after an output-only destination too
    files = chat.files()
    assert [f["name"] for f in files] == [f"docs/postmortems/{ticket}.md"]
    assert files[0]["bytes"].decode().startswith(f"# Post-mortem: {ticket}")
    chat.reply("yes")
    chat.wait_text("Nothing is posted anywhere", after=len(chat.thread()) - 1)
    assert stack.jira.comments(ticket) == []


def test_edit_reopens_the_modal_and_is_refused_after_approval(stack: LocalStack) -> None:
    ticket = _ticket()
    stack.jira.add_issue(ticket)
    chat = Conversation(stack, ticket=ticket)
    chat.start(_fields("cache-eviction.en", why_symptom="a", how_found="b"))
    chat.wait_text("to post v1")
    views_before = len(stack.slack.views)
    chat.click("postmortem_edit")
    view = stack.slack.wait_for(lambda s: s.views[-1] if s.views[views_before:] else None)["view"]
    summary = next(b for b in view["blocks"] if b.get("block_id") == "summary")
    assert summary["element"]["initial_value"].startswith("Reads from the block cache")
    values = _fields(
        "cache-eviction.en",
        summary="Stale pages after compaction: `evict_range` skipped a shard.",
        why_symptom="a",
        how_found="b",
    )
    response = chat.driver.view_submission(values=modal_values({**values, "ticket": ticket}), user_id=chat.user)
    assert response.status_code == 200
    chat.wait_text("to post v2")
    chat.reply("go ahead")
    chat.wait_text(f"Posted to {ticket}")
    before = len(chat.thread())
    chat.click("postmortem_edit", message=next(m for m in chat.thread() if _button_value(m, "postmortem_edit")))
    chat.wait_text("no longer changes", after=before)
    assert len(stack.jira.comments(ticket)) == 1


def test_bad_signature_and_stale_timestamp_are_rejected(stack: LocalStack) -> None:
    import time

    driver = stack.driver()
    body = b"command=%2Fpost-mortem&text=PROJ-1&user_id=U1&channel_id=C1&trigger_id=t"
    forged = driver.post(
        body,
        "application/x-www-form-urlencoded",
        timestamp=int(time.time()),
        headers={"X-Slack-Signature": "v0=" + "0" * 64},
    )
    assert forged.status_code == 401
    stale = driver.post(body, "application/x-www-form-urlencoded", timestamp=int(time.time()) - 600)
    assert stale.status_code == 401
