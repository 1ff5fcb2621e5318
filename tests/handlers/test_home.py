"""`help` and `list` are command words, in either language; anything else is read as the ticket key."""

from __future__ import annotations

import pytest

from handlers.home import subcommand

pytestmark = pytest.mark.unit


@pytest.mark.parametrize(("text", "expected"), [
    ("help", "help"), ("HELP", "help"), (" list ", "list"), ("ヘルプ", "help"), ("一覧", "list"),
    ("PROJ-1", None), ("", None), (None, None), ("help PROJ-1", None), ("listing", None)])
def test_command_words(text: str | None, expected: str | None) -> None:
    assert subcommand(text) == expected
