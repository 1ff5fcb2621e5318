"""A repro states steps the next engineer can run (docs/rules.md#steps): a command, a list
of steps, or a clause saying what to do or what the writer did. A symptom alone ("the demux step fails") is not
one. The gate asks this of the whole post-mortem's repro (`rules.gate`), beside its rate.
"""

from __future__ import annotations

import re

from rules import evidence_run as run
from rules import japanese_verbs
from rules.evidence_rates import stated
from rules.evidence_words import search
from rules.textmask import mask, normalize

#: Code, a pasted command or session, a URL, or a numbered or bulleted list: something to run.
_RUNNABLE = re.compile(r"`[^`\n]+`|```|~~~|^\s*(?:\$|>|#|\d+[.)]|[-*•・])\s+\S|https?://", re.MULTILINE)
#: An English step starts with a verb of doing: "Run …", "Open the editor, paste …", "Log in as …".
_IMPERATIVE = re.compile(
    r"(?:^|[.;:!?]\s+|\n|,\s+(?:then\s+)?|\bthen\s+|\band\s+)(?:run|start|open|click|send|call|load|set|create|build"
    r"|deploy|execute|launch|upload|restart|kill|stop|enable|disable|log ?in|sign ?in|go to|navigate|install"
    r"|configure|trigger|submit|press|type|paste|add|delete|remove|import|export|boot|flash|connect|disconnect"
    r"|plug|unplug|apply|save|select|choose|scroll|resize|rotate|play|seek|switch|toggle|replay|loop|repeat|invoke"
    r"|post|put|get|query|ping|insert|update|upgrade|downgrade|reboot|power|schedule|fire|drop|feed|upload|fill"
    r"|enter|tap|swipe|hold|wait|pause|resume|cancel|retry|refresh|reload|close|quit|exit|mount|unmount|attach"
    r"|detach|pull|push|checkout|clone|compile|link|generate|render|print|scan|sync|ingest|train|evaluate|feed"
    r"|inject|simulate|trip|cut|unplug|use|make|put)\b",
    re.IGNORECASE,
)


#: What a log or a console printed, just before a code span: "The Solr log shows `SolrException: …`" quotes output,
#: it gives nothing to run.
_OUTPUT_BEFORE = re.compile(
    r"\b(?:logs?|trace|output|console|dmesg|journal|stderr|stdout)\s+(?:shows?|showed|says|said|prints?|printed"
    r"|contains?|reads?|has)\s*:?\s*$|(?:ログ|出力|コンソール)(?:に|には|では)\s*$",
    re.IGNORECASE,
)


def _runnable(raw: str) -> bool:
    """A command, a code name, a list of steps or a link; not a code span that only quotes what a log printed."""
    for m in _RUNNABLE.finditer(raw):
        if not (m.group(0).startswith("`") and _OUTPUT_BEFORE.search(raw, max(0, m.start() - 40), m.start())):
            return True
    return False


def has_steps(text: str | None) -> bool:
    """Whether a repro text gives something to run or do, in either language, or at least counts how often what
    it names fails ("Flaky, 1 run in 3.", 「毎回」): a counted rate says it was run."""
    raw = normalize(text)
    if _runnable(raw) or _IMPERATIVE.search(raw):
        return True
    masked = mask(raw)
    if stated(masked) or search(run.ON_DEMAND, masked) is not None:
        return True
    # What someone does, not what goes wrong: "Loaded the parcel, armed the drone", "we held the button",
    # 「ボタンを押して」; not "the knife drifts 2 mm", 「ナイフが 2 mm ずれる」.
    return _DONE.search(masked) is not None or japanese_verbs.acts_on(masked)


#: Something done, said in the past with its subject dropped or as the writer's: "Loaded the 2.4 kg parcel", "we
#: held GO for two seconds".
_DONE = re.compile(
    r"(?:^|[.;:!?]\s+|\n)\s*(?:then\s+|first\s+|next\s+)?(?-i:[A-Z])[a-z]+ed\b(?! (?:by|to|that|because)\b)"
    r"|\b(?:i|we)\s+(?:then\s+|first\s+|just\s+)?(?:[a-z]+ed|ran|put|set|made|hit|held|took|got|did|kept|left|sent"
    r"|built|wrote|drove|threw|shut|cut|fed|began|brought|tried|pressed|flashed|swapped|pulled)\b",
    re.IGNORECASE | re.MULTILINE,
)
