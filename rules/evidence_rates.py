"""Observed counts in a repro, read into rates wherever the text states them: "2 of the last 300 runs",
"out of 1000 replays, 3 dropped", "ran it 500 times; it failed once", 「1000 回流して失敗は 4 回」,
「100 回に 1 回」, 「3割」, "one run in three", "~30 failures per 100", "0.5%". A single sighting with no runs
behind it ("failed once", 一度だけ) is no rate at all (docs/rules.md#observed-rates).

The reader works sentence by sentence on masked text (`textmask.mask`): within a sentence, a count of runs
(a total) and a count of failures (hits) make one rate, whichever comes first. Every pattern is linear.
"""

from __future__ import annotations

import re
from fractions import Fraction
from functools import lru_cache

from rules import evidence_count_shapes as shapes
from rules.evidence_count_words import ENOUGH as _ENOUGH
from rules.evidence_count_words import FAIL_NOUN as _FAIL_NOUN
from rules.evidence_count_words import FAIL_VERB as _FAIL_VERB
from rules.evidence_count_words import NONE_FAILED, OUT_OF
from rules.evidence_count_words import NUMBER_WORDS as _WORDS
from rules.evidence_count_words import REPEAT_NOUN as _REPEAT_NOUN
from rules.evidence_count_words import RUN_NOUN as _RUN_NOUN
from rules.regex_guard import compile_guarded
from rules.textmask import level_percent, rates, sentences

Rate = tuple[Fraction, str]

#: A high-frequency flake fails at least about one run in ten (DESIGN §2, `repro_rate`).
HIGH_FREQUENCY = Fraction(1, 10)


#: The first failure after a run of passes: "went red on iteration 143", "failed on attempt 57".
_ON_ITERATION = re.compile(
    r"\b(?:went red|failed|crashed|hung|broke|tripped|deadlocked|fired|reproduced|hit it) (?:on|at|after) "
    r"(?:iteration|run|attempt|try|loop|pass|cycle)\s*#?(\d{2,7})\b"
    # "fine on the first 499 attempts; on the 500th it froze": once, in that many.
    r"|\b(?:on|at) the (\d{2,7})(?:st|nd|rd|th)(?: (?:attempt|run|try|time|boot|iteration|cycle|pass))?,? (?:it |the "
    r"[\w-]+ )?(?:froze|failed|crashed|hung|broke|stalled|locked up|reset|rebooted|jammed|stuck|went blank)\b",
    re.IGNORECASE,
)


def count_value(text: str) -> float | None:
    token = text.strip().lower()
    if token in _WORDS:
        return float(_WORDS[token])
    m = re.match(r"(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)(k|m(?![a-z])|\s+(?:thousand|million|billion))?", token)
    if m is None:
        return None
    value = float(m.group(1).replace(",", ""))
    scale = {"k": 1000, "m": 1_000_000, "thousand": 1000, "million": 1_000_000, "billion": 1_000_000_000}
    return value * scale.get((m.group(2) or "").strip(), 1)


def rate_of(hits: float | None, total: float | None) -> Fraction | None:
    """hits / total as a fraction; None when either is missing or the count is impossible."""
    if hits is None or total is None or total <= 0 or hits > total:
        return None
    return Fraction(hits).limit_denominator(1000) / Fraction(total).limit_denominator(1000)


#: Something a count is made of: a digit, a number word, 「一」「二」「三」.
_ANY_COUNT = compile_guarded(
    r"\d|\b(?:once|twice|thrice|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|\w+teen|twenty|thirty"
    r"|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|single|half|third|quarter|fifth|sixth|tenth|other"
    r"|second|most)\b|[一二三]|半",
    re.IGNORECASE,
)


@lru_cache(maxsize=256)
def counts(masked: str) -> tuple[Rate, ...]:
    """Every failure rate the text states, with the words that state it: pairs, per-forms, percentages, every
    run counted, and a total and a failure count found in one sentence (or a count of failures just after the
    sentence that counted the runs: "I repeated it 10 times; it failed all 10")."""
    found: list[Rate] = []
    previous: list[tuple[re.Match[str], float]] = []
    if _ANY_COUNT.search(masked) is None:
        return ()
    for sentence in sentences(masked):
        # A pasted log repeats its sentences: what a sentence states alone is read once per distinct sentence.
        stated = list(_direct(sentence))
        totals = list(_totals(sentence))
        if not stated:
            # "… did 400 taps; the reader locked up 3 times": the "3 times" is the failures, not this sentence's runs.
            own = [(t, v) for t, v in totals if not _inside_hits(sentence, t)]
            stated = _split(sentence, own or previous)
            if not stated and own and previous:
                # "ran it 500 times; one run skipped a frame, the other 499 were clean": "one run" counts no runs
                stated = _split(sentence, previous)
        found.extend(stated)
        previous = totals
        if len(found) >= _ENOUGH:
            break
    return tuple(found)


#: What may follow a pair's second figure: a run or failure noun, a verb or a preposition, punctuation, the end.
_AFTER_PAIR = re.compile(
    rf"\s*(?:$|[^\w\s]|(?:{_REPEAT_NOUN}|{_FAIL_NOUN}|{_FAIL_VERB})\b|(?:on|in|at|with|under|when|while|and|but|so|for"
    r"|during|after|before|over|across|without|using|via|from|by|were|was|are|is|fail\w*|crash\w*|hang\w*|hung"
    r"|runs?|times?|tries|attempts?|then|now|here|there|locally|again|overnight)\b|[\u3040-\u30ff\u4e00-\u9fff])",
    re.IGNORECASE,
)
_DIGIT = re.compile(r"\d")
#: A run noun inside the pair itself: "one deploy in five", "3 runs of 10".
_RUN_IN_PAIR = re.compile(rf"\s{_REPEAT_NOUN}\s", re.IGNORECASE)


#: Words each pattern needs somewhere in the sentence: a cheap scan first, so a long text without them costs little.
_HINTS = (
    (shapes.PAIR_WORD, "_PAIR"),
    (re.compile(r"\b(?:per|every|each)\b", re.I), "_PER"),
    (re.compile("回|/|中|のうち|に|ところ|結果|たら"), "_PAIR_JA"),
    (re.compile(r"\b(?:out of|of (?:those|these) \d)", re.I), "_OUT_OF"),
)
_RUN_HINT = compile_guarded(
    rf"{_RUN_NOUN}\b|回|度|サイクル|本|\b(?:did|ran|performed|executed|completed|went through|replayed|re-?ran|over"
    r"|across) (?:the |all |all the )?\d",
    re.I,
)


def run_pair(sentence: str, pair: re.Match[str]) -> bool:
    """Whether a `shapes.PAIR` match counts runs ("3 of 10 runs", "one deploy in five"), not things a run handles."""
    return _AFTER_PAIR.match(sentence, pair.end()) is not None or _RUN_IN_PAIR.search(pair.group(0)) is not None


@lru_cache(maxsize=1024)
def _totals(sentence: str) -> tuple[tuple[re.Match[str], float], ...]:
    """The counts of runs in a sentence: "ran it 500 times", 「1000 回流した」."""
    if _RUN_HINT.search(sentence) is None:
        return ()
    return tuple((m, v) for m in shapes.TOTAL.finditer(sentence) if (v := count_value(figure(m))))


@lru_cache(maxsize=1024)
def _direct(sentence: str) -> tuple[Rate, ...]:
    """Rates stated in one phrase: "3 of 10", "1 in every 200", 「10 回中 3 回」, "0.5%", 「3割」, "failed all 10"."""
    found: list[Rate] = []
    patterns = {"_PAIR": shapes.PAIR, "_PER": shapes.PER, "_PAIR_JA": shapes.PAIR_JA, "_OUT_OF": OUT_OF}
    for hint, name in _HINTS:
        if hint.search(sentence) is None:
            continue
        pattern = patterns[name]
        for m in pattern.finditer(sentence):
            groups = m.groupdict()
            hits = next((groups[g] for g in ("hits", "hits2", "hits3", "hits4", "hits5") if groups.get(g)), None)
            total = next((groups[g] for g in ("total", "total2", "total3", "total4", "total5") if groups.get(g)), None)
            if pattern is shapes.PAIR and not run_pair(sentence, m):
                continue  # "12 of the 500 orders": a share of things; "one deploy in five" counts runs
            words_only = not (_DIGIT.search(hits or "") and _DIGIT.search(total or ""))
            if pattern in (shapes.PAIR, shapes.PER) and words_only:
                around = sentence[m.start() : m.end() + 24]
                if not re.search(rf"\b(?:{_RUN_NOUN}|{_FAIL_NOUN})\b", around, re.IGNORECASE):
                    continue  # "one of two": a number word counts runs only with a noun that says so
            rate = rate_of(count_value(hits or ""), count_value(total or ""))
            if rate is not None:
                # "rotated to the spare in 0 of 8 attempts and stayed dark each time": none of them came through
                passes = shapes.counts_passes(sentence, m.start(), m.end()) or (
                    rate == 0
                    and shapes.EACH_TIME.search(sentence, m.end()) is not None
                    and shapes.FAILED_WORD.search(sentence, max(0, m.start() - 40), m.start()) is None
                )
                found.append((1 - rate if passes else rate, m.group(0).strip()))
            if len(found) >= _ENOUGH:
                return tuple(found)
    for m in shapes.PERCENT.finditer(sentence):
        if len(found) >= _ENOUGH:
            break
        value = Fraction(m.group(1))
        if value <= 100 and not level_percent(sentence, m.start(), m.end()):
            found.append((value / 100, m.group(0)))
    for m in shapes.TENTHS_JA.finditer(sentence):
        if len(found) >= _ENOUGH:
            break
        value = Fraction(m.group(1))
        if value <= 10:
            found.append((value / 10, m.group(0)))
    if (first := _ON_ITERATION.search(sentence)) is not None:
        rate = rate_of(1.0, count_value(first.group(1) or first.group(2)))
        if rate is not None:
            found.append((rate, first.group(0)))  # "--repeat until-fail:200 … went red on iteration 143"
    if (every := shapes.ALL.search(sentence)) is not None:
        found.append((Fraction(1), every.group(0)))
    if (passed := shapes.PASSED_ALL.search(sentence)) is not None:
        found.append((Fraction(0), passed.group(0)))  # 「5 回とも通った」: every run passed, none failed
    for m in shapes.SHARE_JA.finditer(sentence):
        if len(found) >= _ENOUGH:
            break
        if m.group("half"):
            found.append((Fraction(1, 2), m.group(0)))
        elif (den := count_value(m.group("den"))) and (num := count_value(m.group("num"))) and 0 < num <= den:
            found.append((Fraction(num).limit_denominator(1000) / Fraction(den).limit_denominator(1000), m.group(0)))
    for m in shapes.SHARE.finditer(sentence):
        if len(found) >= _ENOUGH:
            break
        if shapes.PASSING_AFTER.match(sentence, m.end()):
            continue  # "Most runs finish green; on a few, it hangs": the share of passes, not of failures
        word = (m.group("ord") or m.group("part") or m.group("most") or "").lower()
        share = shapes.SHARES.get(word) or (
            Fraction(1, int(word[:-2])) if word[:-2].isdigit() and int(word[:-2]) else None
        )
        if share is not None:
            found.append((share, m.group(0)))
    return tuple(found)


def figure(m: re.Match[str]) -> str:
    """The one figure a count shape matched, whichever of its alternatives did (`shapes.TOTAL`, `shapes.HITS`)."""
    return next((g for g in m.groups() if g is not None), "")


def _inside_hits(sentence: str, total: re.Match[str]) -> bool:
    """Whether a run count is the figure of a failure count ("locked up 3 times")."""
    return any(h.start() < total.end() and total.start() < h.end() for h in _hits(sentence))


@lru_cache(maxsize=1024)
def _hits(sentence: str) -> tuple[re.Match[str], ...]:
    """The failure counts of a sentence, found once (a pasted log repeats its sentences thousands of times, and each
    is looked at for its totals and for its failures)."""
    return tuple(shapes.HITS.finditer(sentence))


def _split(sentence: str, totals: list[tuple[re.Match[str], float]]) -> list[Rate]:
    """A failure count set against a count of runs: "Out of 1000 replays, 3 dropped the session"."""
    found: list[Rate] = []
    if not totals:
        return found
    if (none := NONE_FAILED.search(sentence)) is not None:
        found.append((Fraction(0), _span(sentence, none, [t for t, _ in totals if t.string == sentence])))
    for m in _hits(sentence):
        hits = count_value(figure(m))
        if hits is None:
            continue
        # The total is the largest run count beside it; the same figure is not both.
        total = max(
            (v for t, v in totals if t.string != sentence or not (t.start() < m.end() and m.start() < t.end())),
            default=None,
        )
        rate = rate_of(hits, total)
        if rate is not None and m.group("h") and shapes.counts_passes(sentence, m.start(), m.end()):
            rate = 1 - rate  # "tried it 50 times and it went through cleanly in 48 of them": the runs that passed
        if rate is not None:
            found.append((rate, _span(sentence, m, [t for t, _ in totals if t.string == sentence])))
    if not found:
        found = _passes(sentence, totals) or _then_counted(sentence, totals)
    return found


def _then_counted(sentence: str, totals: list[tuple[re.Match[str], float]]) -> list[Rate]:
    """ "ran it 500 times and it mis-detected the teat once"; "…, 500 games in all; it miscounted the pins once"."""
    if not totals:
        return []
    # After the runs counted in this sentence, or anywhere in it when they were counted in the sentence before.
    first = min((t.end() for t, _ in totals if t.string == sentence), default=0)
    m = (
        shapes.THEN_COUNTED.search(sentence, first)
        or shapes.THEN_COUNTED_JA.search(sentence, first)
        or (shapes.THEN_COUNTED_AFTER.match(sentence, first) if first else None)
    )
    if m is None:
        return []
    rate = rate_of(count_value(m.group("n")), _runs_before(sentence, totals, m.start("n")))
    return [] if rate is None else [(rate, _span(sentence, m, [t for t, _ in totals if t.string == sentence]))]


def _runs_before(sentence: str, totals: list[tuple[re.Match[str], float]], at: int) -> float | None:
    """The most runs counted before `at` in the sentence, or in the sentence before it."""
    return max((v for t, v in totals if t.string != sentence or t.end() <= at), default=None)


@lru_cache(maxsize=1024)
def _pass_counts(sentence: str) -> tuple[re.Match[str], ...]:
    return tuple(shapes.PASSES.finditer(sentence))


def _passes(sentence: str, totals: list[tuple[re.Match[str], float]]) -> list[Rate]:
    """The runs that passed set against the runs: "ran it 10 times, 9 finished normally" fails 1 in 10."""
    found: list[Rate] = []
    for m in _pass_counts(sentence):
        passes, total = count_value(figure(m)), _runs_before(sentence, totals, m.start())
        if passes and total and passes < total and (rate := rate_of(total - passes, total)) is not None:
            found.append((rate, _span(sentence, m, [t for t, _ in totals if t.string == sentence])))
    return found


def _span(sentence: str, hits: re.Match[str], totals: list[re.Match[str]]) -> str:
    """The words from the total to the failure count (or the other way round), trimmed."""
    start = min([hits.start(), *(t.start() for t in totals)])
    end = max([hits.end(), *(t.end() for t in totals)])
    text = " ".join(sentence[start:end].split())
    return text if len(text) <= 80 else text[:79] + "…"


def stated(masked: str) -> tuple[tuple[Fraction, str], ...]:
    """Every failure rate a text states (`textmask.rates` and `evidence_rates.counts`)."""
    return rates(masked) + counts(masked)
