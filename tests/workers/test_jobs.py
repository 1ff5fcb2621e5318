"""The RQ jobs run in-process on a real store, with fakes for Slack, Jira and the queues."""

from __future__ import annotations

import dataclasses
import json
from datetime import timedelta
from typing import Any

import pytest

from renderers.adf import render_adf
from renderers.jira import jira_request, with_requester
from renderers.markdown import render_markdown
from renderers.prompts import ACTION_HANDOFF, ACTION_RETRY
from sessions.claims import post_lock
from sessions.conversation import model_of
from sessions.replies import on_reply
from sessions.session import Session, State
from tests.sessions.helpers import complete_pm
from tests.workers.fakes import fatal, retryable
from tests.workers.helpers import PARENT_TS, World, buttons, install_world, new, posting, rendering
from workers import context, jobs

pytestmark = pytest.mark.unit

# advance ------------------------------------------------------------------------------------------


def test_advance_posts_the_parent_binds_the_thread_then_lists_what_is_missing(world: World) -> None:
    s = world.store.create(Session(ticket="PROJ-1", requester="U1", channel="C1"))
    jobs.advance(s.id)
    parent, listed, asked = world.slack.posts
    assert parent["channel"] == "C1" and parent["thread_ts"] is None
    assert "PROJ-1" in parent["message"]["text"] and "<@U1>" in parent["message"]["text"]
    bound = world.store.find_by_thread("C1", parent["ts"])
    assert bound is not None and bound.id == s.id
    assert listed["thread_ts"] == asked["thread_ts"] == parent["ts"]
    assert "Missing" in listed["message"]["text"]
    for name in ("summary", "owner", "repro", "root_cause", "fix_ref", "fix", "validation"):
        assert f"(`{name}`)" in listed["message"]["text"]
    assert "`summary: &lt;text&gt;`" in asked["message"]["text"]  # shown as typed, never read as a link
    assert bound.pending_field == "summary"


def test_japanese_questions_name_fields_by_their_japanese_labels(world: World) -> None:
    s = world.store.create(Session(ticket="PROJ-1", requester="U1", channel="C1", lang="ja"))
    jobs.advance(s.id)
    _parent, listed, asked = world.slack.texts
    assert "• *概要*：" in listed and "`summary`" not in listed and "(`" not in listed
    assert "`概要：&lt;内容&gt;`" in asked and "summary" not in asked


def test_advance_with_a_question_pending_posts_nothing_more(world: World) -> None:
    s = world.store.create(Session(ticket="PROJ-1", requester="U1", channel="C1"))
    jobs.advance(s.id)
    before = len(world.slack.calls)
    jobs.advance(s.id)
    assert len(world.slack.calls) == before


def test_advance_on_a_complete_session_renders_the_draft(world: World) -> None:
    s = new(world)
    jobs.advance(s.id)
    after = world.store.get(s.id)
    assert after is not None and after.state is State.drafted and after.version == 1
    assert "Rendering draft v1" in world.slack.texts[0]
    assert [u["filename"] for u in world.slack.of("upload")] == ["PROJ-1-postmortem-v1.json"]


def test_an_unknown_ticket_is_asked_for_again_before_anything_else(world: World) -> None:
    world.jira.missing_issues.add("PROJ-1")
    s = new(world)
    jobs.advance(s.id)
    after = world.store.get(s.id)
    assert after is not None and after.state is State.collecting and after.pending_field == "ticket"
    assert len(world.slack.texts) == 1 and "Jira has no issue PROJ-1" in world.slack.texts[0]
    answered = world.store.update(
        s.id, lambda cur: on_reply(cur, "PROJ-2", user="U1", approvers=frozenset(), ts=2e9).session
    )
    assert answered is not None and answered.ticket == "PROJ-2" and answered.pending_field is None
    jobs.advance(s.id)
    final = world.store.get(s.id)
    assert final is not None and final.state is State.drafted and final.ticket == "PROJ-2"
    assert [u["filename"] for u in world.slack.of("upload")] == ["PROJ-2-postmortem-v1.json"]


def test_jira_being_down_does_not_block_the_questions(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    def down(ticket: str) -> bool:
        raise retryable()

    monkeypatch.setattr(world.jira, "issue_exists", down)
    s = new(world)
    jobs.advance(s.id)
    after = world.store.get(s.id)
    assert after is not None and after.state is State.drafted


def test_advance_on_a_final_session_does_nothing(world: World) -> None:
    s = new(world, state=State.cancelled)
    jobs.advance(s.id)
    jobs.advance("unknown")
    assert world.slack.calls == []


# render -------------------------------------------------------------------------------------------


def test_render_shows_the_draft_lint_the_exact_request_body_and_asks_for_approval(world: World) -> None:
    s = rendering(world, inputs=complete_pm(how_found=None))
    jobs.render(s.id)
    kinds = [name for name, _ in world.slack.calls]
    assert kinds[-3:] == ["upload", "post", "post"] and kinds.count("upload") == 1
    assert all(p["thread_ts"] == PARENT_TS for p in world.slack.posts)
    upload = world.slack.of("upload")[0]
    assert upload["filename"] == "PROJ-1-postmortem-v1.json" and upload["thread_ts"] == PARENT_TS
    assert upload["content"] == world.store.draft_body(s.id, 1)
    thread_url = f"https://example.slack.com/archives/C1/p{PARENT_TS.replace('.', '')}"
    signed = with_requester(render_adf(model_of(s)), name="Priya", thread_url=thread_url, lang="en")
    expected = jira_request(signed, session=s.id, version=1)
    assert upload["content"] == expected.body
    # The link back to the thread was fetched when the draft was rendered: it is in the bytes shown.
    assert world.slack.of("permalink") == [{"channel": "C1", "message_ts": PARENT_TS}]
    sent = json.loads(expected.body)
    assert {"key": "sd.public.comment", "value": {"internal": True}} in sent["properties"]
    last = sent["body"]["content"][-1]["content"]
    assert "".join(n["text"] for n in last) == "Requested by Priya in the Slack thread."
    assert last[1]["marks"] == [{"type": "link", "attrs": {"href": thread_url}}]
    lint_posts = [t for t in world.slack.texts if t.startswith("Tone check")]
    assert len(lint_posts) == 1 and "`how_found`" in lint_posts[0]
    question = world.slack.posts[-1]
    assert "post it" in question["message"]["text"] and "v1" in question["message"]["text"]
    after = world.store.get(s.id)
    assert after is not None and after.state is State.drafted
    draft = after.draft(1)
    # Approvable from the line that follows the exact body's file (before the question): a quick "yes" after
    # the question is never lost, and none typed before the file was visible approves it.
    shown = world.slack.posts[-2]
    assert "exact request body for Jira (v1)" in shown["message"]["text"]
    assert draft is not None and draft.shown_at == float(shown["ts"]) and draft.message_ts == shown["ts"]
    assert float(question["ts"]) > draft.shown_at
    assert draft.sha256 == expected.sha256


def test_render_of_a_clean_draft_posts_no_lint(world: World) -> None:
    s = rendering(world)
    jobs.render(s.id)
    assert not [t for t in world.slack.texts if t.startswith("Tone check")]


@pytest.mark.parametrize(
    ("destination", "filename"),
    [
        ("docs_file", "docs/postmortems/PROJ-1.md"),
        ("pr_description", "PROJ-1-postmortem-v1.md"),
        ("wiki", "PROJ-1-postmortem-v1.md"),
    ],
)
def test_other_destinations_attach_the_markdown_only(world: World, destination: str, filename: str) -> None:
    s = rendering(world, inputs=complete_pm(destination=destination))
    jobs.render(s.id)
    upload = world.slack.of("upload")[0]
    assert upload["filename"] == filename
    assert upload["content"] == render_markdown(model_of(s)).encode() == world.store.draft_body(s.id, 1)
    notice, offer = world.slack.posts[-2:]
    assert f"Destination `{destination}`" in notice["message"]["text"]
    assert "Nothing is posted" in notice["message"]["text"]
    # The hand-off offer applies to output-only destinations too (docs/rules.md#from-inputs-to-a-posted-record).
    assert buttons(offer["message"]) == [ACTION_HANDOFF]
    assert offer["message"]["text"].startswith("Want a leadership-toned version?")
    after = world.store.get(s.id)
    assert after is not None and after.state is State.drafted


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_handoff_of_an_output_only_draft_enqueues_the_shown_version(world: World, lang: str) -> None:
    s = rendering(world, lang=lang, inputs=complete_pm(destination="docs_file"))
    jobs.render(s.id)
    offer = world.slack.posts[-1]["message"]
    assert buttons(offer) == [ACTION_HANDOFF]
    assert ("management-talk に引き継げます" in offer["text"]) == (lang == "ja")
    jobs.handoff(s.id, "U1")
    name, args, _ = world.handoff.enqueued[0]
    assert name == "management_talk.rewrite"
    assert args[0]["version"] == 1 and args[0]["comment_url"] is None and args[0]["lang"] == lang


@pytest.mark.parametrize("deployment", ["cloud", "datacenter"])
def test_a_comment_too_long_fails_the_render_and_says_why(world: World, deployment: str) -> None:
    world = install_world(world.redis, deployment=deployment)  # Data Center: the wiki-markup body's length
    huge = "`evict_range` skipped the last shard. " * 300
    s = rendering(world, inputs=complete_pm(root_cause=huge, symptom=huge, how_found=huge))
    jobs.render(s.id)
    after = world.store.get(s.id)
    assert after is not None and after.state is State.failed and "Jira allows 32,767" in (after.error or "")
    assert world.slack.of("upload") == []
    assert len(world.slack.posts) == 1
    assert world.slack.texts[0].startswith("I couldn't render the draft")
    assert world.store.draft_body(s.id, 1) is None


def test_render_of_a_session_not_rendering_does_nothing(world: World) -> None:
    s = new(world)
    jobs.render(s.id)
    assert world.slack.calls == []
    assert world.store.get(s.id) == s


# post_comment -------------------------------------------------------------------------------------


def test_post_comment_posts_the_approved_bytes_once_and_offers_the_handoff(world: World) -> None:
    s, body = posting(world)
    jobs.post_comment(s.id, 1)
    assert [name for name, _ in world.jira.calls] == ["find_own_comment", "post_comment"]
    assert world.jira.of("find_own_comment")[0] == {"ticket": "PROJ-1", "session": s.id, "version": 1}
    assert world.jira.of("post_comment")[0] == {"ticket": "PROJ-1", "body": body}
    after = world.store.get(s.id)
    assert after is not None and after.state is State.posted
    assert after.comment_id == "10001" and after.comment_url == world.jira.comment("10001").url
    posted, offer = world.slack.posts
    assert posted["message"]["text"] == f"Posted to PROJ-1: {after.comment_url}"
    assert buttons(offer["message"]) == [ACTION_HANDOFF]
    jobs.post_comment(s.id, 1)  # a duplicate run: already posted
    assert len(world.jira.of("post_comment")) == 1


def test_an_own_comment_found_is_recorded_without_posting(world: World) -> None:
    s, _ = posting(world)
    world.jira.found.append(world.jira.comment("20002"))
    jobs.post_comment(s.id, 1)
    assert world.jira.of("post_comment") == []
    after = world.store.get(s.id)
    assert after is not None and after.state is State.posted and after.comment_id == "20002"


def test_a_retryable_error_schedules_the_next_attempt_after_retry_after(world: World) -> None:
    s, _ = posting(world)
    world.jira.posted.append(retryable(7))
    jobs.post_comment(s.id, 1, 2)
    assert world.queue.scheduled == [(timedelta(seconds=7), "workers.jobs.post_comment", (s.id, 1, 3))]
    after = world.store.get(s.id)
    assert after is not None and after.state is State.posting and after.error is None
    assert world.slack.calls == []
    assert world.store.claim_once(f"post:{s.id}:1", 5)  # the lock was given back


def test_a_retryable_error_on_the_last_attempt_fails_with_a_retry_button(world: World) -> None:
    s, _ = posting(world)
    world.jira.posted.append(retryable(7))
    jobs.post_comment(s.id, 1, jobs.MAX_POST_ATTEMPTS)
    assert world.queue.scheduled == []
    after = world.store.get(s.id)
    assert after is not None and after.state is State.failed and "rate-limiting" in (after.error or "")
    (failed,) = world.slack.posts
    assert failed["message"]["text"].startswith("Posting to Jira failed")
    assert buttons(failed["message"]) == [ACTION_RETRY]


def test_a_non_retryable_error_fails_at_once(world: World) -> None:
    s, _ = posting(world)
    world.jira.found.append(fatal(403))
    jobs.post_comment(s.id, 1)
    assert world.jira.of("post_comment") == []
    assert world.queue.scheduled == []
    after = world.store.get(s.id)
    assert after is not None and after.state is State.failed and after.approved_version == 1
    assert "no permission" in world.slack.texts[0]
    assert buttons(world.slack.posts[0]["message"]) == [ACTION_RETRY]


def test_a_second_run_while_the_post_lock_is_held_does_nothing(world: World) -> None:
    s, _ = posting(world)
    assert world.store.claim_once(f"post:{s.id}:1", 60)
    jobs.post_comment(s.id, 1)
    assert world.jira.calls == [] and world.slack.calls == []
    after = world.store.get(s.id)
    assert after is not None and after.state is State.posting


@pytest.mark.parametrize("version", [1, 2])
def test_post_comment_for_a_session_not_posting_that_version_does_nothing(world: World, version: int) -> None:
    s, _ = posting(world)
    if version == 1:
        assert world.store.record_failed(s.id, "earlier failure") is not None
    jobs.post_comment(s.id, version)
    jobs.post_comment("unknown", 1)
    assert world.jira.calls == [] and world.slack.calls == []


def test_a_tampered_approved_body_fails_and_posts_nothing(world: World) -> None:
    s, body = posting(world)
    tampered = body.replace(b"Summary", b"Summery")
    assert tampered != body
    world.redis.set(world.store.draft_key(s.id, 1), tampered)
    jobs.post_comment(s.id, 1)
    assert world.jira.calls == []
    after = world.store.get(s.id)
    assert after is not None and after.state is State.failed and "sha256" in (after.error or "")
    assert buttons(world.slack.posts[0]["message"]) == [ACTION_RETRY]


def test_perform_runs_a_post_effect(world: World) -> None:
    s, body = posting(world)
    jobs.perform(
        s.id,
        [
            {"kind": "say", "key": "posting", "params": {"user": "U1", "version": 1, "ticket": "PROJ-1"}},
            {"kind": "post", "version": 1},
        ],
    )
    assert world.slack.texts[0] == "Approved by <@U1>. Posting v1 to PROJ-1…"
    assert world.jira.of("post_comment") == [{"ticket": "PROJ-1", "body": body}]


def test_perform_sends_ephemerals_to_their_user(world: World) -> None:
    s = new(world)
    jobs.perform(s.id, [{"kind": "ephemeral", "key": "only_approvers", "params": {"requester": "U1"}, "user": "U9"}])
    (eph,) = world.slack.of("ephemeral")
    assert eph["user"] == "U9" and eph["thread_ts"] == PARENT_TS and "<@U1>" in eph["message"]["text"]
    assert world.slack.posts == []


# handoff ------------------------------------------------------------------------------------------


def test_handoff_enqueues_the_rewrite_once_with_the_documented_payload(world: World) -> None:
    s, _ = posting(world)
    jobs.post_comment(s.id, 1)
    posted = world.store.get(s.id)
    assert posted is not None and posted.state is State.posted
    jobs.handoff(s.id, "U2")
    jobs.handoff(s.id, "U2")
    assert len(world.handoff.enqueued) == 1
    name, args, _ = world.handoff.enqueued[0]
    assert name == "management_talk.rewrite"
    assert args == (
        {
            "kind": "postmortem",
            "schema": 1,
            "ticket": "PROJ-1",
            "session": s.id,
            "version": 1,
            "lang": "en",
            "markdown": render_markdown(model_of(posted)),
            "comment_url": posted.comment_url,
            "requested_by": "U2",
            "channel": "C1",
            "thread_ts": PARENT_TS,
        },
    )
    assert world.queue.enqueued == []
    assert world.slack.texts[-1] == "Handed off to management-talk (job `job-1`)."
    assert sum("Handed off" in t for t in world.slack.texts) == 1


def test_handoff_before_posting_does_nothing(world: World) -> None:
    s, _ = posting(world)
    jobs.handoff(s.id, "U2")
    assert world.handoff.enqueued == [] and world.slack.calls == []


# Slack refusing ---------------------------------------------------------------------------------


def test_a_channel_the_bot_cannot_post_in_keeps_the_inputs_and_offers_retry_by_dm(world: World) -> None:
    world.slack.refuse_channels["C1"] = "not_in_channel"
    s = new(world, thread_ts=None)
    jobs.advance(s.id)
    after = world.store.get(s.id)
    assert after is not None and after.state is State.collecting and after.thread_ts is None
    assert after.inputs == s.inputs and after.error == "slack: not_in_channel"
    dm = world.slack.posts[-1]
    assert dm["channel"] == "U1" and "not_in_channel" in dm["message"]["text"]
    assert ACTION_RETRY in buttons(dm["message"])


def test_slack_refusing_the_draft_fails_the_render_with_a_reason(world: World) -> None:
    world.slack.refuse_uploads = "missing_scope"
    s = rendering(world)
    jobs.render(s.id)
    after = world.store.get(s.id)
    assert after is not None and after.state is State.failed and "missing_scope" in (after.error or "")
    assert "missing_scope" in world.slack.texts[-1]
    assert world.store.inflight_ids() == []


def test_a_session_cancelled_while_rendering_gets_no_question(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    s = rendering(world)
    original_upload = world.slack.upload

    def upload_then_cancel(*args: Any, **kwargs: Any) -> None:
        original_upload(*args, **kwargs)
        assert world.store.transition(s.id, {State.rendering}, State.cancelled) is not None

    monkeypatch.setattr(world.slack, "upload", upload_then_cancel)
    jobs.render(s.id)
    assert not any("post it" in t for t in world.slack.texts)


def test_a_post_that_lost_its_lock_before_the_post_does_not_post(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    session, _ = posting(world)

    def search_then_lose_the_lock(ticket: str, *, session: str, version: int) -> None:
        world.redis.delete(f"pm:claim:{post_lock(session, version)}")  # expired during a slow search
        world.store.claim_once(post_lock(session, version), 60, token="another run")

    monkeypatch.setattr(world.jira, "find_own_comment", search_then_lose_the_lock)
    jobs.post_comment(session.id, 1)
    assert world.jira.of("post_comment") == []
    assert world.store.claimed(post_lock(session.id, 1))  # the other run's lock is left alone


def test_a_draft_nested_too_deep_fails_the_render_plainly(world: World) -> None:
    s = rendering(world, inputs=complete_pm(root_cause="- " * 248 + "x"))
    jobs.render(s.id)
    after = world.store.get(s.id)
    assert after is not None and after.state is State.failed and "root_cause" in (after.error or "")
    assert world.slack.texts == [f"I couldn't render the draft: {after.error}"]
    assert "worker" not in world.slack.texts[0] and world.store.draft_body(s.id, 1) is None


def test_the_configured_visibility_goes_into_the_request_body(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    ctx = context.current()
    monkeypatch.setattr(context, "_installed", [dataclasses.replace(ctx, jira_visibility="group:abc-123")])
    s = rendering(world)
    jobs.render(s.id)
    body = json.loads(world.store.draft_body(s.id, 1) or b"{}")
    assert body["visibility"] == {"type": "group", "identifier": "abc-123"}


def test_with_the_jira_site_known_the_draft_links_its_ticket(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    ctx = context.current()
    site = "https://acme.atlassian.net"
    monkeypatch.setattr(context, "_installed", [dataclasses.replace(ctx, jira_url=site)])
    s = rendering(world)
    jobs.render(s.id)
    body = (world.store.draft_body(s.id, 1) or b"").decode()
    assert f'"href": "{site}/browse/PROJ-1"' in body
    assert any(
        f"<{site}/browse/PROJ-1|PROJ-1>" in b["text"]["text"]
        for p in world.slack.posts
        for b in p["message"].get("blocks") or []
        if b.get("text")
    )


def test_a_japanese_draft_nested_too_deep_names_the_field_by_its_label(world: World) -> None:
    s = rendering(world, lang="ja", inputs=complete_pm(root_cause="- " * 248 + "x"))
    jobs.render(s.id)
    assert world.slack.texts == [
        "下書きを作成できませんでした：根本原因（メカニズム）："
        "リストや引用の入れ子が 20 段を超えています。20 段以下にしてください"
    ]
