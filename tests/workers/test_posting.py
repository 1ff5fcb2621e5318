"""Exactly once under a late store, capped Retry-After, and every step of the draft and the report recovered."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
import redis

from renderers.prompts import ACTION_CANCEL, ACTION_RETRY
from sessions.claims import post_attempt_claim, post_doubt_claim
from sessions.session import State
from tests.workers.fakes import FakeSlack, fatal, slack_error
from tests.workers.helpers import World, buttons, install_world, posting, rendering
from workers import context, duplicates, jobs
from workers import posting as posting_module
from workers.context import Policy
from workers.jira_gateway import JiraError
from workers.slack_retry import MAX_STEP_ATTEMPTS, QUICK_STEP_ATTEMPTS, STEP_PAUSE_SECONDS

pytestmark = pytest.mark.unit

QUIET = 30.0


@pytest.fixture(params=["cloud", "datacenter"])
def world(redis_conn: redis.Redis, monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest) -> World:
    """Every test runs for Jira Cloud (v3 ADF body) and Jira Data Center (v2 wiki-markup body)."""
    monkeypatch.setattr(context, "_installed", [])
    policy = Policy(quiet_seconds=QUIET, retry_after_cap=300.0, lease_seconds=2.0, wait_visibly_after=10.0)
    return install_world(redis_conn, policy=policy, deployment=request.param)


def timed_out() -> JiraError:
    return JiraError("Jira did not answer in time.", ambiguous=True)


def test_after_an_ambiguous_post_an_early_search_is_not_trusted(world: World) -> None:
    s, _ = posting(world)
    world.jira.posted.append(timed_out())
    jobs.post_comment(s.id, 1)
    delay, name, args = world.queue.scheduled[-1]
    assert name == "workers.jobs.post_comment" and args == (s.id, 1, 2)
    assert QUIET - 1 <= delay.total_seconds() <= QUIET  # straight to the first conclusive search
    jobs.post_comment(s.id, 1, 2)  # run early (a sweep, a Retry): the search finds nothing yet
    assert len(world.jira.of("post_comment")) == 1 and len(world.jira.of("find_own_comment")) == 2
    assert world.queue.scheduled[-1][0].total_seconds() > QUIET - 2
    session = world.store.get(s.id)
    assert session is not None and session.state is State.posting


def test_a_search_made_a_quiet_period_after_the_attempt_is_trusted(world: World) -> None:
    s, body = posting(world)
    world.store.note(post_attempt_claim(s.id, 1), repr(time.time() - QUIET - 1), 3600)
    jobs.post_comment(s.id, 1, 2)
    assert [p["body"] for p in world.jira.of("post_comment")] == [body]
    session = world.store.get(s.id)
    assert session is not None and session.state is State.posted


def test_a_comment_stored_late_is_found_and_recorded_never_posted_again(world: World) -> None:
    s, _ = posting(world)
    world.jira.posted.append(timed_out())
    jobs.post_comment(s.id, 1)
    world.jira.found.append(world.jira.comment("10077"))  # Jira stored it after the client gave up
    jobs.post_comment(s.id, 1, 2)
    assert len(world.jira.of("post_comment")) == 1
    session = world.store.get(s.id)
    assert session is not None and session.state is State.posted and session.comment_id == "10077"
    assert world.slack.texts[-2].startswith("Posted to PROJ-1")
    assert world.store.noted(post_attempt_claim(s.id, 1)) is None


def test_a_post_stored_later_than_the_quiet_period_is_found_twice_and_the_extra_deleted(world: World) -> None:
    """The first POST timed out; the conclusive search found nothing; the second POST was stored. Jira then
    stores the first one too, later than the quiet period: the unlinked duplicate is deleted and the thread told."""
    s, _ = posting(world)
    world.jira.posted.append(timed_out())
    jobs.post_comment(s.id, 1)
    world.store.note(post_attempt_claim(s.id, 1), repr(time.time() - QUIET - 1), 3600)  # the quiet period passed
    world.jira.posted.append(world.jira.comment("10002"))
    jobs.post_comment(s.id, 1, 2)
    checks = [
        (d.total_seconds(), args) for d, name, args in world.queue.scheduled if name == "workers.jobs.remove_duplicates"
    ]
    assert checks == [(q * QUIET, (s.id, 1)) for q in duplicates.DUPLICATE_CHECKS]
    world.jira.listed.append([world.jira.comment("10003"), world.jira.comment("10002")])  # newest first
    jobs.remove_duplicates(s.id, 1)
    assert world.jira.of("delete_comment") == [{"ticket": "PROJ-1", "comment_id": "10003"}]
    assert world.slack.texts[-1].startswith("Jira stored an earlier attempt late, so PROJ-1 had this post-mortem twice")
    said = len(world.slack.texts)
    world.jira.listed.append([world.jira.comment("10002")])
    jobs.remove_duplicates(s.id, 1)  # a later check: one comment, nothing to do or say
    assert len(world.jira.of("delete_comment")) == 1 and len(world.slack.texts) == said


def test_a_duplicate_jira_will_not_delete_is_linked_in_the_thread_once(world: World) -> None:
    s, _ = posting(world)
    jobs.post_comment(s.id, 1)
    said = len(world.slack.texts)
    for _ in duplicates.DUPLICATE_CHECKS:  # every scheduled check finds it, and Jira refuses each time
        world.jira.listed.append([world.jira.comment("10001"), world.jira.comment("10009")])
        world.jira.deleted.append(fatal(403))
        jobs.remove_duplicates(s.id, 1)
    assert len(world.jira.of("delete_comment")) == len(duplicates.DUPLICATE_CHECKS)
    [told] = world.slack.texts[said:]
    assert "Please delete it: https://jira.example/browse/PROJ-1?focusedCommentId=10009" in told


def test_a_delete_that_timed_out_is_not_called_a_refusal(world: World) -> None:
    s, _ = posting(world)
    jobs.post_comment(s.id, 1)
    said = len(world.slack.texts)
    world.jira.listed.append([world.jira.comment("10001"), world.jira.comment("10009")])
    world.jira.deleted.append(timed_out())  # it may be gone: the next check looks again
    jobs.remove_duplicates(s.id, 1)
    assert world.slack.texts[said:] == []


def test_the_duplicate_checks_are_scheduled_before_the_comment_is_recorded(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A worker dying between the two leaves the checks scheduled (the watchdog's rerun records the comment)."""
    s, _ = posting(world)
    world.store.note(post_doubt_claim(s.id, 1), "1", 60)

    def crash(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("the worker dies here")

    monkeypatch.setattr(world.store, "update", crash)
    with pytest.raises(RuntimeError):
        jobs.post_comment(s.id, 1)
    assert [n for _, n, _ in world.queue.scheduled].count("workers.jobs.remove_duplicates") == 3


def test_a_comment_already_recorded_is_kept_by_a_later_run(world: World) -> None:
    """Two runs that each found a comment (a stalled worker): the first recorded stays the one linked."""
    s, _ = posting(world)
    assert world.store.update(s.id, lambda x: x.with_changes(comment_id="10001", comment_url="u1")) is not None
    held = world.store.get(s.id)
    assert held is not None
    posting_module._record(context.current(), held.with_changes(comment_id=None), world.jira.comment("10002"), 1)
    done = world.store.get(s.id)
    assert done is not None and done.comment_id == "10001" and done.state is State.posted


def test_no_duplicate_check_after_a_post_sent_once(world: World) -> None:
    s, _ = posting(world)
    jobs.post_comment(s.id, 1)
    assert [name for _, name, _ in world.queue.scheduled] == []


def test_a_duplicate_check_decides_nothing_when_the_linked_comment_is_not_found(world: World) -> None:
    s, _ = posting(world)
    jobs.post_comment(s.id, 1)
    world.jira.listed.append([world.jira.comment("10005"), world.jira.comment("10006")])  # ours is not among them
    jobs.remove_duplicates(s.id, 1)
    assert world.jira.of("delete_comment") == []


def test_a_refused_post_is_not_ambiguous(world: World) -> None:
    s, _ = posting(world)
    world.jira.posted.append(JiraError("Jira answered 429", status=429, retry_after=1.0))
    jobs.post_comment(s.id, 1)
    assert world.queue.scheduled[-1][0].total_seconds() == 1.0  # no quiet period: nothing was stored
    assert world.store.noted(post_attempt_claim(s.id, 1)) is None


def test_a_retry_after_past_the_cap_fails_and_offers_retry(world: World) -> None:
    s, _ = posting(world)
    world.jira.posted.append(JiraError("rate-limited", status=429, retry_after=1e9))
    jobs.post_comment(s.id, 1)
    session = world.store.get(s.id)
    assert session is not None and session.state is State.failed
    assert world.queue.scheduled == []
    told = world.slack.posts[-1]["message"]
    assert "longer than I wait by myself (300 s)" in told["text"] and ACTION_RETRY in buttons(told)


def test_a_long_retry_after_waits_where_cancel_works_then_resumes(world: World) -> None:
    s, body = posting(world)
    world.jira.posted.append(JiraError("rate-limited", status=429, retry_after=120))
    jobs.post_comment(s.id, 1)
    waiting = world.store.get(s.id)
    assert waiting is not None and waiting.state is State.failed
    told = world.slack.posts[-1]["message"]
    assert "wait 120 s" in told["text"] and {ACTION_RETRY, ACTION_CANCEL} <= set(buttons(told))
    delay, _, args = world.queue.scheduled[-1]
    assert delay.total_seconds() == 120 and args == (s.id, 1, 2)
    jobs.post_comment(*args)  # the wait is over
    assert [p["body"] for p in world.jira.of("post_comment")] == [body, body]
    done = world.store.get(s.id)
    assert done is not None and done.state is State.posted


def test_cancelled_while_waiting_posts_nothing(world: World) -> None:
    s, _ = posting(world)
    world.jira.posted.append(JiraError("rate-limited", status=429, retry_after=120))
    jobs.post_comment(s.id, 1)
    assert world.store.transition(s.id, {State.failed}, State.cancelled) is not None
    jobs.post_comment(*world.queue.scheduled[-1][2])
    assert len(world.jira.of("post_comment")) == 1


def test_slack_failing_after_the_post_reschedules_the_link_and_never_posts_again(world: World) -> None:
    s, _ = posting(world)
    world.slack.failures.extend(["internal_error"])
    jobs.post_comment(s.id, 1)
    held = world.store.get(s.id)
    assert held is not None and held.state is State.posting and held.comment_id == "10001"
    _, name, args = world.queue.scheduled[-1]
    world.slack.failures.extend(["service_unavailable"])  # the link goes out, the offer fails
    jobs.post_comment(*args)
    jobs.post_comment(*world.queue.scheduled[-1][2])
    assert len(world.jira.of("post_comment")) == 1
    texts = world.slack.texts
    assert sum(t.startswith("Posted to PROJ-1") for t in texts) == 1
    assert sum("management-talk" in t for t in texts) == 1
    done = world.store.get(s.id)
    assert done is not None and done.state is State.posted


def test_a_thread_slack_refuses_for_good_gets_the_link_to_the_requester_by_dm(world: World) -> None:
    s, _ = posting(world)
    world.slack.refuse_channels[s.channel] = "is_archived"
    jobs.post_comment(s.id, 1)
    done = world.store.get(s.id)
    assert done is not None and done.state is State.posted and world.queue.scheduled == []
    [dm] = world.slack.posts
    assert dm["channel"] == s.requester and dm["thread_ts"] is None
    assert dm["message"]["text"] == (
        "Posted to PROJ-1: https://jira.example/browse/PROJ-1?focusedCommentId"
        "=10001\nI could not say so in the post-mortem's thread (Slack: is_archived)."
    )


def test_a_long_slack_outage_after_the_post_loses_neither_the_link_nor_the_offer(world: World) -> None:
    """Past the quick tries the link is tried every few minutes, not dropped; it arrives once Slack is back."""
    s, _ = posting(world)
    world.slack.refuse_channels[s.channel] = "service_unavailable"
    jobs.post_comment(s.id, 1)
    delays = []
    for _ in range(3 * QUICK_STEP_ATTEMPTS):
        delay, _, args = world.queue.scheduled[-1]
        delays.append(delay.total_seconds())
        jobs.post_comment(*args)
    held = world.store.get(s.id)
    assert held is not None and held.state is State.posting and world.slack.posts == []
    assert max(delays) == STEP_PAUSE_SECONDS and delays[-1] == max(delays)
    del world.slack.refuse_channels[s.channel]  # Slack is back
    jobs.post_comment(*world.queue.scheduled[-1][2])
    link, offer = world.slack.texts
    assert link.startswith("Posted to PROJ-1: ") and "management-talk" in offer
    done = world.store.get(s.id)
    assert done is not None and done.state is State.posted and len(world.jira.of("post_comment")) == 1


def test_past_its_last_try_the_link_goes_to_the_requester_by_dm(world: World) -> None:
    s, _ = posting(world)
    world.slack.refuse_channels[s.channel] = "service_unavailable"
    jobs.post_comment(s.id, 1)
    now = world.store.get(s.id)
    assert now is not None and now.state is State.posting
    jobs.post_comment(s.id, 1, MAX_STEP_ATTEMPTS)  # the run after about a day of Slack failing
    done = world.store.get(s.id)
    assert done is not None and done.state is State.posted and len(world.queue.scheduled) == 1
    [dm] = world.slack.posts
    assert dm["channel"] == s.requester and "(Slack: service_unavailable)" in dm["message"]["text"]


def fail_call(monkeypatch: pytest.MonkeyPatch, slack: FakeSlack, k: int, error: str = "internal_error") -> None:
    """Make the k-th Slack call from now on (posts and uploads counted together) fail once."""
    post, upload, seen = slack.post, slack.upload, [0]

    def gate() -> None:
        seen[0] += 1
        if seen[0] == k + 1:
            raise slack_error(error)

    def failing_post(channel: str, message: dict[str, Any], *, thread_ts: str | None = None) -> str:
        gate()
        return post(channel, message, thread_ts=thread_ts)

    def failing_upload(channel: str, thread_ts: str | None, **kwargs: Any) -> None:
        gate()
        upload(channel, thread_ts, **kwargs)

    monkeypatch.setattr(slack, "post", failing_post)
    monkeypatch.setattr(slack, "upload", failing_upload)


def shown(slack: FakeSlack) -> list[str]:
    """What reached the thread, in order (look-ups such as the permalink or a user's name are left out)."""
    return [
        f"{name}:{call.get('filename') or call['message']['text']}"
        for name, call in slack.calls
        if "filename" in call or "message" in call
    ]


@pytest.mark.parametrize("error", ["internal_error", "ratelimited", "service_unavailable"])
def test_slack_failing_at_any_step_of_the_draft_resumes_without_repeating(
    world: World, error: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    clean = rendering(world)
    jobs.render(clean.id)
    expected = shown(world.slack)
    assert len(expected) >= 4  # draft message(s), file, the "shown" line, the question
    for k in range(len(expected)):
        world.slack.calls.clear()
        world.queue.scheduled.clear()
        s = rendering(world)
        fail_call(monkeypatch, world.slack, k, error)
        jobs.render(s.id)
        _, name, args = world.queue.scheduled[-1]
        assert name == "workers.jobs.render" and args == (s.id, 2)
        jobs.render(*args)
        assert shown(world.slack) == expected, f"step {k}"
        done = world.store.get(s.id)
        assert done is not None and done.state is State.drafted
        assert world.store.duties() == []


def test_a_question_owed_after_drafted_is_asked_once_by_a_later_run(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    s = rendering(world)
    original_post = world.slack.post

    def fail_on_question(channel: str, message: dict[str, Any], *, thread_ts: str | None = None) -> str:
        if ACTION_CANCEL in buttons(message):
            raise slack_error("fatal_error")
        return original_post(channel, message, thread_ts=thread_ts)

    monkeypatch.setattr(world.slack, "post", fail_on_question)
    jobs.render(s.id)
    drafted = world.store.get(s.id)
    assert drafted is not None and drafted.state is State.drafted
    assert world.store.duties() == [jobs.question_duty(s.id, 1)]
    monkeypatch.setattr(world.slack, "post", original_post)
    jobs.render(*world.queue.scheduled[-1][2])
    assert sum(ACTION_CANCEL in buttons(p["message"]) for p in world.slack.posts) == 1
    assert world.store.duties() == []


def test_a_long_slack_outage_during_the_draft_waits_for_slack_then_shows_it(world: World) -> None:
    """Past the quick tries the draft is tried every few minutes instead of failing; it appears once Slack is back."""
    s = rendering(world)
    world.slack.refuse_channels[s.channel] = "service_unavailable"
    jobs.render(s.id)
    for _ in range(2 * QUICK_STEP_ATTEMPTS):
        delay, name, args = world.queue.scheduled[-1]
        assert name == "workers.jobs.render"
        jobs.render(*args)
    held = world.store.get(s.id)
    assert held is not None and held.state is State.rendering and delay.total_seconds() == STEP_PAUSE_SECONDS
    del world.slack.refuse_channels[s.channel]
    jobs.render(*world.queue.scheduled[-1][2])
    done = world.store.get(s.id)
    assert done is not None and done.state is State.drafted
    assert ACTION_CANCEL in buttons(world.slack.posts[-1]["message"])  # the approval question came last


def test_a_draft_past_its_last_try_fails_with_retry_kept(world: World) -> None:
    s = rendering(world)
    world.slack.refuse_channels[s.channel] = "service_unavailable"
    jobs.render(s.id, MAX_STEP_ATTEMPTS)
    failed = world.store.get(s.id)
    assert failed is not None and failed.state is State.failed and "service_unavailable" in (failed.error or "")
    assert world.queue.scheduled == []


def test_the_file_shown_is_the_deployments_request_body_and_is_what_is_posted(world: World) -> None:
    """Data Center: the REST v2 body, a wiki-markup string; Cloud: the v3 ADF document. Shown = stored = posted."""
    s = rendering(world)
    jobs.render(s.id)
    (upload,) = world.slack.of("upload")
    shown = upload["content"]
    assert world.store.draft_body(s.id, 1) == shown
    body = json.loads(shown)["body"]
    if world.ctx.jira_deployment == "datacenter":
        assert isinstance(body, str) and body.startswith("h2. ") and "\nh3. " in body
    else:
        assert isinstance(body, dict) and body["type"] == "doc"
    assert [p["key"] for p in json.loads(shown)["properties"]] == ["postmortem-bot", "sd.public.comment"]
    world.store.approve(s.id, version=1, user="U1")
    jobs.post_comment(s.id, 1)
    assert [p["body"] for p in world.jira.of("post_comment")] == [shown]
