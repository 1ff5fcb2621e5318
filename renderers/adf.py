"""Markdown to Atlassian Document Format, built as data from pulldown-cmark events, valid against the ADF schema.

The input rules (what the parser reads; link targets refused, whose Markdown then stays text) are in
renderers/adf_input.py, the walk of the parser's events in renderers/adf_build.py, the schema's rules for
assembling nodes in renderers/adf_nodes.py. Choices here
(kept consistent so the output is predictable):
- a soft line break is a `hardBreak`: people type line breaks in Slack and expect to see them in Jira;
- inline code keeps only the `code` mark, plus `link` when it sits in a link (the schema allows no other
  mark with `code`); bold/italic/strike around it are dropped for that piece, its text never is;
- HTML (blocks and inline) becomes plain text; images become their alt text linked to the image URL;
- a link's text is shown as written: an autolink's URL keeps its %-escapes, `[](url)` shows the URL as typed
  (the href is the encoded form);
- `~single tildes~` stay text (only `~~two~~` strike), as in CommonMark with the GFM strikethrough rule.
"""

from __future__ import annotations

from typing import Any

from postmortem.model import Lang, PostMortem
from renderers.adf_build import Builder
from renderers.adf_input import parser_source
from renderers.budget import gc_paused
from renderers.markdown import render_markdown
from renderers.references import keys_in, link_references


@gc_paused
def markdown_to_adf(md: str) -> dict[str, Any]:
    """Convert Markdown to an ADF document; deterministic, and schema-valid for any input."""
    return Builder().build(parser_source(md))


@gc_paused
def render_adf(
    pm: PostMortem, lang: Lang | None = None, *, jira_url: str | None = None, markdown: str | None = None
) -> dict[str, Any]:
    """The post-mortem as the ADF document posted to Jira: exactly the Markdown draft, converted.

    With the Jira site known, Jira keys and bare URLs become links (renderers/references.py). A caller that
    already rendered the Markdown (`render_markdown(pm, lang)`) passes it, so it is not rendered twice.
    """
    doc = markdown_to_adf(markdown if markdown is not None else render_markdown(pm, lang))
    if not jira_url:
        return doc
    keys = keys_in([pm.fix_ref, *(item.tracking for item in pm.action_items)])
    return link_references(doc, jira_url=jira_url, project=pm.ticket.partition("-")[0], keys=keys)
