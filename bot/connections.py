"""What one `serve` process lets a client hold: open connections, and the time to send one whole request.

uvicorn has no deadline for a request's headers or body and no cap on open connections (its
`limit_concurrency` answers 503 only once a request's headers have arrived), so `serve` builds each
connection with `GuardedH11Protocol`: a connection past `ServerLimits.max_connections` is answered 503 and
closed at once; a request not received whole within `ServerLimits.read_seconds` of its first byte is
answered 408 and closed.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import ClassVar

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

#: The bytes one request's line and headers may take (h11 buffers no more while they are incomplete).
MAX_HEADER_BYTES = 8 * 1024
#: How long an idle keep-alive connection stays open after a response.
KEEP_ALIVE_SECONDS = 5


@dataclass(frozen=True)
class ServerLimits:
    """What one `serve` process lets its clients hold (POSTMORTEM_HTTP_*, docs/configuration.md)."""

    #: Open connections; one more is answered 503 and closed before anything is read from it.
    max_connections: int = 1000
    #: Seconds from a request's first byte (a new connection's opening) until its body is whole.
    read_seconds: float = 10.0


def _raw_response(status: int, reason: bytes, text: bytes) -> bytes:
    head = b"HTTP/1.1 %d %s\r\ncontent-type: text/plain; charset=utf-8\r\ncontent-length: %d\r\n" % (
        status,
        reason,
        len(text),
    )
    return head + b"connection: close\r\n\r\n" + text


_TOO_MANY = _raw_response(503, b"Service Unavailable", b"too many connections")
_TOO_SLOW = _raw_response(408, b"Request Timeout", b"request not received in time")


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol plus what uvicorn lacks: a deadline for reading each whole request (line,
    headers and body; uvicorn has none, only a keep-alive timeout between requests) and a cap on open
    connections (uvicorn's `limit_concurrency` answers 503 only once a request's headers have arrived)."""

    limits: ClassVar[ServerLimits] = ServerLimits()

    _refused = False
    _deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        if len(self.connections) >= self.limits.max_connections:
            self._refused = True
            assert isinstance(transport, asyncio.WriteTransport)
            transport.write(_TOO_MANY)
            transport.close()
            return
        super().connection_made(transport)  # type: ignore[arg-type]
        self._follow()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_deadline()
        if not self._refused:
            super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._refused:
            return
        super().data_received(data)
        self._follow()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._follow()

    def _follow(self) -> None:
        """Run the deadline while a request is being received (or a new connection has sent nothing yet);
        between requests uvicorn's keep-alive timeout closes an idle connection instead."""
        if self.transport.is_closing():
            self._stop_deadline()
        elif self.conn.their_state in (h11.IDLE, h11.SEND_BODY) and self.timeout_keep_alive_task is None:
            if self._deadline is None:
                self._deadline = self.loop.call_later(self.limits.read_seconds, self._expired)
        else:
            self._stop_deadline()

    def _stop_deadline(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _expired(self) -> None:
        self._deadline = None
        if self.transport.is_closing():
            return
        if self.cycle is None or self.cycle.response_complete or not self.cycle.response_started:
            self.transport.write(_TOO_SLOW)
        self.transport.close()


def server_protocol(limits: ServerLimits) -> type[GuardedH11Protocol]:
    """The protocol class uvicorn builds each connection with (`http=`), carrying these limits."""
    return type("LimitedH11Protocol", (GuardedH11Protocol,), {"limits": limits})
