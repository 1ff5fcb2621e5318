"""Keys are whole keys wherever one enters (modal, thread, mention, webhook, CLI, file names): `NL-1\\n` never
reaches a Jira URL or a file name (a `$` anchor with `re.match` accepts a trailing newline)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from pydantic import ValidationError

from bot.cli import main
from handlers.jira_webhook import JiraEvent
from handlers.mentions import StartValue
from postmortem.fieldtext import ticket_from_text
from postmortem.model import TICKET_RE, InputError, is_ticket, parse_postmortem
from rules.triggers import jira_keys
from sessions.session import Session
from workers import offers

pytestmark = pytest.mark.unit

BAD = ["NL-1\n", "NL-1\r\n", "\nNL-1", "NL-1\nX", "NL-1 ", "nl-1\n"]


def test_match_with_a_dollar_anchor_is_the_trap() -> None:
    assert TICKET_RE.match("NL-1\n") is not None  # why `is_ticket` (fullmatch) is used everywhere
    assert not is_ticket("NL-1\n") and is_ticket("NL-1")


@pytest.mark.parametrize("key", BAD)
def test_no_entry_point_accepts_a_key_with_more_around_it(key: str) -> None:
    assert not is_ticket(key)
    assert StartValue.model_validate({"ticket": key}).ticket is None  # the Start button (mention, offer)
    assert offers._ticket(key) is None  # the offer jobs
    with pytest.raises(ValidationError):  # the session names Jira URLs and file names
        Session(ticket=key, requester="U1", channel="C1")
    with pytest.raises(ValidationError):  # Jira's webhook
        JiraEvent.model_validate({"webhookEvent": "jira:issue_updated", "issue": {"key": key}})


@pytest.mark.parametrize("typed", ["`NL-1\n`", "<NL-1\n>", "NL-1\nNL-2", "https://x.atlassian.net/browse/NL-1\n2"])
def test_a_typed_answer_in_the_thread_or_modal_is_a_whole_key(typed: str) -> None:
    try:
        key = ticket_from_text(typed)
    except InputError:
        return
    assert is_ticket(key), repr(key)


def test_whitespace_around_a_typed_key_is_trimmed_to_the_key() -> None:
    assert parse_postmortem({"ticket": "NL-1\n"}).ticket == "NL-1"
    assert ticket_from_text(" nl-1\n") == "NL-1"


def test_a_mention_reads_only_the_key() -> None:
    assert jira_keys("see NL-1\nthanks") == ["NL-1"]


def test_the_cli_refuses_a_key_with_a_newline_inside(tmp_path: Path) -> None:
    path = tmp_path / "in.json"
    path.write_text(json.dumps({"ticket": "NL-1\nEVIL-2"}), encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    assert main(["draft", str(path)], out=out, err=err) == 2
    assert "ticket" in err.getvalue() and out.getvalue() == ""
