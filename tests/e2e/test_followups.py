"""Follow-up issues (DESIGN §4) end to end: each `tracking: new` item becomes one Jira issue, created before the
comment and exactly once under faults, linked to the ticket; the comment is the body shown with its slots filled.

Real `serve` and `worker` processes on a real Redis, on Jira Cloud (v3, ADF) and Jira Data Center (v2, wiki markup).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from itertools import count
from typing import Any

import pytest

from bot.localstack import JIRA_DEPLOYMENTS, LocalStack
from emulators.jira_followups import CreatedIssue
from tests.e2e.followup_helpers import followup_stack
from tests.e2e.helpers import Conversation, example_fields

pytestmark = pytest.mark.e2e

TICKETS = count(1)
QUIET = 3
ITEMS = [
    ("Alert when the eviction queue stalls for 5 min", "Priya (storage)", "new"),
    ("Add `evict_range` to the fuzz targets", "Sam", "PAY-77"),
    ("Soak the cache for 24 h at 2x load", "Lee (perf)", "New"),
]


@pytest.fixture(scope="module", params=JIRA_DEPLOYMENTS)
def stack(request: pytest.FixtureRequest) -> Iterator[LocalStack]:
    with followup_stack(request.param, QUIET) as local:
        yield local


def drafted(stack: LocalStack, items: list[tuple[str, str, str]] = ITEMS) -> Conversation:
    chat = Conversation(stack, ticket=f"FUP-{next(TICKETS)}")
    lines = "\n".join(" | ".join(item) for item in items)
    fields = example_fields("cache-eviction.en", why_symptom="a", how_found="b", action_items=lines)
    fields.pop("action_items_none", None)
    chat.start(fields)
    chat.wait_text("Reply `post it`")
    return chat


def issues(stack: LocalStack, chat: Conversation) -> list[CreatedIssue]:
    """Every issue made with this conversation's session label (linked or not)."""
    label = json.loads(shown_files(chat)[f"{chat.ticket}-issue-1-v1.json"])["fields"]["labels"][0]
    return stack.jira.followups.issues_labelled(label)


def shown_files(chat: Conversation) -> dict[str, bytes]:
    return {f["name"]: f["bytes"] for f in chat.files()}


def root(stack: LocalStack) -> str:
    return "/rest/api/2" if stack.deployment == "datacenter" else "/rest/api/3"


def creates(stack: LocalStack) -> list[int]:
    return [p.status for p in stack.jira.posts if p.path == f"{root(stack)}/issue"]


def done(stack: LocalStack, chat: Conversation, *, within: float = 30) -> dict[str, Any]:
    """Posted once, with exactly the two new issues, each linked once; the posted comment is the body shown with
    exactly its slots filled; the thread lists the keys."""
    chat.wait_text(f"Posted to {chat.ticket}", timeout=within)
    [comment] = stack.jira.comments(chat.ticket)
    made = issues(stack, chat)
    assert len(made) == 2
    by_item = {i.properties["postmortem-bot"]["item"]: i.key for i in made}
    assert sorted(by_item) == [1, 3]
    files = shown_files(chat)
    shown = files[f"{chat.ticket}-postmortem-v1.json"]
    expected = shown.replace(b"\\u27e8new issue 1\\u27e9", by_item[1].encode())
    expected = expected.replace(b"\\u27e8new issue 2\\u27e9", by_item[3].encode())
    assert expected != shown and comment.raw == expected
    for n, item in ((1, 1), (2, 3)):  # the bytes created are the bytes shown
        assert stack.jira.followups.created[by_item[item]].raw == files[f"{chat.ticket}-issue-{n}-v1.json"]
    listed = chat.wait_text("follow-up issue")
    assert by_item[1] in listed["text"] and by_item[3] in listed["text"]
    assert sum(1 for _, a, b in stack.jira.followups.links if chat.ticket in (a, b)) == 2
    return by_item


def test_new_items_become_issues_before_the_comment_which_names_their_keys(stack: LocalStack) -> None:
    chat = drafted(stack)
    files = shown_files(chat)
    assert f"{chat.ticket}-issue-1-v1.json" in files and f"{chat.ticket}-issue-2-v1.json" in files
    create = json.loads(files[f"{chat.ticket}-issue-1-v1.json"])
    fields = create["fields"]
    assert fields["project"] == {"key": "FUP"} and fields["issuetype"] == {"name": "Task"}
    assert fields["summary"] == ITEMS[0][0] and fields["labels"][0].startswith("postmortem-")
    assert isinstance(fields["description"], str if stack.deployment == "datacenter" else dict)
    assert chat.ticket in json.dumps(fields["description"])
    assert create["properties"][0]["value"]["item"] == 1
    assert "⟨new issue 1⟩" in chat.thread()[0]["text"] or any("⟨new issue 1⟩" in m["text"] for m in chat.thread())
    before = len(stack.jira.dump().splitlines())
    chat.reply("yes")
    done(stack, chat)
    calls = stack.jira.dump().splitlines()[before:]
    assert [line.split(" ")[1] for line in calls if line.startswith("POST")][:2] == [f"{root(stack)}/issue"] * 2
    print(f"\nJira calls from approval to posted with 2 follow-ups ({stack.deployment}): {len(calls)}")


def test_a_503_after_the_issue_was_stored_still_makes_one_issue(stack: LocalStack) -> None:
    chat = drafted(stack)
    stack.jira.followups.index_lag_seconds = QUIET - 1  # Jira's index lags, less than the quiet period
    stack.jira.inject("POST", f"{root(stack)}/issue", status=503, timeout_after_store=True)
    chat.reply("yes")
    try:
        done(stack, chat)
    finally:
        stack.jira.followups.index_lag_seconds = 0
    assert creates(stack)[-2:] == [503, 201]  # item 1 stored despite the 503 and found; item 3 made once


def test_a_429_on_the_create_is_waited_for_then_each_issue_is_made_once(stack: LocalStack) -> None:
    chat = drafted(stack)
    stack.jira.inject("POST", f"{root(stack)}/issue", status=429, retry_after=1)
    chat.reply("yes")
    done(stack, chat)
    assert creates(stack)[-3:] == [429, 201, 201]


def test_worker_killed_between_the_issues_and_the_comment_posts_one_comment(stack: LocalStack) -> None:
    chat = drafted(stack)
    linked = len(stack.jira.followups.links)
    stack.jira.inject("POST", stack.comment_path(chat.ticket), delay=60)  # held before anything is stored
    chat.reply("yes")
    stack.jira.wait_for(lambda j: len(j.followups.links) >= linked + 2 or None, timeout=20)  # both made and linked
    stack.processes["worker"].stop(kill=True)
    stack.start_worker("worker-2")
    stack.jira.release()  # the held POST goes on: Jira stores that comment late, after the worker died
    done(stack, chat, within=120)


def test_an_over_long_or_multi_line_summary_is_refused_before_approval_naming_the_item(stack: LocalStack) -> None:
    chat = Conversation(stack, ticket=f"FUP-{next(TICKETS)}")
    lines = "\n".join([f"{'x' * 300} | Priya | new", "Short one | Sam | new"])
    fields = example_fields("cache-eviction.en", why_symptom="a", how_found="b", action_items=lines)
    fields.pop("action_items_none", None)
    chat.start(fields)
    refused = chat.wait_text("cannot be approved")
    assert "action item 1" in refused["text"] and "300 characters" in refused["text"]
    assert "action item 2" not in refused["text"]
    assert not any("Reply `post it`" in m["text"] for m in chat.thread())
    assert stack.jira.comments(chat.ticket) == []


def test_a_project_without_create_permission_or_issue_type_is_said_before_approval(stack: LocalStack) -> None:
    stack.jira.followups.no_create.add("NOCR")
    stack.jira.followups.issue_types["NOTY"] = ("Bug",)
    for project, said in (("NOCR", "may not create issues in project NOCR"), ("NOTY", "no issue type “Task”")):
        chat = Conversation(stack, ticket=f"{project}-{next(TICKETS)}")
        fields = example_fields("cache-eviction.en", why_symptom="a", how_found="b", action_items="Do it | Sam | new")
        fields.pop("action_items_none", None)
        chat.start(fields)
        refused = chat.wait_text("cannot be approved")
        assert said in refused["text"] and "action item 1" in refused["text"]


def test_jira_calls_per_approved_post_mortem_with_and_without_follow_ups(stack: LocalStack) -> None:
    """Counted from the emulator's request log: the whole session (draft checks included), and approval → posted."""
    counted = {}
    for name, items in (("without", [ITEMS[1]]), ("with 2", ITEMS)):
        start = len(stack.jira.dump().splitlines())
        chat = drafted(stack, items)
        approved_at = len(stack.jira.dump().splitlines())
        chat.reply("yes")
        chat.wait_text(f"Posted to {chat.ticket}")
        end = len(stack.jira.dump().splitlines())
        counted[name] = (end - start, end - approved_at)
    print(f"\nJira calls ({stack.deployment}), whole session / approval to posted: {counted}")
    whole, posting = counted["without"]
    # Each new issue: one create and one link; the draft adds one permissions and one issue-type look-up.
    assert counted["with 2"] == (whole + 2 + 2 * 2, posting + 2 * 2)
