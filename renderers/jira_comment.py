"""The comment request for the Jira the bot posts to: the v3 ADF body on Cloud, the v2 wiki-markup body on Data Center.

Both carry the same two properties and the configured visibility, and both are refused over 32,767 characters
before anyone is asked to approve them (CommentTooLong); the bytes returned are the bytes shown and posted.
"""

from __future__ import annotations

from typing import Any

from renderers.jira import JiraRequest, jira_request
from renderers.wiki import adf_to_wiki, wiki_request


def comment_request(
    adf: dict[str, Any], *, deployment: str, session: str, version: int, visible_to: str | None = None
) -> JiraRequest:
    """The POST body for the deployment's `issue/{ticket}/comment` (`datacenter` or `cloud`)."""
    if deployment == "datacenter":
        return wiki_request(adf_to_wiki(adf), session=session, version=version, visible_to=visible_to)
    return jira_request(adf, session=session, version=version, visible_to=visible_to)
