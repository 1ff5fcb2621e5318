"""Shared fixtures: a real Redis database flushed around each test, the example inputs, the ADF validator."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

import pytest
import redis
import redis.backoff
import slack_sdk.http_retry.jitter

from emulators.adf_atlaskit import atlaskit_validator
from emulators.adf_schema import adf_validator
from emulators.slack_api import SlackEmulator
from postmortem.model import PostMortem, load_postmortem
from tests.helpers import EXAMPLES, TEST_REDIS_URL

if TYPE_CHECKING:
    from handlers.deps import Deps
    from tests.handlers.fakes import FakeQueue


def pytest_configure(config: pytest.Config) -> None:
    """The retry jitter of redis-py and slack_sdk draws from the process-wide `random`. A retry still running
    in a background thread of an earlier test (a store call against a Redis that was stopped, a Slack call
    being retried) would change that state while Hypothesis generates an example, which Hypothesis reports
    as a strategy using `random`. The libraries get a generator of their own for the test run."""
    private = random.Random()
    redis.backoff.random = private  # type: ignore[assignment,attr-defined]
    slack_sdk.http_retry.jitter.random = private  # type: ignore[assignment,attr-defined]


@pytest.fixture
def redis_conn() -> Iterator[redis.Redis]:
    conn = redis.Redis.from_url(TEST_REDIS_URL)
    conn.flushdb()
    yield conn
    conn.flushdb()
    conn.close()


@pytest.fixture
def example() -> Callable[[str], PostMortem]:
    """Load one of examples/*.yaml by its stem, e.g. example("cache-eviction.en")."""
    return lambda stem: load_postmortem(EXAMPLES / f"{stem}.yaml")


@pytest.fixture(scope="session", autouse=True)
def _stop_atlaskit() -> Iterator[None]:
    """Atlassian's validator runs in one node process for the whole session: stop it at the end."""
    yield
    if atlaskit_validator.cache_info().currsize:
        atlaskit_validator().close()
        atlaskit_validator.cache_clear()


@pytest.fixture(scope="session")
def validate_adf() -> Callable[[Any], Any]:
    """Both validators Jira's answer depends on: the official ADF schema (pinned, fetched with npm pack,
    compiled once) and Atlassian's own validator (pinned @atlaskit/adf-utils, one node process)."""
    schema, atlaskit = adf_validator(), atlaskit_validator()

    def validate(doc: Any) -> None:
        schema(doc)
        atlaskit.validate(doc)

    return validate


@pytest.fixture(scope="module")
def slack() -> Iterator[SlackEmulator]:
    """A Slack emulator for a module (modules with their own `slack` fixture use theirs)."""
    with SlackEmulator(bot_token="xoxb-test") as emulator:
        yield emulator


@pytest.fixture
def app(redis_conn: redis.Redis, slack: SlackEmulator) -> Any:
    """The bot's ASGI app (tests/asgi.py calls it), on the test database and the Slack emulator."""
    from bot.app import create_app  # the app's imports only for the tests that use it
    from bot.settings import load_settings
    from tests.asgi import ENV

    return create_app(load_settings({**ENV, "SLACK_API_URL": slack.base_url}), redis_conn=redis_conn).http


@pytest.fixture
def queue() -> FakeQueue:
    """A stand-in RQ queue recording what the handlers enqueue (modules with their own `queue` use theirs)."""
    from tests.handlers.fakes import FakeQueue

    return FakeQueue()


@pytest.fixture
def deps(redis_conn: redis.Redis, queue: FakeQueue) -> Deps:
    """The handlers' Deps as the Jira webhook gets them: a real store on the test database, `queue`, and the webhook
    secret tests/handlers/helpers.py signs with (modules with their own `deps` fixture use theirs)."""
    from pydantic import SecretStr

    from handlers.deps import Deps
    from sessions.store import SessionStore
    from tests.handlers.helpers import SECRET

    return Deps(store=SessionStore(redis_conn), queue=queue, redis=redis_conn, jira_webhook_secret=SecretStr(SECRET))
