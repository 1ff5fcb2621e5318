"""A resource said to grow until it runs out, with nothing named that holds it: the symptom of a leak told twice
("heap usage climbs until the OOM killer takes it out", 「メモリが増え続けて落ちる」). A mechanism names what keeps
the memory, the connections or the rows (docs/rules.md#mechanism). Likewise a race named with nothing said of what
races: no order, no shared state, no missing lock."""

from __future__ import annotations

import re

from rules.evidence_words import any_of
from rules.textmask import sentences

#: A resource growing: memory, heap, a queue, open handles.
_GROWTH = any_of(
    r"\b(?:memory|heap|rss|ram|usage|footprint|disk|queue|backlog|handles?|file descriptors?|fds|connections?"
    r"|threads?)\b"
    r"[^.;:]{0,40}?\b(?:climbs?|climbing|grows?|growing|increases?|increasing|rises?|rising|balloons?|creeps? up"
    r"|keeps? (?:growing|rising|climbing)|goes up)\b",
    r"\b(?:runs?|ran) out of (?:memory|heap|disk|handles|file descriptors|connections)\b",
    # "`lblhmi.exe` grows from 300 MB to 3.9 GB over a shift": a size climbing, whatever its subject.
    r"\b(?:grows?|grew|climbs?|climbed|rises?|rose|balloons?|ballooned|creeps? up) from \d[\d.,]*\s*(?:[kmgt]i?b)\b",
    # 「メモリ使用量が、稼働中に 1 時間あたり約 200 MB ずつ増え続け」: a rate may stand between.
    "(?:メモリ|ヒープ|使用量|ディスク|キュー|ハンドル|コネクション|接続数|スレッド数?|(?i:rss)|常駐)[^。]{0,40}?"
    "(?:増え続け|増加し続け|上がり続け|膨ら|増えていき|単調増加|(?:徐々に|どんどん|少しずつ|次第に|だんだん)(?:増え|増加|上が))"
    # 「…取り込むたびにメモリが増え、夕方になるとメモリが足りなくなって」: growing, then running short.
    "|(?:メモリ|ヒープ|使用量)(?:が|は)[^。、]{0,30}?増え[、て][^。]{0,40}?"
    "(?:足りなく|不足|尽き|OOM|(?i:out of memory))",
    flags=re.IGNORECASE,
)
#: What holds the resource, or why it is not given back.
_RETAINER = any_of(
    # "leaks one handle per call" names what is kept; "the process leaks:" only names the symptom again.
    r"\b(?:holds?|held|retains?|retained|keeps? (?:a |an |every|all|each|the|them|it|references?)|caches?|cached"
    r"|leak(?:s|ed|ing)? (?:a|an|one|the|every|each|its|their|\d+|Q)\b"
    r"|never (?:freed|released|closed|evicted|removed|cleared)|accumulat\w*|buffered|appends?"
    r"|buffer(?:s|ing)? (?:every|each|all|the whole|the entire)"
    r"|loads? (?:the )?(?:whole|entire|all)|reads? (?:the )?(?:whole|entire|all)|into memory|references?"
    r"|without (?:freeing|releasing|closing|evicting|clearing)|not (?:freed|released|closed|evicted|cleared)"
    r"|unbounded|no (?:limit|bound|cap|eviction)"
    # "`ack_handler()` never removes an entry", "each duplicate ACK leaves one entry behind".
    r"|(?:never|not|n't|fails? to) (?:free|release|close|evict|remove|clear|delete|drop|trim|purge|prune|pop)s?"
    r"|leaves? (?:[\w-]+ ){1,3}behind)\b",
    "保持|キャッシュ|解放(?:され|し)(?:ない|ず|ません)|閉じ(?:ない|ず|られ)|溜ま|溜め|蓄積|全件|丸ごと|一括(?:で)?読|参照"
    "|上限(?:が)?な",
    flags=re.IGNORECASE,
)
#: A Japanese "because" before the growth gives its reason (「…を保持するため、メモリが増え続け」); one after it
#: (「増え続けて OOM で殺されるため、…欠損します」) links the symptoms, and one ending the sentence is its own.
_BECAUSE_EN = re.compile(r"\b(?:because|since)\b([^.;]*)", re.IGNORECASE)
#: A "because" that starts a clause of its own gives the reason of what follows it, not of the growth.
_OF_WHAT_FOLLOWS = re.compile(r"(?:\band\s+|^\s*|[.;:]\s+)$", re.IGNORECASE)
_BECAUSE_JA = re.compile("(?:ため|ので)(?![。.]|\\s*$)")


def growth_only(masked: str) -> str | None:
    """The growth phrase when the text says a resource grows and names nothing that holds it."""
    found = _GROWTH.search(masked)
    if found is None or _RETAINER.search(masked) is not None or _BECAUSE_JA.search(masked, 0, found.start()):
        return None
    # "heap climbs … because `Cache.put` never evicts": a reason; "… because memory usage keeps growing": the
    # growth again.
    for reason in _BECAUSE_EN.finditer(masked):
        if _OF_WHAT_FOLLOWS.search(masked, max(0, reason.start() - 6), reason.start()):
            continue  # "…, and since the reboot restores the saved state, zone 12 stays open": why the effect
        if _GROWTH.search(reason.group(1)) is None:
            return None
    return found.group(0)


#: A race named as the cause: "a race condition in the command queue", 「スレッド間の競合」.
_RACE = any_of(
    r"\b(?:data )?race conditions?\b|\ba (?:data )?race\b(?! (?:track|car|day|meeting|card|horse)s?\b)|\bracy\b",
    "競合状態|レースコンディション|(?:スレッド|プロセス|タスク)(?:間|同士)の競合",
    flags=re.IGNORECASE,
)
#: The race denied or put aside: "not a race", "first suspected a race; ruled out with TSAN", 「競合ではなく」.
_NOT_THE_RACE = any_of(
    r"n't\b|\b(?:not|no|never|ruled out|suspect\w*|hypothes[ie]s|guess\w*|thought|looked like|despite)\b",
    "ではな|じゃな|ではありません|疑|仮説|否定|除外",
    flags=re.IGNORECASE,
)
#: What races with what: an order, a shared thing written and read, a lock missing (docs/rules.md#mechanism).
_RACE_MECHANISM = any_of(
    r"\b(?:before|after|while|until|once|between (?:\w+ ){0,4}?(?:reads?|writes?|updates?|checks?|sets?|clears?|frees?)"
    r"|without\s+(?:a\s+|the\s+|any\s+|holding\s+)?(?:lock|mutex|synchroni\w*|barrier|fence|\w+_lock|\w+_mutex|Q)"
    r"|unlocked|unsynchroni[sz]ed|non-?atomic|not atomic|atomic\w*|check-then-act|toctou|interleav\w*|overwrit\w*"
    r"|clobber\w*|lost updates?|stale|same (?:field|variable|counter|slot|buffer|key|row|entry|pointer|flag|index|Q)"
    r"|double[- ](?:free|release|submit|dispatch)|reads? [^.;]{0,40}?(?:writes?|updates?|modif\w*|sets?|clears?)"
    r"|(?:writes?|updates?|sets?|clears?) [^.;]{0,40}?reads?)\b",
    "前に|後に|間に|途中|ロック|排他|アトミック|上書き|同時に[^。]{0,20}(?:書|読|更新)|(?:読|書|更新)[^。]{0,20}(?:前|後|間)",
    flags=re.IGNORECASE,
)


def race_only(masked: str) -> str | None:
    """A race named as the cause, with no order, shared state or missing lock said: "a race condition in the TCS
    queue between the slew thread and the guider thread leaves the mount tracking the old target"."""
    if _RACE.search(masked) is None or _RACE_MECHANISM.search(masked) is not None:
        return None
    for sentence in sentences(masked):  # a race denied or put aside in its own sentence is not the cause
        if (found := _RACE.search(sentence)) is not None and _NOT_THE_RACE.search(sentence) is None:
            return found.group(0)
    return None
