"""What a check was, beyond passing or failing, en and ja: vague timing instead of steps, a test that passed
before the fix as well, a soak run standing alone. Each is an (English, Japanese) pair of linear patterns,
read by `rules.evidence` and `rules.evidence_clauses` (docs/rules.md#what-each-input-must-state).
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
        r"|a (?:few|couple of) times)"
        r" (?:a|per|every) (?:day|week|month|quarter|year|sprint"
        r"|release)\b",
        flags=EN_FLAGS,
    ),
    any_of(
        "そのうち",
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
        r"|\b(?:was|were) (?:also |already )?(?:passing|green|fine|ok) (?:on|against)\s+Q\s+(?:too|as well)\b"
        r"|\b(?:was|were|is|are) (?:also |already )?(?:passing|green|fine|ok) (?:on|against) (?:main|master|trunk)"
        r"(?: too| as well| before)?\b"
        r"|\bpass\w* (?:on|against|with) (?:main|master|trunk|the old (?:code|build|version)|the base(?:line)?)"
        r" (?:too|as well)\b|\bpass\w* (?:on|against) (?:main|master|trunk) before\b"
        r"|\b(?:pass\w*|green|succeed\w*|fine) (?:even|also|already) (?:before|without) (?:the|this)"
        r" (?:fix|change|patch)\b",
        flags=EN_FLAGS,
    ),
    any_of(
        "(?:元々|もともと|修正前から|修正(?:前|なし)(?:の(?:ビルド|版|コード|ブランチ|ファーム(?:ウェア)?))?(?:で|に)?も|(?:修正|パッチ|変更)(?:を)?(?:当てる|入れる|適用する)前(?:から|も)"
        "|以前から|最初から)[^。、]{0,20}(?:パス|(?i:pass)|通|成功|問題な|OK|(?:出|起き)て(?:い)?(?:ない|ません|なかった))"
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
