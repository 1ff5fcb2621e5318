"""The words a symptom is said in, in either language: a part that stops, hangs, fails, does not answer or return,
gets lost or runs dry. A cause said only in these words is the symptom again (docs/rules.md#what-each-input-must-state).
Read by `rules.restatement` and `rules.evidence_cause`.
"""

from __future__ import annotations

import re

from rules import english, japanese_symptoms, japanese_verbs

#: A symptom said of another part: it stops, fails or does not answer, match or finish.
SYMPTOM_CAUSE = re.compile(
    r"\b(?:isn't|is not|aren't|are not|wasn't|weren't|doesn't|does not|didn't|did not|won't|never|no longer|stops?"
    r"|stopped) (?:\w+ )?(?:respond|work|load|start|finish|complet|return|connect|sync|match|updat|refresh|render"
    r"|turning|spinning|rotating|moving|running|opening|closing"
    r"|answer|react|reply|progress|leav|exit|boot|come up|come back|recover|releas|unlock|lets? go|letting go)\w*"
    # What it does not answer is part of the symptom: "stops responding to azimuth commands".
    r"(?: to (?:the |its |any |[\w-]+ ){0,3}?(?:Q|commands?|requests?|messages?|calls?|input|queries|pings?|events?))?"
    r"|\b(?:hangs?|hung|freez\w*|froze|crash\w*|lock(?:s|ed)? up|times? out|timed out|timing out|fail(?:s|ed|ing)?"
    r"|deadlock\w*"
    r"|stall(?:s|ed|ing)?|jam(?:s|med|ming)?|seiz(?:es|ed)(?: up)?|stop(?:s|ped)? making progress|makes? no progress"
    r"|livelock\w*|stuck|wait\w* (?:forever|indefinitely)|spins? forever|(?:oom[- ]?)?killed|terminated|evicted"
    r"|exit(?:s|ed)? with|exit code|out of memory|oom|panic\w*|aborts?|aborted|segfault\w*"
    # Lost on the way, said without where or why: "the call gets lost and car 2 never receives it".
    r"|(?:gets?|got|getting) lost|(?:goes|went|going) missing|never (?:receives?|gets?|sees?) (?:it|them|the \w+))\b"
    # Too late, said without why: "doesn't get the buffer to `alsa_write` in time", "the ring runs dry".
    r"|\b(?:doesn't|does not|didn't|did not|can't|cannot|fails? to|failed to) (?:get|deliver|send|write"
    r"|hand|push|return"
    r"|finish|fill|refill|produce)\b[^.;,]{0,50}?\b(?:in time|on time|fast enough|quickly enough)\b"
    r"|\bruns? dry\b|\bstarv\w*"
    r"|\byou hear\b|\byou see\b"
    # Done twice, said without why: "`charge()` being called twice for one wash", 「二重に呼ばれる」.
    r"|\b(?:called|invoked|run|executed|fired|triggered|sent|submitted|processed) (?:twice|two times|more than once)\b"
    r"|(?:二重に|2\s*回|二度)(?:呼ばれ|呼び出され|実行され|送信され|処理され)"
    # Not coping, said of a part without saying how: "cannot handle the file", "not supported by the upload path".
    r"|\b(?:can't|cannot|can not|unable to|fails? to|failed to|doesn't|does not|didn't|did not|isn't able to"
    r"|not able to) (?:properly |correctly )?(?:handle|support|process|deal with|cope with|manage|work with|accept"
    r"|keep up)\b"
    # What it cannot cope with is part of the symptom: "cannot handle berthing windows (that cross midnight)".
    r"(?: (?:the |any |all |a |an |their |its )?(?:[\w-]+ ){0,2}?[\w-]+(?= that\b| which\b|\s*[.;,]|\s*$))?"
    r"|\b(?:isn't|is not|aren't|are not|wasn't|weren't|not) (?:properly |correctly |fully )?(?:handled|supported"
    r"|processed|dealt with)\b"
    r"|(?:一致|応答|反応|動作|接続|完了|同期|更新|返答)(?:し|でき|され)(?:ない|ません|ず|なかった|なくな)"
    r"|(?:動か|終わら|返ら|届か|繋がら|つながら|追いつか|間に合わ|進ま|閉じ|開か|止まら|切れ)(?:ない|ず|なかった|なく)"
    # Judging wrongly, said of a part with no why: 「分類器が誤判定しているため」.
    r"|(?:誤判定|誤検知|誤検出|誤認識|誤動作|誤作動)(?:して(?:いる|います|いた)|する|した)(?=ため|から|ので|$|。)"
    # Not receiving, said of a part with no why: 「ブレーキからの応答を受け取れなくなる」.
    r"|(?:受け取|受信|取得)(?:れ|でき)(?:ない|ず|なかった|なく)"
    # The watchdog firing is the reset again: 「ウォッチドッグがかかる」, "the watchdog kicks in".
    r"|ウォッチドッグ(?:タイマー)?(?:が|に)(?:かか|引っかか|発火|作動)"
    r"|\b(?:the )?watchdog (?:fires|fired|kicks in|kicked in|trips|tripped|bites|bit)\b"
    # Slowness said as time: 「1 周期にかかる時間が長くなる」.
    r"|(?:にかかる)?(?:時間|処理時間|所要時間|周期)(?:が)?(?:長く|遅く)(?:なる|なり|なっ)"
    r"|(?:失敗|フリーズ|ハング|クラッシュ|タイムアウト|デッドロック|パニック)(?:する|した|して|し(?=[、,])|が発生)|(?:落ち|止ま|固ま)(?:る|った|って)"
    # Cut off: 「音が途切れる」「通信が途絶えた」, "the audio cuts out".
    r"|(?:途切れ|途絶え)(?:る|た|て|ます)|\b(?:cuts?|cutting|drops?|dropping|dropped) out\b"
    r"|(?:応答|レスポンス|返事|結果|返り値)(?:が)?(?:返って|戻って|帰って)(?:こない|来ない|きません|こなかった|こず)"
    r"|(?:から)?(?:戻って|返って)(?:こ|来)(?:ない|なく|ず)|戻らな(?:い|く)|(?:応答|レスポンス|返事|結果)(?:を)?返さ(?:ない|なく|ず)"
    r"|(?:処理|対応|扱)(?:でき|え|し)(?:ない|ません|なかった|ず)"
    # Unable to, said of a part without why: 「frame を受け取れなくなっている」「設定を読めない」.
    r"|(?:受け取れ|受信でき|読み取れ|読め|書け|送れ|取得でき|認識でき|検出でき)(?:ない|ず|なかった|なくな|ません)"
    # A resource running short, said without what holds it: 「メモリが足りなくなる」.
    r"|(?:メモリ|容量|ディスク|リソース|バッファ|スレッド|コネクション)(?:が|の)?(?:足りなく|不足(?:し|する)|枯渇|尽き)"
    # A state not reached, said without why: 「リレーが ON にならない」.
    r"|(?:ON|オン|OFF|オフ|有効|無効|点灯|消灯)\s*(?:に|と)?なら(?:ない|ず|なかった|なく)"
    # An HTTP error status returned: 「ゲートウェイが 504 を返していた」.
    r"|(?<![\d.])[45]\d\d\s*(?:エラー)?を返|\breturn(?:s|ed|ing)? (?:an? |the )?[45]\d\d\b",
    re.IGNORECASE,
)


#: When the symptom comes, naming no code: "when the belt speed changes mid-batch" says when, not why.
PLAIN_CONDITION = re.compile(
    r"\b(?:when|whenever|once|while|during|after|that|which"
    # "since the new depot opened": a time, not a reason.
    r"|since (?:the|a|an|we|our) (?:[\w-]+ )?\w+ (?:was|were|opened|went|came|started|arrived|moved))\b"
    r"(?![^.;]*\bQ\b)[^.;]*(?:[.;]\s*)?$"
    # 「ドアを閉めたあとに」: when, in Japanese, naming no code (it leads the clause).
    r"|^[^。、Q]{1,20}?(?:た|る)(?:あと|後|とき|時|際)に(?:は)?",
    re.IGNORECASE,
)
#: A figure that moved, as measured: "throughput dropped from 14 bales an hour to 9" (the symptom, sized).
MEASURED_CHANGE = re.compile(
    r"\b(?:dropped|drops|fell|falls|went down|rose|rises|went up|climbed|increased|decreased|jumped|slid)"
    r" from ~?\d[\d.,]*(?: [\w/%-]+){0,3} to ~?\d[\d.,]*",
    re.IGNORECASE,
)


def only_symptoms(clause: str) -> bool:
    """Whether a clause says a symptom and nothing any element does: 「数日でメモリが足りなくなって給餌が止まる」."""
    if SYMPTOM_CAUSE.search(clause) is None and not japanese_symptoms.symptom_verbs(clause):
        return False
    rest = SYMPTOM_CAUSE.sub(" 、 ", clause)
    return not english.action_verbs(rest) and not japanese_verbs.action_verbs(rest)


#: Something not produced, said of the thing the symptom already lacks: "rows lose their last cell because the
#: embosser doesn't print the last cell".
_NOT_PRODUCED = re.compile(
    r"\b(?:doesn't|does not|didn't|did not|never|fails? to|failed to|won't|can't|cannot)\s+(?:\w+\s+)?"
    r"(?P<what>(?:the |its |their |a |an )?(?:[\w-]+ ){0,3}[\w-]+)",
    re.IGNORECASE,
)
_SMALL_WORDS = frozenset({"the", "its", "their", "a", "an", "of", "to", "in", "on", "it", "them"})


def not_produced_again(effect: str, cause: str) -> bool:
    """Whether the cause says something is not produced, and that thing is what the effect says is missing."""
    m = _NOT_PRODUCED.search(cause)
    if m is None:
        return False
    what = {w.lower() for w in re.findall(r"[A-Za-z]+", m.group("what"))} - _SMALL_WORDS
    return len(what) >= 2 and what <= {w.lower() for w in re.findall(r"[A-Za-z]+", effect)}


#: An error met, said of a part: "hitting `OutOfMemoryError`", "throwing `EPIPE`".
HITTING = re.compile(
    r"\b(?:hitting|throwing|raising|getting|running into|hits|throws|raises)\s+(?:an? |the )?"
    # An error met, or a time limit run into: "hitting the 30 s request timeout" is what failed, not why.
    r"(?:Q|(?:[\d.]+\s*(?:ms|s|sec|seconds?|minutes?)\s+)?(?:[\w-]+\s+)?(?:timeout|time limit|deadline)\b)"
    # "the `InfeasibleLegError` raised from `assign()`": the error met, said the other way round.
    r"|(?:^|(?<=\s))(?:the |an? )?(?:Q|(?:[\w-]+ )?(?:exception|error))\s+(?:raised|thrown)\s+(?:from|by|in|inside)\b"
    r"|例外(?:を|が)?(?:投げ|発生|送出|スロー)",
    re.I,
)
#: A resource running out: what holds it or uses it up is the mechanism, and a size or time it happens at is not.
EXHAUSTED = re.compile(r"\b(?:oom[- ]?kill\w*|out of memory|runs? out of|ran out of|running out of)\b|メモリ不足", re.I)
