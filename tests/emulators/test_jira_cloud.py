"""The Jira emulator driven by atlassian.JiraCloud and raw requests: comments, properties, faults."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
import requests
from atlassian import JiraCloud
from slack_sdk import WebClient

from emulators import jira_records
from emulators.jira_cloud import JiraEmulator

pytestmark = pytest.mark.unit

COMMENTS = "/rest/api/3/issue/PROJ-1/comment"
PROPS = [{"key": "postmortem-bot", "value": {"session": "s1", "version": 2, "sha256": "ab" * 32}}]


def _adf(text: str = "Summary") -> dict[str, Any]:
    paragraph = {"type": "paragraph", "content": [{"type": "text", "text": text}]}
    return {"type": "doc", "version": 1, "content": [paragraph]}


@pytest.fixture
def jira() -> Iterator[JiraEmulator]:
    with JiraEmulator() as emulator:
        emulator.add_issue("PROJ-1", assignee_email="dev@example.com", summary="Cache evicts hot keys")
        yield emulator


@pytest.fixture
def client(jira: JiraEmulator) -> JiraCloud:
    return JiraCloud(jira.base_url, username="bot@example.com", password="jira-token", retry_with_header=False)


def _get(client: JiraCloud, path: str, **kwargs: Any) -> dict[str, Any]:
    answer = client.get(path, **kwargs)
    assert isinstance(answer, dict)
    return answer


def _raw(jira: JiraEmulator, method: str, path: str, **kwargs: Any) -> requests.Response:
    return requests.request(method, jira.base_url + path, auth=("bot@example.com", "jira-token"), timeout=5, **kwargs)


def test_issue_shape_and_404(jira: JiraEmulator, client: JiraCloud) -> None:
    issue = _get(client, "rest/api/3/issue/PROJ-1")
    assert issue["key"] == "PROJ-1" and issue["fields"]["issuetype"]["name"] == "Bug"
    assert issue["fields"]["status"]["name"] == "Done"
    assert issue["fields"]["assignee"]["emailAddress"] == "dev@example.com"
    assert _raw(jira, "GET", "/rest/api/3/issue/NOPE-9").status_code == 404


def test_hidden_email_is_readable_through_the_user_endpoint(jira: JiraEmulator, client: JiraCloud) -> None:
    jira.add_issue(
        "PROJ-2", assignee_account_id="acc-9", assignee_email="private@example.com", assignee_email_hidden=True
    )
    assignee = _get(client, "rest/api/3/issue/PROJ-2")["fields"]["assignee"]
    assert "emailAddress" not in assignee
    user = _get(client, "rest/api/3/user", params={"accountId": assignee["accountId"]})
    assert user["emailAddress"] == "private@example.com"
    assert _get(client, "rest/api/3/myself")["emailAddress"] == "bot@example.com"


def test_add_comment_stores_body_properties_and_raw_bytes(jira: JiraEmulator, client: JiraCloud) -> None:
    data = {"body": _adf("Root cause: ü"), "properties": PROPS}
    created = client.add_comment("PROJ-1", data=data)
    (stored,) = jira.comments("PROJ-1")
    assert created["id"] == stored.id and created["body"] == data["body"]
    assert stored.property_map == {"postmortem-bot": PROPS[0]["value"]}
    assert stored.raw == json.dumps(data).encode()  # atlassian-python-api's default serialisation
    assert jira.posts[-1].status == 201 and jira.posts[-1].body == stored.raw


def test_comments_are_paged_and_ordered(jira: JiraEmulator, client: JiraCloud) -> None:
    for n in range(3):
        client.add_comment("PROJ-1", data={"body": _adf(f"c{n}")})
    newest = client.get_comments("PROJ-1", order_by="-created", max_results=2)
    assert newest["total"] == 3
    assert [c["body"]["content"][0]["content"][0]["text"] for c in newest["comments"]] == ["c2", "c1"]
    rest = client.get_comments("PROJ-1", order_by="-created", start_at=2, max_results=2)
    assert [c["body"]["content"][0]["content"][0]["text"] for c in rest["comments"]] == ["c0"]


@pytest.mark.parametrize(
    "body, field_message",
    [
        (
            {
                "type": "doc",
                "version": 1,
                "content": [{"type": "paragraph", "content": [{"type": "text", "text": ""}]}],
            },
            "INVALID_INPUT",
        ),
        ("wiki *markup*", "Atlassian Document"),
        (_adf("x" * 33_000), "too long"),
        # A link the JSON schema allows and Atlassian's validator refuses: Jira may answer 400.
        (
            {
                "type": "doc",
                "version": 1,
                "content": [
                    {
                        "type": "paragraph",
                        "content": [
                            {
                                "type": "text",
                                "text": "PR 412",
                                "marks": [{"type": "link", "attrs": {"href": "docs/runbook.md"}}],
                            }
                        ],
                    }
                ],
            },
            "Atlassian's validator",
        ),
    ],
)
def test_bad_comments_are_refused_like_jira(
    jira: JiraEmulator, client: JiraCloud, body: Any, field_message: str
) -> None:
    with pytest.raises(requests.HTTPError) as caught:
        client.add_comment("PROJ-1", data={"body": body})
    assert caught.value.response.status_code == 400
    assert field_message in caught.value.response.json()["errors"]["comment"]
    assert jira.comments("PROJ-1") == [] and jira.posts[-1].status == 400


def test_comment_limit_can_count_text_only() -> None:
    with JiraEmulator(comment_limit_measure="text") as jira:
        jira.add_issue("PROJ-1")
        para = {"type": "paragraph", "content": [{"type": "text", "text": "x" * 500}]}
        fits = {"type": "doc", "version": 1, "content": [para] * 60}  # 30,000 chars of text
        too_long = {"type": "doc", "version": 1, "content": [para] * 70}  # 35,000
        assert len(json.dumps(fits, separators=(",", ":"))) > 32_767  # refused by the default measure
        assert _raw(jira, "POST", COMMENTS, json={"body": fits}).status_code == 201
        assert _raw(jira, "POST", COMMENTS, json={"body": too_long}).status_code == 400


def test_injected_503_surfaces_as_http_error_then_succeeds(jira: JiraEmulator, client: JiraCloud) -> None:
    jira.inject("POST", COMMENTS, status=503)
    with pytest.raises(requests.HTTPError) as caught:
        client.add_comment("PROJ-1", data={"body": _adf()})
    assert caught.value.response.status_code == 503
    client.add_comment("PROJ-1", data={"body": _adf()})
    assert [p.status for p in jira.posts] == [503, 201] and len(jira.comments("PROJ-1")) == 1


def test_injected_429_carries_retry_after_and_reason(jira: JiraEmulator) -> None:
    jira.inject("POST", COMMENTS, status=429, retry_after=5, rate_limit_reason="jira-per-issue-on-write")
    limited = _raw(jira, "POST", COMMENTS, json={"body": _adf()})
    assert limited.status_code == 429 and limited.headers["Retry-After"] == "5"
    assert limited.headers["RateLimit-Reason"] == "jira-per-issue-on-write"
    assert limited.json()["errorMessages"]


@pytest.mark.parametrize("status", [401, 403, 404])
def test_injected_client_errors(jira: JiraEmulator, status: int) -> None:
    jira.inject("GET", "/rest/api/3/issue/PROJ-1", status=status)
    assert _raw(jira, "GET", "/rest/api/3/issue/PROJ-1").status_code == status
    assert _raw(jira, "GET", "/rest/api/3/issue/PROJ-1").status_code == 200


def test_bad_credentials_get_401(jira: JiraEmulator) -> None:
    bad = JiraCloud(jira.base_url, username="bot@example.com", password="wrong")
    with pytest.raises(requests.HTTPError) as caught:
        bad.get_comments("PROJ-1")
    assert caught.value.response.status_code == 401
    assert caught.value.response.json()["errorMessages"]


def test_comment_list_and_properties(jira: JiraEmulator, client: JiraCloud) -> None:
    first = client.add_comment("PROJ-1", data={"body": _adf(), "properties": PROPS})["id"]
    second = client.add_comment("PROJ-1", data={"body": _adf()})["id"]
    listed = _raw(jira, "POST", "/rest/api/3/comment/list?expand=properties", json={"ids": [int(second), first, 999]})
    values = {v["id"]: v["properties"] for v in listed.json()["values"]}
    assert values == {first: PROPS, second: []}
    plain = _raw(jira, "POST", "/rest/api/3/comment/list", json={"ids": [first]}).json()["values"][0]
    assert "properties" not in plain
    prop = _raw(jira, "GET", f"/rest/api/3/comment/{first}/properties/postmortem-bot")
    assert prop.status_code == 200 and prop.json() == PROPS[0]
    assert _raw(jira, "GET", f"/rest/api/3/comment/{second}/properties/postmortem-bot").status_code == 404
    keys = _raw(jira, "GET", f"/rest/api/3/comment/{first}/properties").json()["keys"]
    assert [k["key"] for k in keys] == ["postmortem-bot"]


def test_timeout_after_store_keeps_the_comment(jira: JiraEmulator) -> None:
    jira.inject("POST", COMMENTS, timeout_after_store=True, stall=30)
    with pytest.raises(requests.exceptions.ReadTimeout):
        requests.post(
            jira.base_url + COMMENTS,
            json={"body": _adf(), "properties": PROPS},
            auth=("bot@example.com", "jira-token"),
            timeout=0.5,
        )
    assert len(jira.comments("PROJ-1")) == 1  # stored although the client saw a timeout
    jira.release()
    again = _raw(jira, "GET", COMMENTS)  # the server is still healthy after the stall is released
    assert again.json()["total"] == 1


def test_delay_holds_the_reply(jira: JiraEmulator) -> None:
    jira.inject("GET", COMMENTS, delay=0.3)
    started = time.monotonic()
    assert _raw(jira, "GET", COMMENTS).status_code == 200
    assert time.monotonic() - started >= 0.3


def test_keep_alive_and_content_length(jira: JiraEmulator) -> None:
    with requests.Session() as session:
        session.auth = ("bot@example.com", "jira-token")
        for _ in range(3):
            answer = session.get(jira.base_url + COMMENTS, timeout=5)
            assert answer.status_code == 200 and answer.headers["Content-Length"] == str(len(answer.content))
    assert answer.headers["Content-Type"] == "application/json;charset=UTF-8"


def test_wait_for_a_comment(jira: JiraEmulator, client: JiraCloud) -> None:
    client.add_comment("PROJ-1", data={"body": _adf()})
    assert jira.wait_for(lambda j: j.comments("PROJ-1"), timeout=2)[0].issue_key == "PROJ-1"
    with pytest.raises(TimeoutError, match="POST /rest/api/3/issue/PROJ-1/comment -> 201"):
        jira.wait_for(lambda j: j.comments("PROJ-2"), timeout=0.1)


def test_runs_as_a_separate_process() -> None:
    with subprocess.Popen(
        [sys.executable, "-m", "emulators", "--issue", "PROJ-3"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        cwd=Path(__file__).resolve().parents[2],
    ) as proc:
        try:
            assert proc.stdout is not None
            urls = json.loads(proc.stdout.readline())
            client = JiraCloud(urls["JIRA_URL"], username=urls["JIRA_EMAIL"], password=urls["JIRA_API_TOKEN"])
            assert _get(client, "rest/api/3/issue/PROJ-3")["key"] == "PROJ-3"
            assert WebClient(token=urls["SLACK_BOT_TOKEN"], base_url=urls["SLACK_API_URL"]).auth_test()["ok"]
        finally:
            assert proc.stdin is not None
            proc.stdin.close()  # closing stdin is the stop signal
            assert proc.wait(timeout=10) == 0


def test_a_slow_comment_check_holds_up_no_other_request(jira: JiraEmulator, monkeypatch: pytest.MonkeyPatch) -> None:
    """Jira serves requests side by side: while one POST's body is still being validated (Atlassian's
    validator runs in a node process), a GET on another ticket is answered, and the POST then completes."""
    checking, release = threading.Event(), threading.Event()

    def slow_check(body: Any) -> None:
        checking.set()
        assert release.wait(10), "the test never released the check"

    monkeypatch.setattr(jira_records, "validate_adf", slow_check)
    jira.add_issue("PROJ-2")
    with ThreadPoolExecutor(1) as pool:
        post = pool.submit(_raw, jira, "POST", COMMENTS, json={"body": _adf()})
        assert checking.wait(10), "the POST never reached its body check"
        assert _raw(jira, "GET", "/rest/api/3/issue/PROJ-2/comment").json()["total"] == 0
        assert not post.done()
        release.set()
        assert post.result(timeout=10).status_code == 201
    assert len(jira.comments("PROJ-1")) == 1
