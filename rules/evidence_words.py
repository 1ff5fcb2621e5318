"""The phrases of the evidence gate, en and ja: what says the cause is unknown or suspected, the failure
not reproducible on demand, the fix not verified, and what excuses such a phrase (a condition, a
stated scope; a rejected hypothesis is `rules.evidence_rejected`'s). Read by `rules.evidence` on masked text
(`textmask.mask`).

English patterns use ASCII word boundaries; Japanese ones are literal phrases with the look-arounds
that keep words like しかも (moreover) or 素晴らしい (excellent) from reading as hedges. No pattern nests
a quantifier inside another, so every search is linear in the length of the text.
"""

from __future__ import annotations

import re
from functools import lru_cache

from rules.regex_guard import alternation, compile_guarded
from rules.textmask import has_words

#: After "not tested" / "unverified", a scope word makes an honest scope ("not tested on ARM"): no negation counts.
SCOPE_AFTER = r"(?!\s+(?:on|with|in|for|under|against|beyond|outside|at|by|across|other)\b)"
EN_FLAGS = re.IGNORECASE | re.ASCII


Pair = tuple[re.Pattern[str], re.Pattern[str]]


def any_of(*parts: str, flags: int = 0) -> re.Pattern[str]:
    """One alternation of the parts, behind a first-character guard (rules/regex_guard.py)."""
    return compile_guarded(alternation(parts, flags), flags)


@lru_cache(maxsize=1024)
def search(pair: Pair, text: str) -> str | None:
    """The first phrase of either language's pattern, as written."""
    best: re.Match[str] | None = None
    for pattern in pair:
        if pattern.flags & re.ASCII and not has_words(text):
            continue  # an English pattern on text without a word (textmask.has_words)
        m = pattern.search(text)
        if m is not None and (best is None or m.start() < best.start()):
            best = m
    return None if best is None else best.group(0).strip(" 、,")


#: The cause is only suspected: a hedge, a belief, a theory (docs/rules.md#no-hedging).
HYPOTHESIS = (
    any_of(
        r"\bprobabl[ey]\b",
        r"(?<!un)\blikely\b",
        r"\bmaybe\b",
        r"\bperhaps\b",
        r"\bpossibly\b",
        r"\b(?:it is|it's|it was|it seems) possible that\b",
        r"\bpossible (?:cause|explanation|culprit|reason)s?\b",
        r"\bpresumabl[ey]\b",
        r"\bapparently\b",
        # "which, if my reading of their rulebook holds, is where …": the link rests on the writer's reading.
        r"\b(?:going by|based on|from|per|on) (?:my|our) (?:reading|understanding|interpretation|read)\b"
        r"|\bwhat (?:the |our |a )?[\w -]{0,30}?(?:suggests?|indicates?|implies|points to|hints at)\b"
        r"|\b(?:that's|that is|this is) the story (?:the|our) [\w ]{0,20}?tell\b"
        r"|\bas far as (?:i|we|anyone|anybody|one|the team)\b[\w ]{0,30}?\b(?:can|could) tell\b"
        r"|\bas far as (?:i|we) know\b"
        r"|\b(?:have not|haven't|never|not) (?:actually |yet )?(?:caught|seen|observed|watched)(?: it"
        r" (?:happen\w*|in the act)| (?:a|an|one|any)(?! (?:single |one )?(?:failure|error|crash|hang|drop)s?\b))\b"
        # "the story that fits …, the one I would bet on": a guess, whatever it fits.
        r"|\bthe story that fits\b|\b(?:i|we)(?:'d| would) (?:bet|put money) on\b"
        r"|\b(?:my|our) (?:best |current )?(?:read|guess|bet|theory)\b|\bfits (?:every|all|each of) (?:the )?"
        r"(?:traces?|data|logs?|evidence|symptoms?|dumps?)\b"
        r"|\bif (?:my|our) (?:reading|understanding|interpretation|read|guess|theory|assumption)\b[^.;]{0,60}?"
        r"\b(?:holds|is right|is correct|is accurate)\b",
        r"\bplausibl[ey]\b",
        r"\bconceivabl[ey]\b",
        r"\b(?:i|we|they|the team)(?:'m| am|'re| are| was| were|'ve been| have been)? (?:still )?(?:think|believe"
        r"|suspect|guess|assume|suppose|reckon|feel|speculate|hypothesi[sz]e|presume|thinking|suspecting|guessing"
        r"|assuming|wondering)s?\b",
        r"\bseem(?:s|ed|ingly)?\b",
        # A belief in the passive: "is believed to be taken from `last_touch`", "was thought to come from the relay".
        r"\b(?:is|are|was|were|'s)(?: (?:now|still|widely|generally|currently))? (?:believed|thought|presumed|reckoned"
        r"|rumou?red|alleged|said|reported|suspected|guessed) to (?:be|have|come|stem|cause|happen|lie|result|originate"
        r"|trigger|occur|arise|start|sit|live|do)\b",
        r"\bappear(?:s|ed)? to\b(?! (?:the|a|an|users?|customers?|clients?)\b)",
        r"\bit looks like\b",
        r"\blooks like (?:it|the|a|an|this|that|Q)\b",
        r"^looks? like\b|^\s+looks? like\b",
        r"\bsounds like\b",
        r"\bconsistent with\b",
        r"\bnot (?:entirely |completely |fully |100% )?(?:sure|certain|confirmed|proven|verified)\b"
        # "does not clear `pending[seq]`": the verb, not the adjective.
        r"|(?<!does )(?<!do )(?<!did )(?<!will )(?<!to )(?<!never )\bnot (?:entirely |completely |fully )?clear\b"
        r"(?! (?:Q|the|a|an|its|their)\b)",
        r"(?<!\bas )(?<!\bbe )\bun(?:confirmed|clear|proven|verified|certain)\b",
        r"\b(?:fairly|pretty|quite|reasonably|mostly|almost|somewhat|relatively) (?:sure|confident|certain)\b",
        # "Hypothesis" capitalised and doing something ("found with Hypothesis: …") is the testing library, not a guess.
        r"(?-i:\bhypothes[ie]s\b|\bHYPOTHES[IE]S\b)"
        r"|(?-i:(?<!\()(?<!with )(?<!using )(?<!via )(?<!by )(?<!from )(?<!in )\bHypothes[ie]s\b)(?!-)"
        r"(?=\s*[:,;.)]|\s+(?:is|was|were|are|that|being|here|remains|holds)\b|\s*$)"
        # "(Hypothesis, `@given`)" names the library in an aside; "(Hypothesis: …)" still states one.
        r"|(?-i:(?<=\()Hypothes[ie]s\b)(?=\s*:)",
        r"\btheor(?:y|ies)\b",
        r"\bguess(?:ing)?\b",
        r"\bhunch\b",
        # The best of several readings is still a reading: "our best explanation", "the leading theory".
        r"\b(?:best|leading|working|likeliest|most plausible|most likely|current|cleanest|simplest|neatest|strongest"
        r"|obvious) (?:explanation|guess|theory|candidate|bet"
        r"|hypothesis|understanding)\b",
        # As a verb or the noun of an inquiry; "suspect results", "the `suspect` flag" name a thing.
        r"\bsuspected\b|\b(?:i|we|they|you|also|still|strongly|now) suspects?\b|\bsuspects? (?:that|it|this|the|a|an)\b"
        r"|\b(?:main|prime|likely|top|chief|first|primary|one|only|obvious|usual|our) suspects?\b"
        r"|(?<!\w )(?<!\w)suspect\b",
        r"\bsuspicion\b",
        r"\bspeculat\w*",
        r"\bcandidate (?:cause|explanation)s?\b",
        r"\bas far as (?:we|i) (?:can tell|know)\b",
        r"\bto (?:our|my) knowledge\b",
        r"\bchances are\b",
        r"\bin all likelihood\b",
        r"\bwould (?:explain|account for)\b",
        r"\b(?:should|must|would) (?:have been|be) (?:the|a|an) (?:cause|culprit|reason|problem|issue|trigger)\b",
        r"\bmust have (?:been|caused|triggered|happened)\b",
        # At the start of the text (a lookbehind, not `^`, so the phrases keep their first-character guard).
        r"(?<![\s\S])\s+(?:could|might|may|is|was|are|were|does|did|maybe|perhaps|or)\b[^?\n]{0,200}\?"
        r"|(?<![\s\S])(?:could|might|may|is|was|are|were|does|did|maybe|perhaps|or)\b[^?\n]{0,200}\?",
        r"\bmy (?:guess|hunch|bet|theory|suspicion|thinking)\b|\bgut feeling\b|\bby feel\b|\bfeels like\b",
        flags=EN_FLAGS,
    ),
    any_of(
        "かもしれ",
        "(?<![しもか])かも(?=[。、,.\\s]|$|です|ね|な|っす|しれ|？|\\?)",
        "と思(?:われ|い|う|っ)",
        "(?:よう|みたい)(?:です|だ|でした|で[、,]|っす|っすね|す(?=[。、.,!！]|$))",
        "おそらく",
        "恐らく",
        "たぶん",
        "多分",
        "きっと",
        # Not 「原因と考えていた Q を外した」: a view once held, naming what was then tested.
        "(?:と|そう)考え(?:て(?!い?た\\s*[^\\s。、])|られ|ます|る)",
        "可能性(?:が|は)?(?:あ|高|大き|否定でき)",
        # 「…というのが現時点で最も有力な説明です」: the best explanation so far, not a mechanism established.
        "有力(?:な)?(?:説明|説|候補|仮説|見立て)|(?:現時点|今のところ)で?(?:は)?(?:最も|一番)|筋の通る説明",
        "推定(?:され|し|です|だ|。|$|、)",
        "と推定",
        "か[?？]",
        "推測",
        "推察",
        "仮説",
        "憶測",
        "とみられ",
        "と見られ",
        "疑い(?!なく|の余地)",
        "疑われ",
        "疑わしい",
        "怪しい",
        "(?:ではない|のではない|んじゃない|じゃない)(?:か|でしょうか)",
        "でしょう",
        "だろう",
        "(?<!素晴)(?<!可愛)(?<!汚)(?<!男)(?<!女)(?<!子供)(?<!馬鹿)(?<!憎)(?<!誇)(?<!愛)らしい",
        "模様(?:です|だ)",
        "気がし",
        "っぽい",
        "(?<![\u4e00-\u9fff])予想(?!外|通り|どおり|と|に反|[\u30a0-\u30ff])",  # not 「開花予想バッチ」
        "見込み",
        "思しき",
        "と見て(?:いる|います)",
        "(?:断定|特定)(?:は)?(?:でき|し)て(?:い)?(?:ません|ない)",
        "体感(?:で|では|的に|だと)(?!は?(?:なく|ない))",  # not 「体感ではなく数えた」
        "感覚(?:で|的に)",
        "(?:くらい|ぐらい|程度)[?？]",
    ),
)

_NEED_TO_CONFIRM = (
    r"(?:need|needs|have|has) to (?:be )?(?:confirm(?:ed)?|verif(?:y|ied)|prove[dn]?|double-check(?:ed)?)\b"
)
#: A cause or an experiment still to be confirmed: "need to confirm with more logs", 要確認.
UNCONFIRMED = (
    any_of(
        # Without a subject or with the writer as one: "need to confirm" (not "the handler needs to verify …").
        r"\b(?:we|i|still|will) " + _NEED_TO_CONFIRM,
        r"(?<![A-Za-z] )\b" + _NEED_TO_CONFIRM,
        r"\bto be (?:confirmed|verified|proven)\b",
        r"\b(?:needs?|requires?|pending|awaiting) (?:confirmation|verification|more (?:logs|data|evidence))\b",
        flags=EN_FLAGS,
    ),
    any_of(
        "要確認",
        "(?:確認|検証|調査|裏付け)(?:する|が|の)必要",
        "確認が必要",
        "裏(?:付け|取り)(?:が|は)?(?:必要|まだ|取れて(?:い)?(?:ない|ません))",
        "(?:これから|今後|後で|あとで)(?:確認|検証)",
    ),
)

#: A modal about the cause ("`evict_range` might skip the last shard"); excused inside a condition. A capital
#: "May" is the modal only where a sentence can start; beside a day, a year or a word it is the month ("the
#: 3 May batch", "May 14 export", "the May run").
MODAL = re.compile(r"\b(?:[Mm]ight|may|(?<![a-z,] )(?<!\d )May(?! +\d)|[Cc]ould(?! not\b)) +[a-z]+", re.ASCII)

#: "should"/はず are expectations: a hedge unless contrasted with what actually happens (not ではずれ, はずれ: a miss).
SHOULD_JA = re.compile("はず(?!の|れ)")

#: A condition: the modal says when the code does something, not what we believe.
CONDITION = (
    any_of(
        r"\b(?:when|whenever|if|unless|while|once|as soon as|in case|each time|every time"
        r"|whether|so that|provided|after (?:a|an|the|it|its|each|every)|until|before (?:a|an|the|it|its)"
        # "A 3-phase charger may answer with `X`, in which case the field stays 0": what follows when it does.
        r"|in which case|in that case|when it does|if so|if (?:it|they) do(?:es)?)\b",
        flags=EN_FLAGS,
    ),
    any_of("場合", "とき", "時に", "時は", "と、", "たら", "れば", "なら"),
)

#: Words that contrast an expectation with what happens ("should be called, but it never is", 実際には).
CONTRAST = (
    any_of(
        r"\b(?:but|however|instead|yet|actually|in fact|whereas|although|though)\b",
        flags=EN_FLAGS,
    ),
    any_of("実際", "ところが", "しかし", "が、", "ですが", "だが", "けど", "のに", "にもかかわらず", "一方", "本来"),
)

#: A hedge word negated ("not a hypothesis", 仮説ではなく).
NEGATED_BEFORE = re.compile(
    r"\b(?:not|no longer|isn't|rather than|instead of|never)\s+(?:just |merely |only )?"
    r"(?:a |an |the )?$",
    EN_FLAGS,
)
NEGATED_AFTER_JA = re.compile("(?:で|では|じゃ)(?:なく|ない|ありません)")
