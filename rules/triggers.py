"""The ways into a post-mortem other than `/post-mortem`, read from chat text (pure; docs/rules.md#when-to-write-one).

Two kinds of message matter. A *request*: the bot is mentioned and asked, in words, for a post-mortem
("@postmortem-bot write up this fix", 「@postmortem-bot 事後分析を書いて」). An *announcement*: anyone says
that a fix is done and verified ("fixed in #5751", 「修正をマージしました」); the bot may then offer, once.
Nothing else is read from chat: the only thing ever taken from the text is a Jira key.
"""

from __future__ import annotations

import re
from typing import Literal

from rules import japanese
from rules.evidence_validation import unverified
from rules.phrases import HEDGING_WORDS, NOT_VERIFIED, prose
from rules.textmask import sentences

Trigger = Literal["request", "announcement"]

_EN = re.IGNORECASE | re.ASCII

#: Slack's markup for mentions, channels and links (`<@U123>`, `<#C1|name>`, `<https://x|label>`); never over
#: a `<`, so unclosed markup costs linear time, not quadratic.
_SLACK_MARKUP = re.compile(r"<[@#!][^<>]*>")

#: A request for a post-mortem, when the bot is addressed (en and ja, docs/rules.md#when-to-write-one).
_REQUEST = re.compile(
    r"\bpost[- ]?mortems?\b|\bRCA\b|\broot[- ]cause analys[ie]s\b"
    r"|\b(?:write|writing) (?:up|down) (?:this|the|that|our) (?:fix|bug)\b|\bwrite (?:this|the|that) fix up\b"
    r"|\bdocument (?:this|the|that|our) (?:fix|bug)\b|\bsummari[sz]e (?:the|this|its) root cause\b"
    r"|事後分析|ポストモーテム|ポスト・モーテム|根本原因分析|(?:この|その)?修正を文書化|根本原因をまとめ"
    r"|(?:この)?バグの対応を記録に残",
    _EN,
)

#: "Don't write a post-mortem": a request word in a refusal is no request.
_DECLINED = re.compile(
    r"\b(?:don't|do not|dont|no need|not needed|isn't needed|no)\b[^.!?\n]{0,30}\b(?:post[- ]?mortem|RCA)\b"
    r"|\b(?:post[- ]?mortem|RCA)s? (?:is|are)? ?(?:not needed|unnecessary)\b"
    r"|(?:事後分析|ポストモーテム|RCA)(?:は|を)?(?:不要|いらない|要らない|書かないで|やめて)",
    _EN,
)

#: A fix that is done: merged, landed, released, "fixed in <ref>", 修正をマージしました.
_FIX_DONE = re.compile(
    r"\bfixed (?:in|by|via|with) \S"
    r"|\b(?:merged|landed|shipped|deployed|released|pushed) (?:the|a|my|our|this|that) (?:bug ?)?fix\b"
    r"|\bfix(?:es)? (?:(?:is|are|has been|have been|was|were|got|just) )?(?:now )?"
    r"(?:merged|landed|deployed|shipped|released|in (?:main|master|prod(?:uction)?))\b"
    r"|\bthe fix is in\b"
    r"|\b(?:is|are|has been|have been|now) (?:now )?fixed\b(?!-| (?:width|height|size|position|point|price"
    r"|rate|cost|length|format|number|amount|window|interval|schedule))"
    r"|\bresolved (?:in|by|via) \S"
    r"|修正(?:を|が|は)?(?:マージ|デプロイ|リリース|反映)(?:しました|されました|済み|完了|した)"
    r"|修正(?:しました|済みです|済み|完了)|直りました|直った|解消しました|修正が入りました",
    _EN,
)

#: The fix is not done: negated, still failing, reverted, planned, or asked about.
_FIX_NOT_DONE = re.compile(
    r"\b(?:not|isn't|aren't|wasn't|weren't|hasn't|haven't|never|not yet) (?:been |yet |really )?"
    r"(?:fixed|merged|landed|deployed|shipped|released|resolved)\b"
    r"|\bstill (?:broken|fail(?:s|ing)?|hang(?:s|ing)?|crash(?:es|ing)?|flak(?:y|es)|red|reproduces)\b"
    r"|\brevert(?:ed|ing)?\b|\breopen(?:ed|ing)?\b|\bregress(?:ed|ion)\b"
    r"|\b(?:will|going to|gonna|about to|plan to|need to|needs to|trying to|try to) (?:\w+ )?"
    r"(?:fix|merge|land|deploy|ship|release)\b|\bonce (?:it'?s |the fix is )?(?:merged|landed|deployed)\b"
    r"|\bin review\b|\bup for review\b|\bwaiting (?:for|on) (?:review|ci|qa|approval)\b"
    r"|直って(?:い)?ない|直りません|直らない|未修正|修正(?:中|予定|前)|マージ(?:予定|待ち|前)|再発"
    r"|リバート|差し戻|レビュー(?:中|待ち)",
    _EN,
)

#: A question is not an announcement ("fixed in #5751?", 「直りましたか」).
_QUESTION = re.compile(r"\?|？|ですか|ました(?:か|っけ)|でしょうか")

#: Jira issue keys as people write them, bare or in a /browse/ link. Project keys have 2+ characters.
_KEY = re.compile(r"(?<![A-Za-z0-9_-])([A-Z][A-Z0-9_]+-[1-9][0-9]{0,17})(?![A-Za-z0-9_]|-[0-9])")

#: Upper-case words with a number that are not Jira projects (UTF-8, SHA-256, ISO-8601, ...).
NOT_PROJECTS: frozenset[str] = frozenset(
    {
        "UTF",
        "SHA",
        "ISO",
        "RFC",
        "CVE",
        "HTTP",
        "TLS",
        "SSL",
        "AES",
        "RSA",
        "MD",
        "IPV",
        "PEP",
        "ECMA",
        "ES",
        "COVID",
        "GPT",
        "WCAG",
        "IEEE",
        "ANSI",
        "CP",
        "WIN",
        "TCP",
        "UDP",
        "DDR",
        "PCIE",
        "USB",
        "HDMI",
        "LTE",
    }
)


def strip_markup(text: str) -> str:
    """The words of a Slack message: mentions, channel links and URLs' markup removed, code kept out."""
    return prose(_SLACK_MARKUP.sub(" ", text or ""))


def is_request(text: str) -> bool:
    """Whether a message addressed to the bot asks for a post-mortem (any phrase family, en or ja)."""
    words = strip_markup(text)
    return bool(_REQUEST.search(words)) and not _DECLINED.search(words)


def announces_fix(text: str) -> bool:
    """Whether a message says a fix is done, without saying it is unverified, hedged, planned or asked.

    Read sentence by sentence: "Merged the fix. Not verified yet." is not an announcement, and neither
    is "I think it's fixed in #12" (docs/rules.md#when-to-write-one: an offer only once a fix is clearly finished).
    """
    words = strip_markup(text)
    if not _FIX_DONE.search(words):
        return False
    if NOT_VERIFIED.search(words) or _hedged(words) or unverified(words):
        return False  # an offer only once the fix is verified (docs/rules.md#when-to-write-one), not before
    for sentence in sentences(words):
        if _FIX_DONE.search(sentence) and (_FIX_NOT_DONE.search(sentence) or _QUESTION.search(sentence)):
            return False
    return not _FIX_NOT_DONE.search(words)


def _hedged(words: str) -> bool:
    """A hedge, read like the lint reads it: Japanese auxiliaries by the analyser (あたらしい is no らしい)."""
    return HEDGING_WORDS.search(words) is not None or japanese.modality(words) is not None


def classify(text: str, *, mentioned: bool) -> Trigger | None:
    """What a message means to the bot: a request (only when mentioned), a fix announcement, or nothing."""
    if mentioned:
        return "request" if is_request(text) else None
    return "announcement" if announces_fix(text) else None


def jira_keys(text: str) -> list[str]:
    """Every Jira key named in the text, in order, once each (link and label of one key count once)."""
    keys: list[str] = []
    for match in _KEY.finditer(text or ""):
        key = match.group(1)
        if key.split("-")[0] not in NOT_PROJECTS and key not in keys:
            keys.append(key)
    return keys


def language_of(text: str) -> Literal["en", "ja"]:
    """Answer in the language of the message: any kana or kanji makes it Japanese."""
    return "ja" if re.search(r"[\u3040-\u30ff\u3400-\u9fff\uff66-\uff9f]", text or "") else "en"
