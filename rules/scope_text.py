"""Scope read from the text (docs/rules.md#when-not-to): a customer-facing outage or a trivial fix described
in words, though the box was not ticked. The bot then asks the scope question; it never decides alone,
and only the flags decide the CLI's exit 4.

A bug that customers merely noticed is not an outage, and in Japanese 停止 / 障害 alone often mean a hang
or any fault (the bundled example, examples/tada-hang.ja.yaml, is a hang): neither word triggers anything by itself.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from postmortem.messages import say
from postmortem.model import PostMortem
from rules.evidence_words import EN_FLAGS, any_of
from rules.gate import ScopeStop
from rules.phrases import prose

Flag = Literal["customer_impacting", "trivial"]

#: Where an outage would be told, and where a trivial fix would be.
OUTAGE_FIELDS: tuple[str, ...] = ("summary", "symptom", "why_symptom", "how_found", "why_missed", "validation")
TRIVIAL_FIELDS: tuple[str, ...] = ("summary", "fix")

OUTAGE = (
    any_of(
        r"\bsev(?:erity)?[- ]?[0-4]\b",
        r"\bstatus ?page\b",
        r"\bpagerduty\b",
        r"\b(?:on-?call|pager)s? (?:was |were |got )?(?:paged|alerted|woken)\b",
        r"\b(?:outage|downtime|major incident|incident report|sla breach|slo breach)\b",
        r"\bcustomer[- ]facing (?:outage|incident|impact|downtime)\b",
        r"\b(?:service|site|website|api|cluster|production|prod|region|app|checkout|login|platform) "
        r"(?:was |went |is |were )?(?:down|offline|unavailable|unreachable)\b",
        r"\b(?:customers?|users?|clients?|tenants?)\b[^.;\n]{0,40}\b(?:could not|couldn't|cannot|can't|were unable to"
        r"|was unable to|unable to|lost access to|were locked out of|were not able to) (?:use|access|log in|login|reach"
        r"|sign in|place|check out|connect)\b",
        flags=EN_FLAGS,
    ),
    any_of(
        "顧客向け(?:サービス)?の?(?:停止|障害|ダウン)",
        "サービス(?:全体)?(?:が|の)?(?:全面)?(?:停止|ダウン|利用不可|利用できな)",
        "(?:顧客|お客様|ユーザー|利用者)(?:が|は)[^。\n]{0,20}"
        "(?:利用できな|使えな|アクセスできな|ログインできな|接続できな)",
        "ステータスページ",
        "SEV[- ]?[0-4]",
        "重大インシデント",
        "インシデントレポート",
        "全面停止",
        "大規模障害",
        "オンコール(?:が|に)?呼",
    ),
)
TRIVIAL = (
    any_of(
        r"\btypos?\b",
        r"\bmisspel\w*",
        r"\b(?:one|single|1)[- ]line(?:r)? (?:fix|change|patch|diff)\b",
        r"\bone[- ]liner\b",
        r"\b(?:one|single|1)[- ]char(?:acter)? (?:fix|change|patch)\b",
        flags=EN_FLAGS,
    ),
    any_of("誤字", "タイポ", "(?:一|1)\\s*行(?:の|だけの)?(?:修正|変更)", "スペルミス", "綴りの誤り", "脱字"),
)

#: "not an outage", "no customer impact", 障害ではありません: the words said, and denied.
_DENIED_BEFORE = re.compile(
    r"\b(?:no|not an?|not|never an?|without (?:an? |any )?|wasn't an?|was not an?)\s*$", EN_FLAGS
)
_DENIED_AFTER = re.compile("(?:ではな|ではありません|ではなかった|でもな)")


@dataclass(frozen=True)
class ScopeHint:
    """A scope the text describes: the flag it would tick and the words that show it."""

    flag: Flag
    found: str


def scope_hints(pm: PostMortem) -> list[ScopeHint]:
    """What the text describes that a flag is for, when that flag is not ticked (outage first)."""
    hints: list[ScopeHint] = []
    if not pm.customer_impacting and (found := _find(OUTAGE, pm, OUTAGE_FIELDS)):
        hints.append(ScopeHint("customer_impacting", found))
    if not pm.trivial and (found := _find(TRIVIAL, pm, TRIVIAL_FIELDS)):
        hints.append(ScopeHint("trivial", found))
    return hints


def hint_text(hint: ScopeHint, lang: Literal["en", "ja"]) -> str:
    """One line for the CLI's `warning: <flag>: …`."""
    return say(f"scope_hint_{hint.flag}", lang, found=hint.found)


def scope_question(pm: PostMortem, *, confirmed: bool) -> ScopeStop | None:
    """The scope question for a scope read from the text; it always asks (confirmable), never declines."""
    if confirmed or not (hints := scope_hints(pm)):
        return None
    hint = hints[0]
    return ScopeStop(hint.flag, say(f"scope_ask_{hint.flag}", pm.lang, found=hint.found), confirmable=True)


def _find(pair: tuple[re.Pattern[str], re.Pattern[str]], pm: PostMortem, fields: tuple[str, ...]) -> str | None:
    for field in fields:
        text = prose(pm.text(field))
        for pattern in pair:
            for m in pattern.finditer(text):
                if not _DENIED_BEFORE.search(text[max(0, m.start() - 20) : m.start()]) and not _DENIED_AFTER.match(
                    text, m.end(), m.end() + 12
                ):
                    return m.group(0).strip()
    return None
