"""Amendments (DESIGN §4 "Amendment"): a posted record corrected by editing the same Jira comment, never a second.

Real `serve` and `worker` processes on a real Redis; every test runs against Jira Cloud (REST v3, ADF) and Jira
Data Center (REST v2, wiki markup), as tests/e2e/test_delivery.py does.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from itertools import count

import pytest

from bot.localstack import JIRA_DEPLOYMENTS, LocalStack
from emulators.driver import modal_values
from sessions.session import State
from tests.e2e.amendment_helpers import APPROVER, amendment_stack, marker, post_session, puts, session_of, settled
from tests.e2e.helpers import (
    Conversation,
    command,
    comment_posts,
    example_fields,
    posted_once,
)

pytestmark = pytest.mark.e2e

TICKETS = count(1)
NEW_SUMMARY = "Reads returned stale pages after compaction: `evict_range` skipped the last shard. Fixed by PR 42."


@pytest.fixture(scope="module", params=JIRA_DEPLOYMENTS)
def stack(request: pytest.FixtureRequest) -> Iterator[LocalStack]:
    with amendment_stack(request.param) as local:
        yield local


def posted(stack: LocalStack) -> Conversation:
    """A session posted as v1 (one comment in Jira)."""
    chat = post_session(stack, f"AMD-{next(TICKETS)}")
    posted_once(stack, chat)
    return chat


def assert_amended_in_place(stack: LocalStack, chat: Conversation, comment_id: str, version: int) -> None:
    """One comment, the same one, holding exactly the bytes shown for `version`, its property saying so."""
    comments = stack.jira.comments(chat.ticket)
    assert [c.id for c in comments] == [comment_id]
    shown = chat.files()[-1]
    assert shown["name"] == f"{chat.ticket}-postmortem-v{version}.json"
    assert comments[0].raw == shown["bytes"]
    stored = comments[0].property_map["postmortem-bot"]
    assert stored == marker(shown["bytes"])
    assert stored["version"] == version
    assert comment_posts(stack, chat.ticket) == [201]  # the one POST of v1; amendments never POST


def test_an_amendment_by_reply_edits_the_same_comment(stack: LocalStack) -> None:
    chat = posted(stack)
    first = stack.jira.comments(chat.ticket)[0]
    v1_sha = first.property_map["postmortem-bot"]["sha256"]
    before = len(chat.thread())
    chat.reply(f"summary: {NEW_SUMMARY}")
    diff = chat.wait_text("v2 against the posted v1", after=before)
    assert "+" + NEW_SUMMARY[:40] in diff["text"].replace("&gt;", ">")
    assert f"/comment/{first.id}" in diff["text"]
    chat.wait_text("with v2. Cancel", after=before)
    chat.reply("yes")
    amended = chat.wait_text(f"Amended the record on {chat.ticket} to v2")
    assert any(e.get("action_id") == "postmortem_amend" for b in amended["blocks"] for e in b.get("elements", []))
    assert_amended_in_place(stack, chat, first.id, 2)
    assert stack.jira.comments(chat.ticket)[0].property_map["postmortem-bot"]["sha256"] != v1_sha
    assert puts(stack, chat, first.id) == [200]
    settled(stack, chat)
    record = session_of(stack, chat)
    assert (record.state, record.amendments, record.posted_version, record.comment_id) == (
        State.posted,
        1,
        2,
        first.id,
    )
    listed = json.dumps(command(stack, "list", chat.user), ensure_ascii=False)
    assert f"*{chat.ticket}* · amended (v2) · v2" in listed


def test_the_amend_button_opens_the_form_and_edits_the_same_comment(stack: LocalStack) -> None:
    chat = posted(stack)
    comment_id = stack.jira.comments(chat.ticket)[0].id
    views_before = len(stack.slack.views)
    chat.click("postmortem_amend", message=chat.with_button("postmortem_amend"))
    view = stack.slack.wait_for(lambda s: s.views[-1] if s.views[views_before:] else None)["view"]
    summary = next(b for b in view["blocks"] if b.get("block_id") == "summary")
    assert summary["element"]["initial_value"].startswith("Reads from the block cache")  # prefilled as posted
    values = example_fields("cache-eviction.en", summary=NEW_SUMMARY, why_symptom="a", how_found="b")
    submitted = chat.driver.view_submission(values=modal_values({**values, "ticket": chat.ticket}), user_id=chat.user)
    assert submitted.status_code == 200
    chat.wait_text("v2 against the posted v1")
    chat.wait_text("with v2. Cancel")
    chat.reply("go ahead")
    chat.wait_text(f"Amended the record on {chat.ticket} to v2")
    assert_amended_in_place(stack, chat, comment_id, 2)


def test_anyone_elses_field_reply_changes_nothing(stack: LocalStack) -> None:
    chat = posted(stack)
    chat.reply(f"summary: {NEW_SUMMARY}", user="U_SOMEONE")
    told = stack.slack.wait_for(lambda s: s.ephemerals(channel=chat.channel, user="U_SOMEONE") or None)
    assert "Only <@U1>" in told[0]["text"]
    record = session_of(stack, chat)
    assert (record.state, record.version, record.amending) == (State.posted, 1, False)
    assert not any("v2" in m["text"] for m in chat.thread())
    assert puts(stack, chat, record.comment_id or "") == []


def test_an_approver_may_amend_and_the_third_revision_asks_first(stack: LocalStack) -> None:
    chat = Conversation(stack, ticket=f"AMD-{next(TICKETS)}")
    chat.start(example_fields("cache-eviction.en", why_symptom="a", how_found="b"))
    chat.wait_text("to post v1")
    chat.reply("how_found: `git bisect` over 40 commits.")  # revision 1, before the first approval
    chat.wait_text("to post v2")
    chat.reply("yes")
    chat.wait_text(f"Posted to {chat.ticket}")
    settled(stack, chat)
    comment_id = stack.jira.comments(chat.ticket)[0].id
    chat.reply(f"summary: {NEW_SUMMARY}", user=APPROVER)  # revision 2: an amendment, by an approver
    chat.wait_text("with v3. Cancel")
    chat.reply("yes", user=APPROVER)
    chat.wait_text(f"Amended the record on {chat.ticket} to v3")
    settled(stack, chat)
    before = len(chat.thread())
    chat.reply("why_symptom: `evict_range` returns before the last shard.")  # revision 3: asks first
    chat.wait_text("This is the third revision", after=before)
    assert session_of(stack, chat).version == 3
    chat.reply("why_symptom: `evict_range` returns before the last shard.")
    chat.wait_text("with v4. Cancel", after=before)
    chat.reply("yes")
    chat.wait_text(f"Amended the record on {chat.ticket} to v4")
    assert_amended_in_place(stack, chat, comment_id, 4)


def test_a_comment_deleted_in_jira_is_posted_anew_only_after_a_new_approval(stack: LocalStack) -> None:
    chat = posted(stack)
    old_id = stack.jira.comments(chat.ticket)[0].id
    stack.jira.updates.delete_in_ui(old_id)
    chat.reply(f"summary: {NEW_SUMMARY}")
    chat.wait_text("with v2. Cancel")
    chat.reply("yes")
    gone = chat.wait_text("was deleted in Jira")
    assert puts(stack, chat, old_id) == [404]
    assert stack.jira.comments(chat.ticket) == []
    assert session_of(stack, chat).state is State.failed
    before = len(chat.thread())
    chat.click("postmortem_retry", message=gone)
    chat.wait_text("to post v2", after=before)
    assert stack.jira.comments(chat.ticket) == []  # nothing posted without a new approval
    chat.reply("yes")
    chat.wait_text(f"Posted to {chat.ticket}", after=before)
    comments = stack.jira.comments(chat.ticket)
    assert len(comments) == 1 and comments[0].id != old_id
    assert comments[0].raw == chat.files()[-1]["bytes"]
    assert comments[0].property_map["postmortem-bot"]["version"] == 2
    assert comment_posts(stack, chat.ticket) == [201, 201]


def test_a_503_on_the_put_is_retried_and_the_comment_updated_once(stack: LocalStack) -> None:
    chat = posted(stack)
    comment_id = stack.jira.comments(chat.ticket)[0].id
    stack.jira.inject("PUT", f"{stack.comment_path(chat.ticket)}/{comment_id}", status=503)
    chat.reply(f"summary: {NEW_SUMMARY}")
    chat.wait_text("with v2. Cancel")
    chat.reply("yes")
    chat.wait_text(f"Amended the record on {chat.ticket} to v2")
    assert puts(stack, chat, comment_id) == [503, 200]
    assert_amended_in_place(stack, chat, comment_id, 2)
    assert sum("Amended the record" in m["text"] for m in chat.thread()) == 1


def test_a_site_that_drops_properties_on_update_still_gets_the_new_version(stack: LocalStack) -> None:
    chat = posted(stack)
    comment_id = stack.jira.comments(chat.ticket)[0].id
    stack.jira.updates.ignore_properties_on_update = True
    try:
        chat.reply(f"summary: {NEW_SUMMARY}")
        chat.wait_text("with v2. Cancel")
        chat.reply("yes")
        chat.wait_text(f"Amended the record on {chat.ticket} to v2")
    finally:
        stack.jira.updates.ignore_properties_on_update = False
    assert_amended_in_place(stack, chat, comment_id, 2)  # set by PUT comment/{id}/properties/postmortem-bot


def test_only_the_items_an_amendment_adds_become_issues(stack: LocalStack) -> None:
    first = "Alert when the eviction queue stalls for 5 min | Priya | new"
    added = "Soak the cache for 24 h at 2x load | Lee | new"
    chat = Conversation(stack, ticket=f"AMD-{next(TICKETS)}")
    fields = example_fields("cache-eviction.en", why_symptom="a", how_found="b", action_items=first)
    fields.pop("action_items_none", None)
    chat.start(fields)
    chat.wait_text("Reply `post it`")
    chat.reply("yes")
    chat.wait_text(f"Posted to {chat.ticket}")
    settled(stack, chat)
    files = {f["name"]: f["bytes"] for f in chat.files()}
    label = json.loads(files[f"{chat.ticket}-issue-1-v1.json"])["fields"]["labels"][0]
    [earlier] = stack.jira.followups.issues_labelled(label)
    comment_id = stack.jira.comments(chat.ticket)[0].id
    chat.reply(f"action_items: {first}\n{added}")
    chat.wait_text("with v2. Cancel")
    names = [f["name"] for f in chat.files()]
    assert f"{chat.ticket}-issue-1-v2.json" in names and f"{chat.ticket}-issue-2-v2.json" not in names
    chat.reply("yes")
    chat.wait_text(f"Amended the record on {chat.ticket} to v2")
    made = stack.jira.followups.issues_labelled(label)
    assert len(made) == 2  # the earlier item is never created again
    [new] = [i for i in made if i.key != earlier.key]
    [comment] = stack.jira.comments(chat.ticket)
    assert comment.id == comment_id
    assert earlier.key.encode() in comment.raw and new.key.encode() in comment.raw
    assert b"\\u27e8" not in comment.raw  # every slot filled


def test_a_429_on_the_put_waits_retry_after_then_updates_once(stack: LocalStack) -> None:
    chat = posted(stack)
    comment_id = stack.jira.comments(chat.ticket)[0].id
    stack.jira.inject("PUT", f"{stack.comment_path(chat.ticket)}/{comment_id}", status=429, retry_after=1)
    chat.reply(f"summary: {NEW_SUMMARY}")
    chat.wait_text("with v2. Cancel")
    chat.reply("yes")
    chat.wait_text(f"Amended the record on {chat.ticket} to v2")
    assert puts(stack, chat, comment_id) == [429, 200]
    assert_amended_in_place(stack, chat, comment_id, 2)


def test_a_worker_killed_during_the_put_is_recovered_by_another(stack: LocalStack) -> None:
    chat = posted(stack)
    comment_id = stack.jira.comments(chat.ticket)[0].id
    path = f"{stack.comment_path(chat.ticket)}/{comment_id}"
    stack.jira.inject("PUT", path, timeout_after_store=True, stall=60)
    chat.reply(f"summary: {NEW_SUMMARY}")
    chat.wait_text("with v2. Cancel")
    chat.reply("yes")
    stack.jira.wait_for(  # Jira applied it; the answer hangs
        lambda j: [u for u in stack.jira.updates.applied if u.comment_id == comment_id], timeout=20
    )
    stack.processes["worker"].stop(kill=True)  # SIGKILL to the worker and its work horse
    stack.start_worker("worker-2")
    chat.wait_text(f"Amended the record on {chat.ticket} to v2", timeout=60)
    assert_amended_in_place(stack, chat, comment_id, 2)
    assert sum("Amended the record" in m["text"] for m in chat.thread()) == 1
    stack.jira.release()


def test_cancel_gives_up_the_amendment_and_keeps_the_posted_record(stack: LocalStack) -> None:
    chat = posted(stack)
    [comment] = stack.jira.comments(chat.ticket)
    raw = comment.raw
    chat.reply(f"summary: {NEW_SUMMARY}")
    question = chat.wait_text("with v2. Cancel")
    chat.click("postmortem_cancel", message=question)
    chat.wait_text(f"Amendment cancelled. The record on {chat.ticket} stays as posted (v1).")
    settled(stack, chat)
    record = session_of(stack, chat)
    assert (record.approved_version, record.amending, record.comment_id) == (1, False, comment.id)
    assert [c.raw for c in stack.jira.comments(chat.ticket)] == [raw]
    assert puts(stack, chat, comment.id) == []
