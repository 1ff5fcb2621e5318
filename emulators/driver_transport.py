"""The transport under the Slack driver: Slack's request signature, and the POST to the bot's /slack/events.

`slack_signature` is the one place a signed request's headers are made (the driver, the benches' load generator
and the in-process tests use it); `SignedTransport.deliver` is the one hook a driver that sends elsewhere (a
keep-alive session, an ASGI app in process) replaces.
"""

from __future__ import annotations

import itertools
import json
import time
from typing import Any
from urllib.parse import urlencode

import requests
from slack_sdk.signature import SignatureVerifier

from emulators.slack_api import SlackEmulator

FORM = "application/x-www-form-urlencoded"


def slack_signature(verifier: SignatureVerifier, body: bytes, timestamp: int | None = None) -> dict[str, str]:
    """The two headers Slack adds to a request: its timestamp (now by default) and its signature."""
    ts = str(int(time.time()) if timestamp is None else timestamp)
    signature = verifier.generate_signature(timestamp=ts, body=body)
    return {"X-Slack-Request-Timestamp": ts, "X-Slack-Signature": signature or ""}


class SignedTransport:
    """Signs and sends requests to a bot's /slack/events; the payload builders live in the subclasses."""

    def __init__(
        self,
        bot_url: str,
        signing_secret: str,
        *,
        slack: SlackEmulator,
        api_app_id: str = "A0001",
        timeout: float = 10.0,
    ) -> None:
        base = bot_url.rstrip("/")
        self.events_url = base if base.endswith("/slack/events") else f"{base}/slack/events"
        self.verifier = SignatureVerifier(signing_secret)
        self.slack, self.api_app_id, self.timeout = slack, api_app_id, timeout
        self.last_payload: dict[str, Any] = {}
        self._ids = itertools.count(1)

    def sign(self, body: bytes, timestamp: int | None = None) -> dict[str, str]:
        """The two headers Slack adds; pass an old `timestamp` or tamper the result to test rejection."""
        return slack_signature(self.verifier, body, timestamp)

    def post(
        self,
        body: bytes,
        content_type: str,
        *,
        timestamp: int | None = None,
        headers: dict[str, str] | None = None,
        signed: bool = True,
    ) -> requests.Response:
        """POST raw bytes to /slack/events, signed unless `signed=False`."""
        signature = self.sign(body, timestamp) if signed else {}
        return self.deliver(body, {"Content-Type": content_type, **signature, **(headers or {})})

    def deliver(self, body: bytes, headers: dict[str, str]) -> requests.Response:
        """Send the request as it stands (headers signed already); override to deliver it elsewhere."""
        return requests.post(self.events_url, data=body, headers=headers, timeout=self.timeout)

    def _form(self, fields: dict[str, str]) -> requests.Response:
        return self.post(urlencode(fields).encode(), FORM)

    def _interactive(self, payload: dict[str, Any]) -> requests.Response:
        self.last_payload = payload
        return self._form({"payload": json.dumps(payload)})

    def _json(self, payload: dict[str, Any], headers: dict[str, str] | None = None) -> requests.Response:
        self.last_payload = payload
        return self.post(json.dumps(payload).encode(), "application/json", headers=headers)

    def _user(self, user_id: str) -> dict[str, str]:
        name = user_id.lower()
        return {"id": user_id, "username": name, "name": name, "team_id": self.slack.team_id}

    def _team(self) -> dict[str, str]:
        return {"id": self.slack.team_id, "domain": "emulated"}
