"""Two candidate causes left open where one is needed (docs/rules.md#mechanism): "either the GC or the JIT",
"both fit the logs", 「A か B のどちらか」; not a rule of the code that acts on either of two conditions
("flushes when the buffer is full or a second has passed", 「満杯、または 1 秒経過のどちらかで書き出す」).
Read by `rules.evidence_cause`.
"""

from __future__ import annotations

import re

from rules import evidence_words as words
from rules import reading
from rules.evidence_rejected import REJECTED
from rules.evidence_words import any_of, search

#: Two causes offered where one is needed: "either … or …", "both fit".
_ALTERNATIVES_EN = any_of(
    r"\beither\b[^.;]{1,200}\bor\b",
    r"\bboth (?:fit|match|explain|are consistent|are possible|are plausible)\b",
    r"\bone of (?:two|these|the following|several)\b",
    r"\bor (?:maybe|possibly|perhaps|alternatively)\b",
    # "… because X, or because Y": a second cause offered beside the first.
    r"(?<!\bnot )\bor (?:else )?(?:because|due to)\b",
    # "The other explanation that fits the dumps equally well is …": a second candidate kept open.
    r"\b(?:the other|another|an alternative|a second) (?:explanation|candidate|theory|hypothesis|suspect)\b"
    r"|\bfits? (?:\w+ ){0,4}(?:equally|just as) well\b"
    r"|\b(?:haven't|have not|not yet|can't|cannot|couldn't|could not) (?:\w+ )?(?:separated|told apart|distinguished)"
    r" (?:the two|them|both|between)\b",
    # "Two candidates, and the heap dump fits both": candidates counted, or evidence that fits each.
    r"\b(?:two|2|three|3|several|multiple|a couple of|competing) (?:candidates|suspects|possible causes|theories"
    r"|hypotheses|explanations|culprits)\b",
    r"\b(?:fits?|match(?:es)?|explains?|is consistent with|are consistent with|supports?) (?:both|either|all three)\b",
    r"\b(?:haven't|have not|not yet|can't|cannot|couldn't|could not) (?:\w+ )?(?:separated|told apart"
    r"|distinguished|isolated)"
    r" which\b",
    flags=words.EN_FLAGS,
)

#: When the code acts on either condition: 「満杯、または 1 秒経過のどちらかで書き出す」 is a rule of the code.
_WHEN_EITHER_ACTS = (
    # The code's own doing, in the active non-past: not 「いずれかでジョブが二重送信されている」, the symptom.
    "(?:で|の条件で|を満たすと|が成立すると|になると)[^。、]{0,20}?(?<!二重)(?<!重複)(?:書き出|書き込|送信|保存|発火|実行|通知"
    "|切り替え|フラッシュ|トリガ|起動|読み込|開始|終了|処理)(?:します|する|し、|す)"
)
_EITHER = re.compile("(?:の)?(?:どちらか|いずれか)")
_EITHER_ACTS = re.compile(_EITHER.pattern + _WHEN_EITHER_ACTS)
#: Two causes offered where one is needed (ja): "A か B のどちらか", "いずれか".
_ALTERNATIVES_JA = any_of(
    # 「どちらか早い方」 is a rule of the code (whichever comes first), not two candidate causes.
    "(?:の)?(?:どちらか|いずれか|どっちか)(?!一方を|を選|早い|遅い|先|後|大きい|小さい|多い|少ない|一方|"
    + _WHEN_EITHER_ACTS
    + ")",
    # 「`sd_write()` のリトライか、あるいは RTC のドリフトで」: one cause or another, said in words.
    "か[、,]?\\s*(?:あるいは|もしくは|それとも)",
    # 「…ため、あるいは…ためです。どちらもログの形と合っています」: both candidates said to fit.
    "(?:どちらも|両方とも|いずれも)[^。]{0,12}?(?:ログ|症状|データ|挙動|波形|ダンプ|観測|現象)[^。]{0,8}?(?:合って|合う|合い"
    "|説明でき|説明がつ|矛盾し(?:な|ませ)|当てはま)|(?:どちらも|両方とも|いずれも)(?:あり得|ありう|考えられ)",
)
_OR = re.compile(
    r"(?<!\bone )(?<!\bzero )(?<!\bthan )(?<!and/)(?<!\d )(?<!\btwo )\bor\b(?! (?:not|more|less|fewer|later|earlier"
    r"|equal|so|greater|higher|lower|above|below|newer|older|else|otherwise|\d|two|three)\b)(?![^.;]{0,60}\bdepending\b)"
    r"|(?<![\d件秒分回日%])(?:または|もしくは|あるいは|ないしは?)|(?<=[^\s、。])か、(?=[^。]{1,60}?(?:か|どちらか|いずれか)(?:が|の|だ|で|と|、|。|$))",
    re.IGNORECASE,
)
_OR_CONDITION = re.compile(
    r"\b(?:when|whenever|if|unless|while|once|whether|after|before|until|where|each|every|any|either|neither|nor)\b"
    # What the code is meant to do on either: "is supposed to reset on a strike within 10 km or …", 「本来…べき」.
    r"|\b(?:supposed|meant|designed|specified|required) to\b|本来"
    r"|場合|とき|時に|時は|たら|れば|なら|(?<!こ)と、|ごとに|たびに|際に|いずれの|どちらの|どの",  # not 「…こと、」
    re.IGNORECASE,
)


_CANDIDATES = re.compile(
    r"\b(?:cause[sd]?|culprit|reason|responsible|blame|explain\w*|fits?|suspect\w*|whichever|not sure|unclear"
    r"|can't tell|cannot tell|don't know|undecided|candidates?|one of|possib\w+|either|(?:it|this)(?:'s| is| was))\b"
    r"|原因|要因|せい|どちらか|いずれか|可能性|考え|思|不明|特定|による|によるもの",
    re.IGNORECASE,
)


#: The candidates dismissed: "both were ruled out", 「どちらも否定された」.
_RULED_OUT = re.compile(
    r"\b(?:both|neither|each|all of them|none of them)\b[^.;]{0,30}\b(?:ruled out|excluded|eliminated|disproved"
    r"|dismissed|cleared|was it|were it)\b|(?:どちらも|いずれも|両方とも)[^。]{0,20}(?:否定|除外|関係な|無関係|違)",
    re.IGNORECASE,
)


def alternatives(masked: str) -> str | None:
    """Two candidate causes left open, said in words ("either … or", "both fit") or joined by "or" (`_two_causes`);
    none when the candidates were ruled out ("we first suspected the GC or the JIT; both were ruled out"), and no
    "either … or" inside a condition ("when … and either the gate is set or …": a rule of the code)."""
    if search(REJECTED, masked) is not None and _RULED_OUT.search(masked) is not None:
        return None
    alt = search((_ALTERNATIVES_EN, _ALTERNATIVES_JA), masked)
    if alt is not None and alt.lower().startswith("either") and (at := masked.find(alt)) >= 0:
        start = max(0, at - 80, masked.rfind(". ", 0, at) + 1, masked.rfind("。", 0, at) + 1)  # in its own sentence
        alt = None if _OR_CONDITION.search(masked, start, at) else alt
    return alt or _two_causes(masked)


def _two_causes(masked: str) -> str | None:
    """Two alternative causes joined by "or" (または, 「A か、B か」) outside a condition, in a sentence that
    speaks of the cause."""
    for sentence, clauses in reading.by_sentence(masked):
        if _CANDIDATES.search(sentence) is None:
            continue
        for clause in clauses:
            for m in _OR.finditer(clause):
                head = clause[max(0, m.start() - 80) : m.start()]
                if _OR_CONDITION.search(head) is None and not _EITHER_ACTS.match(clause, _or_end(clause, m.end())):
                    return clause[max(0, m.start() - 30) : m.end() + 30].strip()
    return None


def _or_end(clause: str, at: int) -> int:
    """Where the second alternative ends: the first どちらか/いずれか after `at` (or `at` itself)."""
    found = _EITHER.search(clause, at, at + 40)
    return at if found is None else found.start()
