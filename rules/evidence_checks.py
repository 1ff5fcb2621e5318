"""What a check was, beyond passing or failing, en and ja: vague timing instead of steps, a test that passed
before the fix as well, a soak run standing alone, a check still going. Each is an (English, Japanese) pair of
linear patterns, read by `rules.evidence` and `rules.evidence_clauses` (docs/rules.md#what-each-input-must-state).
"""

from __future__ import annotations

from rules.evidence_words import EN_FLAGS, any_of

#: Run until it happens, or a split of the runs: no rate was measured, however sure the steps read ("loop it until
#: it shows up", "some nights it finishes, some nights it dies", 「出るまで回して確認しました」「ある夜は全部通って、
#: ある夜は数回ハングします」). Read before the every-run markers (`rules.evidence`), and part of
#: `rules.evidence_run.NOT_ON_DEMAND`.
RUN_UNTIL_EN = (
    r"\b(?:until|till|til) (?:it|the (?:[\w-]+ ){0,2}?[\w-]+) (?:shows up|appears|happens|reproduces|triggers|occurs"
    r"|turns up|trips|asserts|dies|breaks|pops up|manifests|fails|crashes|hangs|errors out|blows up|falls over|panics"
    r"|deadlocks|segfaults|(?:goes|turns) (?:red|wrong|negative|bad|blank|dark|silent|stale|missing))\b"
    r"|\bsome (?:nights|runs|days|builds|times|attempts|tries|boots|jobs|deploys|iterations)\b"
    # "keep cycling racks until the turner skips a shelf", "if you keep going long enough".
    r"|\bkeep(?:s|ing)? (?:\w+ing|going|at it)\b(?=[^.;]{0,60}?\buntil\b)|\bif you keep (?:\w+ing|going|at it)\b"
    r"|\blong enough\b"
    # "Leave it running until the siren sounds the all-clear": run on, waiting for the failure to come.
    r"|\b(?:leave|let|keep|have) (?:it|them|the [\w-]+(?: [\w-]+)?) (?:running|run|going|on|soaking|cycling)\b"
    r"(?=[^.;]{0,30}?\b(?:until|till|til)\b)"
    r"|\bwithin (?:an? |a few |some |several )?(?:hours?|minutes?|days?|nights?) or so\b"
)
RUN_UNTIL_JA = (
    "(?:出る|起きる|起こる|再現する|発生する|落ちる|失敗する|止まる|固まる)まで(?:回|繰り返|実行|流|待|走らせ|続け|ループ"
    # 「出るまで開け閉めしてください」: any action, repeated until it comes.
    "|[^。、]{1,8}?(?:して|やって|続けて)(?:ください|下さい|みて|ね))"
    # 「ハングするまで繰り返して」: any happening, then repeated until it comes.
    "|(?:する|なる|る)まで(?:繰り返|ループ|リトライ|回し続け|流し続け)"
    "|ある(?:夜|日|回|時|とき)は[^。]{0,40}?ある(?:夜|日|回|時|とき)は"
)
RUN_UNTIL = (any_of(RUN_UNTIL_EN, flags=EN_FLAGS), any_of(RUN_UNTIL_JA))

#: Vague timing: "use it for a while, eventually …", 「そのうち」. Unlike a vague rate, an every-run marker after it
#: in the same sentence still counts ("after a while it hangs, every run").
VAGUE_TIMING = (
    any_of(
        r"(?<!-)\beventually\b(?!-)|\b(?:after|for) a while\b|\bat some point\b|\bsooner or later\b|\bover time\b"
        r"|\bafter (?:a few|several|some|many) (?:hours|days|minutes|weeks)\b|\btakes a while\b"
        # A count per period: "roughly twice a quarter", "a few times a year".
        r"|\b(?:once|twice|(?:\d+|two|three|four|five)(?: or (?:\d+|two|three|four|five|six))? times"
        r"|a (?:few|couple of|handful of) times)"
        r" (?:a|per|every|this|last) (?:day|week|month|quarter|year|sprint|shift"
        r"|release)\b",
        flags=EN_FLAGS,
    ),
    any_of(
        # 「そのうち 7 回で」 is "of those, 7": a count, not "some day".
        "そのうち(?!の?\\s*(?:\\d|[一二三四五六七八九十何数半]))",
        "いつの間にか",
        "いつか",
        "しばらく(?:使|操作|触|動かし|放置)",
        # How often by the calendar: 「月に 2、3 回」「週に 1、2 回」.
        "(?<![\u4e00-\u9fff])(?:月|週|年)に\\s*(?:\\d+|一|二|三|数)(?:\\s*[、,〜~-]\\s*\\d+)?\\s*(?:回|度)",
    ),
)
#: A test that passed before the fix too shows nothing about the fix: "it was already passing", 元々パスしていた.
PASSED_BEFORE = (
    any_of(
        r"\b(?:already|also|even) pass\w* (?:[\w-]+ ){0,4}?(?:before|without)\b"
        r"|\b(?:was|were) (?:already )?(?:passing|green|passed) (?:before|all along)\b|\b(?:was"
        r"|were) (?:already )?passing before (?:too|as well)\b"
        r"|\bpass\w* (?:even |also )?(?:before the fix|without the fix|on the old (?:code|build|version))\b"
        r"|\b(?:pass\w*|green) before (?:the (?:fix|change|patch) )?(?:too|as well)\b"
        r"|\b(?:was|were) (?:also |already )?(?:passing|green|fine|ok) (?:on|against)\s+Q\s+(?:too|as well|before)\b"
        r"|\b(?:was|were|is|are) (?:also |already )?(?:passing|green|fine|ok) (?:on|against) (?:main|master|trunk)"
        r"(?: too| as well| before)?\b"
        r"|\bpass\w* (?:on|against|with) (?:main|master|trunk|the old (?:code|build|version)|the base(?:line)?)"
        r" (?:too|as well)\b|\bpass\w* (?:on|against) (?:main|master|trunk) before\b"
        # "it was green throughout the incident period as well": passing while the bug was there.
        r"|\b(?:green|passing|passed|fine) (?:throughout|during|all through) the (?:incident|outage|regression)\b"
        r"|\b(?:pass\w*|green|succeed\w*|fine) (?:even|also|already) (?:before|without) (?:the|this)"
        r" (?:fix|change|patch)\b"
        # "`test_zone_boundaries` passes, as it did on main before the fix".
        r"|\bas (?:it|they) did (?:on (?:main|master|trunk) )?(?:before|without) (?:the |this )?(?:fix|change|patch)\b"
        # "passes on the fix branch, as it did on `main`": the same pass without the fix.
        r"|\bas (?:it|they) did on (?:main|master|trunk|the old (?:code|build|version))\b",
        flags=EN_FLAGS,
    ),
    any_of(
        "(?:元々|もともと|修正前から|修正(?:前|なし)(?:の(?:ビルド|版|コード|ブランチ|ファーム(?:ウェア)?))?(?:で|に)?も|(?:修正|パッチ|変更)(?:を)?(?:当てる|入れる|適用する)前(?:から|も)"
        "|以前から|最初から)(?:(?!失敗|落ち|エラー|NG|赤)[^。、]){0,20}(?:パス|(?i:pass)|通|成功|緑|グリーン|問題な|OK|(?:出|起き)て(?:い)?(?:ない|ません|なかった))"
    ),
)
#: A long or heavy run: on its own it does not show that the original repro or the failing test passes.
SOAK = (
    any_of(
        r"\b\d+[- ]?(?:h|hours?|days?|nights?)(?: long)?(?:\s+(?:soak|stress|burn-in|endurance|overnight))?"
        r"(?:\s+(?:tests?|runs?|testing))?\b"
        r"|\b(?:soak|stress|burn-in|endurance|long-running|overnight)(?:\s+(?:tests?|runs?|testing))?\b",
        flags=EN_FLAGS,
    ),
    any_of(
        "ソーク(?:テスト)?",
        "連続(?:稼働|運転|試験|運用)",
        "長時間(?:稼働|運転|試験|テスト)?",
        "耐久(?:テスト|試験)?",
        "エージング",
        "ストレス(?:テスト|試験)?",
        "負荷(?:テスト|試験)",
        "\\d+\\s*(?:時間|日間)",
    ),
)


#: A check still going: "the replay is running now", 「リプレイを実行中」. A condition ("while the job is running")
#: is a step of a repro, not a check.
RUNNING = (
    any_of(
        r"(?<!while )(?<!when )(?<!whenever )(?<!as )\b(?:is|are) (?:still |currently |now )?"
        r"(?:running|under ?way|in flight|being (?:run|replayed|tested))\b"
        r"(?! (?:fine|normally|smoothly|ok|okay|well|again|correctly|stabl[ey])\b)",
        # A bisect or a search still going: "is narrowing it down: step 7 of 12", "currently pointing at".
        r"\b(?:is|are) (?:still )?narrowing\b|\bstill bisecting\b|\bcurrently\s+(?:pointing|bisecting|at\s+step)\b"
        r"|\bbisect\b(?:[^.;]|\.(?=\d)){0,80}?\bis\s+at\s+step\s+\d+\s+of\s+\d+"
        r"|(?:バイセクト|二分探索|bisect)[^。]{0,40}?\d+\s*ステップ中\s*\d+\s*ステップ目"
        # 「現在 11 ステップ中 6 ステップ目で」: a search still at one of its steps, its tool named in code.
        r"|(?:現在|今|いま)\s*\d+\s*ステップ中\s*\d+\s*ステップ目"
        # "Booked the staging database for Friday to run the revert": a slot taken for a run still to come.
        r"|\b(?:booked|reserved|scheduled|requested|blocked out)\b[^.;]{0,60}?\b(?:for|on)"
        r" (?:\w+day|tomorrow|next \w+)\b[^.;]{0,20}?\bto (?:run|test|try|replay|verify|confirm|do|repeat)\b"
        # "booked the wheel for the 18 July engineering night": the slot for a check, the check not yet run.
        r"|(?<!is )(?<!'s )(?<!are )(?<!was )(?<!been )\b(?:booked|reserved)\b[^.;]{0,60}?\bfor (?:the )?"
        r"(?:\d{1,2}(?:st|nd|rd|th)? \w+|\w+day|tomorrow|next \w+"
        r"|\d{1,2}/\d{1,2})\b(?![^.;]{0,80}?\b(?:ran|showed|passed|failed|got|saw|confirmed|came)\b)"
        r"|\bstep \d+ of \d+ as of\b"
        r"|\b(?:it's|it is|we're|we are|now) (?:at|on) (?:run|step|iteration|cycle|trial) \d+ of \d+\b"
        r"|\bwill (?:finish|complete|be done|end) (?:overnight|tonight|tomorrow|later)\b",
        # Decided, not done: "we decided that we would revert `c0ffee12` … and run it 60 times".
        r"\b(?:decided|agreed|planned|arranged) (?:that )?(?:we|i|they|the team) (?:would|will|should|'d)\b",
        # The runs done, their outcome still being worked out: "the results are being collated".
        r"\bresults? (?:is|are) (?:still )?being (?:collated|compiled|tallied|analy[sz]ed|written up|counted)\b"
        r"|\b(?:waiting|still waiting) (?:on|for) the (?:results|numbers|tally|counts)\b"
        r"|\b(?:ran|did|completed) (?:0|zero|none of the) (?:runs|sets|cycles|trials|times)\b",
        flags=EN_FLAGS,
    ),
    any_of(
        # 「結果は集計担当がまとめています」: the runs done, their outcome still being worked out.
        "結果は[^。]{0,20}?(?:まとめて(?:います|いる|る)|集計(?:中|して(?:います|いる))|待ち|確認中|これから)",
        # 「実際に流したのは 0 セット」: the runs set up, none done.
        "(?:流し|回し|実行し|試し|やっ)たのは\\s*(?:0|ゼロ)\\s*(?:回|セット|件|本|サイクル)",
        "(?:実行|検証|テスト|試験|リプレイ|再生|計測|測定|構築|準備|作成|用意|セットアップ|(?i:bisect)|二分探索|切り分け|集計|解析"
        "|分析|整理)"
        "(?:を)?(?:実施)?\\s*中"
        "(?:です|だ|。|で(?!は)|、|$)",
        # A run still going, counted so far: 「昨晩から流していて、現在 12 回目まで終わっています」.
        "(?:流し|回し|走らせ|実行し|続け)ていて|現在\\s*\\d+\\s*(?:回目|周目|本目|件目|時間目|日目)|(?:ここ|今)まで(?:の)?\\s*\\d+\\s*回",
        "(?:今夜|今晩|今日|昨晩|昨夜|今朝|先ほど)から(?:流し|回し|走らせ|実行し)てい(?:ます|る)",
        "結果は[^。]{0,10}(?:追記|共有|報告)(?:します|する予定)",
        "(?:終わ|完了し|済ん)(?:ったら|だら|次第)[^。]{0,30}?(?:結果|報告|共有|追記|書き|比べ|計測|測定)",
        "(?:回して|流して|走らせて|実行して|進めて)(?:いるところ|い?る最中)|残り\\s*\\d+\\s*(?:ステップ|回|件|本)"
        "|(?<!\\d)\\d+\\s*(?:ステップ|回|件)中\\s*\\d+\\s*(?:ステップ|回|件)?まで(?:来|進ん|終わっ)",
        # A check ahead, said in the plain non-past: 「完成したら…版で試す」「明日確認する」.
        "(?:試|確かめ)(?:す|る|します|てみる|てみます)(?:予定|つもり)?(?:。|$)",
        # 「実機での確認枠を 7/18 のエンジニアリングナイトに確保しました」: a slot taken for a check still to come.
        "(?:枠|スロット|マシンタイム|観測時間|時間帯)を[^。]{0,30}?(?:確保|予約)(?:しました|済み|した|してあります|してい(?:ます|る))",
        # Decided, not done: 「100 回ずつ試すことにしました」.
        "(?:(?:試|確かめ|流|回)(?:す|る)|[\u4e00-\u9fff]{2}(?:を)?する)ことに(?:しました|した|なりました|なった)",
    ),
)


#: Nothing seen while watching: 「監視ツールで様子を見ていました。アラートは 1 件も出ませんでした」, "no alerts fired".
NO_ALERT = (
    any_of(
        r"\bno (?:[\w-]+ )?(?:alerts?|alarms?|pages?|errors?|reports?)"
        r" (?:fired|came in|showed up|went off|were raised)\b",
        flags=EN_FLAGS,
    ),
    any_of(
        "(?:アラート|警報|通知|エラー|報告|問い合わせ)(?:は|が|も)?\\s*(?:\\d+\\s*件も|一件も|一度も|1\\s*回も)?\\s*"
        "(?:出|鳴|上が|来)(?:ませんでした|なかった|てい(?:ない|ません))"
    ),
)


#: What a check still needs before it can run: "a few more nights are needed", "needs the HIL rig, which is booked
#: until Thursday". Read in a validation only: in a repro, "needs a 3-node cluster" is a step.
NEEDS = any_of(
    r"\b(?:more|further|additional|a few more|several more|another) (?:\w+ )?(?:runs?|nights?|days?|testing|tests?"
    r"|soak|data|time|iterations?|cycles?|weeks?) (?:are |is |will be )?(?:needed|required|necessary)\b",
    r"\b(?:needs?|requires?) (?:the |a |an |access to |time on )?[\w -]{0,30}?\b(?:rig|bench|lab|device|hardware"
    r"|cluster|board|environment|window|slot|printer|machine|station)\b"
    # Not "booked through the ops calendar": "through" a time, not through a channel.
    r"|\b(?:booked|blocked|unavailable|busy|reserved)\b[^.;]{0,40}?\b(?:until|till|through (?:the )?(?:end|next"
    r"|\w+day|week|weekend|month|tomorrow|\d))\b",
    flags=EN_FLAGS,
)


#: 「判定にはあと数晩必要で、予約が取れ次第続ける」: more runs needed before the check can judge.
NEEDS_JA = any_of(
    "(?:判定|確認|結論|評価|検証)には(?:あと|さらに|もう)[^。]{0,12}?必要|(?:取れ|空き|空い|戻り)次第(?:続け|再開|実施|回)"
)
