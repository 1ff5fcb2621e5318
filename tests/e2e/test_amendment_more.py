"""Amendments (DESIGN §3, §4 "Amendment") in the cases the builders' tests did not try: a Japanese session approved
in Japanese, a one-field amendment whose diff touches only that section, two amendments in a row then the third
revision's question, an approval by someone who may not approve, a reply while the first post is still in flight,
Edit on a posted record, a ticket change refused with a reason, and the "amended (v3)" row of `list` and Home.

Real `serve` and `worker` processes on a real Redis, on Jira Cloud (v3, ADF) and Jira Data Center (v2, wiki markup).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from itertools import count

import pytest

from bot.localstack import JIRA_DEPLOYMENTS, LocalStack
from emulators.driver import modal_values
from sessions.session import State
from tests.e2e.amendment_helpers import APPROVER, amendment_stack, marker, post_session, puts, session_of, settled
from tests.e2e.helpers import Conversation, command, comment_posts, example_fields, wait_until

pytestmark = pytest.mark.e2e

TICKETS = count(1)
SUMMARY = "Reads returned stale pages after compaction: `evict_range` skipped the last shard. Fixed by PR 42."


@pytest.fixture(scope="module", params=JIRA_DEPLOYMENTS)
def stack(request: pytest.FixtureRequest) -> Iterator[LocalStack]:
    # A 3 s quiet period, as in test_amendment_keys: a POST held past its timeout is looked for after it, not 30 s.
    with amendment_stack(request.param, POSTMORTEM_POST_QUIET_SECONDS="3") as local:
        yield local


def posted(stack: LocalStack, **said: str) -> Conversation:
    """A session posted as v1; `said` overrides the stem, the ask, the approval and the confirmation."""
    return post_session(stack, f"AMX-{next(TICKETS)}", **said)


def sent_as_deployment(stack: LocalStack, body: bytes) -> None:
    """Cloud sends an ADF document, Data Center a wiki-markup string."""
    shown = json.loads(body)["body"]
    assert isinstance(shown, str if stack.deployment == "datacenter" else dict)


def test_a_japanese_session_is_amended_with_japanese_approval_words(stack: LocalStack) -> None:
    chat = posted(stack, stem="tada-hang.ja", ask="投稿するには", yes="はい", said="に投稿しました")
    [comment] = stack.jira.comments(chat.ticket)
    before = len(chat.thread())
    chat.reply("summary: 大きなキャッシュで `evict_range` が最後のシャードを飛ばしていました。PR 42 で修正しました。")
    chat.wait_text("投稿済みの v1 と v2 の差分", after=before)
    chat.wait_text("v2 に置き換えるには", after=before)
    chat.reply("進めてください")
    chat.wait_text("の記録を v2 に修正しました", after=before)
    [after] = stack.jira.comments(chat.ticket)
    assert after.id == comment.id and after.raw == chat.files()[-1]["bytes"]
    sent_as_deployment(stack, after.raw)
    assert after.property_map["postmortem-bot"]["version"] == 2
    settled(stack, chat)
    listed = json.dumps(command(stack, "list", chat.user), ensure_ascii=False)
    assert "修正済み（v2）" in listed or "amended (v2)" in listed


def test_a_validation_only_amendment_shows_a_diff_of_that_section_only(stack: LocalStack) -> None:
    chat = posted(stack)
    before = len(chat.thread())
    new = "The repro above: 0 failures in 500 runs (was 7 in 20), on the 128 GiB runners."
    chat.reply(f"validation: {new}")
    diff = chat.wait_text("v2 against the posted v1", after=before)["text"]
    block = diff.split("```")[1]
    changed = [ln for ln in block.splitlines() if ln[:1] in "+-" and not ln.startswith(("+++", "---"))]
    assert changed and any("500 runs" in ln for ln in changed if ln.startswith("+"))
    old = example_fields("cache-eviction.en")["validation"].splitlines()
    texts = {*old, *(ln.removeprefix("- ") for ln in old), new, ""}
    assert all(ln[1:].strip().lstrip("- ") in texts for ln in changed), changed  # only Validation's own text
    heads = [ln for ln in block.splitlines() if ln.startswith("@@")]
    assert len(heads) == 1  # one hunk: one section


def test_two_amendments_in_a_row_edit_one_comment_and_the_third_revision_asks_first(stack: LocalStack) -> None:
    chat = posted(stack)
    [comment] = stack.jira.comments(chat.ticket)
    for version, text in ((2, SUMMARY), (3, SUMMARY.replace("PR 42", "PR 43"))):
        before = len(chat.thread())
        chat.reply(f"summary: {text}")
        chat.wait_text(f"with v{version}. Cancel", after=before)
        chat.reply("yes")
        chat.wait_text(f"Amended the record on {chat.ticket} to v{version}", after=before)
        settled(stack, chat)
    [after] = stack.jira.comments(chat.ticket)
    shown = next(f["bytes"] for f in chat.files() if f["name"] == f"{chat.ticket}-postmortem-v3.json")
    assert after.id == comment.id and after.raw == shown
    stored = after.property_map["postmortem-bot"]
    assert stored["version"] == 3 and stored == marker(shown)
    body = json.dumps(json.loads(shown)["body"]).encode() if stack.deployment == "cloud" else None
    if body is not None:  # Cloud: the sha256 of the ADF document's JSON as sent
        assert stored["sha256"] == hashlib.sha256(body).hexdigest()
    assert puts(stack, chat, comment.id) == [200, 200] and comment_posts(stack, chat.ticket) == [201]
    sent_as_deployment(stack, after.raw)  # Data Center: PUT /rest/api/2/… with a wiki-markup string
    listed = json.dumps(command(stack, "list", chat.user), ensure_ascii=False)
    assert f"*{chat.ticket}* · amended (v3)" in listed
    stack.slack.wait_for(  # the Home tab is refreshed by the state change itself
        lambda s: f"{chat.ticket}* · amended (v3)" in json.dumps(s.home_view(chat.user), ensure_ascii=False) or None
    )
    before = len(chat.thread())
    chat.reply("why_symptom: `evict_range` returns before the last shard.")
    chat.wait_text("This is the third revision", after=before)
    record = session_of(stack, chat)
    assert (record.state, record.version, record.amending) == (State.posted, 3, False)


def test_an_amendment_approved_by_someone_who_may_not_approve_changes_nothing(stack: LocalStack) -> None:
    chat = posted(stack)
    [comment] = stack.jira.comments(chat.ticket)
    chat.reply(f"summary: {SUMMARY}")
    chat.wait_text("with v2. Cancel")
    chat.reply("yes", user="U_SOMEONE")
    told = stack.slack.wait_for(lambda s: s.ephemerals(channel=chat.channel, user="U_SOMEONE") or None)
    assert "Only <@U1>" in told[-1]["text"]
    record = session_of(stack, chat)
    assert (record.state, record.approved_version, record.amending) == (State.drafted, None, True)
    assert puts(stack, chat, comment.id) == []
    chat.reply("yes", user=APPROVER)  # an approver may
    chat.wait_text(f"Amended the record on {chat.ticket} to v2")
    assert puts(stack, chat, comment.id) == [200]


def test_a_correction_while_the_first_post_is_in_flight_is_refused_politely(stack: LocalStack) -> None:
    chat = Conversation(stack, ticket=f"AMX-{next(TICKETS)}")
    chat.start(example_fields("cache-eviction.en", why_symptom="a", how_found="b"))
    chat.wait_text("Reply `post it`")
    stack.jira.inject("POST", stack.comment_path(chat.ticket), delay=30)  # the POST held: the session is posting
    chat.reply("yes")
    wait_until(lambda: session_of(stack, chat).state is State.posting, 20, "the session posting")
    before = len(chat.thread())
    chat.reply(f"summary: {SUMMARY}")
    told = chat.wait_text("is being posted now", after=before)
    assert "/post-mortem" not in told["text"]
    stack.jira.release()
    chat.wait_text(f"Posted to {chat.ticket}", timeout=90)
    settled(stack, chat)
    record = session_of(stack, chat)
    assert (record.version, record.amending) == (1, False) and comment_posts(stack, chat.ticket) == [201]


def test_edit_on_a_posted_record_opens_the_amendment_form_and_a_new_ticket_is_refused_with_why(
    stack: LocalStack,
) -> None:
    chat = posted(stack)
    [comment] = stack.jira.comments(chat.ticket)
    views = len(stack.slack.views)
    chat.click("postmortem_edit")
    view = stack.slack.wait_for(lambda s: s.views[-1]["view"] if len(s.views) > views else None)
    meta = json.loads(view["private_metadata"])
    assert meta["version"] == 1
    stack.jira.add_issue("AMX-999")
    moved = example_fields("cache-eviction.en", summary=SUMMARY, why_symptom="a", how_found="b")
    refused = chat.driver.view_submission(values=modal_values({**moved, "ticket": "AMX-999"}), user_id=chat.user)
    errors = json.loads(refused.content)
    assert errors["response_action"] == "errors" and chat.ticket in errors["errors"]["ticket"]
    assert session_of(stack, chat).state is State.posted
    kept = chat.driver.view_submission(values=modal_values({**moved, "ticket": chat.ticket}), user_id=chat.user)
    assert kept.status_code == 200
    chat.wait_text("with v2. Cancel")
    chat.reply("post it")
    chat.wait_text(f"Amended the record on {chat.ticket} to v2")
    assert [c.id for c in stack.jira.comments(chat.ticket)] == [comment.id]
    assert stack.jira.comments("AMX-999") == []


def test_a_destination_change_during_an_amendment_is_refused_with_why(stack: LocalStack) -> None:
    chat = posted(stack)
    chat.reply(f"summary: {SUMMARY}")
    chat.wait_text("with v2. Cancel")
    before = len(chat.thread())
    chat.reply("destination: pr_description")
    chat.wait_text("cannot change", after=before)
    record = session_of(stack, chat)
    assert record.inputs.get("destination", "jira_comment") == "jira_comment" and record.version == 2


def test_an_item_an_amendment_adds_is_created_once_under_a_503_after_store(stack: LocalStack) -> None:
    first = "Alert when the eviction queue stalls | Priya | new"
    chat = Conversation(stack, ticket=f"AMX-{next(TICKETS)}")
    fields = example_fields("cache-eviction.en", why_symptom="a", how_found="b", action_items=first)
    fields.pop("action_items_none", None)
    chat.start(fields)
    chat.wait_text("Reply `post it`")
    chat.reply("yes")
    chat.wait_text(f"Posted to {chat.ticket}")
    settled(stack, chat)
    [comment] = stack.jira.comments(chat.ticket)
    label = json.loads(next(f["bytes"] for f in chat.files() if "-issue-" in f["name"]))["fields"]["labels"][0]
    [earlier] = stack.jira.followups.issues_labelled(label)
    root = "/rest/api/2" if stack.deployment == "datacenter" else "/rest/api/3"
    stack.jira.inject("POST", f"{root}/issue", status=503, timeout_after_store=True)  # stored, then a 503
    chat.reply(f"action_items: {first}\nSoak the cache for 24 h at 2x load | Lee | new")
    chat.wait_text("with v2. Cancel")
    chat.reply("yes")
    chat.wait_text(f"Amended the record on {chat.ticket} to v2", timeout=60)
    made = stack.jira.followups.issues_labelled(label)
    assert len(made) == 2  # the added item once despite the 503; the earlier one never again
    [added] = [i for i in made if i.key != earlier.key]
    [after] = stack.jira.comments(chat.ticket)
    assert after.id == comment.id and puts(stack, chat, comment.id) == [200]
    assert earlier.key.encode() in after.raw and added.key.encode() in after.raw and b"\\u27e8" not in after.raw
    assert comment_posts(stack, chat.ticket) == [201]


def test_a_create_refused_during_an_amendment_keeps_the_comment_and_asks_again(stack: LocalStack) -> None:
    chat = posted(stack)
    [comment] = stack.jira.comments(chat.ticket)
    root = "/rest/api/2" if stack.deployment == "datacenter" else "/rest/api/3"
    refusal = {"errorMessages": [], "errors": {"components": "Component/s is required."}}
    stack.jira.inject("POST", f"{root}/issue", status=400, body=refusal)
    chat.reply("action_items: Soak the cache for 24 h at 2x load | Lee | new")
    chat.wait_text("with v2. Cancel")
    before = len(chat.thread())
    chat.reply("yes")
    told = chat.wait_text("Component/s is required", after=before, timeout=30)
    assert "action item 1" in told["text"]
    chat.wait_text("with v2. Cancel", after=before)  # asked again: the approval was released
    record = session_of(stack, chat)
    assert (record.state, record.amending, record.approved_version, record.comment_id) == (
        State.drafted,
        True,
        None,
        comment.id,
    )
    assert puts(stack, chat, comment.id) == [] and [c.raw for c in stack.jira.comments(chat.ticket)] == [comment.raw]
    chat.reply("yes")
    chat.wait_text(f"Amended the record on {chat.ticket} to v2", after=before, timeout=30)
    [after] = stack.jira.comments(chat.ticket)
    assert after.id == comment.id and puts(stack, chat, comment.id) == [200]
    assert comment_posts(stack, chat.ticket) == [201]
