"""What the benchmarks share: percentiles, a process's CPU time, the PASS/MISS word."""

from __future__ import annotations

import math
import os
from pathlib import Path


def pct(values: list[float], q: float) -> float:
    """The q-th percentile (linear between closest ranks, as numpy's default)."""
    ordered = sorted(values)
    rank = (len(ordered) - 1) * q / 100
    low, high = math.floor(rank), math.ceil(rank)
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)


def cpu_seconds(pid: int) -> float:
    """User + system CPU time a process has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def verdict(ok: bool) -> str:
    return "PASS" if ok else "MISS"
