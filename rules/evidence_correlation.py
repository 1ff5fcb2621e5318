"""A correlation in time is not a mechanism (docs/rules.md#mechanism): "since we upgraded", "regressed with the move
to SDK 2023.2", 「v4.2.1 に上げてから…ようになった」. `rules.evidence_cause` skips a clause that says one, and the
effect said after it.
"""

from __future__ import annotations

from rules.evidence_words import EN_FLAGS, any_of

#: "since we upgraded", "v4.2.1 に上げてから…ようになった": a correlation in time, not a mechanism.
CORRELATION = (
    any_of(
        r"\b(?:since|after|ever since) (?:we |i |they |the team |the |an? |our )?(?:[\w-]+ ){0,2}?(?:upgrad"
        r"|updat|bump|deploy"
        r"|install|switch|roll"
        r"|mov|migrat|chang|went|port|releas)\w*",
        r"\b(?:started|began|appeared|showed up) (?:\w+ )?(?:after|since|once|with|when)\b",
        # "regressed with the move to SDK 1.3", "since then …": the change in time, not what in it goes wrong.
        r"\b(?:regressed|broke|degraded|got (?:slower|worse)) (?:with|after|since|in) (?:the |that |this )?(?:move"
        r"|upgrade|update|bump|switch|migration|release|deploy\w*|version|firmware|build|v?\d)",
        # "started dropping from red to yellow with radio firmware 2.8.1": a symptom dated by a release.
        r"\b(?:started|began) (?:[\w-]+ ){1,6}?(?:after|since|with|once) (?:the |that |a )?(?:[\w-]+ )?(?:firmware"
        r"|version|release|build|update|upgrade|v?\d+\.\d)"
        r"|\b\w+s (?:still |left )(?:on|running) (?:v|version |firmware |release )?\d+(?:\.\d+)*"
        r" (?:don't|do not|never|doesn't|does not)\b",
        r"(?:^|[.;]\s*)(?:ever )?since then\b",
        # "…; before the upgrade the replays matched frame for frame": the other side of the same change in time.
        r"\b(?:before|until|prior to) (?:the |our |that |this )?(?:upgrade|update|move|migration|bump|switch|release"
        r"|deploy\w*|rollout)\b",
        r"\b(?:correlat\w+|coincid\w+|lines? up)(?: \w+ly)? (?:with|within)\b",
        r"\b(?:the )?timing (?:matches|lines up with|coincides with|fits)\b|\bmatches the (?:rollout|deploy\w*|release"
        r"|upgrade|bump)\b",
        # "… started the same day we bumped the base image": a coincidence in time.
        r"\b(?:started|began|appeared|showed up)\s+(?:on\s+)?the same (?:day|week|night|hour|time)\b"
        # "started the day the turnstiles got firmware 7.1": the day of a change.
        r"|\b(?:started|began|appeared|showed up)\s+(?:on\s+)?the (?:day|week|night|morning|month|shift|evening)\b"
        r"(?=[^.;]{0,40}?\b(?:got|received|took|upgrad\w*|updat\w*|bump\w*|deploy\w*|install\w*|switch\w*|swapp\w*"
        r"|replac\w*|chang\w*|flash\w*|patch\w*|migrat\w*|introduc\w*|enabl\w*|roll\w*|ship\w*|merg\w*|retrofitt\w*"
        r"|fitted|firmware|version|release))"
        r"|\bthe (?:same )?day (?:we|they|i|someone|the \w+ team) (?:bumped|upgraded|moved|deployed|switched|updated"
        r"|rolled|swapped|replaced|changed|flashed|installed|patched|migrated|enabled|introduced|shipped|merged)\b"
        # "began dropping SIP when the signature pack moved from 2024.11 to 2025.01": the change in time.
        r"|\b(?:started|began)\b[^.;]{0,60}?\b(?:when|after|once|since)\b[^.;]{0,40}?\b(?:moved|went|changed"
        r"|switched|upgraded|updated|migrated|swapped|replaced|bumped)\b(?: \w+)? (?:from|to)\b",
        # "libcurl 8.4 changed connection reuse": a release named as changing something, not what goes wrong.
        r"(?:\bv?\d+(?:\.\d+)+|\brelease|\bupgrade|\bupdate)\s+(?:changed|reworked|rewrote|modified|altered|tweaked)\b",
        # "libpq 16.1 reworked how X deals with Y": a change named, not what in it goes wrong.
        r"\b(?:reworked|changed|rewrote|refactored|touched|modified|reimplemented|redid|overhauled) (?:how|the way"
        r"|what|when|where)\b",
        r"\b(?:reverting|downgrading|rolling back|pinning it back) to (?:v?\d|the previous|the old|the last)",
        # "Since firmware 3.1 the controller skips floor 12": a version named as when it began.
        r"\b(?:since|starting with|from|as of) (?:firmware|version|release|build|fw|sdk|v)\s*v?\d+(?:\.\d+)*\b"
        r"|\b(?:since|starting with|as of) v?\d+\.\d+(?:\.\d+)*\b",
        # "Version 2.3 never did this", "the 2.4 diff touches the ADC driver": the versions compared, not a mechanism.
        r"\b(?:version |release |firmware |v)?\d+(?:\.\d+)+ (?:never|didn't|did not|doesn't|does not) (?:do|did|have"
        r"|show|had)\b"
        r"|\b(?:the )?(?:v?\d+(?:\.\d+)+ )?(?:diff|change ?log|change ?set|release notes?|upgrade|update)"
        r" (?:touches|touched|changes|changed|modifies|modified|includes|included|mentions|mentioned|lists|listed"
        r"|says|said|notes|noted)\b",
        # "all three affected races ran on 3.0": the failures share a version, nothing said of what goes wrong.
        r"\b(?:all|every|each|both|the) (?:\w+ ){0,2}?(?:affected|failing|failed|broken|bad|faulty) [\w-]+ (?:\w+ )?"
        r"(?:ran|run|were|was|are|is) (?:all )?(?:on|with|using) (?:v|version |firmware |release |build )?\d",
        # "Every station that took 5.1 shows it …; the ones still on 5.0 don't": units grouped by version.
        r"\b(?:every|each|all|any|the) (?:\w+ ){0,2}?(?:that|which|who) (?:took|got|has|have|had|runs?|ran|received"
        r"|installed|updated to|moved to) (?:the )?(?:v|version |firmware |release |build )?\d+(?:\.\d+)+"
        r"|\bthe ones (?:still |left )?(?:on|running|with) (?:v|version |firmware |release )?\d+(?:\.\d+)+\b"
        # "Every affected image was taken after the linac moved to 6 MeV, and none before": sorted by time.
        r"|\b(?:every|each|all) (?:[\w-]+ ){0,2}?(?:affected|bad|failing|failed|broken|faulty|wrong) [\w-]+ "
        r"(?:[\w-]+ ){0,2}?(?:was|were|came|happened|started) (?:\w+ )?(?:after|since)\b|\band none before\b"
        # "Every mis-tinted can since then came from a machine on 5.1": the failures sorted by version.
        r"|\b(?:came|come|comes) from (?:a |the |one )?(?:[\w-]+ ){0,2}?(?:on|running|with) (?:v|version |firmware"
        r" |release )?\d+(?:\.\d+)+\b",
        # "`axle_group()` is the only module that changed in that release": a change named, not what it does wrong.
        r"\b(?:is|was|were|are) the (?:only|one|sole) (?:\w+ )?(?:module|file|part|component|function|thing|code|change"
        r"|library|driver|package)s? (?:that |which )?(?:changed|was touched|was modified|moved|differs)\b",
        # The conclusion of a correlation names the change, not what in it goes wrong: "so it's the upgrade".
        r"\b(?:it's|it is|it was|must be|blame|(?:root )?cause (?:is|was)) (?:the |our |this )?(?:[\w.]+ ){0,2}"
        r"(?:upgrade|update|deploy\w*|release|migration|bump|version|switch|move)\b",
        flags=EN_FLAGS,
    ),
    any_of(
        "ようになった|ようになりました|ようになって",
        # 「ドライバの更新とも時期が一致しています」: a coincidence in time.
        "(?:時期|タイミング|時刻|日付)(?:が|も)?(?:一致|重な|同じ)|同時期",
        "(?<![\\d.])v?\\d+(?:\\.\\d+)+\\s*(?:に|へ)(?:し|上げ|更新し|変え|移行し)て(?:から|以来|以降)",
        "(?:上げ|更新し|アップデートし|アップグレードし|導入し|デプロイし|切り替え|入れ替え|移行し|乗り換え|移し|移っ"
        "|変え|替え|適用し|リリースし|マージし)て(?:から|以来|以降)",
        "(?:移行|更新|アップデート|アップグレード|導入|デプロイ|切り替え|リリース)(?:（[^）]{0,30}）|\\([^)]{0,30}\\))?"
        "(?:後|以降|以来)(?:、|は|に|っす|です|だ|でした)",
        # 「3.0 に上げたリリースから発生している」: the change in time, not what in it goes wrong.
        "(?:上げ|更新し|入れ|変え|移行し|導入し|切り替え)た(?:リリース|バージョン|版|ビルド|デプロイ|タイミング)(?:から|以降|以来)",
        # 「カーネルを 6.1 に上げた 5 月以降に…」: the change dated, then what began after it.
        "(?:上げ|更新し|入れ|変え|移行し|導入し|切り替え)た[^。、]{1,12}?(?:以降|以来)",
        # 「スキャナを TG-5 に入れ替えた日から発生」「分配器の交換（2/3）から始まっています」: the day of a change.
        "(?:上げ|更新し|入れ|変え|替え|移行し|導入し|切り替え|入れ替え|交換し|置き換え|配信し|適用し|リリースし|デプロイし)"
        "た(?:日|週|月|晩|夜|朝|頃|とき|時|\\s*\\d{1,2}/\\d{1,2}|\\s*\\d{1,2}\\s*月\\s*\\d{1,2}\\s*日)\\s*(?:から|以降|以来)",
        "(?:交換|入れ替え|置き換え|導入|更新|アップデート|アップグレード|配信|リリース|デプロイ|移行|切り替え|適用)"
        "(?:（[^）]{0,30}）|\\([^)]{0,30}\\))?(?:の日)?(?:から|を境に)(?:始ま|発生し|起き|出(?:始め|るように))",
        "(?:バージョン|ファーム(?:ウェア)?|版|リリース|(?<![\\d.])v?\\d+(?:\\.\\d+)+)\\s*(?:以降|から)(?:、|は|で)",
        "(?:アップデート|更新|アップグレード|リリース|デプロイ)(?:が|こそが)原因",
        # 「SDK 1.3 への移行で退行しました」: the change in time named with the regression, not what in it goes wrong.
        "(?:移行|更新|アップデート|アップグレード|バージョンアップ|切り替え|乗り換え|導入|リリース|デプロイ|変更)"
        "(?:(?:し|され)たこと)?(?:で|によって|により|に伴(?:って|い)|を境に|を機に|の(?:後|あと)で?)(?:[^。、]{0,12}?)"
        "(?:退行|デグレ|劣化|壊れ|悪化|不具合が(?:出|発生)|(?:発生|再現)する(?:ように|ようになり))",
        # 「移行で `rot_timer` の実装も変わっています」: a change named, not what in it goes wrong.
        "(?:移行|更新|アップデート|アップグレード|バージョンアップ|切り替え|リリース)(?:で|に伴って|によって|により)[^。]{0,30}?"
        "(?:実装|処理|挙動|仕様|コード|中身|内部)(?:も|が)?(?:変わ|変更され|書き換えられ)",
        # 「2.3 で `depth_filter` 周りがかなり書き換わっているので」: a version changing a part, not what goes wrong.
        "(?<![\\d.])(?:v\\d+(?:\\.\\d+)*|\\d+(?:\\.\\d+)+)(?:\\s*系)?\\s*(?:で|では)[^。]{0,30}?(?:が|も|は)?(?:かなり|大きく|大幅に|だいぶ)?"
        "(?:書き換わ|書き換えられ|変わ|変更され|改修され|作り直され|移し|移され|移動し|置き換え|差し替え)",
        # 「発生した案件はすべてその後に処理されたもの」: every failure sorted after the change.
        "(?:発生した|影響(?:を受けた|のあった)|失敗した)[^。]{0,12}?(?:は)?(?:すべて|全て|全部)(?:その後|それ以降|リリース後|移行後)",
        # 「移行前の 3 か月間は一度も出ていません」: the time before the change, set against the time after it.
        "(?:(?:移行|更新|アップデート|アップグレード|導入|切り替え|リリース|バージョンアップ)(?:前|以前)|それ以前|その前)(?:の|は|に|まで)"
        "(?:[^。、]{0,8}?\\d+\\s*(?:か月|ヶ月|カ月|週間|日間|年)|[^。]{0,30}?(?:一度も|出て(?:い)?(?:ない|ません)|なかった))",
        # A version put back, and the symptom goes: 「2.2 に戻すと出ない」 ties it to the version, not to a mechanism.
        "(?:に|へ)(?:戻す|戻した|ダウングレードする|ダウングレードした)(?:と|ら)",
    ),
)
