"""The Jira emulator's Data Center mode: serverInfo, Bearer tokens, REST v2 routes, wiki-string bodies."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
import requests
from atlassian import Jira

from emulators.jira_datacenter import DataCenterJiraEmulator
from renderers.wiki import wiki_request

pytestmark = pytest.mark.unit


@pytest.fixture
def jira() -> Iterator[DataCenterJiraEmulator]:
    with DataCenterJiraEmulator() as emulator:
        emulator.add_issue("PROJ-1", assignee_email="dev@example.com")
        yield emulator


def test_server_info_says_data_center_and_the_library_sends_the_token_as_bearer(jira: DataCenterJiraEmulator) -> None:
    client = Jira(jira.base_url, token="jira-pat", backoff_and_retry=False, retry_with_header=False)
    info = client.get("rest/api/2/serverInfo")
    assert isinstance(info, dict) and info["deploymentType"] == "DataCenter"
    basic = requests.get(f"{jira.base_url}/rest/api/2/issue/PROJ-1", auth=("bot@example.com", "jira-pat"), timeout=5)
    assert basic.status_code == 401
    assert jira.posts == []


def test_a_wiki_comment_is_stored_with_its_properties_and_read_back(jira: DataCenterJiraEmulator) -> None:
    headers = {"Authorization": "Bearer jira-pat", "Content-Type": "application/json"}
    request = wiki_request("h2. T\n\n\\*x\\*", session="s1", version=1, visible_to="role:Developers")
    posted = requests.post(f"{jira.base_url}/rest/api/2/issue/PROJ-1/comment", data=request.body, headers=headers)
    assert posted.status_code == 201, posted.text
    assert jira.posts[0].body == request.body
    listed = requests.get(
        f"{jira.base_url}/rest/api/2/issue/PROJ-1/comment",
        params={"orderBy": "-created", "expand": "properties"},
        headers=headers,
        timeout=5,
    ).json()["comments"]
    assert listed[0]["body"] == "h2. T\n\n\\*x\\*"
    assert {p["key"] for p in listed[0]["properties"]} == {"postmortem-bot", "sd.public.comment"}
    v3 = requests.get(f"{jira.base_url}/rest/api/3/issue/PROJ-1/comment", headers=headers, timeout=5)
    assert v3.status_code == 404


@pytest.mark.parametrize(
    ("body", "accepts_properties", "status"),
    [("x" * 32767, True, 201), ("x" * 32768, True, 400), ({"type": "doc"}, True, 400), ("x", False, 400)],
)
def test_bodies_are_strings_within_the_limit_and_properties_may_be_refused(
    jira: DataCenterJiraEmulator, body: object, accepts_properties: bool, status: int
) -> None:
    jira.accepts_properties = accepts_properties
    data = json.dumps({"body": body, "properties": [{"key": "postmortem-bot", "value": {"session": "s"}}]})
    posted = requests.post(
        f"{jira.base_url}/rest/api/2/issue/PROJ-1/comment",
        data=data,
        headers={"Authorization": "Bearer jira-pat", "Content-Type": "application/json"},
        timeout=5,
    )
    assert posted.status_code == status
    assert len(jira.comments("PROJ-1")) == (status == 201)


def test_permission_search_takes_a_username(jira: DataCenterJiraEmulator) -> None:
    jira.add_user("alex", email="alex@example.com", display_name="Alex")
    jira.grant("alex", "PROJ-1")
    found = requests.get(
        f"{jira.base_url}/rest/api/2/user/permission/search",
        params={"permissions": "ADD_COMMENTS", "issueKey": "PROJ-1", "username": "alex@example.com"},
        headers={"Authorization": "Bearer jira-pat"},
        timeout=5,
    ).json()
    assert [u["displayName"] for u in found] == ["Alex"]
