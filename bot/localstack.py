"""The whole service on one machine: Slack and Jira emulators, `serve` and `worker` as real processes.

The end-to-end tests and `postmortem-bot demo` both run on this, so the demo shows what the tests prove.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
from dataclasses import dataclass, field
from pathlib import Path

from emulators.driver import SlackDriver
from emulators.jira_cloud import JiraEmulator
from emulators.jira_datacenter import DataCenterJiraEmulator
from emulators.slack_api import SlackEmulator

SIGNING_SECRET = "local-signing-secret"
BOT_TOKEN = "xoxb-local-bot-token"
JIRA_EMAIL = "postmortem-bot@example.com"
JIRA_TOKEN = "local-jira-api-token"
#: The Jira emulators by deployment: `demo --jira datacenter` and the Data Center end-to-end tests use the second.
JIRA_DEPLOYMENTS = ("cloud", "datacenter")


def jira_emulator(deployment: str = "cloud") -> JiraEmulator:
    """The Jira emulator of a deployment: Cloud with basic auth, Data Center with a personal access token."""
    if deployment == "datacenter":
        return DataCenterJiraEmulator(api_token=JIRA_TOKEN)
    return JiraEmulator(email=JIRA_EMAIL, api_token=JIRA_TOKEN)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class Process:
    """A child process whose output is collected line by line (and can be waited on for a line)."""

    name: str
    popen: subprocess.Popen[str]
    lines: list[str] = field(default_factory=list)
    _seen: threading.Condition = field(default_factory=threading.Condition)

    def start_reader(self) -> None:
        threading.Thread(target=self._read, daemon=True, name=f"{self.name}-output").start()

    def _read(self) -> None:
        assert self.popen.stdout is not None
        for line in self.popen.stdout:
            with self._seen:
                self.lines.append(line.rstrip("\n"))
                self._seen.notify_all()
        self.popen.stdout.close()  # the child is gone: nothing more to read
        with self._seen:
            self._seen.notify_all()

    def wait_for_line(self, needle: str, timeout: float = 30.0) -> str:
        """Block until a line containing `needle` was printed (or the process ended: RuntimeError)."""
        with self._seen:
            found = self._seen.wait_for(
                lambda: any(needle in ln for ln in self.lines) or self.popen.poll() is not None, timeout
            )
            hit = next((ln for ln in self.lines if needle in ln), None)
        if hit is None:
            tail = "\n".join(self.lines[-30:])
            state = "exited" if self.popen.poll() is not None else ("timed out" if not found else "ended")
            raise RuntimeError(f"{self.name} {state} before printing {needle!r}:\n{tail}")
        return hit

    def stop(self, *, kill: bool = False) -> None:
        """Terminate, or with `kill` SIGKILL the whole process group (an RQ worker's work horse too)."""
        if self.popen.poll() is None:
            if kill:
                os.killpg(self.popen.pid, signal.SIGKILL)
            else:
                self.popen.terminate()
            try:
                self.popen.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.popen.kill()
                self.popen.wait(timeout=10)


@dataclass
class LocalStack:
    """Emulators in this process, bot and worker as child processes, all on loopback."""

    redis_url: str
    extra_env: dict[str, str] = field(default_factory=dict)
    slack: SlackEmulator = field(default_factory=lambda: SlackEmulator(bot_token=BOT_TOKEN))
    jira: JiraEmulator = field(default_factory=jira_emulator)
    port: int = field(default_factory=free_port)
    processes: dict[str, Process] = field(default_factory=dict)

    @property
    def bot_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def deployment(self) -> str:
        return "datacenter" if isinstance(self.jira, DataCenterJiraEmulator) else "cloud"

    def comment_path(self, ticket: str) -> str:
        """The route the bot POSTs a comment to: REST v2 on Data Center, v3 on Cloud."""
        return f"/rest/api/{2 if self.deployment == 'datacenter' else 3}/issue/{ticket}/comment"

    def env(self) -> dict[str, str]:
        """The environment `serve` and `worker` get: everything points at loopback."""
        keep = {k: v for k, v in os.environ.items() if not k.startswith(("SLACK_", "JIRA_", "POSTMORTEM_"))}
        # No `.env` is read (POSTMORTEM_ENV_FILE empty), so a developer's real tokens or settings in the
        # working directory can never reach the children; SLACK_APP_TOKEN empty keeps HTTP mode regardless.
        # The Jira permission check is off unless a stack turns it on: the emulators' people have no e-mails
        # or Jira accounts unless a test gives them some (tests/e2e/test_security.py does).
        # JIRA_DEPLOYMENT stays unset, so the worker finds it by serverInfo at start-up as a real one would; on
        # Data Center JIRA_EMAIL is empty and the token goes as a personal access token (Bearer).
        return {
            **keep,
            "POSTMORTEM_ENV_FILE": "",
            "SLACK_BOT_TOKEN": BOT_TOKEN,
            "SLACK_SIGNING_SECRET": SIGNING_SECRET,
            "SLACK_APP_TOKEN": "",
            "POSTMORTEM_JIRA_PERMISSION_CHECK": "off",
            "SLACK_API_URL": self.slack.base_url,
            "JIRA_URL": self.jira.base_url,
            "JIRA_EMAIL": "" if self.deployment == "datacenter" else JIRA_EMAIL,
            "JIRA_API_TOKEN": JIRA_TOKEN,
            "REDIS_URL": self.redis_url,
            "PORT": str(self.port),
            "PYTHONUNBUFFERED": "1",
            **self.extra_env,
        }

    def start(self) -> LocalStack:
        self.slack.start()
        self.jira.start()
        self.start_process("serve", "--host", "127.0.0.1")
        self.processes["serve"].wait_for_line("Uvicorn running on")
        self.start_worker()
        return self

    def start_worker(self, name: str = "worker") -> Process:
        process = self.start_process(name, cmd="worker")
        process.wait_for_line("Listening on")
        return process

    def start_process(self, name: str, *args: str, cmd: str | None = None) -> Process:
        popen = subprocess.Popen(
            [sys.executable, "-m", "bot.cli", cmd or name, *args],
            env=self.env(),
            cwd=Path.cwd(),
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            text=True,
            start_new_session=True,  # its own process group, so a crash can be simulated whole
        )
        process = Process(name, popen)
        process.start_reader()
        self.processes[name] = process
        return process

    def driver(self) -> SlackDriver:
        return SlackDriver(f"{self.bot_url}/slack/events", SIGNING_SECRET, slack=self.slack)

    def logs(self) -> str:
        return "\n".join(f"[{name}] {line}" for name, p in self.processes.items() for line in p.lines)

    def stop(self) -> None:
        for process in self.processes.values():
            process.stop()
        self.slack.stop()
        self.jira.stop()
