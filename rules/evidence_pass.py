"""What a passing check reads as, en and ja, and what stands in for one (a review, a merge, a deploy, a
build): the positive evidence a validation or an experiment needs. Each is an (English, Japanese) pair of
linear patterns, read by `rules.evidence` and `rules.evidence_clauses`.
"""

from __future__ import annotations

import re

from rules.evidence_words import EN_FLAGS, any_of

#: A review, a merge, a deploy or a build standing in for a verification.
STAND_IN = (
    any_of(
        r"\b(?:code|peer|pr)[- ]review(?:ed|s)?\b",
        r"\breviewed (?:by|and|in)\b",
        r"\breviewers?\b",
        r"\b(?:passed|in|through|after) (?:code )?review\b",
        r"\breview (?:passed|approved|done|complete[d]?)\b",
        r"\bapprov(?:ed|als?)\b",
        r"\blgtm\b",
        r"\bsigned off\b",
        r"\bmerged?\b",
        r"(?<!since the )(?<!after the )\bdeploy(?:ed|ment|s)?\b",
        r"\bshipped\b",
        # Not a part letting go: "the sounder relay released every time".
        r"\breleased\b(?!\s+(?:every|each|on every|cleanly|fully|properly|normally|as expected|within|in \d))",
        r"\brolled out\b",
        r"\blanded\b(?!\s+(?:at|safely|normally|within|short|back|upright|inside)\b)",  # not "all three landed at home"
        r"\bpushed to (?:prod|production|main|master)\b",
        r"\b(?:compiles|compiled|builds|built)\b",
        r"\bbuild (?:passes|passed|succeeds|succeeded|is green|was green)\b",
        r"\blint(?:er)? (?:passes|passed|is clean)\b",
        r"\btype[- ]?checks?\b",
        r"\bby (?:code )?inspection\b",
        r"\bby reading the code\b",
        r"\b(?:looks|look) (?:correct|right)\b",
        flags=EN_FLAGS,
    ),
    any_of(
        "レビュー",
        "承認",
        "マージ",
        "デプロイ",
        "リリース",
        "(?:本番|ステージング|検証|テスト)?(?:環境|サーバー?|実機|端末|リモート)?(?<=[番グ証トー境機末ト])(?:に|へ)(?:反映|適用|投入)",
        # Not what a run put into its data: 「9 枚も正しい金額で最高札に反映されました」.
        "(?<!に)(?<!へ)反映(?:済み|しました|されました)",
        "(?:ビルド|コンパイル)(?:が|は|も)?(?:通|成功|完了|でき|OK|パス)",
        "LGTM",
        "適用(?:済み|しました)",
    ),
)

#: Something shown passing, and what it was: a test, the repro, a workload (or a number or code beside it).
PASSED = (
    any_of(
        r"\bpass(?:es|ed|ing)?\b",
        r"\bfail(?:ures?|ed|s)?\s*[:=]?\s*0(?![\d.,])",  # "100 回 run して fail 0"
        # A tolerance met: 「角度誤差が 0.05° 以内に収まりました」, "all within spec".
        r"以内に収ま(?:り|っ|る)|規格内に収ま|許容(?:範囲|誤差)内|\bwithin (?:spec|tolerance)\b",
        r"\bsucceed(?:s|ed)?\b",
        r"\bsuccessful(?:ly)?\b",
        # "320 posts, start to finish, and not one couched stack slid".
        r"\b(?:from )?start to finish\b|\b(?:from )?(?:beginning|end) to end\b|\bto completion\b"
        r"|\bnot (?:one|a single)\b(?: [\w-]+){0,3}?"
        r" (?:[a-z]+ed|slid|broke|tore|froze|fell|stuck|hung|blew|sank|split)\b",
        r"\bcomplete[sd]\b",
        r"\b(?:to completion|finished|finishes)\b",
        r"\bgreen\b",
        r"\bno longer\b|\ball (?:arrived|landed|matched|came through|got through)\b",
        r"\b(?:did not|didn't|never) (?:appear|show up|come up|recur|fire|trigger)(?: (?:once|again|at all))?\b",
        r"\b(?:now works|works (?:now|again|correctly))\b",
        r"\b(?:right|correct|expected) (?:results?|reports?|values?|outputs?|answers?|responses?|data)\b",
        r"\b(?:0|zero|no) (?:[A-Z][\w-]* )?(?:failures?|hangs?|errors?|crash(?:es)?|regressions?|timeouts?|stalls?"
        r"|diffs?|drift"
        r"|differences?|discrepanc(?:y|ies)|deltas?|resets?|reboots?|restarts?|oops(?:es)?|asserts?|assertions?|nans?"
        r"|leaks?|panics?|deadlocks?|corruptions?|alarms?|alerts?|retries|retransmits?|underruns?|overruns?|jams?"
        r"|misfeeds?|desyncs?|drops?|glitch(?:es)?|freezes?|tdrs?)\b",
        # "failures: 0", "errors = 0": a count of the bad kind, labelled.
        r"\b(?:failures?|errors?|crashes|hangs|timeouts?|failed)\s*[:=]\s*0\b(?![.,]?\d)",
        # The bad thing named in code or by its code: "no `NaN`", "0 `EPIPE`", "with no E-47".
        r"\b(?:0|zero|no)\s+Q\b|\b(?:0|zero|no) [A-Z]{1,4}[-_]?\d{1,5}\b",
        # Nothing differs from the reference: "ledger diff empty", "the diff is clean"; a whole run: "end to end".
        r"\b(?:diff|difference|delta|mismatch(?:es)?)\s+(?:is |was |came back )?(?:empty|clean|zero|none)\b"
        r"|\b(?:ran|replayed|completed|processed|went through|reran|re-ran) (?:[\w`-]+ ){0,5}end[- ]to[- ]end\b"
        # The whole run got to its end: "replayed the full batch through the patched build to the end".
        r"|\b(?:ran|runs?|replayed|reran|re-ran|played|processed|went|got|made it|read|printed|rendered)\b"
        r"(?: [\w`,-]+){0,10}? (?:all the way |right )?(?:to|until|till|through to) (?:the|its|their) (?:very )?end\b",
        r"\bnot (?:a single|one|once) (?:[\w-]+ )?(?:hang|failure|crash|error|timeout|stall|deadlock|reset|oops)\b"
        r"|\bnot (?:a single|one)\s+Q\b"
        # "10 of 10 times without an error": runs counted, none of the bad kind.
        r"|\bwithout (?:an? |any |a single )?(?:errors?|failures?|crash(?:es)?|hangs?|exceptions?|timeouts?|problems?"
        r"|issues?|retries|drops?)\b|\bwithout (?:an? |any |a single )?Q\b"
        r"|\bnever (?:once )?(?:hung|failed|crashed|errored|stalled|deadlocked|reset)\b",
        # Nothing past the limit: "no frame over 16 ms in any of the 40", "none of the 40 runs hung".
        r"\bno \w+(?: \w+)? (?:over|above|longer than|exceeded|past)\b|\b(?:none|not one|not a single one) of the \d+\b"
        # "was run 60 times on the fixed firmware with zero exits": the runs counted, none of the bad kind.
        r"|\b\d[\d,]* times (?:[\w-]+ ){0,6}?with (?:0|zero|no) [a-z][a-z-]*\b"
        # "no tamper flag on any of the 36": none of the bad kind across a counted lot.
        r"|\bno (?:[\w-]+ ){1,3}(?:on|in|for|across) any of the \d[\d,]*\b",
        # Every run got to the end: "every run reached step 300", "all 12 jobs finished".
        r"\b(?:every|each|all) (?:\w+ ){0,2}(?:reached|finished|completed|got to|made it to|ran to)\b"
        r"|(?:^|[.;:]\s*)(?:not once|never once|at no point)\b[^.;]{0,120}?\bdid\b",  # "Not once, in 50 pulls, did …"
        # None of the bad kind: "no unmatched orders", "0 stale points", "0 false rest violations".
        r"\b(?:0|zero|no) (?:\w+ )?(?:un[a-z]+ed|mis[a-z]+|false|stale|wrong|duplicated?|lost|missing|dropped"
        r"|leftover|left-over|rejected|refused|bounced|aborted|evicted|rolled back|reverted|requeued|re-queued"
        r"|remaining|residual|dangling|leaked|repeated|doubled?|spurious|skipped|overlapping|early|late"
        r"|corrupt\w*|failed|bad|broken|orphan\w*|truncated|clipped|chopped|torn|cracked|jammed|stuck|stalled|frozen"
        r"|tripped|garbled|mangled|scrambled|swapped|shifted|skewed|over-?(?:filled|dosed|run)|short)\b",
        # Every run good, stated as a full rate: "kept the reward 15/15", "50/50 matched".
        r"\b(?:kept|held|matched|correct|succeeded|worked|ok|right|clean)\b(?: \w+){0,3} (?P<all1>\d+) ?/ ?(?P=all1)\b"
        r"|\b(?P<all2>\d+) ?/ ?(?P=all2) (?:\w+ ){0,2}(?:matched|kept|held|correct|succeeded|worked|ok|right|clean)\b"
        # "20 of 20 reached 180°": every run got where it should.
        r"|\b(?P<all3>\d[\d,]*) (?:of|out of) (?:the )?(?P=all3) (?:\w+ ){0,6}?(?:reached|finished|completed|made it"
        r"|got (?:to|through)|held|kept|worked|matched|came back (?:correct|clean|right|fine|ok|good)"
        r"|(?:were|was) (?:correct|right|good|clean))\b",
        r"\b0\s*(?:/|of|out of|in)\s*\d+",
        # None of the symptom over many units, whatever the symptom is called: "0 clicks in 2,000 buffer wraps".
        r"\b(?:0|zero) [a-z][a-z-]*s (?:in|across|over|during|out of) (?:all |the )?\d[\d,]*\b",
        # "Before: 14 hitches … After: 0 across 5 flythroughs": none of the bad kind after the fix.
        r"\b(?:after(?: the fix)?|with the fix|now)\s*[:：,]\s*(?:0|zero|none)\b",
        r"\bclean\b",
        r"\bdisappear(?:s|ed)\b",
        r"\bwent away\b",
        r"\brestored\b",
        r"\bback (?:to|under|below|within)\b",
        r"\b(?:verified|validated)\b",
        r"\bexactly (?:once|one|as expected)\b",
        r"\ball (?:\d+ )?(?:of them )?(?:passed|ok|green|succeeded|completed|correct|right|fine|good|clean)\b"
        # "every recall stopped at the right slot": each run ended where it should.
        r"|\b(?:every|each) [\w-]+ (?:[\w-]+ ){0,3}?(?:at|to|in|on|into) the (?:right|correct|expected|proper) \w+",
        r"\bnow (?:[a-z]+s|returns|reports|receives|shows|holds|keeps|reads|writes)\b",
        # Agreement with a reference, or the workload getting past where it failed.
        r"\b(?:all|every|each) (?:\w+ ){0,3}match(?:es|ed)?\b|\bmatch(?:es|ed)? (?:the )?(?:source|reference|expected"
        r"|baseline|original|old (?:system|output))\b",
        r"\b\d[\d,]* (?:\w+ )?(?:rows?|records?|items?|files?|blocks?|messages?) (?:were )?(?:imported|processed|loaded"
        r"|written|migrated|synced|sent|delivered|applied)\b"
        # Every one of a counted lot went through: "stored all 1,441 rows", "all 2,000 released the bike".
        r"|\b(?:stored|wrote|loaded|imported|processed|delivered|sent|printed|posted|indexed|read|parsed|decoded"
        r"|rendered|synced|matched|released|unlocked|opened|closed|accepted|received|uploaded) all (?:the |of the )?"
        r"\d[\d,]*\b"
        r"|\ball (?:the |of the )?\d[\d,]* (?:[\w-]+ ){0,2}(?:were |got )?(?:posted|printed|processed|imported|released"
        r"|unlocked|opened|closed|stored|played|ran|finished|worked"
        r"|delivered|synced|sent|settled|cleared|rendered|decoded|parsed|loaded|written|applied|migrated|uploaded"
        r"|exported|reconciled|booked|accepted|acknowledged|acked|committed|published|scanned|indexed|signed"
        r"|verified|validated|matched|arrived|landed|transcoded|encoded|compiled|converted|restored)\b",
        r"\b(?:got|gets|made it|went|goes|moved) past\b|\b(?:is|was) now at (?:the )?(?:tip|head|latest)\b"
        r"|\bcaught up\b",
        flags=EN_FLAGS,
    ),
    any_of(
        "成功",
        "正しい(?:結果|値|レポート|出力|応答)",
        "完了",
        "通(?:った|ります|りました|過|る|って(?:いる|います|いた|いました))",
        "パス(?:し|する)",
        "停止なし",
        # 「クラッシュ 0」「エラーは 0 件」「失敗: 0」: none of the bad kind.
        "(?:クラッシュ|エラー|失敗|ハング|タイムアウト|落ち|NG)(?:は|が|数|件数|回数)?\\s*[:：]?\\s*(?:0|０|ゼロ|なし)\\s*(?:回|件)?(?![\\d.])",
        "問題なく",
        # 「赤だったのが緑になったっす」: the test went green.
        "(?:緑|グリーン)(?:色)?に(?:なっ|なり|変わ)|(?:後|今)は(?:緑|グリーン)(?:。|$|です|でした|で、|、)",
        "解消",
        "なくなり",
        "(?:発生|再現)しなく",
        "(?:発生|再現)(?:しません|しなかった|せず)",
        "消え",
        "(?:正常|元)に戻り",
        "に戻(?:った|りました|っている|っています)",
        "回復",
        "(?<![\\d.])0 ?(?:回|件)(?!中)",
        # 「同期ずれ 0 フレーム」「欠損 0 パケット」: none of the bad kind, in any counter but a time or a place.
        "(?<![\\d.])0\\s*(?![時分秒日月年度歳番号階位])(?:[\u4e00-\u9fff]|[\u30a1-\u30fa\u30fc]{1,8})(?!中)",
        "(?:なし|無し)(?!に|で(?!し|す))",  # 「文字化けなしでした」, not 「修正なしで」
        "一度も",
        "皆無",
        "(?:は|が|も)(?:ゼロ|0)(?:件|回)?(?:で|だ|です|でした|っす|。|$)",
        "正常(?:に)?(?:終了|完了|動作|稼働)",
        # 「最後まで全部縫い切った」: to the end, every one, whatever the work is.
        "最後まで(?:全部|すべて|全て|ぜんぶ)?(?:終わ|完了|走|動|通|実行し|流し|回し|処理し|[^。、\\s]{1,3}(?:切|き)っ)",
        "走り(?:きっ|切っ)",
        "完走",
        "(?:出|見られ|観測され|検出され|記録され|再現され)(?:なかった|ませんでした|ず(?:に|、|。|$))",
        "(?:全部|全て|すべて)(?:OK|成功|通|パス)",
        "(?<![A-Za-z])OK(?![A-Za-z])",
        # 「…書き込まれたことを期待値ファイルとの突き合わせで確認しました」: what was checked, then how.
        "(?:こと|の)を(?:[^。]{0,30}?(?:で|により|によって))?確認",
        "(?:は|が|も)(?:一度も)?(?:ありませんでした|なかった|起きなかった|起きませんでした|発生しなかった|発生しませんでした)",
    ),
)
EVIDENCE_NOUN = (
    any_of(
        r"\b(?:tests?|repro\w*|workloads?|suites?|benchmarks?|runs?|soak|stress|fuzz\w*|job|jobs|case|cases|check"
        r"|scenario|load|traffic|steps|p\d\d|latency|throughput|requests|calls|queries|iterations|transactions"
        r"|messages|batches|batch|nights|exports|scripts?|replays?|attempts?|tries|trials?|cycles?|\d+ times)\b",
        flags=EN_FLAGS,
    ),
    any_of(
        "テスト",
        "再現",
        "ワークロード",
        "ベンチマーク",
        "スイート",
        "実行",
        "ソーク",
        "連続稼働",
        "手順",
        "ジョブ",
        "負荷",
        "ケース",
    ),
)


#: A count, then "all of them" opening the next clause: 「20 本彫ったけど全部最後までいけた」.
ALL_N_SPLIT = re.compile(
    r"(?<!\d)\d+\s*(?:回|件|台|本|枚|個|人|巻)[^。]{0,16}?(?:けど|が|て)[、,]?\s*(?:全部|すべて|全て|ぜんぶ|どれも"
    # 「50 回解いたけど、再施錠は一回もなかった」: the runs, then not once the failure.
    r"|[^。、]{1,12}?(?:は|が)(?:一回|一度|1\s*回|1\s*度)も(?:なかっ|ありませ|出な|起きな|発生しな))"
    # 「3,000 個を最後まで充填しました」/「…全数で重量は規格内でした」: the count, then all of them.
    r"|(?<!\d)\d+\s*(?:回|件|台|本|枚|個|人|巻)[^。]{0,20}?(?:しました|した|ました)[^。]{0,30}?全(?:数|件|枚|台|本|個)(?:で|とも|が)"
)
#: A clause that goes on into the next: 「…赤でしたが、」, "…, but".
GOES_ON = re.compile(r"(?:が|けど|けれど|のに|ものの|て|で)[、,]?\s*$|\bbut\s*$")
