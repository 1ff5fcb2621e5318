"""A test runner's summary pasted as output: the failure rate it states, read on the raw text (masking hides
pasted output as code) — pytest "2 failed, 498 passed", JUnit "Tests run: 50, Failures: 1", "PASS 49  FAIL 1".
"""

from __future__ import annotations

import re

from rules.evidence_after import NOT_THE_FIXS
from rules.evidence_rates import Rate, rate_of

#: Summaries read in one text at most: past them a pasted log is not read further.
_ENOUGH = 64


#: A test runner's summary pasted as output (masked as code, so read on the raw text): pytest "2 failed, 498
#: passed", JUnit "Tests run: 50, Failures: 1", cargo "12 passed; 1 failed", "PASS 49  FAIL 1", mocha "3 failing".
_SUMMARY = re.compile(
    r"(?<![\d,])(?P<f1>\d[\d,]*) (?:failed|failing)\b[^\n。`]{0,40}?\b(?P<p1>\d[\d,]*) (?:passed|passing)\b"
    r"|(?<![\d,])(?P<p2>\d[\d,]*) (?:passed|passing)\b[^\n。`]{0,40}?\b(?P<f2>\d[\d,]*) (?:failed|failing)\b"
    # ctest's "100% tests passed, 0 tests failed out of 214".
    r"|\btests passed, (?P<f7>\d[\d,]*) tests? failed out of (?P<r7>\d[\d,]*)"
    r"|\bTests run:\s*(?P<r3>\d+),\s*Failures:\s*(?P<f3>\d+)"
    # pytest's "===== 5 passed in 1.2s =====": every test passed.
    r"|(?<![\d,])(?P<p6>\d[\d,]*) passed in \d"
    r"|\bPASS(?:ED)?\s*[:=]?\s*(?P<p4>\d+)\s+FAIL(?:ED)?\s*[:=]?\s*(?P<f4>\d+)"
    r"|\bFAIL(?:ED)?\s*[:=]?\s*(?P<f5>\d+)\s+PASS(?:ED)?\s*[:=]?\s*(?P<p5>\d+)",
    re.IGNORECASE,
)
#: Before the fix, said just before a summary: "before:", "on main", 「修正前」.
_SUMMARY_BEFORE = re.compile(
    r"\b(?:before(?: the fix)?|without the (?:fix|patch)|on (?:main|master)|unpatched|old build|baseline)\b|修正前",
    re.IGNORECASE,
)
_SUMMARY_AFTER = re.compile(r"\b(?:after|with the (?:fix|patch)|on the fix|patched|now)\b|修正後|適用後", re.IGNORECASE)


def _int(digits: str | None) -> int:
    return int((digits or "0").replace(",", ""))


def summaries(raw: str) -> list[tuple[Rate, bool]]:
    """Each test-runner summary in the raw text: its failure rate, and whether it is said to be before the fix."""
    found: list[tuple[Rate, bool]] = []
    for m in _SUMMARY.finditer(raw):
        g = m.groupdict()
        failed = _int(g["f1"] or g["f2"] or g["f3"] or g["f4"] or g["f5"] or g["f7"])
        if g["r3"] is not None or g["r7"] is not None:
            runs = _int(g["r3"] or g["r7"])
        else:
            runs = failed + _int(g["p1"] or g["p2"] or g["p4"] or g["p5"] or g["p6"])
        rate = rate_of(float(failed), float(runs))
        if rate is not None:
            lead = raw[max(0, m.start() - 80) : m.start()]
            said = [w.end() for w in _SUMMARY_BEFORE.finditer(lead)]
            before = bool(said) and not any(a.start() > said[-1] for a in _SUMMARY_AFTER.finditer(lead))
            # "… which was 14 failed / 36 passed before the fix": the before-word just after the summary.
            before = before or _SUMMARY_BEFORE.match(raw[m.end() : m.end() + 30].lstrip(" ,;:)")) is not None
            # "1 failed - `test_tz_db_fetch`, which needs network and fails the same way on main": not the fix's.
            before = before or NOT_THE_FIXS.search(raw[m.end() : m.end() + 160]) is not None
            found.append(((rate, m.group(0)), before))
        if len(found) >= _ENOUGH:
            break
    return found
