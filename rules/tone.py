"""The tone lint's readings of one text, en and ja: hedges, blame that names a person, marketing words,
vague mechanisms, placeholders and long paragraphs. Pure and linear; `rules.lint` turns them into
warnings. Text is read as the person's own prose (`textmask.mask`): code, quotes and logs are not tone.
"""

from __future__ import annotations

import re

from rules import evidence_words as words
from rules import japanese, japanese_blame, phrases
from rules.evidence_rejected import REJECTED
from rules.textmask import mask, normalize, sentences

_EN = re.IGNORECASE | re.ASCII

#: A person as the subject of a failure: someone forgot, Bob introduced it, the reviewer missed it.
_PERSON_BLAME_EN = re.compile(
    r"\b(?:someone|somebody|he|she|the (?:author|reviewer|developer|engineer|intern|new hire|on-call|committer"
    r"|submitter|contractor|programmer))\s+(?:(?:just|simply|also) )?(?:forgot|neglected|failed to"
    r"|didn't bother|did not bother|missed|overlooked|introduced|broke|messed up|screwed up|ignored|approved"
    r"|rubber-stamped|should have (?:caught|noticed|seen|known|spotted|found|checked|tested|reviewed))\b"
    r"|\b(?P<who>(?-i:[A-Z][a-z]+))\s+(?:(?:just|simply|also) )?(?:forgot|neglected|failed to|didn't bother"
    r"|introduced|broke"
    r"|did not bother|overlooked|missed|ignored|rubber-stamped|messed up|screwed up"
    r"|should have (?:caught|noticed|seen|known|spotted|found|checked|tested|reviewed))\b"
    r"|\b(?:introduced|broken|caused|missed|overlooked|forgotten)\s+by\s+(?P<by>(?-i:[A-Z][a-z]+))\b(?!-)"
    r"|\b(?:someone|somebody|\w+)'s (?:mistake|fault|oversight|error|carelessness)\b",
    _EN,
)
#: Capitalised words that are not people (sentence starts, processes, months).
_NOT_PEOPLE = frozenset(
    {
        "this",
        "that",
        "it",
        "the",
        "a",
        "an",
        "which",
        "what",
        "review",
        "testing",
        "tests",
        "test",
        "nobody",
        "everyone",
        "ci",
        "qa",
        "nothing",
        "commit",
        "change",
        "refactor",
        "release",
        "deploy",
        "monitoring",
        "january",
        "february",
        "march",
        "april",
        "may",
        "june",
        "july",
        "august",
        "september",
        "october",
        "november",
        "december",
        "there",
        "here",
        "then",
        "later",
        "we",
        "our",
        "they",
        "code",
        "pr",
        "merge",
        "linting",
        "lint",
        "nightly",
        "automation",
        "process",
        "bug",
        "fix",
        "patch",
        "upgrade",
        "migration",
    }
)
_PERSON_BLAME_JA = re.compile(
    "(?:さん|くん|君|氏|様|担当者|レビュアー|レビューア|開発者|作成者|作者|新人|誰か|彼女|彼)(?:が|は)[^。\n]{0,20}?"
    "(?:忘れ|見落と|見逃|混入|入れ(?:た|ました)|壊し|ミス|怠|確認しなかった|確認せず|チェックしなかった|テストしなかった"
    "|レビューしなかった|気付かなかった|気づかなかった)"
    "|(?:さん|くん|君|氏)の(?:ミス|せい|責任|不注意|見落とし|落ち度)"
)
#: A gap blamed on a process is blameless ("CI should have caught this", CI で検出すべきでした).
_PROCESS_SUBJECT = re.compile(
    r"(?:\b(?:ci|tests?|testing|test suite|suite|review|code review|pipeline|qa|monitoring|lint(?:er)?|alerts?"
    r"|checks?|this|it|we|nightly|build|process|tooling|automation)\s*|(?:CI|テスト|レビュー|プロセス|チェック|仕組み"
    r"|自動テスト|監視)\s*(?:が|で|は|により)\s*)$",
    re.IGNORECASE,
)

#: Advocacy's cousin: adjectives that sell rather than record (docs/rules.md#no-advocacy).
MARKETING = (
    words.any_of(
        r"\bblazing(?:ly)?[- ]fast\b",
        r"\bseamless(?:ly)?\b",
        r"\bworld[- ]class\b",
        r"\bbest[- ]in[- ]class\b",
        r"\bcutting[- ]edge\b",
        r"\bstate[- ]of[- ]the[- ]art\b",
        r"\brevolutionary\b",
        r"\bgame[- ]chang\w*",
        r"\bamazing(?:ly)?\b",
        r"\bawesome\b",
        r"\bincredibl[ey]\b",
        r"\bsuperb\b",
        r"\brock[- ]solid\b",
        r"\bbulletproof\b",
        r"\bnext[- ]gen(?:eration)?\b",
        r"\bindustry[- ]leading\b",
        r"\bdelightful\b",
        r"\bmagical(?:ly)?\b",
        r"\bfantastic\b",
        r"\bhuge (?:win|improvement)\b",
        r"\bmassive(?:ly)? (?:win|improvement|better)\b",
        r"\bbeautiful(?:ly)?\b",
        r"\belegant(?:ly)?\b",
        r"\bunparalleled\b",
        r"\bsuper[- ]?(?:fast|robust)\b",
        flags=_EN,
    ),
    words.any_of(
        "画期的",
        "劇的(?:に|な)",
        "圧倒的",
        "革新的",
        "最高の",
        "究極の",
        "驚異的",
        "夢のよう",
        "完璧な",
        "最強",
    ),
)

#: Something left to fill in: TBD, TODO, FIXME, XXX, ???, <placeholder>, 未定, 未記入.
PLACEHOLDER = re.compile(
    r"\b(?:TBD|TBC|TODO|FIXME|XXX+)\b|\?{2,}|<(?!https?:|mailto:|[@#!/])[A-Za-z\u3040-\u9fff][^<>\n=]{0,38}>"
    r"|\[(?:TBD|TODO|link|name|owner|ticket)\]|未定|未記入|要記入|記入予定",
    re.IGNORECASE,
)

#: Paragraph length beyond which "short paragraphs" (docs/rules.md#active-voice-concrete-subjects-short-paragraphs)
#: is not met (display columns: kana/kanji count 2).
LONG_PARAGRAPH_COLUMNS = 1200


def hedges(text: str) -> list[str]:
    """Hedging phrases, except a modal inside a condition and a belief that was rejected in its sentence."""
    found: list[str] = []
    for sentence in sentences(mask(text)):
        if REJECTED[0].search(sentence) or REJECTED[1].search(sentence):
            continue
        conditional = bool(words.CONDITION[0].search(sentence) or words.CONDITION[1].search(sentence))
        contrasted = bool(words.CONTRAST[0].search(sentence) or words.CONTRAST[1].search(sentence))
        if (modal := japanese.modality(sentence)) is not None:
            _add(found, modal[1])
        for m in phrases.HEDGING_WORDS.finditer(sentence):
            phrase = m.group(0).strip(" 、,")
            if conditional and re.match(r"(?:might|may|could)\b", phrase, re.I):
                continue  # "the loop may exit early if …" says when the code does something
            if contrasted and phrase.startswith("はず"):
                continue  # 「呼ばれるはずですが、実際には呼ばれません」: expected against actual behaviour
            _add(found, phrase)
    return found


def blames(text: str) -> list[str]:
    """Blame that names a person, not a gap; a process or CI as the subject is blameless."""
    found: list[str] = []
    masked = mask(text)
    for m in _PERSON_BLAME_EN.finditer(masked):
        who = (m.group("who") or m.group("by") or "").lower()
        if who not in _NOT_PEOPLE and not who.endswith(("ing", "tion", "sion", "ment", "ness", "ity")):
            _add(found, m.group(0))
    for m in _PERSON_BLAME_JA.finditer(masked):
        _add(found, m.group(0))
    for sentence in sentences(masked):
        if (named := japanese_blame.blamed_person(sentence)) is not None:
            _add(found, named)
    for m in phrases.BLAME.finditer(masked):
        if not _PROCESS_SUBJECT.search(masked[max(0, m.start() - 30) : m.start()]):
            _add(found, m.group(0).strip(" 、,"))
    return found


def marketing(text: str) -> list[str]:
    found: list[str] = []
    masked = mask(text)
    for pattern in MARKETING:
        for m in pattern.finditer(masked):
            _add(found, m.group(0))
    return found


def vague(text: str) -> list[str]:
    """Mechanisms named only by their kind, unless their own sentence names at least two code identifiers."""
    found: list[str] = []
    for sentence in sentences(normalize(text)):
        matches = phrases.find(phrases.VAGUE_MECHANISM, sentence)
        if matches and _identifiers(sentence) < 2:
            for phrase in matches:
                _add(found, phrase)
    return found


def placeholders(text: str) -> list[str]:
    """Placeholder parts anywhere in the text; a lone "?" only when it is the whole text."""
    stripped = normalize(text).strip()
    if stripped in ("?", "？"):
        return ["?"]
    found: list[str] = []
    for m in PLACEHOLDER.finditer(phrases.prose(normalize(text))):
        _add(found, m.group(0))
    return found


def paragraphs(text: str) -> list[str]:
    """The text's paragraphs: blocks between blank lines, code fences not counted as prose."""
    return [p for p in re.split(r"\n[ \t]*\n", phrases.prose(normalize(text))) if p.strip()]


def long_paragraph(text: str) -> int | None:
    """The length in columns of the first paragraph over LONG_PARAGRAPH_COLUMNS, if any."""
    for paragraph in paragraphs(text):
        columns = len(paragraph) + len(re.findall(r"[\u3000-\u9fff\uff00-\uffef]", paragraph))
        if columns > LONG_PARAGRAPH_COLUMNS:
            return columns
    return None


def _identifiers(sentence: str) -> int:
    count = 0
    for _ in phrases.IDENTIFIER_RE.finditer(sentence):
        count += 1
        if count >= 2:
            break
    return count


def _add(found: list[str], phrase: str) -> None:
    """Keep the first few distinct phrases only: a warning quotes examples, not every occurrence."""
    if len(found) < 5 and phrase.lower() not in (f.lower() for f in found):
        found.append(phrase)
