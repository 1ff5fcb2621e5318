"""A validation or a confirming experiment not done: still to come, only hoped for, or something standing in for
a check (a review, a merge, a deploy), unless a concrete check passed (docs/rules.md#completed-check). Also read in
chat messages announcing a fix (`rules.triggers`).
"""

from __future__ import annotations

import re

from rules import evidence_clauses as clauses
from rules import evidence_pass as passing
from rules import evidence_run as run
from rules import reading
from rules.as_typed import as_typed
from rules.evidence_after import still_before
from rules.evidence_after_result import more_to_come
from rules.evidence_clauses import concrete_pass
from rules.evidence_contrast import with_without
from rules.evidence_excuse import excused
from rules.evidence_other_matter import ANOTHER_MATTER
from rules.evidence_rejected import REJECTED
from rules.evidence_scope import CORE_EVIDENCE, OUT_OF_SCOPE, other_subject, other_thing_named
from rules.evidence_summaries import pasted_pass, summaries, without_before_columns
from rules.evidence_trials import single_trial
from rules.evidence_words import search
from rules.phrases import SCOPE_STATED
from rules.textmask import MASKED_CODE, mask, rates, sentences

Finding = tuple[str, str]

#: The check that matters, named as such: "the real check", "the actual repro", 「本命の確認」.
_MAIN_CHECK = re.compile(
    r"\b(?:the )?(?:real|actual|main|proper|original|important) (?:check|test|repro|validation|verification)\b|本命の",
    re.IGNORECASE,
)
#: A code span or identifier, masked: the check named by its test or command.


def unchecked(masked: str, *, pasted: bool = False) -> Finding | None:
    """Not verified yet, a hope, or a review / merge / deploy standing in, unless something concrete passed (or a
    runner's summary with no failure is `pasted`)."""
    parts = sentences(masked)
    problems: dict[str, str] = {}
    if (rest := _rest_to_come(parts)) is not None:
        return ("pending", rest)
    for sentence in parts:
        for kind, pair in (("pending", run.PENDING), ("hope", run.HOPE), ("stand_in", passing.STAND_IN)):
            if kind in problems or (kind == "pending" and (scope_or_condition(sentence) or still_before(sentence))):
                continue
            if (phrase := search(pair, sentence)) is not None:
                problems[kind] = phrase
    if not problems:
        return None
    if "pending" in problems and any(_MAIN_CHECK.search(s) and search(run.PENDING, s) for s in parts):
        return ("pending", problems["pending"])  # "Unit tests pass. The real check … still has to be scheduled"
    if set(problems) == {"hope"}:
        # "Looks fine on my device. Played about 20 minutes, no crash": a hope is answered only by a named check.
        if any(
            concrete_pass(s) and (search(passing.EVIDENCE_NOUN, s) or rates(s) or MASKED_CODE.search(s)) for s in parts
        ):
            return None
    elif pasted or any(concrete_pass(sentence) for sentence in parts):
        return None
    kind = next(k for k in ("pending", "hope", "stand_in") if k in problems)
    return (kind, problems[kind])


#: The part of a run not done yet: "the rest", "the remaining 7 shards", 「残りは」.
_REST = re.compile(
    r"\b(?:the rest|the remaining|remaining (?:\d+ )?[a-z]+s|the other \d+|the remainder)\b|残り|残る",
    re.IGNORECASE,
)
#: Said to come later, in plain present terms the pending reader leaves alone: "the remaining ones go tonight",
#: 「残りは来週流します」「残りはまだ」.
_LATER = re.compile(
    r"\b(?:tonight|tomorrow|next (?:week|sprint|run|window|cycle|night)|later|this (?:weekend|evening|afternoon)"
    r"|over the weekend|overnight|let (?:the rest|it|them) run"
    r"|(?:is|are) (?:queued|scheduled|pending)|not yet|to follow)\b"
    r"|来週|明日|明後日|あとで|後で|今夜|今晩|週明け|来月|次回|これから|まだ|予定"
    # 「ラインが空くのが来週火曜なので、残りはそこで流す」: the time named before, then "there".
    r"|そこで(?:流|回|やり|実施|確認|試)",
    re.IGNORECASE,
)


#: The workload said to have run to its end: 「最後まで流し」, "ran to the end", "ran to completion".
_TO_THE_END = re.compile(
    r"最後まで(?![^。、]{0,8}?(?:ず|ない|ません|なかった|至らな))|完走"
    r"|\bran (?:all the way )?(?:to (?:the|its) end|to completion|through to the end)\b",
    re.IGNORECASE,
)
#: Only a part of it: 「10 シャード中最初の 3 シャードは完走」, "the first 3 of 10 ran to the end".
_A_PART = re.compile(r"最初の|\d+\s*\S{0,6}?中|\bfirst \d+|\b\d+ (?:of|out of)\b", re.IGNORECASE)


def _rest_to_come(parts: list[str]) -> str | None:
    """A run only part done, the rest still to come ("3 of 10 shards done; the rest next week", 「残りは来週流します」):
    the workload did not complete, whatever the part that ran showed."""
    if any(_TO_THE_END.search(sentence) and not _A_PART.search(sentence) for sentence in parts):
        return None  # 「全集を最後まで流し…。残りの横書きタイトルは来週」: the rest of something else
    for sentence in parts:
        if (rest := _REST.search(sentence)) is None or scope_or_condition(sentence):
            continue
        tail = sentence[rest.start() :]
        if search(run.PENDING, sentence) is not None or _LATER.search(tail) is not None:
            return tail.strip()[:80]
    return None


def unverified(text: str) -> str | None:
    """The words saying a fix's verification is still to come or only hoped for, unless something passed.

    For chat messages announcing a fix (`rules.triggers`): a merge with verification still to come
    gets no offer; a merge whose original repro now passes gets one."""
    parts = sentences(mask(text))
    found: str | None = None
    for sentence in parts:
        pending = None if scope_or_condition(sentence) else search(run.PENDING, sentence)
        if found := pending or search(run.HOPE, sentence):
            break
    if found is None or any(concrete_pass(sentence) for sentence in parts):
        return None
    return found


def pending(masked: str) -> Finding | None:
    """An experiment that is still to be run (the confirming experiment)."""
    parts = sentences(masked)
    for sentence in parts:
        if search(REJECTED, sentence) is not None:
            continue  # "pinning the clock changed nothing (8/8 still failed)": an idea tested and dropped
        if (phrase := search(run.PENDING, sentence)) and not scope_or_condition(sentence):
            if any(phrase in clause and other_thing_named(clause) for clause in reading.all_clauses(sentence)):
                continue  # "The parcel line was not checked; it doesn't use `BinMap`": something else
            # The other sentences, and this one's clauses without the phrase: 「明日、本番機でも確認する予定ですが、
            # 検証機ではすでに…20 回とも正しい終了時刻が印字されました」.
            others = [s for s in parts if s != sentence] + [c for c in reading.all_clauses(sentence) if phrase not in c]
            if more_to_come(sentence) and (
                any(concrete_pass(s) or rates(s) for s in others) or with_without("\n".join(others)) is not None
            ):
                # "… passes; I ran each version 5 times. The other DST zones are on my list for next week"; after
                # a contrast, 「来月、2 号機でも同じテストをする予定です」
                continue
            return ("pending", phrase)
    return None


_FOLLOW_UP = re.compile(
    r"\b(?:is|are|'s|as|for) (?:a )?(?:separate )?follow-?up\b|\bfollow-?up (?:work|ticket|task|item|pr|change)\b"
    r"|後続(?:の)?(?:作業|チケット|タスク|対応)|フォローアップ"
    # "I'll also try it on the ridge gun, but that's for coverage, not confirmation".
    r"|\bfor (?:coverage|completeness|good measure)\b|\bnot (?:for )?confirmation\b"
    # "I'd like a longer soak later, but that's an action item, not part of this validation".
    r"|\b(?:is|are|'s|as) (?:an? |one )?(?:separate |new )?action items?\b"
    r"|\bnot part of (?:this|the|our) (?:validation|verification|check|fix|change|ticket|post-?mortem)\b"
    r"|アクションアイテム|今回の(?:検証|確認|修正)(?:と|の範囲)?(?:は)?別",
    re.IGNORECASE,
)


_REPRO_ITSELF = re.compile(r"\b(?:repro\w*|original|steps)\b|再現|元の", re.IGNORECASE)


def scope_or_condition(sentence: str) -> bool:
    """A stated scope ("not re-tested on ARM") or "while a compaction is in progress" is not pending."""
    return (
        bool(SCOPE_STATED.search(sentence))
        # "The 6-row canapé template wasn't re-checked since it never reaches the limit": another thing named.
        or (other_subject(sentence, named=True) and _REPRO_ITSELF.search(sentence) is None)
        or OUT_OF_SCOPE.search(sentence) is not None
        # "Haven't tried the ARM build yet, but that is a separate build of the same code": another matter.
        or (ANOTHER_MATTER.search(sentence) is not None and search(CORE_EVIDENCE, sentence) is None)
        # "We'll add a property test next sprint, but that is follow-up work": after the fix, not the check.
        or (_FOLLOW_UP.search(sentence) is not None and _REPRO_ITSELF.search(sentence) is None)
        or bool(re.search(r"\b(?:while|when|during|with)\b[^.;]{0,60}\bin progress\b", sentence, re.I | re.A))
    )


def validation(text: str, masked: str) -> Finding | None:
    """A validation's text read whole: a runner's summary with failures after the fix, a check not done, a check
    with no outcome, a single trial. A table's "before" column counts the runs before the fix, not after it."""
    kept = without_before_columns(text)
    checked = _validation(kept, masked if kept == text else mask(kept))
    return checked if checked is None or kept == text else (checked[0], as_typed(checked[1], kept))


def _validation(text: str, masked: str) -> Finding | None:
    pasted = summaries(text)
    failing = next((span for (rate, span), before in pasted if rate > 0 and not before), None)
    if failing is not None and not excused(masked):
        return ("fails_after", failing)  # a pasted "PASS 49  FAIL 1" after the fix
    passed = pasted_pass(text)  # a pasted "1 passed in 0.84s" is the completed check, with its outcome
    return unchecked(masked, pasted=passed) or clauses.validation(masked, pasted=passed) or single_trial(masked)
