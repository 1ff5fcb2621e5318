"""Slack: one message when it fits, split (never truncated) when limits force it, and nothing can ping."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from postmortem.model import TEXT_FIELDS, PostMortem
from renderers.markdown import contained
from renderers.slack import (
    HEADER_LIMIT,
    MAX_BLOCKS,
    MESSAGE_CHARS_LIMIT,
    SECTION_TEXT_LIMIT,
    escape_mrkdwn,
    mrkdwn_line,
    render_slack,
)
from tests.renderers.strategies import postmortems
from tests.renderers.test_markdown import GOLDEN, check_golden

pytestmark = pytest.mark.unit

_LIVE = re.compile(r"<(?!(?:https?://|mailto:))")


def texts(messages: list[dict[str, Any]]) -> list[str]:
    return [m["text"] for m in messages] + [b["text"]["text"] for m in messages for b in m["blocks"]]


def assert_within_limits(messages: list[dict[str, Any]]) -> None:
    for message in messages:
        assert message["text"].strip()
        assert 0 < len(message["blocks"]) <= MAX_BLOCKS
        assert sum(len(b["text"]["text"]) for b in message["blocks"]) <= MESSAGE_CHARS_LIMIT
        for block in message["blocks"]:
            limit = HEADER_LIMIT if block["type"] == "header" else SECTION_TEXT_LIMIT
            assert 0 < len(block["text"]["text"].strip()) and len(block["text"]["text"]) <= limit


def squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


def test_golden_slack(example: Callable[[str], PostMortem]) -> None:
    messages = render_slack(example("tada-hang.ja"))
    assert len(messages) == 1
    golden = json.dumps(messages, ensure_ascii=False, indent=2) + "\n"
    check_golden(GOLDEN / "tada-hang.ja.slack.json", golden)


def test_example_is_one_message_with_headers(example: Callable[[str], PostMortem]) -> None:
    [message] = render_slack(example("cache-eviction.en"))
    assert_within_limits([message])
    headers = [b["text"]["text"] for b in message["blocks"] if b["type"] == "header"]
    assert headers[:3] == ["Post-mortem: CACHE-88", "Summary", "Symptom"]


def test_escape_neutralises_mentions_and_links() -> None:
    assert escape_mrkdwn("<!channel> <@U1> a&b <https://x|y>") == \
        "&lt;!channel&gt; &lt;@U1&gt; a&amp;b &lt;https://x|y&gt;"


def test_mrkdwn_translation_is_minimal_and_builds_safe_links() -> None:
    assert mrkdwn_line("**b** `<!here>` ~~s~~") == "*b* `&lt;!here&gt;` ~s~"
    assert mrkdwn_line("[a <@U1>](https://x.example/?q=1&r=a|b)") == \
        "<https://x.example/?q=1&amp;r=a%7Cb|a &lt;@U1&gt;>"
    assert mrkdwn_line("[ping](!here) <https://x.example>") == "[ping](!here) <https://x.example>"


def test_long_fields_split_across_messages_without_losing_text() -> None:
    words = " ".join(f"word{i}" for i in range(3000))
    lines = "\n".join(f"line {i} <@U{i}> & more" for i in range(900))
    pm = PostMortem(ticket="A-1", summary=words, symptom=lines, root_cause="x" * 7000,
                    fix="```\n" + "\n".join(f"code {i}" for i in range(1200)) + "\n```", validation="ok")
    messages = render_slack(pm)
    assert len(messages) > 1
    assert_within_limits(messages)
    joined = squash(html.unescape("".join(m["text"] for m in messages)))
    for value in (words, lines, "x" * 7000, pm.fix):
        assert squash(value) in joined
    blocks = squash(html.unescape("".join(b["text"]["text"] for m in messages for b in m["blocks"])))
    assert squash(words) in blocks and "x" * 7000 in blocks
    assert all(not _LIVE.search(t) for t in texts(messages))


def test_many_sections_respect_block_limit() -> None:
    items = [{"what": f"item {i} " + "y " * 1400} for i in range(40)]
    messages = render_slack(PostMortem(ticket="A-1", action_items=items))
    assert len(messages) > 1
    assert_within_limits(messages)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(postmortems())
def test_any_input_never_pings_and_keeps_every_field(pm: PostMortem) -> None:
    messages = render_slack(pm)
    assert_within_limits(messages)
    for text in texts(messages):
        assert not _LIVE.search(text), text
    joined = squash(html.unescape("\n".join(m["text"] for m in messages)))
    for name in TEXT_FIELDS:
        value = pm.text(name)
        if value and name not in ("fix_ref", "owner"):
            assert squash(contained(value)) in joined, name
