"""``RedisBackend``: learned state in Redis, shared by every crawler process that names it.

Layout, under a key prefix (the crawl uses ``<spider>:webclean:``):

* counters and values: one hash per table (``HMGET``, ``HINCRBYFLOAT``, ``HSETNX``);
* lists: one hash per table, each list a field of packed 64-bit integers (one Lua script
  appends a whole batch, honouring the cap);
* records: one hash per table, numbered by a counter; a small Lua script does ``INCR`` and
  ``HSET`` at once, so a number is never visible without its record.

Everything a :meth:`RedisBackend.run` call holds goes out as one pipeline: one round trip.
Values are bytes and numbers; nothing is pickled or unpickled. Connection errors raise
:class:`~scrapy_webclean.state.resilience.StateUnavailable`; the retry policy is the
caller's (see :mod:`scrapy_webclean.state.resilience`), and redis-py's own retries are off,
so a call never waits longer than the socket timeout.

The URL's password never leaves the client: :attr:`RedisBackend.url`, its ``repr`` and
every error name the server by the URL redacted (:func:`scrapy_webclean.redact.redact_url`),
and the text of redis-py's errors (``host:port``, never the password) is masked of the
password too, from the URL or ``REDIS_PARAMS``, should a future version print it.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Sequence
from typing import Any

from scrapy_webclean.redact import redact_text, redact_url, secret_values
from scrapy_webclean.state.backend import OPERATIONS, Op
from scrapy_webclean.state.resilience import StateUnavailable, ViaRun

_ADD_RECORD = """
local n = redis.call('INCR', KEYS[1]) - 1
redis.call('HSET', KEYS[2], n, ARGV[1])
return n
"""
_ADD_COUNTS = """
for i = 1, #ARGV, 2 do redis.call('HINCRBYFLOAT', KEYS[1], ARGV[i], ARGV[i + 1]) end
return 0
"""
_APPEND = """
local cap = tonumber(ARGV[1])
for i = 2, #ARGV, 2 do
  local held = redis.call('HGET', KEYS[1], ARGV[i])
  if not held then
    redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1])
  elseif #held < cap then
    redis.call('HSET', KEYS[1], ARGV[i], held .. ARGV[i + 1])
  end
end
return 0
"""
_KEEP_TOP = """
local flat = redis.call('HGETALL', KEYS[1])
local keep = tonumber(ARGV[1])
local n = #flat / 2
if n <= keep then return 0 end
local entries = {}
for i = 1, #flat, 2 do entries[#entries + 1] = {flat[i], tonumber(flat[i + 1])} end
table.sort(entries, function(a, b) return a[2] > b[2] end)
for i = keep + 1, n do redis.call('HDEL', KEYS[1], entries[i][1]) end
return n - keep
"""

#: What a Redis URL looks like (said when one is not).
REDIS_URL_FORM = (
    "redis://[[user]:password@]host[:port][/db] or unix://[[user]:password@]/path; "
    "'@', '/', '?' and '#' in a password percent-encoded"
)
#: Defaults for the client (``REDIS_PARAMS`` overrides them).
DEFAULT_PARAMS: dict[str, Any] = {"socket_timeout": 5.0, "socket_connect_timeout": 2.0}

Decoder = Callable[[list[Any]], Any]


_PACK = struct.Struct("<q").pack


def _unpack(data: bytes) -> list[int]:
    return [v for (v,) in struct.iter_unpack("<q", data)]


def _key(key: Any) -> str:
    return key if isinstance(key, str) else str(key)


class RedisBackend(ViaRun):
    """:class:`~scrapy_webclean.state.backend.StateBackend` in Redis."""

    name = "redis"
    remote = True

    def __init__(self, url: str, prefix: str = "webclean:", **params: Any) -> None:
        import redis
        from redis.backoff import NoBackoff
        from redis.retry import Retry

        options = {**DEFAULT_PARAMS, **params}
        options.pop("redis_cls", None)  # a scrapy-redis setting, not a client argument
        options["retry"] = Retry(NoBackoff(), 0)
        options["decode_responses"] = False
        #: The server's URL with its password masked (the only form kept, to show).
        self.url = redact_url(url)
        self.prefix = prefix
        try:
            self.client = redis.Redis.from_url(url, **options)
        except ValueError:  # (redis-py's message may quote a part of the password)
            raise ValueError(f"not a Redis URL: {self.url} ({REDIS_URL_FORM})") from None
        kwargs = self.client.connection_pool.connection_kwargs
        #: Values to mask in error text: the password (and any secret-named client
        #: argument), from the URL or ``REDIS_PARAMS``.
        self._secrets = secret_values({**params, **kwargs})
        self._errors: tuple[type[BaseException], ...] = (
            redis.exceptions.ConnectionError,
            redis.exceptions.TimeoutError,
        )
        #: Pipelines sent (each one round trip).
        self.round_trips = 0

    def __repr__(self) -> str:
        return f"RedisBackend({self.url!r}, prefix={self.prefix!r})"

    def run(self, ops: Sequence[Op]) -> list[Any]:
        pipe = self.client.pipeline(transaction=False)
        plan: list[tuple[int, Decoder]] = []
        for name, *args in ops:
            if name not in OPERATIONS:
                raise ValueError(f"unknown state operation {name!r}")
            before = len(pipe)
            decode = getattr(self, "_" + name)(pipe, *args)
            plan.append((len(pipe) - before, decode))
        replies: list[Any] = []
        if len(pipe):
            try:
                replies = pipe.execute()
            except self._errors as exc:
                raise self._unavailable(exc) from exc
            finally:
                pipe.reset()
            self.round_trips += 1
        results = []
        at = 0
        for size, decode in plan:
            results.append(decode(replies[at : at + size]))
            at += size
        return results

    def ping(self) -> bool:
        """True when the server answers (raises ``StateUnavailable`` when it does not)."""
        try:
            return bool(self.client.ping())
        except self._errors as exc:
            raise self._unavailable(exc) from exc

    def _unavailable(self, exc: BaseException) -> StateUnavailable:
        """The error for a server that does not answer: its redacted URL and redis-py's
        reason, masked of every secret this client holds."""
        reason = redact_text(str(exc), self._secrets)
        return StateUnavailable(f"Redis at {self.url} is unavailable: {reason}")

    def delete_all(self) -> int:
        """Delete every key under this backend's prefix (tests, benchmarks, a fresh crawl)."""
        deleted = 0
        batch: list[bytes] = []
        for key in self.client.scan_iter(match=self.prefix + "*", count=1000):
            batch.append(key)
            if len(batch) >= 1000:
                deleted += int(self.client.unlink(*batch))
                batch = []
        if batch:
            deleted += int(self.client.unlink(*batch))
        return deleted

    def flush(self) -> None:
        pass  # every pipeline is written when run returns

    def close(self) -> None:
        self.client.close()

    # -- one pipeline's commands per operation, and how to read their replies ----------

    def _get_counts(self, pipe: Any, table: str, keys: Sequence[Any]) -> Decoder:
        if not keys:
            return lambda replies: []
        pipe.hmget(self.prefix + table, [_key(k) for k in keys])
        return lambda replies: [float(v) if v is not None else 0.0 for v in replies[0]]

    def _add_counts(self, pipe: Any, table: str, deltas: Any) -> Decoder:
        args: list[Any] = []
        for key, delta in deltas:
            args += (_key(key), delta)
        if args:
            pipe.eval(_ADD_COUNTS, 1, self.prefix + table, *args)
        return lambda replies: None

    def _count_keys(self, pipe: Any, table: str) -> Decoder:
        pipe.hlen(self.prefix + table)
        return lambda replies: int(replies[0])

    def _keep_top(self, pipe: Any, table: str, keep: int) -> Decoder:
        pipe.eval(_KEEP_TOP, 1, self.prefix + table, keep)
        return lambda replies: None

    def _get_values(self, pipe: Any, table: str, keys: Sequence[Any]) -> Decoder:
        if not keys:
            return lambda replies: []
        pipe.hmget(self.prefix + table, [_key(k) for k in keys])
        return lambda replies: list(replies[0])

    def _claim(self, pipe: Any, table: str, key: Any, value: bytes) -> Decoder:
        name, field = self.prefix + table, _key(key)
        pipe.hsetnx(name, field, value)
        pipe.hget(name, field)
        # Once set a value never changes, so the HGET reads the winner's.
        return lambda replies: None if replies[0] else replies[1]

    def _append(self, pipe: Any, table: str, items: Any, cap: int) -> Decoder:
        args: list[Any] = [cap * 8]
        for key, value in items:
            args += (_key(key), _PACK(value))
        if len(args) > 1:
            pipe.eval(_APPEND, 1, self.prefix + table, *args)
        return lambda replies: None

    def _get_lists(self, pipe: Any, table: str, keys: Sequence[int]) -> Decoder:
        if not keys:
            return lambda replies: []
        pipe.hmget(self.prefix + table, [_key(k) for k in keys])
        return lambda replies: [_unpack(v) if v else [] for v in replies[0]]

    def _add_record(self, pipe: Any, table: str, value: bytes) -> Decoder:
        name = self.prefix + table
        pipe.eval(_ADD_RECORD, 2, name + ":n", name, value)
        return lambda replies: int(replies[0])

    def _get_records(self, pipe: Any, table: str, numbers: Sequence[int]) -> Decoder:
        if not numbers:
            return lambda replies: []
        pipe.hmget(self.prefix + table, [str(n) for n in numbers])
        return lambda replies: list(replies[0])

    def _set_record(self, pipe: Any, table: str, number: int, value: bytes) -> Decoder:
        pipe.hset(self.prefix + table, str(number), value)
        return lambda replies: None

    def _count_records(self, pipe: Any, table: str) -> Decoder:
        pipe.get(self.prefix + table + ":n")
        return lambda replies: int(replies[0]) if replies[0] is not None else 0
