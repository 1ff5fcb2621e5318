"""Follow-up issues in the worker against the loopback Jira emulator (Cloud and Data Center in the same functions):
an early search is not trusted, a failed create is resumed by Retry without making anything twice, what the draft
shows is what is created and posted, and the slots and `tracking: new` words."""

from __future__ import annotations

import json
from typing import Any

import pytest

from emulators.jira_cloud import JiraEmulator
from emulators.jira_datacenter import DataCenterJiraEmulator
from postmortem.model import PostMortem
from renderers.followups import SlotError, create_request, fill, is_new, slotted
from sessions.session import State
from tests.workers.fakes import FakeQueue, FakeSlack
from tests.workers.followup_world import (
    ITEMS,
    QUIET,
    approved,
    backdate,
    creates,
    ctx,
    jira,
    rendered,
    root,
    uploads,
)
from workers import amending, posting
from workers.context import WorkerContext

__all__ = ["ctx", "jira"]  # the fixtures (tests/workers/followup_world.py)

pytestmark = pytest.mark.unit


def test_an_early_search_is_not_trusted_and_a_conclusive_one_finds_the_stored_issue(
    ctx: WorkerContext, jira: JiraEmulator
) -> None:
    session = approved(ctx)
    jira.inject("POST", f"{root(jira)}/issue", status=503, timeout_after_store=True)  # stored, then a 503
    jira.followups.index_lag_searches = 1  # the next search does not see it yet
    posting.run(ctx, session.id, 1, 1)
    posting.run(ctx, session.id, 1, 2)  # a rerun before the quiet period: the search misses it, and is not trusted
    assert creates(jira) == [503] and jira.followups.searches == 1
    assert isinstance(ctx.queue, FakeQueue)
    assert ctx.queue.scheduled[-1][0].total_seconds() > QUIET - 2
    assert jira.comments("PROJ-1") == []
    backdate(ctx, session, 1)
    posting.run(ctx, session.id, 1, 2)  # conclusive: found by its label and property, never created again
    assert creates(jira) == [503, 201]
    assert len(jira.followups.created) == 2 and len(jira.followups.links) == 2
    [comment] = jira.comments("PROJ-1")
    keys = {i.properties["postmortem-bot"]["item"]: i.key for i in jira.followups.created.values()}
    shown = uploads(ctx)["PROJ-1-postmortem-v1.json"]
    assert comment.raw == fill(shown, {"⟨new issue 1⟩": keys[1], "⟨new issue 2⟩": keys[3]})
    done = ctx.store.get(session.id)
    assert done is not None and done.state is State.posted


def test_a_refused_create_releases_the_approval_and_approving_again_resumes_without_making_anything_twice(
    ctx: WorkerContext, jira: JiraEmulator
) -> None:
    session = approved(ctx)
    jira.followups.no_create.add("PROJ")  # the permission is taken away after the draft was checked
    posting.run(ctx, session.id, 1, 1)
    released = ctx.store.get(session.id)
    assert released is not None and released.state is State.drafted and released.approved_version is None
    assert released.version == 1 and released.inputs == session.inputs
    assert jira.comments("PROJ-1") == [] and jira.followups.created == {}
    jira.followups.no_create.clear()
    assert ctx.store.approve(session.id, version=1, user="U1") is not None  # the same version, approved again
    jira.inject("POST", f"{root(jira)}/issue/PROJ-1/comment", status=400)  # the comment fails after both issues
    posting.run(ctx, session.id, 1, 1)
    assert len(jira.followups.created) == 2 and jira.comments("PROJ-1") == []
    assert ctx.store.retry(session.id) is not None
    posting.run(ctx, session.id, 1, 1)
    assert creates(jira) == [400, 201, 201] and len(jira.followups.links) == 2
    assert len(jira.comments("PROJ-1")) == 1
    assert isinstance(ctx.slack, FakeSlack)
    said = [c["message"]["text"] for kind, c in ctx.slack.calls if kind == "post"]
    assert any("Created 2 follow-up issue(s)" in t for t in said)


def test_an_over_long_summary_and_a_line_break_are_refused_before_approval_naming_each_item(
    ctx: WorkerContext, jira: JiraEmulator
) -> None:
    items = [{"what": "x" * 300, "tracking": "new"}, {"what": "fine", "tracking": "新規"}]
    refused = rendered(ctx, items)
    assert refused.state is State.failed and refused.error is not None
    assert "action item 1" in refused.error and "300 characters" in refused.error
    assert "action item 2" not in refused.error
    assert creates(jira) == []


def pm(items: list[dict[str, Any]], lang: str = "en") -> PostMortem:
    return PostMortem.model_validate({"ticket": "PROJ-1", "lang": lang, "action_items": items})


@pytest.mark.parametrize(("tracking", "new"), [("new", True), ("NEW", True), (" New ", True), ("新規", True),
                                               ("news", False), ("PAY-1", False), (None, False)])  # fmt: skip
def test_which_tracking_asks_for_a_new_issue(tracking: str | None, new: bool) -> None:
    assert is_new(tracking) is new


def test_slots_are_numbered_among_the_new_items_in_the_sessions_language() -> None:
    shown = slotted(pm(ITEMS, "ja"))
    assert [i.tracking for i in shown.action_items] == ["⟨新規課題 1⟩", "PAY-77", "⟨新規課題 2⟩"]


def test_a_slot_that_is_not_exactly_once_is_never_filled() -> None:
    body = json.dumps({"a": "⟨new issue 1⟩ and ⟨new issue 1⟩"}).encode()
    with pytest.raises(SlotError):
        fill(body, {"⟨new issue 1⟩": "PROJ-9"})
    assert fill(json.dumps({"a": "x ⟨new issue 1⟩"}).encode(), {"⟨new issue 1⟩": "PROJ-9"}) == b'{"a": "x PROJ-9"}'


def test_the_create_body_follows_the_deployment() -> None:
    cloud, dc = (
        create_request(
            pm(ITEMS), session="s1", version=2, issue_type="Task", deployment=d, jira_url="https://j.example"
        )
        for d in ("cloud", "datacenter")
    )
    assert [i.item for i in cloud] == [1, 3] and [i.n for i in cloud] == [1, 2]
    c, d = json.loads(cloud[0].body), json.loads(dc[0].body)
    assert c["fields"]["description"]["type"] == "doc" and isinstance(d["fields"]["description"], str)
    assert "https://j.example/browse/PROJ-1" in d["fields"]["description"]
    assert c["properties"] == [{"key": "postmortem-bot", "value": {"session": "s1", "version": 2, "item": 1}}]
    assert c["fields"]["labels"] == ["postmortem-s1"] and c["fields"]["project"] == {"key": "PROJ"}


def test_an_item_an_earlier_version_made_shows_its_key_and_is_never_planned_again() -> None:
    made = {ITEMS[0]["what"]: "PROJ-901"}
    shown = slotted(pm(ITEMS), made)
    assert [i.tracking for i in shown.action_items] == ["PROJ-901", "PAY-77", "⟨new issue 1⟩"]
    [only] = create_request(pm(ITEMS), session="s1", version=2, issue_type="Task", deployment="cloud", made=made)
    assert (only.item, only.n, only.slot) == (3, 1, "⟨new issue 1⟩")


def test_a_link_that_may_have_been_stored_is_looked_for_not_sent_twice(ctx: WorkerContext, jira: JiraEmulator) -> None:
    session = approved(ctx)
    jira.inject("POST", f"{root(jira)}/issueLink", status=503, timeout_after_store=True)  # linked, then a 503
    posting.run(ctx, session.id, 1, 1)
    assert len(jira.followups.links) == 1 and jira.comments("PROJ-1") == []
    posting.run(ctx, session.id, 1, 2)  # the search shows the first link: only the second is sent
    links = [p for p in jira.posts if p.path == f"{root(jira)}/issueLink"]
    assert [p.status for p in links] == [503, 201] and len(jira.followups.links) == 2
    assert creates(jira) == [201, 201] and len(jira.comments("PROJ-1")) == 1


def test_an_owner_given_as_an_e_mail_of_one_jira_user_is_the_assignee(ctx: WorkerContext, jira: JiraEmulator) -> None:
    jira.add_user("acc-priya", email="priya@example.com", display_name="Priya")
    items = [{"what": "Alert on stalls", "owner": "priya@example.com", "tracking": "new"},
             {"what": "Soak it", "owner": "nobody@example.com", "tracking": "new"}]  # fmt: skip
    approved(ctx, items)
    first, second = (json.loads(b) for n, b in sorted(uploads(ctx).items()) if "-issue-" in n)
    dc = isinstance(jira, DataCenterJiraEmulator)
    assert first["fields"]["assignee"] == ({"name": "acc-priya"} if dc else {"accountId": "acc-priya"})
    assert "assignee" not in second["fields"]


def test_posting_records_each_key_and_a_later_version_creates_only_items_still_new(
    ctx: WorkerContext, jira: JiraEmulator
) -> None:
    session = approved(ctx)
    posting.run(ctx, session.id, 1, 1)
    done = ctx.store.get(session.id)
    assert done is not None and done.state is State.posted
    keys = {i.properties["postmortem-bot"]["item"]: i.key for i in jira.followups.created.values()}
    assert [i["tracking"] for i in done.inputs["action_items"]] == [keys[1], "PAY-77", keys[3]]
    posted_md = amending.posted_markdown(ctx, session.id, 1)  # what the diff of an amendment compares with
    assert posted_md is not None and keys[1] in posted_md and keys[3] in posted_md and "⟨" not in posted_md
    edited = pm([{"what": "Alert when the queue stalls for 10 min", "tracking": keys[1]},  # text changed, key kept
                 {"what": ITEMS[2]["what"], "tracking": "new"},  # typed again as new: takes its key, once
                 {"what": ITEMS[0]["what"], "tracking": "new"},  # its key is kept by the first item: a new issue
                 {"what": "Brand new", "tracking": "new"}])  # fmt: skip
    carried = amending.with_earlier_issues(ctx, done.with_changes(version=2), edited)
    assert [i.tracking for i in carried.action_items] == [keys[1], keys[3], "new", "new"]
    planned = create_request(carried, session="s", version=2, issue_type="Task", deployment="cloud")
    assert [i.item for i in planned] == [3, 4]
