"""A confirming experiment: something the author did to the system (a patch, a revert, a forced value, added
logging, a test, a bisect) and what it showed (docs/rules.md#experiment). A review, reading the
code, a matching trace or a coincidence in time shows nothing by itself; nor does a plan or someone's word.
"""

from __future__ import annotations

import re
from collections import Counter

from rules import reading
from rules.evidence_after_result import (
    ASIDE,
    PLAIN_RESULT,
    QUIET,
    done_later,
    more_to_come,
    other_plan,
    result_elsewhere,
)
from rules.evidence_checks import RUNNING
from rules.evidence_clauses import concrete_pass, plain
from rules.evidence_contrast import with_without
from rules.evidence_count_words import FAILURE_WORD, RUN_NOUN, RUNS_MADE
from rules.evidence_intervention import INTERVENTION, on_paper
from rules.evidence_looking import ARTIFACT, OBSERVER, TIMES_AGREE, watched_in_production
from rules.evidence_repro import expected_label, expected_outcome
from rules.evidence_scope import elsewhere, other_thing_named, set_aside
from rules.evidence_summaries import summaries
from rules.evidence_words import EN_FLAGS, any_of, search
from rules.textmask import sentences

Finding = tuple[str, str]

#: What an experiment showed: a result, a count, something observed or caught.
OUTCOME = (
    any_of(
        r"\b(?:showed|shows|fired|fires|confirmed|revealed|printed|caught|detected|flagged"
        r"|pinned|landed on|reproduc\w+|fails|failed|disappear\w*|stopped|came back|brings? .{0,40}back"
        r"|brought .{0,40}back|same (?:address|value|pointer|result)|every (?:assert|failure|crash|hang)|went from"
        r"|never|always|every (?:time|run|timeout|attempt)|appear(?:s|ed)?"
        r"|took .{0,60} from|reported|reports|trapped|halted|tripped|triggered|is absent|was absent|are absent"
        r"|is missing|was missing|flagged|came from|comes from|(?:was|were|is|are) called from|pointed (?:at|to)"
        r"|points (?:at|to)|traced (?:it |this )?(?:back )?to|turned out)\b",
        flags=EN_FLAGS,
    ),
    any_of("確認", "検出", "再現", "消え", "一致", "判明", "なくな", "なし", "無し", "戻る", "戻った", "観測"),
)
#: The author's own doing: "we recomputed", "I reverted".
_FIRST_PERSON = re.compile(r"\b(?:we|i)\b", re.IGNORECASE)
#: The writer's own doing with the subject dropped: "Deployed the patch … and watched Grafana".
_SUBJECT_DROPPED = re.compile(r"^\W*[A-Z][a-z]+ed\b")
#: Someone else named as the doer in Japanese, where the writer drops their own subject: 「佐藤さんが」「QA チームで」.
_SOMEONE_JA = re.compile("(?:さん|様|チーム|担当|側)(?:が|は|で|から)")
#: Watching in Japanese, as such (not reading the code, which the same reader finds).
_WATCH_JA = re.compile(
    "ダッシュボード|監視|(?<!フレーム)グラフ|様子|モニタ|経過観察|(?i:grafana|datadog|kibana|sentry)"
)


def experiment(masked: str, raw: str = "") -> Finding | None:
    """A confirming experiment the author ran, stated plainly, and what it showed (`raw`, the text before masking,
    shows the commands and settings that masking hides)."""
    if (running := search(RUNNING, masked)) is not None:
        return ("not_done", running)
    clauses, found = plain(masked)
    clean = []
    for clause in clauses:
        if (expected := expected_outcome(clause) or expected_label(clause, masked)) is not None:
            # "reverting it should bring the failure back", "Expected result: 0 swaps with the change": not run
            found.append(("appearance", expected))
        else:
            clean.append(clause)
    # Each clause is weighed once (a long paste of clauses costs work in proportion to its length).
    outcomes = Counter(c for c in clean if _outcome(c) and not QUIET.search(c))  # "no reports since": no result
    own = any(_FIRST_PERSON.search(c) for c in outcomes)
    contrast = with_without(masked) or _two_outcomes(raw)
    if contrast is None and (watched := watched_in_production(masked)) is not None:
        return ("watching", watched)  # "deployed the patch; the Grafana panel went flat for a week": looking
    # "patched it and watched the capture: 0 clicks in 200 wraps, against 200 unpatched": what was watched is the
    # counted outcome of a contrast, so the watching clause holds the result.
    counted = _COUNT.search(RUNS_MADE.sub(" ", masked)) is not None or ("```" in raw and bool(_COUNT.search(raw)))
    measured = contrast is not None and counted
    result: bool | None = None  # a result stated besides watching, read when first needed
    said = sentences(masked) if found else []  # read once, for the findings that look at their sentence
    for kind, phrase in found:
        if kind == "hearsay" and (
            own or (contrast is not None and outcomes) or (outcomes and any(_acted_on(s, phrase) for s in said))
        ):
            # "QA said it looked double, so we recomputed …", 「佐藤さんはこれだと言っていましたが、念のため回して
            # います」 beside a run with and without the change: the report set off the author's own check.
            continue
        if (
            kind == "planned"
            and (outcomes or contrast is not None)
            and any(more_to_come(s) or elsewhere(s) or other_plan(s) for s in said if phrase in s)
        ):
            continue  # "… it passed 20 of 20. Next I'll add the 2015 case too": more to come after the result
        if kind in ("not_done", "planned") and (outcomes or contrast is not None) and done_later(said, phrase):
            continue  # "I had meant to do this last week, but it happened on Monday": the intention, then the run
        if (
            kind == "not_done"
            and outcomes
            and any(phrase in s and (set_aside(s) or other_thing_named(s) or more_to_come(s)) for s in said)
        ):
            continue  # "… removed 0 times. Haven't tried the ARM build yet, but that is a separate build"
        if kind == "watching":
            own_watch = any(  # "we watched Grafana", 「ダッシュボード見てた」
                phrase in s
                and (
                    _FIRST_PERSON.search(s)
                    or _SUBJECT_DROPPED.match(s)
                    or (_KANA.search(s) and _WATCH_JA.search(s) and not _SOMEONE_JA.search(s))
                )
                for s in said
            )
            if result is None:
                result = measured or any(
                    # "… for two nights and zone 12 closed on time both nights": watched, neither counted nor compared
                    (search(OUTCOME, c) or concrete_pass(c))
                    and not QUIET.search(c)
                    and not ASIDE.match(c)
                    and (contrast is not None or _COUNTED.search(c) or not own_watch)
                    for c in clean
                )
            if result:
                continue
        return (kind, phrase)  # "applied it to 12 units on Monday; watched Grafana": a count is no result
    for clause in reading.all_clauses(masked):
        if (why := reading.inference(clause)) is not None and contrast is None:
            # No outcome stated but in the inference itself ("Field season starts in two weeks" is none), and no run
            # with and without to show one.
            # "The arithmetic gives an 18 ms delay": a figure worked out is no outcome either.
            if not any(
                c != clause
                and reading.inference(c) is None
                and (_FIGURE.search(_CODE_SIZE.sub(" ", c)) or concrete_pass(c))
                for c in outcomes
            ):
                return why
    if on_paper(masked):
        return ("no_experiment", _clip(masked))  # "Worked the 19 July regulations through by hand": a calculation
    if search(TIMES_AGREE, masked) is not None and contrast is None:
        return ("no_experiment", _clip(masked))  # 「…の時刻と、…の時刻が、23 件すべてで一致」: a coincidence in time
    if (kept := result_elsewhere(masked)) and not any(
        search(OUTCOME, c) or PLAIN_RESULT.search(c) or FAILURE_WORD.search(c) for c in clean if kept not in c
    ):
        return ("no_experiment", kept)  # 「…比較した。比較の記録は `ab.xlsx` にまとめてある」: no result said
    if _TWO_RUNS.search(raw):
        return None  # a pasted session: the same command run twice, with and without the change, and each output
    # "Ran `py-spy record` during the slowdown": running a profiler is looking, not changing anything.
    looked = _RAN.sub(" ", masked) if OBSERVER.search(raw) else masked
    if ARTIFACT.search(masked) and not _CHANGED.search(looked) and contrast is None:
        return (
            "no_experiment",
            _clip(masked),
        )  # "the core dump shows …", 「フレームグラフで…一致」: looking, not doing
    # "Ran the exporter under `heaptrack`": a profiler watches the run, it changes nothing.
    acted = search(INTERVENTION, _RAN_UNDER.sub(" ", masked) if OBSERVER.search(raw) else masked)
    if (measured or outcomes) and (acted or _COMMAND.search(raw) or contrast):
        return None
    return ("no_experiment", _clip(masked))


_KANA = re.compile("[\u3040-\u30ff]")


def _two_outcomes(raw: str) -> str | None:
    """Two runner summaries pasted that disagree ("25 runs, 0 failed" with the flag off, "25 runs, 25 failed" with
    the default): the same run both ways, an experiment."""
    found = summaries(raw) if raw else ()
    return found[0][0][1] if len({rate for (rate, _), _before in found}) >= 2 else None


#: Runs or things counted: "in 40 fills", "3 of 10", 「20 回」 (not the 12 of "zone 12").
_COUNTED = re.compile(
    rf"(?<![A-Za-z0-9_.])\d[\d,]*\s*(?:{RUN_NOUN}\b|[a-z]+s\b|(?:of|out of|/|in)\s*\d|回|件|台|個|本|枚|つ)",
    re.IGNORECASE,
)


def _acted_on(sentence: str, phrase: str) -> bool:
    """「メーカーからは『…らしい』と言われましたが、センサーを交換しても 15 回中 15 回欠けました」: the word heard,
    then in the same sentence the writer's own change to the system."""
    at = sentence.find(phrase)
    if at < 0 or (turn := _BUT_I.match(sentence, at + len(phrase))) is None:
        return False  # "QA told me they confirmed it by forcing …": what they did is still their word
    return search(INTERVENTION, sentence[turn.end() :]) is not None


#: The writer turning from what was heard to what they did: 「…と言われましたが、」, ", but I …".
_BUT_I = re.compile(r"[^、,。]{0,8}?(?:が|けど|けれど(?:も)?)[、,]|,? but (?:i|we)\b", re.IGNORECASE)


#: A figure, not a label's number: 「ライン 3 の担当者」 and "bay 4" name a place.
_FIGURE = re.compile(
    r"(?<!ライン)(?<!ライン )(?<!レーン)(?<!レーン )(?<!号機 )(?i:(?<!line )(?<!lane )(?<!bay )(?<!step )(?<!no\. ))"
    r"\d(?![\d,.]*\s*(?:番|号|階))"
)
#: A number that counts something: not the digits of a name or a unit ("int32", "UTC+9", "3km").
#: The size of the code read, which no run measured: "the path is short, about 40 lines".
_CODE_SIZE = re.compile(r"\d[\d,]*\s*(?:lines?|LOC|functions?|files?|branches?|行)\b", re.IGNORECASE)
_COUNT = re.compile(r"(?<![A-Za-z_+\-.\d])\d[\d,.]*(?![A-Za-z_\d]|'s\b)")  # not a name's number ("kiln 2's")
#: A command or a setting in code: `NCCL_P2P_LEVEL=PXB`, `nvidia-smi -q`, `$ make repro`, `rr record`.
_COMMAND = re.compile(
    # A fenced block counts when it shows a command typed (a shell prompt), not only output pasted (a backtrace).
    # A setting counts (`GOMAXPROCS=1`, `PRAGMA journal_mode=WAL`), but a lone lowercase `state=CLOSED` is a value
    # seen in a log.
    r"`(?!(?:perf|heaptrack|py-spy|pprof|jmap|jstack|async-profiler|top|htop|iostat|vmstat)\b)"
    r"(?![a-z][a-z0-9_.]*=[^`\s]*`)[^`\n]*(?:\w=|\s--?[A-Za-z]"
    r"|^\$ )[^`\n]*`|```[^\n]*\n(?:[^\n]*\n){0,3}?\s*(?:\$|#|>|PS>|%)\s+(?!thread\b|bt\b)\S"
    # A tool that changes or stops the run (a profiler or a tracer only watches it).
    r"|`(?:git (?:bisect|revert|cherry-pick)|rr (?:record|replay)|gdb|lldb|valgrind|faketime|stress-ng|taskset"
    r"|numactl)\b[^`\n]*`",
    re.MULTILINE,
)


#: Something changed in the system (beside looking at it): a patch, a revert, a value forced, code added.
_CHANGED = re.compile(
    r"\b(?:patch\w*|revert\w*|re-?appl\w*|(?:set|setting)(?! (?:a |an |the )?(?:break|watch)points?\b)"
    r"|forc\w+|switch\w*|add(?:ed|ing)|chang(?:e|ed|es|ing)|disabl\w+|enabl\w+|inject\w*"
    r"|remov\w+|replac\w+|swapp?\w*|pinn\w*|pinned|bisect\w*|rebuil\w+|wrote|writ\w+|modif\w+|flipp?\w*|toggl\w+"
    r"|limit\w*|throttl\w+|delay\w*|(?<!was )(?<!were )(?<!got )kill\w*|(?<!after )(?<!after a )restart\w*"
    r"|downgrad\w+|upgrad\w+"
    r"|rolled back|commented out|hard-?cod\w+|(?:un)?capp(?:ed|ing)"
    r"|put (?:\w+ ){0,3}?back|instrument\w*|without(?! (?:ever|once|any|a single|errors?|failures?)\b)"
    r"|with the (?:fix|patch|change)|logging|loggers?|logged(?! (?:no|zero|nothing|none|only|\d))"
    r"|ran|(?<!'s )run|re-?ran"
    r"|scripted"
    r"|replay\w*|loop(?:ed|ing)|in a loop"
    r"|trigger\w*|induc\w+)\b"
    r"|当て|戻[しす]|変更|追加|足[しす]|外し|無効|有効|強制|注入|差し替え|書き換え|入れ|適用|修正(?!前)|仕込|出力(?:し|させ|する)|出し|実行(?!中)|(?<!が再)(?<!が)起動|投入|流し|回し|計測"
    r"|変換|置き換え|切り替え|設定|固定|増や|減ら|延ば|縮め|短くし|長くし|に変え|にした(?:版|ビルド)|パッチ|テストを(?:書|作)",
    re.IGNORECASE,
)
_RAN = re.compile(r"\b(?:ran|run|re-?ran|running|captured|recorded|took)\b", re.IGNORECASE)
_RAN_UNDER = re.compile(r"\b(?:ran|run|re-?ran|running)\b[^.;:]{0,60}?\b(?:under|with)\s+Q\b", re.IGNORECASE)
#: Two shell commands pasted with output after each: "$ run --patch …⏎20 OK⏎$ run …⏎20 WDT reset".
_TWO_RUNS = re.compile(r"^[ \t]*\$ [^\n]+\n(?:[ \t]*(?!\$ )[^\n]*\n){1,20}?[ \t]*\$ [^\n]+\n[ \t]*(?!\$ |```)\S", re.M)


def _outcome(clause: str) -> bool:
    """What the clause says came of it: a figure (not the number of runs made), an outcome word, a pass."""
    said = RUNS_MADE.sub(" ", clause)
    return _COUNT.search(said) is not None or search(OUTCOME, clause) is not None or concrete_pass(said)


def _clip(text: str, limit: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
