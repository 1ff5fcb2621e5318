"""`serve` is the Slack app only: its import path leaves out the Jira client, the jobs and the test tools."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.unit

ROOT = Path(__file__).resolve().parents[2]

#: Top-level packages the serve process must never load (the worker's, and the demo's and tests').
NOT_IN_SERVE = ("atlassian", "fakeredis", "jsonschema_rs", "lupa", "workers.jobs", "workers.jira_gateway")


def modules_after(code: str) -> set[str]:
    """The modules a fresh interpreter has loaded after running `code`."""
    script = f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"
    out = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True, timeout=60
    )
    return set(json.loads(out.stdout.splitlines()[-1]))


def test_the_serve_path_does_not_import_the_jira_client() -> None:
    loaded = modules_after("import bot.cli, bot.run, bot.app")
    assert "bot.run" in loaded and "slack_bolt" in loaded  # the serve path itself did load
    leaked = sorted(m for m in loaded if m.split(".")[0] in NOT_IN_SERVE or m in NOT_IN_SERVE)
    assert leaked == []


def test_the_worker_path_does_import_it() -> None:
    loaded = modules_after("import bot.worker")
    assert "atlassian" in loaded and "workers.jobs" in loaded
