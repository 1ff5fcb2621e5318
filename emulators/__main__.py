"""Run both emulators as a separate process: `python -m emulators [--jira datacenter] [--issue PROJ-1 ...]`.

Prints one JSON line with the URLs (SLACK_API_URL, JIRA_URL and the credentials the emulators accept),
then serves until stdin closes or the process is terminated, so a parent process can own its lifetime.
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import threading
from types import FrameType

from emulators.jira_cloud import JiraEmulator
from emulators.jira_datacenter import DataCenterJiraEmulator
from emulators.slack_api import SlackEmulator


def _until_eof(done: threading.Event) -> None:
    """The parent closing our stdin (or exiting) stops the emulators."""
    sys.stdin.read()
    done.set()


def main(argv: list[str] | None = None) -> int:
    """Start, announce, wait, stop."""
    parser = argparse.ArgumentParser(prog="python -m emulators", description=__doc__)
    parser.add_argument("--issue", action="append", default=[], help="Jira issue key to create (repeatable)")
    parser.add_argument("--slack-port", type=int, default=0)
    parser.add_argument("--jira-port", type=int, default=0)
    parser.add_argument("--jira", choices=["cloud", "datacenter"], default="cloud", help="the Jira emulated")
    args = parser.parse_args(argv)
    done = threading.Event()

    def stop(signum: int, frame: FrameType | None) -> None:
        done.set()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    kind = DataCenterJiraEmulator if args.jira == "datacenter" else JiraEmulator
    with SlackEmulator(port=args.slack_port) as slack, kind(port=args.jira_port) as jira:
        for key in args.issue:
            jira.add_issue(key)
        print(
            json.dumps(
                {
                    "SLACK_API_URL": slack.base_url,
                    "SLACK_BOT_TOKEN": slack.bot_token,
                    "JIRA_URL": jira.base_url,
                    "JIRA_EMAIL": "" if args.jira == "datacenter" else jira.email,  # "": a Bearer token
                    "JIRA_API_TOKEN": jira.api_token,
                }
            ),
            flush=True,
        )
        threading.Thread(target=_until_eof, args=(done,), daemon=True).start()
        done.wait()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
