"""The three renderings of a draft made under one time budget, for the worker: a render that runs out of time
fails with a plain sentence naming the field, and the worker goes on to its next job.

The renderers are linear in their input (tests/renderers/test_bounds.py holds them to it); the budget is the
watchdog for an input nobody thought of (renderers/budget.py says why it is a deadline the loops check).
"""

from __future__ import annotations

__all__ = ["RENDER_BUDGET_SECONDS", "Draft", "RenderTooSlow", "render_draft", "too_slow_text"]

from dataclasses import dataclass
from typing import Any

from postmortem.messages import field_label, say
from postmortem.model import TEXT_FIELDS, Lang, PostMortem
from renderers.adf import render_adf
from renderers.budget import RenderTooSlow, gc_paused, naming, render_budget
from renderers.markdown import render_markdown
from renderers.slack import render_slack

#: CPU seconds a draft may take to render: 100 kB in every field takes well under one.
RENDER_BUDGET_SECONDS = 10.0


@dataclass(frozen=True)
class Draft:
    """A draft as the worker shows and stores it: the Markdown, the ADF made from it, the Slack preview."""

    markdown: str
    adf: dict[str, Any]
    slack: list[dict[str, Any]]


@gc_paused  # the collector would walk the Markdown's and the ADF's objects between the three renders
def render_draft(pm: PostMortem, *, jira_url: str | None = None, seconds: float = RENDER_BUDGET_SECONDS) -> Draft:
    """Markdown, ADF and Slack preview within `seconds` of CPU, else RenderTooSlow naming a field."""
    texts = dict(_texts(pm))
    with render_budget(seconds), naming({text: path for path, text in reversed(texts.items()) if text}):
        try:
            markdown = render_markdown(pm)
            adf = render_adf(pm, jira_url=jira_url, markdown=markdown)  # the Slack preview is made from it too
            return Draft(markdown, adf, render_slack(pm, adf=adf))
        except RenderTooSlow as exc:
            if exc.field is None:  # past the text rule, in the whole document: name the longest field
                exc.field = max(texts, key=lambda path: len(texts[path] or ""), default=None)
            raise


def too_slow_text(exc: RenderTooSlow, lang: Lang) -> str:
    """The plain sentence for the thread, naming the field by its label."""
    name, _, rest = (exc.field or "").partition(".")
    label = field_label(name, lang) if name else say("render_too_slow_document", lang)
    if rest:  # an action item: its number too
        label = f"{label} {int(rest.partition('.')[0]) + 1}"
    return say("render_too_slow", lang, field=label, seconds=exc.seconds)


def _texts(pm: PostMortem) -> list[tuple[str, str | None]]:
    """Each text of the post-mortem by its DESIGN §2 path."""
    found: list[tuple[str, str | None]] = [(name, pm.text(name)) for name in TEXT_FIELDS]
    for n, item in enumerate(pm.action_items):
        found += [(f"action_items.{n}.{part}", getattr(item, part)) for part in ("what", "owner", "tracking")]
    return found
