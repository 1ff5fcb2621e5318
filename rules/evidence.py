"""The text side of the evidence gate: does a field's text state evidence, or only a hope or a guess?

`check_text(field, text)` answers for one field with the kind of problem and the phrase that shows it,
or None. It reads the person's own prose (`textmask.mask`: code, quotes, pasted logs and identifiers
are not their claim), sentence by sentence, so that a condition ("`buf` can be NULL when `n == 0`"), a
rejected hypothesis ("we thought …, ruled out by …"), a stated scope ("not re-tested on ARM") or an
expectation set against what happens (「呼ばれるはずですが、実際には呼ばれません」) excuses the words near
it, and no more. Everything runs in time linear in the text (see tests/rules/test_linear_time.py).
"""

from __future__ import annotations

import functools
import re

from rules import declared_cause
from rules import evidence_cause as cause
from rules import evidence_checks as checks
from rules import evidence_experiment as experiments
from rules import evidence_rates as counted
from rules import evidence_recount as recount
from rules import evidence_refs as ref_reading
from rules import evidence_run as run
from rules import evidence_runnable as runnable
from rules import evidence_sighting as sightings
from rules import evidence_trials as trials
from rules import evidence_validation as checking
from rules import evidence_words as words
from rules.evidence_markers import marker_set_aside, their_label_denied
from rules.evidence_placeholder import is_placeholder, placeholder_inside
from rules.evidence_rejected import REJECTED
from rules.evidence_repro import repro
from rules.evidence_spec import norm_says
from rules.evidence_summaries import flag_rates, summaries
from rules.evidence_unknown import UNKNOWN, of_another_matter
from rules.textmask import has_words, mask, normalize, rates, sentences, visible

Pair = tuple[re.Pattern[str], re.Pattern[str]]
Finding = tuple[str, str]

#: Fields whose text the gate reads, and the checks each gets beyond "empty" and "placeholder".
CHECKED_FIELDS: tuple[str, ...] = (
    "summary",
    "owner",
    "repro",
    "root_cause",
    "confirmed_by",
    "fix_ref",
    "fix",
    "validation",
)

HIGH_FREQUENCY = counted.HIGH_FREQUENCY

#: Texts that must state what was done and seen, where a placeholder inside is no statement.
_STATED_FIELDS = frozenset({"repro", "root_cause", "confirmed_by", "validation", "fix"})
_BECAUSE_RE = re.compile(r"\b(?:because|since|as long as)\b|ため|ので", re.IGNORECASE)
_OWNER_RE = re.compile(
    r"\b(?:tbd|tbc|todo|xxx+|unassigned|unowned|unknown|nobody|no one|someone|somebody|anyone|whoever|n/a|none"
    r"|probably|maybe|likely|perhaps|possibly|i think|we think)\b|\?"
    r"|未定|未割り当て|不明|誰か|担当者なし|たぶん|多分|おそらく|かも",
    re.IGNORECASE | re.ASCII,
)
NOT_FIXED = (
    words.any_of(
        r"\bno fix yet\b",
        r"\b(?:not|hasn't|has not|haven't|have not|isn't|wasn't) (?:yet )?(?:been )?(?:fixed|merged"
        r"|implemented|written|landed|applied)\b",
        r"\b(?:still working|working) on (?:a|the) fix\b",
        r"\bfix (?:is )?(?:tbd|pending|in progress|coming)\b",
        r"\b(?:we|i|we'll|i'll|the team|someone) (?:will |are going to |am going to |plan to |need to )?"
        r"(?:will |still need to )?(?:fix|patch|implement|address|land|merge|submit|write) (?:it|this|the|a)\b",
        r"\bwill be (?:fixed|patched|addressed|merged|implemented)\b",
        flags=words.EN_FLAGS,
    ),
    words.any_of(
        "未修正", "修正(?:中|予定|待ち)", "まだ修正(?:して|され)(?:い)?(?:ません|ない)", "(?:対応|修正)(?:する|の)予定"
    ),
)


@functools.lru_cache(maxsize=32)  # the gate reads a text for its field, then again against its structured answer
def check_text(field: str, text: str | None) -> Finding | None:
    """The kind of problem with one field's text and the phrase that shows it; None when acceptable.

    Kinds: degenerate, placeholder, placeholder_inside, unknown, hypothesis, not_on_demand, rare, rate_guessed,
    pending, hope, stand_in, fails_after, no_ref, ref_pending, not_a_change, not_fixed, guessed, and the clause
    readers' (rules.reading). Fields not in CHECKED_FIELDS are never refused here.
    """
    if field not in CHECKED_FIELDS or text is None:
        return None
    if not any(ch.isalnum() for ch in visible(text)):
        return ("degenerate", _shown(text))
    if is_placeholder(text):
        return ("placeholder", " ".join(normalize(text).split()))
    if field == "fix_ref":
        return ref_reading.fix_ref(normalize(text))
    if field == "owner":
        found = _OWNER_RE.search(normalize(text))
        return ("guessed", found.group(0)) if found else None
    masked = mask(text)
    if field in _STATED_FIELDS and (token := placeholder_inside(text, masked)) is not None:
        return ("placeholder_inside", token)
    if field == "repro":
        guessed = runnable.GUESSED_RATE.search(masked)
        return (
            _repro(masked, text)
            or repro(masked, _on_demand, pasted=any(rate >= HIGH_FREQUENCY for (rate, _), _before in summaries(text)))
            or _finding("rate_guessed", guessed and guessed.group(0))
        )
    if field == "validation":
        return checking.validation(text, masked)
    if field == "root_cause":
        error = declared_cause.error_declared(normalize(text))  # 「原因は、`f()` が `ERR_X` を返すことです」
        return _cause(masked, hedges=True) or _finding("no_mechanism", error) or cause.mechanism(masked)
    if field == "confirmed_by":
        problem = _cause(masked, hedges=True) or checking.pending(masked) or trials.single_trial(masked)
        return problem or experiments.experiment(masked, normalize(text))
    if field == "fix":
        return _cause(masked, hedges=False) or _finding("not_fixed", _search(NOT_FIXED, masked))
    return _cause(masked, hedges=False)  # summary


def _shown(text: str) -> str:
    """Degenerate text as it can be quoted: what is visible, else the invisible characters' code points."""
    seen = visible(text)
    if seen:
        return seen[:20]
    codes = sorted({f"U+{ord(ch):04X}" for ch in text if not ch.isspace() or ch in "\u200b\ufeff"})
    return " ".join(codes[:4]) or "whitespace"


def _finding(kind: str, phrase: str | None) -> Finding | None:
    return None if phrase is None else (kind, phrase)


def _search(pair: Pair, text: str, start: int = 0) -> str | None:
    """The first phrase of either language's pattern, as written."""
    if start == 0:
        return words.search(pair, text)
    best: re.Match[str] | None = None
    for pattern in pair:
        m = pattern.search(text, start)
        if m is not None and (best is None or m.start() < best.start()):
            best = m
    return None if best is None else best.group(0).strip(" 、,")


def _cause(masked: str, *, hedges: bool) -> Finding | None:
    """The cause unknown (any text), or only suspected (root cause, confirming experiment)."""
    parts = sentences(masked)
    for sentence in parts:
        if not _search(REJECTED, sentence) and (phrase := _search(UNKNOWN, sentence)):
            if not of_another_matter(sentence):
                return ("unknown", phrase)
    if not hedges:
        return None
    for i, sentence in enumerate(parts):
        following = parts[i + 1] if i + 1 < len(parts) else ""
        if not _search(REJECTED, sentence) and (phrase := _hedge(sentence, following)):
            if _RULED_OUT_NEXT.match(following):
                continue  # "Monday's hypothesis was 'probably X'. Tested it: …": the idea put to the test
            return ("hypothesis", phrase)
        if (phrase := _search(words.UNCONFIRMED, sentence)) and not checking.scope_or_condition(sentence):
            if _search(REJECTED, sentence) or _RULED_OUT_NEXT.match(following):
                continue  # "First hypothesis was GC pauses; ruled out with `-Xlog:gc`": tested and dropped
            return ("hypothesis", phrase)
    return None


#: The next sentence drops the idea: "ruled out with …", "that was wrong", 「…で否定」.
_RULED_OUT_NEXT = re.compile(
    r"\s*(?:(?:it|that|this) (?:was|were) |was |were )?(?:tested and )?(?:ruled out|disproved|rejected|eliminated"
    r"|excluded|wrong|dropped|discarded)\b"
    r"|\s*(?:we |i )?(?:tested|checked|tried) (?:it|that|this|the (?:idea|hypothesis|theory)|by)\b"
    r"|\s*[^。]{0,30}(?:否定|除外|違った)|\s*(?:it|that|this|they) (?:did not|didn't|was not|wasn't)\W*$"
    # 「仮説：…。…を入れた版でベンチを回すと 0 件、比較なしの版では 23 件」: the idea, then its run both ways.
    r"|[^。]{0,60}?(?:版|ビルド|パッチ)で[^。]{0,40}?(?:回す|回し|流す|流し|実行)[^。]{0,40}?(?:なし|前)の"
    # "we swapped the pump and the fault stayed, so that is ruled out": the test, then the idea dropped.
    r"|[^.;。]{0,80}?\b(?:that|it|this|which)(?: one| idea| theory)? (?:is|was|has been) (?:ruled out|excluded"
    r"|disproved)\b|[^.;。]{0,80}?\b(?:changed nothing|made no difference|had no effect)\b",
    re.IGNORECASE,
)


_ASKED_OF_ME_JA = re.compile("\\s*(?:と|って)(?:聞かれ|質問され|尋ねられ|訊かれ)")


def _hedge(sentence: str, following: str) -> str | None:
    """A hedge in one sentence, unless negated, a condition on a modal, or an expectation met by reality."""
    for pattern in words.HYPOTHESIS if has_words(sentence) else words.HYPOTHESIS[1:]:
        for m in pattern.finditer(sentence):
            before = sentence[max(0, m.start() - 30) : m.start()]
            if words.NEGATED_BEFORE.search(before) or words.NEGATED_AFTER_JA.match(sentence, m.end()):
                continue
            if _ASKED_OF_ME_JA.match(sentence, m.end()):
                continue  # 「電源系の問題ではないかと聞かれましたが」: someone's question, not the writer's guess
            if m.group(0).startswith("可能性") and norm_says(sentence, m.start()):
                continue  # 「仕様上、…される可能性がある」: what the norm allows
            if (
                m.group(0).startswith("可能性")
                and sentence[: m.start()].rstrip().endswith("の")
                and words.CONDITION[1].search(sentence, max(0, m.start() - 80), m.start())
            ):
                continue  # 「`len == 0` のとき `src` が NULL の可能性がある」: a value allowed under a condition
            return m.group(0)
    modal = words.MODAL.search(sentence)
    # "might be reusing …" guesses what happens, whatever the condition; "might wrap past … when …" says what can.
    guessing = modal is not None and _GUESSING.match(sentence, modal.start()) is not None
    conditioned = modal is not None and not guessing and _search(words.CONDITION, sentence)
    if modal and not conditioned and not _capability(modal.group(0), sentence):
        if not norm_says(sentence, modal.start()):  # "FIX 4.4 expects …, and it might be reused": the norm's word
            return modal.group(0)
    should = words.SHOULD_JA.search(sentence)
    if should and not _search(words.CONTRAST, sentence) and not _search(words.CONTRAST, following[:40]):
        return should.group(0)
    return None


_GUESSING = re.compile(r"(?:might|may|could) (?:well |also |still )?be [a-z]+ing\b", re.IGNORECASE)


def _capability(modal: str, sentence: str) -> bool:
    """ "Two threads could enter `commit()` because the lock is per shard": what the code allowed, explained."""
    could, verb = modal.lower().split()[:2]
    return could == "could" and verb not in ("be", "have", "also", "well") and bool(_BECAUSE_RE.search(sentence))


def _repro(masked: str, raw: str = "") -> Finding | None:
    """Reproducible on demand: every run, or a flake at high frequency (docs/rules.md#four-inputs-or-no-post-mortem);
    a test runner's pasted summary ("2 failed, 498 passed") counts as stated."""
    stated = rates(masked) + counted.counts(masked) + tuple(rate for rate, _before in summaries(raw))
    if all(rate == 1 for rate, _ in stated):  # "`pytest --count 300`; it failed 4 times": 4 of the 300 runs
        stated = tuple(flag_rates(raw, masked)) or stated
    if (setup := runnable.NOT_RUNNABLE.search(masked)) is not None:
        return ("not_on_demand", setup.group(0))  # 「特定の手順はありません」, 「再現環境を構築中」: nothing to run yet
    items = recount.item_pairs(masked)  # "2 of the 4 reels …; 2 jumped frames out of 38,000": no rate of runs alone
    if (stated or any(r >= HIGH_FREQUENCY for r, _ in items)) and (fine := recount.recounted_rare(stated + items)):
        return ("rare", fine)  # "2 of 5 batches, so 2 calls out of 2,500": the same failures over finer units
    if stated and all(rate == 0 for rate, _ in stated):
        return ("rare", stated[0][1])  # "about 40 attempts …, and at no point did it hang": it did not reproduce
    if any(rate >= HIGH_FREQUENCY for rate, _ in stated):
        return None
    if not stated and (until := _search(checks.RUN_UNTIL, masked)) is not None:
        return ("not_on_demand", until)  # 「…すると全灯になります。出るまで回して確認しました」: run until it showed
    parts = sentences(masked)
    if any(_on_demand(sentence) for sentence in parts):
        return None
    # Each sentence is a slice of `masked` cut at punctuation or a line break, so a pattern that matches no part of
    # the whole text matches no sentence: one search of the text spares one per sentence.
    if _search(run.NOT_ON_DEMAND, masked) is not None:
        for sentence in parts:
            if their_label_denied(sentence, masked):
                continue  # "The forum thread calls it an occasional crash; it is not occasional here"
            if (phrase := _search(run.NOT_ON_DEMAND, sentence)) and not _search(run.CONTRAST_REPRO, sentence):
                return ("not_on_demand", phrase)
    if not stated and _search(checks.VAGUE_TIMING, masked) is not None:
        for sentence in parts:
            if phrase := _search(checks.VAGUE_TIMING, sentence):
                return ("not_on_demand", phrase)
    if (seen := sightings.sighting(masked)) is not None:
        return ("not_on_demand", seen)  # "failed once", 一度だけ: a sighting, no runs behind it
    return ("rare", min(stated)[1]) if stated else None


#: A new clause between the vague word and the marker: "the customer reported it, and `x.sh` fails every run".
_CLAUSE_BREAK = re.compile(r",\s*(?:and|so|then|now)\b|;|、(?:そして|今は|手元では)", re.IGNORECASE)


_NEGATED = re.compile(r"\b(?:not|isn't|is not|never|no longer)\s*(?:a |an |just |only )?$", re.IGNORECASE)


def _on_demand(sentence: str) -> bool:
    """An every-run marker not undercut by a vague word before it in its sentence (unless a "but" intervenes), nor
    by vague timing anywhere in it ("it gets there every time eventually")."""
    if _search(checks.VAGUE_TIMING, sentence) is not None:
        return False
    for pattern in run.ON_DEMAND:
        for m in pattern.finditer(sentence):
            head = sentence[: m.start()][-300:]
            if marker_set_aside(head, sentence, m.end()):
                continue  # "It does not happen on every run", "always the test that failed", 「落ちるときは必ず」
            vague = _search(run.NOT_ON_DEMAND, head)
            if vague is None or _NEGATED.search(head[: head.rfind(vague)]):
                return True  # "it is not sometimes: …, every time": the vague word denied
            tail = head[head.rfind(vague) + len(vague) :]
            if _search(words.CONTRAST, tail) or _CLAUSE_BREAK.search(tail):
                return True
    return False
