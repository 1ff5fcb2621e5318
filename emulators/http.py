"""A tiny shared base for the loopback emulators: one threaded HTTP server, JSON helpers, a wait helper.

The stdlib `ThreadingHTTPServer` runs in a background thread so it never competes with the event loop
of the app under test; every recorded call goes through one `threading.Condition` so tests can block on
"this has happened" instead of sleeping.
"""

from __future__ import annotations

import json
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Self, TypeVar
from urllib.parse import parse_qs, urlsplit

T = TypeVar("T")
E = TypeVar("E", bound="Emulator")

#: Jira sends this exact header value; atlassian-python-api compares it verbatim on a 401.
JSON_CONTENT_TYPE = "application/json;charset=UTF-8"


@dataclass(frozen=True)
class Request:
    """One HTTP request as the emulator saw it (raw body kept so tests can compare bytes)."""

    method: str
    path: str
    query: dict[str, list[str]]
    headers: dict[str, str]
    body: bytes

    def arg(self, name: str, default: str | None = None) -> str | None:
        """The first query-string value of `name`."""
        values = self.query.get(name)
        return values[0] if values else default

    def header(self, name: str, default: str = "") -> str:
        """A header by case-insensitive name."""
        return self.headers.get(name.lower(), default)


@dataclass
class Response:
    """What to send back; `stall` holds the reply until the event is set or `stall_seconds` pass."""

    status: int = 200
    body: bytes = b""
    headers: dict[str, str] = field(default_factory=dict)
    stall: threading.Event | None = None
    stall_seconds: float | None = None


def json_response(
    status: int,
    payload: Any,
    *,
    headers: dict[str, str] | None = None,
    content_type: str = "application/json; charset=utf-8",
) -> Response:
    """A JSON reply with its content type set."""
    body = json.dumps(payload, ensure_ascii=False).encode("utf-8")
    return Response(status, body, {"Content-Type": content_type, **(headers or {})})


def parse_json(body: bytes) -> Any:
    """Decode a JSON body; raises ValueError with the decoder's message when it is not JSON."""
    return json.loads(body.decode("utf-8"))


class _Handler(BaseHTTPRequestHandler):
    """Routes every request to the owning emulator; HTTP/1.1 with Content-Length always set (keep-alive)."""

    protocol_version = "HTTP/1.1"
    #: TCP_NODELAY: the head and the body go out as two writes, and with Nagle's algorithm the body would wait
    #: for the client's delayed ACK of the head (tens of ms a response, under load).
    disable_nagle_algorithm = True
    server: _Server

    def _serve(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        parts = urlsplit(self.path)
        request = Request(
            self.command,
            parts.path,
            parse_qs(parts.query, keep_blank_values=True),
            {k.lower(): v for k, v in self.headers.items()},
            body,
        )
        try:
            response = self.server.emulator.handle(request)
        except Exception:  # an emulator bug must show up in the test output, not hang the client
            response = Response(500, traceback.format_exc().encode(), {"Content-Type": "text/plain"})
        if response.stall is not None:
            response.stall.wait(response.stall_seconds)
        try:
            self.send_response(response.status)
            for name, value in response.headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(response.body)))
            self.end_headers()
            self.wfile.write(response.body)
        except (BrokenPipeError, ConnectionResetError):  # the client timed out during a stall
            self.close_connection = True

    do_GET = do_POST = do_PUT = do_DELETE = _serve

    def log_message(self, format: str, *args: Any) -> None:
        """Keep test output quiet; the emulator records calls itself."""


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    emulator: Emulator


class Emulator:
    """Base for a loopback service: start/stop a server thread, record under a Condition, wait_for."""

    def __init__(self, *, host: str = "127.0.0.1", port: int = 0) -> None:
        self.host = host
        self.port = port
        self._cond = threading.Condition(threading.RLock())
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None
        self._release = threading.Event()

    # lifecycle -----------------------------------------------------------------------------------
    def start(self) -> str:
        """Bind (port 0 = any free port), serve in a daemon thread and return the base URL."""
        if self._server is None:
            server = _Server((self.host, self.port), _Handler)
            server.emulator = self
            self.port = server.server_address[1]
            self._server = server
            # a short poll interval keeps stop() (shutdown) fast: tests start and stop many servers
            self._thread = threading.Thread(
                target=server.serve_forever, args=(0.02,), name=type(self).__name__, daemon=True
            )
            self._thread.start()
        return self.base_url

    def stop(self) -> None:
        """Release any stalled reply, stop serving and free the port."""
        self.release()
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def __enter__(self) -> Self:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def origin(self) -> str:
        """scheme://host:port of the running server."""
        return f"http://{self.host}:{self.port}"

    @property
    def base_url(self) -> str:
        """What a client is configured with; subclasses add their path prefix."""
        return self.origin

    def release(self) -> None:
        """Let every stalled reply go now (and future stalls pass straight through until reset)."""
        self._release.set()

    def _stall_event(self) -> threading.Event:
        """A fresh release event for a new stall; earlier releases do not apply to it."""
        with self._cond:
            if self._release.is_set():
                self._release = threading.Event()
            return self._release

    # recording -----------------------------------------------------------------------------------
    def handle(self, request: Request) -> Response:
        """Serve one request; subclasses implement it."""
        raise NotImplementedError

    def _changed(self) -> None:
        """Wake every `wait_for`; call with the lock held after recording something."""
        with self._cond:
            self._cond.notify_all()

    def dump(self) -> str:
        """A readable account of what was recorded, for failure messages."""
        return ""

    def wait_for(self: E, predicate: Callable[[E], T | None], timeout: float = 10) -> T:
        """Block until `predicate(self)` returns something truthy, re-checked on every recorded change."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                result = predicate(self)
                if result:
                    return result
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise TimeoutError(
                        f"{type(self).__name__}: condition not met within {timeout}s; recorded:\n{self.dump()}"
                    )
                self._cond.wait(remaining)
