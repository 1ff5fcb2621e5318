"""The phrases of the evidence gate about what was run, en and ja: a repro that does not reproduce on demand, and a
validation that is pending or only hoped for (what stands in for one and what passes: `rules.evidence_pass`)."""

from __future__ import annotations

import re

from rules.evidence_checks import RUN_UNTIL_EN, RUN_UNTIL_JA
from rules.evidence_words import EN_FLAGS, SCOPE_AFTER, any_of

#: After a frequency word, a verb of use: "a rarely used option", 「まれにしか使われない機能」 (how often it is used).
_USED_EN = (
    r"(?![ -](?:used|called|invoked|visited|accessed|touched|enabled|selected|chosen|exercised|configured|opened"
    r"|clicked|edited|changed|set)\b)"
)
_USED_JA = "(?!(?:しか)?(?:使|呼ば|呼び|選|触|利用|アクセス|押|参照|開か|操作|実行され|設定され|変更され))"

#: Not on demand: sometimes, rare, once, a customer report, no repro (docs/rules.md#four-inputs-or-no-post-mortem).
NOT_ON_DEMAND = (
    any_of(
        r"\bsometimes\b" + _USED_EN,
        r"\bintermittent\w*",
        r"\brandomly\b",
        r"\bat random\b",
        r"\brandom (?:failures?|crash(?:es)?|hangs?|errors?|timeouts?)\b",
        r"\boccasional(?:ly)?\b" + _USED_EN,
        r"\bsporadic\w*",
        r"\bflak(?:y|iness|es)\b",
        r"\bnow and then\b",
        r"\bfrom time to time\b",
        r"\bevery (?:now and then|so often)\b",
        r"\bonce in a (?:while|blue moon)\b",
        # The rest of the adverbs of rarity: "now and again", "at times", "on occasion", "off and on", "the odd run".
        r"\b(?:now and again|at times|on occasion|off and on|on and off|here and there|in rare cases"
        r"|some of the time|more often than not|in some runs|some runs)\b",
        r"\bthe odd (?:run|time|build|night|attempt|boot|job|request)\b",  # and "some evenings", "most mornings":
        r"\b(?:some|most|many|other) (?:mornings|evenings|nights|days|afternoons|weekends|sessions|shifts)\b",
        r"\bhit[- ]or[- ]miss\b",
        RUN_UNTIL_EN,
        r"\bhard to (?:reproduce|repro|trigger|hit)\b",
        r"\bnon-?deterministic\w*",
        r"\bunreliabl[ey]\b",
        r"\bnot (?:every|all|each)\b",
        # Every run denied: "does not happen on every run", "not something that fails every time", and far from its
        # verb, "It doesn't, I checked this over two afternoons, happen on every job".
        r"(?:\b(?:doesn't|does not|didn't|did not|won't)(?:\s+|,[^.;]{1,80}?,\s*)|\b(?:isn't|is not),[^.;]{1,80}?,\s*"
        r"|\bnot (?:[\w-]+ ){1,4}?)(?:happen|occur|fail|reproduce|show up|trigger|crash|hang|repro|break)\w*\s+"
        r"(?:on |in |for |with |at )?(?:every|each|all)\b",
        # "it doesn't do this every time", "I'm not going to pretend it does this every time": denied, disowned.
        r"\b(?:doesn't|does not|didn't|did not|won't|will not) (?:do|repeat|show) (?:this|it|that)\b(?: \w+)?"
        r" (?:on )?(?:every|each) (?:single )?(?:time|run|attempt|try|pass|cycle)\b",
        r"\b(?:not (?:going to |gonna )?|(?:can't|cannot|won't|wouldn't) )(?:pretend|claim|say|promise|swear|guarantee)"
        r"(?: that)? (?:it|this|that)\b[^.;]{0,30}?\b(?:every (?:single )?(?:time|run)|each time|always)\b",
        r"\bheisenbug\b",
        # A count per period of time is how often it happened, not a rate over runs.
        r"\btimes (?:a|per|each|every) (?:day|week|month|year|night|quarter|sprint|shift)\b",
        # Failures counted per period from telemetry: "about a dozen crashes a week", "40 errors per day" (the noun
        # first: a pattern led by a digit would be tried at every figure of a long text).
        r"\b(?:crash(?:es)?|errors?|failures?|reports?|incidents?|hangs?|tickets?|occurrences?|exceptions?)"
        r" (?:a|per|each|every) (?:day|week|month|night|hour|quarter)\b"
        r"|\b[a-z][\w-]*s (?:a|per|each|every) (?:day|week|month|shift)\b",  # "… transactions a week"
        r"\b(?:not sure|unclear|unknown|no idea|(?:don't|do not|didn't) know) (?:what|which|how|when|why)\b"
        r"|\b(?:conditions?|triggers?) (?:is |are )?(?:unclear|unknown|not (?:clear|known))\b",
        r"\bnot (?:every time|always|consistently|reliably)\b",
        # Not "how seldom anyone flips the interlock": how often the trigger is done, not how often it fails.
        r"(?<!how )\b(?:rare|rarely|seldom|hardly ever|almost never|infrequent(?:ly)?)\b" + _USED_EN,
        r"\b(?:once|twice|a few times|several times|a couple of times) (?:a|per|every) (?:few |couple of )?"
        r"(?:hours?|days?|weeks?|months?|years?|nights?|shifts?|(?:[\w-]+ )?sessions?)\b",
        r"\bevery (?:few |couple of |other )?(?:days?|weeks?|months?|nights?)\b",
        r"\bonce (?:every|in|per) (?:a few|several|many|a couple of|some) (?:runs?|tries|times|attempts|builds)\b",
        r"\b(?:happened|occurred|seen|saw|observed|hit|reported|appeared|noticed) (?:it )?(?:only )?(?:twice|two times"
        r"|three times"
        r"|a few times|a couple of times|a handful of times)\b",
        r"\b(?:trigger|steps|repro)s? (?:is |are )?(?:unknown|unclear|tbd)\b",
        r"\b(?:happened|occurred|seen|saw|observed|hit|reported|appeared|triggered|failed|crashed|hung|fired|spotted"
        r"|noticed|reproduced) (?:it )?(?:only |just |exactly )?once\b",
        r"\bonce in (?:prod|production|staging)\b",
        r"\bonly (?:fails|failed|happens|happened|occurs|reproduces|shows up|breaks|crashes|hangs)"
        r" (?:in|on|at|for|with) (?:the |a |one |their )?(?:customer|client|user|prod|production|their)\w*",
        r"\bone-?(?:off|time occurrence)\b",
        r"\ba single (?:occurrence|instance|sighting|report|time|incident|event|crash|failure)\b",
        r"\b(?:only|just) (?:seen |observed |happens |happened |occurs |occurred |reproduces )?(?:in|on) (?:prod"
        r"|production)\b",
        r"\b(?:prod|production)[- ]only\b",
        r"\bin (?:prod|production) only\b",
        r"\b(?:customer|user|client)s?(?:'s?)? (?:report(?:ed|s)?|complain\w*|ticket|said|says|saw|sees|noticed"
        r"|mentioned|escalat\w*)\b(?!\s*(?:said|says|suggested|guessed|read)?\s*Q\b)",  # not their words quoted
        r"\breported by (?:a |one |the |some )?(?:customer|user|client)s?\b",
        r"\bper (?:the )?(?:customer|user|client)\b",
        r"\bsupport ticket\b",
        r"\b(?:can't|cannot|can not|couldn't|could not|unable to|failed to|not able to|haven't been able to|have not "
        r"been able to|never managed to) (?:\w+ ){0,3}(?:reproduc\w*|repro\b|trigger\w*|recreat\w*|replicat\w*)",
        r"\b(?:not|never|isn't|wasn't) (?:been )?(?:reliably |consistently )?(?:reproducible|reproduced|replicated)\b",
        r"\bno (?:reliable |known |consistent |deterministic )?(?:repro|reproduction|reproducer|steps to reproduce)\b",
        r"\bwithout a repro\w*\b",
        r"\b(?:doesn't|does not|didn't|did not|won't|will not) (?:always )?reproduce\b",
        r"\b(?:still trying|still working|trying|working) (?:to reproduce|on a repro)\w*\b",
        # Not made to fail by the author: "couldn't get it to fail", "never made it crash".
        r"\b(?:can't|cannot|can not|couldn't|could not|unable to|failed to|not able to|never)"
        r" (?:\w+ )?(?:get|got|make|made|gotten) (?:it|this|the \w+) (?:to )?"
        r"(?:fail|crash|hang|happen|break|occur|show up|trigger|misbehave)\w*",
        # Waiting for the next one: "we'll catch the next occurrence", "wait for it to recur".
        r"\b(?:catch|wait(?:ing)? for|until) (?:the |it |a )?(?:next (?:occurrence|time|one|incident|failure)"
        r"|to (?:recur|happen again|fail again))\b",
        flags=EN_FLAGS,
    ),
    any_of(
        "時々" + _USED_JA,
        "ときどき" + _USED_JA,
        "時折",
        "ときおり",
        "時たま",
        "ときたま",
        "時には",
        "場合によって(?:は)?",
        # 「落ちることがある」 is "sometimes fails"; 「落ちたことがある」, "has failed (once)": neither is every run.
        "こと(?:が|も)(?:ある|あります|あった|ありました|あれば)",
        "一部の(?:ビルド|実行|ジョブ|ラン|テスト|回|試行|夜|日|起動)",
        "たま[ーー〜~]*に" + _USED_JA,
        "まれ(?:に|な|で)" + _USED_JA,
        "稀(?:に|な|で)" + _USED_JA,
        "めったに" + _USED_JA,
        "滅多に" + _USED_JA,
        "不定期",
        "ランダムに(?:失敗|発生|落ち|ハング|起き|止ま)",
        "間欠",
        "散発",
        "偶発",
        "突発",
        "たまたま",
        "不安定",
        "ほとんど(?:起き|発生|再現)(?:ない|ません)",
        "再現(?:し|でき|され)(?:ない|ません|なかった|ませんでした|ず)",
        "再現(?:性|率)(?:が|は)?(?:ない|なし|低い|ありません|不明)",
        "再現(?:手順|方法)(?:が|は)?(?:ない|なし|不明|ありません|未確立)",
        "再現(?:が|は)?(?:難しい|困難|不可|できていない)",
        "再現待ち",
        "再現条件(?:は|が)?(?:不明|わかって|分かって|特定できて)",
        "(?:一度|1度|一回|1回)(?:しか|だけ|きり|のみ)",
        "未再現",
        "本番(?:環境)?でしか",
        "再現を試み",
        "(?:一度|1度|一回|1回)(?:だけ|きり|のみ)?(?:発生|起き|観測|見られ|確認され|報告)",
        "本番(?:環境)?(?:で)?(?:のみ|だけ)",
        "本番(?:環境)?で(?:一度|1度|一回|1回)",
        "(?:顧客|お客様|ユーザー|利用者)(?:から|より)?の?(?:報告|問い合わせ|申告|クレーム)",
        "(?:数|何)(?:時間|日|週間|か月|ヶ月|カ月)に(?:一度|1度|一回|1回)",
        "(?:日|月|週|年)に(?:一度|1度|一回|1回|数回)",
        "(?:時間|日|週|月|年|晩|夜|週間|か月|ヶ月|カ月)に\\s*(?:\\d+|一|二|三|数|何)(?:\\s*[〜~-]\\s*\\d+)?\\s*(?:回|度)",
        # Counted over a stretch of time, not over runs: 「3 日間で 2 回」「この 2 週間で 5 回」.
        "(?<![\\d.,])\\d+\\s*(?:時間|日|週|晩|夜|か月|ヶ月|カ月)(?:間)?(?:で|のうちに|の間に)\\s*(?:\\d+|一|二|三|数|何)\\s*(?:回|度)",
        "(?:何|数)(?:回|度)か(?:見|発生|起き|遭遇|出|落ち|止ま)",
        # A guessed rate: 「数回に一回くらい」「何十回かに 1 回」.
        "(?:数|何)(?:十|百)?回(?:か)?に\\s*(?:一|1)\\s*(?:回|度)",
        "条件(?:は|が|も)?(?:よく|まだ|はっきり)?(?:わから|分から|不明|わかって(?:い)?な|分かって(?:い)?な)",
        RUN_UNTIL_JA,
    ),
)

#: On demand after all: every run, deterministic, 毎回 (negated forms excluded, and "each run is about 4 minutes", which
#: says how long a run takes).
ON_DEMAND = (
    any_of(
        r"(?<!not )(?<!n't )(?<!never )(?<!cannot )(?<!unable to )(?<!non-)(?<!non)"
        r"\b(?:every (?:single )?(?:run|time|attempt|iteration|invocation|build|execution)"
        r"|each (?:run|time|attempt)|always|deterministic(?:ally)?|reliably|consistently|without fail|on demand)\b"
        r"(?!\s+(?:is|takes|took|lasts|lasted|was)\s+(?:about |around |roughly |~\s*|under |over |just )?\d)",
        flags=EN_FLAGS,
    ),
    # A marker is a word, not the tail of a compound: 正常に, 異常に, 非常に, 不確実に say nothing of how often.
    any_of(
        *(f"(?<![\u4e00-\u9fff]){w}" for w in ("毎回", "確実に", "必ず(?!しも)", "常に", "決定的", "高頻度")),
        "(?:すべて|全て|どの)の実行",
        r"(?<![\d.])100%",
    ),
)

#: "…but `cmd` reproduces it": an on-demand repro after the vague word, in the same sentence.
CONTRAST_REPRO = (
    any_of(
        r"\b(?:but|however|though)\b.{0,200}?\bQ\b.{0,200}?\b(?:reproduc\w*|shows? it|triggers? it|fails|hits? it)\b",
        flags=EN_FLAGS | re.DOTALL,
    ),
    any_of("(?:が、|しかし|けど|ですが).{0,200}?Q.{0,200}?(?:再現|発生)"),
)

#: The validation is not done yet.
PENDING = (
    any_of(
        r"\b(?:tbd|todo|tbc)\b",
        r"\bto be (?:tested|verified|validated|confirmed|checked|run|measured|determined)\b",
        r"(?:\b(?:will|going to|gonna|plan(?:ning)? to|need to|needs to|have to|has to|about to|yet to|want to"
        r"|intend to|should)|'ll) (?:\w+ )?"
        r"(?:test|verify|validate|check|confirm|run|re-?run|try|monitor|watch|measure|see|soak|benchmark)\w*\b",
        # "with `uart_isr` pending", "interrupt pending": the state of a named thing, not a check to come.
        r"(?<!\d )(?<!Q  )(?<!Q )(?<!interrupt )(?<!irq )(?<!signal )(?<!nothing )(?<!none )\bpending\b"
        r"(?!\s+(?:requests?|writes?|reads?|jobs?|tasks?|operations?|ops|i/?o|items?|messages?"
        r"|events?|callbacks?|transactions?|entries|queue|work|changes?|connections?|acks?|signals?|interrupts?"
        r"|futures?|promises?|batches?|state|flag|bit|count)\b"
        r"|\s+(?!tests\b|checks\b|runs\b|reviews\b|verifications\b|results\b)[a-z]+s\b)",
        r"\b(?:verification|validation|testing|tests?|soak|confirmation|checks?) (?:is |are |will )?"
        r"(?:to follow|to come|next|later|tomorrow|still to come|coming)\b",
        r"\b(?:scheduled|planned) (?:for|next|later|tomorrow)\b",
        r"\bnext (?:sprint|week|release|month)\b",
        r"\bstill (?:fails?|failed|failing|hangs?|hung|hanging|crash\w*|broken|broke|reproduces|reproduced|flaky"
        r"|errors?|errored|times? out|timed out|stalls?|stalled|leaks?|leaked|drops?|dropped)\b"  # not "…as it should"
        r"(?![^.;]{0,40}?\b(?:as (?:it|they|that) should|as (?:designed|intended)|by design|on purpose)\b)",
        r"\bin progress\b",
        r"\bstill (?:has|have|needs?) to be (?:scheduled|run|done|booked|tested|checked|verified|re-?run)\b",
        r"\bongoing\b",
        r"\bawaiting\b",
        r"\bwaiting (?:for|on)\b",
        r"\bnot yet\b(?!\s+(?:been\s+)?(?:re-?)?(?:tried|tested|run|checked|verified|validated|measured)\b)",
        r"\b(?:not|haven't|hasn't|have not|has not|wasn't|weren't|isn't|aren't|never) (?:yet )?(?:been )?(?:re-?)?"
        r"(?:verified|validated|tested|confirmed|checked|run|measured|tried)\b(?: yet)?" + SCOPE_AFTER,
        r"\bun(?:verified|tested|validated|confirmed)\b" + SCOPE_AFTER,
        r"\bno results? yet\b",
        r"\bno (?:tests?|testing|verification|validation)(?: yet| so far)?\b(?! failures?| errors?"
        r"| regressions?)",
        r"\b(?:haven't|have not|did not|didn't) (?:had|get) (?:a |the )?(?:chance|time|to)\b",
        r"\bwhen (?:we|i) (?:get|have) (?:a chance|time)\b",
        # Done on a condition still to be met: "if the soak stays clean we'll call it done".
        r"\b(?:we|i)(?:'ll| will| would| can)? (?:call it|consider it|mark it|close it|declare it)"
        r" (?:as )?(?:done|fixed|resolved|verified|complete)\b",
        r"\bkeep(?:ing)? an eye\b",
        r"\b(?:still |currently )?monitoring (?:in )?"
        r"(?:prod|production|it|the (?:dashboards?|metrics|alerts|rollout))\b",
        flags=EN_FLAGS,
    ),
    any_of(
        "(?<!では)(?<!には)未(?:検証|確認|テスト|実施|実行|計測)(?![\u30a0-\u30ff\u4e00-\u9fff])",
        "(?:まだ|これから|今後|後日|明日|来週|後で)(?:確認|検証|テスト|試験|実行|計測|測定|試)",
        "(?:確認|検証|テスト|試験)(?:は)?(?:まだ|これから|今後|後日)",
        "(?:確認|検証|テスト|試験|計測)(?:して|でき|し)(?:て)?(?:いません|いない|ません|おらず)",
        "(?:確認|検証|テスト|試験|実行|計測)(?:待ち|中(?!に|の|は|で(?!す))|予定|前(?!に|の|は|と))",
        "(?:する|の)予定(?!(?:は|が)\\s*\\d)",  # not 「3/31 の予定は 1 件だけ」: the scheduled items counted
        # 「空き次第確認します」「戻り次第再実行」: a check waiting on something.
        "次第(?:、)?(?:確認|検証|テスト|実施|実行|再実行|再テスト|試)",
        "(?:確認|検証|再実行|再テスト|実施)(?:します|する予定|いたします)(?:。|$)",
        # 「問題が出なければ完了とします」: done on a condition still to be met.
        "(?:なければ|なかったら|れば|たら|次第)[^。]{0,15}?(?:完了|OK|クローズ|終了|解決|検証済み?)(?:と|に)"
        "(?:し(?:ます|たい|よう)|する|みな|判断|見な)",
        "様子(?:を)?見",
        "経過観察",
        "(?:監視|モニタリング|観察)中(?!に|の)",
        "(?:まだ|依然として|相変わらず)(?:失敗|ハング|停止|再現|落ち)",
        "未定",
    ),
)

#: A hope, not a result: "should be fixed now", "hopefully", 直るはず.
HOPE = (
    any_of(
        r"\bshould (?:now |hopefully |probably |also )?(?:be )?"
        r"(?:fixed|resolved|work(?:ing)?|pass(?:ing)?|fine|ok(?:ay)?"
        r"|good|gone|sorted|better|stable|fix (?:it|this|the))\b",
        r"\bshould (?:now |also )?(?:resolve|fix|address|eliminate|prevent|stop|cure|take care of|solve|help)\b",
        r"\bhopefully\b",
        r"\b(?:i|we) hope\b",
        r"\bfingers crossed\b",
        r"\b(?:i|we) (?:think|believe|expect|assume) "
        r"(?:it(?:'s| is)|this is|the (?:bug|issue|problem|fix) is) (?:now )?"
        r"(?:fixed|resolved|gone|working)\b",
        r"\b(?:expect|expected|expecting) (?:it |this |the fix )?to (?:work|pass|fix|resolve|help)\b",
        r"\blooks? (?:fixed|good|fine|ok(?:ay)?|resolved|better)\b",
        r"\bseems? (?:to (?:work|be fixed|be fine|pass|have fixed)|fixed|fine|ok(?:ay)?|resolved|good|better)\b",
        r"\b(?:probably|likely|presumably|apparently|maybe|possibly)\b",
        r"\b(?:i|we) (?:think|believe)\b",
        r"\bought to (?:work|pass|fix)\b",
        r"\bworks on my (?:machine|laptop|box)\b",
        r"\b(?:haven't|have not|hasn't|has not) (?:seen|heard|had) (?:it|any|the (?:bug|issue|error|problem|crash|hang)"
        r"|complaints|reports)\b",
        r"\bno (?:one|body) (?:has )?(?:complained|reported)\b",
        r"\bno (?:more |new |further )?(?:complaints|reports"
        r"|tickets)\b",
        r"\bso far so good\b|\b(?:mostly|almost|largely|nearly) (?:fixed|gone|resolved|solved)\b",
        flags=EN_FLAGS,
    ),
    any_of(
        "(?:直る|直った|治る|治った|解消される|解消した|解決する|解決した|動く|通る|大丈夫な|問題ない|修正された|修正できた)"
        "(?:はず|と思|でしょう|だろう|かも|見込み)",
        "はず(?!の|れ)",
        "と思(?:われ|い|う)",
        "でしょう",
        "だろう",
        "見込み|(?:ほぼ|ほとんど|大体|だいたい|おおむね|概ね)(?:解消|直|治|なくな|出なくな|収ま)",
        "期待して(?:い|お)",
        "期待しています",
        "期待できます",
        "願って",
        "願う",
        "祈って",
        "祈り",
        "おそらく",
        "たぶん",
        "多分",
        "(?:よう|みたい)(?:です|だ)",
        "(?:苦情|報告|クレーム|問い合わせ)(?:は|が)?(?:上がって|来て|出て|届いて|あり)(?:い)?(?:ない|ません)",
    ),
)
