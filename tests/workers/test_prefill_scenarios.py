"""Held-out scenarios for the shortcut's worker (issue 22), with Slack and Jira faked at the client: a key named only
in a reply, two keys, a forge app's attachment as the only link, a channel the bot cannot read with Jira refusing or
down, an unassigned issue, an assignee's name with markup, a Data Center description, `repro:` and `root cause:`
lines that stay out of the form, the chosen message past a 200-message bound, and a job that carries no text."""

from __future__ import annotations

import inspect
from types import SimpleNamespace
from typing import Any, cast

import pytest
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError
from slack_sdk.web import SlackResponse

from postmortem.messages import say
from renderers.prefill import PREFILLED, STATUS_BLOCK, Found, prefilled_view
from workers import prefill
from workers.context import WorkerContext
from workers.jira_gateway import JiraApi, JiraError
from workers.prefill import MAX_MESSAGES, gather

pytestmark = pytest.mark.unit

PR = "https://bitbucket.example.com/projects/LED/repos/ledger/pull-requests/41"
MR = "https://gitlab.example.com/pay/ledger/-/merge_requests/9"


def _error(code: str) -> SlackApiError:
    response = SlackResponse(
        client=None,
        http_verb="POST",
        api_url="x",
        req_args={},
        data={"ok": False, "error": code},
        headers={},
        status_code=200,
    )
    return SlackApiError(code, response)


class Slack:
    """conversations.replies over one thread (or Slack's error), conversations.open, chat.getPermalink."""

    def __init__(self, thread: list[dict[str, Any]], *, error: str | None = None) -> None:
        self.thread, self.error, self.opened = thread, error, 0

    def conversations_replies(self, **params: Any) -> dict[str, Any]:
        if self.error:
            raise _error(self.error)
        start = int(params.get("cursor") or 0)
        if params.get("oldest"):
            later = [m for m in self.thread[1:] if float(m["ts"]) >= float(params["oldest"])]
            return {"messages": [self.thread[0], *later][: params["limit"]], "has_more": False}
        page = self.thread[start : start + int(params["limit"])]
        more = start + len(page) < len(self.thread)
        return {"messages": page, "has_more": more, "response_metadata": {"next_cursor": str(start + len(page))}}

    def conversations_open(self, **params: Any) -> dict[str, Any]:
        self.opened += 1
        return {"channel": {"id": "D" + params["users"][1:]}}

    def chat_getPermalink(self, **params: Any) -> dict[str, Any]:
        return {"permalink": f"https://acme.slack.com/archives/{params['channel']}/p1"}


class Jira:
    """An issue's fields and remote links, or one error for every read."""

    def __init__(
        self,
        *,
        deployment: str = "cloud",
        fields: dict[str, Any] | None = None,
        links: tuple[str, ...] = (),
        error: JiraError | None = None,
    ) -> None:
        self.api = JiraApi.of("datacenter" if deployment == "datacenter" else "cloud")
        self.fields, self.links, self.error = fields or {}, list(links), error
        self.paths: list[str] = []

    def call(self, method: str, path: str, **kwargs: Any) -> Any:
        self.paths.append(path)
        if self.error is not None:
            raise self.error
        if path.endswith("/remotelink"):
            return [{"object": {"url": u, "title": "t"}} for u in self.links]
        return {"key": path.rsplit("/", 1)[-1], "fields": self.fields}


def run(slack: Slack, jira: Jira, ts: str, keys: list[str] | None = None) -> tuple[Found, dict[str, Any]]:
    ctx = cast(WorkerContext, SimpleNamespace(jira=jira, permission_check=False))
    return gather(ctx, cast(WebClient, slack), "C7", ts, "500.1", "U9", keys or [], {"channel": "C7"})


def status(found: Found, lang: str = "en") -> str:
    view = prefilled_view(found, lang="ja" if lang == "ja" else "en", private_metadata="{}")
    return str(next(b for b in view["blocks"] if b.get("block_id") == STATUS_BLOCK)["elements"][0]["text"])


def test_a_key_named_only_in_a_reply_is_the_ticket_and_a_forge_apps_attachment_is_a_fix() -> None:
    slack = Slack(
        [
            {"ts": "500.1", "text": "ledger totals drift after midnight"},
            {"ts": "500.2", "text": "tracking in LED-204", "thread_ts": "500.1"},
            {"ts": "500.3", "text": "", "attachments": [{"title_link": PR, "fallback": "PR merged"}]},
            {"ts": "500.4", "text": "dashboards: https://grafana.example.com/d/led/pull/2", "thread_ts": "500.1"},
        ]
    )
    jira = Jira(fields={"assignee": None, "description": None}, links=(MR, "https://ci.example.com/job/41"))
    found, meta = run(slack, jira, "500.1")
    assert (found.ticket, found.ticket_from) == ("LED-204", "thread")
    assert found.thread_fix == (PR,) and found.jira_fix == (MR,)
    assert found.owner is None  # unassigned: no owner, and no owner hint
    view = prefilled_view(found, lang="en", private_metadata="{}")
    owner = next(b for b in view["blocks"] if b.get("block_id") == "owner")
    assert "initial_value" not in owner["element"] and owner.get("hint", {}).get("text") != say(
        "hint_owner", "en", ticket="LED-204"
    )
    assert meta["origin"]["ts"] == "500.1"


def test_two_keys_in_the_thread_give_no_ticket_and_no_jira_read() -> None:
    """The chosen message names none; the thread names two (a key in the chosen message itself would win)."""
    slack = Slack(
        [
            {"ts": "500.1", "text": "LED-204 drift"},
            {"ts": "500.2", "text": "maybe LED-205", "thread_ts": "500.1"},
            {"ts": "500.3", "text": "found it", "thread_ts": "500.1"},
        ]
    )
    jira = Jira(fields={"assignee": {"displayName": "Ana"}})
    found, _ = run(slack, jira, "500.3")
    assert found.ticket is None and found.owner is None and jira.paths == []
    assert say("prefill_many_keys", "en", keys="LED-204, LED-205") in status(found)


def test_an_assignee_name_with_markup_is_shown_as_typed_and_evidence_lines_stay_out() -> None:
    thread = [
        {"ts": "500.1", "text": "LED-204 drift\nrepro: run the nightly close twice\nroot cause: a stale cache key"},
        {"ts": "500.2", "text": "validated on staging, confirmed by <@U3>", "thread_ts": "500.1"},
    ]
    fields = {
        "assignee": {"displayName": "*Ana* <b>O'Neil</b> & _co_ `x`"},
        "description": {
            "type": "doc",
            "content": [{"type": "paragraph", "content": [{"type": "text", "text": "repro: x"}]}],
        },
    }
    found, _ = run(Slack(thread), Jira(fields=fields), "500.1")
    view = prefilled_view(found, lang="en", private_metadata="{}")
    values = {b["block_id"]: b["element"].get("initial_value") for b in view["blocks"] if b["type"] == "input"}
    assert values["owner"] == "*Ana* <b>O'Neil</b> & _co_ `x`"
    assert {k for k, v in values.items() if v} <= PREFILLED
    for evidence in ("repro", "repro_rate", "root_cause", "confirmed_by", "validation", "why_missed"):
        assert not values.get(evidence)


def test_a_data_center_description_gives_its_code_and_noformat_blocks() -> None:
    wiki = "Totals drift.\n{code:sql}\nSELECT sum(x) FROM ledger;\n{code}\n{noformat}\nERR 42 <drift>\n{noformat}"
    jira = Jira(deployment="datacenter", fields={"description": wiki, "assignee": {"displayName": "Ana"}})
    found, _ = run(Slack([{"ts": "500.1", "text": "LED-204"}]), jira, "500.1")
    assert found.jira_code == ("SELECT sum(x) FROM ledger;", "ERR 42 <drift>")
    assert jira.paths[0] == "rest/api/2/issue/LED-204"


@pytest.mark.parametrize(
    ("error", "why"),
    [
        (JiraError("forbidden", status=403), "prefill_jira_forbidden"),
        (JiraError("hidden", status=404), "prefill_jira_missing"),
        (JiraError("unavailable", status=503, retryable=True), "prefill_jira_down"),
    ],
)
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_channel_the_bot_cannot_read_and_a_jira_that_refuses_still_open_with_the_key_and_both_reasons(
    error: JiraError, why: str, lang: str
) -> None:
    slack = Slack([], error="not_in_channel")
    found, meta = run(slack, Jira(error=error), "500.3", keys=["LED-204"])
    assert (found.ticket, found.ticket_from, found.owner, found.thread_fix, found.message_code) == (
        "LED-204",
        "message",
        None,
        (),
        (),
    )
    said = status(found, lang)
    shown: Any = "ja" if lang == "ja" else "en"
    assert say("prefill_no_channel", shown, error="not_in_channel") in said
    assert say("prefill_jira_failed", shown, ticket="LED-204", why=say(why, shown)) in said
    assert meta["channel"] == "D9" and slack.opened == 1  # the session runs by DM


def test_a_message_past_a_thread_of_more_than_200_messages_is_still_read() -> None:
    thread = [{"ts": "500.1", "text": "LED-204 drift"}]
    thread += [{"ts": f"{501 + i}.1", "text": f"shard {i} ok", "thread_ts": "500.1"} for i in range(260)]
    thread.append({"ts": "900.1", "text": f"merged <{MR}|!9>\n```\nERR 42\n```", "thread_ts": "500.1"})
    found, _ = run(Slack(thread), Jira(fields={}), "900.1")
    assert found.ticket == "LED-204" and found.thread_fix == (MR,) and found.message_code == ("ERR 42",)
    assert any(n.key == "prefill_bounded" and n.params["n"] == MAX_MESSAGES for n in found.notes)


def test_the_job_carries_keys_never_the_message_text() -> None:
    params = list(inspect.signature(prefill.fill).parameters)
    assert "message_keys" in params and not any("text" in p for p in params)


class LinksDown(Jira):
    """The issue answers; its remote links answer 503."""

    def call(self, method: str, path: str, **kwargs: Any) -> Any:
        if path.endswith("/remotelink"):
            raise JiraError("unavailable", status=503, retryable=True)
        return super().call(method, path, **kwargs)


def test_remote_links_down_keep_the_issues_fields_and_say_the_links_are_missing() -> None:
    jira = LinksDown(fields={"assignee": {"displayName": "Ana"}, "description": None})
    found, _ = run(Slack([{"ts": "500.1", "text": f"LED-204 fixed by <{MR}>"}]), jira, "500.1")
    assert (found.owner, found.jira_fix, found.thread_fix) == ("Ana", (), (MR,))
    assert say("prefill_links_unread", "en", ticket="LED-204") in status(found)


def test_a_message_without_a_thread_is_read_as_one_message() -> None:
    found, _ = run(Slack([{"ts": "500.1", "text": "LED-204 drift"}]), Jira(fields={}), "500.1")
    assert say("prefill_read_one", "en") in status(found) and "1 messages" not in status(found)


def test_the_key_a_start_button_carried_wins_over_another_key_in_the_thread() -> None:
    jira = Jira(fields={"assignee": {"displayName": "Ana"}})
    ctx = cast(WorkerContext, SimpleNamespace(jira=jira, permission_check=False))
    slack = Slack([{"ts": "500.1", "text": "LED-5 drift"}, {"ts": "500.2", "text": "see LED-5", "thread_ts": "500.1"}])
    found, _ = gather(ctx, cast(WebClient, slack), "C7", "500.1", "500.1", "U9", [], {}, known="PAY-12")
    assert (found.ticket, found.ticket_from, found.owner) == ("PAY-12", "start", "Ana")
    assert jira.paths[0] == "rest/api/3/issue/PAY-12"
    agreed, _ = gather(ctx, cast(WebClient, slack), "C7", "500.1", "500.1", "U9", [], {}, known="LED-5")
    assert (agreed.ticket, agreed.ticket_from) == ("LED-5", "message")
