"""The evidence gate on a labelled batch it was not tuned on: precision, recall and the cases it got wrong.

Run: `.venv/bin/python bench/heldout.py BATCH.yaml [-v]`. Each case replaces one field (with its structured
answer beside it) in an otherwise complete example post-mortem of its language, and the whole gate decides,
so a text that contradicts `repro_rate` or `validation_kinds` counts too. A refusal is the positive class.
Not a test: batches are measured here first, then folded into the corpus (docs/gate-measurements.md).
"""

from __future__ import annotations

import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from postmortem.model import PostMortem, load_postmortem  # noqa: E402
from rules.gate import check_inputs  # noqa: E402

#: A complete post-mortem per language, which the gate accepts; each case changes one field of it.
BASES = {"en": "cache-eviction.en", "ja": "tada-hang.ja"}
#: The structured answer that travels with a text field.
PARTNER = {"repro": "repro_rate", "validation": "validation_kinds"}


def base(lang: str) -> PostMortem:
    pm = load_postmortem(ROOT / "examples" / f"{BASES[lang]}.yaml")
    assert not check_inputs(pm), f"the {lang} base example must pass the gate"
    return pm


def refused(case: dict[str, Any], bases: dict[str, PostMortem]) -> list[str]:
    """The gate's reasons about this case's field (and its structured partner); empty when accepted."""
    field = case["field"]
    changes: dict[str, Any] = {field: case["text"]}
    if field in PARTNER and PARTNER[field] in case:
        changes[PARTNER[field]] = case[PARTNER[field]]
    pm = bases[case["lang"]].replace(**changes)
    watched = {field, PARTNER.get(field, field)}
    return [f"{m.field}: {m.reason}" for m in check_inputs(pm) if m.field in watched]


def measure(cases: list[dict[str, Any]]) -> tuple[dict[str, dict[str, int]], list[tuple[str, dict[str, Any], str]]]:
    """Confusion counts by field, language and in all; the wrong cases with the gate's reason."""
    bases = {lang: base(lang) for lang in BASES}
    counts: dict[str, dict[str, int]] = defaultdict(lambda: {"tp": 0, "fp": 0, "fn": 0, "tn": 0})
    wrong: list[tuple[str, dict[str, Any], str]] = []
    for case in cases:
        reasons = refused(case, bases)
        should = case["expect"] == "refuse"
        key = ("t" if bool(reasons) == should else "f") + ("p" if reasons else "n")
        for group in (case["field"], f"lang {case['lang']}", "all"):
            counts[group][key] += 1
        if key[0] == "f":
            wrong.append(("false refusal" if key == "fp" else "false accept", case, "; ".join(reasons)))
    return counts, wrong


def ratio(num: int, den: int) -> str:
    return f"{num / den:6.1%}" if den else "   n/a"


def main(argv: list[str]) -> int:
    path = Path(argv[0])
    cases = yaml.safe_load(path.read_text())
    counts, wrong = measure(cases)
    print(f"{path.name}: {len(cases)} cases")
    print(f"{'group':14} {'cases':>5} {'precision':>10} {'recall':>8} {'false acc.':>11} {'false ref.':>11}")
    for group in sorted(counts, key=lambda g: (g == "all", g.startswith("lang"), g)):
        c = counts[group]
        n = sum(c.values())
        precision, recall = ratio(c["tp"], c["tp"] + c["fp"]), ratio(c["tp"], c["tp"] + c["fn"])
        print(f"{group:14} {n:5} {precision:>10} {recall:>8} {c['fn']:11} {c['fp']:11}")
    if "-v" in argv:
        for kind, case, reason in wrong:
            print(f"\n{kind}: {case['id']} [{case['field']}, {case['lang']}] {case.get('why', '')}")
            print(f"  text: {case['text']!r}")
            extra = {k: case[k] for k in PARTNER.values() if k in case}
            if extra:
                print(f"  with: {extra}")
            if reason:
                print(f"  gate: {reason}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
