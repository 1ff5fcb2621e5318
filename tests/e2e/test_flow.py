"""The product end to end: /post-mortem → modal → thread questions → draft → approval → one Jira comment."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
import redis

from bot.localstack import LocalStack
from emulators.driver import modal_values
from sessions.store import SessionStore
from tests.e2e.helpers import Conversation, button_value_in, example_fields, new_ticket, wait_until

pytestmark = pytest.mark.e2e


def test_happy_path_en_posts_one_comment_with_the_bytes_shown(stack: LocalStack) -> None:
    ticket = new_ticket("CACHE")
    stack.jira.add_issue(ticket)
    chat = Conversation(stack, ticket=ticket)
    chat.start(
        example_fields(
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
    ticket = new_ticket("JIRA")
    stack.jira.add_issue(ticket)
    chat = Conversation(stack, ticket=ticket)
    chat.start(example_fields("tada-hang.ja"))
    question = chat.wait_text("投稿してください")
    assert "下書き" in chat.thread()[0]["text"] or any("概要" in m["text"] for m in chat.thread())
    chat.reply("投稿してください。")
    chat.wait_text(f"{ticket} に投稿しました")
    assert len(stack.jira.comments(ticket)) == 1
    assert question


def test_missing_inputs_are_listed_then_asked_one_at_a_time(stack: LocalStack) -> None:
    ticket = new_ticket()
    stack.jira.add_issue(ticket)
    chat = Conversation(stack, ticket=ticket)
    fields = example_fields("cache-eviction.en")
    repro, validation = fields.pop("repro"), fields.pop("validation")
    chat.start(fields)
    listing = chat.wait_text("I can't draft this post-mortem yet")
    assert "`repro`" in listing["text"] and "`validation`" in listing["text"]
    assert not chat.files(), "no partial draft"
    chat.wait_text("Let's start with *Deterministic repro*: reply `repro: &lt;text&gt;`")  # its reason was listed
    chat.reply(repro)
    chat.wait_text("reply in this thread with *Validation* as `validation: &lt;text&gt;`")
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
    ticket = new_ticket()
    stack.jira.add_issue(ticket)
    chat = Conversation(stack, ticket=ticket)
    fields = example_fields(
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
        button_value_in(asked, "postmortem_done:validation_kinds"),
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
    going = Conversation(stack, ticket=new_ticket())
    going.start(example_fields("cache-eviction.en", customer_impacting=True, why_symptom="a", how_found="b"))
    going.wait_text("incident report")
    going.reply("continue")
    going.wait_text("Reply `post it`")

    stopping = Conversation(stack, ticket=new_ticket())
    stopping.start(example_fields("cache-eviction.en", customer_impacting=True))
    stopping.wait_text("incident report")
    stopping.reply("cancel")
    stopping.wait_text("Cancelled")
    assert not stopping.files()


def test_trivial_fix_is_declined(stack: LocalStack) -> None:
    chat = Conversation(stack, ticket=new_ticket())
    chat.start(example_fields("cache-eviction.en", trivial=True))
    chat.wait_text("Nothing to write here")
    assert not chat.files()


def test_only_the_requester_can_approve(stack: LocalStack) -> None:
    ticket = new_ticket()
    stack.jira.add_issue(ticket)
    chat = Conversation(stack, ticket=ticket)
    chat.start(example_fields("cache-eviction.en", why_symptom="a", how_found="b"))
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
    ticket = new_ticket()
    stack.jira.add_issue(ticket)
    chat = Conversation(stack, ticket=ticket)
    chat.start(example_fields("cache-eviction.en", why_symptom="a", how_found="b"))
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
    ticket = new_ticket()
    stack.jira.add_issue(ticket)
    chat = Conversation(stack, ticket=ticket)
    chat.start(example_fields("cache-eviction.en", destination="docs_file", why_symptom="a", how_found="b"))
    chat.wait_text("Nothing is posted anywhere")
    chat.wait_text("hand off to management-talk")  # the hand-off offer after an output-only destination too
    files = chat.files()
    assert [f["name"] for f in files] == [f"docs/postmortems/{ticket}.md"]
    assert files[0]["bytes"].decode().startswith(f"# Post-mortem: {ticket}")
    chat.reply("yes")
    chat.wait_text("Nothing is posted anywhere", after=len(chat.thread()) - 1)
    assert stack.jira.comments(ticket) == []


def test_edit_reopens_the_modal_and_is_refused_after_approval(stack: LocalStack) -> None:
    ticket = new_ticket()
    stack.jira.add_issue(ticket)
    chat = Conversation(stack, ticket=ticket)
    chat.start(example_fields("cache-eviction.en", why_symptom="a", how_found="b"))
    chat.wait_text("to post v1")
    views_before = len(stack.slack.views)
    chat.click("postmortem_edit")
    view = stack.slack.wait_for(lambda s: s.views[-1] if s.views[views_before:] else None)["view"]
    summary = next(b for b in view["blocks"] if b.get("block_id") == "summary")
    assert summary["element"]["initial_value"].startswith("Reads from the block cache")
    values = example_fields(
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
    store = SessionStore(redis.Redis.from_url(stack.redis_url))
    wait_until(
        lambda: getattr(store.find_by_thread(chat.channel, chat.thread_ts), "state", None) == "posted", 20, "posted"
    )
    views = len(stack.slack.views)  # DESIGN §4 "Amendment": Edit on a posted record opens the amendment's form
    chat.click("postmortem_edit", message=next(m for m in chat.thread() if button_value_in(m, "postmortem_edit")))
    view = stack.slack.wait_for(lambda s: s.views[-1]["view"] if len(s.views) > views else None)
    summary = next(b for b in view["blocks"] if b.get("block_id") == "summary")
    assert summary["element"]["initial_value"].startswith("Stale pages after compaction")  # the posted v2's inputs
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
