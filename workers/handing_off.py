"""The hand-off to a leadership-toned rewrite: offered after the post, run only on a person's click
(DESIGN §4); the job `workers.jobs.handoff` calls `request`."""

from __future__ import annotations

from renderers import prompts
from renderers.markdown import render_markdown
from sessions.claims import HANDOFF_ONCE_SECONDS, handoff_claim
from sessions.conversation import model_of
from sessions.retention import job_options
from sessions.session import State
from workers.context import WorkerContext


def request(ctx: WorkerContext, session_id: str, user: str) -> None:
    """Put the leadership-rewrite job on the management-talk queue, once, for a posted (or delivered) draft."""
    session = ctx.store.get(session_id)
    output_only = (
        session is not None
        and session.state is State.drafted
        and session.inputs.get("destination", "jira_comment") != "jira_comment"
    )
    # Posted (or posting, its link already shown), or an output-only draft delivered to the thread.
    if session is None or not (session.comment_url is not None or output_only):
        return
    if not ctx.store.claim_once(handoff_claim(session_id), HANDOFF_ONCE_SECONDS):
        return
    pm = model_of(session)
    payload = {
        "kind": "postmortem",
        "schema": 1,
        "ticket": session.ticket,
        "session": session.id,
        "version": session.approved_version or session.version,
        "lang": session.lang,
        "markdown": render_markdown(pm),
        "comment_url": session.comment_url,
        "requested_by": user,
        "channel": session.channel,
        "thread_ts": session.thread_ts,
    }
    job = ctx.handoff_queue.enqueue("management_talk.rewrite", payload, **job_options())
    ctx.say(session, prompts.notice("handed_off", session.lang, job_id=job.id))
