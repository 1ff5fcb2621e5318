"""What of a text is the person's own claim: code, quotes, pasted logs and identifiers masked out.

The evidence gate and the tone lint read prose, not the things prose mentions: `likely()`, `MIGHT_BLOCK`,
a quoted "might retry", a pasted `ERROR: pending` log line. Every pattern here is linear: each
alternative starts at a position the previous character rules out, and no quantifier nests another.
"""

from __future__ import annotations

import re
import unicodedata
from fractions import Fraction
from functools import lru_cache

from rules.evidence_count_shapes import counts_passes
from rules.evidence_count_words import ENOUGH, NOT_A_LABEL
from rules.numerals import as_digits

#: Characters that show nothing: zero-width spaces and joiners, the BOM, soft hyphens.
_INVISIBLE_RE = re.compile("[\u00ad\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\ufeff]")

#: The word that stands where masked text was, so sentence shapes ("Q can be NULL when Q") survive.
MASK = " Q "
#: A masked identifier, as a word of its own: an element named in code.
MASKED_CODE = re.compile(r"(?<![A-Za-z])Q(?![A-Za-z])")

#: An HTTP status in a code span (`409`, `504`), or the main line's branch (`main`): words the prose reads.
_STATUS_SPAN = re.compile(r"`([1-5]\d\d|main|master|trunk)`")
#: A fenced block: pasted output or a command session.
FENCE_RE = re.compile(r"```.*?(?:```|\Z)|~~~.*?(?:~~~|\Z)", re.DOTALL)
#: A code span and the gloss that names it in words after it (「`planned_lockages`（予定）」: no plan of the writer's).
_INLINE_RE = re.compile(
    r"`[^`\n]*`(?:[ \t]?[（(](?![^（）()\n]*(?:\d|前|後|before|after))(?:[\u3040-\u30ff\u4e00-\u9fff]{1,6}"
    r"|[A-Za-z]+(?: [A-Za-z]+)?)[）)])?"
)
_URL_RE = re.compile(r"\b(?:https?|ftp)://\S+")

#: Quotes: straight and curly double quotes, single quotes that are not apostrophes, Japanese brackets.
_QUOTE_RE = re.compile(
    r'"[^"\n]{1,300}"|“[^“”\n]{1,300}”|‘(?:[^‘’\n]|(?<=\w)’(?=\w)){1,300}’|(?<![\w])\'(?:[^\'\n]|(?<=\w)\'(?=\w)){1,300}\'(?![\w])'
    r"|「[^「」\n]{1,300}」|『[^『』\n]{1,300}』"
)

#: A line that is pasted output: a `>` quote, or one that starts with a time, a log level, a traceback frame,
#: or a pytest failure marker. From a level token to the line's end; a line led by a date with its time. A date
#: with its time inside prose is only itself ("sets the RTC to 2024-02-28T23:59:59 and ticks 2 s"), and a date
#: alone is prose: 「2024-05-12 のリプレイを 3 回実行し…」.
_LOG_LINE_RE = re.compile(
    r"^[ \t]*(?:>|\d\d:\d\d:\d\d|\[[ \t]*\d+(?:\.\d+)?\]|Traceback\b|File \"|at [\w.$]+\("
    r"|E {2,}|\$ )[^\n]*"
    r"|(?-i:\b(?:ERROR|WARN|WARNING|INFO|DEBUG|TRACE|FATAL|CRITICAL|PANIC)\b)(?:\]|:| -|\s+\[)[^\n]*"
    r"|^[ \t]*\d{4}-\d\d-\d\d[T ]\d\d:\d\d[^\n]*"
    r"|\b\d{4}-\d\d-\d\d[T ]\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?:Z|[+-]\d\d:?\d\d)?",
    re.MULTILINE,
)

#: Identifiers: dotted / scoped names, paths, words with `_` or an inner capital, names called with `(`.
_DOTTED_RE = re.compile(r"(?<![\w.])[A-Za-z_][A-Za-z0-9_]*(?:(?:\.|::|->)[A-Za-z_][A-Za-z0-9_]*)+\(?")
#: ASCII only: 「118 件/時」 is a unit in Japanese prose, not a path; "15/15." ending a sentence is a rate.
_PATH_RE = re.compile(
    r"(?<![\w./-])(?![\d,]+/[\d,]+(?![\w/-]|\.[\w/-]))[\w.-]*\w/(?![\u3040-\u30ff\u4e00-\u9fff])[\w./-]*", re.ASCII
)
_NAME_RE = re.compile(
    # called: `likely()`, not 「PASS（修正前」
    r"(?<![A-Za-z0-9_])(?:[A-Za-z0-9_]+\((?![\u3040-\u30ff\u4e00-\u9fff])\)?"
    # snake, camel; not the names of symptoms written as words ("went NaN", "HardFault になった")
    r"|(?!(?:NaN|HardFault|BusFault|UsageFault|MemManage|OOMKilled|StackOverflow)(?![A-Za-z0-9_]))"
    r"(?=[A-Za-z0-9_]*(?:[A-Za-z0-9]_[A-Za-z0-9]|[a-z][A-Z]|[A-Z]{2}[a-z]))[A-Za-z0-9_]+)"
)

#: A line break inside a sentence, between two Japanese characters or two lower-case words: a wrap, not an end.
_SOFT_WRAP = re.compile(
    "(?<=[\u3040-\u30fa\u30fc\u4e00-\u9fff、])\n(?=[\u3040-\u30fa\u30fc\u4e00-\u9fff])|(?<=[\u3040-\u309f、])\n(?=\\d)"
    r"|(?<=[a-z,])[ \t]*\n(?=[ \t]*[a-z])"
)
#: A line that is an item or a label of its own: "1. …", "- …", 「・…」, 「未検証：…」.
_OWN_LINE = re.compile(r"\s*(?:\d+[.)](?!\d)|[-*•・●■◆※]|[^\s:：。]{1,12}[:：](?!\d))")  # not "04:10 …", "4.0 mg/L"


def unwrapped(text: str) -> str:
    """「…毎回⏎ではありません」, "in nine of⏎the ten batches": a sentence wrapped onto the next line read as one line;
    a list item or a labelled line stays a line of its own."""
    if "\n" not in text:
        return text

    def join(m: re.Match[str]) -> str:
        start = text.rfind("\n", 0, m.start()) + 1
        # 「仮説：…。`f()` に…入れた版で⏎ベンチを…」: once the label's sentence ended, the next one on its line wraps.
        if (text.rfind("。", start, m.start()) < 0 and _OWN_LINE.match(text, start)) or _OWN_LINE.match(text, m.end()):
            return m.group(0)
        return "" if m.group(0) == "\n" and not text[m.start() - 1].isascii() else " "

    return _SOFT_WRAP.sub(join, text)


#: Sentence ends; a 「！」 folded to "!" ends one too before Japanese: 「全部いけた!(前は…)行書は…」.
_SENTENCE_RE = re.compile(r"(?<=[.!?;])\s+|[。！？；\n]+|(?<=[!?])(?=[(\u3040-\u30ff\u4e00-\u9fff])")


def normalize(text: str | None) -> str:
    """The text as it reads: invisible characters dropped, full-width forms folded (NFKC)."""
    return unicodedata.normalize("NFKC", _INVISIBLE_RE.sub("", text or ""))


def visible(text: str | None) -> str:
    """The characters a reader sees, without spaces: empty for whitespace or zero-width characters only."""
    return "".join(normalize(text).split())


@lru_cache(maxsize=64)
def mask(text: str | None) -> str:
    """The person's own prose: code, URLs, quotes, pasted log lines and identifiers replaced by `Q`; counts in words
    as figures."""
    # 「`409` を返す」: a status code is the symptom, said as such; "fails on `main` too": a failure not the fix's.
    out = _STATUS_SPAN.sub(lambda m: m.group(1) if m.group(1).isalpha() else f" {m.group(1)} ", normalize(text))
    out = unwrapped(out)
    named = _hedges_named_in_code(out)
    for pattern in (FENCE_RE, _INLINE_RE, _URL_RE, _LOG_LINE_RE, _QUOTE_RE, _DOTTED_RE, _PATH_RE):
        out = pattern.sub(MASK, out)
    if named:
        # "`if (likely(x))` … the update was only on the likely side": the code's name, said again in prose.
        out = re.sub(rf"(?<![\w-])(?:{'|'.join(named)})(?![\w-]){_AS_A_NAME}", MASK, out)
    return as_digits(_NAME_RE.sub(MASK, out))  # 「三十回中八回」, "forty times": the figures the person wrote


#: Hedge words that are also names in code: `likely()`, `unlikely(x)`, `may`.
_HEDGE_NAMES = re.compile(r"`[^`\n]*?\b(likely|unlikely|probably|maybe|perhaps|possibly|might|may|should|could)\b")


#: What follows a name said in prose: a Japanese word, a call, or a word for a code path ("the likely branch").
_AS_A_NAME = r"(?=\s*(?:[\u3040-\u30ff\u4e00-\u9fff(_]|(?:side|branch|path|macro|case|arm|call|hint)\b))"


def _hedges_named_in_code(text: str) -> list[str]:
    """The hedge words the text uses as names inside its code spans."""
    if "`" not in text:
        return []
    return sorted({m.group(1) for m in _HEDGE_NAMES.finditer(text)})


def sentences(text: str) -> list[str]:
    """Sentences and lines, so a condition or a rejection in one sentence does not excuse another."""
    return [s for s in _SENTENCE_RE.split(text) if s.strip()]


#: Rates: "7 of 20", "1 in 500 runs", "3/10", "1 in ~1,000", "1 in 10k", "20 回中 19 回", "10回に1回", "40%",
#: "once every 200 runs". Numbers may carry thousands separators or a `k`.
_N = r"(\d{1,3}(?:,\d{3})+|\d+)(k\b)?"
#: An approximate count is still a count: "in about 400 runs", "~400", 「100 回ほど」「約 100 回」.
_ABOUT_EN = r"(?:~\s*|(?:about|around|roughly|approximately|approx\.?|some|nearly|almost|over|more than|under) )?"
_ABOUT_JA = r"(?:\s*(?:ほど|程度|くらい|ぐらい|位|前後|弱|強|近く|以上|余り|あまり))?"
#: What a Japanese count counts, beside 回 (runs): a counter or a word, 「1000 通中 4 通」「500 席中 2 席」
#: 「200 ジョブ中 3 ジョブ」.
_COUNTER_JA = r"(?:回|[\u4e00-\u9fff]|[\u30a1-\u30fa\u30fc]{1,8})"
_RATE_RE = re.compile(
    r"(?=[\dOo])(?:"
    # Not a label's numbers: "the berth 4/5 boundary", "page 2 of 10".
    f"{NOT_A_LABEL}"
    rf"(?<![\d.,]){_N}\s*(?:(?:runs?|times?|failures?|attempts?|iterations?|requests?|calls?)\s*)?"
    rf"(?:of|in|out of|/)\s*{_ABOUT_EN}{_N}(?!\.?\d)"
    r"(?!\s*(?:GiB|GB|MiB|MB|KiB|KB|ms|s|sec|seconds?|minutes?|hours?|days?)\b)"
    # A date, not a rate: 「10/27 の夜間便」「10/27 から」.
    r"(?!\s*(?:の(?!確率|割合|頻度)|に|から|まで|以降|以前|夜|朝|昼|日|[(（](?!\s*\d)))"
    rf"|(?<![\d.,]){_N}\s*{_COUNTER_JA}{_ABOUT_JA}(?:中|のうち)\s*(?:約\s*)?{_N}\s*{_COUNTER_JA}"
    rf"|(?<![\d.,]){_N}\s*回に\s*{_N}\s*回"
    r"|(?<![\d.])(\d+(?:\.\d+)?)\s*%"
    rf"|\bonce (?:every|per|in) {_ABOUT_EN}{_N})",
    re.IGNORECASE,
)


#: "ran it 500 times, it failed 3 times": runs first, then failures, in one sentence.
_TIMES_RE = re.compile(
    r"\b(?:ran|run|executed|tried|repeated|looped)\b[^.;\n]{0,60}?\b(\d{1,6}) ?(?:times|runs|iterations|attempts|x)\b"
    r"[^.;\n]{0,60}?\b(?:fail\w*|crash\w*|hung|hangs?|hit|reproduc\w*|broke)\s+(\d{1,6}|once|twice)(?: times?)?\b",
    re.IGNORECASE,
)
#: "Out of 40 attempts it showed up twice": the total first, then how often it happened.
_OUT_OF_RE = re.compile(
    r"\b(?:out of|of|in|across|over)\s+"
    + _ABOUT_EN
    + r"(\d{1,6}) ?(?:times|runs|iterations|attempts|tries|executions|x)\b"
    r"[^.;\n]{0,60}?\b(?:show\w* up|turn\w* up|appear\w*|happen\w*|occur\w*|fail\w*|crash\w*|hung|hangs?|hit"
    r"|reproduc\w*|broke|trigger\w*)\s+(\d{1,6}|once|twice|three)(?: times?)?\b",
    re.IGNORECASE,
)
#: "out of 500 simulated nights the vent stayed open once": the total named by "out of", then how often.
_OUT_OF_ANY_RE = re.compile(
    r"\bout of\s+(\d{1,6})\s+(?:[\w-]+\s+){0,2}?[\w-]+s\b[^.;\n]{0,60}?\b(once|twice|three times|\d{1,6} times)\b",
    re.IGNORECASE,
)
_WORD_COUNTS = {"once": 1, "twice": 2, "three": 3, "three times": 3}
#: 「100 回回して 2 回失敗」: runs, then failures, in Japanese.
_TIMES_JA_RE = re.compile(
    r"(\d{1,6})\s*回"
    + _ABOUT_JA
    + r"(?:回|実行|試|走ら|流|繰り返|やっ|行|[\u30a1-\u30fa\u30fc]{2,}(?:し|さ))[^。\n]{0,30}?"
    r"(?:(\d{1,6})\s*回(?:だけ|ほど|程度|とも|すべて|全て|中)?(?:失敗|落ち|発生|再現|クラッシュ|ハング|タイムアウト|エラー|止ま|切れ|切断|途切れ|固ま|フリーズ|リセット)"
    # 「1000 回リプレイして失敗は 3 回」: the failures named first, then counted.
    r"|(?:失敗|エラー|クラッシュ|ハング|タイムアウト|再現|発生)(?:は|が|したのは)\s*(\d{1,6})\s*回)"
)


#: A percentage that measures a level, not how often runs fail: "filled `/data` to 97%", "CPU at 90%", "95% full",
#: 「ディスク使用率 97%」.
_LEVEL_BEFORE = re.compile(
    r"(?:\b(?:to|at|by|up to|down to|above|below|over|under|past|beyond|exceeds?|exceeded|filled|reached|hit|hits"
    r"|between|between \d[\d.]*\s*% and"
    r"|utili[sz]ation|usage|load|cpu"
    r"|memory|disk|battery|capacity|coverage)\s*(?:about\s+|~\s*)?|(?:使用率|利用率|負荷|容量|残量|CPU|メモリ|ディスク"
    r"|カバレッジ|強さ|出力|音量|速度|濃度|湿度|開度|明るさ|輝度)(?:は|が|を|:|：)?\s*(?:約\s*)?)$",
    re.IGNORECASE,
)
_LEVEL_AFTER = re.compile(
    r"\s*(?:full|cpu|memory|mem|disk|load|usage|utili[sz]ation|capacity|coverage|battery|volume|brightness|duty"
    r"|of (?:the )?(?:cpu|memory|disk|heap|capacity|quota|budget|bandwidth))\b|\s*(?:まで|の(?:使用率|負荷|容量))"
    r"|\s*(?:に|へ)(?:設定|変更|固定|下げ|上げ)",
    re.IGNORECASE,
)


#: A reading that moves, then where from: "`battery_soc` jumps from 61% to 0%" (unless a rate is what moves).
_MOVES_FROM = re.compile(
    r"\b(?:jump(?:s|ed)?|drop(?:s|ped)?|falls?|fell|goes|went|reads?|climb(?:s|ed)?|rises|rose|spiked?|spikes)"
    r" from\s*$",
    re.IGNORECASE,
)
#: Words that make a percentage a rate of failing: "fails 40% of the time", "40% of runs", 「40% の確率で落ちる」.
_RATE_CONTEXT = re.compile(
    r"(?i:fail|crash|hang|hung|repro|error|flak|runs?\b|time|attempt|tries|builds?\b|iteration|occur|happen|hit"
    r"|break|broke|timeout|time out|rate)|失敗|再現|落ち|エラー|確率|頻度|割合|回|発生|クラッシュ|ハング|タイムアウト"
)


def level_percent(text: str, start: int, end: int) -> bool:
    """Whether the percentage at [start, end) measures a level ("filled to 97%", "CPU at 90%") or an amount
    ("partially capture 40%") rather than runs: a rate has a word of failing, runs or chance near it."""
    if _LEVEL_BEFORE.search(text, max(0, start - 24), start) or _LEVEL_AFTER.match(text, end):
        return True
    window = max(0, start - 40)
    if _MOVES_FROM.search(text, max(0, start - 24), start) and not _RATE_CONTEXT.search(text, window, start):
        return True  # "`battery_soc` jumps from 61% to 0%": a reading that moves, not a share of runs
    return _RATE_CONTEXT.search(text[max(0, start - 50) : end + 50]) is None


def _number(digits: str, k: str | None) -> int:
    return int(digits.replace(",", "")) * (1000 if k else 1)


@lru_cache(maxsize=64)
def has_words(text: str) -> bool:
    """Whether English patterns can match at all: every one needs a word of two letters or a digit. Text of
    single letters and punctuation (a pasted blob, a pathological input) skips them, in one quick scan."""
    return _WORDISH_RE.search(text) is not None


_WORDISH_RE = re.compile(r"[A-Za-z]{2}|\d")


#: Another "of N" right after a rate's total: the total began the rate ("beacon 8 in 25 of 25 tries").
_RATE_NEXT = re.compile(r"\s*(?:of|out of|/)\s*\d")


@lru_cache(maxsize=64)
def rates(text: str) -> tuple[tuple[Fraction, str], ...]:
    """Every failure rate stated in the text, with the words that state it."""
    found: list[tuple[Fraction, str]] = []
    pos = 0
    while (m := _RATE_RE.search(text, pos)) is not None:
        pos = m.end()
        if len(found) >= ENOUGH:
            return tuple(found)  # a pasted blob of "1 in 1 in …": read no further, as every reader of figures
        g = m.groups()
        if g[0] is not None:
            hits, total = _number(g[0], g[1]), _number(g[2], g[3])
            if hits > total or _RATE_NEXT.match(text, m.end()):
                pos = m.start(3)  # "drops cue 42 in 30 of 30 tries": a name's number, then the rate
                continue
        elif g[4] is not None:
            total, hits = _number(g[4], g[5]), _number(g[6], g[7])
        elif g[8] is not None:
            total, hits = _number(g[8], g[9]), _number(g[10], g[11])
        elif g[12] is not None:
            if not level_percent(text, m.start(), m.end()):
                found.append((Fraction(g[12]) / 100, m.group(0)))
            continue
        else:
            hits, total = 1, _number(g[13], g[14])
        if 0 < total and hits <= total:
            passes = g[0] is not None and counts_passes(text, m.start(), m.end())  # "passed 20 of 20 times"
            found.append((Fraction(total - hits if passes else hits, total), m.group(0)))
    for pattern in (_TIMES_RE, _OUT_OF_RE, _TIMES_JA_RE, _OUT_OF_ANY_RE):
        for m in pattern.finditer(text):
            if len(found) >= ENOUGH:
                break
            total, count = int(m.group(1)), (m.group(2) or m.group(m.lastindex or 2)).lower()
            hits = _WORD_COUNTS.get(count) or int(count.removesuffix(" times"))
            if 0 < total and hits <= total:
                found.append((Fraction(hits, total), m.group(0)))
    return tuple(found)
