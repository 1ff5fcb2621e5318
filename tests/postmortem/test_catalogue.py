"""One catalogue of what the bot says: the same placeholders (with their formats) in both languages, and the
sentences that once reached Japanese threads in English now follow the session's language."""

from __future__ import annotations

import ast
import json
import re
import string
from pathlib import Path

import pytest
import redis
import requests

from emulators.driver import modal_values
from handlers import form
from handlers.deps import Deps
from postmortem import fieldtext, messages
from postmortem.model import InputError, Lang
from renderers.jira import CommentTooLong
from renderers.reminders import duration
from rules.gate import GATE_FIELDS
from sessions.session import Session
from sessions.store import SessionStore
from tests.handlers.fakes import FakeQueue
from workers.jira_errors import JiraError, error_for

pytestmark = pytest.mark.unit

#: Hiragana, katakana or CJK ideographs: the sentence is Japanese.
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def placeholders(template: str) -> list[tuple[str, str, str | None]]:
    return sorted((name, spec or "", conv) for _, name, spec, conv in string.Formatter().parse(template) if name)


@pytest.mark.parametrize("key", sorted(messages._CATALOGUE))
def test_both_languages_take_the_same_placeholders_formatted_the_same_way(key: str) -> None:
    entry = messages._CATALOGUE[key]
    assert set(entry) == {"en", "ja"} and all(entry.values())
    assert placeholders(entry["en"]) == placeholders(entry["ja"])


def test_the_answer_errors_come_from_the_catalogue() -> None:
    assert not hasattr(fieldtext, "_MESSAGES")
    with pytest.raises(InputError) as caught:
        fieldtext.updates_from_text("ticket", "not a key", lang="ja")
    assert caught.value.message == messages.say("answer_ticket", "ja", value="not a key")


def jira_response(status: int, payload: object = None, headers: dict[str, str] | None = None) -> requests.Response:
    response = requests.Response()
    response.status_code = status
    response._content = b"" if payload is None else json.dumps(payload).encode()
    response.headers.update(headers or {})
    return response


@pytest.mark.parametrize(
    "response",
    [
        jira_response(401),
        jira_response(403),
        jira_response(404),
        jira_response(429, headers={"Retry-After": "7"}),
        jira_response(503),
        jira_response(400, {"errorMessages": ["INVALID_INPUT"]}),
        jira_response(400),
    ],
    ids=lambda r: str(r.status_code),
)
def test_every_jira_failure_is_said_in_the_sessions_language(response: requests.Response) -> None:
    error = error_for(response)
    assert error.text("en") == str(error)
    assert JAPANESE.search(error.text("ja")) and error.text("ja") != str(error)


def test_a_jira_error_without_a_catalogue_key_keeps_its_words() -> None:
    assert JiraError("boom").text("ja") == "boom"


def test_comment_too_long_names_the_sections_in_either_language() -> None:
    error = CommentTooLong(40_000, 32_767, [("根本原因", 30_000)])
    assert str(error) == error.text("en") and "Jira allows 32,767" in str(error)
    assert "根本原因 (30,000)" in error.text("ja") and "32,767 文字" in error.text("ja")


@pytest.fixture
def deps(redis_conn: redis.Redis) -> Deps:
    return Deps(store=SessionStore(redis_conn), queue=FakeQueue())


def test_modal_errors_follow_the_language(deps: Deps) -> None:
    lost = {"private_metadata": json.dumps({"lang": "ja"}), "state": {"values": modal_values({"ticket": "P-1"})}}
    assert form.submit(deps, user="U1", view=lost) == {"ticket": messages.say("form_lost_channel", "ja")}
    session = deps.store.create(Session(ticket="P-1", requester="U1", channel="C1", lang="ja"))
    gone = {"private_metadata": json.dumps({"session": session.id}), "state": {"values": {}}}
    assert form.submit(deps, user="U9", view=gone) == {"ticket": messages.say("form_session_gone", "ja")}
    stale = {"private_metadata": json.dumps({"session": session.id, "version": 3}), "state": {"values": {}}}
    assert form.submit(deps, user="U1", view=stale) == {
        "ticket": messages.say("form_draft_changed", "ja", version=session.version)
    }


def test_every_stage_adds_its_own_entries_and_none_is_lost_in_the_merge() -> None:
    assert sum(len(stage.MESSAGES) for stage in messages.STAGES) == len(messages._CATALOGUE)


def test_a_key_in_two_stages_is_refused() -> None:
    with pytest.raises(ValueError, match="parent"):
        messages._merged({"parent": {"en": "a", "ja": "あ"}}, {"parent": {"en": "b", "ja": "い"}})


def test_every_gate_field_says_what_it_needs() -> None:
    assert [f for f in GATE_FIELDS if f"needed_{f}" not in messages._CATALOGUE] == []


@pytest.mark.parametrize(
    ("seconds", "lang", "said"),
    [
        (14 * 86400, "en", "14 days"),
        (86400, "en", "1 day"),
        (7200, "en", "2 hours"),
        (60, "en", "1 minute"),
        (0.2, "en", "1 second"),
        (14 * 86400, "ja", "14 日間"),
        (3600, "ja", "1 時間"),
        (120, "ja", "2 分"),
    ],
)
def test_a_duration_names_its_unit_in_either_language(seconds: float, lang: Lang, said: str) -> None:
    assert duration(seconds, lang) == said


ROOT = Path(__file__).resolve().parents[2]
#: The rooms that speak to people without owning words, and the modules below them that once held sentences.
SPEAKERS = [
    *(p for room in ("renderers", "workers", "sessions") for p in sorted((ROOT / room).rglob("*.py"))),
    ROOT / "rules" / "gate.py",
    ROOT / "postmortem" / "sections.py",
]


def japanese_literals(path: Path) -> list[str]:
    """The Japanese string literals of a module, docstrings aside."""
    tree = ast.parse(path.read_text())
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
        and node.body
        and isinstance(node.body[0], ast.Expr)
    }
    return [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in docstrings
        and JAPANESE.search(node.value)
    ]


def test_the_rooms_that_speak_take_every_sentence_from_the_catalogue() -> None:
    found = {str(p.relative_to(ROOT)): words for p in SPEAKERS if (words := japanese_literals(p))}
    assert len(SPEAKERS) > 20 and found == {}
