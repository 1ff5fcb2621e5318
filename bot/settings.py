"""One Settings object (DESIGN §4), read from the environment or `.env`, built in the entry point and passed down."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Literal

from pydantic import Field, SecretStr, ValidationError, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict


class ConfigError(ValueError):
    """Configuration that cannot start the service; the message is one line naming the variable."""


class Settings(BaseSettings):
    """Everything the bot and worker read from their environment; secrets stay `SecretStr`."""

    model_config = SettingsConfigDict(env_file=".env", extra="ignore", case_sensitive=False)

    slack_bot_token: SecretStr
    slack_signing_secret: SecretStr
    slack_app_token: SecretStr | None = None
    slack_api_url: str = "https://slack.com/api/"
    jira_url: str
    jira_email: str
    jira_api_token: SecretStr
    jira_webhook_secret: SecretStr | None = None
    jira_timeout: int = Field(default=15, ge=1, le=120)
    redis_url: str = "redis://localhost:6379/0"
    port: int = Field(default=3000, ge=1, le=65535)
    postmortem_approvers: Annotated[frozenset[str], NoDecode] = frozenset()
    postmortem_lang: Literal["en", "ja"] | None = None
    postmortem_offers: Literal["on", "off"] = "on"
    postmortem_offer_channels: Annotated[frozenset[str], NoDecode] = frozenset()
    postmortem_watchdog_seconds: float = Field(default=2.0, gt=0, le=600)
    # d-resilience (issue 12): how long after an ambiguous POST a search is trusted (DESIGN §4); the longest
    # Jira Retry-After the bot waits for by itself; a worker's lock lifetime (its heartbeat renews it);
    # how long one Slack call retries before its step is rescheduled; the request path's budget for Redis.
    postmortem_post_quiet_seconds: float = Field(default=30.0, ge=0, le=3600)
    postmortem_retry_after_cap_seconds: float = Field(default=300.0, gt=0, le=86400)
    postmortem_lease_seconds: float = Field(default=6.0, ge=2, le=300)
    postmortem_slack_retry_seconds: float = Field(default=15.0, ge=0, le=300)
    postmortem_store_budget_seconds: float = Field(default=1.5, gt=0, le=2.5)

    @field_validator("postmortem_approvers", "postmortem_offer_channels", mode="before")
    @classmethod
    def _id_list(cls, value: object) -> object:
        if isinstance(value, str):
            return frozenset(v for v in value.replace(",", " ").split() if v)
        return value

    @field_validator("slack_api_url")
    @classmethod
    def _api_url(cls, value: str) -> str:
        if not value.startswith(("http://", "https://")):
            raise ValueError("must be an http(s) URL")
        return value if value.endswith("/") else value + "/"

    @field_validator("jira_url")
    @classmethod
    def _jira_url(cls, value: str) -> str:
        if not value.startswith(("http://", "https://")):
            raise ValueError("must be an http(s) URL like https://your-site.atlassian.net")
        return value.rstrip("/")

    @field_validator("slack_bot_token")
    @classmethod
    def _bot_token(cls, value: SecretStr) -> SecretStr:
        if not value.get_secret_value().startswith("xoxb-"):
            raise ValueError("must be a bot token (xoxb-...)")
        return value

    @field_validator("slack_app_token")
    @classmethod
    def _app_token(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None and not value.get_secret_value():
            return None
        if value is not None and not value.get_secret_value().startswith("xapp-"):
            raise ValueError("must be an app-level token (xapp-...) for Socket Mode")
        return value

    @property
    def secrets(self) -> list[str]:
        """Every configured secret's value, so tests and log filters can look for leaks."""
        values = [self.slack_bot_token, self.slack_signing_secret, self.slack_app_token,
                  self.jira_api_token, self.jira_webhook_secret]
        return [v.get_secret_value() for v in values if v is not None and v.get_secret_value()]


def load_settings(environ: Mapping[str, str] | None = None, *, env_file: str | None = ".env") -> Settings:
    """Build Settings from `environ` (tests) or the process environment; errors become one clear line."""
    try:
        if environ is None:
            return Settings(_env_file=env_file)  # type: ignore[call-arg]
        lowered = {k.lower(): v for k, v in environ.items() if k.lower() in Settings.model_fields}
        return Settings(_env_file=None, **lowered)  # type: ignore[call-arg, arg-type]
    except ValidationError as exc:
        err = exc.errors()[0]
        name = str(err["loc"][0]).upper() if err["loc"] else "configuration"
        if err["type"] == "missing":
            raise ConfigError(f"{name} is not set (see .env.example)") from None
        message = str(err["msg"]).removeprefix("Value error, ")
        raise ConfigError(f"{name} is invalid: {message}") from None
