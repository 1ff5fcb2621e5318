"""One Settings object (DESIGN §4), read from the environment or `.env`, built in the entry point and passed down."""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Mapping
from typing import Annotated, Literal
from urllib.parse import urlsplit

from pydantic import Field, SecretStr, ValidationError, ValidationInfo, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from sessions.lifetime import Lifetime

#: A Slack user or channel id (U…, W…, C…, G…, D…): upper-case letters and digits (`_` for test ids).
_SLACK_ID = re.compile(r"[A-Z][A-Z0-9_]{1,30}")


def _https_or_loopback(value: str, example: str) -> None:
    """Tokens travel with every call: plain http only to this machine (emulators, tests)."""
    try:
        url = urlsplit(value)
        host = url.hostname or ""
    except ValueError:
        raise ValueError(f"must be an https URL like {example}") from None
    if url.scheme == "https" and host:
        return
    if url.scheme == "http" and _loopback(host):
        return
    raise ValueError(f"must be an https URL like {example} (http only on loopback)")


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class ConfigError(ValueError):
    """Configuration that cannot start the service; the message is one line naming the variable."""


class Settings(BaseSettings):
    """Everything the bot and worker read from their environment; secrets stay `SecretStr`."""

    model_config = SettingsConfigDict(env_file=".env", extra="ignore", case_sensitive=False)

    # --- Slack: the bot's tokens and the Web API it calls -------------------------------------------------
    slack_bot_token: SecretStr
    slack_signing_secret: SecretStr
    #: Set, the bot runs in Socket Mode instead of receiving HTTP requests.
    slack_app_token: SecretStr | None = None
    slack_api_url: str = "https://slack.com/api/"

    @field_validator("slack_bot_token")
    @classmethod
    def _bot_token(cls, value: SecretStr) -> SecretStr:
        if not value.get_secret_value().startswith("xoxb-"):
            raise ValueError("must be a bot token (xoxb-...)")
        return value

    @field_validator("slack_signing_secret", "jira_api_token")
    @classmethod
    def _secret_set(cls, value: SecretStr) -> SecretStr:
        if not value.get_secret_value().strip():
            raise ValueError("must not be empty")
        return value

    @field_validator("slack_app_token")
    @classmethod
    def _app_token(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None and not value.get_secret_value():
            return None
        if value is not None and not value.get_secret_value().startswith("xapp-"):
            raise ValueError("must be an app-level token (xapp-...) for Socket Mode")
        return value

    @field_validator("slack_api_url")
    @classmethod
    def _api_url(cls, value: str) -> str:
        _https_or_loopback(value, "https://slack.com/api/")
        return value if value.endswith("/") else value + "/"

    # --- Jira: the site, the bot's account, its webhook and who may see its comment ------------------------
    jira_url: str
    #: Empty sends JIRA_API_TOKEN as a Bearer token: a Data Center / Server personal access token.
    jira_email: str = ""
    jira_api_token: SecretStr
    #: `cloud` (REST v3, ADF) or `datacenter` (Data Center / Server: REST v2, wiki markup); unset: the worker asks
    #: Jira's serverInfo at start-up.
    jira_deployment: Literal["cloud", "datacenter"] | None = None
    jira_webhook_secret: SecretStr | None = None
    #: Seconds the worker waits for one Jira call.
    jira_timeout: int = Field(default=15, ge=1, le=120)
    #: Who may see the Jira comment (DESIGN §4): role:<project role name> or group:<group id>.
    postmortem_jira_visibility: str | None = None

    @field_validator("jira_url")
    @classmethod
    def _jira_url(cls, value: str) -> str:
        _https_or_loopback(value, "https://your-site.atlassian.net")
        return value.rstrip("/")

    @field_validator("jira_deployment", mode="before")
    @classmethod
    def _jira_deployment(cls, value: object) -> object:
        return value.strip().lower() or None if isinstance(value, str) else value  # empty is unset: detected

    @field_validator("jira_webhook_secret")
    @classmethod
    def _optional_secret(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None and not value.get_secret_value():
            return None  # empty is unset: every webhook is refused
        if value is not None and not value.get_secret_value().strip():
            raise ValueError("must not be only whitespace (leave it unset to refuse every webhook)")
        return value

    @field_validator("postmortem_jira_visibility")
    @classmethod
    def _jira_visibility(cls, value: str | None) -> str | None:
        if value is None or not value.strip():
            return None
        kind, colon, name = value.strip().partition(":")
        if kind not in ("role", "group") or not colon or not name.strip():
            raise ValueError("must be role:<project role name> or group:<group id>")
        return f"{kind}:{name.strip()}"

    # --- Redis (the session store and the job queue) and the HTTP port ------------------------------------
    redis_url: str = "redis://localhost:6379/0"
    port: int = Field(default=3000, ge=1, le=65535)

    # --- What `serve`'s clients may hold: connections, time, request bodies, memory (SECURITY.md, Limits) --
    #: Open connections; one more is answered 503 and closed before anything is read from it.
    postmortem_http_max_connections: int = Field(default=1000, ge=1, le=100_000)
    #: Seconds a client has to send one whole request, headers and body; past it the connection is closed.
    postmortem_http_read_seconds: float = Field(default=10.0, gt=0, le=120)
    #: MiB of request bodies all requests in flight may hold together; past it a request is answered 503.
    postmortem_http_body_budget_mb: int = Field(default=32, ge=8, le=4096)
    #: The memory `serve` may use, in MiB; unset, the container's limit (its cgroup), if it has one.
    postmortem_memory_limit_mb: int | None = Field(default=None, ge=64)
    #: /healthz answers 503 once the process's resident memory passes this fraction of that limit.
    postmortem_memory_unhealthy_fraction: float = Field(default=0.8, gt=0, le=1)

    @field_validator("postmortem_memory_limit_mb", mode="before")
    @classmethod
    def _unset_when_empty(cls, value: object) -> object:
        return None if isinstance(value, str) and not value.strip() else value

    # --- Sessions and approval: their language, who approves, how long an idle session lives -------------
    #: The language of headings and messages; unset, the requester's Slack locale decides.
    postmortem_lang: Literal["en", "ja"] | None = None
    #: Slack ids who may approve besides the requester; declared before `postmortem_approval`, whose check reads it.
    postmortem_approvers: Annotated[frozenset[str], NoDecode] = frozenset()
    #: `requester`: the requester or an approver approves; `reviewer`: an approver other than the requester.
    postmortem_approval: Literal["requester", "reviewer"] = "requester"
    #: `on`: the approver must be a Jira user who may comment on the issue (workers/permissions.py).
    postmortem_jira_permission_check: Literal["on", "off"] = "on"
    #: An idle session's lifetime, and how long before it expires the one reminder is sent.
    postmortem_session_days: float = Field(default=14.0, gt=0, le=365)
    postmortem_reminder_hours: float = Field(default=24.0, ge=0, le=365 * 24)

    @field_validator("postmortem_approvers", "postmortem_offer_channels", mode="before")
    @classmethod
    def _id_list(cls, value: object) -> object:
        if isinstance(value, str):
            ids = frozenset(v for v in value.replace(",", " ").split() if v)
            if any(not _SLACK_ID.fullmatch(v) for v in ids):
                raise ValueError(
                    "write Slack ids (like U012ABCDEF) separated by commas or spaces, not a JSON list or names"
                )
            return ids
        return value

    @field_validator("postmortem_approval")
    @classmethod
    def _reviewers_exist(cls, value: str, info: ValidationInfo) -> str:
        if value == "reviewer" and not info.data.get("postmortem_approvers"):
            raise ValueError("reviewer needs POSTMORTEM_APPROVERS (the Slack ids of who may review)")
        return value

    # --- Offers: the Start button after a verified fix, and to the assignee of a bug Jira resolves --------
    postmortem_offers: Literal["on", "off"] = "on"
    postmortem_offer_channels: Annotated[frozenset[str], NoDecode] = frozenset()
    #: Jira issue types (names or ids) whose resolution offers a post-mortem to the assignee.
    postmortem_jira_issue_types: Annotated[frozenset[str], NoDecode] = frozenset({"Bug", "バグ"})
    #: Where that offer goes when the assignee has no Slack user the bot can find (else one log line).
    postmortem_offer_fallback_channel: str | None = None

    @field_validator("postmortem_jira_issue_types", mode="before")
    @classmethod
    def _issue_types(cls, value: object) -> object:
        if isinstance(value, str):  # names may hold spaces ("Production Bug"): only commas separate
            return frozenset(v.strip() for v in value.split(",") if v.strip()) or frozenset({"Bug", "バグ"})
        return value

    @field_validator("postmortem_offer_fallback_channel")
    @classmethod
    def _fallback_channel(cls, value: str | None) -> str | None:
        return (value.strip() or None) if value is not None else None

    # --- Limits and timing: waits, retries, leases and the request path's budget (DESIGN §4) ---------------
    #: How often each worker looks for work a dead worker left behind, and for reminders due.
    postmortem_watchdog_seconds: float = Field(default=1.0, gt=0, le=600)
    #: How long after an ambiguous POST (timeout, reset, 5xx) a search that finds no comment is trusted.
    postmortem_post_quiet_seconds: float = Field(default=30.0, ge=0, le=3600)
    #: The issue type of the Jira issues made for `tracking: new` action items (DESIGN §4 Follow-up issues).
    postmortem_followup_issue_type: str = Field(default="Task", min_length=1, max_length=255)
    #: The longest Jira Retry-After the bot waits for by itself; past it the thread is offered Retry.
    postmortem_retry_after_cap_seconds: float = Field(default=300.0, gt=0, le=86400)
    #: A worker's lock lifetime; its heartbeat renews it, so a dead worker's work is picked up this soon.
    postmortem_lease_seconds: float = Field(default=3.0, ge=2, le=300)
    #: How long one Slack call from a worker retries before its step is rescheduled.
    postmortem_slack_retry_seconds: float = Field(default=15.0, ge=0, le=300)
    #: The request path's budget for Redis before Slack is told the bot is unavailable.
    postmortem_store_budget_seconds: float = Field(default=1.5, gt=0, le=2.5)

    # --- Read from the settings above ---------------------------------------------------------------------
    @property
    def secrets(self) -> list[str]:
        """Every configured secret's value, so tests and log filters can look for leaks."""
        values = [
            self.slack_bot_token,
            self.slack_signing_secret,
            self.slack_app_token,
            self.jira_api_token,
            self.jira_webhook_secret,
        ]
        found = [v.get_secret_value() for v in values if v is not None and v.get_secret_value()]
        redis_password = urlsplit(self.redis_url).password  # Redis access is control of the bot
        return found + ([redis_password] if redis_password else [])

    @property
    def lifetime(self) -> Lifetime:
        """POSTMORTEM_SESSION_DAYS and POSTMORTEM_REMINDER_HOURS: the store's TTL and the reminder sweep."""
        return Lifetime.of(session_days=self.postmortem_session_days, reminder_hours=self.postmortem_reminder_hours)


def load_settings(environ: Mapping[str, str] | None = None, *, env_file: str | None = ".env") -> Settings:
    """Build Settings from `environ` (tests) or the process environment; errors become one clear line."""
    try:
        if environ is None:
            return Settings(_env_file=env_file)
        lowered = {k.lower(): v for k, v in environ.items() if k.lower() in Settings.model_fields}
        return Settings(_env_file=None, **lowered)  # type: ignore[arg-type]
    except ValidationError as exc:
        err = exc.errors()[0]
        name = str(err["loc"][0]).upper() if err["loc"] else "configuration"
        if err["type"] == "missing":
            raise ConfigError(f"{name} is not set (see .env.example)") from None
        message = str(err["msg"]).removeprefix("Value error, ")
        raise ConfigError(f"{name} is invalid: {message}") from None
