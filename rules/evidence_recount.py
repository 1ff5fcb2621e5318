"""The same failures counted again over finer units ("caught it in 2 of 5 batches, so 2 calls out of 2,500",
"loaded 4,800 files and exactly 2 of them came out truncated"): the finer count decides whether a repro is rare
(docs/rules.md#observed-rates). Every pattern is linear.
"""

from __future__ import annotations

import re
from functools import lru_cache

from rules import evidence_count_shapes as shapes
from rules.evidence_count_words import ABOUT as _ABOUT
from rules.evidence_count_words import ENOUGH as _ENOUGH
from rules.evidence_count_words import NUM as _NUM
from rules.evidence_rates import HIGH_FREQUENCY, Rate, count_value, rate_of, run_pair
from rules.textmask import sentences

#: Things a run handled, then a part of them: "loaded 4,800 files and exactly 2 of them came out truncated".
_ITEMS_THEN_PART = re.compile(
    rf"\b(?:loaded|processed|ingested|imported|handled|parsed|sent|wrote|read|merged|synced|uploaded|scanned|printed"
    rf"|rendered|decoded|encoded|converted) (?:about |around |~\s*)?(?P<total>{_NUM})\s+(?:[\w-]+\s+){{0,2}}?[a-z-]+s\b"
    rf"[^.;]{{0,80}}?\b(?:exactly |only |just )?(?P<hits>{_NUM}) of (?:them|those|these)\b"
    # "3 of the ~12,000 rows those batches scored": a part of the items, in one phrase.
    rf"|(?<![\w.,])(?P<hits2>{_NUM}) (?:of|out of) (?:the )?{_ABOUT}(?P<total2>{_NUM})\s+(?:[\w-]+\s+)?[a-z-]+s\b",
    re.IGNORECASE,
)


#: The same in Japanese: 「記録 2,500 件のうち、欠けたのは 2 件です」.
_ITEMS_PART_JA = re.compile(
    rf"(?<![\d.,])(?P<total>{_NUM})\s*(?:件|行|個|枚|通|レコード)(?:のうち|中)、?[^。\d]{{0,20}}?(?P<hits>{_NUM})\s*"
    r"(?:件|行|個|枚|通|レコード)"
)


@lru_cache(maxsize=64)
def item_pairs(masked: str) -> tuple[Rate, ...]:
    """Pairs over the things a run handles, which are no rate of runs on their own ("12 of the 500 orders",
    "2 collisions out of ~4,800 goals"), for `recounted_rare`: the same failures counted again over finer units."""
    found: list[Rate] = []
    ja = _ITEMS_PART_JA.search(masked) is not None
    if not ja and shapes.PAIR_WORD.search(masked) is None:
        return ()  # every other pair says "of", "in" or "/": a cheap scan first
    if not ja and shapes.PAIR.search(masked) is None and _ITEMS_THEN_PART.search(masked) is None:
        return ()
    for sentence in sentences(masked):
        for m in _ITEMS_PART_JA.finditer(sentence):
            if (rate := rate_of(count_value(m.group("hits")), count_value(m.group("total")))) is not None:
                found.append((rate, m.group(0).strip()))
        for m in _ITEMS_THEN_PART.finditer(sentence):  # "it loaded 4,800 files and exactly 2 of them came out …"
            hits, total = m.group("hits") or m.group("hits2"), m.group("total") or m.group("total2")
            if (rate := rate_of(count_value(hits), count_value(total))) is not None:
                found.append((rate, m.group(0).strip()))
        for m in shapes.PAIR.finditer(sentence):
            if run_pair(sentence, m):
                continue  # a rate of runs: `counts` reads it
            if (rate := rate_of(count_value(m.group("hits")), count_value(m.group("total")))) is not None:
                found.append((rate, m.group(0).strip()))
            if len(found) >= _ENOUGH:
                return tuple(found)
    return tuple(found)


#: A rate over this many trials is a measurement of its own: a coarser rate beside it does not raise it.
_MANY = 100
_FIRST_NUMBER = re.compile(r"\d[\d,]*")


def recounted_rare(stated: tuple[Rate, ...]) -> str | None:
    """A rare rate over many trials that counts the same failures as every high rate beside it ("caught it in 2 of
    5 batches, so 2 calls out of 2,500"): the finer count decides. A different count ("8 of 10 runs fail; 3 of
    10,000 requests in each") leaves the high rate standing."""
    if not stated:
        return None
    rate, span = min(stated)
    if rate >= HIGH_FREQUENCY or rate.denominator < _MANY:
        return None
    hits = _first_number(span)
    said = re.compile(rf"(?<![\d,.]){re.escape(hits)}(?![\d,.])") if hits is not None else None
    if said is None or any(not said.search(s) for r, s in stated if r >= HIGH_FREQUENCY):
        return None  # a high rate that does not count these same failures
    return span


def _first_number(span: str) -> str | None:
    """The failure count of a pair: its first figure ("2 of 5"), or the hits of a Japanese pair, which names the
    total first (「5 バッチ中 2 バッチ」)."""
    ja = shapes.PAIR_JA.search(span)
    if ja is not None and (hits := ja.group("hits") or ja.group("hits2") or ja.group("hits5")) is not None:
        return hits
    if (part_ja := _ITEMS_PART_JA.match(span)) is not None:
        return part_ja.group("hits")  # 「2,500 件のうち、欠けたのは 2 件」: the 2
    if (part := _ITEMS_THEN_PART.match(span)) is not None:
        return part.group("hits") or part.group("hits2")  # "loaded 4,800 files and exactly 2 of them": the 2
    m = _FIRST_NUMBER.search(span)
    return None if m is None else m.group(0)
