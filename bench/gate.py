"""Evidence-gate benchmark: precision and recall per field on the labelled corpus, and timing.

Run: `.venv/bin/python bench/gate.py`. Not a test: it prints figures. A refusal is the positive class:
precision is the share of refusals that were right, recall the share of refuse-cases refused.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from postmortem.model import load_postmortem  # noqa: E402
from rules.evidence import check_text  # noqa: E402
from rules.lint import lint  # noqa: E402

CORPUS = ROOT / "tests" / "rules" / "gate_corpus.yaml"

#: The largest texts the product accepts: one thread answer, one CLI input file.
SIZES = {"thread answer (12,000 chars)": 12_000, "CLI file (250 kB)": 250_000}
PATHOLOGICAL = (
    "a" * 50, "a/" * 50, "a." * 50, "a_" * 50, "a-", "a ", "1", "1 in ", "`a ", "「a", "might ", "たまに", "はず",
    "ときどき起きる", "#1 ", " \u200b",
)  # fmt: skip


def scores(cases: list[dict[str, Any]]) -> dict[str, dict[str, int]]:
    """Confusion counts per field (tp: refused and should be; fp: refused but should not; …)."""
    counts: dict[str, dict[str, int]] = defaultdict(lambda: {"tp": 0, "fp": 0, "fn": 0, "tn": 0})
    for case in cases:
        refused = check_text(case["field"], case["text"]) is not None
        should = case["expect"] == "refuse"
        key = ("t" if refused == should else "f") + ("p" if refused else "n")
        counts[case["field"]][key] += 1
        counts["all"][key] += 1
    return counts


def ratio(num: int, den: int) -> str:
    return f"{num / den:6.1%}" if den else "   n/a"


def timing(cases: list[dict[str, Any]]) -> tuple[float, float]:
    """Median and worst time of one check over the corpus, in milliseconds."""
    times = []
    for case in cases:
        start = time.perf_counter()
        check_text(case["field"], case["text"])
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), max(times)


def cold() -> None:
    """Forget every reading the rules cached (every bounded cache of a `rules` module), so each measurement pays for
    its own text. Unbounded caches hold what loads once per process (the Japanese analyzer) and stay."""
    for module in list(sys.modules.values()):
        if getattr(module, "__name__", "").startswith("rules."):
            for value in vars(module).values():
                if callable(getattr(value, "cache_clear", None)) and value.cache_parameters()["maxsize"] is not None:
                    value.cache_clear()


#: Every field the gate checks.
FIELDS = ("summary", "owner", "repro", "root_cause", "confirmed_by", "fix_ref", "fix", "validation")


def fill(piece: str, size: int) -> str:
    return (piece * (size // len(piece) + 1))[:size]


def slowest(texts: dict[str, str], fields: tuple[str, ...] = FIELDS) -> tuple[float, str]:
    """The slowest check of any of `fields` on any of the named texts, in CPU seconds (the machine is shared, so
    wall time says more about the neighbours than about the patterns), each check with nothing cached."""
    worst, what = 0.0, ""
    for name, text in texts.items():
        for field in fields:
            cold()
            start = time.process_time()
            check_text(field, text)
            if (elapsed := time.process_time() - start) > worst:
                worst, what = elapsed, f"{field} × {name}"
    return worst, what


def worst_case(size: int) -> tuple[float, str]:
    """The slowest check of any field on any pathological text of `size` characters."""
    return slowest({repr(piece): fill(piece, size) for piece in PATHOLOGICAL})


def pasted_worst(size: int) -> tuple[float, str]:
    """The slowest check of a required field on a bundled example's text field pasted over and over to `size`
    characters (a long log is ordinary text repeated)."""
    texts = {}
    for path in sorted((ROOT / "examples").glob("*.yaml")):
        example = yaml.safe_load(path.read_text(encoding="utf-8"))
        for name in ("repro", "root_cause", "confirmed_by", "fix", "validation"):
            if isinstance(piece := example.get(name), str) and piece.strip():
                texts[f"{path.stem}'s {name}"] = fill(piece + "\n", size)
    return slowest(texts, ("repro", "root_cause", "confirmed_by", "fix_ref", "validation"))


def lint_worst(size: int) -> float:
    """The slowest lint of a post-mortem whose three long fields share `size` characters of pathological text."""
    pm = load_postmortem(ROOT / "examples" / "cache-eviction.en.yaml")
    worst = 0.0
    for piece in PATHOLOGICAL:
        text = fill(piece, size // 3)
        cold()
        start = time.process_time()
        lint(pm.replace(root_cause=text, why_missed=text, summary=text))
        worst = max(worst, time.process_time() - start)
    return worst


def main() -> None:
    cases = yaml.safe_load(CORPUS.read_text(encoding="utf-8"))
    counts = scores(cases)
    print(f"corpus: {len(cases)} cases ({sum(c['expect'] == 'refuse' for c in cases)} refuse)\n")
    print(f"{'field':<14}{'cases':>6}{'precision':>11}{'recall':>9}{'false acc.':>12}{'false ref.':>12}")
    for field in sorted(counts, key=lambda f: (f == "all", f)):
        c = counts[field]
        total = sum(c.values())
        print(
            f"{field:<14}{total:>6}{ratio(c['tp'], c['tp'] + c['fp']):>11}{ratio(c['tp'], c['tp'] + c['fn']):>9}"
            f"{c['fn']:>12}{c['fp']:>12}"
        )
    median, worst = timing(cases)
    print(f"\none check on the corpus: median {median:.3f} ms, worst {worst:.3f} ms")
    for label, size in SIZES.items():
        seconds, what = worst_case(size)
        print(
            f"worst pathological {label}, CPU time: gate {seconds * 1000:.0f} ms ({what}); "
            f"lint of a post-mortem that size {lint_worst(size) * 1000:.0f} ms"
        )
        seconds, what = pasted_worst(size)
        print(f"worst pasted example text, {label}, CPU time: gate {seconds * 1000:.0f} ms ({what})")


if __name__ == "__main__":
    main()
