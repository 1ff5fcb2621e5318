"""A root cause that only says the symptom again, in either language: "the index returns zero hits because the
queries do not match anything", 「PDF が空になるのは、生成処理が空のデータを出力しているため」. Its cause half
names no new element, or repeats the symptom's own state word (docs/rules.md#what-each-input-must-state).
"""

from __future__ import annotations

import re

from rules import english, japanese, japanese_symptoms, japanese_verbs
from rules.symptom_words import (
    PLAIN_CONDITION,
    SYMPTOM_CAUSE,
    not_produced_again,
    only_symptoms,
)

#: "EFFECT because CAUSE" (en); 「EFFECT のは、CAUSE ため」 and 「CAUSE ため、EFFECT」 (ja).
_BECAUSE_EN = re.compile(r"^(?P<effect>.+?)\b(?:because|since)\b(?P<cause>.+)$", re.IGNORECASE | re.ASCII)
#: "CAUSE, which is why EFFECT": the cause first.
_WHICH_IS_WHY_EN = re.compile(
    r"^(?P<cause>.+?),?\s*\b(?:which is why|that's why|that is why|which explains why|hence)\b(?P<effect>.+)$",
    re.IGNORECASE | re.ASCII,
)
_BECAUSE_JA = (
    re.compile(
        "^(?P<effect>.+?)のは[、,]?(?P<cause>.+?)(?:ため|せい|から|ことが原因)(?:である|です|だ|でした)?[。.]?$"
    ),
    re.compile("^(?P<cause>.+?)(?:ため|ので|から)[、,](?P<effect>.+)$"),
)
#: The states a symptom is described by; the same one on both sides is the symptom said twice.
_STATE = re.compile(
    r"\b(?:empty|blank|nothing|none|wrong|incorrect|zero|null|missing|duplicated?|twice|stale|previous|outdated|old|slow"
    r"|late|too early"
    r"|garbled|corrupt\w*|mis(?:rout|direct|sort|deliver|plac|fil)\w*"
    r"|(?<![\d,.])\d{3}(?![\d,.]))\b|空(?!き)|白紙|何も|間違|誤っ|(?<!間)違[うっ]|ずれ|斜め|傾い|傾き|ゼロ|0\s*件|欠落|重複|二重|(?:2|２|二)\s*(?:回|度)(?!目)|古い|遅い|遅く|文字化け|破損|(?<![\d,.])\d{3}(?![\d,.])"
    # Slowness said as time: "takes longer", 「時間が長くなる」「時間がかかる」.
    r"|\b(?:takes? (?:much )?longer|takes? (?:too )?long)\b|長く(?:なる|なり|なっ|かか)|時間が?かか"
    r"|時間が[^。、]{0,20}?伸び"
    # Left open: "stays open", "does not close the valve", 「開いたまま」「閉じない」 are one symptom.
    r"|\b(?:stays?|stayed|remains?|remained|left|is|are) open\b|\b(?:doesn't|does not|didn't|did not|never|won't"
    r"|fails? to) close[sd]?\b|開いたまま|閉じ(?:ない|ず|なく)"
    # Set back to its start, or restarting by itself (not 「…を再起動する」): "resets", 「初期化」 are one symptom.
    r"|\b(?:reset|resets|cleared|wiped|zeroed|reinitiali[sz]ed)\b|リセット|初期化|クリアされ"
    r"|(?<![をに])(?<![をに] )(?:再起動|リブート)(?!を)"
    # 「40 分かかる」「実行時間が 38 分と長い」: the time again.
    r"|(?<![\d.])\d+\s*(?:分|秒|時間)(?:以上|も|ほど|近く)?かか|(?:時間|処理時間|実行時間)(?:が)?[^。、]{0,12}?長い"
    r"|(?:処理時間|実行時間|所要時間)(?:が)?[^。、]{0,16}?(?:を)?(?:超え|上回)",
    re.IGNORECASE,
)
#: State words that say the same thing: an empty page and nothing rendered are one symptom.
_SAME_STATE = {
    word: state
    for state, words in (
        ("empty", "blank nothing none zero null 空 白紙 何も ゼロ"),
        ("wrong", "incorrect 間違 誤っ 違う 違っ ずれ"),
        ("tilted", "斜め 傾い 傾き"),
        ("twice", "duplicate duplicated 重複 二重"),
        ("slow", "遅い 遅く"),
        ("stale", "previous outdated old 古い 前の"),
        ("reset", "resets cleared wiped zeroed reinitialized reinitialised リセット 初期化 クリアされ 再起動 リブート"),
    )
    for word in words.split()
}


_SHOWN = re.compile(r"\b(?:show|display|render|print|present)\w*|表示|描画|印字|印刷", re.IGNORECASE)


def _state(word: str) -> str:
    word = word.lower()
    if _SLOW.search(word):
        return "slow"
    if re.fullmatch(r"(?:2|２|二)\s*(?:回|度)", word):
        return "twice"  # 「二重印字」 and 「2 回印字」 are one symptom
    if re.search("open|close|開いたまま|閉じ", word):
        return "open"  # "stays open because `valve_close()` does not close the valve": one symptom
    if word.startswith("mis"):
        return "wrong"  # "misroutes bags because it sends them to the wrong chute": one symptom
    return _SAME_STATE.get(word, "empty" if re.fullmatch(r"0\s*件", word) else word)


_SLOW = re.compile(r"^takes?|長く|長い|時間|かか")


#: A condition or a code identifier in the cause: it says when or what, so it is more than a restatement.
_SPECIFIC = re.compile(r"\bQ\b|\b(?:when|if|unless|while|after|before|once|whenever)\b|場合|とき|時に|たら|れば|と、")
#: Moved or sent the wrong way, said of no element's working: "turns them to the wrong side", 「違う棚に送る」.
_WRONG_WAY = re.compile(
    r"\b(?:turns?|sends?|moves?|routes?|points?|puts?|places?|delivers?|drives?|steers?) (?:them|it|the \w+) (?:to|into"
    r"|onto|toward|towards|at|in) the wrong\b|(?:違う|間違った|誤った)[^。、]{0,8}?(?:に|へ)(?:送|回|入れ|向け|運)",
    re.IGNORECASE,
)
#: Words that add nothing to a restated symptom.
_FILLER = frozenset(
    "the a an in on of to for at by with it its this that is are was were be been do does did not don't doesn't"
    " didn't any anything nothing something all match matches matched work works properly correctly at as expected"
    " and or so there their they them".split()
)
#: An exception or an error status thrown or returned: what failed, unless a condition says when.
_THROWS = re.compile(
    r"\b(?:throws?|threw|raises?|raised)\b(?:\s+an?)?(?:\s+\w+)?\s+(?:Q|exceptions?|errors?)\b"
    r"|\breturns?\b(?:\s+an?)?\s+(?:errors?|exceptions?|\d{3}|Q)\b|(?:Q|例外|エラー)\s*を(?:投げ|送出)(?:る|た|て)"
    r"|(?:例外|エラー)\s*を返(?:す|し|た)"
    # A timeout and what it then returns: one symptom ("times out and returns `502`").
    r"|(?:\btimes? out|\btimed out|タイムアウトして)(?:[^.。]{0,30}?(?:\breturns?\b(?:\s+Q)?|を返(?:す|し|た)))?",
    re.IGNORECASE,
)
CONDITION = re.compile(
    # "after 30 s" is how long, not when: a duration is no condition.
    r"\b(?:when|whenever|if|unless|while|because|since"
    r"|after(?!\s+(?:about |over |~\s*)?\d[\d.,]*\s*(?:ms|s|secs?|seconds?|mins?|minutes?|h|hours?)\b)"
    r"|before|once|whose|where|for (?:a|an|any|every|each"
    r"|all|[a-z]+s)"
    r"|with (?:a|an|no|null|empty))\b|場合|とき|時に|たら|れば|なら|のに|ないと",
    re.IGNORECASE,
)
#: A duration measured: "takes ~40 ms", "took over 3 s" (not "takes the lock").
DURATION = re.compile(
    r"\b(?:takes?|took|taking|lasts?|lasted|spends?|spent)\s+(?:about\s+|around\s+|~\s*|over\s+|up to\s+|nearly\s+)?"
    r"\d[\d.,]*(?:\s*(?:to|-|–)\s*\d[\d.,]*)?\s*(?:ms|µs|us|ns|s|sec\w*|min\w*|hours?|h)\b"
    r"|\b(?:takes?|took|taking) (?:much |far |way |a lot )?(?:longer\b|more than\b)|\b(?:takes?|took) too long\b",
    re.IGNORECASE,
)
#: A wrong value or choice in the code: "is `>` instead of `>=`", "uses X rather than Y", 「…ではなく…を使う」.
_WRONG_CHOICE = re.compile(r"\b(?:instead of|rather than)\b(?!\s+~?\d)|の代わりに|ではなく", re.IGNORECASE)
CONSEQUENCE = re.compile(r",\s*(?:which|so|and then|after which|(?:and )?as a result)\b.*$", re.IGNORECASE | re.DOTALL)
_WORD = re.compile(r"[a-z0-9']+", re.IGNORECASE)


def restated(sentence: str) -> bool:
    """Whether a masked sentence's cause half only says its effect half again, or names a symptom as the cause."""
    if japanese_symptoms.symptom_as_cause(sentence) is not None:
        return True  # 「…で panic するのが原因」「OOM になったのが原因」: the symptom, called the cause
    parts = halves(sentence)
    if parts is None:
        return False
    effect, cause = parts
    if halves(cause) is not None and restated(cause):
        return True  # "`f()` shows the previous plate because it holds stale data, which is why …": nested
    shared = {_family(m.group(0)) for m in SYMPTOM_CAUSE.finditer(effect)}
    if shared & {_family(m.group(0)) for m in SYMPTOM_CAUSE.finditer(cause)}:
        return True  # 「タイムアウトが発生したため、タイムアウトしていた」: the same symptom on both sides
    if _WRONG_WAY.search(cause) and not _SPECIFIC.search(cause):
        return True  # "because the tracker turns them to the wrong side": wrong, said of no element's working
    effect_states = {_state(m.group(0)) for m in _STATE.finditer(effect)}
    same = any(_state(m.group(0)) in effect_states for m in _STATE.finditer(cause))
    if same and (not CONDITION.search(cause) or (_SHOWN.search(effect) and _SHOWN.search(cause))):
        # "the files come out empty because `flush()` writes empty row groups": the state twice; "shows the old
        # flight because it keeps displaying the previous `flight_id` after …": what is shown, twice
        return True
    if _SPECIFIC.search(cause):
        return False
    if not_produced_again(effect, cause):
        return True  # "rows lose their last cell because the embosser doesn't print the last cell"
    if SYMPTOM_CAUSE.search(cause):
        rest = SYMPTOM_CAUSE.sub(" 、 ", cause)
        if not english.action_verbs(rest) and not japanese_verbs.action_verbs(rest):
            return True  # "locks up because the pinpad isn't responding": a second symptom, no mechanism
    effect_states = {_state(m.group(0)) for m in _STATE.finditer(effect)}
    if any(_state(m.group(0)) in effect_states for m in _STATE.finditer(cause)):
        return True
    if japanese.JA_RE.search(cause):
        return False
    seen = {_stem(w) for w in _WORD.findall(effect)}
    new = {_stem(w) for w in _WORD.findall(cause) if w.lower() not in _FILLER} - seen
    return not new


#: What the time was spent doing, after a duration: "to answer", "to return", "to finish".
_TO_ANSWER = re.compile(
    r"\bto (?:answer|respond|reply|return|complete|finish|load|render|come back)\b"
    # "…, far above its 800 ms budget": the time set against its limit, still the time.
    r"|\b(?:far |well |way )?(?:above|over|beyond|past|under|below) (?:its|the|our|their) (?:[\d.,]+\s*\w+ )?"
    r"(?:budget|limit|slo|sla|target|threshold|timeout)\b",
    re.I,
)


#: "CAUSE, so EFFECT": the cause first, what follows from it after the comma.
_SO_EN = re.compile(r"^(?P<cause>[^,;]+?),\s*(?:and )?so\b(?P<effect>.+)$", re.IGNORECASE | re.ASCII)


def _only_an_error(cause: str) -> bool:
    """Whether the cause half only says an error was thrown or returned, with no condition and no other action:
    "X throws Y on page 3, which is why …" says what failed, not why."""
    if not _THROWS.search(cause) or CONDITION.search(cause):
        return False
    rest = CONSEQUENCE.sub("", _THROWS.sub(" 、 ", cause))
    return not english.action_verbs(rest) and not japanese_verbs.action_verbs(rest)


def error_before_effect(sentence: str, following: str) -> bool:
    """ "`roller_sync()` throws `TimeoutError` on roller 3 while priming. That is why the labels come out blank": an
    error met, its effect in the next sentence; nothing says why the error came."""
    return _EFFECT_NEXT.match(following) is not None and _only_an_error(WHILE_DOING.sub(" ", sentence))


_EFFECT_NEXT = re.compile(
    r"\W*(?:that(?:'s| is) why|this is why|which is why|hence|as a result|それが|そのため|このため)", re.IGNORECASE
)


def symptom_cause(sentence: str) -> bool:
    """A "because" sentence whose cause half is itself a symptom (a failure, a shortage, a kind of fault happening)
    with no action of any element: 「メモリが足りなくなるため、落ちる」, "because it gets stuck"."""
    parts = halves(sentence)
    if parts is None:
        # "`ota_apply()` returns `OTA_ERR_VERIFY` on the second slot, so the bootloader falls back": the error met
        # comes first, what follows from it after; nothing says why it came.
        so = _SO_EN.match(sentence.strip())
        return so is not None and _only_an_error(so.group("cause"))
    cause = parts[1]
    if _WRONG_CHOICE.search(cause):
        return False  # "because the check is `>` instead of `>=`": a wrong choice in the code is a mechanism
    if _THROWS.search(cause) and not CONDITION.search(cause):
        if _only_an_error(cause):
            return True
        cause = CONSEQUENCE.sub("", _THROWS.sub(" 、 ", cause))  # the rest, read for the other symptoms below
    if DURATION.search(cause) and not CONDITION.search(DURATION.sub(" ", cause)):
        rest = DURATION.sub(" 、 ", cause)  # "misses its SLA because the step takes over 3 hours": slowness, measured
        rest = _TO_ANSWER.sub(" ", rest)  # "takes longer than the gateway's 30 s limit to answer": still the time
        if not english.action_verbs(rest) and not japanese_verbs.action_verbs(rest):
            return True
    if not CONDITION.search(cause) and japanese_symptoms.slowness_only(cause):
        return True  # 「応答が遅くなって 500 ms を超えるため」: slowness, measured
    if (stale := japanese_symptoms.not_updated(cause)) is not None:
        # 「値が 7.0 で張り付くのは、読み取り値が更新されないため」: nothing updating, of no element, is the symptom
        if not english.action_verbs(stale) and not japanese_verbs.action_verbs(stale):
            return True
    # ", which leaves the job stuck": what follows, not why; "stops turning when the belt speed changes": when, not why
    rest = CONSEQUENCE.sub("", cause)
    return only_symptoms(rest) or only_symptoms(PLAIN_CONDITION.sub("", rest))


#: What the failing part was doing at the time: "while parsing the 2 GB CSV", "during the nightly import".
WHILE_DOING = re.compile(r"\b(?:while|during|when) [a-z]+ing\b[^,;.]*|\bduring (?:the|a|an)\b[^,;.]*", re.I)


def halves(sentence: str) -> tuple[str, str] | None:
    """The effect and the cause of a "because" sentence; None when it has no such shape."""
    for pattern in (_WHICH_IS_WHY_EN, _BECAUSE_EN, *_BECAUSE_JA):
        m = pattern.search(sentence.strip())
        if m is not None:
            return m.group("effect"), m.group("cause")
    return None


#: Symptoms that are one: a freeze, a hang, not responding, stuck, locked up.
_HANG_FAMILY = re.compile(
    r"hang|hung|free|froz|stuc|lock|stop\w* respond|(?:n't|not|never|no longer) (?:\w+ )?respond|フリーズ|ハング|固ま"
    r"|応答(?:し|でき)"
    # A job that does not finish and one that stops midway are one stall: 「終わらないのは…途中で止まるため」.
    r"|終わら|止ま|進ま|完了しな|stall|never finish|does(?:n't| not) finish|戻って(?:こ|来)な|戻らな|返って(?:こ|来)な"
    r"|stop\w* making progress|makes? no progress",
    re.IGNORECASE,
)


def _family(symptom: str) -> str:
    """One key per symptom: "freezes" and "stops responding" are the same one."""
    return "hang" if _HANG_FAMILY.match(symptom) or _HANG_FAMILY.search(symptom) else symptom.lower()[:4]


def _stem(word: str) -> str:
    return word.lower()[:5]
