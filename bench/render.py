"""Rendering benchmark: our Markdown->ADF beside marklassian (npm), and the whole render pipeline, in one run.

Run: `.venv/bin/python bench/render.py [--runs N]`. Not a test: it prints figures with their goals.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.common import verdict  # noqa: E402
from emulators.adf_schema import adf_validator  # noqa: E402
from postmortem.model import load_postmortem  # noqa: E402
from renderers.adf import markdown_to_adf  # noqa: E402
from renderers.adf_input import PARSER  # noqa: E402
from renderers.markdown import render_markdown  # noqa: E402
from renderers.slack import render_slack  # noqa: E402
from renderers.usertext import faithful  # noqa: E402

EXAMPLE = ROOT / "examples" / "tada-hang.ja.yaml"
NODE_DIR = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "postmortem-bot" / "bench-node"
MARKLASSIAN = "marklassian@1.2.1"

# Times N conversions in one node process after a warm-up; prints the median in milliseconds.
NODE_SCRIPT = """
import { markdownToAdf } from "marklassian";
import { readFileSync } from "node:fs";
const md = readFileSync(process.argv[2], "utf8");
const runs = Number(process.argv[3]);
for (let i = 0; i < 200; i++) markdownToAdf(md);
const times = [];
for (let i = 0; i < runs; i++) {
  const t = process.hrtime.bigint(); markdownToAdf(md); times.push(Number(process.hrtime.bigint() - t) / 1e6);
}
times.sort((a, b) => a - b);
console.log(JSON.stringify({ median: times[runs >> 1] }));
"""


def median_ms(fn: Callable[[], Any], runs: int) -> float:
    """Median wall time of one call, after a warm-up."""
    for _ in range(min(200, runs)):
        fn()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def marklassian_ms(md: str, runs: int) -> float | None:
    """marklassian's median in one node process; installs it into the cache folder when missing."""
    if not (NODE_DIR / "node_modules" / "marklassian").exists():
        NODE_DIR.mkdir(parents=True, exist_ok=True)
        done = subprocess.run(
            ["npm", "install", "--prefix", str(NODE_DIR), MARKLASSIAN, "--silent"],
            capture_output=True,
            text=True,
            timeout=300,
        )
        if done.returncode:
            print(f"note: npm install {MARKLASSIAN} failed: {done.stderr.strip()[:300]}")
            return None
    script = NODE_DIR / "bench.mjs"
    script.write_text(NODE_SCRIPT, encoding="utf-8")
    with tempfile.NamedTemporaryFile("w", suffix=".md", encoding="utf-8", delete=False) as handle:
        handle.write(md)
    try:
        out = subprocess.run(
            ["node", str(script), handle.name, str(runs)],
            capture_output=True,
            text=True,
            timeout=300,
            check=True,
            cwd=NODE_DIR,
        )
    finally:
        os.unlink(handle.name)
    return float(json.loads(out.stdout)["median"])


def lint_step() -> Callable[[Any], Any] | None:
    """The tone lint, when rules/lint.py exists yet (another part of the project writes it)."""
    try:
        from rules.lint import lint
    except ImportError as exc:
        print(f"note: lint step skipped ({exc})")
        return None
    return lint


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=2000)
    runs = parser.parse_args().runs
    pm = load_postmortem(EXAMPLE)
    md = render_markdown(pm)
    validate = adf_validator()
    lint = lint_step()

    ours = median_ms(lambda: markdown_to_adf(md), runs)
    parse_only = median_ms(lambda: list(PARSER.events(md)), runs)  # where our time goes
    theirs = marklassian_ms(md, runs)

    def pipeline() -> None:
        doc = markdown_to_adf(render_markdown(pm))
        render_slack(pm, adf=doc)  # the preview is made from the ADF Jira gets, as the render job does
        if lint is not None:
            lint(pm)
        validate(doc)

    whole = median_ms(pipeline, runs)

    def first_render() -> None:  # a text never seen before: the text rule's cache does not help
        faithful.cache_clear()
        pipeline()

    fresh = median_ms(first_render, runs)
    print(f"input: {EXAMPLE.relative_to(ROOT)} ({len(md):,} characters of Markdown), {runs} runs each")
    print(f"(a) Markdown->ADF  ours (pyromark):       {ours:.3f} ms median")
    print(f"    of which pulldown-cmark events alone: {parse_only:.3f} ms median")
    if theirs is None:
        print("(a) marklassian: not measured (see note above)")
    else:
        ratio = ours / theirs
        print(f"(a) Markdown->ADF  marklassian (node):   {theirs:.3f} ms median")
        print(f"(a) ratio ours/marklassian: {ratio:.2f}  goal <= 1.00  {verdict(ratio <= 1.0)}")
    steps = "Markdown + ADF + Slack + " + ("lint + " if lint else "") + "schema check"
    print(f"(b) pipeline ({steps}): {whole:.3f} ms median  goal <= 5.00 ms  {verdict(whole <= 5.0)}")
    print(f"(b) the same, each field's text new: {fresh:.3f} ms median  goal <= 5.00 ms  {verdict(fresh <= 5.0)}")


if __name__ == "__main__":
    main()
