"""Positive evidence, read clause by clause: what each required text must state, not only what it must not.

A validation states a completed check and its outcome; a root cause, what a concrete element does wrong; a
confirming experiment, what was run and what it showed; a fix reference, something that already resolves.
Only plain clauses count as evidence (`rules.reading`): hearsay, a conjecture, a plan or watching do not
(docs/rules.md#four-inputs-or-no-post-mortem).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from fractions import Fraction
from functools import lru_cache

from rules import english, japanese_verbs, reading
from rules import evidence_checks as checks
from rules import evidence_pass as passing
from rules import evidence_run as run
from rules import evidence_words as words
from rules.evidence_words import EN_FLAGS, any_of
from rules.phrases import SCOPE_STATED
from rules.refs import find_fix_refs
from rules.restatement import restated
from rules.textmask import has_words, rates

Pair = tuple[re.Pattern[str], re.Pattern[str]]
Finding = tuple[str, str]

#: A high-frequency flake fails at least about one run in ten (DESIGN §2, `repro_rate`).
HIGH_FREQUENCY = Fraction(1, 10)

#: What an experiment showed: a result, a count, something observed or caught.
OUTCOME = (
    any_of(
        r"\b(?:showed|shows|fired|fires|confirmed|revealed|printed|caught|detected|flagged"
        r"|pinned|landed on|reproduc\w+|fails|failed|disappear\w*|stopped|came back|brings? .{0,40}back"
        r"|brought .{0,40}back|same (?:address|value|pointer|result)|every (?:assert|failure|crash|hang)|went from"
        r"|never|always|every (?:time|run|timeout|attempt)|appear(?:s|ed)?"
        r"|took .{0,60} from)\b",
        flags=EN_FLAGS,
    ),
    any_of("確認", "検出", "再現", "消え", "一致", "判明", "なくな", "なし", "無し", "戻る", "戻った", "観測"),
)
#: A figure set against the one before the fix: "16.9 ms (200 ms before the fix)", 修正前は.
BEFORE_AFTER = (
    any_of(
        r"\b(?:before the fix|before|previously|was \d|were \d|down from|up from|versus|vs\.?|from \d)", flags=EN_FLAGS
    ),
    any_of("修正前", "以前は", "従来", "から", "障害(?:時|前|中)", "不具合(?:時|中)"),
)
#: "with compactions in progress": a state during the check, not a check still in progress.
_IN_PROGRESS_STATE = re.compile(r"\b(?:while|when|during|with)\b[^.;]{0,60}\bin progress\b", re.I | re.A)
#: A cause that only gestures at its element: "something in the cache", どこかで.
_VAGUE_SUBJECT = (
    any_of(r"\b(?:something|somewhere|somehow|some kind of|some sort of|some \w+ issue)\b", flags=EN_FLAGS),
    any_of("何か(?!ら)", "何らか", "どこか", "何かしら"),
)
#: A cause named only by its kind: "because of a layout problem", タイミングの問題で.
_VAGUE_CAUSE = (
    any_of(
        r"\b(?:because of|due to|caused by|comes from|down to) (?:a |an |some )?(?:[a-z-]+ )?"
        r"(?:problem|issue|bug|glitch|quirk|race|regression)s?\b(?! (?:in|where|when|that|with|between) )",
        flags=EN_FLAGS,
    ),
    any_of("(?:の)?(?:問題|不具合|バグ)(?:の|による|が原因|のため|によって)(?!Q)"),
)
#: "since we upgraded", "v4.2.1 に上げてから…ようになった": a correlation in time, not a mechanism.
_CORRELATION = (
    any_of(
        r"\b(?:since|after|ever since) (?:we |i |they |the team )?(?:upgrad|updat|bump|deploy|install|switch|roll"
        r"|mov|migrat|chang|went|port|releas)\w*",
        r"\b(?:started|began|appeared|showed up) (?:\w+ )?(?:after|since|once|with|when)\b",
        # The conclusion of a correlation names the change, not what in it goes wrong: "so it's the upgrade".
        r"\b(?:it's|it is|it was|must be|blame) (?:the |our |this )?(?:\w+ ){0,2}(?:upgrade|update|deploy\w*|release"
        r"|migration|bump|version|switch)\b",
        flags=EN_FLAGS,
    ),
    any_of(
        "ようになった",
        "(?:上げ|更新し|アップデートし|アップグレードし|導入し|デプロイし|切り替え|入れ替え)て(?:から|以来|以降)",
    ),
)
#: The author's own doing: "we recomputed", "I reverted".
_FIRST_PERSON = re.compile(r"\b(?:we|i)\b", re.IGNORECASE)
#: The fix already in: merged, landed, committed (not "will be merged", which `reading.read` refuses).
_MERGED = re.compile(
    r"\b(?:already |been )?(?:merged|landed|committed)\b|マージ(?:済み?|され(?:た|ました|ています))|取り込み済み",
    re.IGNORECASE,
)
#: A check negated in a root cause: the mechanism is not yet tied to the failure.
_UNCHECKED = re.compile(r"check|verif|confirm|test|measur|tried|確認|検証|実験|試", re.IGNORECASE)
#: Two causes offered where one is needed (ja): "A か B のどちらか", "いずれか".
_ALTERNATIVES_JA = any_of("(?:の)?(?:どちらか|いずれか|どっちか)(?!一方を|を選)")
#: What the validation's check is about: the repro, a test, a workload (a not-done clause naming it is no scope).
CORE_EVIDENCE = (
    any_of(r"\b(?:repro\w*|tests?|workloads?|steps)\b", flags=EN_FLAGS),
    any_of("再現", "(?<!再)テスト(?!環境)", "ワークロード", "手順"),
)
#: "on mine", "locally": the author's own environment is where the check belongs, not a stated scope.
_OWN_PLACE = re.compile(r"\b(?:on|in) (?:mine|my \w+|our \w+)\b|\blocally\b|\bhere\b|こちら|手元", re.I)
_SCOPE_ON = re.compile(
    # A configuration named in Latin letters as the topic: 「Android は未検証」「iOS 16 では未確認」.
    r"(?<![A-Za-z])[A-Za-z][\w.+-]*(?:\s*\d[\w.]*)?\s*(?:は|では|でも|について)(?=\s*(?:まだ)?未)|"
    r"\b(?:on|with|in|under|against|for)\s+\S+|\bother\b|(?:環境|機種|端末|構成|OS|版|規模|サイズ|台数|件数|データ量|モデル)(?:\([^()]{0,30}\))?(?:は|で|では|でも|での)|での(?:確認|検証|テスト|試験)(?:は|も)|他の|ほかの|その他|別の"
)


#: A labelled list of what was not covered: "Not verified: ARM64 nodes", 「未検証：ARM64 ノード」.
_SCOPE_LABEL = re.compile(
    r"\s*(?:not (?:yet )?(?:verified|tested|covered|checked)|untested|unverified|out of scope|未検証|未確認|未テスト"
    r"|対象外|検証(?:範囲)?外)\s*[:：]",
    re.IGNORECASE,
)


@lru_cache(maxsize=1024)
def search(pair: Pair, text: str) -> str | None:
    """The first phrase of either language's pattern, as written."""
    best: re.Match[str] | None = None
    for pattern in pair:
        if pattern.flags & re.ASCII and not has_words(text):
            continue  # an English pattern on text without a word (textmask.has_words)
        m = pattern.search(text)
        if m is not None and (best is None or m.start() < best.start()):
            best = m
    return None if best is None else best.group(0).strip(" 、,")


@lru_cache(maxsize=512)
def concrete_pass(clause: str) -> bool:
    """A clause that shows something passing: a test, the repro, a workload, or a number or code beside it."""
    digit = re.search(r"\d", clause) is not None
    measured = digit and search(BEFORE_AFTER, clause) is not None  # a figure set against the one before the fix
    if (
        not measured
        and search(passing.PASSED, clause) is None
        and japanese_verbs.failure_negated(clause) is None
        and japanese_verbs.completed_outcome(clause) is None
    ):
        return False
    if (search(run.PENDING, clause) and not _IN_PROGRESS_STATE.search(clause)) or search(run.HOPE, clause):
        return False
    if search(checks.PASSED_BEFORE, clause):
        return False
    if measured or search(passing.EVIDENCE_NOUN, clause):
        return True
    return search(passing.STAND_IN, clause) is None and (digit or re.search(r"\bQ\b", clause) is not None)


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


def repro(masked: str, on_demand: Callable[[str], bool]) -> Finding | None:
    """A repro the author ran: a plan or "I haven't got it to fail" refuses; hearsay or a conjecture does
    unless a plain clause shows it failing on demand or at a high rate."""
    clean, found = plain(masked)
    clean = [c for c in clean if search(words.HYPOTHESIS, c) is None]
    shown = any(on_demand(c) for c in clean) or any(rate >= HIGH_FREQUENCY for c in clean for rate, _ in rates(c))
    for clause in reading.all_clauses(masked):
        why = reading.not_done(clause)
        if why is not None and (why[0] == "planned" or not (shown and _scope_only(clause))):
            return why
        if why is None and (hedge := search(words.HYPOTHESIS, clause)) and not search(words.REJECTED, clause):
            found.append(("conjecture", hedge))
    modal = [f for f in found if f[0] in ("hearsay", "appearance", "conjecture")]
    if modal and not shown:
        return modal[0]
    if not shown and (m := _first(english.INFERENCE, masked)):
        return ("hypothesis", m)
    return None


def _first(pattern: re.Pattern[str], text: str) -> str | None:
    m = pattern.search(text)
    return None if m is None else m.group(0)


def _scope_only(clause: str) -> bool:
    """ "not tested on ARM", "Windows 環境は未検証": another configuration, not the author's own check."""
    if SCOPE_STATED.search(clause) or _SCOPE_LABEL.match(clause):
        return True
    return bool(_SCOPE_ON.search(clause)) and not _OWN_PLACE.search(clause) and not search(CORE_EVIDENCE, clause)


def not_every_run(masked: str) -> Finding | None:
    """A stated rate below every run, with no every-run marker: "fails 14 of 50" is not `every_run`."""
    stated = rates(masked)
    if stated and all(rate < 1 for rate, _ in stated) and search(run.ON_DEMAND, masked) is None:
        return ("not_every_run", stated[0][1])
    return None


def mechanism(masked: str) -> Finding | None:
    """A root cause names an element and what it does wrong: one clause, not only a symptom or its kind."""
    if (alt := search((english.ALTERNATIVES, _ALTERNATIVES_JA), masked)) is not None:
        return ("alternatives", alt)
    if (vague := search(_VAGUE_CAUSE, masked)) is not None:
        return ("no_mechanism", vague)
    for _clause, why in reading.readings(masked):
        if why is not None and why[0] in ("hearsay", "appearance", "conjecture"):
            return why
        if why is not None and why[0] == "not_done" and _UNCHECKED.search(why[1]):
            return why  # "haven't checked this path is the one that runs": the mechanism is not tied to the failure
    for sentence, parts in reading.by_sentence(masked):
        if restated(sentence):
            continue  # "it hangs because it stops responding": the symptom twice
        for clause in parts:
            if search(_VAGUE_SUBJECT, clause) or search(_CORRELATION, clause):
                continue
            if english.action_verbs(clause) or japanese_verbs.action_verbs(clause):
                return None
    return ("no_mechanism", _clip(masked))


def experiment(masked: str) -> Finding | None:
    """A confirming experiment the author ran, stated plainly, and what it showed."""
    if (running := search(_RUNNING, masked)) is not None:
        return ("not_done", running)
    clean, found = plain(masked)
    own = any(_outcome(c) and _FIRST_PERSON.search(c) for c in clean)
    for kind, phrase in found:
        if kind == "hearsay" and own:
            continue  # "QA said it looked double, so we recomputed …": the report set off the author's own check
        if kind != "watching" or not any(_outcome(c) for c in clean):
            return (kind, phrase)
    for clause in reading.all_clauses(masked):
        if (why := reading.inference(clause)) is not None and not any(_outcome(c) and c != clause for c in clean):
            return why
    if any(_outcome(c) for c in clean):
        return None
    return ("no_experiment", _clip(masked))


def _names_check(clause: str) -> bool:
    return search(passing.EVIDENCE_NOUN, clause) is not None


#: A number that counts something: not the digits of a name or a unit ("int32", "UTC+9", "3km").
_COUNT = re.compile(r"(?<![A-Za-z_+\-.\d])\d[\d,.]*(?![A-Za-z_\d])")
#: A check still going: "the replay is running now", 「リプレイを実行中」. A condition ("while the job is running")
#: is a step of a repro, not a check.
_RUNNING = (
    any_of(
        r"(?<!while )(?<!when )(?<!whenever )(?<!as )\b(?:is|are) (?:still |currently |now )?"
        r"(?:running|under ?way|in flight|being (?:run|replayed|tested))\b"
        r"(?! (?:fine|normally|smoothly|ok|okay|well|again|correctly|stabl[ey])\b)",
        flags=EN_FLAGS,
    ),
    any_of("(?:実行|検証|テスト|試験|リプレイ|再生|計測|測定)(?:を)?(?:実施)?中(?:です|だ|。|で(?!は)|、|$)"),
)


def _outcome(clause: str) -> bool:
    return _COUNT.search(clause) is not None or search(OUTCOME, clause) is not None or concrete_pass(clause)


def validation(masked: str) -> Finding | None:
    """A completed check with its observed outcome; a not-done clause about the check itself refuses."""
    parts = [(c, why) for c, why in reading.readings(masked) if why is None or why[0] != reading.TESTED]
    passed = any(concrete_pass(c) and (why is None or why[0] == "watching" and _names_check(c)) for c, why in parts)
    for clause, why in parts:
        if why is None:
            continue
        if why[0] == "not_done" and (not passed or not _scope_only(clause)):
            return why
        if not passed:
            return why
    return None if passed else ("no_pass", _clip(masked))


def _clip(text: str, limit: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def only_soak(masked: str) -> Finding | None:
    """A soak or stress run is the only check that passed: it does not show the original repro or test passing."""
    soak = search(checks.SOAK, masked)
    if soak is None:
        return None
    for clause in reading.all_clauses(masked):
        for pattern in checks.SOAK:
            clause = pattern.sub(" ", clause)
        if concrete_pass(clause):
            return None
    return ("only_soak", soak)


def ref_pending(text: str) -> Finding | None:
    """A reference resolves when one clause names it plainly; "to be opened", "local only", 予定 do not."""
    why: Finding | None = None
    for _sentence, parts in reading.by_sentence(text):
        for i, clause in enumerate(parts):
            if _MERGED.search(clause) and reading.read(clause) is None:
                return None  # "…予定だが、修正は既にマージ済み": whatever is still to come, the fix is in
            if not find_fix_refs(clause):
                why = why or reading.not_done(clause)
                continue
            found = reading.not_done(clause) or reading.modality(clause)
            if found is None and _bare(clause):
                # "#4480, will open it": a reference with no verb of its own is what the next clause says of it
                found = next((f for c in parts[i + 1 :] if (f := reading.not_done(c)) is not None), None)
            if found is None:
                return None
            why = why or found
    return ("ref_pending", why[1]) if why else None


def _bare(clause: str) -> bool:
    """A clause that only names a reference: "#4480", "branch `fix/x`", 「MR !842」."""
    return len(re.findall(r"[A-Za-z]{2,}|[\u3040-\u30ff\u4e00-\u9fff]+", clause)) <= 2
