"""The message shortcut on Jira Data Center: the issue is read on REST v2, its wiki-markup description's `{code}`
blocks become the symptom, and its remote links the fix reference."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bot.localstack import LocalStack
from postmortem.messages import say
from tests.e2e.helpers import channel, running_stack, unique
from tests.e2e.shortcut_helpers import COMMIT, PR, filled, hint, seed_issue, seed_thread, shortcut_modal

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def datacenter() -> Iterator[LocalStack]:
    with running_stack(deployment="datacenter") as local:
        yield local


def test_a_shortcut_reads_the_issue_on_rest_v2(datacenter: LocalStack) -> None:
    key, chan = unique("DCP"), channel()
    seed_issue(datacenter, key, code="java.lang.IllegalStateException: evicted")
    _, chosen = seed_thread(datacenter, chan, key)
    _, view = shortcut_modal(datacenter, chan, chosen)
    assert filled(view)["symptom"].startswith("```\njava.lang.IllegalStateException: evicted\n```")
    assert filled(view)["fix_ref"] == f"{PR} {COMMIT}" and filled(view)["owner"] == "Priya Raman"
    assert hint(view, "owner") == say("hint_owner", "en", ticket=key)
    assert any(f"/rest/api/2/issue/{key}/remotelink" in line for line in datacenter.jira.dump().splitlines())


def test_code_with_a_language_and_noformat_blocks_and_a_self_hosted_merge_request(datacenter: LocalStack) -> None:
    key, chan = unique("DCL"), channel()
    mr = "https://git.corp.example/pay/ledger/-/merge_requests/9/diffs"
    datacenter.jira.add_user("acc-ana", display_name="Ana [ops] {team}")
    datacenter.jira.add_issue(key, assignee_account_id="acc-ana")
    blocks = [("p", "Totals drift."), ("code:sql", "SELECT sum(x) FROM ledger;"), ("noformat", "ERR 42 *drift* {x}")]
    datacenter.jira.issue_reads.describe(key, blocks)
    datacenter.jira.issue_reads.add_remote_link(key, "https://git.corp.example/pay/ledger/-/issues/4")
    datacenter.jira.issue_reads.add_remote_link(key, mr)
    root = datacenter.slack.say_as("U2", chan, f"{key} drift")
    _, view = shortcut_modal(datacenter, chan, root)
    assert filled(view) == {
        "ticket": key,
        "owner": "Ana [ops] {team}",
        "fix_ref": mr,
        "symptom": "```\nSELECT sum(x) FROM ledger;\n```\n\n```\nERR 42 *drift* {x}\n```",
    }
    assert hint(view, "fix_ref") == say("hint_fix_jira_one", "en", ticket=key)
