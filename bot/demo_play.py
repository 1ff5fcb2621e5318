"""The requester's side of `postmortem-bot demo`: signed Slack requests played against the local stack, each
step waiting for what the bot says in the thread, narrated through bot/demo_transcript.py."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from bot import demo_shortcut
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
from bot.localstack import LocalStack
from emulators.driver import modal_values
from emulators.slack_api import SlackEmulator
from postmortem.model import PostMortem
from rules.classifier import Kind, classify_reply

#: The required input left out of the modal on purpose, so the bot asks for it in the thread.
LEFT_OUT = "validation"
REQUESTER, CHANNEL = "UDEMO01", "CDEMO01"
APPROVAL: dict[str, str] = {"en": "post it", "ja": "投稿してください"}
CONTINUE: dict[str, str] = {"en": "continue", "ja": "続行"}
#: Each step waits this long for the bot at most; a healthy run takes well under a second a step.
STEP_TIMEOUT_SECONDS = 60.0


class DemoError(RuntimeError):
    """Why the demo stopped, said for the person who ran it."""


class Play:
    """The requester's side of the conversation, driven by what the bot says in the thread."""

    def __init__(
        self, stack: LocalStack, pm: PostMortem, emit: Callable[[str], None], *, from_thread: bool = False
    ) -> None:
        self.stack, self.pm, self.emit = stack, pm, emit
        self.from_thread = from_thread  # `--from-thread`: the message shortcut (bot/demo_shortcut.py)
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
        if self.from_thread:
            demo_shortcut.from_thread(self.stack, self.pm, channel=CHANNEL, requester=REQUESTER, say=self.say)
        else:
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
            if key == "approve_question" and self._comment_file()["name"] != self._shown_name:
                self._show_file()
            if key == "followup_bodies_shown":  # each new issue's create body, attached before the comment's
                self._show_issue_files()
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

    def _comment_file(self) -> dict[str, Any]:
        """The newest comment request body attached (follow-up issues' create bodies come just before it)."""
        files = self.stack.slack.files(channel=CHANNEL, thread_ts=self.thread_ts)
        return dict(next((f for f in reversed(files) if "-postmortem-v" in f["name"]), files[-1]))

    def _show_issue_files(self) -> None:
        for shown in self.stack.slack.files(channel=CHANNEL, thread_ts=self.thread_ts):
            if "-issue-" in shown["name"]:
                self.say(
                    Event("file", shown["name"], str(len(shown["bytes"]))),
                    f"[file] {shown['name']} ({len(shown['bytes']):,} bytes): the exact create request of a new issue",
                )

    def _show_file(self) -> None:
        """The file the bot attached before asking for approval: the request body, byte for byte."""
        shown = self._comment_file()
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


def _ok(response: Any, what: str) -> None:
    if response.status_code != 200:
        raise DemoError(f"the bot answered {what} with HTTP {response.status_code}: {response.text[:300]}")
