"""The word lists of the tone rules (docs/rules.md#tone), in one place, so the gate, the lint and the prompts agree.

English patterns use ASCII word boundaries (`re.ASCII`), so "はdumbModelを" still has a word edge and
"likelihood" or "unlikely" never read as "likely". Japanese patterns are literal phrases. Every list is
searched whatever the post-mortem's language: a Japanese record may quote English and the reverse.
Text inside backticks is code and is never searched for tone (`prose`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from rules.evidence_words import SCOPE_AFTER
from rules.regex_guard import alternation, compile_guarded

_FLAGS = re.IGNORECASE | re.ASCII

#: Code is not prose: fenced blocks first, then inline spans.
_CODE_RE = re.compile(r"```.*?(?:```|\Z)|`[^`\n]*`", re.DOTALL)

#: Hedging: a statement that is believed, not known (docs/rules.md#no-hedging).
HEDGING_EN: tuple[str, ...] = (
    r"\bprobably\b",
    r"\b(?:I|we) (?:think|believe|suspect|guess|assume)\b",
    r"\bmight\b",
    r"\bmaybe\b",
    r"\bperhaps\b",
    r"\bseem(?:s|ingly)?\b",
    r"\blikely\b",
    r"\bpossibly\b",
    r"\bcould (?:be|have)\b",
    r"\bmay (?:be|have)\b",
    r"\bpresumably\b",
    r"\bapparently\b",
    r"\bappears? to\b",
    r"\bnot (?:sure|certain)\b",
    r"\bshould (?:now )?(?:work|pass|help|be fine|be fixed)\b",
)
#: Japanese hedges that are words, not grammar; the grammatical ones (らしい, ようだ, かもしれない, と思う,
#: だろう) are read by the analyser (`rules.japanese.modality`) in the lint, never as substrings.
HEDGING_JA_WORDS: tuple[str, ...] = (
    "可能性が(?:あります|ある|高い)",
    "はずです",
    "気がします",
    "と推測",
    "疑われ(?:ます|る)",
    "推定(?:され|し|です|だ|。|$|、)",
    "と推定",
    "とみられ",
    "と見られ",
    "(?:ではない|のではない|んじゃない)(?:か|でしょうか)",
    "模様(?:です|だ)",
    "っぽい",
    "と推察",
    "思しき",
    "気がする",
    "断定でき(?:ない|ません)",
)
#: The full list as substrings; kept for reference and the regex guard, no longer read by chat (rules/triggers.py
#: reads Japanese hedges by the analyser too, so あたらしい is no らしい there either).
HEDGING_JA: tuple[str, ...] = (
    "かもしれ(?:ません|ない)",
    "と思われ(?:ます|る)",
    "と思(?:います|う)",
    "よう(?:です|だ|でした|で[、,])",
    "みたい(?:です|だ)",
    "おそらく",
    "恐らく",
    "たぶん",
    "多分",
    "と考えています",
    "と考えられ(?:ます|る)",
    "可能性が(?:あります|ある|高い)",
    "でしょう",
    "だろう",
    "はずです",
    "気がします",
    "と推測",
    "疑われ(?:ます|る)",
    # Inference endings and softeners; しかも and 素晴らしい only contain them.
    "推定(?:され|し|です|だ|。|$|、)",
    "と推定",
    "とみられ",
    "と見られ",
    "(?:ではない|のではない|んじゃない)(?:か|でしょうか)",
    "(?<![しもか])かも(?=[。、,.\\s]|$|です|ね|な)",
    "(?<!素晴)(?<!可愛)(?<!汚)(?<!男)(?<!女)(?<!子供)(?<!馬鹿)(?<!憎)(?<!誇)(?<!愛)らしい",
    "模様(?:です|だ)",
    "っぽい",
    "と推察",
    "思しき",
    "気がする",
    "と考えられ",
    "断定でき(?:ない|ません)",
)

#: Blame: a person instead of a gap (docs/rules.md#no-blame). "this should have been caught" is the rules' own
#: answer for `no_good_reason` (docs/rules.md#the-sections-in-this-order), so only the active "<someone> should
#: have caught" is blame.
BLAME_EN: tuple[str, ...] = (
    r"\bshould(?:n't| not)? have (?:caught|noticed|seen|known|spotted|found|checked|tested|reviewed)\b",
    r"\b\w+'s fault\b",
    r"\bfault of\b",
    r"\bcareless(?:ly|ness)?\b",
    r"\bsloppy\b",
    r"\bdropped the ball\b",
    r"\bnegligen(?:t|ce)\b",
    r"\bincompetent\b",
    r"\bto blame\b",
    r"\bhuman error\b",
    r"\b(?:his|her|their) mistake\b",
)
BLAME_JA: tuple[str, ...] = (
    "(?:見つける|見つけ|気付く|気づく|見抜く|防ぐ)べき(?:だった|でした)",
    "のミス",
    "のせい",
    "不注意",
    "怠慢",
    "ずさん",
    "杜撰",
    "うっかり",
    "人為的ミス",
)

#: A mechanism named only by its kind (docs/rules.md#mechanism-over-description). Flagged when no identifier is near.
VAGUE_MECHANISM_EN: tuple[str, ...] = (
    r"\b(?:sync(?:hronization)?|timing|concurrency|threading|race|memory|caching|state) "
    r"(?:issue|problem|glitch)s?\b",
    r"\bsome (?:sort of |kind of )?(?:race|glitch|corruption|issue|problem|bug)\b",
    r"\ba race(?: condition)?(?: somewhere)?\b",
    r"\bsomething (?:went wrong|broke)\b",
)
VAGUE_MECHANISM_JA: tuple[str, ...] = (
    "同期の問題",
    "同期問題",
    "タイミングの問題",
    "タイミング問題",
    "競合の問題",
    "並行性の問題",
    "何らかの(?:競合|問題|原因|不具合)",
    "何かしらの(?:競合|問題|原因|不具合)",
)

#: Advocacy: proposals belong in a separate document linked from an action item (docs/rules.md#no-advocacy).
ADVOCACY_EN: tuple[str, ...] = (
    r"\b(?:we|you|the team|someone) (?:really )?(?:should|must|need to|ought to|have to) "
    r"(?:refactor|rewrite|redesign|re-?architect|replace|migrate|switch|adopt|move to|get rid of"
    r"|deprecate)\b",
    r"\bshould be (?:refactored|rewritten|redesigned|replaced|re-?architected)\b",
    r"\b(?:I|we) (?:propose|recommend|suggest|advocate)\b",
    r"\bit would be (?:better|nice|good) to\b",
    r"\b(?:should|must|needs? to|ought to|has to|have to) (?:be )?(?:completely |fully |eventually |really )?"
    r"(?:redesign(?:ed)?|replac(?:e|ed)|rewr(?:ite|itten)|re-?architect(?:ed)?|rebuil(?:d|t)|thrown away|scrapped"
    r"|ripped out|overhaul(?:ed)?)\b",
    r"\b(?:let's|let us|it's time to|time to) (?:redesign|replace|rewrite|re-?architect|refactor|rebuild|overhaul"
    r"|migrate|switch|move)\b",
    r"\bneeds? (?:a|an) (?:full |complete |proper |total )?"
    r"(?:redesign|rewrite|re-?architecture|overhaul|replacement)\b",
    r"\b(?:a|the) (?:full |complete |proper )?(?:redesign|rewrite|overhaul|replacement) (?:is|would be) "
    r"(?:needed|required|overdue|necessary|the (?:only|real|right) (?:fix|answer|way))\b",
)
ADVOCACY_JA: tuple[str, ...] = (
    "(?:リファクタリング|リファクタ|書き直|作り直|再設計|再実装|刷新|置き換え|移行)[^。\n]{0,6}?べき(?!でした|だった)",
    "(?:を|ことを)(?:提案|推奨|提言)します",
    "(?:た|る)(?:方|ほう)が(?:よい|良い|いい)",
    "(?:再設計|作り直し|書き直し|刷新|リプレース|置き換え|全面改修|再実装)(?:が|は)(?:必要|不可欠|望ましい|急務)",
    "(?:再設計|作り直|書き直|置き換え|刷新|リプレース|リファクタ(?:リング)?|再実装|移行)(?:し|す)?"
    "(?:ましょう|たい(?:です)?|てほしい|るべき|べき(?!でした|だった))",
)

#: The validation is not done yet (docs/rules.md#when-not-to). "not tested on ARM" is an
#: honest scope, not a missing validation, so a following scope word keeps a negation from counting.
NOT_VERIFIED_EN: tuple[str, ...] = (
    r"\btbd\b",
    r"\btodo\b",
    r"\bwill (?:be )?(?:test|verif|validat|check|confirm|run)\w*",
    r"\bto be (?:tested|verified|validated|confirmed|checked)\b",
    r"\bpending\b",
    r"\bin progress\b",
    r"\b(?:not|haven't|have not|hasn't|has not) (?:yet )?(?:been )?(?:verified|validated|tested|confirmed)"
    r"(?: yet)?\b" + SCOPE_AFTER,
    r"\bun(?:verified|tested)\b" + SCOPE_AFTER,
)
NOT_VERIFIED_JA: tuple[str, ...] = (
    "(?<!では)(?<!には)未(?:検証|確認|テスト|実施)",
    "これから(?:確認|検証|テスト)",
    "まだ(?:確認|検証|テスト)(?:して|でき|し)(?:いません|いない|ません|ていません)",
    "(?:確認|検証)中",
    "テスト中です",
    "(?:確認|検証|テスト|実行)(?:する|の)?予定",
    "後で(?:確認|検証|テスト)",
    "未定",
)

#: An honest scope stated inside the validation text itself (so `validation_scope` is not needed).
SCOPE_STATED_EN: tuple[str, ...] = (
    r"\bnot (?:re-?)?(?:tested|verified|validated|checked|run)\s+(?:on|with|in|for|under|against|beyond|"
    r"outside|at|across)\b",
    r"\bnot re-?tested\b",
    r"\bonly (?:tested|verified|validated|checked|ran|run)\b",
    r"\b(?:tested|verified|validated) only\b",
    r"\bdid(?:n't| not) re-?test\b",
)
SCOPE_STATED_JA: tuple[str, ...] = (
    "再テストしていません",
    "(?:では|には)(?:テスト|検証|確認|再テスト|試)(?:して|し)(?:いません|ていません|ません)",
    "(?:では|には)未(?:検証|確認|テスト)",
    "のみ(?:で)?(?:検証|テスト|確認)",
)

#: Code identifiers: the index of an engineering record (docs/rules.md#keep-code-identifiers-as-they-are).
IDENTIFIER_RE = re.compile(
    r"`[^`\n]+`"
    r"|\b[A-Za-z][A-Za-z0-9]*_[A-Za-z0-9_]*[A-Za-z0-9]\b"  # snake_case, SCREAMING_CASE
    r"|\b[a-z]+[0-9]*[A-Z][A-Za-z0-9]*\b"  # camelCase
    r"|\b[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*\b"  # PascalCase with an inner capital
    r"|\w(?:::|->)\w"  # Foo::bar, a->b
    r"|(?<![\w./-])[\w.-]+/[\w./-]*\.[A-Za-z0-9]{1,6}\b"  # path/with.ext
    r"|(?<![\w-])[\w-]+\.(?:py|pyi|c|cc|cpp|cu|h|hpp|go|rs|java|kt|js|ts|rb|sh|sql|proto|yaml|yml|json|toml|md)\b"
    r"|\b[A-Za-z_]\w*\((?!s\))"  # call(), not "test(s)"
    r"|\b[a-z_][A-Za-z0-9_]*\.[a-z_][A-Za-z0-9_]+\b"  # obj.attr
    r"|\b(?=[0-9a-f]*[0-9])(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}\b"  # a commit SHA
    r"|==|!=|&&|\|\|",
    re.ASCII,
)


#: A value that stands for "nothing yet".
PLACEHOLDERS: frozenset[str] = frozenset(
    {
        "tbd",
        "tbc",
        "todo",
        "n/a",
        "na",
        "none",
        "null",
        "nil",
        "-",
        "--",
        "?",
        "??",
        "unknown",
        "later",
        "未定",
        "なし",
        "不明",
        "未記入",
        "後で",
        "ー",
        "—",
    }
)


def _compile(*lists: Iterable[str]) -> re.Pattern[str]:
    return compile_guarded(alternation((p for group in lists for p in group), _FLAGS), _FLAGS)


HEDGING = _compile(HEDGING_EN, HEDGING_JA)
HEDGING_WORDS = _compile(HEDGING_EN, HEDGING_JA_WORDS)
BLAME = _compile(BLAME_EN, BLAME_JA)
VAGUE_MECHANISM = _compile(VAGUE_MECHANISM_EN, VAGUE_MECHANISM_JA)
ADVOCACY = _compile(ADVOCACY_EN, ADVOCACY_JA)
NOT_VERIFIED = _compile(NOT_VERIFIED_EN, NOT_VERIFIED_JA)
SCOPE_STATED = _compile(SCOPE_STATED_EN, SCOPE_STATED_JA)


def prose(text: str | None) -> str:
    """The text with code (fenced blocks, `inline spans`) blanked out: code is never tone-checked."""
    return _CODE_RE.sub(" ", text or "")


def find(pattern: re.Pattern[str], text: str | None) -> list[str]:
    """The phrases of `pattern` in the prose of `text`, as written, first occurrence of each only."""
    found: list[str] = []
    for match in pattern.finditer(prose(text)):
        phrase = match.group(0).strip(" 、,")
        if phrase.lower() not in (f.lower() for f in found):
            found.append(phrase)
    return found


def has_identifier(text: str | None) -> bool:
    """Whether the text names code: a `span`, snake_case, camelCase, Foo::bar, a path, a call, a SHA."""
    return bool(IDENTIFIER_RE.search(text or ""))


def is_placeholder(text: str | None) -> bool:
    """Whether the whole value only stands for "nothing yet" ("TBD", "n/a", 「未定」)."""
    return (text or "").strip().rstrip(".。!！").strip().lower() in PLACEHOLDERS
