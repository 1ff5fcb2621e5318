"""Held-out end-to-end scenarios for the message shortcut (issue 22), on threads and tickets unlike the seeded one:
the key named only in a reply, the fix posted by a forge app as an attachment, an unassigned issue whose remote links
are mostly not fixes, a private channel with the issue hidden from the bot, a code block longer than the input, and
the person's typing kept in inputs the prefill also fills."""

from __future__ import annotations

import json

import pytest
import redis
from rq.job import Job
from rq.serializers import JSONSerializer

from bot.localstack import LocalStack
from postmortem.fieldtext import MODAL_MAX_CHARS
from postmortem.messages import say
from tests.e2e.helpers import E2E_REDIS_URL, channel, unique
from tests.e2e.shortcut_helpers import block, filled, hint, shortcut_modal, status

pytestmark = pytest.mark.e2e

BB_PR = "https://bitbucket.example.com/projects/LED/repos/ledger/pull-requests/41/overview"
GL_MR = "https://gitlab.example.com/pay/ledger/-/merge_requests/9"
NOT_FIX_LINKS = (
    "https://github.com/acme/ledger/issues/7",
    "https://github.com/acme/ledger/actions/runs/991",
    "https://github.com/acme/ledger/compare/main...fix",
    "https://grafana.example.com/d/led/pull/2",
)


def test_a_key_in_a_reply_an_apps_attachment_and_an_unassigned_issue(stack: LocalStack) -> None:
    key, chan = unique("LED"), channel()
    stack.jira.add_issue(key)  # nobody assigned
    for url in NOT_FIX_LINKS:
        stack.jira.issue_reads.add_remote_link(key, url)
    stack.jira.issue_reads.add_remote_link(key, BB_PR, "ledger PR")
    root = stack.slack.say_as("U2", chan, "ledger totals drift after midnight 「本番」で再現")
    stack.slack.say_as("U3", chan, f"tracking it in 「{key}」です", thread_ts=root)
    app = [{"fallback": "merged", "title": "Merge request !9 merged", "title_link": GL_MR}]
    stack.slack.say_as("UAPP", chan, "", thread_ts=root, attachments=app)
    stack.slack.say_as("U3", chan, " ".join(f"<{u}>" for u in NOT_FIX_LINKS), thread_ts=root)
    chosen = stack.slack.say_as("U1", chan, "repro: run close twice\nroot cause: stale cache key", thread_ts=root)
    _, view = shortcut_modal(stack, chan, chosen)
    assert filled(view) == {"ticket": key, "fix_ref": f"{BB_PR} {GL_MR}"}
    assert hint(view, "ticket") == say("hint_ticket_thread", "en")
    assert hint(view, "fix_ref") == say("hint_fix_both", "en", ticket=key, jira=1, thread=1)
    assert "hint" not in block(view, "owner") or hint(view, "owner") != say("hint_owner", "en", ticket=key)
    assert say("prefill_read", "en", n=5) in status(view)
    assert not any(t in stack.logs() for t in ("stale cache key", "totals drift", "本番"))  # no message text logged


def test_a_private_channel_and_an_issue_hidden_from_the_bot_still_open_and_say_both(stack: LocalStack) -> None:
    key, chan = unique("LED"), channel()
    root = stack.slack.say_as("U6", chan, f"{key} ```private trace```")
    stack.slack.make_unreadable(chan, "channel_not_found")
    stack.jira.inject("GET", f"/rest/api/3/issue/{key}", status=404, times=3)
    _, view = shortcut_modal(stack, chan, root, user="U6")
    assert filled(view) == {"ticket": key}
    assert hint(view, "ticket") == say("hint_ticket_message", "en")
    said = status(view)
    assert say("prefill_no_channel", "en", error="channel_not_found") in said
    assert say("prefill_jira_failed", "en", ticket=key, why=say("prefill_jira_missing", "en")) in said
    assert json.loads(view["private_metadata"])["channel"] == "D6"
    jobs = [Job.fetch(k.decode().rpartition(":")[2], connection=db, serializer=JSONSerializer) for k in _job_keys()]
    fills = [j for j in jobs if j.func_name == "workers.jobs.prefill_modal" and chan in j.args]
    assert fills and all("private trace" not in json.dumps(j.args) for j in fills)  # keys only, never the text
    assert [j.args[7] for j in fills] == [[key]]
    assert "private trace" not in stack.logs()


db = redis.Redis.from_url(E2E_REDIS_URL)


def _job_keys() -> list[bytes]:
    return [k for k in db.scan_iter("rq:job:*") if k.count(b":") == 2 and db.type(k) == b"hash"]


def test_a_code_block_over_the_inputs_limit_is_cut_at_a_line_boundary_and_the_hint_says_so(stack: LocalStack) -> None:
    key, chan = unique("LED"), channel()
    stack.jira.add_issue(key)
    lines = [f"  at ledger.settle(frame {i:04d}) &lt;async&gt;" for i in range(300)]
    root = stack.slack.say_as("U2", chan, f"{key}:\n```\n" + "\n".join(lines) + "\n```")
    _, view = shortcut_modal(stack, chan, root)
    symptom = filled(view)["symptom"]
    body = symptom.split("\n")
    whole = [line.replace("&lt;", "<").replace("&gt;", ">") for line in lines]
    assert len(symptom) <= MODAL_MAX_CHARS and body[0] == body[-1] == "```"
    assert body[1:-1] == whole[: len(body) - 2]
    total = len("```\n" + "\n".join(whole) + "\n```")
    expected = say("hint_symptom_message", "en") + say("hint_symptom_cut", "en", shown=len(symptom), total=total)
    assert hint(view, "symptom") == expected


def test_typing_into_inputs_the_prefill_also_fills_keeps_the_typing(stack: LocalStack) -> None:
    key, chan = unique("LED"), channel()
    stack.jira.add_user("acc-ana", display_name="Ana")
    stack.jira.add_issue(key, assignee_account_id="acc-ana")
    stack.jira.issue_reads.describe(key, [("code:go", "panic: nil map")])
    root = stack.slack.say_as("U2", chan, f"{key} merged <{GL_MR}|!9>")
    stack.slack.stall_matching("conversations.replies", chan, 15)
    before = len(stack.slack.views)
    assert stack.driver().message_shortcut(root, channel_id=chan).status_code == 200
    opened = stack.slack.wait_for(lambda s: next((v for v in s.views[before:] if v["action"] == "open"), None), 10)
    view_id = opened["view"]["id"]
    stack.slack.wait_for(lambda s: any(c.get("channel") == chan for c in s.calls_to("conversations.replies")), 10)
    typed = {"ticket": "LED-1", "fix_ref": "https://github.com/acme/ledger/pull/3", "symptom": "my own words"}
    for field, text in typed.items():
        stack.slack.type_into(view_id, field, text)
    stack.slack.release()
    stack.slack.wait_for(lambda s: next((v for v in s.views[before:] if v["action"] == "update"), None), 20)
    assert {f: stack.slack.shown_value(view_id, f) for f in typed} == typed
    assert stack.slack.shown_value(view_id, "owner") == "Ana"  # untouched inputs take the prefill
