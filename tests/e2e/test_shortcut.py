"""The message shortcut end to end (DESIGN §4 "Starting where the debugging happened"): a signed `message_action` on
a seeded debugging thread opens the modal at once, a worker reads the thread and the Jira issue and updates it with
the view's hash; each prefilled input names its source, the evidence inputs stay empty, what the person typed
stays, and the session runs in its own thread (or a DM when the channel cannot be read)."""

from __future__ import annotations

import json

import pytest

from bot.localstack import LocalStack
from emulators.driver import modal_values
from postmortem.messages import say
from renderers.offers import ACTION_START
from renderers.prefill import PREFILLED, STATUS_BLOCK
from tests.e2e.helpers import channel, start_value, unique
from tests.e2e.shortcut_helpers import (
    COMMIT,
    DEFAULTED,
    PR,
    filled,
    hint,
    seed_issue,
    seed_thread,
    shortcut_modal,
    status,
)

pytestmark = pytest.mark.e2e


def test_a_shortcut_prefills_each_input_from_its_source(stack: LocalStack) -> None:
    key, chan = unique("PAY"), channel()
    seed_issue(stack, key)
    root, chosen = seed_thread(stack, chan, key)
    _, view = shortcut_modal(stack, chan, chosen)
    values = filled(view)
    assert values == {
        "ticket": key,
        "owner": "Priya Raman",
        "fix_ref": f"{PR} {COMMIT}",
        "symptom": "```\nE42: checkpoint write timed out after 30s\n```\n\n```\nRuntimeError: cache evicted <3\n```",
    }
    assert hint(view, "ticket") == say("hint_ticket_thread", "en")
    assert hint(view, "owner") == say("hint_owner", "en", ticket=key)
    assert hint(view, "fix_ref") == say("hint_fix_both", "en", ticket=key, jira=1, thread=1)
    assert hint(view, "symptom") == say("hint_symptom_both", "en", ticket=key)
    assert say("prefill_read", "en", n=3) in status(view)
    methods = [c.method for c in stack.slack.calls]
    opened_at = methods.index("views.open")
    assert "conversations.replies" not in methods[:opened_at]  # the modal opened before anything was read
    meta = json.loads(view["private_metadata"])
    assert meta["channel"] == chan and meta["origin"]["channel"] == chan and meta["origin"]["ts"] == root


def test_the_evidence_inputs_stay_empty(stack: LocalStack) -> None:
    key, chan = unique("PAY"), channel()
    seed_issue(stack, key)
    _, chosen = seed_thread(stack, chan, key)
    _, view = shortcut_modal(stack, chan, chosen)
    for b in view["blocks"]:
        if b["type"] != "input" or b["block_id"] in PREFILLED | DEFAULTED:
            continue
        element = b["element"]
        assert not {"initial_value", "initial_option", "initial_options"} & set(element), b["block_id"]
    assert set(filled(view)) == PREFILLED


def test_what_the_person_typed_is_kept_and_the_session_links_the_debugging_thread(stack: LocalStack) -> None:
    key, chan = unique("PAY"), channel()
    seed_issue(stack, key)
    root, chosen = seed_thread(stack, chan, key)
    stack.slack.stall_matching("conversations.replies", chan, 15)  # the worker reads while the person types
    before = len(stack.slack.views)
    assert stack.driver().message_shortcut(chosen, channel_id=chan).status_code == 200
    opened = stack.slack.wait_for(lambda s: next((v for v in s.views[before:] if v["action"] == "open"), None), 10)
    view_id = opened["view"]["id"]
    stack.slack.wait_for(lambda s: any(c.get("channel") == chan for c in s.calls_to("conversations.replies")), 10)
    stack.slack.type_into(view_id, "owner", "Storage team")
    stack.slack.release()
    stack.slack.wait_for(lambda s: next((v for v in s.views[before:] if v["action"] == "update"), None), 20)
    assert stack.slack.shown_value(view_id, "owner") == "Storage team"
    assert stack.slack.shown_value(view_id, "ticket") == key
    shown = {f: stack.slack.shown_value(view_id, f) for f in ("ticket", "owner", "fix_ref", "symptom")}
    response = stack.driver().view_submission(values=modal_values(shown), view_id=view_id)
    assert response.status_code == 200 and b"errors" not in response.content, response.text
    reply = stack.slack.wait_for(
        lambda s: next((m for m in s.messages(channel=chan, thread_ts=root) if key in m["text"]), None), 20
    )
    parent = next(m for m in stack.slack.messages(channel=chan) if not m.get("thread_ts") and key in m["text"])
    assert f"p{parent['ts'].replace('.', '')}" in reply["text"]  # the reply links the session's own thread


def test_a_channel_the_bot_cannot_read_prefills_from_jira_alone_and_runs_by_dm(stack: LocalStack) -> None:
    key, chan = unique("PAY"), channel()
    seed_issue(stack, key, code="OOM in evict()")
    root = stack.slack.say_as("U4", chan, f"{key} hangs:\n```\nsecret private trace\n```")
    stack.slack.say_as("U5", chan, f"fixed by <{COMMIT}>", thread_ts=root)
    stack.slack.make_unreadable(chan, "not_in_channel")
    view_id, view = shortcut_modal(stack, chan, root, user="U4")
    assert filled(view) == {"ticket": key, "owner": "Priya Raman", "fix_ref": PR, "symptom": "```\nOOM in evict()\n```"}
    assert hint(view, "symptom") == say("hint_symptom_jira", "en", ticket=key)
    assert say("prefill_no_channel", "en", error="not_in_channel") in status(view)
    assert json.loads(view["private_metadata"])["channel"] == "D4"
    values = modal_values({"ticket": key, "owner": "Priya Raman"})
    response = stack.driver().view_submission(values=values, view_id=view_id, user_id="U4")
    assert response.status_code == 200 and b"errors" not in response.content, response.text
    stack.slack.wait_for(lambda s: next((m for m in s.messages(channel="D4") if key in m["text"]), None), 20)
    assert stack.slack.messages(channel=chan) == []  # nothing posted where the bot cannot read


def test_jira_down_opens_with_what_slack_gave_and_says_why(stack: LocalStack) -> None:
    key, chan = unique("PAY"), channel()
    seed_issue(stack, key)
    _, chosen = seed_thread(stack, chan, key)
    stack.jira.inject("GET", f"/rest/api/3/issue/{key}", status=503, times=5)
    _, view = shortcut_modal(stack, chan, chosen)
    assert filled(view) == {"ticket": key, "fix_ref": COMMIT, "symptom": "```\nRuntimeError: cache evicted <3\n```"}
    assert hint(view, "fix_ref") == say("hint_fix_thread_one", "en")
    why = say("prefill_jira_down", "en")
    assert say("prefill_jira_failed", "en", ticket=key, why=why) in status(view)


def test_a_deleted_message_prefills_nothing(stack: LocalStack) -> None:
    key, chan = unique("PAY"), channel()
    seed_issue(stack, key)
    _, chosen = seed_thread(stack, chan, key)
    stack.slack.delete_message(chan, chosen)
    _, view = shortcut_modal(stack, chan, chosen)
    assert filled(view) == {}
    assert say("prefill_message_gone", "en") in status(view)


def test_the_start_button_in_a_debugging_thread_opens_the_same_prefilled_modal(stack: LocalStack) -> None:
    key, chan = unique("PAY"), channel()
    seed_issue(stack, key)
    root = stack.slack.say_as("U2", chan, f"{key} hangs:\n```\nRuntimeError: cache evicted\n```")
    stack.slack.say_as("U3", chan, f"fixed in {COMMIT}", thread_ts=root)
    assert stack.driver().app_mention("please write the post-mortem", channel=chan, thread_ts=root).status_code == 200
    button = stack.slack.wait_for(
        lambda s: next((m for m in s.messages(channel=chan, thread_ts=root) if start_value(m) is not None), None), 15
    )
    before = len(stack.slack.views)
    response = stack.driver().block_action(
        ACTION_START, json.dumps(start_value(button)), channel_id=chan, message_ts=button["ts"]
    )
    assert response.status_code == 200, response.text
    updated = stack.slack.wait_for(lambda s: next((v for v in s.views[before:] if v["action"] == "update"), None), 20)
    view = updated["view"]
    assert filled(view) == {
        "ticket": key,
        "owner": "Priya Raman",
        "fix_ref": f"{PR} {COMMIT}",
        "symptom": "```\nE42: checkpoint write timed out after 30s\n```\n\n```\nRuntimeError: cache evicted\n```",
    }
    assert hint(view, "ticket") == say("hint_ticket_thread", "en")
    assert hint(view, "symptom") == say("hint_symptom_both_parent", "en", ticket=key)


def test_the_offer_under_a_channel_message_opens_the_modal_prefilled_from_that_message(stack: LocalStack) -> None:
    key, chan = unique("PAY"), channel()
    seed_issue(stack, key)
    text = f"merged the fix for {key} and the repro passes"
    root = stack.slack.say_as("U5", chan, f"{text}: {PR}")
    stack.slack.say_as("U3", chan, f"also <{COMMIT}>", thread_ts=root)
    assert stack.driver().message(text, user="U5", channel=chan, ts=root).status_code == 200
    offer = stack.slack.wait_for(
        lambda s: next((m for m in s.ephemerals(channel=chan) if start_value(m) is not None), None), 15
    )
    assert offer.get("thread_ts") is None and start_value(offer) == {
        "ticket": key,
        "channel": chan,
        "lang": "en",
        "ts": root,
    }
    before = len(stack.slack.views)
    box = {"type": "message", "message_ts": offer["ts"], "channel_id": chan, "is_ephemeral": True}
    clicked = stack.driver().block_action(
        ACTION_START, json.dumps(start_value(offer)), "U5", chan, offer["ts"], container=box
    )
    assert clicked.status_code == 200, clicked.text
    updated = stack.slack.wait_for(lambda s: next((v for v in s.views[before:] if v["action"] == "update"), None), 20)
    values = filled(updated["view"])
    assert (values["ticket"], values["fix_ref"]) == (key, f"{PR} {COMMIT}")
    # a button posted before the value carried the ts: the plain modal, nothing read
    old = {k: v for k, v in (start_value(offer) or {}).items() if k != "ts"}
    before = len(stack.slack.views)
    clicked = stack.driver().block_action(ACTION_START, json.dumps(old), "U5", chan, offer["ts"], container=box)
    assert clicked.status_code == 200, clicked.text
    opened = stack.slack.wait_for(lambda s: s.views[-1] if len(s.views) > before else None, 10)
    assert opened["action"] == "open" and STATUS_BLOCK not in {b.get("block_id") for b in opened["view"]["blocks"]}


def test_a_long_thread_is_read_up_to_the_bound_and_says_so(stack: LocalStack) -> None:
    key, chan = unique("PAY"), channel()
    seed_issue(stack, key)
    root = stack.slack.say_as("U2", chan, f"{key}: the trainer hangs")
    for i in range(250):
        stack.slack.say_as("U3", chan, f"shard {i} looks fine", thread_ts=root)
    late = stack.slack.say_as("U3", chan, f"merged <{COMMIT}>:\n```\nfixed trace\n```", thread_ts=root)
    _, view = shortcut_modal(stack, chan, late)
    assert say("prefill_bounded", "en", n=200, kb=0, max_n=200).split(":")[0] in status(view)
    assert "200" in status(view) and filled(view)["ticket"] == key
    assert filled(view)["symptom"].endswith("```\nfixed trace\n```")  # the chosen message is read past the bound
    assert filled(view)["fix_ref"] == f"{PR} {COMMIT}"  # the chosen message's link, past the bound, counts
