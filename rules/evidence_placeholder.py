"""A placeholder where the facts belong: the whole value ("TBD", "n/a", 未定, 調査中), or a slot left inside a text
that must state facts ("Steps: <fill in from the ticket>", 【要記入】, "<copy from NET-2231 once Marco sends it>").
"""

from __future__ import annotations

import re

from rules.regex_guard import compile_guarded
from rules.textmask import normalize

_PLACEHOLDER_RE = compile_guarded(
    r"(?:tbd|tbc|tba|todo|fixme|xxx+|n/?a|none(?: yet)?|nothing(?: yet)?|null|nil|unknown|unsure|later|pending"
    r"|wip|placeholder|see (?:above|below|pr|ticket|jira)|same as above|fill(?: me)? in|coming soon|not sure"
    r"|no idea|dunno|idk|to be (?:added|filled(?: in)?|written|determined|confirmed|decided)|lorem ipsum.*"
    r"|未定|未記入|未入力|(?:特に)?(?:なし|無し|ありません)|不明|後で|あとで|後ほど|調査中|確認中|検討中|準備中|記入予定|わからない|分からない|未)"
    r"|(?:tbd|tbc|todo|fixme|xxx)\b.*",
    re.IGNORECASE | re.DOTALL,
)
#: A placeholder left inside a text that must state facts: "Steps: <fill in from the ticket>", 【要記入】, TBD.
PLACEHOLDER_INSIDE = compile_guarded(
    r"<(?=[A-Za-z])[^<>\n]{0,40}?\b(?:fill|insert|add|paste|describe|tbd|todo|placeholder|link|url)\b[^<>\n]{0,120}>"
    # A slot with a promise to fill it: "<copy from NET-2231 once Marco sends the topology>", "<steps after the call>".
    r"|<(?=[^<>\n]*\s)[^<>\n=\"]{0,60}?\b(?:once|until|later|pending|copy|tbd|to come|to follow"
    r"|will)\b[^<>\n=\"]{0,60}>"
    r"|\[[^\[\]\n]{0,30}?\b(?:fill|insert|add|paste|describe|tbd|todo|placeholder|link|url)\b[^\[\]\n]{0,30}\]"
    # A slot to fill: "<test name>", "<before>" (a word or two in angle brackets, not a tag or a type).
    r"|<[a-z]+(?:[ _-][a-z]+){1,3}>|<(?:before|after|n|x|value|number|name|date|id|result|count|time|ms|sha|here"
    r"|command|steps?|test|output)>"
    r"|〇{2,}|○{2,}|×{2,}|＿{2,}|(?<!\w)_{2,}(?!\w)"
    r"|(?-i:\bTBD\b|\bTBC\b|\bXXX+\b|(?<!the )(?<!a )(?<!this )\bTODO\b(?! (?:above|below|comment|says"
    r"|literally|in))|\bFIXME\b)|\?{3,}"
    r"|[<\[(【][^<>\[\]()【】\n]{0,30}?(?:記入|追記|未定|ここに|後で書|あとで書|転記|貼り付け|貼付)[^<>\[\]()【】\n]{0,30}[>\])】]",
    re.IGNORECASE,
)


#: A slot left inside a command or a version, which masking hides as code: "firmware `v3.2.<TBD>`",
#: "`--seed ???`". Narrower than the prose's list: `TODO` in pasted code is the code's own comment, and so is a
#: `TBD` after a comment's marker (`# TBD: polyester ramp`, `// TBD`).
PLACEHOLDER_IN_CODE = compile_guarded(
    r"(?-i:<(?:TBD|TBC|TBA|TODO|FIXME|XXX+)>|(?<!# )(?<!// )(?<!-- )(?<!/\* )\b(?:TBD|TBC)\b)|<\?+>|\?{3,}"
    # A slot in words inside brackets: `[field name]`, `[table name]`.
    r"|(?-i:\[(?:field|column|table|key|file|param|value|user|host|bucket|env)(?: name| id)\])"
    # A template slot never filled: `{{TRAJ_FILE}}`; a blank in Japanese: `○○○.pdf`.
    r"|(?-i:\{\{\s*[A-Z][A-Z0-9_]*\s*\}\})|\{\{[^{}\n]{1,60}\}\}|〇{2,}|○{2,}|×{2,}"
)


def is_placeholder(text: str | None) -> bool:
    """Whether the whole value only stands for "nothing yet" (TBD, n/a, ?, <name>, 未定, 調査中)."""
    flat = normalize(text).strip()
    if len(flat) > 120:
        return False
    core = " ".join(flat.split()).strip(" .。!！?？:：-—–_()（）[]「」\"'`<>")
    return not core or bool(_PLACEHOLDER_RE.fullmatch(core))


#: "TBD" as the domain's own word: inside a name (`eta_TBD.edi`, `ep_import_tbd.csv`), quoted as a value ('TBD'),
#: or naming a column, a field or a flag ("the `TBD` column", 「列名が `TBD`」).
_NAMED_WORD_RE = compile_guarded(
    r"(?i:(?<=[a-z0-9]_)(tbd|tbc)\b|\b(tbd|tbc)(?=_[a-z0-9]))|(?-i:(?<=['\"])(TBD|TBC)(?=['\"]))"
    r"|`(TBD|TBC)`\s*(?:columns?|fields?|flags?|values?|status|labels?|tags?|keys?|headers?|rows?|列|欄|フラグ|項目)"
    r"|(?:columns?|fields?|flags?|headers?|列名|項目名|フラグ)\s*(?:named|called|が|は)?\s*`(TBD|TBC)`"
)


def placeholder_inside(text: str, masked: str) -> str | None:
    """A slot left inside a text that must state facts, in the prose or in a command; None when there is none.
    A word the text also uses as a name or a quoted value (`eta_TBD.edi`, 'TBD') is the domain's data, no slot."""
    named = {word.upper() for m in _NAMED_WORD_RE.finditer(text) for word in m.groups() if word}
    for pattern, where in ((PLACEHOLDER_INSIDE, masked), (PLACEHOLDER_IN_CODE, text)):
        for token in pattern.finditer(where):
            if token.group(0).upper() not in named:
                return token.group(0)
    return None
