"""JiraGateway against the loopback Jira emulator: exact bytes, finding our comment, errors in plain words."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import pytest

from emulators.jira_cloud import JiraEmulator
from workers.jira_gateway import JiraError, JiraGateway, PostedComment

pytestmark = pytest.mark.unit

EMAIL = "bot@example.com"
TOKEN = "s3cr3t-ATATT-token-9f8e7d"
COMMENTS = "/rest/api/3/issue/PROJ-1/comment"


@pytest.fixture
def jira() -> Iterator[JiraEmulator]:
    with JiraEmulator(email=EMAIL, api_token=TOKEN) as emulator:
        emulator.add_issue("PROJ-1")
        yield emulator


@pytest.fixture
def gateway(jira: JiraEmulator) -> JiraGateway:
    return JiraGateway(jira.base_url, EMAIL, TOKEN, timeout=5)


def request_body(text: str = "Summary", *, session: str = "s1", version: int = 1, key: str = "postmortem-bot") -> bytes:
    """A comment request body in the client's own serialisation (json.dumps defaults), non-ASCII included."""
    adf = {"type": "doc", "version": 1, "content": [{"type": "paragraph", "content": [{"type": "text", "text": text}]}]}
    request = {
        "body": adf,
        "properties": [{"key": key, "value": {"session": session, "version": version, "sha256": "ab" * 32}}],
    }
    return json.dumps(request).encode()


def comment_posts(jira: JiraEmulator) -> list[Any]:
    return [p for p in jira.posts if p.path == COMMENTS]


def test_post_comment_sends_exactly_the_given_bytes(jira: JiraEmulator, gateway: JiraGateway) -> None:
    body = request_body("キャッシュ café — “quoted”")
    posted = gateway.post_comment("PROJ-1", body)
    (stored,) = jira.comments("PROJ-1")
    assert stored.raw == body
    assert [p.body for p in comment_posts(jira)] == [body]
    assert posted == PostedComment(stored.id, f"{jira.base_url}/browse/PROJ-1?focusedCommentId={stored.id}")


def test_a_body_in_another_serialisation_is_refused_before_sending(jira: JiraEmulator, gateway: JiraGateway) -> None:
    compact = json.dumps(json.loads(request_body()), separators=(",", ":")).encode()
    with pytest.raises(ValueError, match="serialisation"):
        gateway.post_comment("PROJ-1", compact)
    assert jira.posts == []


def test_find_own_comment_matches_session_and_version_and_ignores_others(
    jira: JiraEmulator, gateway: JiraGateway
) -> None:
    assert gateway.find_own_comment("PROJ-1", session="s1", version=1) is None  # no comments at all
    gateway.post_comment("PROJ-1", request_body(session="s1", version=1))
    mine = gateway.post_comment("PROJ-1", request_body(session="s1", version=2))
    gateway.post_comment("PROJ-1", request_body(session="other", version=2))
    gateway.post_comment("PROJ-1", request_body(session="s1", version=2, key="someone-else"))
    assert gateway.find_own_comment("PROJ-1", session="s1", version=2) == mine
    assert gateway.find_own_comment("PROJ-1", session="s1", version=3) is None
    assert gateway.find_own_comment("PROJ-1", session="s2", version=2) is None


def test_own_comments_lists_every_copy_newest_first_and_a_duplicate_can_be_deleted(
    jira: JiraEmulator, gateway: JiraGateway
) -> None:
    first = gateway.post_comment("PROJ-1", request_body(session="s1", version=2))
    gateway.post_comment("PROJ-1", request_body(session="other", version=2))
    late = gateway.post_comment("PROJ-1", request_body(session="s1", version=2))  # the same post, stored twice
    assert gateway.own_comments("PROJ-1", session="s1", version=2) == [late, first]
    gateway.delete_comment("PROJ-1", late.id)
    assert gateway.own_comments("PROJ-1", session="s1", version=2) == [first]
    assert len(jira.comments("PROJ-1")) == 2
    with pytest.raises(JiraError) as caught:  # already gone: Jira's 404, in plain words
        gateway.delete_comment("PROJ-1", late.id)
    assert caught.value.status == 404


@pytest.mark.parametrize(
    ("status", "words"),
    [
        (401, "credentials"),
        (403, "permission"),
        (404, "does not exist"),
    ],
)
def test_client_errors_are_plain_words_and_not_retryable(
    jira: JiraEmulator, gateway: JiraGateway, status: int, words: str
) -> None:
    jira.inject("POST", COMMENTS, status=status)
    with pytest.raises(JiraError) as caught:
        gateway.post_comment("PROJ-1", request_body())
    assert caught.value.status == status and words in str(caught.value)
    assert not caught.value.retryable and caught.value.retry_after is None
    assert jira.comments("PROJ-1") == []


def test_wrong_credentials_are_a_401_in_plain_words(jira: JiraEmulator) -> None:
    wrong = JiraGateway(jira.base_url, EMAIL, "not-the-token", timeout=5)
    with pytest.raises(JiraError) as caught:
        wrong.find_own_comment("PROJ-1", session="s1", version=1)
    assert caught.value.status == 401 and "JIRA_API_TOKEN" in str(caught.value)
    assert not caught.value.retryable


def test_an_unknown_issue_is_a_404(gateway: JiraGateway) -> None:
    with pytest.raises(JiraError) as caught:
        gateway.post_comment("NOPE-1", request_body())
    assert caught.value.status == 404 and not caught.value.retryable
    assert gateway.issue_exists("PROJ-1") and not gateway.issue_exists("NOPE-1")


def test_429_carries_retry_after(jira: JiraEmulator, gateway: JiraGateway) -> None:
    jira.inject("POST", COMMENTS, status=429, retry_after=7)
    started = time.monotonic()
    with pytest.raises(JiraError) as caught:
        gateway.post_comment("PROJ-1", request_body())
    assert time.monotonic() - started < 5  # the client did not sleep inside the call
    assert caught.value.status == 429 and caught.value.retry_after == 7 and caught.value.retryable
    assert len(comment_posts(jira)) == 1


@pytest.mark.parametrize("status", [500, 502, 503])
def test_server_errors_are_retryable_and_never_retried_by_the_client(
    jira: JiraEmulator, gateway: JiraGateway, status: int
) -> None:
    jira.inject("POST", COMMENTS, status=status)
    with pytest.raises(JiraError) as caught:
        gateway.post_comment("PROJ-1", request_body())
    assert caught.value.status == status and caught.value.retryable
    assert len(comment_posts(jira)) == 1  # one POST: the client never repeats it by itself
    assert jira.comments("PROJ-1") == []


def test_a_timeout_after_the_comment_was_stored_is_retryable_and_then_found(jira: JiraEmulator) -> None:
    gateway = JiraGateway(jira.base_url, EMAIL, TOKEN, timeout=1)
    jira.inject("POST", COMMENTS, timeout_after_store=True, stall=10)
    with pytest.raises(JiraError) as caught:
        gateway.post_comment("PROJ-1", request_body(session="s1", version=1))
    jira.release()
    assert caught.value.retryable
    (stored,) = jira.comments("PROJ-1")
    found = gateway.find_own_comment("PROJ-1", session="s1", version=1)
    assert found is not None and found.id == stored.id
    assert len(comment_posts(jira)) == 1


def test_an_unreachable_jira_is_retryable(jira: JiraEmulator) -> None:
    url = jira.base_url
    jira.stop()
    with pytest.raises(JiraError) as caught:
        JiraGateway(url, EMAIL, TOKEN, timeout=1).find_own_comment("PROJ-1", session="s1", version=1)
    assert caught.value.retryable and "unreachable" in str(caught.value)


def test_a_400_names_jiras_reason(jira: JiraEmulator, gateway: JiraGateway) -> None:
    jira.inject("POST", COMMENTS, status=400, body={"errorMessages": [], "errors": {"comment": "too long"}})
    with pytest.raises(JiraError) as caught:
        gateway.post_comment("PROJ-1", request_body())
    assert "comment: too long" in str(caught.value) and not caught.value.retryable


def test_no_error_message_carries_the_api_token(jira: JiraEmulator) -> None:
    messages: list[str] = []
    for status in (400, 401, 403, 404, 429, 500, 503):
        jira.inject("POST", COMMENTS, status=status)  # Jira's own error bodies
        with pytest.raises(JiraError) as caught:
            JiraGateway(jira.base_url, EMAIL, TOKEN, timeout=5).post_comment("PROJ-1", request_body())
        messages.append(str(caught.value))
    jira.inject("POST", COMMENTS, timeout_after_store=True, stall=5)
    with pytest.raises(JiraError) as caught:
        JiraGateway(jira.base_url, EMAIL, TOKEN, timeout=1).post_comment("PROJ-1", request_body())
    messages.append(str(caught.value))
    jira.release()
    with pytest.raises(JiraError) as caught:
        JiraGateway(jira.base_url, EMAIL, "wrong-" + TOKEN, timeout=5).post_comment("PROJ-1", request_body())
    messages.append(str(caught.value))
    assert len(messages) == 9
    leaked = [m for m in messages if TOKEN in m or "ATATT" in m]
    assert leaked == [], leaked
