"""Atlassian's ADF validator through node: it refuses link targets our renderers keep as text; a batch is one call."""

from __future__ import annotations

from typing import Any

import pytest

from emulators import jira_cloud
from emulators.adf_atlaskit import atlaskit_validator
from emulators.adf_schema import AdfInvalid, validate_adf

pytestmark = pytest.mark.unit


def linked(href: str) -> dict[str, Any]:
    mark = {"type": "link", "attrs": {"href": href}}
    return {
        "version": 1,
        "type": "doc",
        "content": [{"type": "paragraph", "content": [{"type": "text", "text": "PR 412", "marks": [mark]}]}],
    }


#: The link targets Atlassian's validator refused in 55 of 3,392 rendered documents.
REFUSED = ["docs/runbook.md", "412", "data:image/png;base64,AAAA", "vscode://file/x", "intent:#Intent;end"]


@pytest.mark.parametrize("href", REFUSED)
def test_atlassian_refuses_links_the_schema_allows(href: str) -> None:
    validate_adf(linked(href))  # the JSON schema alone lets them through
    with pytest.raises(AdfInvalid, match="Atlassian's validator"):
        atlaskit_validator().validate(linked(href))


def test_a_batch_is_judged_document_by_document_in_order() -> None:
    docs = [linked("https://x.example/pr/412"), linked("412"), linked("mailto:a@b.example")] * 400
    verdicts = atlaskit_validator().verdicts(docs)
    assert len(verdicts) == 1200
    assert verdicts[:3] == [None, verdicts[1], None] and verdicts[1] is not None
    assert verdicts[3:] == verdicts[:3] * 399


def test_the_jira_emulator_says_once_when_node_is_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(jira_cloud, "optional_atlaskit_validator", lambda: (None, "node is not installed"))
    jira = jira_cloud.JiraEmulator()
    jira.start()
    try:
        assert jira.validator_note == (
            "Jira emulator: Atlassian's ADF validator skipped (node is not installed); "
            "comments are checked by the ADF JSON schema only."
        )
    finally:
        jira.stop()
