"""A loopback emulator of the Slack Web API methods the bot uses, with Slack's limits and errors.

Point `WebClient(base_url=emulator.start())` (or SLACK_API_URL) at it. It records every call, enforces
the documented limits (slack_limits.py) and trigger_id rules, and can inject failures per method.
"""

from __future__ import annotations

import json
import secrets
import time
from collections import defaultdict, deque
from collections.abc import Callable
from email.parser import BytesParser
from email.policy import HTTP
from typing import Any, NamedTuple
from urllib.parse import parse_qs

from emulators.http import Emulator, Request, Response, json_response, parse_json
from emulators.slack_methods import SlackApiError, SlackMethods

Result = dict[str, Any]

#: Form-encoded calls carry these as JSON strings; JSON-bodied calls carry them as objects.
_JSON_FIELDS = ("blocks", "view", "files", "attachments", "metadata")


class SlackCall(NamedTuple):
    """One Web API call: the method name and its merged query/body parameters."""

    method: str
    params: dict[str, Any]


class _Fault(NamedTuple):
    """A fault for the next call of a method whose parameters contain `needle`: an answer, or a stall."""

    method: str
    needle: str
    response: Response | None
    stall: float | None = None


class SlackEmulator(SlackMethods, Emulator):
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
        self._matching: list[_Fault] = []
        self._counter = 0
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

    def fail_next(
        self,
        method: str,
        error: str = "ratelimited",
        *,
        status: int | None = None,
        retry_after: int | None = None,
        times: int = 1,
    ) -> None:
        """Make the next `times` calls of `method` fail; `ratelimited` answers 429 with Retry-After."""
        if error == "ratelimited":
            status = status or 429
            retry_after = 1 if retry_after is None else retry_after
        headers = {"Retry-After": str(retry_after)} if retry_after is not None else {}
        with self._cond:
            for _ in range(times):
                self._failures[method].append(
                    json_response(status or 200, {"ok": False, "error": error}, headers=headers)
                )

    def fail_matching(self, method: str, needle: str, faults: list[tuple[str, int, int | None]]) -> None:
        """Answer the next calls of `method` whose parameters contain `needle` with `faults`, in order:
        each `(error, status, retry_after)`, e.g. `("ratelimited", 429, 1)`, `("service_unavailable", 503,
        None)`, `("internal_error", 200, None)`. Nothing is done for a failed call (as Slack does)."""
        with self._cond:
            for error, status, retry_after in faults:
                headers = {"Retry-After": str(retry_after)} if retry_after is not None else {}
                self._matching.append(
                    _Fault(method, needle, json_response(status, {"ok": False, "error": error}, headers=headers))
                )

    def stall_matching(self, method: str, needle: str, seconds: float) -> None:
        """Do the next call of `method` whose parameters contain `needle`, then hold its reply `seconds` or
        until `release()` (a worker killed meanwhile leaves an ambiguous step behind)."""
        with self._cond:
            self._matching.append(_Fault(method, needle, None, seconds))

    # inspection ---------------------------------------------------------------------------------
    @property
    def calls(self) -> list[SlackCall]:
        """Every Web API call received, in order, failed ones included."""
        with self._cond:
            return list(self._calls)

    def calls_to(self, method: str) -> list[dict[str, Any]]:
        """The parameters of every call of one method."""
        return [c.params for c in self.calls if c.method == method]

    def messages(self, channel: str | None = None, thread_ts: str | None = None) -> list[dict[str, Any]]:
        """Messages the app posted (current content); `thread_ts` selects the replies of one thread."""
        return self._select(self._messages, channel, thread_ts)

    def ephemerals(
        self, channel: str | None = None, thread_ts: str | None = None, user: str | None = None
    ) -> list[dict[str, Any]]:
        """Ephemeral messages the app posted."""
        found = self._select(self._ephemerals, channel, thread_ts)
        return [m for m in found if user is None or m["user"] == user]

    def files(self, channel: str | None = None, thread_ts: str | None = None) -> list[dict[str, Any]]:
        """Completed uploads: id, name, title, bytes, channel, thread_ts, initial_comment."""
        return self._select(self._files, channel, thread_ts)

    @property
    def views(self) -> list[dict[str, Any]]:
        """Every accepted views.open / update / push as {"action", "view", "trigger_id"}."""
        with self._cond:
            return [dict(v) for v in self._views]

    def current_view(self, view_id: str | None = None) -> dict[str, Any] | None:
        """The latest state of one view (default: the last one opened, pushed or updated)."""
        with self._cond:
            if view_id is None:
                return dict(self._views[-1]["view"]) if self._views else None
            view = self._current_views.get(view_id)
            return dict(view) if view else None

    def home_view(self, user: str) -> dict[str, Any] | None:
        """The Home tab view last published for a user (views.publish), if any."""
        with self._cond:
            view = self._homes.get(user)
            return dict(view) if view else None

    @property
    def responses(self) -> list[dict[str, Any]]:
        """Bodies POSTed to response_urls issued by this emulator."""
        with self._cond:
            return list(self._responses)

    def dump(self) -> str:
        """Every call with its answer, one a line."""
        with self._cond:
            return "\n".join(self._log) or "(no calls)"

    def _select(self, items: list[dict[str, Any]], channel: str | None, thread_ts: str | None) -> list[dict[str, Any]]:
        with self._cond:
            return [
                dict(m)
                for m in items
                if (channel is None or m["channel"] == channel)
                and (thread_ts is None or m.get("thread_ts") == thread_ts)
            ]

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
        if self._failures.get(method):
            return self._failures[method].popleft()
        fault = self._take_matching(method, params)
        if fault is not None and fault.response is not None:
            return fault.response
        response = self._answer_call(method, params, request)
        if fault is not None:
            response.stall, response.stall_seconds = self._stall_event(), fault.stall
        return response

    def _take_matching(self, method: str, params: dict[str, Any]) -> _Fault | None:
        if not self._matching:
            return None
        text = json.dumps(params, ensure_ascii=False, default=str)
        fault = next((f for f in self._matching if f.method == method and f.needle in text), None)
        if fault is not None:
            self._matching.remove(fault)
        return fault

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
