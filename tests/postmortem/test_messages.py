"""The message catalogue: both languages for every message, with the same placeholders; locales to languages."""

from __future__ import annotations

import string

import pytest

from postmortem import messages
from postmortem.messages import lang_of_locale

pytestmark = pytest.mark.unit


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


@pytest.mark.parametrize("key", sorted(messages._CATALOGUE))
def test_every_message_exists_in_both_languages_with_the_same_placeholders(key: str) -> None:
    entry = messages._CATALOGUE[key]
    assert set(entry) == {"en", "ja"}
    assert _fields(entry["en"]) == _fields(entry["ja"])


@pytest.mark.parametrize(
    "locale, lang", [("ja-JP", "ja"), ("JA", "ja"), ("en-US", "en"), ("fr-FR", "en"), ("", "en"), (None, "en")]
)
def test_a_slack_locale_picks_the_language(locale: str | None, lang: str) -> None:
    assert lang_of_locale(locale) == lang
