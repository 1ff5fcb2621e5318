"""What a specification, a standard or a contract allows is not the writer's guess (docs/rules.md#mechanism):
"FIX 4.4 expects ExecID to be unique, and it might be reused only across days", "POSIX allows `read()` to
return less; it may do so on a pipe", 「仕様上、ID は日をまたいで再利用される可能性がある」. A modal after a norm's
reporting verb, in the same sentence, paraphrases the norm. Also words reported that state no fact: a request of the
writer (「見てほしいと言われています」), or the report the clause explains (「…と言われたのはこのためです」). Linear.
"""

from __future__ import annotations

import re

#: A norm: a specification, a standard, a protocol, a contract, a manual, or an acronym with a version ("FIX 4.4",
#: "RFC 9110", "HTTP/2", "IEEE 754"); an acronym alone may be a team ("QA says"), so it needs the version.
_NORM = (
    r"(?:spec(?:ification)?s?|rfcs?|standards?|protocols?|contracts?|docs|documentation|manuals?|datasheets?"
    # An acronym with its number, the body's suffix and a series letter too: "ITU-R M.1371", "ISO/IEC 27001".
    r"|reference|errata|posix|abi|(?-i:[A-Z][A-Z0-9]{1,9}(?:[-/][A-Z]{1,5})?)[ /-]?(?-i:[A-Z]{1,3}[.-]?)?\d[\d.]*"
    # "The WBF rules say …": a body's rules, named with the body.
    r"|(?:the |our |their )?[A-Za-z][\w'-]{1,15} (?:rules|regulations|laws|rulebook))"
)
_NORM_SAYS = re.compile(
    rf"\b{_NORM}\b(?:[^.;]|(?<=\d)\.(?=\d)){{0,60}}?\b(?:expects?|requires?|allows?|permits?|specifies|specified|mandates?|guarantees?"
    r"|defines?|documents?|says?|states?|notes?|promises?|lets?|(?:only )?makes?)\b"
    rf"|\b(?:according to|per|under|by) (?:the )?[\w./ -]{{0,30}}?\b{_NORM}\b"
    # 「SIP の仕様（RFC 3261）上」: the norm, then what names it in brackets.
    r"|(?:仕様|規格|プロトコル|ドキュメント|マニュアル|データシート|契約|RFC\s*\d+)(?:書)?"
    r"(?:\s*[（(][^（）()]{1,30}[）)]|\s+[A-Za-z0-9][\w.-]{0,30})?\s*"
    r"(?:上|では|で(?:は)?|により|によれば|によると"
    r"|の定義では|の規定では|に従えば)",
    re.IGNORECASE,
)


def norm_says(sentence: str, at: int) -> bool:
    """Whether a norm's reporting verb comes before position `at` of `sentence`: what follows is the norm's word."""
    return _NORM_SAYS.search(sentence, 0, at) is not None


#: "according to the spec", "per RFC 9110": a norm cited, not a person's word.
_NORM_CITED = re.compile(rf"^(?:according to|as per|per)\s+(?:the\s+)?[\w./ -]{{0,30}}?\b{_NORM}\b", re.IGNORECASE)


#: 「RFC 6455 によれば」「仕様書によると」: a norm cited in Japanese.
_NORM_CITED_JA = re.compile(
    r"(?:仕様|規格|プロトコル|ドキュメント|マニュアル|データシート|契約|RFC\s*\d+|[A-Z][A-Z0-9]{1,9}[ /-]?\d[\d.]*)"
    r"(?:書)?\s*(?:に)?(?:よれば|よると|では|上)",
)


def norm_cited_ja(clause: str) -> bool:
    """Whether a Japanese clause cites a norm (「RFC 6455 によれば」), which is no person's hearsay."""
    return _NORM_CITED_JA.search(clause) is not None


def norm_cited(clause: str, at: int) -> bool:
    """Whether the hearsay marker at `at` cites a norm ("according to RFC 9110"), not a person."""
    return _NORM_CITED.match(clause[at : at + 60]) is not None


#: A request reported, not a fact: 「GPU 版でも見てほしいと言われています」「確認するように言われた」.
_REQUEST_BEFORE_JA = re.compile("(?:ほしい|欲しい|ください|下さい|ように|よう|てくれ|でくれ|もらいたい|べき|たい)\\s*$")


def reported_no_fact(clause: str, phrase: str) -> bool:
    """Whether the reported words are someone's request of the writer, which reports no fact; or the report is the
    symptom the clause explains: 「観客から『シリウスがない』と言われたのはこのためです」."""
    at = clause.find(phrase)
    if at >= 0 and _EXPLAINED_JA.match(clause, at + len(phrase)):
        return True
    return at > 0 and _REQUEST_BEFORE_JA.search(clause, 0, at) is not None


_EXPLAINED_JA = re.compile("[^。、]{0,4}?のは(?:この|その|これが|それが)?(?:ため|せい|理由|原因)")
