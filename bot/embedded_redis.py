"""The Redis `demo` runs on: REDIS_URL when it answers, else one of its own on loopback (fakeredis, or redis-server).

`serve` and `worker` are separate processes, so even the embedded Redis must be reachable over TCP:
fakeredis's `TcpFakeServer` runs in a thread of the demo's process. RQ needs Lua (EVALSHA) for its
scheduler locks, which fakeredis only has with the `lupa` package; without them (both come with the
`demo` extra, `pip install -e '.[demo]'`) a private `redis-server` child is used when one is on PATH.
"""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import redis
from rq import Queue, Worker

from bot.localstack import Process, free_port
from workers.context import QUEUE_NAME

#: How long a configured Redis gets to answer a PING before the demo uses its own.
PING_TIMEOUT_SECONDS = 0.5


class NoRedis(RuntimeError):
    """Neither a configured Redis nor an embedded one can be had; the message says what to do."""


@dataclass
class DemoRedis:
    """The Redis the demo's processes share, what to tell the person about it, and how to stop it."""

    url: str
    description: str
    embedded: bool
    stop: Callable[[], None] = lambda: None


def redacted(url: str) -> str:
    """The URL without its password, fit to print."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    netloc = f"{parts.username or ''}:***@{host}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc))


def answers(url: str) -> bool:
    """Whether a Redis answers PING at `url` within PING_TIMEOUT_SECONDS."""
    try:
        conn = redis.Redis.from_url(
            url, socket_timeout=PING_TIMEOUT_SECONDS, socket_connect_timeout=PING_TIMEOUT_SECONDS
        )
        try:
            return bool(conn.ping())
        finally:
            conn.close()
    except (redis.RedisError, ValueError, OSError):
        return False


def workers_listening(url: str) -> int:
    """How many RQ workers already listen on the bot's queue there (a real one would post to the real Jira)."""
    conn = redis.Redis.from_url(url, socket_timeout=PING_TIMEOUT_SECONDS)
    try:
        return Worker.count(connection=conn, queue=Queue(QUEUE_NAME, connection=conn))
    finally:
        conn.close()


def demo_redis(environ: Mapping[str, str]) -> DemoRedis:
    """REDIS_URL when it answers and no bot worker listens on it; otherwise an embedded Redis, with the reason."""
    url = environ.get("REDIS_URL", "").strip()
    if not url:
        return embedded("REDIS_URL is not set")
    if not answers(url):
        return embedded(f"REDIS_URL ({redacted(url)}) does not answer")
    if listening := workers_listening(url):
        return embedded(
            f"{listening} postmortem-bot worker(s) already listen on REDIS_URL ({redacted(url)}) "
            "and would act on the demo's jobs with real credentials"
        )
    return DemoRedis(url, f"the Redis at {redacted(url)} (REDIS_URL)", embedded=False)


def embedded(reason: str) -> DemoRedis:
    """fakeredis over TCP in this process when it can run RQ (fakeredis and lupa installed), else a
    redis-server child."""
    if all(importlib.util.find_spec(name) is not None for name in ("fakeredis", "lupa")):
        return _fakeredis(reason)
    binary = shutil.which("redis-server")
    if binary is not None:
        return _redis_server(binary, reason)
    raise NoRedis(
        f"no Redis for the demo: {reason}; the embedded one needs the `demo` extra (fakeredis with "
        "lupa: pip install -e '.[demo]'), and no redis-server is on PATH. Install the extra, install "
        "redis-server, or set REDIS_URL to a Redis that answers."
    )


def _fakeredis(reason: str) -> DemoRedis:
    from fakeredis import TcpFakeServer  # the `demo` extra; checked by `embedded`

    server = TcpFakeServer(("127.0.0.1", 0))
    # A client blocked in BLPOP (the worker) keeps its handler thread waiting; do not join those on close.
    server.daemon_threads, server.block_on_close = True, False
    server.RequestHandlerClass = client_info_fixed(server.RequestHandlerClass)
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), name="fakeredis", daemon=True)
    thread.start()
    port = int(server.server_address[1])

    def stop() -> None:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)

    return DemoRedis(
        f"redis://127.0.0.1:{port}/0",
        f"an embedded Redis (fakeredis, in this process, 127.0.0.1:{port}) because {reason}",
        embedded=True,
        stop=stop,
    )


def client_info_fixed(handler: Callable[..., Any]) -> Callable[..., Any]:
    """fakeredis 2.41's TCP server reports CLIENT INFO `addr` as a Python tuple (with a space), which breaks
    redis-py's parser and with it RQ's `Worker()`: the server's own handler class, reporting `host:port` as
    Redis does. Built from the class the server was made with (no import of fakeredis's private modules)."""
    if not isinstance(handler, type):
        return handler
    base: Any = handler

    def setup(self: Any) -> None:
        base.setup(self)
        fix_client_info(self)

    return type(f"ClientInfoFixed{handler.__name__}", (handler,), {"setup": setup})


def fix_client_info(connection: Any) -> None:
    """Rewrite a tuple `addr`/`laddr` of a fakeredis connection's client info; anything else is left alone
    (a fakeredis that fixed it, or changed its internals, runs unpatched)."""
    info = getattr(getattr(connection, "current_client", None), "_client_info", None)
    if not isinstance(info, dict):
        return
    for key in ("addr", "laddr"):
        value = info.get(key)
        if isinstance(value, tuple) and len(value) == 2:
            info[key] = f"{value[0]}:{value[1]}"


def _redis_server(binary: str, reason: str) -> DemoRedis:
    port = free_port()
    popen = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL,
        text=True,
    )
    process = Process("redis-server", popen)
    process.start_reader()
    try:
        process.wait_for_line("Ready to accept connections", timeout=15)
    except RuntimeError as exc:
        process.stop()
        raise NoRedis(f"no Redis for the demo: {reason}, and a private redis-server did not start: {exc}") from None
    return DemoRedis(
        f"redis://127.0.0.1:{port}/0",
        f"an embedded Redis (a private redis-server child, 127.0.0.1:{port}; fakeredis with lupa "
        f"comes with the `demo` extra) because {reason}",
        embedded=True,
        stop=process.stop,
    )
