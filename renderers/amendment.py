"""What an amendment shows (pure): the Markdown diff of version N+1 against the posted version, in a code block of
bounded size, and the Amend button under the posted record's link (DESIGN §4 "Amendment")."""

from __future__ import annotations

import difflib
from typing import Any

from postmortem.messages import say
from postmortem.model import Lang
from renderers import prompts
from renderers.mrkdwn import escape_mrkdwn

#: The Amend button's action id (its value is the session id, as for Edit).
ACTION_AMEND = "postmortem_amend"
#: Characters of diff shown in the thread: one section block stays under Slack's 3,000 with the header.
DIFF_LIMIT = 2400
#: Lines of context around each change.
CONTEXT_LINES = 2
#: A zero-width space: keeps a fence inside the diff from closing the code block it is shown in.
_ZWSP = "\u200b"


def markdown_diff(
    old: str, new: str, *, old_version: int, new_version: int, limit: int = DIFF_LIMIT
) -> tuple[str, int]:
    """The unified diff of two Markdown texts, cut at a line end to at most `limit` characters: (text, lines left out).
    Empty when the texts are the same."""
    lines = list(
        difflib.unified_diff(
            old.split("\n"),  # not splitlines(): a typed U+2028 is no line break in the Markdown
            new.split("\n"),
            fromfile=f"v{old_version}",
            tofile=f"v{new_version}",
            lineterm="",
            n=CONTEXT_LINES,
        )
    )
    shown: list[str] = []
    size = 0
    for line in lines:
        if size + len(line) + 1 > limit:
            break
        shown.append(line)
        size += len(line) + 1
    return "\n".join(shown), len(lines) - len(shown)


def diff_message(
    old: str | None, new: str, *, posted: int, version: int, ticket: str, comment: str, lang: Lang
) -> dict[str, Any]:
    """The thread message: what changes, how the approval applies it, and the diff as a code block."""
    params = {"posted": posted, "version": version}
    if old is None:  # a session posted before its Markdown was kept
        return prompts.notice("amend_diff_missing", lang, **params)
    header = prompts.notice("amend_diff", lang, ticket=ticket, comment=comment, **params)["text"]
    diff, left_out = markdown_diff(old, new, old_version=posted, new_version=version)
    if not diff:
        text = header + "\n" + prompts.notice("amend_no_change", lang, **params)["text"]
    else:
        fenced = escape_mrkdwn(diff).replace("```", "`" + _ZWSP + "``")
        text = f"{header}\n```\n{fenced}\n```"
        if left_out:
            text += "\n" + prompts.notice("amend_diff_cut", lang, lines=left_out)["text"]
    # `verbatim`: the diff is the person's text; Slack links and parses nothing in it by itself.
    return {"text": text, "blocks": [{"type": "section", "text": {"type": "mrkdwn", "text": text, "verbatim": True}}]}


def with_amend_button(message: dict[str, Any], session_id: str, lang: Lang) -> dict[str, Any]:
    """The posted (or amended) record's link with the Amend button under it."""
    button = {
        "type": "button",
        "text": {"type": "plain_text", "text": say("button_amend", lang)},
        "action_id": ACTION_AMEND,
        "value": session_id,
    }
    return {"text": message["text"], "blocks": [*message["blocks"], {"type": "actions", "elements": [button]}]}


def amend_question(question: dict[str, Any], *, ticket: str, version: int, lang: Lang) -> dict[str, Any]:
    """The approval question of an amendment: the same buttons (Edit, Cancel: which gives up the amendment), and
    words that say the approval replaces the text of the comment instead of posting one."""
    text = prompts.notice("amend_question", lang, ticket=ticket, version=version)["text"]
    section = {"type": "section", "text": {"type": "mrkdwn", "text": text}}
    return {"text": text, "blocks": [section, *question["blocks"][1:]]}
