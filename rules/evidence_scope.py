"""A scope note, not a check left undone: "the ARM NEON path was not re-run", "haven't tried the customer's config",
「Windows ホストでは未確認」「aarch64 ランナーは今回は回していません」 name another configuration than the one
checked (docs/rules.md#completed-check). The check's own subject (the repro, a test, the workload) is never scope.
"""

from __future__ import annotations

import re

from rules.evidence_other_matter import ANOTHER_MATTER
from rules.evidence_words import EN_FLAGS, any_of, search
from rules.phrases import SCOPE_STATED

#: What the validation's check is about: the repro, a test, a workload (a not-done clause naming it is no scope).
CORE_EVIDENCE = (
    any_of(
        r"\b(?:repro\w*|tests?|workloads?|steps)\b"
        r"|\bthe original\s+(?:[\w-]+\s+){0,2}?(?:job|run|case|capture|sequence)\b"
        # "The bench run with the hydraulic jig hasn't been repeated": the check on the bench is the repro.
        r"|\bthe (?:bench|rig|jig|hil) (?:run|check)\b",
        flags=EN_FLAGS,
    ),
    any_of("再現", "(?<!再)(?<!ソーク)(?<!負荷)(?<!ストレス)(?<!耐久)テスト(?!環境)", "ワークロード", "手順(?!書)"),
)
#: "on mine", "locally": the author's own environment is where the check belongs, not a stated scope.
_OWN_PLACE = re.compile(
    r"\b(?:on|in) (?:mine|my \w+|our \w+)\b|\blocally\b|\bhere\b|こちら|手元"
    # The one machine the check runs on, named by its kind alone: "not re-run on the machine yet".
    r"|\b(?:on|in) the (?:machine|rig|bench|press|line|unit|device|hardware|floor|site)\b"
    r"|(?:私|自分|僕|うち)の(?:環境|手元|机|PC|マシン)",
    re.I,
)
#: A time, not a configuration, after "on", "in" or "for": "the rig is back on Monday", "for now", "in a week".
_WHEN = (
    r"(?i:(?:next |this |last )?(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|week|month|weekend)\b"
    r"|(?:now|today|tonight|tomorrow|time|the (?:moment|time being|morning|afternoon|evening|weekend))\b"
    r"|(?:a|an|one|two|a few|\d+) (?:day|week|hour|month|minute)s?\b)"
)
_SCOPE_ON = re.compile(
    # A configuration named in Latin letters as the topic: 「Android は未検証」「iOS 16 では未確認」.
    r"(?<![A-Za-z])[A-Za-z][\w.+-]*(?:\s*\d[\w.]*)?\s*(?:は|では|でも|について)(?=\s*(?:まだ)?未)|"
    r"\b(?:on|with|in|under|against|for)\s+(?!" + _WHEN + r")\S+|"
    r"\b(?:other|spare|backup|second|secondary|legacy|older|different)\b|(?:環境|機種|端末|構成|OS|版|規模|サイズ|台数|件数|データ量|モデル|基板|ボード|ロット|個体|機体|車両|拠点|店舗|リージョン|ブラウザ|実機)(?:\([^()]{0,30}\))?(?:は|で|では|でも|での)|での(?:確認|検証|テスト|試験)(?:は|も)|他の|ほかの|その他|別の|以外の|(?<![\u4e00-\u9fff])[他別](?=[\u30a0-\u30ff\u4e00-\u9fff])"
    r"|(?:旧|新)(?:型|モデル|機種|世代)"
    # Another place or thing as the topic, not yet: 「本番の窯ではまだ流していません」「西区のデータではまだ」.
    r"|[\u30a0-\u30ff\u4e00-\u9fff]{1,8}(?:では|でも)(?:まだ|今回は)"
)


#: Another configuration as the subject of the not-done clause: "the ARM NEON path was not re-run".
_SCOPE_SUBJECT = re.compile(
    r"\s*(?:the |our |their )?(?:[\w.+-]+ ){0,3}(?:paths?|platforms?|arch\w*|targets?|variants?|backends?|builds?"
    r"|configs?|configurations?|drivers?|regions?|browsers?|devices?|models?|flavou?rs?|revisions?|revs?|hardware"
    r"|boards?|units?|versions?|fixtures?|rigs?|setups?|sizes?|trays?|layouts?|profiles?)(?:\s*\([^()\n]{0,20}\))?"
    r"\s+(?:was|were|is|are|has|have)\b",
    re.IGNORECASE,
)
#: Anything but the check itself as the subject of "was not re-run": "The 10 km race file was not re-run".
_OTHER_SUBJECT = re.compile(
    r"^\W*(?:the |our |their |that |this )?(?:[\w.,/+-]+\s+){0,9}?[\w.,/+-]+\s+(?:was|were|has|have)(?: not|n't)"
    r"(?: been)? (?:re-?run|re-?tested|tested|re-?tried|tried|re-?checked|checked|re-?verified|verified|covered"
    r"|re-?measured|measured|benchmarked|profiled|timed|looked at|reviewed)\b"
    # "Night mode is used twice a year at this hill and was not re-run": a mode or a feature, whatever is said of it.
    r"|^\W*(?:the )?(?:[\w-]+ ){0,3}(?:modes?|features?|options?|settings?|variants?|profiles?|programs?|programmes?"
    r"|layouts?|routes?)\b[^.;]{0,80}?\b(?:was|were|has|have)(?: not|n't)(?: been)? (?:re-?run|re-?tested|tested"
    r"|re-?tried|tried|re-?checked|checked)\b",
    re.IGNORECASE,
)
#: A configuration named in Latin letters as the topic of a Japanese clause: 「aarch64 ランナーは」「iOS 17 では」.
_LATIN_TOPIC_JA = re.compile(
    r"\s*(?:Q|[A-Za-z][\w.+-]*)(?:\s*\d[\w.]*)?(?:\s*(?:と|や|、|,|/)\s*(?:Q|[A-Za-z][\w.+-]*)(?:\s*\d[\w.]*)?){0,4}"
    r"\s*(?:[\u30a0-\u30ff\u4e00-\u9fff]{1,8})?\s*(?:は|では|でも)(?:今回は|まだ)?"
)
#: A version or a size as the topic: 「2.9 系は来週試します」「v3.0 では未確認」「5 冊重ねは試していません」.
_VERSION_TOPIC = re.compile(
    r"\s*(?:v?\d+(?:\.\d+)+(?:\s*(?:系|版|系列))?|\d+\s*[^\s\d。、は]{1,6})\s*(?:は|では|でも|について)"
)
#: Another configuration as the object of the not-done verb: "haven't tried the customer's config yet".
_SCOPE_OBJECT = re.compile(
    r"\b(?:tried|tested|checked|verified|run|ran|re-?run|covered)\s+(?:it\s+)?(?:on\s+|with\s+|against\s+)?"
    r"(?:the |their |our |a |any |other |another )?(?:[\w'.+-]+ ){0,3}(?:configs?|configurations?|setups?|environments?"
    r"|platforms?|devices?|browsers?|os(?:es)?|hardware|regions?|clusters?|tenants?|locales?|models?|variants?"
    r"|targets?|boards?|phones?|versions?|flavou?rs?|machines?|controllers?|units?|sites?|stations?|instances?"
    r"|servers?|nodes?|terminals?|consoles?|kiosks?|vehicles?"
    # An architecture's or a platform's build: "the aarch64 build", "the Windows runner".
    r"|(?:aarch64|arm64|armv7|arm|x86_64|x86|amd64|i386|riscv64|windows|macos|linux|ios|android|safari|firefox"
    r"|chrome|edge|webkit)(?: (?:builds?|runners?|binar(?:y|ies)|images?|hosts?|ports?|jobs?|ci))?)\b",
    re.IGNORECASE,
)


#: A configuration named first, then not run: "ARM64 not re-run, no runner available", "- Windows: not tested".
_NAMED_NOT_RUN = re.compile(
    r"^\W*(?:[-*•]\s*)?(?:Q|[A-Za-z][\w.+-]*)(?:\s+[\w.+-]+){0,4}?\s*[:,]?\s*(?:was |were |is |has been )?(?:not|never)"
    r"\s+(?:yet\s+)?(?:re-?run|run|tested|re-?tested|checked|verified|covered|tried)\b"
    # "Not re-run on the older meteor camera …": another unit, named after the words.
    r"|^\W*not (?:yet )?(?:re-?run|re-?tested|tested|tried|checked) (?:on|with|against|for) (?:the |our )?(?:older|old"
    r"|other|newer|new|second|previous|remaining|spare)\b",
    re.IGNORECASE,
)


def other_configuration(clause: str) -> bool:
    """ "haven't tried the customer's config", "did not re-run the aarch64 build": another configuration not run."""
    return _SCOPE_OBJECT.search(clause) is not None


#: The writer's own doing: what is not done is the check itself.
_MYSELF = re.compile(
    r"\b(?:it|this|the repro|the steps|them|anything|any of it) (?:\w+ )?(?:myself|ourselves)\b|自分(?:で|では|自身で)"
    r"|(?:私|自分|僕|こちら)の(?:ほう|方)(?:で|では|でも)",
    re.IGNORECASE,
)
#: A labelled list of what was not covered: "Not verified: ARM64 nodes", 「未検証：ARM64 ノード」.
_SCOPE_LABEL = re.compile(
    r"\s*(?:not (?:yet )?(?:re-?)?(?:verified|tested|covered|checked|run)|untested|unverified|out of scope"
    r"|未検証|未確認|未テスト"
    r"|対象外|検証(?:範囲)?外)\s*[:：]",
    re.IGNORECASE,
)


#: 「X は未検証」: a topic that was not checked.
_SCOPE_TOPIC_JA = re.compile(
    "([^。、\\s]{1,30}?)\\s*(?:は|では|でも|について)\\s*(?:[^。、]{0,20}?(?:ので|ため|から|なく)、?)?(?:まだ|今回(?:は)?)?"
    "(?:未(?:検証|確認|テスト|実施)"
    # 「大型錠は試していません」「冬場の条件は再現できていません」: something else, named as the topic, not run.
    "|再?(?:試|流|回|走らせ|確認|検証|再テスト|テスト|再試験|試験|再現|測っ|計っ|計測し|測定し)(?:し|でき)?て(?:い)?(?:ない|ません))"
)
#: Topics that are the fix or the check itself, not another configuration; nor a time (「作り直してからは」「以降は」).
_NOT_A_SCOPE_JA = re.compile(
    "修正|変更|パッチ|ビルド|本番|元の|今回|これ|それ|動作|最後|最終|全部|全て|すべて|全体|途中|完走"
    "|[てで]から$|(?:以降|以来|それから|その後)$"
)


#: Outside what the fix covers, said as such: 「iOS は対象外」, "out of scope".
OUT_OF_SCOPE = re.compile(r"対象外|範囲外|スコープ外|\bout of scope\b", re.IGNORECASE)


def set_aside(sentence: str) -> bool:
    """ "Haven't tried the ARM build yet, but that is a separate build": what is not done is another configuration
    or another matter, and the sentence names nothing of the check itself."""
    if search(CORE_EVIDENCE, sentence) is not None:
        return False
    return ANOTHER_MATTER.search(sentence) is not None or other_configuration(sentence)


#: The experiment itself, or what it acts on: a clause naming one of these is not about something else.
THE_EXPERIMENT = re.compile(
    r"\b(?:revert\w*|patch\w*|fix\w*|experiment\w*|bisect\w*|replay\w*|repro\w*|rollback|roll(?:ing)? back|test\w*)\b"
    r"|戻し|パッチ|実験|再現|修正|切り戻|テスト",
    re.IGNORECASE,
)


def named_first(clause: str) -> bool:
    """Something else named first, then not run: "The parcel line was not checked", 「小包ラインは確認していません」."""
    if _MYSELF.search(clause) or _OWN_PLACE.search(clause) or search(CORE_EVIDENCE, clause) is not None:
        return False
    if _OTHER_SUBJECT.match(clause) or _SCOPE_SUBJECT.match(clause) or _NAMED_NOT_RUN.match(clause):
        return True
    topic = _SCOPE_TOPIC_JA.search(clause)
    return topic is not None and not _NOT_A_SCOPE_JA.search(topic.group(1))


def other_subject(clause: str, *, named: bool = False) -> bool:
    """ "The 6-row canapé template wasn't re-checked": something other than the repro, test or workload, not run
    (`named`: the thing itself the subject, not "we")."""
    if named and _PERSON_FIRST.match(clause):
        return False  # "We have not re-run the integration suite": the writer's own check, not done
    return _OTHER_SUBJECT.match(clause) is not None and not search(CORE_EVIDENCE, clause)


_PERSON_FIRST = re.compile(r"^\W*(?:i|we|they|you|he|she|nobody|no one)\b", re.IGNORECASE)


def other_thing_named(clause: str) -> bool:
    """ "The parcel line was not checked", 「タンク 7 の実機では試していません」: something else than the experiment
    named first, not run."""
    return named_first(clause) and THE_EXPERIMENT.search(clause) is None


def scope_only(clause: str) -> bool:
    """ "not tested on ARM", "Windows 環境は未検証": another configuration, not the author's own check."""
    if _MYSELF.search(clause):
        return False  # "I haven't been on site to try it myself": the check itself, not done
    if SCOPE_STATED.search(clause) or _SCOPE_LABEL.match(clause) or _SCOPE_SUBJECT.match(clause):
        return True
    if other_subject(clause):
        return True  # "The 10 km race file was not re-run": something else than the repro, test or workload
    if _NAMED_NOT_RUN.match(clause) and not search(CORE_EVIDENCE, clause):
        return True
    if (_LATIN_TOPIC_JA.match(clause) or _VERSION_TOPIC.match(clause)) and not search(CORE_EVIDENCE, clause):
        return True  # 「aarch64 ランナーは今回は回していません」: another configuration, named as the topic
    if _OTHER_CONFIG_JA.search(clause):
        return True  # 「ほかの組織では再開手順は試してない」: the same check, on another configuration
    if OUT_OF_SCOPE.search(clause):
        return True  # 「iOS は対象外なので未確認」: outside what this fix covers
    if _SCOPE_OBJECT.search(clause) is not None and search(CORE_EVIDENCE, clause) is None:
        return True  # "haven't tried the customer's config": another configuration, not the check itself
    topic = _SCOPE_TOPIC_JA.search(clause)
    if topic is not None and not _NOT_A_SCOPE_JA.search(topic.group(1)) and not search(CORE_EVIDENCE, topic.group(1)):
        return True  # 「iOS アプリからの注文は未検証」: something else, named as the topic, not checked
    return bool(_SCOPE_ON.search(clause)) and not _OWN_PLACE.search(clause) and not search(CORE_EVIDENCE, clause)


#: Another configuration opening the clause as its topic: 「ほかの組織では」「旧型の筐体には」.
_OTHER_CONFIG_JA = re.compile(
    "(?:^|、)\\W*[^。、]{0,10}?(?:ほかの|他の|別の|旧型の?)[^。、]{1,15}?(?:では|には|で(?:は|も)|も|は)"
)
#: A check named by where it runs: "the check on the ARM board", 「ARM 版の制御盤での確認は」.
_CHECK_ON = re.compile(
    r"\b(?:check|test|run|verification|confirmation)s? (?:on|with|against|for) (?:the |a |an )?(?:[\w.+-]+ ){0,3}"
    r"|(?:での|上での)(?:確認|検証|テスト|試験|動作確認)(?:は|も)",
    re.IGNORECASE,
)


def elsewhere(sentence: str) -> bool:
    """ "The check on the ARM board will happen once hardware frees up": a check somewhere else than the
    experiment, to come."""
    return _CHECK_ON.search(sentence) is not None and scope_only(sentence) and not THE_EXPERIMENT.search(sentence)


#: The ticked check itself named: a clause that names it is about the check, whatever follows.
_THE_CHECK_ITSELF = re.compile(r"\b(?:original|failing|same|the repro|this test)\b|元の|失敗していた|同じ", re.I)
_NOT_TOUCHED = re.compile(
    r"\b(?:does not|doesn't|did not|didn't|never) (?:touch|exercise|reach|go through|use) (?:this|that|the)"
    r" (?:code ?path|path|code|function|module|change|fix)\b"
    r"|(?:この|今回の)(?:コード)?(?:経路|パス|変更|修正)を(?:通ら|使わ)",
    re.I,
)


def untouched_test(clause: str, sentence: str) -> bool:
    """Another test than the ticked one, said in its sentence not to reach the fix: "I haven't re-run the donor-sandbox
    load test; it does not touch this code path", 「今回の経路を通らない」."""
    return _THE_CHECK_ITSELF.search(clause) is None and _NOT_TOUCHED.search(sentence) is not None
