"""Follow-up issues (DESIGN §4): which action items become Jira issues, the visible slot each new key goes in, and
the exact create request of each issue (pure: no Jira call, no clock).

The comment is rendered from the post-mortem with each `tracking: new` replaced by its slot ("⟨new issue 1⟩"), so
the renderers need not know about follow-ups. At post time the slots are filled: in the request body shown for
approval, each slot's JSON text is replaced by the new key, and nothing else changes (`fill`).

Create bodies are serialised with `json.dumps` defaults, as the HTTP client sends them (renderers/jira.py says why):
the bytes shown are the bytes sent.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from postmortem.messages import say
from postmortem.model import ActionItem, Lang, PostMortem
from renderers.jira import PROPERTY_KEY
from renderers.links import is_safe_href
from renderers.wiki import adf_to_wiki
from sessions.followup_keys import is_new

__all__ = [
    "SUMMARY_LIMIT",
    "NewIssue",
    "SlotError",
    "create_request",
    "fill",
    "is_new",
    "label_of",
    "new_items",
    "project_of",
    "slot_counts",
    "slotted",
]

#: Jira's limit on an issue summary, in characters.
SUMMARY_LIMIT = 255


class SlotError(ValueError):
    """A slot is not exactly once in the body shown: filling it would change more (or less) than the slot."""


@dataclass(frozen=True)
class NewIssue:
    """One action item that becomes a Jira issue: its position (1-based) among the action items, its ordinal among
    the new ones (the slot's number), the slot text shown in the comment, and the create request body."""

    item: int
    n: int
    slot: str
    summary: str
    body: bytes


def new_items(pm: PostMortem, made: Mapping[str, str] | None = None) -> list[tuple[int, int]]:
    """(item position, new-issue ordinal) of each action item marked new, both 1-based, in order; an item whose text
    is a key of `made` (what → key: issues an earlier version of the session created) is not new any more."""
    made = made or {}
    positions = [
        i for i, item in enumerate(pm.action_items, start=1) if is_new(item.tracking) and item.what not in made
    ]
    return [(item, n) for n, item in enumerate(positions, start=1)]


def project_of(ticket: str) -> str:
    """The project key of an issue key (`PAY-12` → `PAY`)."""
    return ticket.rpartition("-")[0]


def label_of(session: str) -> str:
    """The label every follow-up issue of a session carries (what the search before a retry looks for)."""
    return f"postmortem-{session}"


def slot_text(n: int, lang: Lang) -> str:
    """The visible place of new issue `n`'s key in the comment."""
    return say("followup_slot", lang, n=n)


def slotted(pm: PostMortem, made: Mapping[str, str] | None = None) -> PostMortem:
    """The post-mortem as the comment shows it before approval: each `tracking: new` is its slot, or the key of the
    issue an earlier version already made for the same item text (`made`: what → key; never made twice)."""
    made = made or {}
    new = dict(new_items(pm, made))
    if not new and not any(is_new(item.tracking) for item in pm.action_items):
        return pm

    def shown(i: int, item: ActionItem) -> ActionItem:
        if i in new:
            return item.model_copy(update={"tracking": slot_text(new[i], pm.lang)})
        if is_new(item.tracking) and item.what in made:
            return item.model_copy(update={"tracking": made[item.what]})
        return item

    items = [shown(i, item) for i, item in enumerate(pm.action_items, start=1)]
    return pm.model_copy(update={"action_items": tuple(items)})


def create_request(
    pm: PostMortem,
    *,
    session: str,
    version: int,
    issue_type: str,
    deployment: str,
    jira_url: str | None = None,
    assignees: Mapping[int, dict[str, str]] | None = None,
    made: Mapping[str, str] | None = None,
) -> list[NewIssue]:
    """The `POST {root}/issue` body of each new issue, in order: the ticket's project, `issue_type`, the item as its
    summary, a description with the item and a link to the ticket (ADF on Cloud, wiki markup on Data Center), the
    session's label and the `postmortem-bot` property; `assignees` (item → Jira's assignee object) when known."""
    found = []
    for item, n in new_items(pm, made):
        action = pm.action_items[item - 1]
        description: Any = _description(pm, action.what, action.owner, jira_url)
        if deployment == "datacenter":
            description = adf_to_wiki(description)
        fields: dict[str, Any] = {
            "project": {"key": project_of(pm.ticket)},
            "issuetype": {"name": issue_type},
            "summary": action.what,
            "description": description,
            "labels": [label_of(session)],
        }
        if assignees and item in assignees:
            fields["assignee"] = dict(assignees[item])
        request = {
            "fields": fields,
            "properties": [{"key": PROPERTY_KEY, "value": {"session": session, "version": version, "item": item}}],
        }
        found.append(NewIssue(item, n, slot_text(n, pm.lang), action.what, json.dumps(request).encode()))
    return found


def _description(pm: PostMortem, what: str, owner: str | None, jira_url: str | None) -> dict[str, Any]:
    """The item as typed, its owner, and where it came from (the ticket, linked when the site is known)."""
    lang = pm.lang
    content: list[dict[str, Any]] = [_paragraph({"type": "text", "text": what})]
    if owner:
        content.append(_paragraph({"type": "text", "text": say("followup_owner", lang, owner=owner)}))
    before, _, after = say("followup_from", lang, ticket="{ticket}").partition("{ticket}")
    ticket: dict[str, Any] = {"type": "text", "text": pm.ticket}
    href = f"{jira_url.rstrip('/')}/browse/{pm.ticket}" if jira_url else None
    if href and is_safe_href(href):
        ticket["marks"] = [{"type": "link", "attrs": {"href": href}}]
    parts = [{"type": "text", "text": before}, ticket, {"type": "text", "text": after}]
    content.append(_paragraph(*(p for p in parts if p["text"])))
    return {"type": "doc", "version": 1, "content": content}


def _paragraph(*nodes: dict[str, Any]) -> dict[str, Any]:
    return {"type": "paragraph", "content": list(nodes)}


def _in_json(text: str) -> bytes:
    """How a string appears inside a body serialised with `json.dumps` defaults (without its quotes)."""
    return json.dumps(text)[1:-1].encode()


def slot_counts(body: bytes, slots: list[str]) -> dict[str, int]:
    """How many times each slot occurs in a request body (each must occur exactly once to be filled)."""
    return {slot: body.count(_in_json(slot)) for slot in slots}


def fill(body: bytes, keys: Mapping[str, str]) -> bytes:
    """The body shown with exactly its slots filled (slot → issue key); SlotError if a slot is not there once."""
    for slot, count in slot_counts(body, list(keys)).items():
        if count != 1:
            raise SlotError(f"{slot!r} occurs {count} times in the body shown")
    for slot, key in keys.items():
        body = body.replace(_in_json(slot), _in_json(key))
    return body
