"""A hypothesis put to the test and dropped (or kept), en and ja: "ruled out with `-Xlog:gc`", "we thought …
until the bisect showed …", 「…という仮説は…を見て外しました」. A hedge in such a sentence is the idea tested, not the
writer's belief (docs/rules.md#no-hedging). Linear patterns, read on masked text.
"""

from __future__ import annotations

from functools import lru_cache

from rules.evidence_words import EN_FLAGS, any_of, search

#: A sentence about a hypothesis that was rejected, or a belief held only until something showed otherwise.
REJECTED = (
    any_of(
        r"\b(?:ruled out|rejected|disproved|disproven|refuted|turned out|was wrong|were wrong|not the cause"
        r"|did not hold|didn't hold|had expected\b[^.;]{0,60};\s*(?:it|that|this) (?:did not|didn't|was not|wasn't)"
        r"|wasn't the cause|at first|initially|we thought|had (?:assumed|suspected|believed)|first guess"
        r"|make sure it (?:wasn't|was not|isn't|is not)|to rule out"
        # A suspicion, then what was done about it: "I suspected the payload type, so I patched …".
        r"|\b(?:i|we|\w+) (?:suspected|guessed|assumed|thought|doubted|questioned)\b[^.;]{0,80}?,? so (?:i|we) "
        r"(?:\w+ )?"
        r"(?:patched|added|tested|checked"
        r"|forced|set|swapped|replaced|removed|disabled|enabled|reverted|wrote|built|ran|tried|changed|injected)\b"
        # The suspicion named as what the experiment tests: "To test the suspected double application, I wrote …".
        r"|to (?:test|check|confirm|verify|prove) (?:the |this |that |our |my )?(?:suspect(?:ed|ion)|hypothes\w*"
        r"|theory|guess)\b[^.;]{0,80}?,\s*(?:i|we)\s+(?:wrote|added|ran|built|patched|forced|set|made|swapped"
        r"|replaced|removed|injected|reverted|disabled|enabled)\b"
        # A belief held until something showed otherwise: "until we checked", not "idle until the watchdog resets it".
        r"|until (?:we|i|they|someone|somebody|the (?:test|experiment|bisect|trace|data)) (?:\w+ )?(?:saw|found|noticed"
        r"|checked|tried|ran|looked|measured|showed|proved|tested|bisected|reverted|read)"
        r"|rul(?:e|es|ed|ing) (?:\w+ ){1,3}out|(?:didn't|did not|doesn't|does not) change anything"
        r"|eliminated|excluded|dropped it|(?:first|initial|earlier|original|my|our) (?:hypothesis|theory|guess"
        r"|suspicion)"
        r"|(?:so )?(?:that|this|it) (?:was|is) out|(?:that|this|it) (?:wasn't"
        r"|was not) it"
        r"|not the culprit|(?:tested|checked|verified|confirmed) (?:the|this|that|our|a) (?:[\w-]+ )?"
        r"(?:hypothesis|theory)"
        r"|as (?:we )?(?:hypothesi[sz]ed|predicted)"
        # A hypothesis put to the test and kept: "the second hypothesis … is the one that held".
        r"|(?:the one that|which|that) (?:held|survived|checked out)|hypothes[ie]s\b[^.;]{0,80}\b(?:held|survived"
        r"|was (?:right|correct|confirmed)|(?:is|was) the one)"
        r"|hypothes[ie]s\s+(?:was|were)\s+(?:tested\s+and\s+)?(?:dropped|discarded|abandoned)"
        # "This stayed a hypothesis until I patched …": an idea until the writer's own test.
        r"|(?:stayed|remained|was|were) (?:a |an |only a |just a |our |my )?(?:hypothesis|theory|guess|suspicion)"
        r" until (?:i|we)\b"
        r"|(?:first|initially|originally|earlier) (?:suspected|thought|believed|assumed|guessed)"
        r"|changed nothing|made no difference|had no effect|(?:didn't|did not) help"
        # Measured and too small: "listed backlash as a hypothesis, measured 0.02 mm, so it cannot account for 2 mm".
        r"|\b(?:(?:it|that|this|which|they) (?:cannot|can't|could not|couldn't|does not|doesn't|did not|didn't)"
        r"|too small to) (?:account for|explain)"
        # "There was also a theory that the NAS was slow, so I moved the output to a local SSD": a guess put to a test.
        r"|(?:theory|hypothesis|suspicion)\b[^.;]{0,80}?,? so (?:i|we) (?:\w+ )?(?:moved|changed|swapped|ran|tried"
        r"|replaced|disabled|removed|pinned|forced|reran|re-ran|tested|switched)"
        r"|expected (?:\w+ ){0,4}to (?:matter|help|fix|change \w+)\b[^.;]{0,30}\b(?:didn't|did not|wasn't|weren't))\b",
        flags=EN_FLAGS,
    ),
    any_of(
        "否定",
        "棄却",
        "無関係だった|関係なかった|じゃなかった|違った",
        "違いました",
        "違っていました",
        "ではありませんでした",
        "ではなかった",
        "誤り",
        "最初は",
        "当初",
        "除外",
        "仮説[^。を]{0,40}を[^。]{0,40}?(?:検証|確かめ|テスト)",
        "違(?:った|ってた|っていた|ってました)(?=[。、,.!！?？]|$|けど|けれど|が|ね|よ|ので|から|わ)",
        "(?:では|じゃ)な(?:かった|かったです)",
        "関係(?:なかった|ありませんでした)",
        "外れ(?:た|でした|ました)",
        "思って(?:た|いた|いました|ました)(?:けど|けれど|が|ものの)",
        # A guess that led to a check with another outcome: 「…かもと思って `pg_locks` を見たけど…」.
        "(?:と|って)思って[^。]{0,40}?(?:見た|見て|確認し|調べ|試し|計測し|測っ|入れ替え|外し|無効化し|戻し)"
        "[^。]{0,40}?(?:けど|けれど|が、|ものの|ところ)",
        "仮説(?:どおり|通り)",
        # 「エンコーダ故障の仮説は、この結果からも成り立ちません」: the idea that the result leaves standing no more.
        "(?:仮説|説|疑い)(?:は|も)[^。]{0,30}?成り立(?:ちません|たない|たなかった|ちませんでした)",
        "仮説は\\s*(?:Q|[「『][^」』\\n]{1,120}[」』])\\s*(?:でした|だった)",  # 「仮説は「…」でした。」, then its test
        # 「ブレーキ側のバグという仮説は、…を見て外しました」: the idea dropped after a look.
        "(?:仮説|候補|疑い)[^。]{0,80}?外(?:し|れ)(?:ました|た|て)",
        # 「『…はず』という仮説を立て、…のパッチで 10 試合回したところ」: a guess set up to be tested, then run.
        "仮説を立て[^。]{0,80}?(?:回し|流し|実行し|試し|計測し|測っ|入れ|外し|無効化し|戻し)(?:た|て)",
        "予想(?:どおり|通り)",
        # 「『NAS が遅いだけかも』という仮説もあったので、保存先を変えて一晩撮影したところ」: a guess, then a test.
        "(?:仮説|説|疑い)(?:も|が)(?:あった|出た|あり)(?:ので|から|ため)[^。]{0,80}?(?:回し|流し|実行し|試し|変え|替え|入れ"
        "|外し|無効化し|戻し|撮影し|計測し|測っ)(?:た|て)",
    ),
)


@lru_cache(maxsize=256)
def rejects(sentence: str) -> bool:
    """Whether the sentence drops (or tests and keeps) a hypothesis."""
    return search(REJECTED, sentence) is not None
