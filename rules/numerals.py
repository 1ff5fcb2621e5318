"""Counts written in words, read as figures: 「三十回中八回」 as 30 回中 8 回, "two hundred times" as 200 times, so
every reader of rates and counts sees the figure the person wrote (docs/rules.md#observed-rates). One and once stay
words: the readers of sightings read 「一度だけ」 and "one time" as such. Linear: each pattern starts at a numeral.
"""

from __future__ import annotations

import re

_KANJI = {"一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
_KANJI_UNIT = {"十": 10, "百": 100, "千": 1000}
#: A Japanese numeral before what it counts (not 十分 "enough", not 二度と "never again", not 一 alone).
_KANJI_COUNT = re.compile(
    "(?<![一二三四五六七八九十百千数何幾])[一二三四五六七八九十百千]+(?=\\s*(?:回|件|台|巻|本|枚|人|個|秒|時間|日間|週間|ケース"
    "|パターン|通り|種類|項目|シード|ラウンド|往復|周|試合|組|箇所|ページ|セット|サイクル|ジョブ|%|パーセント"
    # 「千通中二通」「五バッチ中二バッチ」: any counter of the trade, a kanji or a katakana word.
    "|通|便|杯|缶|箱|袋|局|店|点|[\u30a1-\u30fa\u30fc]{2,6}))"
)


def _kanji_value(numeral: str) -> int | None:
    total, digit = 0, None
    for ch in numeral:
        if ch in _KANJI:
            if digit is not None:
                return None  # 「二三回」: a range said loosely, not one figure
            digit = _KANJI[ch]
        else:
            total += (1 if digit is None else digit) * _KANJI_UNIT[ch]
            digit = None
    return total + (digit or 0)


def _kanji(m: re.Match[str]) -> str:
    value = _kanji_value(m.group(0))
    return m.group(0) if value is None or value < 2 else f" {value} "


_UNITS = {
    "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
    "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17,
    "eighteen": 18, "nineteen": 19, "one": 1, "a": 1,
}  # fmt: skip
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90}
_UNIT = "two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen"
_UNIT += "|eighteen|nineteen"
_TEN = "|".join(_TENS)
_BELOW_100 = rf"(?:(?:{_TEN})(?:[- ](?:one|{_UNIT}))?|{_UNIT})"
#: "forty", "twenty-five", "two hundred", "a thousand", "three hundred and twenty"; before runs or things counted,
#: or after "of" / "out of" / "in" ("eleven out of forty").
_NUMBER = rf"(?:(?:a|one|{_UNIT}) (?:hundred|thousand)(?:(?: and)? {_BELOW_100})?|(?:a|{_UNIT}) dozen|{_BELOW_100})"
#: A count in words, either language, as `as_digits` reads it.
SPELLED = rf"(?:(?i:{_NUMBER})|[一二三四五六七八九十百千]+)"
#: What a count of runs or failures counts: repetitions, and things that went wrong ("eleven double-feeds").
_COUNTED = (
    r"(?:times|runs?|tries|attempts|iterations|replays|seeds|cycles|loops|rounds|trials|boots|reboots|restarts|builds"
    r"|passes|repetitions|executions|imports|requests|calls|jobs|shots|presses|scans|sends|uploads|prints|solves"
    r"|failures|fails|errors|crashes|hangs|timeouts|stalls|drops|misses|jams|resets|[a-z]+-[a-z]+s"
    # What a run is in a trade's own words, and what goes wrong in it: "sixty fast second balls", "nineteen collisions".
    r"|balls|throws|cues|laps|serves|swings|collisions|faults|trips|overshoots|misfires|skips)"
)
#: A duration, which stays words (a soak reads "three nights" as such): "in two weeks", "for three nights".
_NOT_A_DURATION = r"(?!\s+(?:[a-z-]+\s+)?(?:nights|days|hours|weeks|minutes|seconds|months|years|mornings|evenings)\b)"
_WORDS = re.compile(
    # "forty times", "two hundred replays", "eleven out of forty", "counted eleven double-feeds". Every number word
    # starts with one of these letters: the engine skips the rest of the text at once (0.05 → 0.015 s on 250 kB).
    r"(?=[aefnost])(?:"
    rf"\b{_NUMBER}\b(?=\s+(?:[a-z]+\s+){{0,2}}?{_COUNTED}\b"
    rf"|\s+(?:[a-z-]+\s+)?(?:out of|of|in)\s+(?:about\s+|~\s*|the\s+|all\s+)?(?:\d|{_NUMBER}\b|th(?:ose|ese|em)\b))"
    rf"|(?:(?<=\b(?:of|in) )|(?<=\bof the )){_NUMBER}\b{_NOT_A_DURATION}"
    rf"(?=\s+(?:{_COUNTED}|[a-z-]+s)\b|\s*[.,;)]|\s*$|\s+(?:and|but|so|with)\b)"
    rf"|(?:(?<=\bcounted )|(?<=\ball )|(?<=\bAll )){_NUMBER}\b"
    # "over twenty gloved slides", "across forty boards": a count after a preposition, before a plural.
    rf"|(?:(?<=\bover )|(?<=\bacross )|(?<=\bafter )|(?<=\bfor )){_NUMBER}\b(?=\s+(?:[a-z-]+\s+)?[a-z-]+s\b)"
    rf"{_NOT_A_DURATION}"
    # "three hundred and twenty posts": a number with hundreds or thousands is a count wherever it stands.
    rf"|\b(?:a|one|{_UNIT}) (?:hundred|thousand)(?:(?: and)? {_BELOW_100})?\b{_NOT_A_DURATION})",
    re.IGNORECASE,
)


def _words_value(words: str) -> int:
    total, part = 0, 0
    for word in re.split(r"[- ]+", words.lower()):
        if word == "and":
            continue
        if word == "dozen":  # "a dozen", "two dozen"
            part = (part or 1) * 12
        elif word in ("hundred", "thousand"):
            part = (part or 1) * (100 if word == "hundred" else 1000)
            if word == "thousand":
                total, part = total + part, 0
        else:
            part += _TENS.get(word) or _UNITS[word]
    return total + part


def as_digits(text: str) -> str:
    """The text with counts of two or more written in words turned to figures."""
    if any(ch in text for ch in "二三四五六七八九十百千"):
        text = _KANJI_COUNT.sub(_kanji, text)
    return _WORDS.sub(lambda m: str(_words_value(m.group(0))), text)
