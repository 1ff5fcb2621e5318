"""A repro the writer cannot run now (docs/rules.md#what-each-input-must-state): no steps, an environment still
being built, steps that no longer reproduce, a device only the customer has; and a rate guessed rather than counted.
"""

from __future__ import annotations

import re

from rules.evidence_words import any_of

#: A repro with nothing to run: no steps stated, or the environment still being built.
NOT_RUNNABLE = any_of(
    r"\bno (?:specific |known |reliable |clear |concrete )?(?:repro |reproduction )?steps\b",
    r"\b(?:still |currently )?(?:setting up|(?:re)?building|preparing|restoring|provisioning) (?:the |a |an )?"
    r"(?:(?:old|same|original|matching|customer's|his|her|their) )?(?:[\w.-]+ ){0,3}?(?:repro|test bed|environment"
    r"|env|image|vm|box|container|rig|setup)\b",
    # Someone else's runs: "These steps were executed on the rig by the integration group on Friday; … 9 of 9".
    r"\b(?:was|were) (?:run|executed|tried|performed|reproduced|flown|replayed) (?:[\w-]+ ){0,6}?by"
    r" (?:the |our |their )?(?:[\w-]+ ){0,2}(?:team|group|lab|crew|shift|qa|vendor|customer|department)s?\b",
    # "The repro server is still being provisioned": the machine to run it on is not there yet.
    r"\b(?:repro|reproduction|test) (?:server|box|machine|vm|rig|bench|environment|env|host)s? (?:is|are) (?:still )?"
    r"(?:being (?:set up|built|provisioned|prepared|restored)|not (?:yet )?(?:set up|built|ready|available))\b",
    "(?:特定の|具体的な|決まった|再現)?手順(?:は|が)?(?:ありません|ない|なく|なし|不明)",
    # Not 「先週は再現環境を構築中でしたが、6/10 に組み上がりました」: being built then, built now.
    "(?:再現|検証|テスト)?環境(?:を|の|は|が)?(?:まだ|今)?(?:構築|準備|用意|整備|作成|セットアップ)(?:中|しているところ)"
    "(?!でした|だった|でしたが|だったが)",
    # 「再現用の検証サーバーは現在構築中」: the machine to run it on is not there yet.
    "再現用の[^。、]{0,20}?(?:は|が|を)(?:まだ|今|現在)?(?:構築|準備|用意|整備|作成|セットアップ|手配)(?:中|しているところ)",
    # Runs split with no count: "some nights it fails and some nights it's green".
    r"\bsome (?:nights|days|runs|mornings|builds|boots|attempts|weeks)\b[^.;]{0,60}?\b(?:some|other|others)\b",
    # It no longer reproduces: "can't reproduce it anymore", "no longer reproduces" (not "… with the fix").
    r"\b(?:can(?:'|no)?t|cannot|could(?:n't| not)|unable to|no longer able to)\s+(?:re-?produce|repro|trigger"
    r"|make it fail|get it to fail)"
    r"\s+(?:it\s+|this\s+|the (?:bug|issue|crash|hang|failure|problem)\s+)?(?:any ?more|any longer|since|these days)\b",
    r"\b(?:haven't|have not|hasn't|has not|couldn't|could not|can't|cannot) (?:been able to )?get it back\b",
    r"\b(?:can|could) no longer (?:get (?:it|this|the \w+) to|reproduce|repro|trigger|make it)\b"
    r"(?![^.;]{0,40}?\b(?:with|after|once) (?:the )?(?:fix|patch|change)\b)",
    r"\b(?:none of us|nobody|no one|neither of us) (?:can|could|has been able to|have been able to|managed to)"
    r" (?:get it to|reproduce|repro|trigger|make it)\b",
    r"\b(?:can(?:'|no)?t|cannot|could(?:n't| not)|unable to)\s+get (?:it|this|the \w+) to (?:fail|crash|hang|break"
    r"|happen|reproduce|repro|trigger|do (?:it|that|this))\b"
    r"(?=[^.;]{0,20}?\b(?:at all|any ?more|any longer|since|on any|again)\b)"
    r"(?![^.;]{0,40}?\b(?:with|after|once) (?:the )?(?:fix|patch|change)\b)",
    # The rig still being built, the steps to be fixed later: 「HIL ラックを組んでいるところで、手順は…確定させます」.
    "(?:組んで|作って|構築して|用意して|準備して|セットアップして|組み立てて)(?:いる|います)(?:ところ|最中)",
    "手順(?:は|を)[^。]{0,30}?(?:確定させ|決め|まとめ|固め)(?:ます|る予定|ていきます)",
    # "its harness to `loomsim` is half-wired", "the rig is still being assembled": nothing to run the steps on yet.
    r"(?i:\b(?:half|partly|partially|not fully|not yet)[- ](?:wired|built|assembled|set up|installed|configured"
    r"|connected|ported|cabled)\b|\b(?:is|are) (?:still )?being (?:wired|built|assembled|set up|ported|cabled)\b)",
    # No access to where it fails: "I haven't had UAT access this week"; only their unit fails: "we've asked the
    # depot to lend us their unit".
    r"\b(?:haven't|have not|don't|do not|didn't|did not) (?:had|have|got|get) (?:any )?(?:[\w-]+ )?access\b",
    r"\b(?:asked|waiting for|waiting on) (?:the |them|[\w-]+ ){0,3}to (?:lend|send|ship|loan|give)"
    r" (?:us\b|[\w -]{0,30}?\b(?:over )?to us\b)",
    # "our spare boards do not show it", "ran these steps on their Screen 4 IMS": only someone else's unit fails.
    r"\bour (?:own |spare |bench |test |lab |other )?[\w-]+ (?:do not|don't|does not|doesn't|never|did not|didn't)"
    r" (?:show|reproduce|fail|trip|do)\b(?! (?:that|this) (?:anymore|any more))"
    # "our two bench units running the same profile do not alarm": our units, the same steps, and it does not happen.
    r"|\bour (?:\w+ ){0,3}?(?:units?|boards?|rigs?|devices?|machines?|pumps?|kiosks?|controllers?|benches)\b"
    r"[^.;]{0,40}?"
    r"\bsame\b[^.;]{0,30}?\b(?:do not|don't|does not|doesn't|never|did not|didn't) \w+"
    r"|\b(?:ran|run|tried|did|followed|performed) (?:these|the|those) steps on (?:their|his|her)\b",
    # Only their unit fails: 「手元の個体では出ません。その個体を送ってもらうよう依頼中です」.
    "(?:送って|貸して|借り|届けて)(?:もらう|いただく|もらえる)よう(?:に)?(?:依頼|お願い|手配)"
    "|(?:送付|貸与|貸し出し|発送|返送)を(?:先方に|顧客に)?(?:依頼|お願い|手配)",
    "手元(?:の[^。、]{0,10})?(?:で|では)(?:は)?(?:出|再現し|発生し|起き|落ち|止まり|固まり|クラッシュし)(?:ません|ない)",
    # 「当方の検証用の秤で同じ集計を流しても跳ねません」: our own unit, the same steps, and it does not happen.
    "(?:当方|こちら|社内|自社|手元)の[^。]{0,20}?(?:で|では)[^。]{0,30}?(?:ても|でも)[^。、]{0,12}?(?:ません|ない)(?:。|$|、|でした)",
    # 「保守担当の佐藤さんが…次の手順を 10 回実行し、10 回とも…」: someone else's runs.
    "(?:さん|氏|担当者?)が[^。]{0,80}?(?:手順|\\d+\\s*回)[^。]{0,40}?(?:実行|試行|再現|試|流|回)し(?:、|て|ました|た)",
    # "Since the worker image was rebuilt on 3 March, the same upload completes": gone since a change, not the fix.
    # Said in the domain's words, no failure word after: "Since the server was re-imaged on the 4th, the same steps fire
    # cue 88 once".
    r"\bsince (?!the (?:fix|patch|change)\b)[^.;]{0,60}?\b(?:rebuilt|upgraded|updated|replaced|redeployed|reinstalled"
    r"|re-?imaged|re-?flashed|restarted|rolled back|swapped|migrated)\b[^.;]{0,40}?,?\s*the same\b"
    r"(?:[^.;]{0,40}?\b(?:completes|passes|works|succeeds|finishes)\b|(?![^.;]*?\b(?:fail\w*|crash\w*|hang\w*|hung"
    r"|freez\w*|froze|errors?|still|again|twice|every|always|each)\b))",
    # 「再現環境は…シミュレータへ移植している途中で、シミュレータ上ではこの弁を動かせていません」.
    "(?:移植|構築|準備|用意|作成|整備|セットアップ|組み立て)(?:を)?(?:し)?ている途中",
    "(?:シミュレータ|シミュレーター|実機|環境|手元|検証機)[^。]{0,20}?(?:動かせ|再現でき|再現させられ|試せ|流せ)(?:て)?(?:い)?(?:ない|ません|ず)",
    # The writer has not seen it fail: "I have not myself seen happen on these steps yet".
    r"\b(?:i|we) (?:have not|haven't|never|did not|didn't) (?:myself |personally |ourselves |actually |yet )?"
    r"(?:seen|watched|observed|witnessed)(?: it| this| that)? (?:happen|fail|occur|reproduce|crash|hang)\b",
    # Nothing to run it on yet: 「こちらにはまだ実機がなく、試せていません」.
    "(?:まだ)?(?:実機|機材|端末|環境|装置)(?:が|は)(?:なく|ない|ありません)[^。]{0,20}?試せ(?:て)?(?:い)?(?:ない|ません|ず)",
    # "Since the September firmware the same steps don't freeze it anymore".
    r"\b(?:don't|doesn't|do not|does not|won't|will not)\b[^.;]{0,40}?\b(?:anymore|any more|any longer)\b"
    r"(?![^.;]{0,30}?\b(?:with|after|once) (?:the )?(?:fix|patch|change)\b)|"
    r"\bno longer (?:re-?produces|reproducible|repros|happens|occurs|shows up)\b"
    r"(?!\s+(?:with|after|on|once) (?:the )?(?:fix|patch|patched|change))",
    "再現(?:し|でき)なくな(?:った|りました|って)|(?:今|現在|最近)(?:は|では)再現(?:しない|しません|できない|できません)"
    "|もう再現(?:しない|しません|できない|できません)"
    # 「秤の交換後は出なくなりました」: gone since a change, not by the fix.
    "|(?:交換|入れ替え|更新|再起動|初期化)(?:後|して以来|してから)(?:は)?(?:出|発生し|起き|再現し)なくな(?:った|りました|って)"
    # 「4/2 にファームを書き直してからは、同じ手順で 15 回とも全数解錠される」: since a change, the same steps pass.
    "|(?:直|替え|換|新|起動|化|築|入れ|上げ)(?:し)?て(?:から|以来)(?:は)?[、,]?\\s*同じ手順(?:で|でも)"
    "(?![^。]{0,40}?(?:再現|失敗|落ち|止ま|固ま|エラー|発生|出る|出ま|起き))[^。]{0,30}?(?:とも|すべて|全て|全数|正常|問題な|成功)",
    # Nothing the writer has to run it on: "we don't have that spooler/driver combo in house", "I haven't had a
    # board since the lab move, so this is from reading the code", "nobody has the old digest".
    r"\bwe (?:don't|do not|can't|cannot) (?:have|get|run|reproduce)\b[^.;]{0,50}?\b(?:in[- ]house|here|in the office"
    r"|in the lab|on hand|at hand"
    r"|locally|ourselves)\b",
    r"\b(?:haven't|have not|don't|do not) (?:had|have|got) (?:a|the|any) (?:[\w-]+ )?(?:board|device|rig|unit|phone|box"
    r"|machine|hardware|access|controller|console|bench|sensor|camera|printer|terminal)\b"
    r"|\bfrom reading (?:the )?(?:code|source)\b",
    r"\b(?:no|not any) way to (?:trigger|reproduce|repro|hit|run) it\b|\bthe same steps (?:now )?(?:finish"
    r"|pass|run|complete)"
    r" (?:cleanly|fine|ok)\b|\bnobody has (?:the|that) old\b|\b(?:gc'd|garbage[- ]collected|deleted"
    r"|removed) the old (?:tag|image"
    r"|build|digest)\b",
    # 「…を用意しているところです。揃ったら手順を書きます」: the setup still being made.
    "(?:用意|構築|準備|セットアップ)(?:を)?(?:して(?:いる|います)ところ|中です)",
    # The environment still coming: "the third VM is waiting on quota; once it is up: …".
    r"\bwaiting (?:on|for) (?:quota|hardware|access|approval|a (?:board|rig|slot|license))\b",
    r"\b(?:i'm|i am|we're|we are|now|currently) at 0 (?:out of|of|/) ?\d+\b",
    "(?:お客様|顧客|客先)(?:の|側の|先の)?[^。、]{0,40}?でのみ|社内(?:の[^。]{0,15})?では再現(?:せず|しない|しません)",
    # Only someone else can run it: "reproducible on the customer's terminal; we asked them to ship it".
    r"\b(?:asked|asking|waiting (?:for|on)) (?:them|the (?:customer|client|user|reporter|vendor)|\w+) to (?:ship|send"
    r"|mail|bring|lend|loan|return)\b(?! (?:us )?(?:the |a )?(?:logs?|traces?|dumps?|config))",
    r"\b(?:only|just) (?:on|in|at|with) (?:the |a |one |their )?(?:customer|client|user|reporter)'?s?\b",
    "(?:お客様|顧客|客先|ユーザー?)(?:の|側の|先の)?(?:端末|環境|機器|実機|サイト|店舗)?(?:で|でのみ|だけ)(?:のみ|しか)",
    # Nothing the writer runs brings it out: "No bench setup triggers it", "nothing we tried in the lab reproduces it".
    r"\bno (?:[\w-]+ ){0,2}?(?:setup|rig|environment|bench|script|procedure|sequence|config\w*|test)s? (?:we (?:have )?"
    r"(?:tried|built|have) )?(?:triggers?|reproduces?|provokes?|brings? (?:it )?out)\b"
    r"|\bnothing (?:we|i) (?:do|did|try|tried|have tried)\b[^.;]{0,40}?\b(?:triggers?|reproduces?|provokes?)\b",
    # Someone else's terminal: "On her terminal, Send reminders fails every time"; "his screen recording".
    r"\b(?:on|from|at) (?:her|his) (?:own )?(?:terminal|machine|laptop|phone|device|tablet|pc|workstation|account"
    r"|desk|till|register)\b|\b(?:her|his) screen (?:recording|capture|video)\b",
    # Run until it shows: "keep doing 30/30 intervals until the graph flatlines; it gets there eventually".
    r"\bkeep (?:doing|running|repeating|cycling|trying|going|playing|looping|retrying|pressing|clicking)\b[^.;]{0,80}?"
    r"\buntil\b|\b(?:it |this )?(?:gets there|shows up|happens|turns up) eventually\b"
    # "Run it in a loop and leave it; the arm locks at some cycle": when, left to chance.
    r"|\bat some (?:cycle|iteration|run|pass|loop)\b|\bsooner or later\b"
    r"|いつか(?:は)?[^。、]{0,10}?(?:止ま|落ち|固ま|起き|出|再現|発生)",
    # Fine most of the time, with no count: "runs fine most nights".
    r"\b(?:runs?|passes|works|is|comes? (?:back|out)) (?:fine|clean|green|ok|okay|correctly) (?:on )?(?:most (?:nights"
    r"|days|runs|times|mornings|builds|boots|weeks)|most of the time)\b",
    # Production's own traffic: "the gap shows up once traffic is high enough" (no run the writer starts).
    r"\b(?:once|when|whenever|until) (?:the )?(?:traffic|load|volume|demand|usage|throughput)\b[^.;]{0,20}?"
    r"\b(?:is|gets|goes|grows) (?:high|heavy|busy|large|big) enough\b",
    # Production's own bursts: "Wait for a report burst above 500 reports/min".
    r"\bwait (?:for|until) (?:a |the |an )?(?:[\w-]+ ){0,3}?(?:burst|spike|peak|surge|storm|rush)\b",
    # Someone else's check: 「薬剤師さんが…確認してくれました」「（店長が 5 回試行）」「同型機は社内にありません」.
    "(?:さん|氏|様)が[^。]{0,60}?(?:確認して|試して|実行して|再現して)(?:くれ|もらっ|いただ)",
    "(?:店長|担当者|お客様|顧客|薬剤師|スタッフ|現場)が\\s*\\d+\\s*回(?:試行|試し|実行|操作)",
    "(?:同型機|実機|同じ機種|現物|同じ端末)(?:は|が)(?:社内|手元|こちら)に(?:は)?(?:ありません|ない|無い)",
    # Someone else's runs: "Their export fails at document 9,999 every time they run it".
    r"\b(?:every time|each time|whenever) (?:they|she|he) (?:runs?|ran|tr(?:y|ies)|tried|do|does|did)\b"
    # "The console froze all five times she tried it"; "run on her console during Tuesday's tech".
    r"|\btimes (?:she|he) (?:ran|tried|did|repeated|ran through)\b"
    r"|\b(?:run|ran|tried|reproduced|done) (?:it )?(?:on|from|at) (?:her|his) (?:own )?[\w-]+\b"
    # "Per the branch librarian: scan …; she has done it a dozen times": the steps as someone else tells them.
    r"|^\W*(?:per|according to) (?:the |our |their |a |an )?(?:[\w-]+ ){0,3}?(?:librarian|customer|client|user"
    r"|operator|staff|manager|engineer|technician|reporter|nurse|driver|teacher|clerk|keeper|attendant|vendor"
    r"|support|site team|field team)\b"
    r"|\b(?:she|he) (?:has|had) (?:done|run|tried|repeated|reproduced) (?:it|this|that)\b",
    "(?:さん|氏|様|チーム|部)が(?:自分の|手元の|ご自身の)?[^。、]{0,15}?(?:端末|環境|PC|マシン|実機)\\s*で[^。]{0,20}?(?:実行|回し|流し|試)",
    # 「手元に実機がないため」「B 社の担当者の端末では 10 回中 10 回」: no device here, someone else's terminal.
    "(?:手元|こちら|社内|当方)(?:に|で)(?:は)?(?:実機|機材|端末|装置|個体|検札機|現物)が(?:なく|ない|無い|ありません)",
    "(?:担当者|先方|お客様|顧客|利用者|[A-ZＡ-Ｚ]\\s*社)(?:の[^。、]{0,12}?)?の(?:端末|環境|PC|実機|機器|手元)(?:で|では|上で)",
    flags=re.IGNORECASE,
)
#: A rate guessed, not counted: 「体感で半分くらい」, "feels like half the runs", "by feel".
GUESSED_RATE = any_of(
    # Denied: 「体感ではなく数えました」, "counted, not eyeballed".
    "(?:体感(?:で|的に|では|だと|として)|感覚(?:で|的に)|肌感(?:で|覚))(?!は?(?:なく|ない|ありません))",
    # A share said by feel: 「裏面が空で出るのは割と多いです」.
    "(?:割と|わりと|そこそこ|まあまあ)(?:多い|多く|頻繁)",
    r"(?<!\bnot )(?<!\bthan )(?<!\bof )(?<!n't )\b(?:feels like|by feel|gut feel\w*|eyeball\w*|ballpark|from memory"
    r"|off the top of my head|in my experience"
    r"|my gut (?:says|tells me)|i(?:'d| would) (?:guess|say|estimate)|i reckon)\b"
    r"|\b(?:didn't|did not|never) (?:keep|kept) (?:a |any )?(?:tally|count|record)\b"
    # "My estimate is that it happens in about half of the attempts, though I never counted them".
    r"|\b(?:my|our) (?:estimate|guess|impression|feeling) is\b|\b(?:never|didn't|did not) (?:actually )?counted?"
    r" (?:them|it|the (?:runs|attempts|tries|times))\b",
    flags=re.IGNORECASE,
)
