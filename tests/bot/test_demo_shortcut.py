"""`postmortem-bot demo --from-thread`: the run starts with the message shortcut in a seeded debugging thread, shows
each prefilled input with its source, and ends with one comment whose last paragraph links the debugging thread."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from bot.cli import main
from bot.demo import run_demo
from postmortem.messages import say
from renderers.prefill import PREFILLED

pytestmark = pytest.mark.e2e


def test_the_demo_from_a_thread_shows_the_prefilled_fields_and_links_the_debugging_thread(tmp_path: Path) -> None:
    lines: list[str] = []
    result = run_demo(None, lang="en", environ={}, out_dir=tmp_path / "out", emit=lines.append, from_thread=True)
    assert result.code == 0, result.message + "\n" + "\n".join(lines)
    prefilled = {e.key: e.text for e in result.events if e.kind == "prefill" and e.key in PREFILLED}
    assert set(prefilled) == PREFILLED
    assert prefilled["fix_ref"] == "https://github.com/example/app/pull/1"
    ticket = result.ticket
    assert any(say("hint_owner", "en", ticket=ticket) in line for line in lines)
    assert result.jira is not None
    (comment,) = result.jira.comments(ticket)
    last = json.dumps(comment.body["content"][-1])
    assert say("jira_debug_thread", "en") in last and "p1700000000000100" in last  # the debugging thread's root


def test_the_command_line_takes_from_thread(tmp_path: Path) -> None:
    out, err = io.StringIO(), io.StringIO()
    code = main(["demo", "--from-thread", "--lang", "ja", "--out", str(tmp_path / "out")], out=out, err=err)
    assert code == 0, err.getvalue()
    assert say("hint_owner", "ja", ticket="JIRA-12345") in out.getvalue()
