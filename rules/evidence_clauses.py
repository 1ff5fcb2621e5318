"""Positive evidence, read clause by clause: what each required text must state, not only what it must not.

A validation states a completed check and its outcome; a root cause, what a concrete element does wrong; a
confirming experiment, what was run and what it showed; a fix reference, something that already resolves.
Only plain clauses count as evidence (`rules.reading`): hearsay, a conjecture, a plan or watching do not
(docs/rules.md#four-inputs-or-no-post-mortem).
"""

from __future__ import annotations

import re
from functools import lru_cache

from rules import evidence_checks as checks
from rules import evidence_pass as passing
from rules import evidence_run as run
from rules import evidence_words as words
from rules import japanese_verbs, reading
from rules.evidence_after import STILL_FAILS as _STILL_FAILS
from rules.evidence_after import fails_after as _fails_after
from rules.evidence_after import short_share, still_before
from rules.evidence_after_result import more_to_come
from rules.evidence_count_words import BEFORE_ASIDE, FAILURE_WORD
from rules.evidence_excuse import excused
from rules.evidence_other_matter import ANOTHER_MATTER
from rules.evidence_scope import CORE_EVIDENCE, scope_only, untouched_test
from rules.evidence_went_wrong import failure_said
from rules.evidence_words import EN_FLAGS, any_of, search

Pair = tuple[re.Pattern[str], re.Pattern[str]]
Finding = tuple[str, str]

#: A figure set against the one before the fix: "16.9 ms (200 ms before the fix)", 修正前は.
BEFORE_AFTER = (
    any_of(
        r"\b(?:before the fix|before|previously|was \d|were \d|down from|up from|versus|vs\.?|from \d"
        r"|(?:regressed|broken|bad|old|unpatched) (?:build|version|release)|(?:last|previous) release|baseline)",
        flags=EN_FLAGS,
    ),
    # 「30 秒から 2 秒に」, not 「30 秒待ってから印刷」 (after waiting).
    any_of("修正前", "以前は", "従来", "\\d[^。、\\d\\s]{0,6}\\s*から", "障害(?:時|前|中)", "不具合(?:時|中)"),
)
_FIGURES = re.compile(r"(?<![\d.,])\d[\d.,]*")
_MEASURE = re.compile(
    r"\d\s*(?:ms|µs|us|ns|s|secs?|seconds?|mins?|minutes?|h|hours?|%|[KMG]i?B|fps|rps|qps|[kM]?Hz|°C?)(?![A-Za-z])"
    r"|\d\s*(?:秒|分|時間|ミリ秒|度)"
)
_NONE_WORD = re.compile(r"\b(?:none|zero|no|nothing|never|without)\b|なし|ゼロ|なく|ない|ません|消え", re.IGNORECASE)
#: "with compactions in progress": a state during the check, not a check still in progress.
_IN_PROGRESS_STATE = re.compile(r"\b(?:while|when|during|with)\b[^.;]{0,60}\bin progress\b", re.I | re.A)


def _split_pass(a: str, b: str) -> bool:
    """A count or a test named in one clause and the pass in the next, which together show a check passing."""
    named = " Q " in a and passing.GOES_ON.search(a) is not None and search(passing.PASSED, b) is not None
    return bool(passing.ALL_N_SPLIT.search(a + b) or named) and concrete_pass(a + b)


@lru_cache(maxsize=512)
def concrete_pass(clause: str) -> bool:
    """A clause that shows something passing: a test, the repro, a workload, or a number or code beside it."""
    # Not people, ages or rooms counted: 「清掃チームには新人が 3 人入りました」 is an aside, not a check's figure.
    digit = re.search(r"\d(?![\d.,]*\s*(?:人|名|歳|号室))", clause) is not None
    # A figure set against the one before the fix; the before figure alone ("修正前 30 回中 5 回失敗") is none.
    # Two figures, or one and none: "Pen 12 was on manual feeding before that" names a pen, it compares nothing.
    compared = len(_FIGURES.findall(clause)) >= 2 or _NONE_WORD.search(clause) is not None or _MEASURE.search(clause)
    measured = digit and compared and search(BEFORE_AFTER, clause) is not None and not _before_failures_only(clause)
    if (
        not measured
        and not _all_good(clause)
        and search(passing.PASSED, clause) is None
        and japanese_verbs.failure_negated(clause) is None
        and japanese_verbs.completed_outcome(clause) is None
    ):
        return False
    pending = search(run.PENDING, clause) is not None and not _IN_PROGRESS_STATE.search(clause)
    if (pending and not still_before(clause)) or search(run.HOPE, clause):
        return False
    if search(checks.PASSED_BEFORE, clause) or _fails_after(clause):
        return False
    if measured or search(passing.EVIDENCE_NOUN, clause):
        return True
    # "`test_x` passes after the merge": the merge says when, it does not stand in for the check.
    unstood = search(passing.STAND_IN, _AFTER_THE_EVENT.sub(" ", clause)) is None
    return unstood and (digit or re.search(r"\bQ\b", clause) is not None)


#: A merge, a deploy or a release as a point in time: "after the merge", 「マージ後に」.
_AFTER_THE_EVENT = re.compile(
    r"\b(?:after|since|post)[- ](?:the |our |this )?(?:merge|deploy\w*|release|rollout)\b"
    r"|\b(?:on|in|with|against) the (?:merged|deployed|released) (?:commit|build|branch|code|version|image)\b"
    r"|(?:マージ|デプロイ|リリース)(?:後|以降)",
    re.IGNORECASE,
)


def _before_failures_only(clause: str) -> bool:
    """A clause that counts failures before the fix and nothing after it: "修正前 30 回中 5 回失敗"."""
    return (
        FAILURE_WORD.search(clause) is not None
        and _AFTER_WORD.search(clause) is None
        and search(passing.PASSED, clause) is None
    )


_AFTER_WORD = re.compile(r"\b(?:after|now|with the (?:fix|patch|change))\b|→|->|修正後|適用後|現行", re.IGNORECASE)


#: Every one of a counted set came out right: "boots into the app on all 10", "across all 40 runs".
_ALL_N = re.compile(
    r"\b(?:on|in|for|across|with) (?:all|each of|every one of) (?:the )?\d+\b"
    # "40 of 40", "gave 40 full stencils out of 40".
    r"|\b(\d+) ?(?:(?:good|full|clean|complete|correct|perfect|successful|intact|normal|valid|healthy|proper) )?"
    r"(?:[a-z-]+s )?(?:/|of|out of) ?\1\b"
    r"|\ball \d+\b",
    re.I | re.A,
)
#: "11 A321 and 3 B737 dockings, with auto-level staying engaged … on every one": each of the lot just counted.
_EVERY_ONE = re.compile(r"\b(?:on|in|for|across|through) (?:every|each) one\b", re.I)
_DIGIT = re.compile(r"\d")
#: The words every `_ALL_N_JA` match holds: a plain scan first, so a long text without them costs little.
_ALL_N_JA_WORDS = ("とも", "すべて", "全て", "全部", "中", "のうち", "全数", "全件", "全枚", "全台", "全本", "全個")
_BAD = re.compile(
    r"\b(?:fail\w*|crash\w*|hang\w*|hung|error\w*|broke\w*|stuck|still|timeout\w*|timed out|wrong|lost|drop\w*"
    r"|reproduc\w*|bugs?|exceptions?|stale|duplicat\w*|leak\w*|corrupt\w*|mismatch\w*|unpatched"
    r"|before(?! the (?!fix|patch|change)\w)"  # not "before the cut": a step, not the run before the fix
    # "without the fix" is the run before it; "without going into CrashLoopBackOff" is what did not go wrong.
    r"|without(?! (?:going|getting|hitting|any|a single|one|ever|errors?|failures?|crash\w*|hang\w*|stall\w*"
    r"|retr\w*)\b)"
    r"|old|original build|revert\w*|stall\w*|deadlock\w*|panic\w*|abort\w*|diverg\w*|miss\w*)\b",
    re.I | re.A,
)


_SHIPPED = re.compile(
    r"\b(?:roll(?:ed|ing)? (?:\w+ ){0,3}?out|deploy(?:ed|ing)|shipp(?:ed|ing)|install(?:ed|ing)|flash(?:ed|ing)"
    r"|push(?:ed|ing)|appl(?:ied|ying)|(?:went|goes|gone|sent) out) (?:[\w-]+ ){0,3}?(?:to|on|onto|across) (?:all"
    r"|every|each)\b"
    r"|(?:全|すべての|全ての)[^。、]{0,10}?(?:に|へ)(?:展開|適用|反映|配布|デプロイ)",
    re.IGNORECASE,
)
#: 「10 回とも 1 通だった」「50 件すべて照合に成功」: every one of a counted set, in Japanese.
#: The stimulus opening a clause, done to the system: 「二重登録の条件を 30 回流し、」.
_STIMULUS_JA = re.compile("^[^。、]{0,60}?を[^。、]{0,20}?(?:流し|実行し|回し|試し|かけ|入れ|送り|行い|繰り返し)[、,]")
_ALL_N_JA = re.compile(
    r"(?<!\d)\d+\s*(?:回|件|台|本|枚|人|パターン|ケース|通り|種類|項目)(?:とも|すべて|全て|全部)"
    # 「12,000 枚を最後まで刷りました。…全数でインクの乗りは正常」: every one of a counted set, said as 全数.
    r"|(?<=\d)[^。]{0,40}?全(?:数|件|枚|台|本|個)(?:で|とも|が)"
    # 「240 台中 240 台で正しい重量」: all of a counted set, said as a pair.
    "|(?<![\\d.,])(\\d+)\\s*([\u30a1-\u30fa\u30fc]{1,6}|[\u4e00-\u9fff])(?:中|のうち)\\s*\\1\\s*\\2(?!\\d)"
)


def _all_good(clause: str) -> bool:
    clause = BEFORE_ASIDE.sub(" ", clause)
    if _SHIPPED.search(clause) is not None:
        return False  # "Rolled the fix out to all 24 lanes": where it went, not what came out right
    if any(word in clause for word in _ALL_N_JA_WORDS) and _ALL_N_JA.search(clause) is not None:
        outcome = _STIMULUS_JA.sub("", clause, count=1)  # 「…の条件を 30 回流し、」: what was done, not its outcome
        return (
            japanese_verbs.BAD_OUTCOME_JA.search(outcome) is None
            and re.search("修正前|元の(?:ビルド|版|コード)|戻[すし]|外[すし]", clause) is None
        )
    every_one = " one" in clause and _EVERY_ONE.search(clause) is not None and _DIGIT.search(clause) is not None
    return (_ALL_N.search(clause) is not None or every_one) and _BAD.search(clause) is None


def plain(masked: str) -> tuple[list[str], list[Finding]]:
    """The plain clauses of a text, and what keeps each other clause from being one."""
    clean: list[str] = []
    found: list[Finding] = []
    for clause, why in reading.readings(masked):
        if why is None:
            clean.append(clause)
        elif why[0] != reading.TESTED:
            found.append(why)
    return clean, found


def _names_check(clause: str) -> bool:
    return search(passing.EVIDENCE_NOUN, clause) is not None


#: Someone's word that was quoted, then what the writer did about it: 「『…』と言われていた」 (the quote is masked).
_QUOTED_WORD = re.compile(r"\bQ\s*(?:と|って)(?:言われ|聞い|書かれ|指摘され)[^、。]*?(?:た|ている|ていた)")


def _quoted_then_checked(clause: str, why: tuple[str, str] | None) -> bool:
    """Someone's quoted word, then the writer's own completed check in the same clause."""
    if why is None or why[0] != "hearsay" or _QUOTED_WORD.search(clause) is None:
        return False
    return concrete_pass(_QUOTED_WORD.sub(" ", clause))


def validation(masked: str, *, pasted: bool = False) -> Finding | None:
    """A completed check with its observed outcome; a not-done clause about the check itself refuses
    (docs/rules.md#completed-check). `pasted`: a runner's summary with no failure is pasted (read on the raw text)."""
    parts = [(c, why) for c, why in reading.readings(masked) if why is None or why[0] != reading.TESTED]
    # What a check still needs outranks a plan in the same clause: 「判定にはあと数晩必要で、予約が取れ次第続ける」.
    parts = [(c, (_still_needs(c) or why) if why is None or why[0] == "planned" else why) for c, why in parts]
    # 「『まだ落ちるかもしれない』と言われていた Q を全部流し、100 件すべて成功」: a doubt quoted, then one's own check.
    parts = [(c, None if _quoted_then_checked(c, why) else why) for c, why in parts]
    # Read once (a long paste has thousands of clauses): a failure named or counted, or a pass share (short of all?).
    failure = failure_said(masked) or short_share(masked)
    cursor = 0  # the clauses come in the order of the text: each is looked for from where the last one stood
    elsewhere: set[str] = set()  # clauses about another matter than the fix, by what follows them in the sentence
    for clause, why in parts:
        if (still := _STILL_FAILS.search(clause)) is not None and not still_before(clause):
            return ("pending", still.group(0))  # "still fails on the ARM runner": not fixed there, whatever passed
        at = masked.find(clause, cursor)
        at = at if at >= 0 else masked.find(clause)
        cursor = at + 1 if at >= 0 else cursor
        around = masked[at : at + len(clause) + 160] if at >= 0 else clause
        if why is not None and why[0] == "not_done" and another_matter(masked, at, len(clause)):
            elsewhere.add(clause)  # 「PDF のレイアウト変更はまだですが、今回の修正とは別件です」
        # "… failed once; probably unrelated": a failure called unrelated only as a guess is still a failure.
        if failure and _fails_after(clause) and not (excused(around) and search(words.HYPOTHESIS, around) is None):
            return ("fails_after", _clip(clause))  # 「e2e-checkout: 4 回赤になった」: failures after the fix
    for (a, _), (b, _) in zip(parts, parts[1:], strict=False):  # 「1000 件を検証しました。997 件が正しい…」
        if failure and short_share(a + ("; " * (a[-1:] not in ":;,。")) + b) and not short_share(a) and not excused(b):
            return ("fails_after", _clip(b))  # the runs in one sentence, short of all passing in the next
    quiet = any(why is not None and why[0] == "watching" for _, why in parts)  # nothing seen while watching: no pass
    passed = pasted or any(
        concrete_pass(c)
        and not (quiet and search(checks.NO_ALERT, c))
        and (why is None or why[0] == "watching" and _names_check(c))
        for c, why in parts
    )
    # 「20 本彫ったけど / 全部最後までいけた」「`Q` は修正前は赤でしたが / 修正後は緑に」: one check over two clauses.
    passed = passed or any(
        _split_pass(a, b) for (a, x), (b, y) in zip(parts, parts[1:], strict=False) if x is None and y is None
    )
    for clause, why in parts:
        if why is None:
            continue
        if why[0] == "not_done" and (not passed or not (scope_only(clause) or clause in elsewhere)):
            return why
        if why[0] == "planned" and passed and search(CORE_EVIDENCE, clause) and not scope_only(clause):
            if more_to_come(clause):
                continue  # 「次はテーブル生成のテストを CI に入れる予定です」: more work after the check
            return why  # 「元の再現ケースは実機が空き次第確認します」: the original repro is still to be run
        if not passed:
            return why
    return None if passed else ("no_pass", _clip(masked))


_SENTENCE_END = re.compile(r"[.!?](?:\s|$)|[。！？]|\n")  # 「。」 needs no space after it


def another_matter(masked: str, at: int, length: int) -> bool:
    """Whether a not-done clause (at `at`, `length` long) is said, in its sentence, to be about another matter or
    another configuration than the fix ("旧型の AG-100 は…、今回は試していません"), and names nothing of the check."""
    if at < 0:
        return False
    sentence = sentence_around(masked, at, length)
    if search(CORE_EVIDENCE, masked[at : at + length]) is not None:
        # "I haven't re-run the donor-sandbox load test; it does not touch this code path": another test, said so.
        return untouched_test(masked[at : at + length], sentence)
    if _CHECK_NEEDS.search(sentence) is not None:
        return False  # "Confirming the offset is gone needs the pit empty, …, so that check is still to do"
    return ANOTHER_MATTER.search(sentence) is not None or scope_only(sentence)


#: What the check itself needs before it can run: "confirming the 25 mm offset is gone needs the pit empty".
_CHECK_NEEDS = re.compile(
    r"\b(?:confirming|verifying|checking|proving|re-?running|repeating) [^.;]{1,60}?\b(?:needs|requires|will need"
    r"|depends on|has to wait)\b",
    re.IGNORECASE,
)


def sentence_around(masked: str, at: int, length: int) -> str:
    """The sentence that holds `masked[at : at + length]`, up to 200 characters each side."""
    before = max((m.end() for m in _SENTENCE_END.finditer(masked, max(0, at - 200), at)), default=max(0, at - 200))
    end = _SENTENCE_END.search(masked, at + length, at + length + 200)
    return masked[before : end.start() if end else at + length + 200]


def _still_needs(clause: str) -> tuple[str, str] | None:
    found = search((checks.NEEDS, checks.NEEDS_JA), clause)
    return None if found is None else ("not_done", found)


def _clip(text: str, limit: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
