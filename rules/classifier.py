"""Classify a thread reply: approve, cancel, continue, skip, `<field>: <text>`, a revision, or other.

`<field>` is the field's DESIGN §2 name or its label in either language (`検証：…`, `Validation: …`).

Approval is explicit only, in plain words (docs/rules.md#from-inputs-to-a-posted-record, approval before
posting): "post it" / "go ahead" / "yes", 「投稿してください」/「進めてください」/「はい」, in either language
whatever the session's language. A posted comment is never taken back, so the reading errs on the side of
not posting: the reply must be the phrase and nothing else but whitespace, the punctuation `, 、 . 。 !`,
mentions of the bot and the positive emoji of `APPROVAL_EMOJI` (unicode or `:shortcode:`, with a skin tone).
A code span or block, a quote, a link, a mention of anyone else, any other emoji (👎, 🚫, ❌, `:x:`,
`:no_entry:`, ✋…), a `?` or any other word makes it no approval. After Slack's escapes are undone, NFKC and
case folding, the words must be exactly:

    en:  [yes|ok|okay] [please] (post it | go ahead) [please]   |   yes [please]
    ja:  [はい] (投稿して|進めて)(ください|下さい)   |   はい [お願いします]

A reply that names an approval phrase but is not one ("`yes`", "post it 👎", "yes?", "post it now") is
`Kind.unclear_approval`: the thread is told how to approve, and nothing is posted.
Cancel, continue and skip are read more loosely (none of them posts): emoji and `, 、 . 。 !` are dropped,
then [please] WORD [please] in English; in Japanese WORD plus an optional polite ending
(して(ください|下さい) / します / (で)お願いします).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from enum import StrEnum

from postmortem.field_table import REGISTRY
from postmortem.messages import FIELD_LABELS
from postmortem.sections import LABELS, SECTIONS

#: Field names a `<field>: <text>` reply may set (DESIGN §2, from the registry); "ticket" and the scope flags
#: are not among them.
REPLY_FIELDS: tuple[str, ...] = tuple(n for n in REGISTRY.names if n != "ticket" and n not in REGISTRY.flags)


class Kind(StrEnum):
    """What a thread reply asks the bot to do."""

    approve = "approve"
    #: Names an approval phrase but is not one (code, a quote, another emoji or word): told how to approve.
    unclear_approval = "unclear_approval"
    cancel = "cancel"
    continue_ = "continue"
    skip = "skip"
    field_answer = "field_answer"
    revise = "revise"
    other = "other"


@dataclass(frozen=True)
class Reply:
    """A classified reply; `field`/`value` for `<field>: <text>`, `field` for a skip or revise naming one."""

    kind: Kind
    field: str | None = None
    value: str | None = None


# Slack markup: leading mentions (`<@U123>`, `<!here>`, or a typed `@bot`), links `<url|label>`. No part
# may run over a `<` (Slack escapes it inside markup): else each unclosed `<http:` rescans the rest of the
# message, quadratic time (25 s on a 40,000-character reply).
_LEADING_MENTIONS = re.compile(r"^\s*(?:(?:<[@!][^<>]*>|@[^\s:,]+)[\s,:]*)+")
_LINK = re.compile(r"<((?:https?|mailto):[^|<>]+)(?:\|[^<>]*)?>")
_MENTION_PARTS = re.compile(r"<[@!]([^<>|]*)(?:\|[^<>]*)?>|@([^\s:,]+)")
_FIELD_ANSWER = re.compile(r"^\s*[`*]?([A-Za-z_]+)[`*]?\s*[:：]\s*(.*)$", re.DOTALL)
_SHORTCODE = re.compile(r":[a-z0-9_+'-]+:")
_SEPARATORS = re.compile(r"[,、.。!]+")
_JA_GAP = re.compile(r"(?<=[^\x00-\x7f]) (?=[^\x00-\x7f])")
_EMOJI_CATEGORIES = {"So", "Sk", "Cf", "Co"}
_VARIATION_SELECTORS = {"\ufe0e", "\ufe0f"}

_POLITE_JA = r"(?:して(?:ください|下さい)|します|でお願いします|お願いします)?"
_PLEASE = r"(?:please )?"
_PLEASE_AFTER = r"(?: please)?"

#: No approval is longer than this (the longest phrase with mentions and emoji is well under it).
MAX_APPROVAL_CHARS = 200
#: The whole of an approval's words (after `_approval_words`), nothing more.
_APPROVALS: tuple[re.Pattern[str], ...] = (
    re.compile(rf"^(?:(?:yes|ok|okay) )?{_PLEASE}(?:post it|go ahead){_PLEASE_AFTER}$"),
    re.compile(rf"^yes{_PLEASE_AFTER}$"),
    re.compile(r"^(?:はい)?(?:投稿して|進めて)(?:ください|下さい)$"),
    re.compile(r"^はい(?:お願いします)?$"),
)
#: An approval phrase anywhere in a reply's words: if the reply is no approval, it is told how to approve.
_APPROVAL_PHRASE = re.compile(r"(?<![a-z0-9])(?:yes|post it|go ahead)(?![a-z0-9])|投稿して|進めて|^はい")

#: The only emoji an approval may carry, as unicode and as Slack shortcodes; a skin tone may follow either.
APPROVAL_EMOJI: frozenset[str] = frozenset({"👍", "✅", "✔", "☑", "🙏", "👌", "🙌", "🚀", "🎉"})
APPROVAL_SHORTCODES: frozenset[str] = frozenset(
    {
        "+1",
        "thumbsup",
        "white_check_mark",
        "heavy_check_mark",
        "ballot_box_with_check",
        "pray",
        "ok_hand",
        "raised_hands",
        "rocket",
        "tada",
    }
)
_SKIN_TONES = frozenset(chr(c) for c in range(0x1F3FB, 0x1F400))
_SKIN_TONE_CODE = re.compile(r"^skin-tone-[2-6]$")
#: Slack markup an approval may hold: a mention (`<@U123>` or `<@U123|name>`), checked against the bot's id.
_SLACK_MARKUP = re.compile(r"<[^<>]*>")
_BOT_MENTION = re.compile(r"^<@([A-Z0-9]+)(?:\|[^<>]*)?>$")
#: A quoted line (`>` as typed, `&gt;` as Slack sends it) or Slack's `>>>` block quote.
_QUOTE_LINE = re.compile(r"^\s*(?:>|&gt;)", re.MULTILINE)
#: Punctuation that may surround an approval (after NFKC: `！` is `!`, `，` is `,`).
_APPROVAL_PUNCTUATION = re.compile(r"[,、.。!]+")

_COMMANDS: tuple[tuple[Kind, re.Pattern[str]], ...] = (
    (Kind.cancel, re.compile(rf"^{_PLEASE}cancel{_PLEASE_AFTER}$")),
    (Kind.cancel, re.compile(rf"^(?:キャンセル|中止){_POLITE_JA}$")),
    (Kind.continue_, re.compile(rf"^{_PLEASE}continue{_PLEASE_AFTER}$")),
    (Kind.continue_, re.compile(rf"^(?:続行{_POLITE_JA}|続けて(?:ください|下さい))$")),
    (Kind.skip, re.compile(rf"^{_PLEASE}skip{_PLEASE_AFTER}$")),
    (Kind.skip, re.compile(rf"^スキップ{_POLITE_JA}$")),
)
_SKIP_FIELD = re.compile(r"^skip ([a-z_]+)$")

# A reply asking for a change in words rather than as `<field>: <text>`; a hint for the handler, never a post.
_REVISE = re.compile(
    r"\b(?:fix|change|revise|edit|update|rewrite|reword|correct|add|remove|delete|replace|shorten|clarify)\b"
    r"|修正|直して|直す|変更|書き直|追加|削除|訂正"
)


def _aliases() -> dict[str, str]:
    names = {f: f for f in REPLY_FIELDS} | {f.replace("_", " "): f for f in REPLY_FIELDS}
    for section in SECTIONS:
        names |= {h.casefold(): section.key for h in section.heading.values()}
    for label in ("repro", "owner", "fix_ref", "validation_scope"):
        names |= {h.casefold(): label for h in LABELS[label].values()}
    # "fix" / 修正 is also the verb of most revision requests: only "the fix", "fix section" name the section.
    del names["fix"], names["修正"]
    fix_names = ("the fix", "fix section", "修正セクション", "「修正」")
    return names | dict.fromkeys(fix_names, "fix") | {"reproduction": "repro", "repro steps": "repro"}


_ALIASES = _aliases()


def _labels_read() -> dict[str, str]:
    """Field labels and section headings in either language (NFKC, case folded) → field, for `<label>: <text>`."""
    labels = {v: f for f, by_lang in FIELD_LABELS.items() for v in by_lang.values()}
    labels |= {h: s.key for s in SECTIONS for h in s.heading.values()}
    labels |= {h: key for key in ("repro", "owner", "fix_ref", "validation_scope") for h in LABELS[key].values()}
    # Both as written (the full-width brackets of 根本原因（メカニズム）) and NFKC-normalised (half-width ones).
    return {form: v for k, v in labels.items() for form in (k.casefold(), unicodedata.normalize("NFKC", k).casefold())}


_LABELS_READ = _labels_read()
_LABEL_ANSWER = re.compile(
    r"^\s*[`*]?("
    + "|".join(re.escape(k) for k in sorted(_LABELS_READ, key=len, reverse=True))
    + r")[`*]?\s*[:：]\s*(.*)$",
    re.DOTALL | re.IGNORECASE,
)
_MENTIONED = re.compile("|".join(re.escape(a) for a in sorted(_ALIASES, key=len, reverse=True)))


def classify_reply(text: str, *, bot_user_id: str | None = None) -> Reply:
    """What a thread reply means; anything not matching the grammar above is never an approval.

    A reply that starts by addressing someone else (`<@U0ALICE> yes`, `@alice go ahead`, `<!channel>`)
    is talk between people, never a command to the bot; addressing the bot (`<@bot_user_id>`) is fine.
    """
    if _addressed_to_someone_else(text, bot_user_id):
        return Reply(Kind.other)
    plain = slack_plain(text)
    answer = _FIELD_ANSWER.match(plain)
    if answer and answer.group(1).lower() in REPLY_FIELDS:
        value = answer.group(2).strip()
        return Reply(Kind.field_answer, answer.group(1).lower(), value) if value else Reply(Kind.other)
    if labelled := _LABEL_ANSWER.match(plain):  # `<label>: <text>`, the label in either language
        field = _LABELS_READ.get(labelled.group(1).casefold())
        value = labelled.group(2).strip()
        if field in REPLY_FIELDS and value:
            return Reply(Kind.field_answer, field, value)
    if is_approval(text, bot_user_id=bot_user_id):
        return Reply(Kind.approve)
    words = command_words(plain)
    if not words:
        return Reply(Kind.other)
    if "?" not in words:
        for kind, pattern in _COMMANDS:
            if pattern.match(words):
                return Reply(kind)
        skip = _SKIP_FIELD.match(words)
        if skip and skip.group(1) in REPLY_FIELDS:
            return Reply(Kind.skip, skip.group(1))
    if _REVISE.search(words):
        return Reply(Kind.revise, _mentioned_field(words))
    if _APPROVAL_PHRASE.search(words):
        return Reply(Kind.unclear_approval)
    return Reply(Kind.other)


def is_approval(text: str, *, bot_user_id: str | None = None) -> bool:
    """Whether a reply, as Slack sent it, is an approval phrase and nothing else (see the module docstring)."""
    words = _approval_words(text, bot_user_id)
    return words is not None and any(pattern.match(words) for pattern in _APPROVALS)


def _approval_words(text: str, bot_user_id: str | None) -> str | None:
    """The words of a would-be approval with what it may carry removed; None when it carries anything else
    (code, a quote, a link, a mention of someone else, an emoji not in the allowed set, a stray `&`)."""
    if len(text) > MAX_APPROVAL_CHARS or "`" in text or _QUOTE_LINE.search(text):
        return None
    for markup in _SLACK_MARKUP.findall(text):
        mention = _BOT_MENTION.match(markup)
        if mention is None or bot_user_id is None or mention.group(1) != bot_user_id:
            return None
    text = _SLACK_MARKUP.sub(" ", text)
    if any(ch in text for ch in "<>&"):  # Slack escapes these three; an approval has none of them
        return None
    text = unicodedata.normalize("NFKC", text).casefold()
    out: list[str] = []
    pos = 0
    while pos < len(text):
        code = _SHORTCODE.match(text, pos)
        if code is not None:
            name = code.group(0)[1:-1]
            if name not in APPROVAL_SHORTCODES and not _SKIN_TONE_CODE.match(name):
                return None
            out.append(" ")
            pos = code.end()
            continue
        ch = text[pos]
        pos += 1
        if ch in APPROVAL_EMOJI or ch in _SKIN_TONES or ch in _VARIATION_SELECTORS:
            out.append(" ")
        elif ch.isspace() or ch.isalnum() or _APPROVAL_PUNCTUATION.fullmatch(ch):
            out.append(ch)
        else:  # any other symbol, emoji, format character or punctuation (`?`, `:`, `*`, `~`, `_`…)
            return None
    words = " ".join(_APPROVAL_PUNCTUATION.sub(" ", "".join(out)).split())
    return _JA_GAP.sub("", words)


def _addressed_to_someone_else(text: str, bot_user_id: str | None) -> bool:
    leading = _LEADING_MENTIONS.match(text)
    if not leading:
        return False
    mentions = _MENTION_PARTS.findall(leading.group(0))
    return any(slack_id != bot_user_id or typed for slack_id, typed in mentions)


def slack_plain(text: str) -> str:
    """The text as typed: leading mentions dropped, links unwrapped, Slack's three HTML escapes undone."""
    text = _LEADING_MENTIONS.sub("", text)
    text = _LINK.sub(r"\1", text)
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&").strip()


def command_words(plain: str) -> str:
    """The reply reduced to lower-case words for matching commands (see the module docstring)."""
    text = _SHORTCODE.sub(" ", unicodedata.normalize("NFKC", plain).casefold())
    text = "".join(
        " " if unicodedata.category(ch) in _EMOJI_CATEGORIES or ch in _VARIATION_SELECTORS else ch for ch in text
    )
    text = " ".join(_SEPARATORS.sub(" ", text).split())
    return _JA_GAP.sub("", text)


def _mentioned_field(words: str) -> str | None:
    return next((_ALIASES[m.group(0)] for m in _MENTIONED.finditer(words) if _is_word(words, m)), None)


def _is_word(words: str, match: re.Match[str]) -> bool:
    if not match.group(0).isascii():
        return True
    before = words[match.start() - 1] if match.start() else " "
    after = words[match.end()] if match.end() < len(words) else " "
    return not (before.isalnum() or before == "_") and not (after.isalnum() or after == "_")
