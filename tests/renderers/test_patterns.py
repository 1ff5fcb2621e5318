"""The patterns written for speed (each starts with a character the engine can scan for, and looks behind it only
afterwards) find exactly what their plain forms, which start by looking behind, find."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from renderers import references, usertext_runs, wiki_escape
from renderers.adf_mrkdwn import _FENCED_RUN_RE

pytestmark = pytest.mark.unit

#: Pieces around which the patterns decide: markers, word characters, blanks, the characters looked behind at.
PIECES = ["*", "_", "~", "`", "a", "Z", "9", "é", "日", " ", "\t", "\n", "\x00", "\\", "&", "<", "(", "[", "/", "#"]
PIECES += [".", "-", "h", "https://x", "http://", "ABC-1", "UTF-8", "h1.", "bq.", "**", "``", "_x_", "x_y"]
texts = st.lists(st.sampled_from(PIECES), max_size=14).map("".join)

PLAIN_FENCED_RUN = re.compile(r"(?<![*_~`])((?:(?<![^\W_])[*_~`]++|[*_~`]++(?![^\W_])|[*_~]*+`[*_~`]*+))")
PLAIN_KEY = re.compile(r"(?<![\w./#-])([A-Z][A-Z0-9_]{0,254})-([1-9][0-9]{0,17})(?![\w-])")
PLAIN_URL = re.compile(r"(?<![\w<(\[/])https?://[^\s<>()\[\]`]+[^\s<>()\[\]`.,;:!?'\"。、）]")
PLAIN_EMPHASIS = re.compile(
    b"(" + usertext_runs._TYPED + rb"|_(?![A-Za-z0-9])|(?<![A-Za-z0-9])_|[*~](?![ \t])|(?<![ \t])[*~]" + b")"
)


def found(pattern: re.Pattern[str], text: str) -> list[tuple[tuple[int, int], tuple[str | None, ...]]]:
    return [(m.span(), m.groups()) for m in pattern.finditer(text)]


@settings(max_examples=500, deadline=None)
@given(texts)
def test_fast_patterns_find_what_their_plain_forms_find(text: str) -> None:
    assert _FENCED_RUN_RE.split(text) == PLAIN_FENCED_RUN.split(text)
    assert found(references._KEY_RE, text) == found(PLAIN_KEY, text)
    assert found(references._URL_RE, text) == found(PLAIN_URL, text)
    data = text.encode()
    assert usertext_runs._FAST_RES[usertext_runs.EMPHASIS].split(data) == PLAIN_EMPHASIS.split(data)


@settings(max_examples=300, deadline=None)
@given(st.lists(texts, min_size=1, max_size=4))
def test_wiki_escapes_are_the_same_with_or_without_their_triggers(parts: list[str]) -> None:
    """The line-start escapes (`h1.`, `bq.`) run only when their literal is there: each text as if they always ran."""
    for text in parts:
        written = text
        for _, pattern, mark in wiki_escape._CONTEXTS:
            written = pattern.sub(mark, written)
        if not wiki_escape._PLACEHOLDER_RE.search(text):
            assert wiki_escape.escape(text) == wiki_escape._written(written)
    assert wiki_escape.escape_all(parts) == [wiki_escape.escape(text) for text in parts]
