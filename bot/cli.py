"""`postmortem-bot`: the command line of DESIGN §4 (draft, check, serve, worker, demo)."""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TextIO

from bot.settings import ConfigError, Settings, load_settings
from postmortem.limits import postmortem_structure_error
from postmortem.model import InputError, PostMortem, load_postmortem
from renderers.adf import render_adf
from renderers.budget import gc_paused
from renderers.jira import CommentTooLong, jira_request
from renderers.markdown import render_markdown
from renderers.slack import render_slack
from renderers.wiki import adf_to_wiki, wiki_request
from rules.gate import check_inputs, check_scope
from rules.lint import lint
from rules.scope_text import hint_text, scope_hints

EXIT_OK, EXIT_INVALID, EXIT_MISSING, EXIT_SCOPE = 0, 2, 3, 4


def _gate(pm: PostMortem, *, confirm_scope: bool, err: TextIO) -> int:
    """The checks shared by `draft` and `check`, in DESIGN §4's order after the file itself: scope, then inputs."""
    if stop := check_scope(pm, confirmed=confirm_scope):
        print(f"out of scope: {stop.flag}: {stop.reason}", file=err)
        if stop.confirmable:
            print("(pass --confirm-scope to write a bug-fix post-mortem anyway)", file=err)
        return EXIT_SCOPE
    if missing := check_inputs(pm):
        for m in missing:
            print(f"missing: {m.field}: {m.reason}", file=err)
        return EXIT_MISSING
    return EXIT_OK


def _load(path: str, lang: str | None, err: TextIO) -> PostMortem | None:
    try:
        pm = load_postmortem(path)
        pm = pm.replace(lang=lang) if lang else pm
        if error := postmortem_structure_error(pm, "en"):  # the CLI speaks English, like its `missing:` lines
            raise error
        return pm
    except InputError as exc:
        print(f"invalid input: {exc.field}: {exc.message}", file=err)
        return None


@gc_paused  # a render holds many small objects and no cycles (renderers/budget.py)
def cmd_draft(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Render an input file to stdout, or say why not."""
    pm = _load(args.file, args.lang, err)
    if pm is None:
        return EXIT_INVALID
    if code := _gate(pm, confirm_scope=args.confirm_scope, err=err):
        return code
    if args.format == "markdown":
        out.write(render_markdown(pm))
        return EXIT_OK
    adf = render_adf(pm, jira_url=os.environ.get("JIRA_URL"))
    if args.format == "wiki":
        wiki = adf_to_wiki(adf)
        if pm.destination == "jira_comment":
            try:
                wiki_request(wiki, session="cli", version=1)
            except CommentTooLong as exc:
                print(f"invalid input: too long for a Jira comment: {exc}", file=err)
                return EXIT_INVALID
        out.write(wiki + "\n")
        return EXIT_OK
    if args.format == "adf":
        if pm.destination == "jira_comment":
            try:
                jira_request(adf, session="cli", version=1)
            except CommentTooLong as exc:
                print(f"invalid input: too long for a Jira comment: {exc}", file=err)
                return EXIT_INVALID
        out.write(_json_lines(adf) + "\n")
    else:
        out.write(_json_lines(render_slack(pm, adf=adf)) + "\n")
    return EXIT_OK


def _json_lines(value: dict[str, Any] | list[Any]) -> str:
    """JSON to read in a terminal, made by the C encoder (`indent` would run the pure-Python one): each block of a
    document, or each item of a list, compact on a line of its own."""
    if isinstance(value, list):
        return "[\n" + ",\n".join(json.dumps(item, ensure_ascii=False) for item in value) + "\n]"
    head = json.dumps({key: item for key, item in value.items() if key != "content"}, ensure_ascii=False)
    blocks = ",\n".join("  " + json.dumps(block, ensure_ascii=False) for block in value.get("content", []))
    opening = head[:-1] + ", " if head != "{}" else "{"
    return f'{opening}"content": [\n{blocks}\n]}}'


def cmd_check(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Gate and tone lint only: `missing:` lines on stderr, `warning:` lines on stdout."""
    pm = _load(args.file, args.lang, err)
    if pm is None:
        return EXIT_INVALID
    code = _gate(pm, confirm_scope=args.confirm_scope, err=err)
    if code != EXIT_SCOPE:
        for hint in scope_hints(pm):  # a warning only: the flags alone decide exit 4
            print(f"warning: {hint.flag}: {hint_text(hint, pm.lang)}", file=out)
        for w in lint(pm):
            print(f"warning: {w.field}: {w.text}", file=out)
    return code


def _settings(err: TextIO) -> Settings | None:
    # POSTMORTEM_ENV_FILE names the .env file to read; empty reads none (the local stack's children).
    env_file = os.environ.get("POSTMORTEM_ENV_FILE", ".env") or None
    try:
        return load_settings(env_file=env_file)
    except ConfigError as exc:
        print(f"configuration error: {exc}", file=err)
        return None


def cmd_serve(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """The bot process."""
    if (settings := _settings(err)) is None:
        return EXIT_INVALID
    from bot.run import serve

    _logging()
    serve(settings, host=args.host)
    return EXIT_OK


def cmd_worker(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """The worker process."""
    if (settings := _settings(err)) is None:
        return EXIT_INVALID
    from bot.worker import work
    from workers.jira_gateway import JiraError, start_up

    try:
        deployment, line = start_up(
            settings.jira_url,
            settings.jira_email,
            settings.jira_api_token.get_secret_value(),
            deployment=settings.jira_deployment,
            timeout=settings.jira_timeout,
        )
    except JiraError as exc:  # wrong credentials, unreachable: one line, no traceback
        print(f"cannot start: {exc}", file=err)
        return EXIT_INVALID
    _logging()
    logging.getLogger("bot.worker").info("%s", line)
    work(settings.model_copy(update={"jira_deployment": deployment}), burst=args.burst)
    return EXIT_OK


def cmd_demo(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """The whole flow on local emulators, narrated; exit 0 only when the comment was posted exactly once."""
    from bot.demo import run_demo

    def emit(line: str) -> None:
        print(line, file=out, flush=True)

    result = run_demo(
        Path(args.input) if args.input else None,
        lang=args.lang,
        out_dir=Path(args.out),
        environ=os.environ,
        emit=emit,
        jira=args.jira,
        from_thread=args.from_thread,
    )
    if result.code:
        print(f"demo failed: {result.message}", file=err)
    return result.code


def _logging() -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="postmortem-bot", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    draft = sub.add_parser("draft", help="render an input file (YAML or JSON, DESIGN §2 fields) to stdout")
    check = sub.add_parser("check", help="run the evidence gate and the tone lint on an input file")
    for p in (draft, check):
        p.add_argument("file")
        p.add_argument("--lang", choices=["en", "ja"], help="headings and messages (default: the file's lang)")
        p.add_argument(
            "--confirm-scope",
            action="store_true",
            help="confirm a customer-facing case is to be written up as a bug-fix post-mortem",
        )
    draft.add_argument("--format", choices=["markdown", "adf", "slack", "wiki"], default="markdown")
    draft.set_defaults(run=cmd_draft)
    check.set_defaults(run=cmd_check)
    serve = sub.add_parser("serve", help="run the Slack app (HTTP on PORT, or Socket Mode with SLACK_APP_TOKEN)")
    serve.add_argument("--host", default="0.0.0.0", help="address to listen on in HTTP mode")
    serve.set_defaults(run=cmd_serve)
    worker = sub.add_parser("worker", help="run an RQ worker on the bot's queue")
    worker.add_argument("--burst", action="store_true", help="exit when the queue is empty")
    worker.set_defaults(run=cmd_worker)
    demo = sub.add_parser("demo", help="the whole flow on local Slack and Jira emulators, no credentials")
    demo.add_argument("--input", metavar="FILE", help="an input file (DESIGN §2; default: the bundled seed example)")
    demo.add_argument("--lang", choices=["en", "ja"], help="session language (default: the input's lang)")
    demo.add_argument(
        "--out",
        metavar="DIR",
        default="postmortem-demo-out",
        help="where the rendered Markdown and the posted request body are written",
    )
    demo.add_argument(
        "--jira",
        choices=["cloud", "datacenter"],
        default="cloud",
        help="the Jira emulated: cloud (REST v3, ADF) or datacenter (Data Center / Server: REST v2, wiki markup)",
    )
    demo.add_argument(
        "--from-thread",
        action="store_true",
        help="start from a debugging thread with the message shortcut, and show the prefilled fields and their sources",
    )
    demo.set_defaults(run=cmd_demo)
    return parser


def main(argv: Sequence[str] | None = None, *, out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Entry point of the console script; returns the exit code."""
    out, err = out or sys.stdout, err or sys.stderr
    args = build_parser().parse_args(argv)
    run: Callable[[argparse.Namespace, TextIO, TextIO], int] = args.run
    return run(args, out, err)


if __name__ == "__main__":
    sys.exit(main())
