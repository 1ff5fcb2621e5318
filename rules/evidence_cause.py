"""A root cause names a concrete element and what it does wrong (docs/rules.md#mechanism):
not two alternative causes, not only a kind of bug or a vague place, not a correlation, not the symptom again,
and not a guess. Read clause by clause (`rules.reading`), en and ja.
"""

from __future__ import annotations

import re

from rules import english, japanese_verbs, reading
from rules.declared_cause import declared_symptom
from rules.evidence_alternatives import alternatives
from rules.evidence_asides import (
    CONFIRMING_NEEDS,
    CONSEQUENCE_FIRST,
    KIND_ONLY_JA,
    LINK,
    LOCATION,
    OWN_TRIAL,
    PLACE_ONLY,
    PROPOSAL,
    RULES_OUT,
    SEEN,
    WHEN_IT_HAPPENS,
    WORKAROUND,
    planned,
)
from rules.evidence_clauses import sentence_around
from rules.evidence_correlation import CORRELATION
from rules.evidence_growth import growth_only, race_only
from rules.evidence_rejected import REJECTED
from rules.evidence_words import EN_FLAGS, any_of, search
from rules.restatement import DURATION as _DURATION
from rules.restatement import error_before_effect, restated, symptom_cause
from rules.symptom_words import MEASURED_CHANGE, only_symptoms
from rules.textmask import MASKED_CODE

Finding = tuple[str, str]

#: A cause that only gestures at its element: "something in the cache", どこかで.
_VAGUE_SUBJECT = (
    any_of(
        r"\b(?:something|somewhere|somehow|some kind of|some sort of|some \w+ issue)\b"
        r"|\bsome (?:code )?(?:path|place|function|call|thread|component|handler|branch|lock|mutex|buffer|queue|flag"
        r"|variable|setting|value|object|module|timer|callback|hook|check|condition|state|pointer|counter)"
        r" (?:in|of|inside|within)\b"
        r"|\bsome (?:code )?(?:path|place|function|call|component|handler|branch) [a-z]+s\b",
        flags=EN_FLAGS,
    ),
    any_of("何か(?!ら)", "何らか", "どこか", "何かしら", "その(?:辺|あたり|辺り)(?:が|に|の)"),
)
#: A cause named only by its kind: "because of a layout problem", タイミングの問題で.
_VAGUE_CAUSE = (
    any_of(
        # "A timing problem in the NFC stack between two reads, which lets …": the kind, as the cause's subject.
        r"(?:^|[.;]\s+)\W*(?:a|an|some) (?:[a-z-]+ )?(?:timing|synchroni[sz]ation|concurrency|threading|race)"
        r" (?:problem|issue|bug|glitch)s?\b|"
        r"\b(?:because of|due to|caused by|comes from|down to) (?:a |an |some )?(?:[a-z-]+ )?"
        r"(?:problem|issue|bug|glitch|quirk|race|regression)s?\b(?! (?:in|where|when|that|with|between) )",
        flags=EN_FLAGS,
    ),
    any_of(
        "(?:の)?(?:問題|不具合|バグ)(?:の|による|が原因|のため|によって)(?!Q)",
        # 「新しい `f()` の挙動が原因」: a behaviour named, not what in it goes wrong.
        "(?:の)?(?:挙動|動作|仕様|変更)(?:が|こそが)原因(?:です|だ|である|。|$)",
    ),
)
#: A plain Japanese negative is what the code does (「再確認しない」); the writer's not-done is 「していない」「まだ」.
_CODE_DOES_NOT = re.compile("(?<!て)(?<!でき)(?:しない|せず)$")
#: A check negated in a root cause: the mechanism is not yet tied to the failure.
_UNCHECKED = re.compile(
    r"check|verif|confirm|test|measur|tried|caught|captured|observed|seen|reproduced|確認|検証|実験|試|観測|捕"
    r"|再現",
    re.IGNORECASE,
)
#: The link not shown: "We have not, despite a week of trying, been able to show that this function is the one".
_UNABLE_TO_SHOW = re.compile(
    r"\b(?:not|n't|never)\b[^.;]{0,120}?\bbeen able to"
    r" (?:show|prove|confirm|establish|demonstrate|tie|link|pin down)\b",
    re.IGNORECASE,
)
#: What an engineer reads to find a cause, not read yet: 「ドライバのソースはまだ見ていない」, "haven't looked at the
#: driver source".
_NOT_LOOKED = re.compile(
    r"(?:ソース|コード|ログ|ダンプ|差分|トレース)[^。、]{0,10}?(?:まだ)?(?:見|読ん|調べ|追っ|追え)て(?:い)?(?:ない|ません)"
    r"|\b(?:haven't|have not|hasn't|has not|didn't|did not|not yet)\s+(?:yet\s+)?(?:been able to\s+)?"
    r"(?:looked (?:at|into)|look (?:at|into)|read|gone through|go through|dug into|dig into|checked|check)\s+"
    r"(?:the\s+)?(?:[\w-]+\s+){0,2}?"
    r"(?:source|code|logs?|dumps?|diff|traces?)\b",
    re.IGNORECASE,
)
#: A plan whose purpose is to confirm the cause: "to confirm", "to prove it", 「確認する予定」「裏付けを取る」.
_TO_CONFIRM = re.compile(
    r"\bto (?:confirm|verify|prove|validate|check|test)\b|\bto (?:be|make) sure\b|\bto double-check\b"
    r"|\bto catch (?:it|this|that)\b"
    r"|\b(?:confirm|verify|prove|check|test) (?:it|this|that|the (?:theory|hypothesis|cause|idea))\b"
    r"|確認|検証|裏付け|確かめ|実証",
    re.IGNORECASE,
)
#: Someone reporting the symptom ("users reported duplicated orders"): context for the cause, not the cause.
_SYMPTOM_REPORT = re.compile(
    r"\b(?:users?|customers?|clients?|reporters?|support|the ticket|operators?|players?|patients?|merchants?"
    r"|(?:only )?they|others|everyone|crew|staff|audiences?|visitors?|guests?)"
    r" (?:reported|report|complained|noticed|saw|see|hit)\b"
    # Someone's words quoted as they were: 'the technician's note said the door "seems to hesitate"'.
    r"|\b(?:said|says|reported|noted)\b[:,]?(?:\s+(?-i:(?!Q\b))\w+){0,4}\s*(?-i:\bQ\b)\s*(?:[.;]|$)"
    r"|(?:ユーザー|顧客|お客様|利用者|さん|様|氏|担当者?|の方)(?:から|より)",
    re.IGNORECASE,
)


def mechanism(masked: str) -> Finding | None:
    """A root cause names an element and what it does wrong: one clause, not only a symptom or its kind."""
    if (alt := alternatives(masked)) is not None:
        return ("alternatives", alt)
    vague = search(_VAGUE_CAUSE, masked) or growth_only(masked) or declared_symptom(masked) or race_only(masked)
    if vague is not None:
        return ("no_mechanism", vague)
    for _clause, why in reading.readings(masked):
        if why is not None and why[0] == "hearsay" and _SYMPTOM_REPORT.search(_clause) and _plain_mechanism(masked):
            continue
        if why is not None and why[0] == "hearsay" and search(REJECTED, _clause) is not None:
            continue  # 「佐藤さんは『たぶん DNS』と言っていたが、DNS は無関係だった」: a word reported and ruled out
        if why is not None and why[0] == "hearsay" and _corrected(masked, _clause):
            continue  # 「『たぶんネットワーク』と言われていた件。実際は…」: a word reported, then what it really was
        if why is not None and why[0] in ("hearsay", "appearance", "conjecture"):
            return why
        if why is not None and why[0] == "not_done" and _CODE_DOES_NOT.search(why[1]):
            continue  # 「`uart_isr()` は `RXFIFO_CNT` を再確認しない」: what the code does, not what the writer did
        if (
            why is not None
            and why[0] == "not_done"
            and (_UNCHECKED.search(why[1]) or _NOT_LOOKED.search(_clause) or _UNABLE_TO_SHOW.search(_clause))
        ):
            return why  # "haven't checked this path is the one that runs": the mechanism is not tied to the failure
        if (needed := CONFIRMING_NEEDS.search(_clause)) is not None:
            return ("not_done", needed.group(0))  # "Confirming it needs the TSAN build, which won't be ready"
        if why is not None and why[0] == "planned" and _TO_CONFIRM.search(_sentence(masked, _clause)):
            return why  # "going to add a TSAN build to confirm": the mechanism is still to be confirmed
    correlated = False
    claimed = False  # the text has given a symptom or a correlation as its cause
    gestured = False  # an element only gestured at ("somewhere in", "some lock in")
    said = reading.by_sentence(masked)
    for n, (sentence, parts) in enumerate(said):
        claimed = claimed or correlated  # a correlation in the sentence before is a cause given too
        if gestured and not MASKED_CODE.search(sentence):
            continue  # "A race somewhere in the physics tick. When two stacks collapse, contacts end up duplicated"
        if restated(sentence) or KIND_ONLY_JA.match(sentence):
            claimed = True
            continue  # "it hangs because it stops responding": the symptom twice; 「…の不具合です」: only a kind
        when = _WHEN_FIRST.match(sentence) if claimed else None
        if when is not None and only_symptoms(when.group(1) or when.group(2)):
            continue  # 「制御基板が応答しない状態になると、弁の位置は前のまま」: what follows when the symptom comes
        if (correlated or claimed) and CONSEQUENCE_FIRST.match(sentence):
            # 「1.4.2 以降…。そのせいで `hal_read()` がタイムアウトしている」, 「…panic するのが原因です。panic のあとは
            # バルブが閉じたままになる」: the effect of a correlation or of a symptom given as the cause
            continue
        if symptom_cause(sentence) or (n + 1 < len(said) and error_before_effect(sentence, said[n + 1][0])):
            # 「不整合が起きているため、古い値が表示される」: a symptom as the cause; the effect's verbs do not count.
            claimed = True
            continue
        aside = all(LOCATION.search(c) or not MASKED_CODE.search(c) for c in parts)
        if claimed and not LINK.search(sentence) and aside:
            # After a cause that is none, a remark that links nothing and names no code, or only a place, adds none.
            continue
        after_none = claimed and not LINK.search(sentence)  # "Nobody disputes that, and the manager is happy with Q"
        correlated = False
        for clause in parts:
            if (after_none and not MASKED_CODE.search(clause)) or (claimed and LOCATION.search(clause)):
                continue  # after a cause that is none, a place, or a remark that names no code, adds none
            only_gestured = search(_VAGUE_SUBJECT, clause) is not None
            if only_gestured or search(CORRELATION, clause):
                correlated = True
                gestured = gestured or only_gestured
                continue
            if gestured and (
                CONSEQUENCE_FIRST.match(clause) or only_symptoms(clause) or not MASKED_CODE.search(clause)
            ):
                # "A missing barrier somewhere in `ring.h`, so the thread reads stale samples", "…, and one of them
                # ends up with a stale value": the effect
                continue
            if _EFFECT_CLAUSE.search(clause) or _FINE.search(clause):
                continue  # "and that is what leaves the report without charts", "it surfaces as clicks": the symptom
            if _beside_the_mechanism(clause):
                continue  # "Restarting `gate-agent` clears it", "we plan to add a watchdog": no mechanism either
            sized = MEASURED_CHANGE.sub(" ", clause) if " from " in clause else clause  # "dropped from 14 to 9"
            measured = _what_the_kind_does(_DURATION.sub(" ", sized))  # "`compile` takes ~40 ms per frame": a size
            verbs = english.action_verbs(measured) + japanese_verbs.action_verbs(measured)
            if [v for v in verbs if not _MAGNITUDE.fullmatch(v.lower())]:
                return None  # "runs past 3 hours", 「3 時間を超える」 only measures the symptom
    return ("no_mechanism", _clip(masked))


#: A sentence that opens with a condition: "When the board stops answering, …", 「…状態になると、…」.
_WHEN_FIRST = re.compile(r"\W*(?:when|once|if|whenever)\b([^,;]{1,120}),|([^。、]{1,80}?)(?:と|たら|ば)、", re.I)
#: A kind of bug and where it is, and nothing it does: "A memory-ordering problem in the lock-free ring buffer".
_KIND_IN_PLACE = re.compile(
    r"\W*(?:(?:the )?root cause(?: is|:)\s*|it(?:'s| is| was) |this is )?(?:(?:a|an|some)\s+)?(?:[\w-]+\s+){0,3}?"
    r"(?:problem|issue|bug|glitch|quirk|race(?: condition)?|regression|leak|corruption|defect)\s+(?:in|inside|within"
    r"|around|with|on|between)\b",
    re.IGNORECASE,
)
#: A clause that says something works: "the same config on the 12.1 image trains fine" (a contrast seen, no element
#: doing anything wrong).
_FINE = re.compile(
    r"\b(?:trains?|works?|runs?|passes|succeeds?|behaves?|renders?|loads?|boots?|goes through|(?:is|are|was|were)"
    r" (?:called|handled|processed|sent|received))\s+(?:fine|ok|okay|normally|correctly|as expected|without (?:issue"
    r"|problem|error)s?)\b"
    r"|(?:は|では)(?:問題なく|正常に)(?:動|学習|完了|終わ|通|行われ|処理され|呼ばれ|実行され)",
    re.IGNORECASE,
)


def _what_the_kind_does(clause: str) -> str:
    """The clause, or, when it opens with a kind of bug and its place ("A race in the ring buffer used by the
    uplink"), only what it goes on to say the part does (after "where", "so", ":"), unless that part is vague."""
    if (kind := _KIND_IN_PLACE.match(clause)) is None:
        return clause
    # "A concurrency problem between `A` and the workers hands out …": the "and" of "between" joins two places.
    after = clause.find(" and ", kind.end()) + 5 if kind.group(0).rstrip().endswith("between") else kind.end()
    if (said := _WHAT_IT_DOES.search(clause, max(after, kind.end()))) is None:
        return ""
    rest = clause[said.start() :]
    return "" if search(_VAGUE_SUBJECT, rest) else rest


#: Where a kind-of-bug clause goes on to say what the part does: "…, so the consumer reads a stale slot".
_WHAT_IT_DOES = re.compile(r"\b(?:so|which|that|where|because|and|as|since)\b|[:;]", re.IGNORECASE)
#: A clause that tells the symptom, not what goes wrong: "that is what leaves …", "on ARM it surfaces as clicks".
_EFFECT_CLAUSE = re.compile(
    r"^\W*(?:and |so )?(?:that|this|which)(?: is|'s) (?:what|how)\b"
    r"|\b(?:surfaces?|surfaced|shows? up|showed up|manifests?|manifested|presents?|presented) as\b"
    r"|として(?:現れ|表面化|表れ|見え)",
    re.IGNORECASE,
)
#: What really happened, said right after someone else's word: 「実際は」, "actually", "it turned out".
_ACTUALLY = re.compile(
    r"\W{0,3}(?:実際(?:に)?は|実は|本当は|ところが|しかし実際|(?:but )?(?:actually|in fact|in reality)\b"
    r"|(?:but )?(?:it|that|this|which) turned out\b|the (?:real|actual) cause\b"
    # What was heard, ruled out at once: 「…気温は関係ありません」, "but the cold has nothing to do with it".
    r"|[^。.;]{0,20}?(?:関係(?:ありません|ない|なかった|なく)|無関係|違い(?:ました|ます)|ではなかった|ではありませんでした)"
    r"|(?:but )?(?:[\w-]+ ){0,4}(?:has|had|have) nothing to do with\b)",
    re.IGNORECASE,
)


#: Said beside a mechanism, none itself: a workaround, an idea, the fault placed, one's trial, a part ruled out, when.
_BESIDE = (WORKAROUND, PROPOSAL, PLACE_ONLY, OWN_TRIAL, RULES_OUT, SEEN, WHEN_IT_HAPPENS)


def _beside_the_mechanism(clause: str) -> bool:
    """ "Restarting `gate-agent` clears it", 「朝の点検で気づきます」, a plan, a report heard, a task not done naming no
    code ("the release notes haven't been gone through yet"): said beside a mechanism, none itself."""
    undone = not MASKED_CODE.search(clause) and (done := reading.not_done(clause)) is not None and done[0] == "not_done"
    return any(p.search(clause) for p in _BESIDE) or planned(clause) or _heard(clause) or undone


def _heard(clause: str) -> bool:
    """「牧場の方からは『…』と聞いています」: someone's report of the symptom, whose verbs are the hearing."""
    found = reading.modality(clause)
    return found is not None and found[0] == "hearsay"


def _sentence(masked: str, clause: str) -> str:
    """The sentence that holds the clause: "I set up a traced build to confirm that and will look at it"."""
    at = masked.find(clause)
    return clause if at < 0 else sentence_around(masked, at, len(clause))


def _corrected(masked: str, clause: str) -> bool:
    """The clause is followed at once by a correction: what was said is not the cause the text goes on to give."""
    at = masked.find(clause)
    return at >= 0 and _ACTUALLY.match(masked, at + len(clause)) is not None


#: Verbs that only measure a symptom's size (or the writer measuring it): no element does anything.
_MAGNITUDE = re.compile(
    r"exceed\w*|reach\w*|measur\w*|越える|超える|達する|及ぶ|伸びる|長くなる|遅くなる|測る|計る|計測(?:する)?|測定(?:する)?|[か掛]かる|要する"
)


def _plain_mechanism(masked: str) -> bool:
    """A plain clause (no hearsay, guess or plan) with an element doing something."""
    return any(
        why is None and (english.action_verbs(clause) or japanese_verbs.action_verbs(clause))
        for clause, why in reading.readings(masked)
    )


def _clip(text: str, limit: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
