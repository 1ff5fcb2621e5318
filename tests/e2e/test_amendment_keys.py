"""Follow-up issues across amendments (DESIGN §4 "Follow-up issues", "Amendment"): once a version is posted with its
new issues, the session's record of each created item says the issue's key, so the Amend form and an
`action_items:` reply start from the key; an item that keeps its key is never created again whatever its text, only
items marked `new` in the amendment are; and the diff compares against what was posted, keys filled in.

Real `serve` and `worker` processes on a real Redis, on Jira Cloud (v3, ADF) and Jira Data Center (v2, wiki markup).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from itertools import count

import pytest

from bot.localstack import JIRA_DEPLOYMENTS, LocalStack
from emulators.driver import modal_values
from emulators.jira_followups import CreatedIssue
from sessions.session import State
from tests.e2e.amendment_helpers import amendment_stack, session_of
from tests.e2e.helpers import Conversation, comment_posts, example_fields, wait_until

pytestmark = pytest.mark.e2e

TICKETS = count(1)
ALERT = ("Alert when the eviction queue stalls for 5 min", "Priya")
SOAK = ("Soak the cache for 24 h at 2x load", "Lee")
FUZZ = ("Add `evict_range` to the fuzz targets", "Sam")
SLOT = b"\\u27e8"  # the first character of a slot, as the JSON body carries it


@pytest.fixture(scope="module", params=JIRA_DEPLOYMENTS)
def stack(request: pytest.FixtureRequest) -> Iterator[LocalStack]:
    with amendment_stack(request.param, POSTMORTEM_POST_QUIET_SECONDS="3") as local:
        yield local


def line(item: tuple[str, str], tracking: str) -> str:
    return f"{item[0]} | {item[1]} | {tracking}"


def posted_with_issues(stack: LocalStack, *items: tuple[str, str]) -> tuple[Conversation, list[str]]:
    """A session posted as v1 whose items were all `new`: the keys of their issues, in the items' order, once the
    session is recorded posted."""
    chat = Conversation(stack, ticket=f"AMK-{next(TICKETS)}")
    fields = example_fields(
        "cache-eviction.en", why_symptom="a", how_found="b", action_items="\n".join(line(i, "new") for i in items)
    )
    fields.pop("action_items_none", None)
    chat.start(fields)
    chat.wait_text("Reply `post it`")
    chat.reply("yes")
    chat.wait_text(f"Posted to {chat.ticket}")
    wait_until(lambda: session_of(stack, chat).state is State.posted, 20, "the session recorded posted")
    by_item = {i.properties["postmortem-bot"]["item"]: i.key for i in issues(stack, chat)}
    keys = [by_item[n] for n in range(1, len(items) + 1)]
    recorded = session_of(stack, chat).inputs["action_items"]
    assert [i["tracking"] for i in recorded] == keys  # the record says each key, not `new`
    return chat, keys


def issues(stack: LocalStack, chat: Conversation) -> list[CreatedIssue]:
    """Every issue made with this conversation's session label."""
    label = json.loads(next(f["bytes"] for f in chat.files() if "-issue-1-v1" in f["name"]))["fields"]["labels"][0]
    return stack.jira.followups.issues_labelled(label)


def amended(stack: LocalStack, chat: Conversation, version: int) -> bytes:
    """Approve the amendment shown; the one comment, edited in place, holds the body shown with its slots filled."""
    chat.wait_text(f"with v{version}. Cancel")
    chat.reply("yes")
    chat.wait_text(f"Amended the record on {chat.ticket} to v{version}")
    [comment] = stack.jira.comments(chat.ticket)
    assert comment_posts(stack, chat.ticket) == [201]  # amendments never POST a comment
    assert SLOT not in comment.raw
    return comment.raw


def test_amending_by_the_form_after_changing_an_items_text_makes_no_new_issue(stack: LocalStack) -> None:
    chat, [key] = posted_with_issues(stack, ALERT)
    views = len(stack.slack.views)
    chat.click("postmortem_amend", message=chat.with_button("postmortem_amend"))
    view = stack.slack.wait_for(lambda s: s.views[-1] if s.views[views:] else None)["view"]
    shown = next(b for b in view["blocks"] if b.get("block_id") == "action_items")["element"]["initial_value"]
    assert shown == line(ALERT, key)  # the form prefills the key, not `new`
    fixed = ("Alert when the eviction queue stalls for 10 min", "Priya")  # a typo in the item corrected
    values = example_fields("cache-eviction.en", why_symptom="a", how_found="b", action_items=line(fixed, key))
    values.pop("action_items_none", None)
    before = len(chat.thread())
    chat.driver.view_submission(values=modal_values({**values, "ticket": chat.ticket}), user_id=chat.user)
    diff = chat.wait_text("v2 against the posted v1", after=before)["text"].replace("&gt;", ">")
    assert f"-- {ALERT[0]} (owner: Priya, tracking: {key})" in diff and f"+- {fixed[0]}" in diff
    assert not any("-issue-" in f["name"] and "-v2" in f["name"] for f in chat.files())  # nothing to create
    raw = amended(stack, chat, 2)
    assert [i.key for i in issues(stack, chat)] == [key]  # no second issue
    assert key.encode() in raw and fixed[0].encode() in raw


def test_an_action_items_reply_that_keeps_the_keys_and_adds_one_new_item_makes_exactly_one_issue(
    stack: LocalStack,
) -> None:
    chat, keys = posted_with_issues(stack, ALERT, SOAK)
    kept = [line(ALERT, keys[0]), line(("Soak the cache for 48 h at 2x load", "Lee"), keys[1])]  # one text edited
    chat.reply("action_items: " + "\n".join([*kept, line(FUZZ, "new")]))
    chat.wait_text("with v2. Cancel")
    names = [f["name"] for f in chat.files() if "-issue-" in f["name"] and "-v2" in f["name"]]
    assert names == [f"{chat.ticket}-issue-1-v2.json"]  # only the item marked new
    raw = amended(stack, chat, 2)
    made = issues(stack, chat)
    [new] = [i for i in made if i.key not in keys]
    assert len(made) == 3 and new.fields["summary"] == FUZZ[0]
    assert all(k.encode() in raw for k in [*keys, new.key])
    wait_until(lambda: session_of(stack, chat).state is State.posted, 20, "the amendment recorded")
    recorded = [i["tracking"] for i in session_of(stack, chat).inputs["action_items"]]
    assert recorded == [*keys, new.key]  # the record says the new key too


def test_an_unchanged_item_shows_no_diff(stack: LocalStack) -> None:
    chat, [key] = posted_with_issues(stack, ALERT)
    before = len(chat.thread())
    chat.reply(f"action_items: {line(ALERT, key)}")  # the item as the record has it
    diff = chat.wait_text("v2 against the posted v1", after=before)["text"]
    assert "v2 has the same text as the posted v1" in diff and "```" not in diff
    chat.wait_text("with v2. Cancel", after=before)
    before = len(chat.thread())
    chat.reply("how_found: `git bisect` over 40 commits.")  # another section: the item is not in the diff
    diff = chat.wait_text("v3 against the posted v1", after=before)["text"]
    assert "git bisect" in diff and ALERT[0] not in diff
    assert key.encode() in amended(stack, chat, 3)  # (now a link to the issue, as any key in `tracking` is)
    assert [i.key for i in issues(stack, chat)] == [key]


@pytest.mark.parametrize("button", ["postmortem_edit", "postmortem_cancel"])
def test_edit_or_cancel_while_posting_says_to_amend_once_the_link_is_there(stack: LocalStack, button: str) -> None:
    chat = Conversation(stack, ticket=f"AMK-{next(TICKETS)}")
    chat.start(example_fields("cache-eviction.en", why_symptom="a", how_found="b"))
    question = chat.wait_text("Reply `post it`")
    stack.jira.inject("POST", stack.comment_path(chat.ticket), delay=10)  # the POST held: the session is posting
    chat.reply("yes")
    wait_until(lambda: session_of(stack, chat).state is State.posting, 20, "the session posting")
    before = len(chat.thread())
    chat.click(button, message=question)
    told = chat.wait_text("is being posted now", after=before)["text"]
    assert "press Amend" in told and "/post-mortem" not in told  # not "start a new /post-mortem"
    stack.jira.release()
    chat.wait_text(f"Posted to {chat.ticket}", timeout=90)
    wait_until(lambda: session_of(stack, chat).state is State.posted, 20, "the session recorded posted")
    assert comment_posts(stack, chat.ticket) == [201]
