"""What a root cause says beside its mechanism, which is no mechanism itself (docs/rules.md#mechanism): a workaround
that makes the symptom go away for a while, a plan, when or how the symptom was seen, and the link words a mechanism
said after a symptom needs.
Read by `rules.evidence_cause`.
"""

from __future__ import annotations

import re

from rules import reading
from rules.regex_guard import compile_guarded

#: A sentence that links a cause to an effect: what a mechanism said after a symptom needs.
LINK = re.compile(
    r"\b(?:because|since|so|therefore|causing|causes|caused|leads? to|led to|results? in|resulted in|which (?:is why"
    r"|causes|makes|means|leads)|when|whenever|if|unless|until|before|after)\b|(?<!\d)(?<!\d )(?:->|→)(?!\s*\d)"
    # から after a predicate is "because"; 「担当者からは」 is only "from".
    r"|ため|ので|(?:[るたいだ]|です|ます)から|により|によって|せいで|結果|場合|とき|時に|と、|たら|れば",
    re.IGNORECASE,
)
#: Where something lives, said of no wrong: "song-to-song state is kept in `PitchEngine`" names a place, not what in
#: it goes wrong (read after a cause that is none).
LOCATION = re.compile(
    r"^\W*(?:the |all |our )?(?:[\w-]+ ){0,3}(?:is|are) (?:kept|stored|held|handled|managed|owned|tracked|cached"
    r"|computed|implemented|done|set|configured|defined|read|loaded) (?:in|by|inside|from|within)\b[^,;]*[.。]?\s*$"
    # "The reassignment itself goes through `assign_flight()` on the ops console": the route, no wrong in it.
    r"|^\W*(?:the |all |our )?(?:[\w-]+ ){0,3}(?:goes|go|passes|runs|is routed) (?:through|via)\b[^,;]*[.。]?\s*$"
    # "The rounding code lives in `level_cfg.c`": where the code is, no wrong in it.
    r"|^\W*(?:the |all |our )?(?:[\w-]+ ){0,3}(?:lives?|sits?|resides?|is located) (?:in|inside|under)\b"
    r"[^,;]*[.。]?\s*$"
    r"|^[^、。]{0,40}(?:は|が)[^、。]{0,30}(?:で|に)(?:保持|管理|保存|実装|処理|設定)(?:されて|して)(?:い)?(?:ます|る)[。]?\s*$"
    # 「`height_calc()` の入力はヘッドから来ています」: where a value comes from, no wrong in it.
    r"|^[^、。]{0,40}(?:入力|出力|値|データ)(?:は|が)[^、。]{0,20}?から(?:来|渡され|入っ)て(?:い)?(?:ます|る)[。]?\s*$",
    re.IGNORECASE,
)
#: What makes the symptom go away for a while: "restarting `gate-agent` clears it", 「再起動すると復旧します」.
WORKAROUND = compile_guarded(
    r"\b(?:restart|reboot|power[- ]cycl|re-?seat|unplug|replug|kill|bounc|redeploy|reinstall|reload|re-?login|log"
    r"(?:ging)? out)\w*\b[^.;]{0,60}?\b(?:clears?|cleared|fix(?:es|ed)?|resolves?|resolved|recovers?|recovered"
    r"|unsticks?|gets? it (?:going|back|working)|brings? it back|makes? it go away|works? around)\b"
    r"|(?:再起動|リブート|リセット|電源を?(?:入れ直|切り直|再投入)|抜き差し|再ログイン|再接続|再デプロイ)(?:する|し|すれば|したら|すると)"
    r"[^。]{0,20}?(?:復旧|直り|直る|直ります|回復|解消|戻り|戻る|戻ります|動き出|治り|治る)"
    # 「開始時刻を 1 時間早めて回避している」, "we work around it by starting earlier": a workaround said as one.
    r"|(?:て|で)回避(?:して|し|する|中|しています)|\bwork(?:ing|ed|s)? around (?:it|this|that|the)\b"
    r"|\bworkarounds?\b|\bstop-?gap\b|ワークアラウンド|回避策|暫定(?:対応|対策|措置)"
    # A restart on a schedule: "we restart the service every 2 hours for now", 「毎朝再起動している」.
    r"|\b(?:restart|reboot|power[- ]cycl|reset|bounc)\w* (?:the |it |them )?[\w -]{0,30}?(?:every|each|nightly|daily"
    r"|hourly|for now)\b|\buntil (?:this|it|the (?:bug|issue|fix)) (?:is|gets) (?:fixed|in|merged|deployed)\b"
    r"|(?:毎朝|毎晩|毎日|定期的に|(?<!\d)\d+\s*時間(?:ごと|おき)に)[^。]{0,10}?再起動",
    re.IGNORECASE,
)


#: An idea put forward, not what goes wrong: 「GPU を増やす案も出ましたが」, "someone suggested more nodes".
PROPOSAL = compile_guarded(
    r"\b(?:suggested|proposed|floated|an idea|the idea was)\b|案(?:も|が)?出|提案|検討(?:中|します|する予定)"
    # Someone wondering: "Jamal wonders if the reader firmware is involved too", 「…のではと気にしています」.
    r"|\b(?:wonders?|wondered|wondering|asks?|asked) (?:if|whether)\b"
    r"|(?:のでは|かどうか)と?(?:気にして|心配して|聞かれ)",
    re.IGNORECASE,
)


def planned(clause: str) -> bool:
    """A plan ("we plan to add a watchdog next sprint", 「増設する予定です」) says nothing of what goes wrong."""
    found = reading.not_done(clause)
    if found is None or found[0] != "planned":
        return False
    # In Japanese only a clause that ends as a plan: 「後で」「次回」 also name times inside a mechanism.
    return found[1].isascii() or _PLAN_END_JA.search(clause) is not None


_PLAN_END_JA = re.compile("(?:予定|つもり|計画)(?:です|だ|である)?[。.]?\\s*$")


def bracket_around(text: str, at: int) -> tuple[int, int] | None:
    """The span of the bracketed aside that holds position `at` ("… pull/1301 (#1290 was closed) …"), or None."""
    opened = max(text.rfind("(", 0, at), text.rfind("（", 0, at))
    if opened < 0 or max(text.rfind(")", opened, at), text.rfind("）", opened, at)) >= 0:
        return None
    closed = [i for i in (text.find(")", at), text.find("）", at)) if i >= 0]
    return (opened, min(closed) + 1) if closed else None


_THE_BUG = r"^\W*(?:it|this|the (?:bug|issue|problem|fault|symptom)) "
#: When or how often the symptom comes, not why: 「変更したときに発生します」「3 月の繁忙期に多発しました」.
WHEN_IT_HAPPENS = re.compile(
    r"(?:とき|時|際|と|たら|後)に?(?:は)?(?:必ず|毎回)?(?:発生|起き|起こ|再現|出)(?:します|する|ます|る|ました|ています)[。.]?\s*$"
    r"|(?:多発|頻発|続発|集中)(?:し(?:ました|ます|た|ている|ています|ていました)|する)[。.]?\s*$"
    rf"|{_THE_BUG}(?:only |mostly |mainly |often |usually )?(?:happens|occurs|shows up|appears|recurs) (?:when"
    rf"|whenever|after|if|on|around|near|at|during)\b"
    rf"|{_THE_BUG}(?:mostly |mainly |often )?(?:happened|occurred|showed up|peaked|clustered)"
    r" (?:during|in|around|over)\b",
    re.IGNORECASE,
)
#: How the failure was seen, not what goes wrong: 「朝の点検で気づきます」, "dmesg に `Out of memory…` が出ていました",
#: "the log shows `OOM killed`".
SEEN = re.compile(
    r"気づ|気付|見つかった|見つかりました|発見され|Q\s*(?:と|って)(?:表現|形容|呼んで)"
    r"|(?:ログ|dmesg|syslog|journal|履歴)[^。]{0,20}?(?:に|で|には)[^。]{0,60}?(?:出て|出力され|記録され|残って)"
    r"|\b(?:noticed|spotted|found out|we find out|discovered|(?:was|were) on call|on-call)\b|当番|オンコール|目立"
    r"|\b(?:the )?(?:logs?|dmesg|syslog|journal) (?:shows?|showed|says|said|has|had|reads?)\b",
    re.IGNORECASE,
)
#: The fault placed, not said: "so the regression is in how `draw_next()` consumes the driver", "is where the
#: numbers come from", 「問題は `f()` の…の仕方にある」.
PLACE_ONLY = re.compile(
    r"^\W*(?:and |so |but )?(?:the |this |that |our )?(?:regression|bug|problem|issue|fault|defect|error|culprit"
    r"|breakage)\s+(?:is|lies|must be|has to be|should be|sits)\s+(?:somewhere\s+|probably\s+)?(?:in|inside|within)"
    r"\s+(?:how|the way|what|where|whatever)\b(?![^:：;—]*[:：;—])"
    r"|^\W*(?:and |so |but )?Q\s+is (?:where|what) (?:the |our )?[\w-]+ (?:comes?|are|is) (?:from|in|read|computed|made"
    r"|produced|generated)\b[^:：;—]*$"
    # "`belt_drive.c` drives the motor": the part's role, nothing wrong in it.
    r"|^\W*Q\s+(?:drives|controls|handles|owns|manages|operates|runs|is responsible for|talks to|feeds) (?:the |all )?"
    r"(?:[\w-]+ ){0,2}[\w-]+\W*$"
    r"|^\W*Q\s+is (?:the )?(?:[\w-]+ )?(?:component|module|part|piece|function|class|service|code|library|driver)"
    r" (?:involved|affected|at fault|responsible|in question|concerned)\b"
    r"|^\W*the (?:code|module|component|file|function|part) (?:involved|affected|in question) is Q\b"
    r"|^[^、。]{0,10}(?:問題|不具合|バグ|原因)は[^。]{0,40}?(?:の)?(?:仕方|やり方|扱い方|扱い|あたり|周り|辺り)に(?:ある|あります)"
    r"(?:[。.]?\s*)$",
    re.IGNORECASE,
)
#: The writer's own trial, not the code's doing: "We swapped the maglock for a spare and it still happened".
OWN_TRIAL = re.compile(
    r"^\W*(?:so |and |then |but )?(?:we|i) (?:also |then |first )?(?:swapped|replaced|tried|ran|re-?ran|restarted"
    r"|rebooted|reseated|re-?flashed|moved|reinstalled|power-cycled|unplugged|checked|tested)\b"
    r"(?![^.;]*\b(?:that|which|because|showed|shows|found)\b)"
    # 「ドライバ IC を交換しても症状が変わらなかった」: a part swapped, the symptom the same.
    r"|(?:交換|入れ替え|差し替え|取り替え)(?:し)?ても[^。]{0,20}?(?:変わらな|同じ|直らな)"
    # 「二回目の加算のときに起きることは、三人で確認しました」: when it comes, and who confirmed that.
    r"|(?:^|(?:とき|時|際|場合)に(?:は)?(?:必ず|毎回)?(?:発生|起き|起こ|再現|出)る(?:こと|の)(?:は|を)、?)\s*"
    r"[^。、]{0,12}?(?:で|が|も)確認(?:しました|した|済みです|済み|できました|しています)[。.]?\s*$",
    re.IGNORECASE,
)
#: Something ruled out, and nothing said of what goes wrong: "so it isn't the hardware", 「ハードの問題ではない」.
RULES_OUT = re.compile(
    r"^\W*(?:so |and |but )?(?:it|this|that)(?:'s| is| was)(?:n't| not) (?:the |a |an )?[\w-]+(?: [\w-]+)?\W*$",
    re.IGNORECASE,
)


#: A sentence that opens with what followed from the one before: after a correlation, its verbs are the effect.
CONSEQUENCE_FIRST = re.compile(
    r"\W{0,3}(?:そのせいで|そのため|このため|それで|結果(?:として)?、|その結果|so\b|therefore\b|as a result\b|hence\b"
    r"|that's why\b|which is why\b|this is why\b|because of (?:this|that)\b|when (?:that|this|it) happens\b"
    r"|[^、。\s]{1,12}\s*の(?:あと|後)(?:は|に|で|、)|after (?:that|this|it)\b"
    # 「これを受けてライン制御が停止し」「502 を受けた `RoutePlanner` は」: what reacts to the cause given.
    r"|(?:これ|それ|この(?:エラー|例外|応答|結果)|その(?:エラー|例外|応答|結果))(?:を受けて|で|により|によって)、?"
    r"|[^、。\s]{1,12}\s*を受け(?:た|取った|ると|て))",
    re.IGNORECASE,
)
#: A sentence that only names a kind of bug and its place: 「`SoilProbeAgent` のメモリ管理の不具合です」.
KIND_ONLY_JA = re.compile(
    # 「…ずれるので、時刻処理の問題です」「…のは、時刻処理の問題です」: the symptom, then only a kind.
    r"\s*(?:[^。Q]{0,200}?(?:ので|ため|から|のは)\s*[、,]\s*)?"
    r"(?:Q\s*の\s*)?[^。、]{0,15}?の(?:不具合|問題|バグ|欠陥)(?:です|でした|だ|である)[。.]?\s*$"
)


#: The check that would confirm it, still waiting on something: "Confirming it needs the TSAN build".
CONFIRMING_NEEDS = re.compile(
    r"\b(?:confirming|verifying|proving|checking|testing) (?:it|this|that|the (?:theory|hypothesis|cause))\b"
    r"[^.;]{0,40}?"
    r"\b(?:needs|requires|will need|is waiting|waits|depends on)\b"
    r"|(?:確認|検証|裏付け)(?:に|には|するには)[^。]{0,30}?(?:必要|待ち|待って)"
    # "Tomorrow's ingest runs with `TLE_DEBUG=1` to confirm it": the confirming run is still ahead.
    r"|\b(?:tomorrow|tonight|next week|next \w+day)(?:'s)?\b[^.;]{0,60}?\bto (?:confirm|verify|prove|check)"
    r"(?: (?:it|this|that))?(?:$|[.;])"
    r"|\b(?:goes (?:onto|on to|into) [^.;]{0,40}?\b(?:tonight|tomorrow)|is next on (?:the|my|our) list)\b[^.;]{0,20}?"
    r"\bto (?:confirm|verify|prove|check)\b"
    r"|\b(?:nobody|no one|none of us) has (?:[\w-]+ ){0,6}?to (?:check|confirm|verify|prove|test)\b"
    # "A HIL run with a delayed meter is booked for Thursday": the run that would show it is still ahead.
    r"|\b(?:run|test|check|experiment|repro|replay|bisect)\b[^.;]{0,40}?\b(?:is|are) (?:booked|scheduled|planned)"
    r" for\b",
    re.IGNORECASE,
)
