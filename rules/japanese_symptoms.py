"""Japanese symptoms where a cause should be, read with the analyser (docs/rules.md#mechanism): the verbs of a
clause that only say something failed, ran short or happened (落ちる, 足りない, 発生する, おかしな値を返す), and the
predicate of 「…のが原因」 when it is such a verb (「panic するのが原因」「OOM になったのが原因」).
"""

from __future__ import annotations

import re

from rules import japanese_verbs
from rules.japanese import JA_RE, analyse, pieces
from rules.japanese_verbs import FAILURE_VERBS, SYMPTOM_VERBS, produces_symptom
from rules.textmask import MASKED_CODE

#: Verbs of SYMPTOM_VERBS that only link or state: a clause with them alone says nothing went wrong.
_NEUTRAL_JA = frozenset({"成る", "為る", "有る", "居る", "見える", "思う", "考える", "言う", "繋がる", "引き起こす"})


def symptom_verbs(text: str) -> list[str]:
    """The verbs of a clause that describe a failure, a shortage or a fault happening (落ちる, 足りない, 発生する)."""
    found: list[str] = []
    for words in pieces(text):
        for i, w in enumerate(words):
            if w.pos != "動詞":
                continue
            lemma = (
                words[i - 1].lemma
                if w.lemma == "為る" and i > 0 and words[i - 1].pos in ("名詞", "接尾辞")
                else w.lemma
            )
            if (lemma in SYMPTOM_VERBS or lemma in FAILURE_VERBS) and lemma not in _NEUTRAL_JA:
                found.append(lemma)
            elif produces_symptom(words, i, lemma):
                found.append(lemma)  # 「おかしな値を返す」: handing out the symptom
    return found


#: A cause named by a nominalised clause: 「…のが原因」「…ことが原因です」.
_CAUSE_NOUN = re.compile("(?:の|こと)(?:が|は)?(?:原因|要因|真因|根本原因)")
#: What a failure becomes: 「OOM になった」「0 件になる」 say what was seen.
_SYMPTOM_STATE = re.compile(
    "OOM|エラー|タイムアウト|デッドロック|ハング|クラッシュ|フリーズ|例外|異常|失敗|メモリ不足|パニック|panic|停止|無応答"
    "|応答なし|NaN|(?i:nan\\b|inf\\b)|(?i:hard ?fault|bus ?fault|usage ?fault|watchdog|wdt)|ハードフォールト"
    "|スタックオーバーフロー"
    "|オーバーフロー"
    "|リセット|再起動|リブート|足りな|不足",
    re.IGNORECASE,
)
_LATIN_SYMPTOM = re.compile(
    r"(?:panic|crash|hang|freeze|stall|fail|abort|timeout|deadlock|oom|segfault|error|hardfault|fault)\w*",
    re.IGNORECASE,
)


#: 「原因は…になったことです」: the cause named first, then a state reached (what was seen, not why).
_CAUSE_IS = re.compile(
    "原因は[、,]?\\s*([^。]{1,60}?(?:(?:に|と|く)な(?:った|る)|(?:落ち|止ま|固ま)(?:る|った)|(?:クラッシュ|ハング|フリーズ)(?:する|した)))"
    "(?:こと|の)(?:です|だ|でした|である)"
)


#: 「プロセスが OOM killer に kill されたことが原因で」: being killed, named as the cause.
_KILLED_IS_CAUSE = re.compile(
    "(?:(?i:oom|kill)|キル|強制終了|クラッシュ|落ち|落とされ|停止)\\s*(?:され|させられ|し)?た(?:こと|の)(?:が|こそが)(?:原因|要因)"
)
_RETURNS_IS_CAUSE = re.compile("Q\\s*を返(?:す|した|している)の(?:が|は)(?:原因|要因)")


def cause_named_symptom(text: str) -> str | None:
    """「原因は、勾配が NaN になったことです」: the cause named, and it is a state the symptom reached."""
    named = _CAUSE_IS.search(text)
    if named is not None and _SYMPTOM_STATE.search(named.group(1)):
        return named.group(0)
    if (killed := _KILLED_IS_CAUSE.search(text)) is not None:
        return killed.group(0)
    returned = _RETURNS_IS_CAUSE.search(text)  # 「Q が Q を返すのが原因で」: an error code returned, no condition
    return returned.group(0) if returned is not None and not re.search("場合|とき|時に|たら|れば", text) else None


def symptom_as_cause(sentence: str) -> str | None:
    """The predicate of 「…のが原因」 when it is only a symptom (落ちる, panic する, OOM になる): the words, or None."""
    if (named := cause_named_symptom(sentence)) is not None:
        return named
    m = _CAUSE_NOUN.search(sentence)
    if m is None or not JA_RE.search(sentence):
        return None
    head = sentence[max(0, m.start() - 80) : m.start()]
    words = analyse(head)
    for i in range(len(words) - 1, -1, -1):
        w = words[i]
        if w.pos == "助動詞" or (w.pos == "動詞" and w.pos2 == "非自立可能" and w.lemma in ("居る", "仕舞う", "来る")):
            continue
        if w.pos == "助詞" and w.lemma == "て":
            continue  # 「クラッシュしているのが原因」
        if w.pos != "動詞":
            return None
        before = words[i - 1] if i > 0 else None
        lemma = before.lemma if w.lemma == "為る" and before is not None else w.lemma
        shown = "".join(x.surface for x in words[max(0, i - 3) : i + 1])
        if w.lemma == "為る":  # 「タイムアウトする」: the noun before する, read whole (タイム + アウト)
            # 「再起動する」: the prefix 再 is read with its noun (再 + 起動)
            nouns = "".join(x.surface for x in words[max(0, i - 3) : i] if x.pos in ("名詞", "接頭辞"))
            near = words[max(0, i - 3) : i]
            if (
                nouns
                and _SYMPTOM_STATE.search(nouns)
                and words[i - 1].pos == "名詞"
                and all(x.surface != "を" for x in near)
            ):
                return shown  # not 「カウンタをリセットする」: an element acting on something
        if lemma == "成る":
            noun = "".join(x.surface for x in words[max(0, i - 3) : i])
            return shown if _SYMPTOM_STATE.search(noun) else None
        symptom = lemma in SYMPTOM_VERBS or lemma in FAILURE_VERBS or _LATIN_SYMPTOM.fullmatch(lemma) is not None
        return shown if symptom and lemma not in ("為る", "有る", "居る") else None
    return None


#: Something not updated, sent or saved: 「読み取り値が更新されない」「通知が届かない」.
_NOT_UPDATED = re.compile(
    "(?:更新|反映|同期|送信|通知|保存|書き込|読み込|受信|取得)(?:され|が|も|でき|し)?(?:て)?(?:い)?(?:ない|ず|ません|なかった|なく)"
    "|届か(?:ない|ず)"
)


def not_updated(cause: str) -> str | None:
    """The rest of a cause that says something is not updated (or sent, saved), said of no element in code; None
    when it says no such thing or names the code that fails to do it (「`put()` が TTL を更新しない」)."""
    if _NOT_UPDATED.search(cause) is None or MASKED_CODE.search(cause):
        return None
    return _NOT_UPDATED.sub(" 、 ", cause)


#: Slowness said in Japanese, as growth or as a time passed: 「応答が遅くなって」「3 秒を超える」「40 分かかる」.
_SLOWER = re.compile(
    "(?:応答|処理|処理時間|実行時間|所要時間|時間|レスポンス|返答|返事)?(?:が)?(?:遅く|長く)(?:なる|なり|なっ(?:て|た)?)"
    "|(?<![\\d.,])\\d[\\d.,]*\\s*(?:ms|ミリ秒|秒|分|時間|s)\\s*(?:を|も|以上)?(?:超え|越え|上回|かか)(?:る|て|った|り)?"
)


def slowness_only(cause: str) -> bool:
    """A cause that only says something got slow or took longer than a time: 「応答が遅くなって 500 ms を超える」."""
    if _SLOWER.search(cause) is None:
        return False
    return not japanese_verbs.action_verbs(_SLOWER.sub(" 、 ", cause))
