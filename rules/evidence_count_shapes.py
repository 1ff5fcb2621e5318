"""The shapes a count of runs and failures takes in a repro's text, for `rules.evidence_rates` to read: pairs
("3 of 10", 「20 回中 3 回」), rates per ("once every 200 runs"), totals ("ran it 500 times"), failure counts
("failed 4 times"), every run counted ("failed all 10", 「8 回とも」) and every run passed. Every pattern is linear.
"""

from __future__ import annotations

import re
from fractions import Fraction

from rules.evidence_count_words import ABOUT as _ABOUT
from rules.evidence_count_words import FAIL_NOUN as _FAIL_NOUN
from rules.evidence_count_words import FAIL_VERB as _FAIL_VERB
from rules.evidence_count_words import NOT_A_LABEL
from rules.evidence_count_words import NUM as _NUM
from rules.evidence_count_words import REPEAT_NOUN as _REPEAT_NOUN
from rules.evidence_count_words import RUN_NOUN as _RUN_NOUN
from rules.regex_guard import compile_guarded

#: The words every `PAIR` holds: a cheap scan first, so a long text without them costs little.
PAIR_WORD = re.compile(r"\b(?:of|in)\b|/", re.IGNORECASE)
#: "3 of 10", "2 of the last 300 runs", "1 out of every 200", "2/300", "3 in 10 tries", "one run in three".
PAIR = compile_guarded(
    # Not a label's number: "jams on page 2 in 12 of 12 attempts", "step 3 of 10".
    NOT_A_LABEL + rf"(?<![\w.,])(?P<hits>{_NUM})\s*(?:(?:[a-z]+-[a-z]+\s+)?{_RUN_NOUN}\s+|{_FAIL_NOUN}\s+"
    r"|(?:[a-z-]+\s+){1,3}(?=out of))?"
    rf"(?:out of|of|in|/)\s*{_ABOUT}"
    rf"(?P<total>{_NUM})(?![\d.]*\s*(?:%|GiB|GB|MiB|MB|KiB|KB|ms|s|sec|seconds?|minutes?|hours?|days?|lines?|bytes?"
    r"|rows?|records?|items?|nodes?|threads?|cores?|ranks?|workers?|pods?|shards?|users?|files?|pages?"
    r"|outstations?|devices?|tubes?|bits?)\b)(?!\s*(?:の(?!確率|割合|頻度)|に|から|まで|以降|以前|夜|朝|昼|日|[(（](?!\s*\d)))",
    re.IGNORECASE,
)
#: "~30 failures per 100", "once every 200 runs", "one failure per 50 runs", "once in about 1,000".
PER = re.compile(
    rf"(?<![\w.,])(?P<hits>{_NUM})\s*(?:{_FAIL_NOUN}|{_RUN_NOUN}|time)?\s*"
    rf"(?:per|every|each|in every|out of every)\s+{_ABOUT}"
    rf"(?P<total>{_NUM})(?!\s*(?:%|ms|s|sec|seconds?|minutes?|hours?|days?|weeks?|months?)\b)",
    re.IGNORECASE,
)
#: What Japanese counts runs in: 回, or the thing run (「200 ビルド中 3 ビルド」「30 日中 2 日」).
COUNTER_JA = "(?:回|度|件|本|ビルド|ジョブ|ラン|試行|サイクル|バッチ|晩|夜|日|リクエスト|呼び出し|トランザクション)"
#: Japanese pairs: 「20 回中 3 回」「300 回のうち 2 回」「100 回に 1 回」「3/10 回」.
PAIR_JA = re.compile(
    # Not a date: 「4 月 2 日に 1 回」.
    rf"(?<![\d.,])(?<!月)(?<!月 )(?P<total>{_NUM})\s*{COUNTER_JA}(?:ほど|程度|くらい|ぐらい|前後|近く|以上)?"
    r"(?:実行|試行|試験|実施)?"
    rf"(?:中|のうち|では|に|の[^\s、。\d]{{1,10}}?のうち)\s*(?:約\s*)?(?P<hits>{_NUM}|一|二|三)\s*{COUNTER_JA}"
    rf"|(?<![\d.,])(?P<hits2>{_NUM})\s*/\s*(?P<total2>{_NUM})\s*(?:回|件|本|台)"
    # 「30 回やって 7 回、カウントが 91 になりました」: the runs, then how many of them went wrong.
    rf"|(?<![\d.,])(?P<total3>{_NUM})\s*(?P<unit3>回|サイクル|バッチ|ロット|ショット|ジョブ|本)(?:やって|流して|試して|実行して|回して|繰り返して|(?:流|試|実行|繰り返)した(?:ところ|結果)|(?:実行|試行)し(?=[、,])"
    r"|(?!目|中)[\u3040-\u30ff\u4e00-\u9fff]{1,4}?(?:いて|って|して|んで)(?=[、,]|\s*(?:うち\s*)?\d))"
    rf"[、,]?\s*(?:(?:その)?うち\s*)?(?P<hits3>{_NUM})\s*(?P=unit3)(?!\s*(?:とも|すべて|全て|(?:は|が|で)?\s*(?:正常|成功|問題な|OK|通|パス)))"
    # 「棋譜 1000 局を…流したところ、手番がずれたのは 4 局でした」: the things run, then how many went wrong.
    rf"|(?<![\d.,])(?P<total4>{_NUM})\s*(?!月|年|時|分|秒)(?P<unit4>[\u4e00-\u9fff]{{1,2}}|[\u30a1-\u30fa\u30fc]{{1,6}})"
    rf"(?:分を?|を)[^。]{{0,40}}?(?:流|試|実行|回|通|処理)"
    rf"(?:した(?:ところ|結果)[、,]|したら[、,]?)[^。\d]{{0,30}}?(?P<hits4>{_NUM})\s*(?P=unit4)(?!\s*(?:とも|すべて|全て))"
    # 「1000 通中 2 通」「5 バッチ中 2 バッチ」: any counter, the same on both sides.
    rf"|(?<![\d.,])(?P<total5>{_NUM})\s*(?P<unit5>[\u4e00-\u9fff]|[\u30a1-\u30fa\u30fc]{{2,6}})(?:中|のうち)\s*"
    rf"(?P<hits5>{_NUM})\s*(?P=unit5)(?!\s*(?:とも|すべて|全て|(?:は|が|で)?\s*(?:正常|成功|問題な|OK|通|パス|正し)))"
)
#: 「3割」「5割」: tenths.
TENTHS_JA = re.compile(r"(?<![\d.])(\d{1,2}(?:\.\d+)?)\s*割")
PERCENT = re.compile(r"(?<![\d.])(\d+(?:\.\d+)?)\s*(?:%|パーセント|percent)")
#: A verb of doing, in its te-form, right after a count: 「20 回送って」「10 回押して」 (not 「3 回止まって」).
RUN_TE_JA = (
    "(?!目|失敗|落|止|固|停|再現|発生|壊|死|起|出|ずれ)[\u4e00-\u9fff][\u3040-\u309f]{0,2}?(?:って|いて|して|んで|った|いた|した|んだ"
    "|[えけげせてねべめれ][てた])"
)
#: A total: "ran it 500 times", "1000 replays", "over 2,000 iterations", 「1000 回流した」「30 回実行」.
TOTAL = compile_guarded(
    rf"(?<![\w.,/])(?P<n>{_NUM})\s*(?:-\s*)?(?:(?:\w+\s+)?{_REPEAT_NOUN})\b(?!\s*(?:{_FAIL_VERB})\b)"
    rf"|(?<![\d.,])(?P<ja>{_NUM})\s*(?:回|度|サイクル|本)(?:ほど|程度|くらい|ぐらい|前後|近く|以上|連続)?(?:の)?\s*"
    r"(?:実行|試行|試験|テスト|実施|回|流|繰り返|やっ|行|走らせ|ループ|起動|再起動|ビルド|リトライ|再送|送信|リプレイ|再生"
    # 「20 回送って」「10 回押して」: any verb in its te-form right after the count.
    rf"|{RUN_TE_JA})"
    # Each thing replayed is a run: "replayed the 2,400 captured FIX sessions", 「合計 1000 回のうち」.
    rf"|\b(?:replayed|re-?played|played back|re-?ran|reran) (?:the |all |all the |each of the )?(?P<rp>{_NUM})\s+"
    r"(?:[\w-]+\s+){0,3}?[\w-]+s\b"
    rf"|(?<![\d.,])(?P<jt>{_NUM})\s*回(?:の)?(?:うち|中)"
    # "The rig ran 600 insertions overnight": what a harness did, counted, each one a run.
    rf"|\b(?:ran|did|performed|executed|completed|went through) (?:the |all |all the )?(?P<dn>{_NUM})\s+"
    r"(?:[\w-]+\s+)?[a-z-]+s\b"
    # "500 games in all", "1,200 cycles in total": what a run made, counted as a whole, each one a run.
    rf"|(?<![\w.,/])(?P<al>{_NUM})\s+(?:[\w-]+\s+)?[a-z-]+s in (?:all|total)\b"
    # "over the 2,000 recorded November sessions": the sessions run through, each one a run.
    rf"|\b(?:over|across) (?:the |all |all the |each of the )?(?P<ov>{_NUM})\s+(?:[\w-]+\s+){{0,3}}?"
    r"(?:sessions|captures|recordings|traces|inputs|samples|fixtures|seeds|scenarios|games|replays|corpora|files|rounds"
    r"|matches|runs|cycles|passes|trials|attempts|iterations|spins|rides|plays|batches)\b"
    # "Over 400 recalculations the mix came out negative twice": a sentence that starts with the runs counted.
    rf"|(?:^|(?<=[.;:]\s))(?:over|across|in) (?:the |all |all the )?(?P<os>{_NUM})\s+(?:[\w-]+\s+)?"
    r"(?!(?:ms|hours|minutes|seconds|secs|mins|days|weeks|months|years|bytes|kbs|mbs|gbs|records|rows|items)\b)"
    r"[a-z-]{3,}s\b(?=\s*,?\s+(?:the|it|they|we|i)\b)",
    re.IGNORECASE,
)
#: Failures counted: "3 dropped", "failed 4 times", 「失敗は 4 回」; not what runs do ("20 runs finished").
_NEUTRAL = (
    "passed|succeeded|worked|went|ran|were|was|finished|completed|came|got|had|took|did|showed|used|needed|started"
    "|reached|returned|matched|printed|produced|cleared|held|kept|stayed|landed|survived|recorded|logged|seemed"
)
HITS = compile_guarded(
    # Not a model's number after its name: "My own `PulseBand` 3 dropped its stream" (the name masked as Q).
    rf"(?<![\w.,/])(?<!of )(?<!of the )(?<!Q )(?<!Q  )(?P<a>{_NUM})\s*(?:of them\s+|times?\s+)?"
    rf"(?:{_FAIL_NOUN}\b|{_FAIL_VERB}\b)"
    rf"|\b{_FAIL_VERB}\s+(?:it\s+)?(?:in\s+(?=\d+\s*(?:[.;,)]|$|of\b)))?(?:only\s+|just\s+|exactly\s+)?(?P<b>{_NUM})"
    r"(?:\s*times?)?\b"
    r"(?!\s+(?:the|a|an|it|we|i|they|its|our|this|that|Q)\b)"
    r"|\b(?:got|saw|see|seen|observed|had|hit|recorded|counted|caught)\s+(?:only\s+|just\s+|exactly\s+)?"
    rf"(?P<c>{_NUM})\s*(?:[a-z-]+\s+)?(?:{_FAIL_NOUN})\b"
    # "ran it 30 times and counted 11 short payouts": what was counted, in the domain's noun.
    rf"|\b(?:counted|tallied)\s+(?P<ct>{_NUM})\s+(?!(?:pass|success|good|clean|correct|normal|ok|full|right)\w*)"
    rf"(?:[a-z-]+\s+)?(?!{_REPEAT_NOUN}\b)[a-z]+s\b"
    # "I did this 12 times …; all 12 latched": every one of the runs did the thing, in the trade's verb.
    rf"|\ball (?P<al>\d+) (?!{_NEUTRAL}\b)(?!pass|succeed|clean|fine|print|post|process|open|clos|releas|deliver)"
    r"[a-z]+ed\b"
    # "Out of the 500 replays it did that once": the failure said by a pro-verb, then how often.
    r"|\b(?:it|which|the \w+) (?:did|does) (?:that|this|it|so) (?P<dd>once|twice|\d+\s*times)\b"
    # "got the double charge twice", "saw the hang 3 times": what happened, then how often.
    r"|\b(?:got|saw|seen|observed|had|hit|caught|triggered)\s+(?:it\s+|the\s+|a\s+|an\s+)?(?:[\w-]+\s+){0,3}?"
    r"(?P<g>twice|\d+\s*times)\b"
    # "nine runs swung the implement past the line": runs as the subject of what went wrong, in the domain's verb.
    rf"|(?<![\w.,/])(?P<i>{_NUM})\s+(?:runs?|replays?|tries|attempts?|iterations?|boots?|cycles?)\s+(?!{_NEUTRAL}\b)"
    r"[a-z]+(?:ed|ung|ew|oke|ook|ent|ot|ost|ell|oze|uck)\b"
    # "3 runs produced two containers in one slot": what those runs gave, not said to be right.
    rf"|(?<![\w.,/])(?P<i2>{_NUM})\s+(?:runs?|replays?|tries|attempts?|iterations?|cycles?)\s+(?:produced|returned|gave"
    r"|showed|printed|put|assigned|booked)\s+(?!(?:the |a |an )?(?:right|correct|expected|same|clean|valid|good|all"
    r"|every|full|complete|normal|proper)\b)"
    # "11 of those runs posted it twice": a part of the runs just counted.
    rf"|(?<![\w.,/])(?<!every )(?<!each )(?P<h>{_NUM})\s+of\s+(?:those|these|them|the)\b"
    r"(?:\s+(?:runs?|times|attempts|iterations|tries|jobs))?"
    r"|(?:(?:失敗|落ち|エラー|再現|発生|クラッシュ|ハング|タイムアウト|停止|不一致|破損)(?:した|したの|たの|件数|回数)?"
    r"|(?:NaN|nan|エラー|異常|不一致|ゼロ|空)\s*に(?:なった|なる)の)(?:は|が)\s*"
    rf"(?:約\s*)?(?P<d>{_NUM}|一|二|三)\s*(?:回|件|度)"
    rf"|(?:うち|内)\s*(?P<e>{_NUM}|一|二|三)\s*(?:回|件|本)"
    # 「4 回 NaN loss で停止」「7 回で Q が出て」: the count, then what happened in those runs, in one clause.
    rf"|(?<![\d.])(?P<f>{_NUM}|一|二|三)\s*(?:回|度|件)(?!\s*(?:の)?(?:うち|中|も)|\s*{RUN_TE_JA})(?:だけ|ほど|程度|くらい|ぐらい)?(?:は|が|で|、)?"
    r"(?![はがで、]?\s*(?:正常|問題な|無事|成功|通常どおり|予定どおり))[^。、\n]{0,30}?"
    r"(?:失敗|落ち|エラー|再現|発生|クラッシュ|ハング|タイムアウト|止ま|停止|固ま|出[たてるま]|起き|ずれ|壊れ|破損|リセット"
    r"|ダウン|死|異常|欠け|欠落|抜け)",
    re.IGNORECASE,
)
#: Every run counted: "failed all 10", "in every one of 5 runs", 「8 回とも」.
ALL = compile_guarded(
    rf"\b{_FAIL_VERB}\s+(?:in\s+|on\s+)?(?:all|every one of|each of)\s+(?:the\s+)?(?:{_NUM})\b"
    rf"|\b(?:every one|each one|all) of (?:the\s+)?(?:{_NUM})\s+{_RUN_NOUN}\b"
    # "it was rejected all 15 times I tried": a verb, then every run counted.
    rf"|\b(?!(?:pass|succeed|work|complet|finish|clean|accept)\w*)[a-z]+ed all (?:{_NUM}) times\b"
    # "I did it 8 times this morning, 8 rotated": one figure for both; "firmware 3.8.1; all twelve": no sentence end.
    r"|\b(?P<t>\d+) (?:times|runs|attempts|tries|boots|launches)\b(?:[^.;]|\.(?=\d)){0,40}?(?:[,;:]|\band\b)\s*"
    r"(?:all\s+)?(?P=t)\s+"
    # "25 times: 25 double doses": a word may qualify what happened.
    r"(?:of them\s+)?(?:(?!(?:pass|success|succeed|clean|green|fine|good|correct|normal|ok)\w*)[a-z-]+\s+(?=[a-z]))?"
    rf"(?:(?!(?:pass|success|succeed|clean|green|fine|good|correct|normal)\w*)[a-z]+(?:ed|t|s)|{_FAIL_NOUN}"
    r"|(?-i:[A-Z]{2,}s))\b"
    # "I ran it 12 times and it faulted on all 12": any verb, the runs just counted.
    rf"|\b(?:it|they) (?!(?:pass|succeed|work|complet|finish|clean|recover)\w*)[a-z]+ed (?:on|in) (?:all|each of"
    rf"|every one of) (?:the\s+)?(?:{_NUM})(?=\s*(?:[.;,()]|$|{_RUN_NOUN}\b))"
    # "the central station lost the waveform on all 15": a verb and its object, then every run.
    r"|\b(?!(?:pass|succeed|work|complet|finish|clean|recover|show|reach|kept|held|match|stay|return|print|produc"
    r"|record|log|us|need|start)\w*)(?:[a-z]+ed|lost|broke|froze|fell|hung|stuck|threw|blew) (?:the |its |their |a )?"
    rf"(?:[\w-]+ ){{0,2}}?(?:on|in) (?:all|each of|every one of) (?:the\s+)?(?:{_NUM})"
    rf"(?=\s*(?:[.;,()]|$|{_RUN_NOUN}\b))"
    # "… went NaN at step 211 in all 12": the runs just counted, not "in all 12 regions".
    rf"|\bin (?:all|each of|every one of) (?:the\s+)?(?:{_NUM})(?:\s+(?:{_RUN_NOUN})\b|(?=\s*(?:[.;,()]|$)))"
    # Not the items of one run: 「出ると 2 件とも『最高入札者』になります」 (when it shows, both bids do).
    rf"|(?<![\d.,])(?:(?:{_NUM})\s*回|(?<!と)(?<!と )(?<!ら)(?<!ら )(?<!ば)(?<!ば )(?:{_NUM})\s*件)(?:とも|すべて|全て)"
    r"(?!\s*(?:が)?\s*(?:通|成功|パス|正常|問題な|OK))",
    re.IGNORECASE,
)


#: Every run counted passed: "all 5 runs passed", "passed 10/10", 「5 回とも通った」.
PASSED_ALL = compile_guarded(
    rf"\b(?:all|every one of(?: the)?|each of(?: the)?) (?:{_NUM})(?: [\w-]+)? (?:passed|succeeded|went through"
    r"|were (?:fine|clean|green|ok))\b"
    r"|\b(?:passed|succeeded|went green)\s+(?P<p>\d+)\s*/\s*(?P=p)\b|\b(?P<q>\d+)\s*/\s*(?P=q) (?:passed|green"
    r"|clean|ok)\b"
    rf"|(?<![\d.,])(?:{_NUM})\s*(?:回|度)(?:とも|すべて|全て|全部)\s*(?:が)?\s*(?:通|成功|パス|正常|問題な|OK)",
    re.IGNORECASE,
)


#: Runs counted as passing beside a count of runs: "9 finished normally", "9 were clean", 「正常に終わったのは 9 回」.
PASSES = compile_guarded(
    rf"(?<![\w.,/])(?P<a>{_NUM})\s+(?:of them\s+|runs?\s+|times?\s+)?(?:passed|succeeded|went (?:through|green|fine)"
    r"|were (?:clean|fine|ok|okay|green|normal)|came (?:out|back) (?:clean|fine|green|normal|ok)"
    r"|(?:finished|completed|ended|ran) (?:normally|cleanly|clean|fine|ok)"
    r"|[a-z]+ed (?:normally|cleanly|correctly|as expected|as designed))\b"  # "48 stopped normally"
    rf"|(?:正常に?|問題なく|成功し?|通っ|パスし)[^。、\d]{{0,10}}?(?:のは|が)\s*(?P<b>{_NUM})\s*回"
    rf"|(?<![\d.,])(?P<c>{_NUM})\s*回(?:は|が)?\s*(?:正常|成功|問題なく|通[りっ]|パス)",
    re.IGNORECASE,
)


#: What the runs did, then how often, with a verb of any kind: "ran it 500 times and it mis-detected the teat once".
_THEN_COUNTED = (
    r"(?:it|they|the (?:[\w-]+ ){0,2}?[\w-]+)\s+"
    # "the mineral mix came out negative twice": a past tense not in -ed, said of what went wrong.
    r"(?!(?:passed|succeeded|worked|ran|was|were)\b)(?:[a-z][\w-]*ed|broke|froze|fell|blew|stuck|tore|sank"
    r"|came out (?!(?:right|correct\w*|clean|fine|ok|okay|as expected)\b))\b"
    r"[^.;,]{0,50}?\b(?P<n>once|twice|thrice|\d{1,6} times)\b"
)
THEN_COUNTED = re.compile(r"(?:\b(?:and|but|where)\s+|[;,]\s*|^\s*)" + _THEN_COUNTED, re.IGNORECASE)
#: The same, right after the runs counted: "Over 400 recalculations the mix came out negative twice".
THEN_COUNTED_AFTER = re.compile(r"\s*,?\s*" + _THEN_COUNTED, re.IGNORECASE)


#: 「50 回流して、二重引き落としは 21 回でした」: what the runs did, named any way, then how many times.
THEN_COUNTED_JA = re.compile(
    # 「20 回送って停止したのは 6 回で、…」: right after the runs' verb, too.
    "(?:、|^|(?<=[てで]))(?![^。、]{0,40}?(?:正常|成功|問題な|OK|通過|パス|通っ))[^。、]{1,40}?(?:は|が)\\s*(?P<n>\\d{1,6})"
    "\\s*回(?:だけ|のみ|ほど|程度)?(?:でした|です|だった|っす|ありました|発生|出|起き|(?=\\s*[（(]|。|\\s*$)|で(?=[、,]|\\s*$))"
)


#: What the runs of a share did, when it is passing: "most runs finish green", "half the time it's fine".
PASSING_AFTER = compile_guarded(
    r"[^.;,]{0,20}?\b(?:pass\w*|green|fine|ok|okay|clean|succeed\w*|work\w*|complet\w*)\b", re.IGNORECASE
)
#: A share said in words: "every 50th run", "every third run", "a third of the time", "half the runs", "most runs".
SHARE = compile_guarded(
    r"\bevery (?P<ord>\d+(?:st|nd|rd|th)|other|second|third|fourth|fifth|sixth|tenth) (?:run|time|attempt|try"
    r"|iteration|build|night|deploy|boot|start|request|call|job|execution)"
    r"|\b(?:about |roughly |around |nearly |almost )?(?:a |one )?(?P<part>half|third|quarter|fifth|tenth) (?:of )?"
    r"(?:the )?(?:time|runs?|attempts?|tries|iterations?|builds?|nights?|deploys?|boots?|starts?|jobs?|executions?)\b"
    r"|\b(?P<most>most) (?:of the )?(?:time|runs?|attempts?|tries|nights?|builds?)\b",
    re.IGNORECASE,
)
#: 「半分くらいの確率で」「3 分の 1 の確率」: a share in Japanese.
SHARE_JA = re.compile(
    rf"(?P<half>半分|半数)(?:くらい|ぐらい|ほど|程度)?(?:の)?(?:確率|割合|頻度|回数|実行|回)"
    rf"|(?<![\d.,])(?P<den>{_NUM}|二|三|四|五|十)\s*分の\s*(?P<num>{_NUM}|一|二|三)"
)
SHARES = {
    "other": Fraction(1, 2),
    "second": Fraction(1, 2),
    "half": Fraction(1, 2),
    "third": Fraction(1, 3),
    "quarter": Fraction(1, 4),
    "fourth": Fraction(1, 4),
    "fifth": Fraction(1, 5),
    "sixth": Fraction(1, 6),
    "tenth": Fraction(1, 10),
    "most": Fraction(2, 3),
}


#: Every run said after a pair ("… in 0 of 8 attempts and stayed dark each time"); a failure word before it.
EACH_TIME = re.compile(r"\b(?:each|every) (?:single )?(?:time|run|attempt)\b|毎回|いずれも", re.IGNORECASE)
FAILED_WORD = re.compile(rf"\b(?:{_FAIL_VERB}|{_FAIL_NOUN})\b", re.IGNORECASE)
#: A pass verb governing a pair: "finishes cleanly in 20 tries out of 20", "20 of 20 imports went through".
_PASS_BEFORE = re.compile(
    r"\b(?:pass(?:ed|es)?|succeed(?:ed|s)?|(?:finish|complet)(?:ed|es)? (?:the [\w-]+ |it )?(?:cleanly|fine|normally|ok"
    r"|without \w+)"
    r"|ran (?:clean(?:ly)?|fine)|work(?:ed|s) (?:fine|correctly|normally)"
    # "came through cleanly in 39 of the 40", "got through fine on 19 of 20".
    r"|(?:came|comes|got|gets|went|goes|made it) (?:through|across|home|back) (?:clean(?:ly)?|fine|ok|okay|normally))"
    r"\s+(?:in|on|for|across)?\s*$",
    re.IGNORECASE,
)
_PASS_AFTER = re.compile(
    r"\s*(?:[a-z-]+\s+){0,2}?(?:passed|succeeded|went through|(?:finished|completed|ran) (?:cleanly|fine|normally)"
    r"|(?:were|was) (?:fine|clean|green|ok)|came out (?:right|fine|clean))\b",
    re.IGNORECASE,
)


def counts_passes(sentence: str, start: int, end: int) -> bool:
    """Whether the pair at [start, end) counts runs that passed, not ones that failed."""
    return bool(_PASS_BEFORE.search(sentence, max(0, start - 40), start) or _PASS_AFTER.match(sentence, end))
