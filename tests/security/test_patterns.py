"""Linear-time patterns: the reply classifier and the chat triggers on pathological messages at Slack's
40,000-character limit each take well under a second (an unclosed `<http:` repeated once took 25 s)."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable

import pytest

from postmortem.fieldtext import THREAD_MAX_CHARS, updates_from_text
from postmortem.model import InputError
from rules.classifier import Kind, classify_reply
from rules.triggers import classify, jira_keys

pytestmark = pytest.mark.unit

#: Slack's limit on one message's text.
MESSAGE_LIMIT = 40_000
#: Generous for a shared 2-core machine: the linear versions take ~20 ms; the quadratic ones 2.7–25 s.
BUDGET_SECONDS = 1.0


def fill(unit: str) -> str:
    return (unit * (MESSAGE_LIMIT // len(unit) + 1))[:MESSAGE_LIMIT]


PATHOLOGICAL = {
    name: fill(unit)
    for name, unit in {
        "unclosed links": "<http:",
        "unclosed mailto": "<mailto:",
        "links with open labels": "<https://a|",
        "unclosed mentions": "<@",
        "unclosed channels": "<#",
        "unclosed specials": "<!",
        "typed mentions": "@a",
        "mention labels": "<@U1|",
        "shortcodes": ":a",
        "letters": "a",
        "fix words": "fix ",
        "announcements": "fixed in ",
        "negations": "not fixed ",
        "refusals": "no RCA ",
        "japanese": "修正をマージしました",
        "questions": "?",
        "keys": "AB-1 ",
        "dashes": "A-",
        "dots": ".",
    }.items()
}


def timed(fn: Callable[[], object]) -> float:
    started = time.perf_counter()
    fn()
    return time.perf_counter() - started


@pytest.mark.timeout(60)
@pytest.mark.parametrize("name", sorted(PATHOLOGICAL))
def test_the_reply_classifier_is_linear(name: str) -> None:
    text = PATHOLOGICAL[name]
    assert timed(lambda: classify_reply(text, bot_user_id="UBOT")) < BUDGET_SECONDS


@pytest.mark.timeout(60)
@pytest.mark.parametrize("name", sorted(PATHOLOGICAL))
def test_the_chat_triggers_are_linear(name: str) -> None:
    text = PATHOLOGICAL[name]
    took = timed(lambda: (classify(text, mentioned=True), classify(text, mentioned=False), jira_keys(text)))
    assert took < BUDGET_SECONDS


def test_the_faster_patterns_read_what_they_read_before() -> None:
    assert classify_reply("<@UBOT> post it", bot_user_id="UBOT").kind is Kind.approve
    assert classify_reply("<@UALICE> post it", bot_user_id="UBOT").kind is Kind.other
    assert classify_reply("<@UALICE|alice> yes", bot_user_id="UBOT").kind is Kind.other
    assert classify_reply("summary: see <https://x.example/a|the log>").value == "see https://x.example/a"
    assert classify("<@UBOT> write the post-mortem for <#C1|general>", mentioned=True) == "request"


@pytest.mark.timeout(60)
@pytest.mark.parametrize(
    "field", ["ticket", "action_items", "lang", "destination", "why_missed_category", "customer_impacting", "summary"]
)
def test_thread_answers_at_the_field_limit_are_read_in_linear_time(field: str) -> None:
    for unit in ("/browse/A-1", "/browse/", "a|", "x | y | z\n", "<http:", "`", "A-1 ", "はい"):
        text = (unit * (THREAD_MAX_CHARS // len(unit) + 1))[:THREAD_MAX_CHARS]

        def read(text: str = text) -> None:
            with contextlib.suppress(InputError):
                updates_from_text(field, text)

        assert timed(read) < BUDGET_SECONDS, unit
