"""A contrast of the run with the suspected element and without it, the shape of an experiment: "X …; without it
…", "once with `X=0` … and once with `=1`", 「あり…、なし…」「入れると…外すと…」. Read on masked text
(`textmask.mask`); every pattern is linear.
"""

from __future__ import annotations

import re

from rules.textmask import sentences

#: The same run with and without the suspected element: "with the guard … ; without it …", "unpinned, it …",
#: 「ロックありだと…、なしだと…」「入れると…外すと…」「有効にすると…無効にすると…」.
_WITH = re.compile(
    r"\b(?:with|when|while|holding|taking|keeping|adding|using|enabling|pinning|patched|applied|applying)\b",
    re.I | re.A,
)
#: The element's absent state: "off", "removed", "unset", "bypassed".
_OFF = r"(?:off|disabled|bypassed|removed|absent|unset|reverted|dropped|skipped|released|not held|taken out|left out)"
_WITHOUT = re.compile(
    # Not "on the days without them": days sorted by what happened on them, nothing taken away.
    r"(?<!days )(?<!nights )(?<!weeks )(?<!hours )(?<!shifts )(?<!months )"
    r"\bwithout (?:it|them|that|this|one|the \w+|a \w+)\b|\bun(?:pinned|patched|guarded|locked|fixed)\b"
    # "With the cap: RSS flat. Without: OOM after 2 h": the other run as a label.
    r"|(?:^|[.;]\s*|\n\s*)without(?: (?:it|them|that|this|the \w+|a \w+))?\s*[:：]"
    rf"|\b(?:with|when|if) (?:it|them|the \w+|that|this) (?:(?:is|was|are|were|left|set|turned) )?{_OFF}\b"
    # "…; left as the string, chamber two gets 0 ml": the thing left as it was.
    r"|\bleft (?:as (?:it|they) (?:was|were|is|are)|as (?:the|a|an) \w+|unchanged|alone|as[- ]is)\b",
    re.I | re.A,
)
#: A condition in the negative: 「…しないと」「…なければ」「取らない版では」 (not 「しないといけない」, a duty).
_NEG_COND = (
    "(?:ないと|なければ|ない場合|ないときは|なかったら|なしだと|なしでは|なしの場合"
    "|ない(?:元の|旧)?(?:版|ビルド|状態|設定|構成|方|ほう|実装)(?:では|だと|で|は))(?!いけ|なら|だめ|ダメ)"
)
#: 「あり…なし…」, or a condition in the affirmative set against the same in the negative (「経由だと…経由しないと…」
#: 「入れると…外すと…」), in either order.
_CONTRAST_JA = re.compile(
    # 「範囲チェックあり版では…、なし版では…」: the two builds named by the part they have or lack.
    "(?:あり|有り|有|オン|ON|有効)(?:の)?(?:版|ビルド|構成|設定)?(?:で|だと|では|の場合|にすると|にしたら)[^。]{0,80}?"
    "(?:なし|無し|無|オフ|OFF|無効)(?:の)?(?:版|ビルド|構成|設定)?(?:で|だと|では|の場合|にすると|にしたら)"
    # 「上限あり：…横ばい。なし：…OOM」: the two runs as labels, each with its result.
    "|(?:あり|有り|オン|ON|有効)(?:の)?(?:版|ビルド|構成|設定)?\\s*[:：][^。]{0,160}?。?\\s*[^。:：]{0,30}?"
    "(?:なし|無し|オフ|OFF|無効)(?:の)?(?:版|ビルド|構成|設定)?\\s*[:：]"
    "|(?:[るすくぐむぶつう]と|だと|では|たら|場合(?:は)?|(?:ブランチ|ビルド|版|パッチ|構成)で)[^。]{0,80}?"
    "(?:外す|外した|抜く|抜いた|なくす|無くす|戻す|戻した)"
    "(?:と|場合|ときは|時は|たら)"
    f"|(?:[るすくぐむぶつう]と|だと|では|たら|場合(?:は)?)[^。]{{0,80}}?{_NEG_COND}"
    f"|{_NEG_COND}[^。]{{0,80}}?(?:[るすくぐむぶつう]と|だと|では|たら|場合)"
    # A change set against the thing left as it was: 「変換すると成功し、元のままでは毎回…」.
    "|(?:[るすくぐむぶつう]と|たら|場合(?:は)?)[^。]{0,80}?(?:のまま|そのまま|変更前|修正前)(?:\\([^()]{0,30}\\))?"
    "(?:では|だと|で|の場合)"
    # The old branch failing, the fix's passing: 「main では失敗し修正ブランチでは成功する」.
    "|(?:main|master|修正前|元の(?:ブランチ|ビルド|版))\\s*(?:ブランチ\\s*)?(?:では|で)[^。]{0,40}?(?:失敗|落ち)[^。]{0,40}?"
    "(?:修正|fix)(?:ブランチ|ビルド|版|後)(?:では|で)[^。]{0,20}?(?:成功|通)"
    # The fixed build and the one before, named each: 「修正した版では…起きませんでした。修正前の版では…」.
    "|修正(?:した|後の|済みの?)?(?:版|ビルド|コード)(?:では|で)[^。]{0,120}?修正前の?(?:版|ビルド|コード)?(?:では|で)"
    # A changed build set against the original, either order: 「判定を無効にした版で…、元の版では…」.
    "|(?:た|の)(?:版|ビルド)(?:では|で)[^。]{0,120}?(?:(?:元|変更前|旧|既存)の|のままの)(?:版|ビルド|コード)(?:では|で|だと)"
    "|(?:元|変更前|旧|既存)の(?:版|ビルド|コード)(?:では|で|だと)[^。]{0,120}?(?:た|の)(?:版|ビルド)(?:では|で)",
)
#: The element's two states, each under a condition: "when the cache is bypassed …; when it is on …".
_STATE_ON = re.compile(
    r"\b(?:when|with|if|while)\b[^.;]{0,40}?\b(?:on|enabled|present|applied|held|in place|set|back)\b", re.I | re.A
)
_STATE_OFF = re.compile(rf"\b(?:when|with|if|while)\b[^.;]{{0,40}}?\b{_OFF}\b", re.I | re.A)


#: The element in two states, each with its counted outcome: "Snapping with each berth's own origin let 40 drags …
#: every time; with the shared berth-4 origin the warning was missing in 40 of 40".
_WITH_EACH_WAY = re.compile(
    r"\bwith (?:each|every|its|their|the|a|an)\b[^.;]{3,160}?\d[^.;]{0,80}?;\s*with (?:the|a|an|its|their|each)\b"
    r"[^.;]{3,160}?\d",
    re.IGNORECASE,
)
_BOTH_WAYS = re.compile(
    r"\b(?:both ways|each way|with and without)\b|両方の(?:設定|ビルド|版)で|あり・?なし(?:の)?両方"
    # "Ran the gantry simulation twice, once with `X=0` forced … and once with `=1`".
    r"|\bonce with(?:out)?\b[^.;]{1,140}?\b(?:and|,) once with(?:out)?\b",
    re.I,
)


def with_without(masked: str) -> str | None:
    """A contrast of the run with the element and without it, in one sentence or the next (a semicolon ends a
    sentence here): the shape of an experiment."""
    if (both := _BOTH_WAYS.search(masked) or _WITH_EACH_WAY.search(masked)) is not None:
        return both.group(0)  # "ran a week of readings both ways:", "five runs each way", "with X …; with Y …"
    previous = ""
    for sentence in sentences(masked):
        without = _WITHOUT.search(sentence)
        if without is not None:
            if _WITH.search(sentence, 0, without.start()) is not None or _WITH.search(previous) is not None:
                return without.group(0)
            if _GERUND_START.match(previous) or _GERUND_START.match(sentence):
                return without.group(0)  # "Taking the lock let it survive …; without it …"
        if (ja := _CONTRAST_JA.search(previous + sentence)) is not None:
            return ja.group(0)
        pair = previous + " " + sentence
        if (on := _STATE_ON.search(pair)) is not None and _STATE_OFF.search(pair) is not None:
            return on.group(0)
        previous = sentence
    return None


#: A sentence whose subject is a doing: "Taking the lock let …", "Pinning the consumer kept …".
_GERUND_START = re.compile(r"\s*[A-Z]?[a-z]+ing\b")
