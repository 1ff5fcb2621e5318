"""A new session written in one step or not at all: the Lua script, the writes it carries, and Redis's clock.

A submission must either be stored and acknowledged, or leave nothing (sessions/store.py `SessionStore.start`):
the script checks a deadline against Redis's own clock, so a write that reaches a slow Redis after the request
path gave up on it is not made.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Literal

import redis

from sessions.session import FINAL_STATES, Session

#: Redis's clock is measured against ours at most this often (`ServerClock`).
CLOCK_CHECK_SECONDS = 300.0

#: Writes a new session and what lands with it, once: unless its deadline passed by Redis's clock (`late`), the
#: same bytes were submitted before (`replay`), or the submission claim names a session still open (`found`,
#: with it). ARGV: deadline in microseconds (0: none), the session JSON, its TTL, the session-key prefix, the
#: submission claim key ("" for none), the replay claim key (""), then the recorded writes, each as its length
#: and its words. KEYS: the session's key.
START_SCRIPT = """
local deadline = tonumber(ARGV[1])
if deadline > 0 then
  local now = redis.call('TIME')
  if tonumber(now[1]) * 1000000 + tonumber(now[2]) > deadline then return {'late'} end
end
if ARGV[6] ~= '' then
  local before = redis.call('GET', ARGV[6])
  if before then return {'replay', before} end
end
if ARGV[5] ~= '' then
  local first = redis.call('GET', ARGV[5])
  if first then
    local raw = redis.call('GET', ARGV[4] .. first)
    if raw and not FINAL[cjson.decode(raw)['state']] then return {'found', raw} end
  end
end
if not redis.call('SET', KEYS[1], ARGV[2], 'NX', 'EX', ARGV[3]) then return {'exists'} end
local i = 7
while i <= #ARGV do
  local n = tonumber(ARGV[i])
  redis.call(unpack(ARGV, i + 1, i + n))
  i = i + n + 1
end
return {'created'}
""".replace("FINAL", "({" + ", ".join(f"{s.value} = true" for s in sorted(FINAL_STATES)) + "})")


class StoreLateError(redis.TimeoutError):
    """A write reached Redis after its deadline, so it was not made (nothing of it is stored)."""


@dataclass(frozen=True)
class Started:
    """What `start` did: stored the new session, found the one an earlier submission stored, or saw a replay."""

    outcome: Literal["created", "found", "replay"]
    session: Session | None


class ScriptWrites:
    """Redis writes recorded in order, to be made inside one script (the `Writes` of sessions/user_index.py)."""

    def __init__(self) -> None:
        self.commands: list[list[str | bytes]] = []

    def set(self, name: str, value: str | bytes, *, ex: int | None = None) -> None:
        self.commands.append(["SET", name, value, *(["EX", str(ex)] if ex else [])])

    def sadd(self, name: str, *values: str) -> None:
        self.commands.append(["SADD", name, *values])

    def zadd(self, name: str, mapping: dict[str, float], *, lt: bool = False) -> None:
        pairs = [word for member, score in mapping.items() for word in (repr(float(score)), member)]
        self.commands.append(["ZADD", name, *(["LT"] if lt else []), *pairs])

    def zrem(self, name: str, *values: str) -> None:
        self.commands.append(["ZREM", name, *values])

    def expire(self, name: str, time: int) -> None:
        self.commands.append(["EXPIRE", name, str(time)])

    def words(self) -> list[str | bytes]:
        return [word for command in self.commands for word in (str(len(command)), *command)]


class ServerClock:
    """Redis's clock as an offset from ours, measured with TIME (the earliest it can be, so a deadline given
    to Redis is never later than the one meant); measured again every CLOCK_CHECK_SECONDS."""

    def __init__(self, redis_conn: redis.Redis) -> None:
        self._r = redis_conn
        self._offset: float | None = None
        self._measured = 0.0

    def on_server(self, epoch: float) -> float:
        """`epoch` (our clock) on Redis's clock."""
        if self._offset is None or time.monotonic() - self._measured > CLOCK_CHECK_SECONDS:
            seconds, micros = self._r.time()
            back = time.time()
            self._offset = seconds + micros / 1e6 - back  # the server read its clock before our `back`
            self._measured = time.monotonic()
        return epoch + self._offset
