"""The repro read clause by clause (docs/rules.md#four-inputs-or-no-post-mortem): a plan or "I haven't got it to
fail" refuses; hearsay, a conjecture or an outcome only expected ("this should trip the fault on every run") does
unless a plain clause shows it failing on demand or at a high rate. Read by `rules.evidence`.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from rules import english, reading
from rules import evidence_words as words
from rules.evidence_after_result import done_later, more_to_come
from rules.evidence_asides import bracket_around
from rules.evidence_clauses import another_matter, plain, sentence_around
from rules.evidence_count_words import FAILURE_WORD
from rules.evidence_other_matter import AFTER_THE_FIX, ANOTHER_MATTER
from rules.evidence_rates import HIGH_FREQUENCY, stated
from rules.evidence_rejected import REJECTED
from rules.evidence_scope import scope_only
from rules.evidence_words import search
from rules.regex_guard import compile_guarded
from rules.textmask import sentences

Finding = tuple[str, str]


#: A repro's outcome said as an expectation: "this should trip the timeout", "which would produce the crash".
_EXPECTED = compile_guarded(
    r"\b(?:should|would|ought to|is expected to|is supposed to|has to|have to|must|(?:was|were) (?:expected|supposed)"
    r" to|is bound to)\s+(?:also\s+|then\s+|now\s+"
    r"|always\s+)?"
    r"(?:trip|produce|surface|show|kick in|fire|occur|happen|appear|see|get|cause|result in|lead to|throw|raise|return"
    r"|emit|log|print|report|end up|wedge|lock|stop|drop|double|corrupt|bring|make|break|fail|crash|hang"
    r"|reproduce|leave"
    r"|keep|put|send|deadlock|time out|overflow|leak|stay|remain|get stuck|be stuck"
    r"|repro|trigger)\b",
    re.IGNORECASE,
)


#: An outcome worked out, not seen: "in theory it jams every time", 「理屈の上では毎回詰まります」; or the one the steps
#: were meant to give: 「これで毎回閉じなくなるはずでした」.
_IN_THEORY = re.compile(
    r"\b(?:in theory|theoretically|on paper|in principle)\b|はず(?:でした|だった|であった)"
    r"|理屈(?:の上)?では|理論上(?:は)?|計算上(?:は)?|机上(?:では|の)",
    re.IGNORECASE,
)


#: The outcome only as the expected one: "Expected: …" with no "Actual: …" beside it (「期待結果：」, no 「実際：」).
_EXPECTED_LABEL = re.compile(
    r"^\s*(?:expected(?: result| behaviou?r)?|期待(?:結果|値|される動作)?)\s*[:：]", re.I | re.M
)
_ACTUAL_LABEL = re.compile(
    r"^\s*(?:actual(?: result| behaviou?r)?|observed|result|実際(?:の結果)?|結果)\s*[:：]", re.I | re.M
)
#: The expected label opening a clause anywhere ("… ten more. Expected result: 0 swaps with the change"), and an
#: actual one anywhere in the text.
_EXPECTED_OPENS = re.compile(
    r"\W*(?:expected|predicted|anticipated)(?: (?:result|outcome|behaviou?r))?s?\s*[:：]"
    r"|\W*(?:期待|想定|予想)(?:結果|値|される(?:結果|動作))?\s*[:：]",
    re.I,
)
_ACTUAL_ANYWHERE = re.compile(
    r"\b(?:actual(?: result| behaviou?r)?|observed|(?<!expected )(?<!predicted )(?<!anticipated )result)\s*[:：]"
    r"|実際(?:の結果)?\s*[:：]|(?<!期待)(?<!想定)(?<!予想)結果\s*[:：]",
    re.I,
)


def expected_label(clause: str, masked: str) -> str | None:
    """A clause that opens with "Expected result:" when nothing in the text says what actually came out."""
    m = _EXPECTED_OPENS.match(clause)
    return m.group(0).strip() if m is not None and _ACTUAL_ANYWHERE.search(masked) is None else None


#: An outcome of any kind, expected on every run: "this should black out the projector on every run".
_EXPECTED_EVERY = compile_guarded(
    r"\b(?:should|would|ought to|(?:is|was|were) (?:expected|supposed) to)\s+(?:\w+\s+){1,8}?"
    r"(?:on every run|every time|each time|every run|on each run)\b",
    re.IGNORECASE,
)


def expected_outcome(clause: str) -> str | None:
    """An outcome said as an expectation and set against nothing that happened: "this should trip the timeout"."""
    expected = _EXPECTED.search(clause) or _IN_THEORY.search(clause) or _EXPECTED_EVERY.search(clause)
    if expected is not None and _ASKED.search(clause, 0, expected.start()):
        return None  # "Kai asked if we should also log the app version": a question reported, not an outcome
    return None if expected is None or search(words.CONTRAST, clause) else expected.group(0)


def _outside_asides(masked: str) -> list[str]:
    """Clauses whose only modal word is someone's remark in brackets, read without it: "it overshot in all 10 (the
    stage manager says it has been doing this since the autumn)" still shows the writer's own runs."""
    kept = []
    for clause, why in reading.readings(masked):
        if why is not None and why[0] == "hearsay" and (aside := bracket_around(clause, max(0, clause.find(why[1])))):
            rest = clause[: aside[0]] + clause[aside[1] :]
            if reading.read(rest) is None:
                kept.append(rest)
    return kept


_ASKED = re.compile(r"\b(?:asked|asks|wondered|wonders|wondering)\b[^.;]{0,30}?\b(?:if|whether)\b", re.IGNORECASE)


def repro(masked: str, on_demand: Callable[[str], bool], *, pasted: bool = False) -> Finding | None:
    """A repro the author ran: a plan or "I haven't got it to fail" refuses; hearsay or a conjecture does
    unless a plain clause shows it failing on demand or at a high rate (or a runner's pasted summary does:
    `pasted`, read on the raw text)."""
    clean, found = plain(masked)
    kept = []
    for clause in clean:
        if search(words.HYPOTHESIS, clause) is not None:
            continue
        if (expected := expected_outcome(clause)) is not None:
            found.append(("appearance", expected))  # "this should trip the timeout on every run": not what was seen
        else:
            kept.append(clause)
    clean = kept + _outside_asides(masked)
    if (label := _EXPECTED_LABEL.search(masked)) is not None and _ACTUAL_LABEL.search(masked) is None:
        found.append(("appearance", label.group(0).strip()))  # "Expected: board comes back in recovery", no Actual
    # "20/20 flashes so far": a counted rate is shown even in a clause that reads as watching.
    watched = [c for c, why in reading.readings(masked) if why is not None and why[0] == "watching"]
    shown = (
        pasted
        or any(on_demand(c) for c in clean)
        # The plain clauses read together: "60 passes, and 19 of them dropped a tag" splits a count over two.
        or any(rate >= HIGH_FREQUENCY for text in (" ".join(clean), *watched) for rate, _ in stated(text))
    )
    for clause in reading.all_clauses(masked):
        why = reading.not_done(clause)
        if why is None and (gone := _NOT_SINCE_JA.search(clause)) is not None and _THE_FIX_JA.search(clause) is None:
            why = ("not_done", gone.group(0))  # 「移してからは再現していない」: it stopped, and not by the fix
        if why is not None and why[0] == "planned" and done_later(sentences(masked), why[1]):
            continue  # "The plan on Monday was to loop it overnight, and I did: …"
        if why is not None and shown and _set_aside(masked, clause, planned=why[0] == "planned"):
            # "I will add the replay as a nightly CI job after the fix lands": work for later, not the repro;
            # "Marco asked whether the VM-5 boards do it too; I haven't checked, that's a separate question".
            continue
        if why is not None:
            return why
        if why is None and (hedge := search(words.HYPOTHESIS, clause)) and not search(REJECTED, clause):
            found.append(("conjecture", hedge))
    # "The customer's ticket said 'might be the GPS'": their words quoted, beside the writer's own steps.
    modal = [f for f in found if f[0] in ("hearsay", "appearance", "conjecture") and not _quoted(masked, f)]
    if modal and not shown:
        return modal[0]
    only_expected = next((f for f in found if f[0] == "appearance"), None)
    if only_expected is not None and not any(FAILURE_WORD.search(c) or stated(c) for c in clean):
        # "Flash …, unplug during balancing. This should trip the fault on every run.": steps, and no result seen
        return only_expected
    if not shown and (m := _first(english.INFERENCE, masked)):
        return ("hypothesis", m)
    return None


def _quoted(masked: str, found: tuple[str, str]) -> bool:
    """Someone's words reported as a quote ("the ticket said 'might be the GPS'"): what they said, not a run."""
    at = masked.find(found[1])
    return found[0] == "hearsay" and at >= 0 and _QUOTE_AFTER.match(masked, at + len(found[1])) is not None


_QUOTE_AFTER = re.compile(r"\s*(?:that\s+)?Q\s*(?:[.;,]|$)")


#: It has not reproduced since something happened: 「サーバーを移してからは再現していない」.
_NOT_SINCE_JA = re.compile("(?:てから|以降|以来)(?:は|も)?[^。、]{0,12}?再現(?:し|され)て(?:い)?(?:ない|ません)")
#: The fix named as what it stopped with: 「修正してからは再現していない」 is the fix working, not a lost repro.
_THE_FIX_JA = re.compile("修正|対策|パッチ|直し|直っ|(?i:fix)")


#: What a plan about the repro itself does: run it, try it, count, measure, reproduce, confirm.
_RUNS_SOMETHING = re.compile(
    r"\b(?:run|re-?run|try|test|repro\w*|reproduc\w*|check|count|measure|confirm|verify|loop|repeat|trigger|capture"
    r"|record|bisect|replay|see (?:if|whether)|find out|get (?:it|a rate|numbers))\b"
    r"|試|流|回(?:し|す)|実行|再現|確認|計測|測定|数え|検証|調べ|記録|ループ|繰り返",
    re.IGNORECASE,
)


#: The repro's own steps, still to be given (「内容は後で貼ります」): never more work after it.
_OWN_STEPS = re.compile(r"手順|内容|\bsteps\b|\bdetails\b", re.IGNORECASE)


def _set_aside(masked: str, clause: str, *, planned: bool) -> bool:
    """A clause not done that is about another matter or configuration than the repro the text shows."""
    if scope_only(clause) or (planned and AFTER_THE_FIX.search(clause)):
        return True
    at = masked.find(clause)
    if planned:
        # 「来月からは自前の治具に切り替える予定です」: a plan that runs, tries or counts nothing is beside the repro;
        # "I'll try the 64-hole template next week": more of the same work, after the rate shown.
        more = at >= 0 and not _OWN_STEPS.search(clause) and more_to_come(sentence_around(masked, at, len(clause)))
        return another_matter(masked, at, len(clause)) or _RUNS_SOMETHING.search(clause) is None or more
    # Done or not, said of something else in so many words: "…; I haven't checked, that's a separate question".
    return at >= 0 and ANOTHER_MATTER.search(sentence_around(masked, at, len(clause))) is not None


def _first(pattern: re.Pattern[str], text: str) -> str | None:
    m = pattern.search(text)
    return None if m is None else m.group(0)
