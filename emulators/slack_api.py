"""A loopback emulator of the Slack Web API methods the bot uses, with Slack's limits and errors.

Point `WebClient(base_url=emulator.start())` (or SLACK_API_URL) at it. It records every call, enforces
the documented limits (slack_limits.py) and trigger_id rules, and can inject failures per method. Here set-up and
the HTTP routing; what it recorded: slack_records.py; faults: slack_faults.py; the methods: slack_methods.py.
"""

from __future__ import annotations

import json
import secrets
import time
from collections import defaultdict, deque
from collections.abc import Callable
from email.parser import BytesParser
from email.policy import HTTP
from typing import Any
from urllib.parse import parse_qs

from emulators.http import Emulator, Request, Response, json_response, parse_json
from emulators.slack_faults import Fault, SlackFaults
from emulators.slack_methods import SlackApiError
from emulators.slack_records import SlackCall, SlackRecords
from emulators.slack_threads import SlackThreads

__all__ = ["SlackCall", "SlackEmulator"]

Result = dict[str, Any]

#: Form-encoded calls carry these as JSON strings; JSON-bodied calls carry them as objects.
_JSON_FIELDS = ("blocks", "view", "files", "attachments", "metadata")


class SlackEmulator(SlackRecords, SlackFaults, SlackThreads, Emulator):
    """Slack Web API on 127.0.0.1: state kept in memory, every call recorded thread-safely."""

    def __init__(
        self,
        bot_token: str = "xoxb-test",
        *,
        team_id: str = "T0001",
        bot_user_id: str = "UBOT",
        bot_id: str = "B0001",
        trigger_ttl: float = 3.0,
        host: str = "127.0.0.1",
        port: int = 0,
    ) -> None:
        super().__init__(host=host, port=port)
        self.bot_token, self.team_id, self.bot_user_id, self.bot_id = bot_token, team_id, bot_user_id, bot_id
        self.trigger_ttl = trigger_ttl
        self._calls: list[SlackCall] = []
        self._log: list[str] = []
        self._messages: list[dict[str, Any]] = []
        self._ephemerals: list[dict[str, Any]] = []
        self._files: list[dict[str, Any]] = []
        self._uploads: dict[str, dict[str, Any]] = {}
        self._views: list[dict[str, Any]] = []
        self._current_views: dict[str, dict[str, Any]] = {}
        self._homes: dict[str, dict[str, Any]] = {}
        self._triggers: dict[str, float] = {}
        self._used_triggers: set[str] = set()
        self._users: dict[str, dict[str, Any]] = {}
        self._responses: list[dict[str, Any]] = []
        self._failures: dict[str, deque[Response]] = defaultdict(deque)
        self._matching: list[Fault] = []
        self._counter = 0
        self.init_threads()  # people's threads, typed modal inputs (emulators/slack_threads.py)
        self._methods: dict[str, Callable[[dict[str, Any]], Result]] = self.method_table()

    @property
    def base_url(self) -> str:
        """The Web API root as `WebClient(base_url=...)` wants it, with the trailing slash."""
        return f"{self.origin}/api/"

    # set-up for tests ---------------------------------------------------------------------------
    def issue_trigger_id(self) -> str:
        """A trigger_id as Slack sends with a command or an interaction: usable once, for `trigger_ttl` s."""
        trigger = f"{self._next()}.{self.team_id[1:] or '1'}.{secrets.token_hex(16)}"
        with self._cond:
            self._triggers[trigger] = time.monotonic()
        return trigger

    def issue_response_url(self) -> str:
        """A response_url served by this emulator; what is POSTed there lands in `.responses`."""
        return f"{self.origin}/response/{self._next()}"

    def add_user(
        self,
        user_id: str,
        *,
        name: str | None = None,
        locale: str = "en-US",
        email: str | None = None,
        real_name: str | None = None,
        tz: str = "UTC",
    ) -> None:
        """Register a workspace member for users.info / users.lookupByEmail."""
        name = name or user_id.lower()
        with self._cond:
            self._users[user_id] = {
                "id": user_id,
                "team_id": self.team_id,
                "name": name,
                "real_name": real_name or name,
                "deleted": False,
                "is_bot": False,
                "tz": tz,
                "locale": locale,
                "profile": {"email": email, "real_name": real_name or name, "display_name": name},
            }

    # HTTP ---------------------------------------------------------------------------------------
    def handle(self, request: Request) -> Response:
        """Route /api/<method>, the upload URLs and the response_urls."""
        if request.path.startswith("/api/"):
            return self._api(request.path[len("/api/") :], request)
        if request.path.startswith("/upload/v1/") and request.method == "POST":
            return self._upload(request.path.rsplit("/", 1)[-1], request)
        if request.path.startswith("/response/") and request.method == "POST":
            with self._cond:
                self._responses.append({"url": request.path, "payload": parse_json(request.body)})
                self._changed()
            return Response(200, b"ok", {"Content-Type": "text/plain"})
        return Response(404, b"not found", {"Content-Type": "text/plain"})

    def _api(self, method: str, request: Request) -> Response:
        try:
            params = self._params(request)
        except ValueError:
            return json_response(200, {"ok": False, "error": "invalid_json"})
        with self._cond:
            self._calls.append(SlackCall(method, params))
            response = self._answer(method, params, request)
            shown = {k: (v if len(repr(v)) < 200 else f"<{len(repr(v))} chars>") for k, v in params.items()}
            self._log.append(f"{method} {shown} -> {response.status} {response.body[:300]!r}")
            self._changed()
        return response

    def _answer(self, method: str, params: dict[str, Any], request: Request) -> Response:
        fault = self._take_fault(method, params)
        if fault is not None and fault.response is not None:
            return fault.response
        response = self._answer_call(method, params, request)
        if fault is not None:
            response.stall, response.stall_seconds = self._stall_event(), fault.stall
        return response

    def _answer_call(self, method: str, params: dict[str, Any], request: Request) -> Response:
        auth = request.header("authorization")
        token = auth[len("Bearer ") :] if auth.startswith("Bearer ") else params.get("token")
        if not token:
            return json_response(200, {"ok": False, "error": "not_authed"})
        if token != self.bot_token:
            return json_response(200, {"ok": False, "error": "invalid_auth"})
        handler = self._methods.get(method)
        if handler is None:
            return json_response(200, {"ok": False, "error": "unknown_method"})
        try:
            return json_response(200, {"ok": True, **handler(params)})
        except SlackApiError as exc:
            body: Result = {"ok": False, "error": exc.error}
            if exc.messages:
                body["response_metadata"] = {"messages": exc.messages}
            return json_response(200, body)

    @staticmethod
    def _params(request: Request) -> dict[str, Any]:
        params: dict[str, Any] = {k: v[0] for k, v in request.query.items()}
        ctype = request.header("content-type")
        if request.body and "json" in ctype:
            params.update(parse_json(request.body))
        elif request.body:
            form = parse_qs(request.body.decode("utf-8"), keep_blank_values=True)
            params.update({k: v[0] for k, v in form.items()})
        for key in _JSON_FIELDS:
            if isinstance(params.get(key), str):
                try:
                    params[key] = json.loads(params[key])
                except ValueError:
                    pass  # left as a string: the method answers invalid_* like Slack
        return params

    def _upload(self, file_id: str, request: Request) -> Response:
        data = request.body
        ctype = request.header("content-type")
        if ctype.startswith("multipart/"):
            message = BytesParser(policy=HTTP).parsebytes(f"Content-Type: {ctype}\r\n\r\n".encode() + data)
            parts = [
                p for p in message.iter_parts() if p.get_filename() or p.get_param("name", header="content-disposition")
            ]
            data = parts[0].get_payload(decode=True) if parts else b""  # type: ignore[assignment]
        with self._cond:
            self._calls.append(SlackCall("(upload)", {"file_id": file_id, "length": len(data)}))
            self._log.append(f"(upload) {file_id} {len(data)} bytes")
            pending = self._uploads.get(file_id)
            if pending is not None:
                pending["bytes"] = data
            self._changed()
        if pending is None:
            return Response(404, b"unknown upload", {"Content-Type": "text/plain"})
        return Response(200, f"OK - {len(data)}".encode(), {"Content-Type": "text/plain"})
