"""`postmortem-bot demo`: one whole conversation on the local stack, told as a transcript.

The real bot (`serve`, HTTP mode) and a real RQ `worker` run as child processes against the Slack and
Jira emulators the end-to-end tests use (bot/localstack.py); the demo plays the requester through
signed Slack requests and narrates what the emulators recorded (worded by bot/demo_transcript.py).
Nothing leaves loopback.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib.resources import files
from pathlib import Path

from bot.demo_followups import with_keys
from bot.demo_play import DemoError, Play
from bot.demo_transcript import Event
from bot.embedded_redis import DemoRedis, NoRedis, demo_redis
from bot.localstack import LocalStack, jira_emulator
from emulators.jira_cloud import JiraEmulator
from emulators.jira_records import JiraComment
from postmortem.model import InputError, Lang, PostMortem, load_postmortem
from renderers.markdown import render_markdown
from rules.gate import check_inputs, check_scope
from sessions.conversation import model_of
from sessions.store import SessionStore, connect

#: The bundled seed example (a copy of examples/tada-hang.ja.yaml shipped in the package).
SEED_NAME = "tada-hang.ja.yaml"
DEFAULT_OUT = Path("postmortem-demo-out")


@dataclass
class DemoResult:
    """What happened: the exit code, the transcript's events, the Jira emulator (its comments) and the files."""

    code: int
    ticket: str = ""
    events: list[Event] = field(default_factory=list)
    jira: JiraEmulator | None = None
    markdown_path: Path | None = None
    body_path: Path | None = None
    message: str = ""

    def comments(self) -> list[JiraComment]:
        """The comments the Jira emulator stored on the ticket."""
        return self.jira.comments(self.ticket) if self.jira else []


def seed_path() -> Path:
    """The bundled default input."""
    return Path(str(files("bot") / "data" / SEED_NAME))


def load_input(path: Path | None, lang: Lang | None) -> PostMortem:
    """The input to play, refused up front when the bot would refuse it (out of scope, missing inputs)."""
    try:
        pm = load_postmortem(path or seed_path())
    except InputError as exc:
        raise DemoError(f"invalid input: {exc.field}: {exc.message}") from None
    pm = pm.replace(lang=lang) if lang else pm
    if (stop := check_scope(pm, confirmed=True)) is not None:
        raise DemoError(f"out of scope: {stop.flag}: {stop.reason}")
    if missing := check_inputs(pm):
        raise DemoError(
            "the bot would refuse this input (no draft without these):\n"
            + "\n".join(f"missing: {m.field}: {m.reason}" for m in missing)
        )
    return pm


def run_demo(
    input_path: Path | None = None,
    *,
    lang: Lang | None = None,
    out_dir: Path = DEFAULT_OUT,
    environ: Mapping[str, str],
    emit: Callable[[str], None] = print,
    prepare: Callable[[LocalStack], None] | None = None,
    jira: str = "cloud",
    from_thread: bool = False,
) -> DemoResult:
    """Play the conversation, narrating through `emit`; code 0 only when the bytes shown were posted exactly once.

    `prepare` gets the started stack before the conversation (tests use it to queue emulator faults); `jira` is the
    deployment emulated: `cloud` (REST v3, ADF) or `datacenter` (REST v2, wiki markup, a personal access token).
    """
    try:
        pm = load_input(input_path, lang)
        store = demo_redis(environ)
    except (DemoError, NoRedis) as exc:
        return DemoResult(1, message=str(exc))
    emit(f"postmortem-bot demo on {store.description}.")
    stack = LocalStack(redis_url=store.url, jira=jira_emulator(jira))
    play = Play(stack, pm, emit, from_thread=from_thread)
    try:
        stack.start()
        emit(
            f"Slack and Jira are local emulators ({stack.slack.origin}, {stack.jira.origin}); the bot "
            f"(serve, HTTP) and an RQ worker run as child processes. No credentials; nothing leaves this machine."
        )
        emit(stack.jira.validator_note)
        emit(_deployment_line(stack))
        if prepare is not None:
            prepare(stack)
        play.run()
        return _finish(play, store, out_dir)
    except DemoError as exc:
        return DemoResult(1, pm.ticket, play.events, stack.jira, message=f"{exc}\n{_tail(stack)}")
    except Exception as exc:  # any failure ends the demo with its cause, the logs and exit 1
        message = f"{type(exc).__name__}: {exc}\n{_tail(stack)}"
        return DemoResult(1, pm.ticket, play.events, stack.jira, message=message)
    finally:
        try:
            stack.stop()
        finally:
            store.stop()


def _finish(play: Play, store: DemoRedis, out_dir: Path) -> DemoResult:
    """Check the one comment against the bytes shown, write the Markdown and the body, say where."""
    ticket = play.pm.ticket
    comments = play.stack.jira.comments(ticket)
    result = DemoResult(1, ticket, play.events, play.stack.jira)
    expected, created = with_keys(play.shown, store.url)  # the bytes shown, each new issue's slot filled by its key
    for line in created:
        play.say(Event("jira", "issue", line), f"[jira] follow-up issue {line}")
    if len(comments) != 1 or comments[0].raw != expected:
        same = bool(comments) and comments[0].raw == expected
        result.message = (
            f"expected exactly one comment on {ticket} with the bytes shown in the thread; "
            f"Jira has {len(comments)} (first equals the file shown: {same})"
        )
        return result
    out_dir.mkdir(parents=True, exist_ok=True)
    session_id = str(json.loads(play.shown)["properties"][0]["value"]["session"])
    conn = connect(store.url, timeout=5.0)
    try:
        session = SessionStore(conn).get(session_id)
    finally:
        conn.close()
    if session is None:
        result.message = f"session {session_id} is no longer in Redis; cannot render its Markdown"
        return result
    stem = f"{ticket}-postmortem-v{session.approved_version}"
    result.markdown_path, result.body_path = out_dir / f"{stem}.md", out_dir / f"{stem}.json"
    result.markdown_path.write_text(render_markdown(model_of(session)), encoding="utf-8")
    result.body_path.write_bytes(comments[0].raw)
    slots = "the new issue's slot" if len(created) == 1 else f"the {len(created)} new issues' slots"
    filled = f", with {slots} filled by the key{'s' * (len(created) > 1)}" if created else ""
    play.say(
        Event("output", "ok"),
        f"[done] exactly one comment on {ticket} (id {comments[0].id}), byte for "
        f"byte the JSON file shown in the thread{filled}.",
    )
    play.say(Event("output", "markdown", str(result.markdown_path)), f"rendered Markdown: {result.markdown_path}")
    play.say(Event("output", "body", str(result.body_path)), f"posted request body: {result.body_path}")
    result.code = 0
    return result


def _deployment_line(stack: LocalStack) -> str:
    """What the worker said it found at start-up (it asks Jira's serverInfo, JIRA_DEPLOYMENT being unset)."""
    found = next((ln for ln in stack.processes["worker"].lines if "found by serverInfo" in ln), "")
    return "worker: " + found.partition("INFO bot.worker: ")[2] if found else f"Jira deployment: {stack.deployment}"


def _tail(stack: LocalStack, lines: int = 40) -> str:
    logs = stack.logs().splitlines()[-lines:]
    return "last lines of the bot's and the worker's output:\n" + "\n".join(logs) if logs else ""
