"""A test runner's summary pasted as output: the failure rate it states, read on the raw text (masking hides
pasted output as code) — pytest "2 failed, 498 passed", JUnit "Tests run: 50, Failures: 1", "PASS 49  FAIL 1".
"""

from __future__ import annotations

import re
from functools import lru_cache

from rules.evidence_count_shapes import HITS
from rules.evidence_count_words import ENOUGH as _ENOUGH
from rules.evidence_excuse import GUESSED, NOT_THE_FIXS
from rules.evidence_rates import Rate, count_value, figure, rate_of
from rules.regex_guard import compile_guarded

#: A test runner's summary pasted as output (masked as code, so read on the raw text): pytest "2 failed, 498
#: passed", JUnit "Tests run: 50, Failures: 1", cargo "12 passed; 1 failed", "PASS 49  FAIL 1", mocha "3 failing".
_SUMMARY = compile_guarded(
    # "3 failed, 97 passed", "summary: 100 runs, 0 FAIL, 100 PASS".
    r"(?<![\d,])(?P<f1>\d[\d,]*) (?:failed|failing|(?-i:FAIL(?:ED|S)?))\b[^\n。`]{0,40}?\b(?P<p1>\d[\d,]*)"
    r" (?:passed|passing|(?-i:PASS(?:ED|ES)?))\b"
    r"|(?<![\d,])(?P<p2>\d[\d,]*) (?:passed|passing|(?-i:PASS(?:ED|ES)?))\b[^\n。`]{0,40}?\b(?P<f2>\d[\d,]*)"
    r" (?:failed|failing|(?-i:FAIL(?:ED|S)?))\b"
    # ctest's "100% tests passed, 0 tests failed out of 214".
    r"|\btests passed, (?P<f7>\d[\d,]*) tests? failed out of (?P<r7>\d[\d,]*)"
    r"|\bTests run:\s*(?P<r3>\d+),\s*Failures:\s*(?P<f3>\d+)"
    # pytest's "===== 5 passed in 1.2s =====": every test passed.
    r"|(?<![\d,])(?P<p6>\d[\d,]*) passed in \d"
    r"|\bPASS(?:ED)?\s*[:=]?\s*(?P<p4>\d+)\s+FAIL(?:ED)?\s*[:=]?\s*(?P<f4>\d+)"
    r"|\bFAIL(?:ED)?\s*[:=]?\s*(?P<f5>\d+)\s+PASS(?:ED)?\s*[:=]?\s*(?P<p5>\d+)"
    # A tool's own tally: "500/500 pages OK", "48/50 checks passed".
    r"|(?<![\d,/])(?P<p8>\d{1,7})/(?P<r8>\d{1,7}) (?:[a-z-]+ ){0,2}(?:OK|passed|succeeded|good|clean)\b"
    # A script's own tally: "runs: 300  ticket_zero: 0  duplicate_numbers: 0" (every other counter at zero), "jobs: 100
    # ok: 100  crushed_text: 0" (every one ok).
    r"|\b(?:runs?|jobs?|tests?|cases?|iterations?|total)\s*[:=]\s*(?P<r9>\d[\d,]*)(?:[ \t,]+[\w-]+\s*[:=]\s*0\b)+"
    r"(?![ \t,]+[\w-]+\s*[:=]\s*[1-9])"
    r"|[:=][ \t]*(?P<r10>\d[\d,]*)[ \t,]+(?:ok|passed|pass|good|succeeded|success)\s*[:=]\s*(?P=r10)\b"
    r"(?:[ \t,]+[\w-]+\s*[:=]\s*0\b)*(?![ \t,]+[\w-]+\s*[:=]\s*[1-9])"
    # A script's tally with a failure counter: "runs: 500  registration_fault: 3", "cycles=200 jam_count=4".
    r"|\b(?:runs?|jobs?|tests?|cases?|iterations?|cycles?|total)\s*[:=]\s*(?P<r14>\d[\d,]*)"
    r"(?:[ \t,]+[\w-]+\s*[:=]\s*\d[\d,]*){0,4}?[ \t,]+[\w-]*?(?:fault|fail|error|crash|drop|timeout|jam|mismatch"
    r"|misfeed|double|dup|reject|miss)[\w-]*\s*[:=]\s*(?P<f14>\d[\d,]*)\b"
    # "50 renders: 0 sheared": the runs, then none of the bad kind.
    r"|(?<![\d,.])(?P<r11>\d[\d,]*) [a-z][\w-]*s\s*:\s*0 [a-z][\w-]*\b"
    # "200 lifts, 197 within ±20 kg, 3 out of tolerance": the runs, the good ones, the bad ones.
    r"|(?<![\d,.])(?P<r12>\d[\d,]*) [a-z][\w-]*s?\s*[,;]\s*\d[\d,]* (?:within|ok|passed|good|in (?:spec|tolerance))\b"
    r"[^,;\n]{0,30}[,;]\s*(?P<f12>\d[\d,]*) (?:out of|outside|failed|bad|over|under|rejected)\b"
    # A script's "25 runs, 0 failed": the runs, then the failures.
    r"|(?<![\d,.])(?P<r13>\d[\d,]*) (?:runs?|tests?|iterations?|attempts?|cases?|cycles?),\s*(?P<f13>\d[\d,]*)"
    r" (?:failed|failures?|errors?|fail)\b"
    # A runner's line per test: "test_stitch_odd_width ........ PASSED".
    r"|(?:^|(?<=\n))[ \t]*[\w./:\[\]-]+[ \t]*\.{3,}[ \t]*(?P<pv>PASSED|FAILED|ERROR)\b"
    # go test's line per package: "ok  \tgasdet/alarm\t3.118s", "FAIL\tgasdet/alarm\t0.2s".
    r"|(?:^|(?<=\n))[ \t]*(?P<go>ok|FAIL)[ \t]+[\w.@/-]+[ \t]+\d[\d.]*s\b",
    re.IGNORECASE,
)
#: What every summary holds somewhere: a cheap scan first, so a long text without any costs little.
_SUMMARY_HINT = re.compile(r"pass|fail|succe|good|clean|\bok\b|[:=]|\.\.\.", re.IGNORECASE)
#: Before the fix, said just before a summary: "before:", "on main", 「修正前」.
_SUMMARY_BEFORE = re.compile(
    r"\b(?:before(?: the fix)?|without the (?:fix|patch)|on (?:main|master)|unpatched|old build|baseline)\b|修正前",
    re.IGNORECASE,
)
_SUMMARY_AFTER = re.compile(r"\b(?:after|with the (?:fix|patch)|on the fix|patched|now)\b|修正後|適用後", re.IGNORECASE)


#: A failure still there, said beside pasted output ("arm64 runner: still failing (3/20)", 「まだ失敗」): the passing
#: tally next to it is not the whole outcome.
STILL_FAILING = re.compile(
    r"\bstill (?:fail\w*|red|broken|crash\w*|hang\w*|flak\w*|erroring)\b|まだ(?:失敗|落ち|赤|エラー)",
    re.IGNORECASE,
)


def pasted_pass(raw: str) -> bool:
    """A runner's summary pasted after the fix with no failure ("PASS 100 FAIL 0", "1 passed in 0.84s")."""
    return any(rate == 0 and not before for (rate, _), before in summaries(raw)) and not STILL_FAILING.search(raw)


def _int(digits: str | None) -> int:
    return int((digits or "0").replace(",", ""))


@lru_cache(maxsize=64)
def summaries(raw: str) -> tuple[tuple[Rate, bool], ...]:
    """Each test-runner summary in the raw text: its failure rate, and whether it is said to be before the fix."""
    found: list[tuple[Rate, bool]] = []
    if _SUMMARY_HINT.search(raw) is None:
        return ()
    for m in _SUMMARY.finditer(raw):
        g = m.groupdict()
        failed = _int(
            g["f1"] or g["f2"] or g["f3"] or g["f4"] or g["f5"] or g["f7"] or g["f12"] or g["f13"] or g["f14"]
        )
        if g["r8"] is not None:
            runs, failed = _int(g["r8"]), _int(g["r8"]) - _int(g["p8"])
        elif g["r9"] is not None or g["r10"] is not None:
            runs, failed = _int(g["r9"] or g["r10"]), 0
        elif g["go"] is not None or g["pv"] is not None:
            runs, failed = 1, int((g["go"] or g["pv"]).lower() not in ("ok", "passed"))
        elif g["r11"] is not None:
            runs, failed = _int(g["r11"]), 0
        elif (
            g["r3"] is not None
            or g["r7"] is not None
            or g["r12"] is not None
            or g["r13"] is not None
            or g["r14"] is not None
        ):
            runs = _int(g["r3"] or g["r7"] or g["r12"] or g["r13"] or g["r14"])
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
            excuse = NOT_THE_FIXS.search(raw, m.end(), m.end() + 160) if rate else None  # only failures need one
            # "Failures: 1 (testLocaleFallback, probably unrelated)": an excuse only guessed at excuses nothing.
            before = before or (
                excuse is not None and not GUESSED.search(raw, max(m.end(), excuse.start() - 30), excuse.start())
            )
            found.append(((rate, m.group(0)), before))
        if len(found) >= _ENOUGH:
            break
    return tuple(found)


#: A repeat count given to the runner inside the command ("`pytest --count 300`", "`go test -count=500`",
#: "`--gtest_repeat=1000`", "`for i in $(seq 200)`"): the runs, which masking hides as code.
_REPEAT_FLAG = re.compile(
    r"(?:--count|-count|--repeat|--repeat-each|--gtest_repeat|--runs|--iterations|--iters|--times"
    r"|--flake-finder-runs|--runs-per-test|--loops?)[ =](?P<n>\d{1,7})\b"
    r"|\bseq (?:1 )?(?P<s>\d{1,7})\b|\{1\.\.(?P<b>\d{1,7})\}",
)


#: The runs that failed, listed by number: "on cycles 37, 212 and 388", "in runs #4 and #19".
_LISTED = re.compile(
    r"\b(?:on|in|at) (?:cycles?|runs?|iterations?|boots?|attempts?|tries|loops?|seeds?) "
    r"(#?\d{1,7}(?:\s*,\s*#?\d{1,7}){0,30}(?:,?\s*(?:and|&)\s*#?\d{1,7})?)\b",
    re.IGNORECASE,
)
_IN_A_RATE = re.compile(r"(?:-|\b\d+ in |\bout of )$", re.IGNORECASE)


def flag_rates(raw: str, masked: str) -> list[Rate]:
    """The failures counted in the prose over the runs a command's repeat flag asks for: "`pytest --count 300`
    … 4 failures", 「`--count 300` を実行したところ、失敗は 4 回」."""
    if (flag := _REPEAT_FLAG.search(raw)) is None:
        return []
    runs = float(flag.group("n") or flag.group("s") or flag.group("b"))
    found: list[Rate] = []
    for listed in _LISTED.finditer(masked):  # "showed up on cycles 37, 212 and 388": three of the flag's runs
        if (rate := rate_of(float(len(re.findall(r"\d+", listed.group(1)))), runs)) is not None:
            found.append((rate, f"{flag.group(0)} … {listed.group(0).strip()}"))
    for hit in HITS.finditer(masked):
        if _IN_A_RATE.search(masked, max(0, hit.start() - 12), hit.start()):
            continue  # "a one-in-four flake": a rate said in words, not a count of failures
        if (rate := rate_of(count_value(figure(hit)), runs)) is not None:
            found.append((rate, f"{flag.group(0)} … {hit.group(0).strip()}"))
    return found[:_ENOUGH]


#: A table's header cell for the runs before the fix, and the delimiter row under a header.
_BEFORE_HEADER = re.compile(
    r"^\s*(?:before(?: the (?:fix|patch|change))?|old|unpatched|without(?: the)? fix|修正前|適用前)\s*$", re.I
)
_DELIMITER_ROW = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?\s*$")


def without_before_columns(text: str) -> str:
    """The text with the cells of a table's "before" column blanked: "| resend ×20 | 20 crashes | 0 crashes |" under
    "| check | before | after |" counts the crashes before the fix, not after it."""
    if "|" not in text:
        return text
    lines = text.split("\n")
    for i in range(1, len(lines)):
        if not _DELIMITER_ROW.match(lines[i]) or "|" not in lines[i - 1]:
            continue
        header = lines[i - 1].strip().strip("|").split("|")
        gone = {n for n, cell in enumerate(header) if _BEFORE_HEADER.match(cell)}
        j = i + 1
        while gone and j < len(lines) and "|" in lines[j]:
            cells = lines[j].strip().strip("|").split("|")
            lines[j] = "| " + " | ".join("" if n in gone else cell for n, cell in enumerate(cells)) + " |"
            j += 1
    return "\n".join(lines)
