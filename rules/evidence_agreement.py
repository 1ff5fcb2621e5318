"""The text against its structured answer (docs/rules.md#text-and-answers-agree): a rate below every run beside
`every_run`, a soak as the only passing check beside a ticked original repro, test or workload, a performance not
measured, a ticked check still to come (the tests a validation names: rules/evidence_tests.py). Read on masked text;
every pattern is linear.
"""

from __future__ import annotations

import re
from collections.abc import Collection

from rules import evidence_checks as checks
from rules import reading
from rules.evidence_clauses import concrete_pass
from rules.evidence_markers import marker_stands
from rules.evidence_rates import stated
from rules.evidence_scope import CORE_EVIDENCE, scope_only
from rules.evidence_summaries import pasted_pass
from rules.evidence_words import any_of, search
from rules.textmask import MASKED_CODE, mask

Finding = tuple[str, str]


#: An every-run marker hedged: "almost always", "nearly every time", 「ほぼ毎回」 is a high rate, not every run.
_HEDGED_ALWAYS = any_of(
    r"\b(?:almost|nearly|virtually|practically|mostly|usually|generally|typically|often|pretty much|more or less"
    r"|just about)\s+(?:always|every (?:single )?[a-z]+|each time|consistently|reliably|deterministic\w*)\b",
    # "nearly all of them", "almost all passes": a share short of every run, with no count.
    r"\b(?:almost|nearly|virtually|practically) all(?: of (?:them|the (?:time|runs|passes|attempts)))?\b",
    "(?:ほぼ|ほとんど|大体|だいたい|たいてい|大抵|概ね|おおむね)(?:の場合)?(?:は)?(?:毎回|必ず|いつも|常に)",
    # Negated: "not every time", 「毎回ではありません」「必ずしも」.
    r"\b(?:not|isn't|doesn't happen|doesn't fail) (?:every (?:single )?(?:time|run)|always|each time"
    r"|(?:on |in |with )?every (?:single )?[a-z]+)\b",
    # 「毎回では、少なくとも私が試した範囲では、ありません」: the negation far from it, after an aside.
    "(?:毎回|いつも|常に|必ず)(?:で|じゃ)(?:は|も)?(?:[、,][^。]{0,40}?[、,]\\s*)?(?:ない|ありません|なく)|必ずしも",
    "(?:必ず|毎回|いつも|すべて|全て|全部)[^。]{0,14}わけ(?:では|じゃ)(?:ない|ありません|なく)",
    # 「まったく出ない日もある」: some days (runs, times) it does not happen at all.
    "[^\\s、。！？]{1,6}(?:ない|なかった)(?:日|こと|とき|時|回|夜|週)も(?:ある|あります|あった|ありました)",
    flags=re.IGNORECASE,
)


def not_every_run(masked: str) -> Finding | None:
    """A stated rate below every run, with no every-run marker: "fails 14 of 50" is not `every_run`; nor is an
    every-run marker hedged ("almost always", 「ほぼ毎回」)."""
    if (hedged := _HEDGED_ALWAYS.search(masked)) is not None:
        return ("not_every_run", hedged.group(0))
    found = stated(masked)
    if found and all(rate < 1 for rate, _ in found) and not marker_stands(masked):
        return ("not_every_run", min(found)[1])
    return None


#: A soak named as such (a duration alone is not one: "the nightly batch completed in 4 h").
_SOAK_NOUN = re.compile(
    r"\b(?:soak|burn-in|endurance)\b|ソーク|耐久|エージング|連続(?:稼働|運転|[^。、\s]{1,8}?試験)"
    r"|\d+\s*(?:時間|日間?)\s*連続|連続\s*\d+\s*(?:時間|日)",  # 「72 時間連続で回しました」
    re.IGNORECASE,
)
#: A soak said by its shape, a service kept up under load for a while: "has been up on staging under a synthetic load
#: of 5,000 saves an hour for 72 hours", 「負荷をかけたまま 3 日間稼働」.
_SOAK_SHAPE = re.compile(
    r"\b(?:under (?:a |an )?(?:[\w-]+ ){0,2}load|(?:has|have) been (?:up|running)"
    r"|(?:stayed|kept (?:it )?) (?:up|running)|running continuously|uptime)\b"
    r"|負荷(?:を)?かけ|(?:稼働|運転)(?:し)?(?:続け|させ続け)",
    re.IGNORECASE,
)
#: What names the original check inside a soak's clause: "the original load test", 「元の負荷試験」, "20 runs".
_NAMES_THE_CHECK = re.compile(
    r"\boriginal\b|元の|同じ(?:手順|条件)|[1-9]\d*\s*(?:runs|times)|[1-9]\d*\s*回(?:実行|流|試|繰り返|回し|やっ)"
    r"|最後まで|完走|\bto (?:the|its) end\b|\bto completion\b",
    re.IGNORECASE,
)


#: A clause that names the check and runs none: where it would run was not free ("the bench for the original repro
#: was busy", 「実機が埋まっていた」), or a judgement of the soak ("that's the strongest test we have").
_NO_RUN_OF_IT = re.compile(
    r"\b(?:was|were|is|are)\s+(?:all\s+)?(?:busy|booked|occupied|tied up|in use|taken|down|unavailable|offline"
    r"|not (?:free|available))\b|(?:使用中|埋まって|塞がって|空いて(?:い)?(?:ない|なかった|ません)|使えな|借りられな)"
    r"|\b(?:strongest|best|hardest|toughest|only|closest|most \w+) (?:test|check|repro)s? (?:we|i)"
    r" (?:have|had|could)\b",
    re.IGNORECASE,
)


#: A verdict with nothing of its own: "Clean run.", "All good."
_VERDICT = re.compile(
    r"\W*(?:a |an |the )?(?:clean|good|green|fine|perfect|solid|flawless)\s+(?:run|soak|result|pass)s?\W*$"
    r"|\W*all (?:good|green|clean|fine)\W*$",
    re.IGNORECASE,
)


def only_soak(text: str) -> Finding | None:
    """A soak or stress run is the only check that passed: it does not show the original repro or test passing.
    A runner's summary pasted beside it ("PASS 100 FAIL 0", read on the raw text) is a pass of its own."""
    masked = mask(text)
    soak = search(checks.SOAK, masked)
    # A summary on a soak's own line is the soak's result: "72-hour soak …: 0 unassigned calls, 0 crashes".
    if soak is None or pasted_pass("\n".join(line for line in text.split("\n") if not _SOAK_NOUN.search(line))):
        return None
    clauses = reading.all_clauses(masked)
    # "12h soak on 4 boards in the test lab, zero resets", and nothing else shown: what passed is the soak ("the
    # bench for the original repro was busy" names the check only to say it could not be run).
    alone = not any(
        search(CORE_EVIDENCE, c) and reading.read(c) is None and _NO_RUN_OF_IT.search(c) is None
        for c in clauses
        if _SOAK_NOUN.search(c) is None
    )
    # "Ran the auger for 36 hours …; … so the soak is what we have": the duration is the soak the text names.
    named = _SOAK_NOUN.search(masked) is not None
    # 「72 時間の連続稼働試験を行いました。4 台とも停止は一度もなく」: what follows the soak is its result.
    after_soak = False
    for clause in clauses:
        soaked = _SOAK_NOUN.search(clause) is not None or (
            (named or _SOAK_SHAPE.search(clause) is not None) and search(checks.SOAK, clause) is not None
        )
        after_soak = after_soak or (soaked and named)
        own_run = MASKED_CODE.search(clause) is not None or _PAIR.search(clause) is not None  # "`./repro.sh` 30/30"
        theirs = soaked or (after_soak and not own_run)
        if alone and (theirs and _NAMES_THE_CHECK.search(clause) is None or _VERDICT.match(clause)):
            continue  # "… zero stalls stayed shut. Clean run.": the verdict is the soak's
        if (heard := reading.read(clause)) is not None and heard[0] == "hearsay":
            continue  # 「検証チームから…再現しなくなったと連絡をもらいました」: someone's word passes nothing
        rest = clause
        for pattern in checks.SOAK:
            rest = pattern.sub(" ", rest)
        if concrete_pass(rest):
            return None
    return ("only_soak", soak)


_PAIR = re.compile(r"\d\s*(?:/|of|out of)\s*\d|回中")


#: A soak still needed or booked: 「1 週間の連続運転が必要で、これは来週の予約です」, "the 72 h soak is booked for May".
_STILL_NEEDED = re.compile(
    r"必要|予約(?=です|でした|して|済|中|を入れ|を取|が取れ|が入)|予定(?!していた|していました|どおり|通り)|待ち|これから"
    r"|\b(?:needed|required|booked|scheduled|planned|pending|queued|still to)\b",
    re.IGNORECASE,
)


def soak_to_come(text: str) -> Finding | None:
    """The soak or stress run ticked is said to be still needed, booked or planned, whatever else passed."""
    for clause in reading.all_clauses(mask(text)):
        soak = search(checks.SOAK, clause)
        if soak is not None and (reading.not_done(clause) is not None or _STILL_NEEDED.search(clause)):
            return ("soak_pending", soak)
    return None


#: Timing or speed said not measured: 「昇温時間は今回計測していません」, "we didn't time the warm-up".
_NOT_MEASURED = re.compile(
    r"\b(?:didn't|did not|haven't|have not|hasn't|has not|wasn't|was not|weren't|were not|not|never)\s+"
    r"(?:yet\s+|been\s+)?(?:measured|timed|benchmarked|profiled|clocked)\b"
    r"|(?:計測|測定|計時|ベンチマーク)(?:は|も)?(?:し|でき)?て(?:い|お)?(?:ない|ません|らず|いません)|測って(?:い)?(?:ない|ません)"
    r"|未(?:計測|測定)",
    re.IGNORECASE,
)


#: What a performance check measures: a time, a speed, a rate of work.
_PERF_WORD = re.compile(
    r"\b(?:time|timings?|latency|throughput|speed|duration|perf\w*|p\d\d|fps|rps|qps)\b"
    r"|時間|速度|性能|レイテンシ|スループット|処理能力|所要",
    re.IGNORECASE,
)


#: A performance figure: a time, a rate per time, a share, a factor ("410 ms", "12 MB/s", "3x", 「1.2 秒」「2 倍」).
_PERF_FIGURE = re.compile(
    r"\d\s*(?:%|％|°|℃|(?:ms|µs|μs|us|ns|s|secs?|seconds?|mins?|minutes?|h|hrs?|hours?|x|fps|rps|qps|kw|w|hz|khz|mhz"
    r"|db|[kmg]i?b)(?![A-Za-z]))|/\s*(?:s|sec|min|h|時|秒|分)(?![A-Za-z])|\d\.\d"
    r"|\bper (?:second|minute|hour)\b|\b(?:faster|slower|quicker)\b|\d\s*(?:ミリ秒|秒|分|時間|倍)",
    re.IGNORECASE,
)


def perf_unmeasured(text: str) -> Finding | None:
    """ "Performance restored" ticked beside a text that says the timing was not measured, or that gives no
    performance at all (no time, speed or figure of one: "100 of 100 applied" is a pass, not a performance)."""
    masked = mask(text)
    if not _PERF_WORD.search(masked) and not _PERF_FIGURE.search(text):
        return ("perf_unmeasured", " ".join(text.split())[:60])
    for sentence in reading.all_clauses(masked):
        if (found := _NOT_MEASURED.search(sentence)) is not None and (
            _PERF_WORD.search(sentence) or not scope_only(sentence)
        ):
            return ("perf_unmeasured", found.group(0))  # not "the ARM build was not measured": another build
    return None


#: Another configuration besides: "also on the spare", "a different gearbox", 「60 km/h でも」.
_ALSO = re.compile(r"\b(?:also|as well|too|another|different|other|second)\b|でも|別の|他の|ほかの", re.IGNORECASE)
#: A configuration named: "the 33 kV variant", 「新型ラック」.
_CONFIG = re.compile(
    r"\b(?:variants?|models?|versions?|hardware|boards?|platforms?|configs?|configurations?|rigs?|sites?|firmware)\b"
    r"|機種|構成|環境|モデル|ラック|(?:旧|新)型",
    re.IGNORECASE,
)
#: A workload named: "the production-like load", 「本番相当の負荷」.
_WORKLOAD = re.compile(
    r"\b(?:workloads?|load tests?|production(?:-like| load| traffic)|full (?:run|day|batch|shift|load))\b"
    r"|\b(?:week|day|night)-long\b|負荷|本番相当|ワークロード|全量|連続(?:収録|運転|稼働|測定|観測|運用)",
    re.IGNORECASE,
)


def ticked_to_come(text: str, kinds: Collection[str]) -> Finding | None:
    """A ticked kind whose check the text puts in the future: other configurations "will be done in the next
    window" beside `other_configs`, 「本番相当の負荷での確認は…空き次第実施します」 beside `workload_completes`."""
    configs, workload = "other_configs" in kinds, "workload_completes" in kinds
    if not (configs or workload):
        return None
    read = reading.readings(mask(text))
    # 「球速 60 km/h でも各 10 回…すべて再開」, "I also flashed the spare controller …": another one was checked.
    configs = configs and not any(why is None and _ALSO.search(clause) for clause, why in read)
    for clause, why in read:
        if why is None or why[0] != "planned":
            continue
        if configs and (scope_only(clause) or _CONFIG.search(clause)):
            return ("configs_to_come", why[1])
        if workload and _WORKLOAD.search(clause):
            return ("workload_to_come", why[1])
    return None
