"""The Jira request: exact bytes, their sha256, and the comment length limit."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Any

import pytest

from postmortem.model import Lang, PostMortem
from renderers.adf import render_adf
from renderers.jira import JIRA_COMMENT_LIMIT, CommentTooLong, jira_request, with_requester
from tests.renderers.helpers import GOLDEN, check_golden

pytestmark = pytest.mark.unit


def test_body_is_what_the_client_sends(example: Callable[[str], PostMortem]) -> None:
    adf = render_adf(example("tada-hang.ja"))
    request = jira_request(adf, session="s-1", version=2)
    parsed = json.loads(request.body)
    assert json.dumps(parsed).encode() == request.body  # the client re-serialises with json.dumps defaults
    assert request.body.isascii()
    assert parsed["body"] == adf
    assert parsed["properties"] == [
        {"key": "postmortem-bot", "value": {"session": "s-1", "version": 2, "sha256": request.sha256}},
        {"key": "sd.public.comment", "value": {"internal": True}},
    ]
    assert "visibility" not in parsed
    assert request.sha256 == hashlib.sha256(json.dumps(parsed["body"]).encode()).hexdigest()


def test_same_input_same_bytes(example: Callable[[str], PostMortem]) -> None:
    pm = example("cache-eviction.en")
    first = jira_request(render_adf(pm), session="s", version=1)
    assert jira_request(render_adf(pm), session="s", version=1) == first


def test_too_long_names_the_longest_sections() -> None:
    pm = PostMortem(ticket="A-1", summary="s", root_cause="r" * 30000, fix="f" * 5000, validation="v")
    with pytest.raises(CommentTooLong) as caught:
        jira_request(render_adf(pm), session="s", version=1)
    error = caught.value
    assert error.limit == JIRA_COMMENT_LIMIT and error.length > JIRA_COMMENT_LIMIT
    assert [name for name, _ in error.longest[:2]] == ["Root cause", "Fix"]
    assert "Root cause" in str(error) and "32,767" in str(error)


def test_just_under_the_limit_is_accepted() -> None:
    pm = PostMortem(ticket="A-1", root_cause="r" * 30000)
    assert jira_request(render_adf(pm), session="s", version=1).body


@pytest.mark.parametrize(
    ("setting", "expected"),
    [
        ("role:Developers", {"type": "role", "value": "Developers"}),
        ("role:Service Desk Team", {"type": "role", "value": "Service Desk Team"}),
        (
            "group:276f955c-63d7-42c8-9520-92d01dca0625",
            {"type": "group", "identifier": "276f955c-63d7-42c8-9520-92d01dca0625"},
        ),
    ],
)
def test_visibility_setting_becomes_jiras_visibility(setting: str, expected: dict[str, str]) -> None:
    adf = {"version": 1, "type": "doc", "content": []}
    assert json.loads(jira_request(adf, session="s", version=1, visible_to=setting).body)["visibility"] == expected


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_last_paragraph_names_the_requester_and_links_the_thread(
    lang: Lang, validate_adf: Callable[[Any], Any]
) -> None:
    adf = with_requester(
        render_adf(PostMortem(ticket="A-1", summary="s")),
        name="Priya",
        thread_url="https://acme.slack.com/archives/C1/p1700000000000001",
        lang=lang,
    )
    validate_adf(adf)
    last = adf["content"][-1]
    text = "".join(n["text"] for n in last["content"])
    assert "Priya" in text and ("Slack thread" in text if lang == "en" else "Slack のスレッド" in text)
    [link] = [n for n in last["content"] if n.get("marks")]
    assert link["marks"][0]["attrs"]["href"] == "https://acme.slack.com/archives/C1/p1700000000000001"


def test_without_a_thread_link_the_requester_is_still_named() -> None:
    adf = with_requester({"version": 1, "type": "doc", "content": []}, name="Priya", thread_url=None, lang="en")
    assert adf["content"] == [
        {
            "type": "paragraph",
            "content": [
                {"type": "text", "text": "Requested by Priya in the "},
                {"type": "text", "text": "Slack thread"},
                {"type": "text", "text": "."},
            ],
        }
    ]


def test_golden_request_body(example: Callable[[str], PostMortem]) -> None:
    """The whole request of DESIGN §4 for the English example, byte for byte (updated on purpose)."""
    pm = example("cache-eviction.en")
    adf = with_requester(
        render_adf(pm, jira_url="https://acme.atlassian.net"),
        name="Priya",
        thread_url="https://acme.slack.com/archives/C012AB/p1700000000000100",
        lang="en",
    )
    request = jira_request(adf, session="s-golden", version=1, visible_to="role:Developers")
    check_golden(GOLDEN / "cache-eviction.en.request.json", request.body.decode() + "\n")
