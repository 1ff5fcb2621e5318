"""The tests a validation names (docs/rules.md#text-and-answers-agree): a failing test named only as "all tests",
one that passed before the fix too, or another test than the failing one; and a ticked original repro beside a text
whose only passing check is a test and which says a run was not done. Read on masked text; every pattern is linear.
"""

from __future__ import annotations

import re
from collections.abc import Collection

from rules import evidence_checks as checks
from rules import reading
from rules.evidence_clauses import concrete_pass
from rules.evidence_words import search
from rules.textmask import FENCE_RE, mask

Finding = tuple[str, str]


#: Tests named only as a whole: "all tests pass", "the suite is green", 「テストはすべて通過」.
_GENERIC_TESTS = re.compile(
    r"\b(?:all|the|every|whole|full|entire|our|existing)\s+(?:\w+(?:[,.]\d+)*\s+)?"
    r"(?:tests|test ?suites?|suites?|specs)\b"
    r"|\btests (?:pass|passed|are (?:green|passing))\b|\bci(?: is| was)? (?:green|passing|passes)\b"
    r"|\b(?:every|each) (?:single )?test (?:passes|passed|is green|was green)\b"
    r"|(?:全(?:て|部)?|すべて)の?テスト|テスト(?:は|が|を)?(?:すべて|全て|全部|オール)|テストスイート|CI(?:は|が)?(?:グリーン|通過|緑)"
    r"|(?:夜間|定期|回帰|全体の?)テスト",
    re.IGNORECASE,
)
#: A test's name in code: `test_dose_rounding`, `DoseRoundingTest`, `dose_spec`, `rounding.test.ts`.
_TEST_NAME_SOURCE = (
    r"\btest_\w+|\b(?!(?:py|unit|g|c|vi|next|doc)test\b)\w+(?:Test|Spec|_test|_spec)\b|\.(?:spec|test)\.\w+"
)
#: One test named: an identifier or code span (masked to Q), "the failing test", "the new regression test",
#: 「追加したテスト」.
_ONE_TEST = re.compile(
    # Not where the tests ran: "all tests pass on the `LockHub` CI pipeline".
    r"(?<![A-Za-z])Q(?![A-Za-z])(?!\s*(?:CI|pipeline|job|build|runner|server|branch|repo|project|cluster|change|fix|patch|commit|diff)\b|\s*(?:周り|まわり|付近|関連))|"
    + _TEST_NAME_SOURCE
    + r"|\b(?:the|this|that|a|one|new|added|failing|regression|unit|integration|e2e|original|flaky|red)"
    r"\s+(?:[\w-]+\s+)?"
    r"test\b(?!s)(?!\s+(?:suites?|benches|bench|beds?|rigs?|stands?|plans?)\b)"
    r"|(?:失敗していた|落ちていた|追加した|回帰|該当の?|その|新しい|新規の?|単体|結合|元の)テスト(?!\s*(?:は|が)?(?:すべて|全て))",
    re.IGNORECASE,
)


#: The failing test named, then another one run: 「失敗していたのは `a` ですが、修正後は `b` を 50 回実行し」.
_ANOTHER_TEST = re.compile(
    r"失敗していた(?:の|テスト)は\s*`([^`\n]+)`[^。`]{0,12}?(?:が|けれど|けど)[、,][^。`]{0,30}?`(?!\1`)[^`\n]+`\s*を"
    r"|\bthe failing test (?:is|was) `([^`\n]+)`[^.;`]{0,30}?\bbut\b[^.;`]{0,40}?`(?!\2`)[^`\n]+`",
    re.IGNORECASE,
)


#: One test run by a pasted command: "$ pytest tests/x.py::test_rollup", "$ go test -run TestRollup".
_ONE_TEST_RUN = re.compile(r"^\s*\$ [^\n]*(?:::test\w*|\s-(?:k|run)\s+['\"]?\w*test\w*)", re.M | re.I)


#: A group of tests by where they live: "including the ones in `tests/dosing/`", "every spec under Q".
_TESTS_IN = re.compile(
    r"\b(?:ones|tests|specs|suites?|everything|all|(?:every|each|any) (?:test|spec))\s+(?:in|under|from|inside)\s+"
    r"(?:the\s+)?Q(?![A-Za-z])"
    r"|Q(?:\s*(?:の|配下の|以下の|内の))(?:テスト(?:は|が)?(?:すべて|全て|全部)|全テスト)",
    re.IGNORECASE,
)
_URL = re.compile(r"<?https?://\S+")
#: Where a thing was looked at, not a test: "looks right on the gym's `iPad`".
_ON_A_DEVICE = re.compile(
    r"\b(?:on|at)\s+(?:(?:the|a|an|my|our|their)\s+)?(?:[\w'-]+\s+){0,2}Q(?![A-Za-z])(?!\s*(?:suite|tests?|specs?)\b)"
)
#: A command in a code span names no test unless it holds one: "(`make test`: 412 passed)", not "`pytest -k
#: test_dst_rollover`".
_COMMAND = re.compile(
    r"`(?![^`\n]*(?:test_\w|\w(?:Test|Spec|_test|_spec)\b|::))[^`\n]*\s[^`\n]*`"
    # A test runner alone names no test either: "`pytest` on `obs-sched`: all 1,284 tests pass".
    r"|`(?:pytest|py\.test|tox|nox|jest|vitest|mocha|rspec|ctest|phpunit|gradle|mvn|bazel|cargo|make|unittest)`"
)
#: A negation before the test a clause names: "I didn't add a new test", "no regression test".
_NEGATED = re.compile(r"\b(?:didn't|did not|haven't|have not|hasn't|has not|no|not|never|without)\b", re.IGNORECASE)


def generic_tests(text: str) -> Finding | None:
    """ "All tests pass locally" beside a ticked failing test: which test failed before and passes now is not said
    (a link to the CI run names none); nor does a test that "was passing before too" show the fix."""
    masked = mask(text)
    if (already := search(checks.PASSED_BEFORE, masked)) is not None:
        return ("generic_tests", already)
    if (other := _ANOTHER_TEST.search(text)) is not None:
        return ("generic_tests", other.group(0))  # 「失敗していたのは `A` ですが、修正後は `B` を…」: not the one
    whole = _GENERIC_TESTS.search(masked)
    if whole is None or _ONE_TEST_RUN.search(text):
        return None  # "$ pytest tests/awb/test_split.py::test_rollup --count 50": one test run, pasted
    # A test named in a clause that says it was not done ("I didn't add a new test for the DST case") names none.
    # A pasted block names no test by being code: "```\nran 212 tests in 48.1s - OK\n```".
    for clause in reading.all_clauses(mask(_COMMAND.sub(" ", FENCE_RE.sub(" ", _URL.sub(" ", text))))):
        one = _ONE_TEST.search(_TESTS_IN.sub(lambda m: " " * len(m.group()), _ON_A_DEVICE.sub(" ", clause)))
        if one is not None and reading.not_done(clause) is None and not _NEGATED.search(clause, 0, one.start()):
            return None
    return ("generic_tests", whole.group(0))


#: Running something, said of a check: "was not run", 「流していません」「実行していません」.
_RUN_VERB = re.compile(
    r"\b(?:run|ran|re-?run|replay\w*|tried|executed|reproduced|repeated|exercised)\b|流し|流せ|実行|走らせ|回し|試し|再現",
    re.IGNORECASE,
)
#: A word that can say a run was not done.
_NOT_WORD = re.compile(r"\bnot\b|n't\b|\bnever\b|ません|ない|ず|未", re.IGNORECASE)
#: A clause about a test: 「単体テスト Q は…成功」, "the `test_x` failed before and passes after".
_A_TEST = re.compile(
    r"\b(?:unit|regression|integration|e2e|failing|new|added) tests?\b(?! (?:units?|rigs?|benches|bench|machines?))"
    r"|\bfail\w* before\b[^.;]{0,40}\bpass\w* after\b"
    r"|(?:単体|結合|回帰|ユニット|自動|失敗していた)テスト|テスト(?:ケース|コード)",
    re.IGNORECASE,
)


def repro_not_run(text: str, kinds: Collection[str]) -> Finding | None:
    """ "The original repro passes" ticked beside a text whose only passing check is a test and which says a run
    was not done (「単体テストは修正後に成功しました。実機での露出シーケンスは流していません」), or never names the
    repro at all (「追加した単体テスト `X` が修正後に成功した」)."""
    if "original_repro_passes" not in kinds or FENCE_RE.search(text):
        return None  # a pasted runner's output may show the repro's run
    # Only tests named in code, and nothing that names the repro: 「追加した単体テスト `test_x` が修正後に成功した」.
    spans = _CODE_SPAN.findall(text)
    unnamed = bool(spans) and all(_TEST_NAME.search(s) for s in spans) and _REPRO_WORD.search(text) is None
    if not unnamed and _NOT_WORD.search(text) is None:
        return None  # read only when something is said not done (a long paste is read once, by the gate)
    read = reading.readings(mask(text))
    missing = next((w for c, w in read if w is not None and w[0] == "not_done" and _RUN_VERB.search(c)), None)
    passes = [(c, bool(_A_TEST.search(c))) for c, w in read if w is None and concrete_pass(c)]
    if not passes or not all(test for _, test in passes):
        return None
    if missing is None:
        return ("repro_not_run", passes[0][0].strip()) if unnamed else None
    return ("repro_not_run", missing[1])


_CODE_SPAN = re.compile(r"`([^`\n]+)`")
_TEST_NAME = re.compile(_TEST_NAME_SOURCE)
#: What names the original repro or a run of the steps: "repro", "the original steps", "replayed", 「再現」「元の手順」.
_REPRO_WORD = re.compile(
    r"\b(?:repro\w*|original|steps?|replay\w*|scenario|sequence|procedure|workload|job|batch|run(?:s|ning)?|ran)\b"
    r"|\d[\d,]*\s*(?:times|cycles|iterations|attempts|tries)\b|再現|元の|手順|リプレイ|シナリオ|シーケンス|実機|操作|\d\s*回",
    re.IGNORECASE,
)
