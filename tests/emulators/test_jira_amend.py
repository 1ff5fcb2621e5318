"""The Jira emulator's comment updates (emulators/jira_amend.py), through the bot's own gateway on both deployments:
the PUT replaces the body and the properties it carries, the property resource sets one, an unknown comment is 404."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bot.localstack import JIRA_DEPLOYMENTS, jira_emulator
from emulators.jira_cloud import JiraEmulator
from renderers.jira_comment import comment_request
from workers import amending
from workers.jira_gateway import JiraError, JiraGateway

pytestmark = pytest.mark.unit

DOC = {"type": "doc", "version": 1, "content": [{"type": "paragraph", "content": [{"type": "text", "text": "v"}]}]}


@pytest.fixture(params=JIRA_DEPLOYMENTS)
def jira(request: pytest.FixtureRequest) -> Iterator[tuple[JiraEmulator, JiraGateway]]:
    with jira_emulator(request.param) as emulator:
        emulator.add_issue("PROJ-1")
        dc = request.param == "datacenter"
        email = "" if dc else emulator.email
        yield emulator, JiraGateway(emulator.base_url, email, emulator.api_token, deployment=request.param)


def body(gateway: JiraGateway, version: int, text: str) -> bytes:
    doc = {**DOC, "content": [{"type": "paragraph", "content": [{"type": "text", "text": text}]}]}
    return comment_request(doc, deployment=gateway.api.deployment, session="s1", version=version).body


def test_a_put_replaces_the_body_and_the_property_of_the_same_comment(jira: tuple[JiraEmulator, JiraGateway]) -> None:
    emulator, gateway = jira
    posted = gateway.post_comment("PROJ-1", body(gateway, 1, "first"))
    amended = body(gateway, 2, "second")
    amending.update_comment(gateway, "PROJ-1", posted.id, amended)
    amending.update_comment(gateway, "PROJ-1", posted.id, amended)  # idempotent: sent again, same result
    [comment] = emulator.comments("PROJ-1")
    assert (comment.id, comment.raw) == (posted.id, amended)
    assert comment.property_map["postmortem-bot"]["version"] == 2
    assert [u.comment_id for u in emulator.updates.applied] == [posted.id, posted.id]
    assert len(emulator.posts) == 1


def test_the_property_resource_sets_what_a_site_dropped(jira: tuple[JiraEmulator, JiraGateway]) -> None:
    emulator, gateway = jira
    posted = gateway.post_comment("PROJ-1", body(gateway, 1, "first"))
    emulator.updates.ignore_properties_on_update = True
    amended = body(gateway, 2, "second")
    amending.update_comment(gateway, "PROJ-1", posted.id, amended)
    assert emulator.comments("PROJ-1")[0].property_map["postmortem-bot"]["version"] == 1
    amending.set_property(gateway, posted.id, amended)
    assert emulator.comments("PROJ-1")[0].property_map["postmortem-bot"]["version"] == 2


def test_a_deleted_comment_answers_404(jira: tuple[JiraEmulator, JiraGateway]) -> None:
    emulator, gateway = jira
    posted = gateway.post_comment("PROJ-1", body(gateway, 1, "first"))
    emulator.updates.delete_in_ui(posted.id)
    with pytest.raises(JiraError) as raised:
        amending.update_comment(gateway, "PROJ-1", posted.id, body(gateway, 2, "second"))
    assert raised.value.status == 404 and emulator.comments("PROJ-1") == []
