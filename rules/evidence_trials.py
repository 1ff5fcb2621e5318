"""How much was run, read from the shape of what is said (docs/rules.md#how-the-gate-reads-the-inputs):

- a single trial is one sighting, not a result: "tried it once and it passed", 「一度だけ…通った」 (with no
  counted runs around it) shows nothing about a failure that comes and goes;
- a run cut short is not a completed workload: "got past the step … we stopped it there", 「途中で止めた」;
- a with/without contrast is an experiment (rules/evidence_contrast.py).
Read on masked text (`textmask.mask`); every pattern is linear.
"""

from __future__ import annotations

import re
from itertools import islice

from rules.evidence_after import said_before
from rules.evidence_after_result import ASIDE
from rules.evidence_count_words import BEFORE_ASIDE, ENOUGH
from rules.evidence_rates import stated
from rules.evidence_scope import set_aside, untouched_test
from rules.evidence_words import EN_FLAGS, any_of, search
from rules.regex_guard import compile_guarded

Finding = tuple[str, str]

#: One trial, said with a word that restricts it to one: "only once", "a single run", 「一度だけ」「1 回きり」.
_SINGLE = (
    any_of(
        r"\b(?:only|just)\s+(?:once|one time|a single (?:time|run|try|attempt|pass)|one (?:run|try|attempt|pass))\b",
        # "I did that once on the bench and it behaved; … I couldn't repeat it": one trial, not repeated.
        r"\b(?:i|we) did (?:that|this|it) (?:only |just )?once\b(?=[^.]{0,120}?\b(?:couldn't|could not|didn't|did not"
        r"|wasn't able to|haven't|have not) (?:get to )?(?:repeat|redo|re-?run)\b)",
        r"\b(?:on|in|for|after)\s+(?:only\s+|just\s+)?(?:a single|one single)\s+(?:run|try|attempt|pass|trial"
        r"|iteration|execution|boot|build|replay)\b",
        r"\b(?:tried|ran|run|re-?ran|retried|checked|tested|re-?submitted|submitted|replayed|re-?sent|re-?tested|redid)"
        r"\s+(?:it\s+|this\s+|that\s+|the [\w-]+\s+)?(?:only\s+|just\s+)?"
        r"(?:once|one time|a single time)\b(?!\s+(?:more|again|every|per|in every)\b)",
        r"(?:^|[.;:]\s+)once\s*,",
        # "I pulled the power once mid-write": a past action done once.
        r"\b(?:pulled|cut|killed|yanked|unplugged|power-cycled|rebooted|restarted|triggered|ran|tried|flashed|replayed)"
        r" (?:[\w-]+ ){0,4}?once\b(?! (?:more|again|every|per|in every|a|the|it|we|i|they)\b)",
        r"\b(?:tried|ran|re-?ran|tested|retried)\b(?![^.;]{1,80}?\btwice\b)[^.;]{1,80}?\bonce\s*(?:[;:,.]"
        r"|(?:with|on|after|against|using|and)\b)",
        r"\bthe one time (?:i|we) (?:tried|ran|checked)\b|\bin the (?:one|single|only) (?:run|try|attempt|test)\b"
        r"|\b(?:that|this) (?:one )?(?:time|run|attempt|try)\b(?=,?\s*(?:it\s+|the (?:[\w-]+\s+){1,3}?"
        r"|(?:every|each|all) (?:[\w-]+\s+){1,5}?)?(?:passed|came out|was"
        r" (?:fine|clean|green|ok|continuous|complete|intact|correct|right|normal|smooth|stable)"
        r"|worked|succeeded|went through|stayed|held|kept|closed|opened|stopped|finished|completed|reached|behaved"
        r"|didn't (?:fail|crash|hang|reproduce)|did not|nothing|none\b"
        r"|no\b))|\b(?:passed|green|clean|fine|ok|worked|succeeded)\s+(?:that|this) (?:one )?(?:time|run|attempt|try)\b"
        r"|\bno \w+ (?:that|this) (?:one )?(?:time|run|attempt|try)\b",
        r"(?:^|[.;:]\s*)(?:one|a single) (?:try|attempt|run|trial|pass|shot|go)\b"
        r"|\b(?:that|this|it) was (?:only |just )?(?:a single|one|the one|the only)"
        r" (?:try|attempt|run|trial|pass|shot|go|playback|take|cycle|boot)\b"
        r"|\bonly (?:did|ran|tried|printed|tested|made) the one\b",
        # Not repeated: "I did not repeat it", "haven't re-run it since".
        r"\b(?:did not|didn't) (?:appear|happen|occur|show up|come back|reproduce|recur) (?:that|this) (?:time|run)\b",
        r"\b(?:didn't|did not|haven't|have not|never|not yet) (?:repeat|repeated|re-?ran|re-?run|rerun|retried|retry"
        r"|tr(?:y|ied) (?:it )?again|run (?:it )?again)\b",
        flags=EN_FLAGS,
    ),
    any_of(
        # Not what the code does once: 「CRC テーブルを起動時に 1 回だけ作るようにした版」.
        "(?<![\\d.,])(?:一度|一回|1\\s*度|1\\s*回|一遍|ワンショット|(?:1|一)\\s*(?:晩|夜|日|本|ラン))(?:だけ|きり|のみ|しか)"
        "(?![^。、]{0,12}?よう(?:に|な))",
        "一発(?:で|だけ|のみ|目で|流|回|試|実行|通)",
        "(?:その|この)(?:回|時|とき|晩|夜|日)(?:は|だけ)",
        "(?:試|流|回|実行|走らせ)(?:した|しただけの|っただけの|った)\\s*(?:1|一)\\s*(?:回|度)(?:では|で|だけ|目)",
        "(?<![\\d.,])(?:一度|一回|1\\s*度|1\\s*回)(?:は)?(?:通|成功|動|消え|直|再現し|止ま)",
        "(?:再実行|再試行|繰り返し|再現確認)(?:は)?(?:して|でき)(?:い)?(?:ない|ません|おらず)|繰り返して(?:は|も)?(?:い)?(?:ない|ません)"
        "|(?:もう一度|再度)(?:は)?(?:試|やっ|流)(?:して|て)(?:は)?(?:い)?(?:ない|ません)",
        # 「一度押したところ」: any act done once, then what came of it.
        "(?<![\\d.,])(?:一度|一回|1\\s*度|1\\s*回)(?:だけ)?[^\\s。、\\d]{1,4}?(?:し|っ|い)たところ",
        "(?<![\\d.,])(?:一度|一回|1\\s*度|1\\s*回)(?:だけ)?(?:(?:試|流|実行|回|走らせ|やっ)(?:し|して|した)(?:ら|ところ|だけ|、|て)"
        "|[^\\s。、\\d]{1,4}?(?:て|で)み(?:たら|たところ|ました|た))",  # 「一回走ってみたら」: tried once, to see
    ),
)


#: Each of many runs: 「40 区間とも」「すべてで」「ごとに」, "in each of the 40 runs", "every time".
_PER_RUN = re.compile(
    r"(?:とも|すべてで|全てで|ずつ|ごとに|毎回|それぞれ)\s*$"
    r"|\b(?:in each|each time|every time|per run|in every \w+)\s*,?\s*$",
    re.IGNORECASE,
)
#: Another thing than the one checked: "the other tables", 「他テーブル」「別の環境」.
_OTHER = re.compile(r"\b(?:other|another)\b|(?<![\u4e00-\u9fff])他(?:の)?|ほかの|別の", re.IGNORECASE)
#: Many repetitions inside the one run: "10,000 iterations", 「1000 回ループ」.
_IN_A_ROW = re.compile(
    r"(?<![\d.,])[1-9][\d,]*\s*(?:回|本|件)\s*連続|連続\s*[1-9][\d,]*\s*回|\b[1-9][\d,]* (?:\w+ )?in a row\b", re.I
)
_MANY = re.compile(
    r"(?<![\d.,])(?:[1-9]\d|\d{1,3}(?:,\d{3})+|[1-9]\d{2,})\s*(?:k\s*)?(?:iterations?|loops?|cycles?|requests?|runs?"
    r"|times|回|サイクル|件)",
    re.IGNORECASE,
)
#: The one trial followed by counted ones: 「回数を増やして数え直した」, "so I ran it 50 more times".
_RECOUNTED = re.compile(
    r"回数を増やして|数え直し|改めて[^。]{0,12}?(?:数え|回数)|(?:もう|さらに)\s*[1-9][\d,]*\s*回(?:流|実行|試|回)"
    r"|\b(?:then|so) (?:i|we) (?:re-?ran|ran|repeated|tried) (?:it|that|this) (?:another |a further )?[1-9][\d,]* "
    r"(?:more )?times\b|\bcounted (?:it )?properly\b",
    re.IGNORECASE,
)
_ONLY_THE = re.compile(r",\s*only (?:the|on|with|for)\b|、?[^。]{0,20}のみ(?:です|でした|実施|確認)", re.IGNORECASE)


def single_trial(masked: str) -> Finding | None:
    """A result seen in one trial with no counted runs around it: not evidence for a failure that comes and goes."""
    found = search(_SINGLE, masked) or _one_pass_of_a_flake(masked)
    if found is None or _IN_A_ROW.search(masked) is not None:
        return None  # 「修正後 100 回連続で成功しました」, "50 times in a row": many trials, counted
    at = masked.find(found)
    if at >= 0 and _PER_RUN.search(masked, max(0, at - 12), at):
        return None  # 「40 区間とも 1 回だけだった」: once in each of many runs, a count of events, not of trials
    if at >= 0:
        start, end = max(0, masked.rfind("。", 0, at), masked.rfind(".", 0, at)), masked.find(".", at)
        end = end if end >= 0 else len(masked)
        if _OTHER.search(masked[start:at]):
            return None  # 「他テーブルのバックフィルは再実行していません」: another thing not repeated, a scope
        said = masked[start:end]
        if _RECOUNTED.search(masked, at, end):
            return None  # 「一度だけ試して通ったので、回数を増やして数え直した」: one trial, then counted runs
        # "We haven't re-run the freestyle tables, only the grand prix path": what was left out, beside what ran.
        if (
            set_aside(said)
            or untouched_test(said, said)
            or ASIDE.match(masked, start + 1)
            or _ONLY_THE.search(said, at - max(start, 0))
        ):
            # "We did not re-run the aarch64 build", "… the SMS gateway integration, which the change doesn't touch":
            # another configuration or another matter, a scope
            return None
    # Counted runs around it, or many trials inside the one run ("one run of 10,000 iterations"); a figure of the
    # failure before the fix ("repro was ~3/10", "used to hang in 3 of 10 runs") is neither.
    every = stated(masked)
    rates = [span for rate, span in every if rate in (0, 1)]  # "fails 1 run in 4" is the flake, not runs
    spans = list(islice(dict.fromkeys(span for _, span in every), ENOUGH))
    many = islice(dict.fromkeys(m.group(0) for m in _MANY.finditer(masked)), ENOUGH)
    if not said_before(masked, rates + [figure for figure in many if not any(figure in span for span in spans)]):
        return None
    return ("single_trial", found)


#: A pass said once, with no count: "it passed", "went green on the first run", 「通りました」.
_ONE_PASS = re.compile(
    r"\b(?:it |that |this )?(?:passed(?! (?:through|along|to|on|over|back|in)\b)|went green|was green|came back green"
    r"|succeeded|was clean|ran clean)\b"
    r"|\bon the first (?:run|try|attempt)\b|\bcame (?:back|out) (?:intact|fine|clean|right|correct)\b"
    # "I played the stack through and it reached the end with every fade intact".
    r"|\b(?:reached|got to|made it to) the end\b"
    r"|(?:通り|成功し|パスし)(?:ました|た)"
    # After the change, the one run's outcome said plainly: "…, and it opened", "no double drop".
    r"|\band it (?:opened|closed|worked|held|went through|stopped|printed|counted|read)\b"
    r"|\bno (?:[\w-]+ )?(?:mis[a-z]+|drops?|failures?|errors?|jams?|crash\w*|hangs?|faults?|trips?)\b"
    # One run, and none of the failure in it: 「紙継ぎを 1 回実施し、破断は起きませんでした」.
    r"|(?:(?<![\d.,])1\s*回|一度|一回)(?:だけ)?(?:実施|試|行|流|やっ|実行|回)[^。]{0,30}?(?:起き|発生し|出|再現し|失敗し)"
    r"(?:ませんでした|なかった)",
    re.IGNORECASE,
)


_PASSES_COUNTED = re.compile(
    r"(?<![\d.,])(?:\d{1,3}(?:,\d{3})+|[2-9]|\d{2,})\s+(?:passed|passes|green|clean|ok|succeeded)\b"
    r"|\b(\d+)\s*/\s*\1\b|\ball \d+\b(?! (?!runs|times|tries|attempts|iterations|cycles|replays|boots|passes)[a-z]+s\b)"
    r"|\d+\s*(?:回|件)(?:とも|すべて|全て)"
    # Runs counted, then none of the failure: 「1000 回実行し、途中停止は 0 回」, "200 runs, 0 stalls".
    r"|(?<![\d.,])\d{2,}\s*回(?:実行|流|試|繰り返|回|行|実施)[^。]{0,30}?(?:は|が)?\s*(?:0|ゼロ)\s*(?:回|件)"
    r"|(?<![\d.,])\d{2,} (?:runs|times|iterations|attempts|cycles|replays)\b[^.;]{0,40}?\b(?:0|zero|no)"
    r" (?:[a-z-]+ )?(?:failures?|errors?|stalls?|stops?|hangs?|crash\w*|drops?|faults?)\b",
    re.IGNORECASE,
)


def _one_pass_of_a_flake(masked: str) -> str | None:
    """The flake's own rate before the fix, then a pass said once ("re-ran `TestX`, which failed about 1 run in 4
    before; it passed"): one trial of a failure that comes and goes. Runs counted after the fix are `single_trial`'s
    to weigh, as for any other single trial."""
    every = stated(masked)
    flaky = [span for rate, span in every if 0 < rate < 1]
    if not flaky and (word := _FLAKE.search(masked)) is not None:
        flaky = [word.group(0)]  # "double-dropped on some runs and not on others": a flake said without a count
    if not flaky:
        return None
    change = _CHANGE.search(masked)
    # "The turnstile rejected one scan in eight. I patched `qr_verify()`, scanned one pass, and it opened": the flake
    # told before the change was made, the pass after it.
    told_first = change is not None and all(0 <= masked.find(span) < change.start() for span in flaky)
    if not (told_first or (every and said_before(masked, flaky))):
        return None
    if _PASSES_COUNTED.search(masked):
        return None  # "500 passed, 0 failed", "all 40", 「20 回とも」: the runs after the fix, counted
    after = change.end() if told_first and change is not None else 0  # the pass after the change, when it was told
    found = _ONE_PASS.search(masked, after) or (_ONE_PASS.search(masked) if after else None)
    return None if found is None else found.group(0)


#: A failure that comes and goes, said without a count: "on some runs and not on others", 「たまに」.
_FLAKE = compile_guarded(
    r"\b(?:on|in) some (?:runs|nights|days|cycles|tries|attempts|boots)\b|\bnow and (?:then|again)\b"
    r"|\bintermittent(?:ly)?\b"
    r"|\bsometimes\b|\bevery so often\b|たまに|ときどき|時々|時折|まれに",
    re.IGNORECASE,
)
#: The change made: "I patched", "after the fix", 「修正後」.
_CHANGE = compile_guarded(
    r"\b(?:(?:i|we) (?:patched|fixed|changed|applied|flashed|deployed|installed)|after the (?:fix|patch|change)"
    r"|with the (?:fix|patch|change)|patched (?:build|firmware|version))\b|修正(?:後|版|した)|パッチ(?:を当て|適用)",
    re.IGNORECASE,
)


#: A run stopped before its end: "we stopped it there", "killed it after two hours", "didn't let it finish",
#: "got past the step where it hung", 「途中で止めた」「最後までは流していない」.
_CUT_SHORT = (
    any_of(
        r"\b(?:we|i|they|someone)\s+(?:then\s+)?(?:stopped|killed|aborted|interrupted|cancell?ed|halted|terminated"
        r"|cut|ended|paused)\s+(?:it|the (?:run|job|workload|training|test|replay|soak|load|session|batch|import"
        r"|scan))\b"
        r"(?!\s+(?:after it|once it|when it)\s+(?:finished|completed|ended|succeeded)\b)",
        r"\b(?:shut|took|brought|wound) (?:it|the (?:run|job|workload|training|test|replay|soak|load)) down\b",
        r"\b(?:stopped|killed|aborted|interrupted|cancell?ed|cut short|halted|terminated) (?:it )?(?:there|early"
        r"|partway|halfway|midway|before (?:it|the end|completion|the last))\b",
        r"\b(?:got|gets|went|made it) past (?:the )?(?:point|step|stage|phase|epoch|place|spot)\b",
        r"\b(?:didn't|did not|never|couldn't|could not) (?:let it |get it to |wait for it to )?(?:finish|complete"
        r"|run to (?:the end|completion)|reach the end)\b",
        r"\b(?:partway|halfway|midway|part of the way) (?:through|in)\b|\bbefore it (?:finished|completed|ended)\b",
        # Still going: "is at 70%", "still running", "we will let it finish".
        r"\b(?:is|are) (?:now |currently |still )?(?:at|past) (?:\d+ ?%|epoch|step|hour|row|batch|shard|chunk)"
        r"|\bstill running\b|\blet(?:ting)? it (?:finish|complete|run (?:to|until|over|through|overnight))\b",
        flags=EN_FLAGS,
    ),
    any_of(
        # Not 「途中で止めたデザインもないっす」: none was stopped.
        "途中(?:で|まで)(?:止め|停止|打ち切|中断|キャンセル|kill|終了|切り上げ)"
        "(?![^。、]{0,15}?(?:も|は)(?:ない|無い|ありません|なかった|ゼロ|なし))",
        "(?:そこで|その時点で|時点で|手前で)(?:[^。、]{0,8}?(?:を|に))?(?:止め|停止|打ち切|中断|中止|キャンセル|終了|切り上げ|切り替え|切替)",
        "中止(?:し|した|させ)",
        "(?:実行|処理|学習|移行|再インデックス)中(?:です|だ|。|で|、|$)",
        "まだ(?:流|回|走|動い)(?:して|って|いて|てい)",
        "途中まで",
        "(?:最後|終わり|完了)まで(?:は)?(?:流|実行|回|走らせ|待)(?:し|っ|た)?て(?:い|お)?(?:ない|ません|ず)",
        "打ち切(?:り|っ|る)",
        "中断(?:し|させ)",
        "完走(?:は)?(?:して|させて|でき)(?:い)?(?:ない|ません|ず)",
        "(?:を|は)?越えた(?:ところ|時点)で(?:止め|停止)",
        "ところで[、,]?[^。]{0,20}?(?:止め|停止|打ち切|中断|中止)",
    ),
)


def cut_short(masked: str) -> Finding | None:
    """A workload stopped before its end, or only a part of it run: it did not complete, whatever it got past."""
    found = search(_CUT_SHORT, BEFORE_ASIDE.sub(" ", masked))  # not 「（修正前は 2 時間経過時点で停止）」
    if found is not None:
        return ("cut_short", found)
    for part in _PART.finditer(masked):
        done, whole = (part.group("n") or part.group("jn")), (part.group("m") or part.group("jm"))
        if int(done) < int(whole):
            return ("cut_short", part.group(0))  # "the first 3 of the 10 shards": a part, not the workload
    return None


#: A part of the workload named by its count: "the first 3 of the 10 shards", 「10 シャードのうち 3 シャードだけ」.
_PART = re.compile(
    r"\b(?:the first|first|only|just|the last|through|past)\s+(?P<n>\d{1,6})\s+(?:of|out of)\s+(?:the\s+"
    r"|its\s+|all\s+)?"
    r"(?P<m>\d{1,6})\b"
    r"|(?P<jm>\d{1,6})\s*\S{0,8}?のうち\s*(?P<jn>\d{1,6})\s*\S{0,8}?(?:だけ|のみ)",
    re.IGNORECASE,
)
