"""A person's post-mortems as Slack data: the App Home view, the `/post-mortem list` answer and the help.

Pure: sessions and thread links in, Block Kit out. Rows carry Edit / Cancel only where the state allows
them; the buttons are the thread's own (same action ids, value = session id), so a click goes through
the same checks as in the thread.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from postmortem.messages import say
from postmortem.model import Lang
from renderers.mrkdwn import escape_mrkdwn, escape_own
from renderers.prompts import ACTION_CANCEL, ACTION_EDIT
from sessions.session import CANCELLABLE_STATES, FINAL_STATES, Session, State, editable

Message = dict[str, Any]
View = dict[str, Any]

#: At most this many of a person's own sessions are shown (DESIGN §4), and as many awaiting approval.
MAX_ROWS = 20

#: Thread links by session id (chat.getPermalink, resolved by the caller; a missing one shows no link).
Links = Mapping[str, str]


def state_label(session: Session, lang: Lang) -> str:
    """The session's state in words ("amended (v3)" once an amendment replaced the posted text)."""
    if session.state is State.posted and session.amendments:
        return say("state_amended", lang, version=session.approved_version or session.version)
    return say(f"state_{session.state.value}", lang)


def row_text(session: Session, links: Links, lang: Lang, *, with_requester: bool = False) -> str:
    """One line: ticket, state, version and the thread link."""
    url = links.get(session.id)
    link = " · " + say("thread_link", lang, url=url) if url else ""
    key = "list_row_requester" if with_requester else "list_row"
    return say(
        key,
        lang,
        ticket=escape_mrkdwn(session.ticket),
        state=state_label(session, lang),
        version=session.version,
        link=link,
        requester=session.requester,
    )


def home_order(sessions: Sequence[Session]) -> tuple[list[Session], list[Session]]:
    """Open sessions, then the posted ones, each newest first; at most MAX_ROWS in all."""
    newest = sorted(sessions, key=lambda s: s.created_at, reverse=True)
    open_ = [s for s in newest if s.state not in FINAL_STATES][:MAX_ROWS]
    posted = [s for s in newest if s.state is State.posted][: MAX_ROWS - len(open_)]
    return open_, posted


def _section(text: str) -> dict[str, Any]:
    return {"type": "section", "text": {"type": "mrkdwn", "text": text[:3000]}}


def _header(text: str) -> dict[str, Any]:
    return {"type": "header", "text": {"type": "plain_text", "text": text[:150]}}


def _buttons(session: Session, lang: Lang, block_id: str) -> list[dict[str, Any]]:
    elements = []
    if editable(session):
        elements.append(
            {
                "type": "button",
                "action_id": ACTION_EDIT,
                "value": session.id,
                "text": {"type": "plain_text", "text": say("button_edit", lang)},
            }
        )
    if session.state in CANCELLABLE_STATES:
        elements.append(
            {
                "type": "button",
                "action_id": ACTION_CANCEL,
                "value": session.id,
                "style": "danger",
                "text": {"type": "plain_text", "text": say("button_cancel", lang)},
            }
        )
    return [{"type": "actions", "block_id": block_id, "elements": elements}] if elements else []


def _rows(
    sessions: Sequence[Session], links: Links, lang: Lang, *, prefix: str, with_requester: bool = False
) -> list[dict[str, Any]]:
    blocks: list[dict[str, Any]] = []
    for session in sessions:
        blocks.append(_section(row_text(session, links, lang, with_requester=with_requester)))
        blocks += _buttons(session, lang, f"{prefix}_{session.id}")
    return blocks


def home_view(user: str, own: Sequence[Session], awaiting: Sequence[Session], links: Links, lang: Lang) -> View:
    """The Home tab of `user`: their sessions (never anyone else's), and for an approver the drafts awaiting
    approval. `awaiting` is empty unless the caller checked that `user` is an approver."""
    mine = [s for s in own if s.requester == user]
    open_, posted = home_order(mine)
    blocks: list[dict[str, Any]] = [_header(say("home_title", lang))]
    if open_:
        blocks += [_header(say("home_open", lang)), *_rows(open_, links, lang, prefix="own")]
    else:
        blocks.append(_section(say("home_empty", lang)))
    if posted:
        blocks += [_header(say("home_posted", lang)), *_rows(posted, links, lang, prefix="own")]
    others = [s for s in awaiting if s.requester != user and s.state is State.drafted][:MAX_ROWS]
    if others:
        blocks += [
            {"type": "divider"},
            _header(say("home_awaiting", lang)),
            *_rows(others, links, lang, prefix="await", with_requester=True),
        ]
    return {"type": "home", "blocks": blocks}


def list_message(user: str, sessions: Sequence[Session], links: Links, lang: Lang) -> Message:
    """The ephemeral answer to `/post-mortem list`: the caller's sessions, newest first."""
    mine = sorted((s for s in sessions if s.requester == user), key=lambda s: s.created_at, reverse=True)
    if not mine:
        text = say("list_empty", lang)
        return {"response_type": "ephemeral", "text": text, "blocks": [_section(text)]}
    lines = [f"• {row_text(s, links, lang)}" for s in mine[:MAX_ROWS]]
    text = "\n".join([say("list_header", lang), *lines])
    blocks = [_section(say("list_header", lang)), *(_section(line) for line in lines)]
    if len(mine) > MAX_ROWS:
        blocks.append(_section(say("home_more", lang, count=MAX_ROWS)))
    return {"response_type": "ephemeral", "text": text, "blocks": blocks}


def help_message(lang: Lang) -> Message:
    """The ephemeral answer to `/post-mortem help`: the flow, the inputs, the approval words, the ways in."""
    text = escape_own(say("help_text", lang))
    return {"response_type": "ephemeral", "text": text, "blocks": [_section(text)]}
