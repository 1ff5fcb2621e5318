"""`help` and `list` are command words, in either language; anything else is read as the ticket key."""

from __future__ import annotations

import pytest
import yaml

from handlers.home import subcommand
from tests.conftest import ROOT

pytestmark = pytest.mark.unit


@pytest.mark.parametrize(("text", "expected"), [
    ("help", "help"), ("HELP", "help"), (" list ", "list"), ("ヘルプ", "help"), ("一覧", "list"),
    ("PROJ-1", None), ("", None), (None, None), ("help PROJ-1", None), ("listing", None)])
def test_command_words(text: str | None, expected: str | None) -> None:
    assert subcommand(text) == expected


def test_the_manifest_enables_the_home_tab_its_event_and_names_the_command_words() -> None:
    manifest = yaml.safe_load((ROOT / "slack-manifest.yaml").read_text())
    assert manifest["features"]["app_home"]["home_tab_enabled"] is True
    assert "app_home_opened" in manifest["settings"]["event_subscriptions"]["bot_events"]
    hint = manifest["features"]["slash_commands"][0]["usage_hint"]
    assert "help" in hint and "list" in hint
