"""`postmortem-bot demo --from-thread`: the run starts where the debugging happened. A debugging thread and its Jira
issue are seeded on the emulators, the requester uses the message shortcut on a message of the thread, and the
transcript shows the modal opened at once, then each prefilled input with the source its hint names.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.demo_transcript import Event
from bot.localstack import LocalStack
from postmortem.model import PostMortem
from renderers.prefill import PREFILLED, STATUS_BLOCK
from rules.prefill import is_fix_url

#: The people of the seeded debugging thread.
REPORTER, HELPER = "UDEMO02", "UDEMO03"
#: Each step waits this long for the bot at most.
STEP_TIMEOUT_SECONDS = 60.0


def seed(stack: LocalStack, pm: PostMortem, channel: str, requester: str) -> str:
    """The issue (assignee, a code block in its description, the fix as a remote link) and the debugging thread;
    the ts of the requester's message the shortcut is used on."""
    ticket = pm.ticket
    stack.jira.add_user("acc-demo-owner", display_name=pm.owner or "Demo Owner")
    stack.jira.add_issue(ticket, summary="The bug this post-mortem is about", assignee_account_id="acc-demo-owner")
    observed = (pm.symptom or "").strip().splitlines()[:3] or ["(no symptom in the input)"]
    stack.jira.issue_reads.describe(ticket, [("p", "Seen in CI."), ("code", f"$ run-repro {ticket}\nexit status 124")])
    fix = pm.fix_ref if pm.fix_ref and is_fix_url(pm.fix_ref) else "https://github.com/example/app/pull/1"
    stack.jira.issue_reads.add_remote_link(ticket, fix, "The fix")
    root = stack.slack.say_as(REPORTER, channel, f"{ticket}: looking into this one")
    stack.slack.say_as(
        HELPER, channel, "dashboards: https://grafana.example.com/d/demo (not a fix link)", thread_ts=root
    )
    return stack.slack.say_as(requester, channel, "what we saw:\n```\n" + "\n".join(observed) + "\n```", thread_ts=root)


def from_thread(
    stack: LocalStack, pm: PostMortem, *, channel: str, requester: str, say: Callable[[Event, str], None]
) -> None:
    """Seed, use the shortcut, and narrate the modal as opened and as prefilled."""
    chosen = seed(stack, pm, channel, requester)
    say(
        Event("command", "shortcut", pm.ticket),
        f"[slack] @requester → message shortcut “Write a post-mortem” on {chosen}",
    )
    before = len(stack.slack.views)
    response = stack.driver().message_shortcut(chosen, channel_id=channel, user_id=requester)
    if response.status_code != 200:
        raise RuntimeError(f"the shortcut was refused: {response.status_code} {response.text}")
    stack.slack.wait_for(lambda s: len(s.views) > before, STEP_TIMEOUT_SECONDS)
    say(Event("modal", "opened"), "[slack] bot → views.open at once: the modal, empty, “Reading this thread…”")
    update: dict[str, Any] = stack.slack.wait_for(
        lambda s: next((v for v in s.views[before:] if v["action"] == "update"), None), STEP_TIMEOUT_SECONDS
    )
    view = update["view"]
    say(Event("modal", "prefilled"), "[slack] bot → views.update (the view's hash): prefilled, each with its source")
    for block in view["blocks"]:
        if block.get("type") == "input" and block["block_id"] in PREFILLED and "initial_value" in block["element"]:
            value = block["element"]["initial_value"].replace("\n", " ⏎ ")
            say(
                Event("prefill", block["block_id"], value),
                f"    {block['block_id']}: {value}  — {block['hint']['text']}",
            )
    status = next(b for b in view["blocks"] if b.get("block_id") == STATUS_BLOCK)["elements"][0]["text"]
    for line in status.split("\n"):
        say(Event("prefill", "status", line), f"    ({line})")
