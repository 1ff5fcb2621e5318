"""Rendering benchmark: our Markdown->ADF beside marklassian (npm), the whole render pipeline, and `draft` with
100 kB in every field in each format (Markdown, ADF, Slack, wiki) and the worker's draft, beside the figures
measured before this round and before the renderers were made linear.

Run: `.venv/bin/python bench/render.py [--runs N] [--sizes-only]`. Not a test: it prints figures with their goals.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
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
from renderers.usertext import read  # noqa: E402

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


#: 100 kB in every text field and in an action item's text, owner and tracking, as `draft` reads them.
FIELD_BYTES = 100_000
_SNIPPETS = [
    "**bold**", "*em*", "_em_", "`code`", "[`code` link](https://example.com/a)", "<https://example.com/x>",
    "~~gone~~", "\n```python\nprint(1)\n```\n", "\n- a\n  - b\n    1. c\n", "\n> quote\n> > deeper\n",
    "\n# heading\n", "\n---\n", "<b>inline html</b>", "![alt](https://example.com/i.png)", "<!channel>",
    "<!subteam^S1|@team>", "<@U123ABC>", "<https://evil.example|click here>", "&", "&amp;", "<", ">", "\\",
    "\\*", "\u202eRTL", "👩‍👩‍👧", "日本語のテキスト", "| a | b |\n|---|---|\n", "[ref]: https://example.com",
    "a*b*c", "__init__", "[](https://日本.example/ä)", "[x](javascript:alert(1))", " `open",
]  # fmt: skip
_INLINE = " ".join(s for s in _SNIPPETS if "\n" not in s)
#: name: (what fills every field, what fills the fix reference, which must still read as one for the gate).
INPUTS: dict[str, tuple[str, str]] = {
    "fidelity corpus": (" ".join([_INLINE] * 4) + "".join(s for s in _SNIPPETS if "\n" in s) + "\n\n", "a*b*c "),
    "\\* x 50,000": ("\\*", "\\*"),
    "one link, 100 kB target": ("", ""),
    "Japanese prose": ("日本語の文章です。`scratchBuf` が NULL でした。\n", "日本語 "),
    "English prose": ("The cache skipped the last shard, so reads served stale pages after compaction. ", "x "),
}
#: CPU seconds of each (input, format) on this machine (2 shared cores), measured the same way: `first`, before
#: the renderers were made linear (None: no end within 60 s, the Slack preview appended empty parts forever);
#: `before`, the tree before this round (commit 9bbcb76: the text rule split, the wiki escaped in one translation,
#: the cycle collector paused during a render), the least of 2-4 runs, each run back to back with one of the tree
#: after it (docs/benchmarks.md).
FIRST: dict[str, dict[str, float | None]] = {
    "fidelity corpus": {"markdown": 2.16, "adf": 3.92, "slack": 4.99},
    "\\* x 50,000": {"markdown": 6.27, "adf": 5.88, "slack": None},
    "one link, 100 kB target": {"markdown": 0.08, "adf": 0.81, "slack": None},
    "Japanese prose": {"markdown": 0.20, "adf": 1.21, "slack": 1.13},
}
BEFORE: dict[str, dict[str, float]] = {
    "fidelity corpus": {"markdown": 0.58, "adf": 0.95, "slack": 1.00, "wiki": 0.97, "worker": 1.07},
    "\\* x 50,000": {"markdown": 0.27, "adf": 0.42, "slack": 0.62, "wiki": 0.55, "worker": 0.69},
    "one link, 100 kB target": {"markdown": 0.05, "adf": 0.15, "slack": 0.15, "wiki": 0.16, "worker": 0.14},
    "Japanese prose": {"markdown": 0.17, "adf": 0.38, "slack": 0.53, "wiki": 0.39, "worker": 0.51},
    "English prose": {"markdown": 0.12, "adf": 0.15, "slack": 0.30, "wiki": 0.23, "worker": 0.25},
}
#: What each format of `draft` renders; `worker` is the worker's draft (renderers/draft.py: Markdown, ADF and the
#: Slack preview under the render budget) and the Data Center comment made from its ADF, the input already read.
FORMATS = ("markdown", "adf", "slack", "wiki", "worker")
#: The `draft` command in a child process: CPU seconds of the command itself (reading the file, rendering,
#: writing JSON), imports left out. The gate is left out too: bench/gate.py measures it.
DRAFT_CHILD = """
import io, json, sys, time
import bot.cli
bot.cli._gate = lambda *args, **kwargs: 0
out, err = io.StringIO(), io.StringIO()
if sys.argv[2] == "worker":
    import os
    from postmortem.model import load_postmortem
    from renderers.draft import render_draft
    from renderers.wiki import adf_to_wiki
    pm = load_postmortem(sys.argv[1])
    start = time.process_time()
    adf_to_wiki(render_draft(pm, jira_url=os.environ["JIRA_URL"]).adf)
    code = 0
else:
    start = time.process_time()
    code = bot.cli.main(["draft", sys.argv[1], "--format", sys.argv[2]], out=out, err=err)
print(json.dumps({"cpu": time.process_time() - start, "code": code, "err": err.getvalue()[:200]}))
"""


def sized_input(name: str) -> dict[str, Any]:
    """The bundled cache-eviction example with `FIELD_BYTES` of the named text in every field."""
    import yaml

    from postmortem.model import TEXT_FIELDS

    base = yaml.safe_load((ROOT / "examples" / "cache-eviction.en.yaml").read_text(encoding="utf-8"))
    unit, ref_unit = INPUTS[name]
    data = {k: v for k, v in base.items() if k != "action_items_none"}

    def fill(start: str, piece: str) -> str:
        text = start + "\n\n"
        return text + piece * ((FIELD_BYTES - len(text.encode())) // len(piece.encode()) + 1)

    if not unit:  # the hang: a link whose target, %-encoded, is far past the 3,000 characters of a Slack block
        link = "[the runbook](https://wiki.example/" + "日本語" * (FIELD_BYTES // 9) + ")"
        data |= {field: f"{base.get(field) or 'x'} {link}" for field in TEXT_FIELDS}
        data["fix_ref"] = "https://github.com/example/storage/pull/412/" + "a" * FIELD_BYTES
        data["action_items"] = [{"what": link, "owner": link, "tracking": link}]
    else:
        data |= {f: fill(str(base.get(f) or "x"), ref_unit if f == "fix_ref" else unit) for f in TEXT_FIELDS}
        data["action_items"] = [
            {"what": fill("Add a test", unit), "owner": fill("Bo", unit), "tracking": fill("A-2", unit)}
        ]
    data["destination"] = "pr_description"  # the ADF is written out whole (a Jira comment would be refused as long)
    return data


def draft_cpu(path: str, fmt: str, timeout: float) -> float | None:
    """CPU seconds of `draft --format fmt` on the file (JIRA_URL set, so references are linked too); None when
    it did not end within `timeout` seconds (the child is killed; its memory is capped at 3 GiB)."""

    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))

    env = {**os.environ, "JIRA_URL": "https://acme.atlassian.net"}
    command = [sys.executable, "-c", DRAFT_CHILD, path, fmt]
    try:
        done = subprocess.run(
            command, capture_output=True, text=True, timeout=timeout, cwd=ROOT, env=env, preexec_fn=cap, check=True
        )
    except subprocess.TimeoutExpired:
        return None
    result = json.loads(done.stdout)
    if result["code"]:
        raise RuntimeError(f"draft --format {fmt} failed: {result['err']}")
    return float(result["cpu"])


def sizes(timeout: float) -> None:
    """`draft` with 100 kB in every field, each input and format, beside the figures from before."""
    print(f"(c) draft with {FIELD_BYTES // 1000} kB in every field (16 texts), CPU seconds, goal < 1.00 each:")
    print(f"    {'input':26} {'format':9} {'now':>8}   {'before':>6}   {'first':>6}")
    for name in INPUTS:
        with tempfile.NamedTemporaryFile("w", suffix=".json", encoding="utf-8", delete=False) as handle:
            json.dump(sized_input(name), handle, ensure_ascii=False)
        try:
            for fmt in FORMATS:
                now = draft_cpu(handle.name, fmt, timeout)
                shown = f"{now:6.2f} s" if now is not None else f" > {timeout:.0f} s"
                before = _figure(BEFORE.get(name, {}), fmt)
                first = _figure(FIRST.get(name, {}), fmt)
                ok = now is not None and now < 1.0
                print(f"    {name:26} {fmt:9} {shown}   {before}   {first}   {verdict(ok)}")
        finally:
            os.unlink(handle.name)


def _figure(figures: dict[str, Any], fmt: str) -> str:
    if fmt not in figures:
        return "   n/a"
    return "no end" if figures[fmt] is None else f"{figures[fmt]:6.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=2000)
    parser.add_argument("--sizes-only", action="store_true", help="only (c), draft with 100 kB in every field")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds before a draft counts as no end")
    args = parser.parse_args()
    if args.sizes_only:
        sizes(args.timeout)
        return
    runs = args.runs
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
        read.cache_clear()
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
    sizes(args.timeout)


if __name__ == "__main__":
    main()
