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
from typing import Any

from bot.demo_transcript import (
    ASK_FIELD,
    ASK_OPTIONAL,
    FAILURES,
    Event,
    asked_field,
    bot_line,
    indent,
    jira_line,
    recognise,
    short,
)
from bot.embedded_redis import DemoRedis, NoRedis, demo_redis
from bot.localstack import LocalStack, jira_emulator
from emulators.driver import modal_values
from emulators.jira_cloud import JiraEmulator
from emulators.jira_records import JiraComment
from emulators.slack_api import SlackEmulator
from postmortem.model import InputError, Lang, PostMortem, load_postmortem
from renderers.markdown import render_markdown
from rules.classifier import Kind, classify_reply
from rules.gate import check_inputs, check_scope
from sessions.conversation import model_of
from sessions.store import SessionStore, connect

#: The bundled seed example (a copy of examples/tada-hang.ja.yaml shipped in the package).
SEED_NAME = "tada-hang.ja.yaml"
#: The required input left out of the modal on purpose, so the bot asks for it in the thread.
LEFT_OUT = "validation"
REQUESTER, CHANNEL = "UDEMO01", "CDEMO01"
APPROVAL: dict[str, str] = {"en": "post it", "ja": "投稿してください"}
CONTINUE: dict[str, str] = {"en": "continue", "ja": "続行"}
#: Each step waits this long for the bot at most; a healthy run takes well under a second a step.
STEP_TIMEOUT_SECONDS = 60.0
DEFAULT_OUT = Path("postmortem-demo-out")


class DemoError(RuntimeError):
    """Why the demo stopped, said for the person who ran it."""


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
    play = Play(stack, pm, emit)
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


class Play:
    """The requester's side of the conversation, driven by what the bot says in the thread."""

    def __init__(self, stack: LocalStack, pm: PostMortem, emit: Callable[[str], None]) -> None:
        self.stack, self.pm, self.emit = stack, pm, emit
        self.driver = stack.driver()
        self.events: list[Event] = []
        self.thread_ts = ""
        self.shown = b""
        self._shown_name = ""
        self._jira_seen = 0

    def say(self, event: Event, line: str) -> None:
        self.events.append(event)
        self.emit(line)

    def run(self) -> None:
        ticket = self.pm.ticket
        self.stack.jira.add_issue(ticket, summary="The bug this post-mortem is about")
        self.stack.slack.add_user(REQUESTER, name="requester", locale="ja-JP" if self.pm.lang == "ja" else "en-US")
        self._post_mortem_command()
        self._submit_modal()
        self._converse()

    def _post_mortem_command(self) -> None:
        ticket = self.pm.ticket
        self.say(Event("command", text=f"/post-mortem {ticket}"), f"[slack] @requester → /post-mortem {ticket}")
        _ok(self.driver.slash_command(text=ticket, user_id=REQUESTER, channel_id=CHANNEL), "the slash command")
        opened = self.stack.slack.wait_for(lambda s: s.views, timeout=STEP_TIMEOUT_SECONDS)[-1]["view"]
        inputs = sum(1 for b in opened.get("blocks", []) if b.get("type") == "input")
        self.say(
            Event("modal", "opened"),
            f'[slack] bot → views.open: the "{opened["title"]["text"]}" modal, {inputs} inputs, `ticket` prefilled',
        )

    def _submit_modal(self) -> None:
        fields = self.pm.model_dump(exclude_defaults=True, mode="json", exclude={LEFT_OUT})
        fields.update(lang=self.pm.lang)
        if self.pm.destination != "jira_comment":
            self.emit(
                f"(the input's destination is {self.pm.destination}; the demo shows the Jira flow, "
                "so the modal says jira_comment)"
            )
            fields.update(destination="jira_comment")
        shown = ", ".join(f for f in fields if f != "ticket")
        self.say(
            Event("modal", "submitted", LEFT_OUT),
            f"[slack] @requester → submits the modal: {shown} (left out on purpose: {LEFT_OUT})",
        )
        response = self.driver.view_submission(values=modal_values(fields), user_id=REQUESTER)
        _ok(response, "the modal submission")
        if response.content and json.loads(response.content).get("response_action") == "errors":
            raise DemoError(f"the bot refused the modal: {response.text}")
        parent = self.stack.slack.wait_for(
            lambda s: next((m for m in s.messages(channel=CHANNEL) if not m.get("thread_ts")), None),
            timeout=STEP_TIMEOUT_SECONDS,
        )
        self.thread_ts = parent["ts"]
        self.say(Event("bot", "parent", parent["text"]), f"[channel] bot: {parent['text']}")

    def _converse(self) -> None:
        """React to each thread message in order until the hand-off offer (or a failure)."""
        seen = 0
        while True:
            for message in self._thread_after(seen):
                seen += 1
                self._flush_jira()
                if self._react(message):
                    return

    def _thread_after(self, seen: int) -> list[dict[str, Any]]:
        """Block until the thread has messages past the first `seen`; return those."""

        def new(slack: SlackEmulator) -> list[dict[str, Any]]:
            return slack.messages(channel=CHANNEL, thread_ts=self.thread_ts)[seen:]

        return self.stack.slack.wait_for(new, timeout=STEP_TIMEOUT_SECONDS)

    def _react(self, message: dict[str, Any]) -> bool:
        """Narrate one bot message and answer it; True once the flow is over."""
        # As Slack shows it: the bot escapes `<`, `>` and `&` in its mrkdwn (renderers/mrkdwn.py `escape_own`).
        text = str(message.get("text", "")).replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
        key, params = recognise(text)
        if key in FAILURES:
            self.say(Event("bot", key, text), f"[thread] bot: {text}")
            raise DemoError(f"the bot said: {text}")
        if key is None:
            self.say(Event("bot", "draft", text), f"[thread] bot: (draft) {short(text)} [{len(text)} characters]")
        elif key == "posted":
            self.say(Event("link", key, params.get("url", "")), f"[thread] bot: {text}")
        elif key == "offer_handoff":
            buttons = [
                e["text"]["text"]
                for b in message.get("blocks") or []
                if b.get("type") == "actions"
                for e in b.get("elements", [])
            ]
            self.say(
                Event("offer", key, text),
                f"[thread] bot: {text} [button: {', '.join(buttons)}] "
                "(not clicked: the hand-off only ever happens on a person's click)",
            )
            return True
        elif key == "body_shown":  # the file is in the thread just before this line: narrated in that order
            self._show_file()
            self.say(Event("bot", key, text), f"[thread] bot: (request body) {short(text)}")
        else:
            if key == "approve_question" and self._newest_file()["name"] != self._shown_name:
                self._show_file()
            self.say(Event("bot", key, text), bot_line(key, text))
        self._answer(key, params)
        return False

    def _answer(self, key: str | None, params: dict[str, str]) -> None:
        if key in ASK_FIELD:
            name = asked_field(params)
            value = self.pm.text(name)
            if value is None:
                raise DemoError(f"the bot asks for `{name}`, which the input does not have")
            kind = classify_reply(value).kind
            self._reply(value if kind is Kind.other else f"{params.get('reply_as', name)}: {value}", key=name)
        elif key in ASK_OPTIONAL:
            self._reply("skip", key=asked_field(params))
        elif key == "scope_stop":
            self._reply(CONTINUE[self.pm.lang], key="continue")
        elif key == "approve_question":
            self._reply(APPROVAL[self.pm.lang], key="approve")

    def _newest_file(self) -> dict[str, Any]:
        return dict(self.stack.slack.files(channel=CHANNEL, thread_ts=self.thread_ts)[-1])

    def _show_file(self) -> None:
        """The file the bot attached before asking for approval: the request body, byte for byte."""
        shown = self._newest_file()
        self.shown = shown["bytes"]
        self._shown_name = str(shown["name"])
        self.say(
            Event("file", shown["name"], str(len(self.shown))),
            f"[file] {shown['name']} ({len(self.shown):,} bytes): the exact request body for Jira",
        )

    def _reply(self, text: str, *, key: str) -> None:
        self.say(Event("reply", key, text), f"[thread] @requester: {indent(text.strip())}")
        response = self.driver.message(text, user=REQUESTER, channel=CHANNEL, thread_ts=self.thread_ts)
        _ok(response, "a thread reply")

    def _flush_jira(self) -> None:
        """Narrate the POSTs Jira received since the last look (comment id and marker property included)."""
        posts = self.stack.jira.posts
        for post in posts[self._jira_seen :]:
            stored = next((c for c in self.stack.jira.comments(self.pm.ticket) if c.raw == post.body), None)
            self.say(Event("jira", str(post.status), post.path), jira_line(post, stored))
        self._jira_seen = len(posts)


def _finish(play: Play, store: DemoRedis, out_dir: Path) -> DemoResult:
    """Check the one comment against the bytes shown, write the Markdown and the body, say where."""
    ticket = play.pm.ticket
    comments = play.stack.jira.comments(ticket)
    result = DemoResult(1, ticket, play.events, play.stack.jira)
    if len(comments) != 1 or comments[0].raw != play.shown:
        same = bool(comments) and comments[0].raw == play.shown
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
    play.say(
        Event("output", "ok"),
        f"[done] exactly one comment on {ticket} (id {comments[0].id}), byte for "
        "byte the JSON file shown in the thread.",
    )
    play.say(Event("output", "markdown", str(result.markdown_path)), f"rendered Markdown: {result.markdown_path}")
    play.say(Event("output", "body", str(result.body_path)), f"posted request body: {result.body_path}")
    result.code = 0
    return result


def _deployment_line(stack: LocalStack) -> str:
    """What the worker said it found at start-up (it asks Jira's serverInfo, JIRA_DEPLOYMENT being unset)."""
    found = next((ln for ln in stack.processes["worker"].lines if "found by serverInfo" in ln), "")
    return "worker: " + found.partition("INFO bot.worker: ")[2] if found else f"Jira deployment: {stack.deployment}"


def _ok(response: Any, what: str) -> None:
    if response.status_code != 200:
        raise DemoError(f"the bot answered {what} with HTTP {response.status_code}: {response.text[:300]}")


def _tail(stack: LocalStack, lines: int = 40) -> str:
    logs = stack.logs().splitlines()[-lines:]
    return "last lines of the bot's and the worker's output:\n" + "\n".join(logs) if logs else ""
