"""The cause not known yet, in either language: "unknown, still investigating", "not fully understood", 原因は調査中,
「切り分けできていません」. Read by `rules.evidence` sentence by sentence; every pattern is linear.
"""

from __future__ import annotations

import re

from rules.evidence_other_matter import ANOTHER_PROBLEM
from rules.evidence_words import EN_FLAGS, any_of

#: The cause is not known yet: "unknown, still investigating", 原因は調査中.
UNKNOWN = (
    any_of(
        r"\b(?:still|currently|being|under|are|is|am) (?:investigat\w*|debugg\w*|analy[sz]\w*|triag\w*|looking into"
        r"|digging into|root[- ]?causing)\b",
        r"\binvestigation (?:is )?(?:ongoing|continues|in progress|pending|underway)\b",
        r"\broot[- ]?caus(?:e|ing) (?:is )?(?:tbd|pending|in progress|ongoing|unknown|unclear|not (?:yet )?known)\b",
        r"\b(?:cause|reason|mechanism|origin|trigger|culprit)s? (?:(?:is|are|was|remains?|stays?|still|currently|as yet"
        r"|yet) ){0,3}(?:unknown|unclear|undetermined|not (?:yet )?(?:known|understood|clear|identified|determined"
        r"|confirmed|found))\b",
        r"(?:^unknown|^\s+unknown|[:(\-]\s*unknown)\b(?=\s*(?:[,.;:!)\-]|$))",
        r"(?<!which )(?<!that )\b(?:is|are|remains|still|currently) unknown\b"
        r"(?! to\b| in\b| for\b| by\b| on\b| until\b| at\b| when\b| before\b| after\b)",
        r"\b(?:we|i|nobody|no one|anyone) (?:still )?(?:don't|do not|didn't|did not|does not|doesn't) (?:yet )?"
        r"(?:know|understand)\b",
        r"\bno (?:idea|clue)\b|\bunknown (?:why|how)\b|\bnot (?:known|clear|sure) (?:why|how)\b",
        r"\b(?:not|never) (?:yet )?(?:been )?(?:root-?caused|pinned down)\b",
        r"\bnot (?:yet |fully |entirely |completely |really |well )*(?:understood|explained|identified|determined)"
        r"(?: yet)?\b",
        r"\b(?:we|i) (?:still )?(?:haven't|have not) (?:yet )?found\b",
        # The link left open: "How the wrap reaches `stop_detect()` we have not traced", "not traced yet".
        r"\b(?:(?:we|i) (?:still )?(?:haven't|have not|didn't|did not|couldn't|could not) (?:yet )?|(?:is|was|are|were)"
        r" (?:not|never) (?:yet )?(?:been )?)(?:traced|followed|worked out|connected|tied)\b"
        r"(?! (?:back|to|it|this|that|the)\b)",
        r"\b(?:haven't|have not|hasn't|has not) (?:yet )?(?:been )?"
        r"(?:identified|determined|figured out"
        r"|pinned down|isolated|root-?caused|understood)\b",
        r"\byet to (?:be )?(?:find|found|identify|identified|determine|determined|understand|understood"
        r"|root-?caused?)\b",
        r"\b(?:we|i) (?:still )?(?:can't|cannot|couldn't|could not|are unable to|were unable to|am unable to) (?:yet )?"
        r"(?:explain|identify|determine|find|pin down|tell|confirm|say)\b",
        r"\b(?:nobody|no one) (?:knows|understands)\b",
        r"\b(?:needs?|requires?) (?:more|further) (?:investigation|debugging|analysis|digging|work to understand)\b",
        r"\bpending (?:rca|root cause|investigation|analysis)\b",
        r"\b(?:cause|mechanism)s? (?:is |are )?(?:still )?under (?:review|investigation|analysis)\b",
        r"\bmyster(?:y|ious(?:ly)?)\b|\bunexplained\b|\bno (?:known |clear )?root cause\b|\bwithout a root cause\b",
        r"\b(?:tbd|tbc|to be (?:determined|confirmed|investigated|found))\b",
        flags=EN_FLAGS,
    ),
    any_of(
        "原因(?:は|が)?(?:まだ|いまだ|未だ|現在も?|今も)?(?:不明|わかって(?:い)?(?:ません|ない)|分かって(?:い)?(?:ません|ない)"
        "|特定(?:でき|され)て(?:い)?(?:ません|ない)|未特定|未解明|調査中|分析中|解析中|究明中|確認中)",
        "(?:調査|解析|分析|究明|原因究明|切り分け|デバッグ)(?:中(?!に|の)|を続けて|を継続|しているところ)",
        "不明(?=です|でした|だ|。|$|、|のまま|なまま|な点|\\s)",
        "(?:わかって|分かって|判明して|解明されて|特定できて|特定されて)(?:い)?(?:ません|ない|おらず)",
        "(?:わかり|分かり|判り)ません",
        "(?:わから|分から)(?:ない|ず)",
        "切り分け(?:が|は)?(?:でき|られ|つい)(?:て)?(?:い)?(?:ない|ません|ておらず|ず)",
        # Not 「未確定の残高」「未確定予約」: data not yet committed, a state the mechanism speaks of.
        "未(?:解明|特定)|未確定(?!の(?!(?:原因|要因|部分|点|箇所|ところ|まま)))(?![\u30a1-\u30fa\u4e00-\u9fff])",
        "特定中",
        "(?:調査|究明)して(?:い|お)",
        "原因を(?:調査|解析|分析|究明)(?:中|して)",
        "(?:はっきり|よく)(?:わから|分から|しない|していない|していません)",
        "謎",
        "見当がつか",
        "断定(?:でき|は|でき)",
        "確証(?:が|は)(?:ない|ありません)",
    ),
)


#: The cause itself named in a sentence: its "unknown" is about the cause, whatever else the sentence says.
_THE_CAUSE = re.compile(r"\b(?:cause|reason|mechanism|root|why)\b|原因|要因|理由|メカニズム|なぜ", re.IGNORECASE)


def of_another_matter(sentence: str) -> bool:
    """An unknown said of something else: "the cradle charging fault is a separate issue, still under
    investigation", 「クレードルの充電不良は別件で調査中」; not when the sentence names the cause itself."""
    return ANOTHER_PROBLEM.search(sentence) is not None and _THE_CAUSE.search(sentence) is None
