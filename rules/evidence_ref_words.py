"""Where a fix reference cannot be opened yet (docs/rules.md#what-each-input-must-state): only on the author's
machine, not pushed, or still to be pushed or opened. The lexicon `rules.evidence_refs` reads clauses with.
"""

from __future__ import annotations

import re

from rules.evidence_words import EN_FLAGS, any_of

#: Where a reference is not yet reachable by anyone else: only on the author's machine, or not pushed.
UNPUBLISHED = (
    any_of(
        r"\b(?:on|in) my (?:own |work |personal |home |old )?(?:laptop|machine|box|workstation|desktop|computer"
        r"|dev ?box|pc|mac|macbook|thinkpad|vm|checkout|clone|working directory|workspace|sandbox"
        r"|local (?:checkout|clone|copy|repo|branch|tree))\b",
        # A path in one person's home: "`~/src/vms-fw`", "/home/kenji/", "C:\\Users\\…".
        r"(?<![\w/])~/[\w./-]+|/home/\w+/[\w./-]*|\b[A-Z]:\\Users\\[\w.\\-]*",
        # "on the line-2 engineering laptop": a machine of one person or one place.
        r"\b(?:on|in) (?:the|a|an|our|his|her|their) (?:[\w-]+ ){0,3}(?:laptop|workstation|desktop pc|desktop)\b",
        r"\blocal (?:commit|branch|change|patch|checkout|copy|stash)\b|\blocal(?:ly)? only\b|\bonly local(?:ly)?\b"
        r"|\b(?:committed|saved|stashed) locally\b|\b(?:need|needs|have|has) (?:[\w ]{0,20} )?to push\b",
        r"\b(?:waiting|wait) (?:for|on) (?:the |a |an )?(?:maintainers?|upstream|vendor|them)\b",
        # Still to come: "will be in PR #456 once I rebase", "a new one is coming", closed without merging.
        r"\bwill be (?:in|part of|included in|up|available|ready|opened|pushed|merged|pr|mr|pull request)\b",
        r"\b(?:will|'ll|(?:is|are) going to) (?:cut|branch off)\b",  # "a branch they will cut Monday"
        r"\b(?:yet )?to be (?:cut|created|opened|pushed|made|branched|raised|filed|written|submitted|published"
        r"|tagged)\b",
        r"\b(?:once|after|when|as soon as) (?:i|we|they|someone|the team) (?:have |get |am |are )?(?!\w+ed\b|(?:got|did"
        r"|made|put|ran|sent|built|wrote|had|was|were|took|left|cut|set|saw|found)\b)\w+",
        r"\bclosed without merg\w*|\babandoned\b|\bdeclined\b|\bis coming\b|\bcoming (?:soon|later|up)\b"
        r"|\b(?:new|another|a new) (?:pr|mr|patch|change|cl) (?:is )?coming\b",
        r"\b(?:goes|go|will go|going) up\b(?:[^.;]|\.(?=\S)){0,60}?\b(?:as soon as|once|when|after)\b",
        # In a working copy, not pushed: "sitting in the working copy on the build box; origin doesn't have it yet".
        r"\bworking (?:copy|tree)\b|\buncommitted\b|\b(?:origin|the remote|upstream) (?:doesn't|does not"
        r"|don't) have it\b",
        # "was supposed to go up on Friday as #455, … nothing has been pushed since": a PR that never came.
        r"\bnothing (?:has been|was|is|got) (?:pushed|uploaded|opened|published)\b"
        r"|\b(?:was|were) (?:supposed|meant|due) to (?:go up|be (?:opened|pushed|up|posted))\b",
        r"\b(?:gets?|will (?:get|be)) (?:mirrored|synced|copied|uploaded|pushed|opened|created|raised|submitted)\b"
        r"[^.;]{0,60}?\b(?:when|once|after)\b",
        r"\b(?:goes|go|will go|going) up\b[^.;]{0,60}?\b(?:tonight|tomorrow|later|this (?:evening|afternoon))\b",
        r"\bunpushed\b|(?:\bnot|n't) (?:yet )?(?:on|in) (?:the )?(?:remote|origin|server|github|gitlab)\b",
        # A Perforce change kept back: "still shelved for review", "pending in my workspace".
        r"\bshelved\b|\bpending in (?:my|the|a|his|her|their) (?:own )?(?:workspace|client)\b",
        r"\b(?:haven't|have not|hasn't|has not|didn't|did not|not|isn't|wasn't|yet to)\s+(?:yet\s+)?(?:been\s+)?"
        r"(?:push|pushed|upload|uploaded|publish|published|put (?:it )?up|submit|submitted)\b",
        # "Pushing `fix/fd-leak` tonight after the rebase": the branch, by name or not, then when it goes up.
        r"\b(?:push|pushing)\s+(?:the )?(?:branch\b|`[^`\n]+`|Q\b)[^.;]{0,80}?\b(?:tonight|later(?: today)?|tomorrow"
        r"|once|when)\b",
        r"\b(?:push|pushing|upload|uploading|open|opening|publish|publishing) (?:it |this |the \w+ )?"
        r"(?:tonight|later(?: today)?|this (?:afternoon|evening)|tomorrow|after (?:lunch|the meeting)"
        r"|by (?:eod|end of (?:the )?(?:day|week)))\b",
        flags=EN_FLAGS,
    ),
    any_of(
        "ローカル(?:のみ|だけ|にのみ|にしか|ブランチ|コミット|環境にのみ)",
        "(?:開発機|作業機|自分の(?:PC|マシン|端末))(?:のみ|だけ|にのみ|にしか)",
        "ローカル(?:の)?(?:リポジトリ|リポ|クローン|clone)",
        "(?:私の|自分の)\\s*(?:(?:作業|検証|開発|試験)用の?\\s*)?(?:PC|マシン|端末|ノート|ラップトップ|VM|仮想マシン)\\s*(?:の中|内|上)",
        # 「（私の MacBook のみ）」: one person's machine, by its name.
        "(?:私の|自分の)\\s*[^。、\\s（）()]{0,12}?(?:PC|マシン|端末|ノート|ラップトップ|(?i:macbook|mac|thinkpad))\\s*(?:のみ|だけ|にのみ|にしか)",
        "リモート(?:に|には|へ)?(?:は)?(?:未反映|未push|未プッシュ|反映(?:して|され)(?:い)?(?:ない|ません)"
        "|\\s*(?:まだ\\s*)?(?:push|プッシュ)\\s*(?:して|され)(?:い)?(?:ない|ません|おらず))",
        "手元(?:のみ|だけ|にのみ|にしか|の(?:ブランチ|コミット|PC|マシン|リポジトリ)"
        "|に(?:あ|置|残)(?!る(?:検証|試験|評価|テスト|実|開発)?(?:機|環境|端末|装置|ボード|基板|個体|ベンチ|リグ)))",
        "未(?:プッシュ|push)",
        # 「手元の `fix/x` にあります」, not 「手元の検証機にも同じ変更を入れてあります」 beside the PR.
        "手元の(?!(?:検証|試験|評価|テスト|実|開発)?(?:機|環境|端末|装置|ボード|基板|個体|ベンチ|リグ))",
        "ローカルの",
        # 「制御 PC（オフライン）の作業ディレクトリにあります」: a working directory on one machine.
        "作業(?:ディレクトリ|フォルダ|ツリー|コピー)|ワーキング(?:ディレクトリ|コピー)|オフライン",
        "(?:push|プッシュ)(?:は|を)?[^。]{0,40}?(?:てから|た後|次第)(?:行います|します|やります|行う予定)",
        # 「rebase 終わったら PR #456 に入れる〜」「rebase 後に出します」: plain non-past, casual or not.
        "(?:たら|次第|後で|後に)[^。]{0,30}?(?:(?:積み|入れ|出し|上げ|載せ)ます|(?:積む|入れる|出す|上げる|載せる)(?![\u3040-\u30ff\u4e00-\u9fff]|つもり|予定))"
        "|(?:たら|次第|後で|後に)[^。]{0,30}?(?:積む|入れる|出す|上げる|載せる)(?:つもり|予定)",
        "(?:上げ|出し|push し|プッシュし)ようとしたが",
        # 「PR は明日作成予定です」: the PR, then when it will be made.
        "(?:PR|MR|プルリク)(?:は|を)?[^。]{0,12}?(?:作成|出す|出し|作る|上げ)(?:予定|ます|る(?:つもり|予定))(?!でしたが|だったが)",
        "(?:cherry-pick|チェリーピック|マージ|push|プッシュ)\\s*(?:します|する予定)",
        # 「今夜 push します」: still to come.
        "(?:今夜|今晩|今日中|本日中|明日|明朝|後で|あとで|夕方|午後|週明け|来週)(?:に|中に)?\\s*(?:push|プッシュ|PR|プルリク|MR)",
        "(?:push|プッシュ|PR を出|PR 作成|MR を出)\\s*(?:します|する予定|予定です|予定)",
        # 「来スプリントで切る予定のブランチ」: a branch still to be cut.
        "(?:切る|作る|作成する|出す|立てる|切り出す)予定の(?:ブランチ|PR|MR|コミット|プルリク)",
        "来スプリント|次(?:の)?スプリント",
        # 「（作成は v3.8 のリリースブランチ切り出し時）」: made when something still to come happens.
        "(?:作成|作る|切る|切り出す|切り出し)(?:の)?は[^。）)]{0,40}?(?:時|とき|際|後)(?!\\s*(?:でした|だった|に(?:作成|作)(?:しました|った)))",
        # 「push はまだ」「push していません」, not 「ブランチを push して作成した PR」.
        "(?:push|プッシュ)\\s*(?:は)?(?:まだ|(?:して|され|でき)(?:て)?(?:い)?(?:ない|ません|おらず))",
    ),
)

#: A commit named by a word that no SHA spells, code or not: "commit `abc123xyz`", "commit g3a7e21c" (not "r48213").
NOT_A_SHA = re.compile(
    r"(?:\bcommit|コミット)\s*(`?)(?!r\d+\b)(?=[0-9a-z]*\d)(?=[0-9a-z]*[g-z])([0-9a-z]{6,40})"
    r"(?:\1(?![\w`])(?<=`)|(?![\w`-]))",
    re.IGNORECASE,
)


#: A branch cut only when someone allows it, read over line breaks: "Branch `hotfix/x`, cut from `release/7.2` once
#: Thursday's change board signs off", "… as soon as the release manager⏎unfreezes the repository".
_CUT_LATER = re.compile(
    r"\bcut (?:from|off)\b(?:[^.;]|\.(?=\w)){0,60}?\b(?:once|when|after|as soon as)\b[^.;]{0,40}?\b(?:signs? off"
    r"|approves?|is approved|unfreezes?|lifts?|is lifted|thaws?)\b",
    re.IGNORECASE,
)


def cut_later(text: str) -> str | None:
    m = _CUT_LATER.search(text)
    return None if m is None else " ".join(m.group(0).split())


#: No pull request, said of a change that is a commit: "there's no PR, it went straight to trunk", 「PR はありません」.
NO_PR = re.compile(
    r"\b(?:there(?:'s| is| was) no|no|without an?|never opened an?|didn't open an?|did not open an?) "
    r"(?:pr|mr|pull request|merge request|review request)s?\b"
    r"|(?:PR|MR|プルリク(?:エスト)?|マージリクエスト)\s*(?:は|も)?\s*(?:まだ)?\s*(?:ありません|ない|無い|なし|作って(?:い)?(?:ません|ない)"
    r"|出して(?:い)?(?:ません|ない))",
    re.IGNORECASE,
)


#: No change of the fix itself, whatever else is linked: 「修正そのものの PR はありません」, "no PR for the fix".
NO_FIX_CHANGE = re.compile(
    r"\bthere(?:'s| is| was) no (?:pr|mr|pull request|merge request|commit|change|patch) (?:for|of) the fix\b"
    r"|修正(?:そのもの|自体)の\s*(?:PR|MR|プルリク(?:エスト)?|コミット|変更)\s*(?:は|が)\s*(?:ありません|ない|無い|存在しません)",
    re.IGNORECASE,
)


#: The change that brought the bug in, named as the only reference: "The regression came in with pull/2290".
INTRODUCED = re.compile(
    r"\b(?:regression|bug|issue|problem|breakage|defect|fault)s? (?:came in|was introduced|got introduced|crept in"
    r"|started) (?:with|in|by|via|through)\b|\b(?:introduced|caused) (?:the|this) (?:regression|bug|problem|issue)\b"
    r"|(?:不具合|バグ|デグレ|退行|問題)(?:は|が)[^。]{0,30}?(?:で|によって|により)(?:混入|入り込|持ち込まれ|発生するようにな)"
    r"|(?:変更|PR|コミット|リリース)(?:で|によって|により)[^。]{0,40}?(?:不具合|バグ|問題)が(?:入っ|入り|混入し|発生するようにな)",
    re.IGNORECASE,
)


#: A change that will not land: closed unmerged, abandoned, declined (ja: 「マージせずにクローズ」「差し戻し」).
DEAD = re.compile(
    r"\bclosed (?:without merg\w*|unmerged|and (?:not |never )merged)|\b(?:abandon(?:ed)?|declined|rejected)\b"
    r"|\bclosed (?:it|the pr|the mr)\b"
    r"|\((?:was |got )?closed\b|\b(?:it|the pr|the mr) (?:was|got|has been) closed\b"
    # "PR #611 — closed after review; … folded into the rewrite instead": closed, with no merge said of it.
    r"|(?:[—–:]|\s-)\s*closed\b(?![^.;]{0,60}?\bmerg)|\bclosed (?:after|following|in|during) (?:review|discussion)\b"
    r"|作り直し中|Abandon\s*済み"
    r"|マージせず(?:に)?(?:クローズ|閉じ)|クローズ\s*[（(]\s*マージなし"
    # Not 「issue #4411 をクローズした PR」: the PR that closed the issue.
    r"|(?:クローズ|却下|差し戻し)(?:され|し|に)(?:た|ました|なり|て|ちゃ)(?!\s*(?:PR|MR|プルリク|コミット|変更))"
    # 「（クローズ済み、マージはされていない）」: closed, and not merged.
    r"|クローズ済み?(?=[^。]{0,12}?マージ(?:は|も)?(?:されて|して)(?:い)?(?:ない|ません|おらず))"
    r"|\bclose\s*(?:しました|した)(?!\s*(?:PR|MR|プルリク|コミット|変更))",
    re.IGNORECASE,
)
