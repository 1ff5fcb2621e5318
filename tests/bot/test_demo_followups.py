"""`demo --input` with a `tracking: new` item: the issue is created before the comment, which names its key."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
import redis

from bot.demo import run_demo
from bot.localstack import JIRA_DEPLOYMENTS
from tests.helpers import EXAMPLES

pytestmark = pytest.mark.e2e

DEMO_REDIS_URL = os.environ.get("DEMO_REDIS_URL", "redis://127.0.0.1:6379/12")


@pytest.mark.parametrize("jira", JIRA_DEPLOYMENTS)
def test_the_demo_shows_the_created_key_in_the_posted_comment(tmp_path: Path, jira: str) -> None:
    redis.Redis.from_url(DEMO_REDIS_URL).flushdb()  # the demo's own database: a fresh run
    lines: list[str] = []
    result = run_demo(
        EXAMPLES / "followup-issue.en.yaml",
        environ={"REDIS_URL": DEMO_REDIS_URL},
        out_dir=tmp_path / "out",
        emit=lines.append,
        jira=jira,
    )
    assert result.code == 0, result.message + "\n" + "\n".join(lines)
    assert result.jira is not None
    [issue] = result.jira.followups.created.values()
    assert issue.fields["summary"] == "Run the storage suite on a 128 GiB cache runner in CI"
    assert f"[jira] follow-up issue {issue.key}: {issue.fields['summary']}" in lines
    [comment] = result.comments()
    assert issue.key in json.dumps(comment.body) and "new issue 1" not in json.dumps(comment.body)
    events = [e.key for e in result.events]
    assert events.index("followup_bodies_shown") < events.index("body_shown") < events.index("followups_created")
    assert events.index("followups_created") < events.index("posted")
