"""The Jira request: exact bytes, their sha256, and the comment length limit."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable

import pytest

from postmortem.model import PostMortem
from renderers.adf import render_adf
from renderers.jira import JIRA_COMMENT_LIMIT, CommentTooLong, jira_request

pytestmark = pytest.mark.unit


def test_body_is_what_the_client_sends(example: Callable[[str], PostMortem]) -> None:
    adf = render_adf(example("tada-hang.ja"))
    request = jira_request(adf, session="s-1", version=2)
    parsed = json.loads(request.body)
    assert json.dumps(parsed).encode() == request.body  # the client re-serialises with json.dumps defaults
    assert request.body.isascii()
    assert parsed["body"] == adf
    assert parsed["properties"] == [{"key": "postmortem-bot",
                                     "value": {"session": "s-1", "version": 2, "sha256": request.sha256}}]
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
