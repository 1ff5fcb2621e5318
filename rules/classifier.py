"""Classify a thread reply: approve, cancel, continue, skip, `<field>: <text>`, a revision, or other.

`<field>` is the field's DESIGN §2 name or its label in either language (`検証：…`, `Validation: …`).

Approval is explicit only (docs/rules.md#from-inputs-to-a-posted-record, approval before posting):
"post it" / "go ahead" / "yes", 「投稿してください」/「進めてください」/「はい」, in either language whatever
the session's language. The exact grammar, applied after normalisation (leading mentions dropped, Slack
escapes undone, NFKC, case folded, emoji — unicode and `:shortcode:` — removed, `, 、 . 。 !` turned into
spaces, spaces collapsed):

    en:  [yes|ok|okay] [please] (post it | go ahead) [please]   |   yes [please]
    ja:  [はい] (投稿して|進めて)(ください|下さい)   |   はい [お願いします]

Any `?` (or `？`) makes a reply a question, never a command: "yes?" is not an approval. Anything with more
words ("yes but fix the summary", "go ahead and fix X", "post it now") is not an approval either.
Cancel, continue and skip follow the same shape: [please] WORD [please] in English; in Japanese WORD plus
an optional polite ending (して(ください|下さい) / します / (で)お願いします).
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

_COMMANDS: tuple[tuple[Kind, re.Pattern[str]], ...] = (
    (Kind.approve, re.compile(rf"^(?:(?:yes|ok|okay) )?{_PLEASE}(?:post it|go ahead){_PLEASE_AFTER}$")),
    (Kind.approve, re.compile(rf"^yes{_PLEASE_AFTER}$")),
    (Kind.approve, re.compile(r"^(?:はい)?(?:投稿して|進めて)(?:ください|下さい)$")),
    (Kind.approve, re.compile(r"^はい(?:お願いします)?$")),
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
    return Reply(Kind.other)


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
