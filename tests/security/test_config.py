"""Configuration that would fail quietly is refused at start-up, in one line naming the variable."""

from __future__ import annotations

import pytest

from bot.settings import ConfigError, load_settings

pytestmark = pytest.mark.unit

ENV = {
    "SLACK_BOT_TOKEN": "xoxb-test",
    "SLACK_SIGNING_SECRET": "s3cret",
    "JIRA_URL": "https://example.atlassian.net",
    "JIRA_EMAIL": "bot@example.com",
    "JIRA_API_TOKEN": "jira-t0ken",
    "REDIS_URL": "redis://127.0.0.1:1/0",
}


@pytest.mark.parametrize(
    "changes, needle",
    [
        ({"POSTMORTEM_APPROVERS": '["U012ABCDEF", "U034GHIJKL"]'}, "POSTMORTEM_APPROVERS is invalid"),
        ({"POSTMORTEM_APPROVERS": "U012ABCDEF;U034GHIJKL"}, "POSTMORTEM_APPROVERS is invalid"),
        ({"POSTMORTEM_APPROVERS": "@alice"}, "POSTMORTEM_APPROVERS is invalid"),
        ({"POSTMORTEM_OFFER_CHANNELS": '["C012ABCDEF"]'}, "POSTMORTEM_OFFER_CHANNELS is invalid"),
        ({"SLACK_SIGNING_SECRET": ""}, "SLACK_SIGNING_SECRET is invalid"),
        ({"SLACK_SIGNING_SECRET": "   "}, "SLACK_SIGNING_SECRET is invalid"),
        ({"JIRA_API_TOKEN": ""}, "JIRA_API_TOKEN is invalid"),
        ({"JIRA_WEBHOOK_SECRET": "  "}, "JIRA_WEBHOOK_SECRET is invalid"),
        ({"JIRA_URL": "http://example.atlassian.net"}, "JIRA_URL is invalid"),
        ({"JIRA_URL": "https://"}, "JIRA_URL is invalid"),
        ({"JIRA_URL": "http://127.0.0.1.example.com"}, "JIRA_URL is invalid"),
        ({"SLACK_API_URL": "http://slack.com/api/"}, "SLACK_API_URL is invalid"),
        ({"SLACK_API_URL": "ftp://127.0.0.1/api/"}, "SLACK_API_URL is invalid"),
        ({"POSTMORTEM_APPROVAL": "anyone"}, "POSTMORTEM_APPROVAL is invalid"),
        ({"POSTMORTEM_APPROVAL": "reviewer"}, "POSTMORTEM_APPROVAL is invalid"),
        ({"POSTMORTEM_JIRA_PERMISSION_CHECK": "maybe"}, "POSTMORTEM_JIRA_PERMISSION_CHECK is invalid"),
    ],
)
def test_quiet_misconfiguration_is_one_line_naming_the_variable(changes: dict[str, str], needle: str) -> None:
    with pytest.raises(ConfigError) as caught:
        load_settings({**ENV, **changes})
    message = str(caught.value)
    assert message.startswith(needle) and "\n" not in message
    assert "s3cret" not in message and "jira-t0ken" not in message


@pytest.mark.parametrize("url", ["http://127.0.0.1:8080", "http://localhost:9000/", "http://[::1]:81"])
def test_plain_http_is_fine_on_loopback(url: str) -> None:
    settings = load_settings({**ENV, "JIRA_URL": url, "SLACK_API_URL": url})
    assert settings.jira_url == url.rstrip("/") and settings.slack_api_url.startswith(url.rstrip("/"))


def test_the_approval_settings() -> None:
    default = load_settings(ENV)
    assert (default.postmortem_approval, default.postmortem_jira_permission_check) == ("requester", "on")
    reviewer = load_settings(
        {
            **ENV,
            "POSTMORTEM_APPROVAL": "reviewer",
            "POSTMORTEM_APPROVERS": "U1AA U2BB",
            "POSTMORTEM_JIRA_PERMISSION_CHECK": "off",
        }
    )
    assert reviewer.postmortem_approval == "reviewer" and reviewer.postmortem_approvers == {"U1AA", "U2BB"}
    assert reviewer.postmortem_jira_permission_check == "off"
    assert load_settings({**ENV, "JIRA_WEBHOOK_SECRET": ""}).jira_webhook_secret is None
