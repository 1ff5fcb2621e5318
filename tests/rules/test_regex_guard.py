"""The first-character guard changes how fast a phrase pattern searches, never what it finds."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import regex_guard
from tests.helpers import ROOT

pytestmark = pytest.mark.unit

SOURCES = [
    r"\bwe (?:believe|think)\b|probably|推定|とみられ",
    r"(?:TBD|#\?{2,}|未定)",
    r"\d+ in \d+ runs?",
    r"(?i:hypothes[ie]s)|theory",
]
TEXT = "We believe it probably fails 1 in 500 runs; 推定 only. Fix: TBD, #???, 未定. A Hypothesis, a theory.\n" * 3


@pytest.mark.parametrize("source", SOURCES)
def test_guarded_and_unguarded_patterns_find_the_same(source: str, monkeypatch: pytest.MonkeyPatch) -> None:
    guarded = regex_guard.compile_guarded(source, re.IGNORECASE)
    assert guarded.pattern.startswith("(?=[")  # the guard is in place where the parser is available
    monkeypatch.setattr(regex_guard, "_parser", None)  # another Python's layout: the fallback
    plain = regex_guard.compile_guarded(source, re.IGNORECASE)
    assert plain.pattern == source
    assert [m.span() for m in guarded.finditer(TEXT)] == [m.span() for m in plain.finditer(TEXT)]
    assert [m.span() for m in plain.finditer(TEXT)]  # the sample text has matches to compare


def test_a_pattern_that_may_match_nothing_gets_no_guard() -> None:
    assert regex_guard.first_class(r"a*|b", 0) is None


def test_without_the_parser_module_everything_still_imports_and_matches() -> None:
    """Where `re._parser` is missing the guard is skipped, and the modules that compile phrases still load."""
    program = (
        "import re, sys\n"
        "del re._parser, re._constants\n"
        "sys.modules['re._parser'] = sys.modules['re._constants'] = None\n"
        "from rules import regex_guard, phrases\n"
        "assert regex_guard.first_class('abc|abd', 0) is None\n"
        "print(phrases.HEDGING.search('it might be the cache') is not None)\n"
    )
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "True"


@pytest.mark.parametrize(
    "parts",
    [
        [r"\bwe (?:believe|think)\b", r"\bprobably\b"],  # every part begins with \b: tested once before them all
        [r"\bfoo\b|bar", r"\bbaz\b"],  # the first part's second alternative has no \b: left as it is
        [r"\bfoo\b", r"(?<!x)bar"],
    ],
)
def test_an_alternation_with_one_boundary_first_finds_the_same(parts: list[str]) -> None:
    text = "we think foobar probably; xbar, bar baz foo. We believe it."
    joined = regex_guard.alternation(parts)
    plain = "|".join(f"(?:{part})" for part in parts)
    assert joined.startswith(r"\b(?:") == all(p.startswith("\\b") and "|bar" not in p for p in parts)
    found = [m.span() for m in re.finditer(joined, text, re.IGNORECASE)]
    assert found == [m.span() for m in re.finditer(plain, text, re.IGNORECASE)]
    assert found


def test_a_part_that_matches_only_at_the_start_lets_the_start_through() -> None:
    pattern = regex_guard.compile_guarded(r"^looks like|\bmaybe\b|(?<![\s\S])\s+could", re.IGNORECASE)
    assert pattern.pattern.startswith(r"(?:(?=[")  # a guard, with the start let through
    for text, expected in [
        ("looks like it", True),
        ("  could it be", True),
        ("x looks like", False),
        ("a maybe", True),
    ]:
        assert (pattern.search(text) is not None) is expected, text


def test_a_caseless_group_in_a_cased_pattern_gets_no_guard() -> None:
    pattern = regex_guard.compile_guarded("監視|(?i:grafana)", 0)
    assert pattern.search("Grafana で見ていた") is not None


#: Pieces of phrase patterns: words that share first letters in either case, a class, a capture, a lookbehind, a
#: Japanese word, a part that may begin with a space.
_PIECES = [
    r"\bin\b",
    r"\bin the\b",
    r"\bIt\b",
    r"\bit's\b",
    r"\b(?:i|we) heard\b",
    r"\bwe\b",
    r"\bWe think\b",
    r"[a-c]x",
    r"\bb(\w)",
    r"(?<!x)bar",
    r"ba",
    r"\s+or\b",
    "推定",
    "推",
    r"\d+ in",
]
_TEXTS = st.text(alphabet=list("inItwWeh'sabcrxoBAR 推定1.\n"), max_size=60)


@given(st.lists(st.sampled_from(_PIECES), min_size=1, max_size=8), st.lists(_TEXTS, min_size=1, max_size=5))
@settings(max_examples=300, deadline=None)
def test_parts_grouped_by_their_first_letters_find_the_same_matches(parts: list[str], texts: list[str]) -> None:
    """Grouping reorders only parts that cannot begin at the same character: every match, and its text, stays."""
    text = " ".join(texts) + " we heard it's in the bar, We think 推定 12 in"
    for flags in (re.IGNORECASE, 0, re.IGNORECASE | re.ASCII):
        grouped = re.compile(regex_guard.alternation(parts, flags), flags)
        plain = re.compile("|".join(f"(?:{part})" for part in parts), flags)
        assert [(m.span(), m.group(0)) for m in grouped.finditer(text)] == [
            (m.span(), m.group(0)) for m in plain.finditer(text)
        ]


def test_parts_that_begin_with_the_same_letter_share_one_guard() -> None:
    joined = regex_guard.alternation([r"\bin the\b", r"\bwe\b", r"\bit's\b", r"\bI heard\b"], re.IGNORECASE)
    assert joined.count("(?=[") == 1  # in / it's / I heard: one group; we alone
    found = re.search(joined, "so I heard", re.IGNORECASE)
    assert found is not None and found.group(0) == "I heard"
