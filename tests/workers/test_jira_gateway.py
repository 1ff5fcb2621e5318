"""JiraGateway against the loopback Jira emulator, Cloud (REST v3, ADF) and Data Center (REST v2, wiki markup) in
the same test functions: exact bytes, finding our comment, errors in plain words."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import pytest

from emulators.jira_cloud import JiraEmulator
from emulators.jira_datacenter import DataCenterJiraEmulator
from workers.jira_gateway import Deployment, JiraError, JiraGateway, PostedComment, start_up

pytestmark = pytest.mark.unit

EMAIL = "bot@example.com"
TOKEN = "s3cr3t-ATATT-token-9f8e7d"


@pytest.fixture(params=["cloud", "datacenter"])
def jira(request: pytest.FixtureRequest) -> Iterator[JiraEmulator]:
    kind = DataCenterJiraEmulator if request.param == "datacenter" else JiraEmulator
    with kind(email=EMAIL, api_token=TOKEN) as emulator:
        emulator.add_issue("PROJ-1")
        yield emulator


def on_datacenter(jira: JiraEmulator) -> bool:
    return isinstance(jira, DataCenterJiraEmulator)


def connect(jira: JiraEmulator, token: str = TOKEN, *, timeout: int = 5, url: str | None = None) -> JiraGateway:
    """The gateway as the worker builds it: basic auth on Cloud, a personal access token (no e-mail) on Data Center."""
    if on_datacenter(jira):
        return JiraGateway(url or jira.base_url, "", token, timeout=timeout, deployment="datacenter")
    return JiraGateway(url or jira.base_url, EMAIL, token, timeout=timeout)


@pytest.fixture
def gateway(jira: JiraEmulator) -> JiraGateway:
    return connect(jira)


def comments_path(jira: JiraEmulator) -> str:
    return f"/rest/api/{2 if on_datacenter(jira) else 3}/issue/PROJ-1/comment"


def request_body(
    jira: JiraEmulator, text: str = "Summary", *, session: str = "s1", version: int = 1, key: str = "postmortem-bot"
) -> bytes:
    """A comment request body in the client's own serialisation (json.dumps defaults), non-ASCII included: a wiki
    string on Data Center, an ADF document on Cloud."""
    adf = {"type": "doc", "version": 1, "content": [{"type": "paragraph", "content": [{"type": "text", "text": text}]}]}
    request = {
        "body": text if on_datacenter(jira) else adf,
        "properties": [{"key": key, "value": {"session": session, "version": version, "sha256": "ab" * 32}}],
    }
    return json.dumps(request).encode()


def comment_posts(jira: JiraEmulator) -> list[Any]:
    return [p for p in jira.posts if p.path == comments_path(jira)]


def test_post_comment_sends_exactly_the_given_bytes(jira: JiraEmulator, gateway: JiraGateway) -> None:
    body = request_body(jira, "キャッシュ café — “quoted”")
    posted = gateway.post_comment("PROJ-1", body)
    (stored,) = jira.comments("PROJ-1")
    assert stored.raw == body
    assert [p.body for p in comment_posts(jira)] == [body]
    assert posted == PostedComment(stored.id, f"{jira.base_url}/browse/PROJ-1?focusedCommentId={stored.id}")


def test_a_body_in_another_serialisation_is_refused_before_sending(jira: JiraEmulator, gateway: JiraGateway) -> None:
    compact = json.dumps(json.loads(request_body(jira)), separators=(",", ":")).encode()
    with pytest.raises(ValueError, match="serialisation"):
        gateway.post_comment("PROJ-1", compact)
    assert jira.posts == []


def test_find_own_comment_matches_session_and_version_and_ignores_others(
    jira: JiraEmulator, gateway: JiraGateway
) -> None:
    assert gateway.find_own_comment("PROJ-1", session="s1", version=1) is None  # no comments at all
    gateway.post_comment("PROJ-1", request_body(jira, session="s1", version=1))
    mine = gateway.post_comment("PROJ-1", request_body(jira, session="s1", version=2))
    gateway.post_comment("PROJ-1", request_body(jira, session="other", version=2))
    gateway.post_comment("PROJ-1", request_body(jira, session="s1", version=2, key="someone-else"))
    assert gateway.find_own_comment("PROJ-1", session="s1", version=2) == mine
    assert gateway.find_own_comment("PROJ-1", session="s1", version=3) is None
    assert gateway.find_own_comment("PROJ-1", session="s2", version=2) is None


def test_own_comments_lists_every_copy_newest_first_and_a_duplicate_can_be_deleted(
    jira: JiraEmulator, gateway: JiraGateway
) -> None:
    first = gateway.post_comment("PROJ-1", request_body(jira, session="s1", version=2))
    gateway.post_comment("PROJ-1", request_body(jira, session="other", version=2))
    late = gateway.post_comment("PROJ-1", request_body(jira, session="s1", version=2))  # the same post, stored twice
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
    jira.inject("POST", comments_path(jira), status=status)
    with pytest.raises(JiraError) as caught:
        gateway.post_comment("PROJ-1", request_body(jira))
    assert caught.value.status == status and words in str(caught.value)
    assert not caught.value.retryable and caught.value.retry_after is None
    assert jira.comments("PROJ-1") == []


def test_wrong_credentials_are_a_401_in_plain_words(jira: JiraEmulator) -> None:
    wrong = connect(jira, "not-the-token")
    with pytest.raises(JiraError) as caught:
        wrong.find_own_comment("PROJ-1", session="s1", version=1)
    assert caught.value.status == 401 and "JIRA_API_TOKEN" in str(caught.value)
    assert not caught.value.retryable


def test_an_unknown_issue_is_a_404(jira: JiraEmulator, gateway: JiraGateway) -> None:
    with pytest.raises(JiraError) as caught:
        gateway.post_comment("NOPE-1", request_body(jira))
    assert caught.value.status == 404 and not caught.value.retryable
    assert gateway.issue_exists("PROJ-1") and not gateway.issue_exists("NOPE-1")


def test_429_carries_retry_after(jira: JiraEmulator, gateway: JiraGateway) -> None:
    jira.inject("POST", comments_path(jira), status=429, retry_after=7)
    started = time.monotonic()
    with pytest.raises(JiraError) as caught:
        gateway.post_comment("PROJ-1", request_body(jira))
    assert time.monotonic() - started < 5  # the client did not sleep inside the call
    assert caught.value.status == 429 and caught.value.retry_after == 7 and caught.value.retryable
    assert len(comment_posts(jira)) == 1


@pytest.mark.parametrize("status", [500, 502, 503])
def test_server_errors_are_retryable_and_never_retried_by_the_client(
    jira: JiraEmulator, gateway: JiraGateway, status: int
) -> None:
    jira.inject("POST", comments_path(jira), status=status)
    with pytest.raises(JiraError) as caught:
        gateway.post_comment("PROJ-1", request_body(jira))
    assert caught.value.status == status and caught.value.retryable
    assert len(comment_posts(jira)) == 1  # one POST: the client never repeats it by itself
    assert jira.comments("PROJ-1") == []


def test_a_timeout_after_the_comment_was_stored_is_retryable_and_then_found(jira: JiraEmulator) -> None:
    gateway = connect(jira, timeout=1)
    jira.inject("POST", comments_path(jira), timeout_after_store=True, stall=10)
    with pytest.raises(JiraError) as caught:
        gateway.post_comment("PROJ-1", request_body(jira, session="s1", version=1))
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
        connect(jira, timeout=1, url=url).find_own_comment("PROJ-1", session="s1", version=1)
    assert caught.value.retryable and "unreachable" in str(caught.value)


def test_a_400_names_jiras_reason(jira: JiraEmulator, gateway: JiraGateway) -> None:
    jira.inject("POST", comments_path(jira), status=400, body={"errorMessages": [], "errors": {"comment": "too long"}})
    with pytest.raises(JiraError) as caught:
        gateway.post_comment("PROJ-1", request_body(jira))
    assert "comment: too long" in str(caught.value) and not caught.value.retryable


def test_no_error_message_carries_the_api_token(jira: JiraEmulator) -> None:
    messages: list[str] = []
    for status in (400, 401, 403, 404, 429, 500, 503):
        jira.inject("POST", comments_path(jira), status=status)  # Jira's own error bodies
        with pytest.raises(JiraError) as caught:
            connect(jira).post_comment("PROJ-1", request_body(jira))
        messages.append(str(caught.value))
    jira.inject("POST", comments_path(jira), timeout_after_store=True, stall=5)
    with pytest.raises(JiraError) as caught:
        connect(jira, timeout=1).post_comment("PROJ-1", request_body(jira))
    messages.append(str(caught.value))
    jira.release()
    with pytest.raises(JiraError) as caught:
        connect(jira, "wrong-" + TOKEN).post_comment("PROJ-1", request_body(jira))
    messages.append(str(caught.value))
    assert len(messages) == 9
    leaked = [m for m in messages if TOKEN in m or "ATATT" in m]
    assert leaked == [], leaked


def test_start_up_finds_the_deployment_and_says_it_in_one_line(jira: JiraEmulator) -> None:
    email = "" if on_datacenter(jira) else EMAIL
    deployment, line = start_up(jira.base_url, email, TOKEN, deployment=None, timeout=5)
    assert deployment == ("datacenter" if on_datacenter(jira) else "cloud")
    assert "found by serverInfo" in line and ("Data Center" in line) == on_datacenter(jira)
    assert ("Bearer" in line) == on_datacenter(jira) and TOKEN not in line
    configured, said = start_up(jira.base_url, email, TOKEN, deployment=deployment, timeout=5)
    assert configured == deployment and "set by JIRA_DEPLOYMENT" in said


def test_start_up_stops_on_wrong_credentials_or_an_unreachable_jira(jira: JiraEmulator) -> None:
    email = "" if on_datacenter(jira) else EMAIL
    deployment: Deployment = "datacenter" if on_datacenter(jira) else "cloud"
    with pytest.raises(JiraError) as wrong:
        start_up(jira.base_url, email, "wrong-" + TOKEN, deployment=deployment, timeout=5)
    assert wrong.value.status == 401 and "\n" not in str(wrong.value) and TOKEN not in str(wrong.value)
    url = jira.base_url
    jira.stop()
    with pytest.raises(JiraError) as unreachable:
        start_up(url, email, TOKEN, deployment=None, timeout=1)
    assert "unreachable" in str(unreachable.value) and "\n" not in str(unreachable.value)


def test_jira_cloud_without_an_email_stops_start_up(jira: JiraEmulator) -> None:
    if on_datacenter(jira):
        assert start_up(jira.base_url, "", TOKEN, deployment=None, timeout=5)[0] == "datacenter"
        return
    with pytest.raises(JiraError, match="JIRA_EMAIL"):
        start_up(jira.base_url, "", TOKEN, deployment=None, timeout=5)


def test_a_site_that_refuses_the_properties_is_said_plainly_and_nothing_is_stored(
    jira: JiraEmulator, gateway: JiraGateway
) -> None:
    if isinstance(jira, DataCenterJiraEmulator):
        jira.accepts_properties = False
    else:
        jira.inject("POST", comments_path(jira), status=400, body={"errors": {"properties": "Unrecognized field"}})
    with pytest.raises(JiraError) as caught:
        gateway.post_comment("PROJ-1", request_body(jira))
    assert caught.value.key == "jira_properties_refused" and not caught.value.retryable
    assert "posted nothing" in str(caught.value) and "8.14" in str(caught.value)
    assert jira.comments("PROJ-1") == []


def test_the_permission_check_and_user_lookup_use_the_deployments_parameters(
    jira: JiraEmulator, gateway: JiraGateway
) -> None:
    jira.grant("JIRAUSER10100", "PROJ-1", email="dev@example.com")
    jira.add_user("JIRAUSER10200", email="other@example.com")
    assert gateway.may_comment("PROJ-1", "Dev@Example.com") and not gateway.may_comment("PROJ-1", "other@example.com")
    assert gateway.user_email("JIRAUSER10100") == "dev@example.com" and gateway.user_email("nobody") is None
    user_param = "username" if on_datacenter(jira) else "query"
    assert any(f"{user_param}=dev%40example.com" in line or f"{user_param}=Dev" in line for line in jira.dump().split())


def test_a_503_after_the_comment_was_stored_is_ambiguous_and_the_comment_is_then_found(
    jira: JiraEmulator, gateway: JiraGateway
) -> None:
    jira.inject("POST", comments_path(jira), status=503, timeout_after_store=True)
    with pytest.raises(JiraError) as caught:
        gateway.post_comment("PROJ-1", request_body(jira, session="s1", version=1))
    assert caught.value.status == 503 and caught.value.ambiguous and caught.value.retryable
    (stored,) = jira.comments("PROJ-1")
    assert gateway.find_own_comment("PROJ-1", session="s1", version=1) == PostedComment(
        stored.id, gateway.comment_url("PROJ-1", stored.id)
    )
