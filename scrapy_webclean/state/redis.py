"""``RedisBackend``: learned state in Redis, shared by every crawler process that names it,
on one server or on a Redis Cluster.

Layout (:mod:`scrapy_webclean.state.redislayout`), under a key prefix (the crawl uses
``<spider>:webclean:``): every table split into buckets, ``<prefix><table>:{b}``, by the
hash its keys already are, each bucket a hash:

* counters and values: ``HMGET``, ``HINCRBYFLOAT``, ``HSETNX`` on the keys' buckets;
* lists: each list a field of packed 64-bit integers (one Lua script a bucket appends a
  batch's items, honouring the cap);
* records: numbered by their bucket's counter, in the bucket's slot; a small Lua script
  does ``INCR`` and ``HSET`` at once, so a number is never visible without its record.

Everything a :meth:`RedisBackend.run` call holds goes out as one pipeline: one round trip
on one server, one round trip per node it touches on a cluster (redis-py's
``ClusterPipeline`` groups the commands by node; ``WEBCLEAN_REDIS_CLUSTER`` or a
``redis+cluster://`` URL). Values are bytes and numbers; nothing is pickled or unpickled.
Connection errors raise :class:`~scrapy_webclean.state.resilience.StateUnavailable`; the
retry policy is the caller's (see :mod:`scrapy_webclean.state.resilience`), and redis-py's
own retries are off, so a call never waits longer than the socket timeout.

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
from scrapy_webclean.state.redislayout import DEFAULT_BUCKETS, RedisLayout, bucket_of
from scrapy_webclean.state.resilience import StateUnavailable, ViaRun

_ADD_RECORD = """
local n = (redis.call('INCR', KEYS[1]) - 1) * tonumber(ARGV[2]) + tonumber(ARGV[3])
redis.call('HSET', KEYS[2], string.format('%d', n), ARGV[1])
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
#: A URL of this scheme names a Redis Cluster (``redis+cluster://host:port``).
CLUSTER_SCHEME = "redis+cluster://"
#: Defaults for the client (``REDIS_PARAMS`` overrides them).
DEFAULT_PARAMS: dict[str, Any] = {"socket_timeout": 5.0, "socket_connect_timeout": 2.0}

Decoder = Callable[[list[Any]], Any]


_PACK = struct.Struct("<q").pack


def _unpack(data: bytes) -> list[int]:
    return [v for (v,) in struct.iter_unpack("<q", data)]


def _key(key: Any) -> str:
    return key if isinstance(key, str) else str(key)


class _Pipeline:
    """A redis-py pipeline (a ``ClusterPipeline`` on a cluster) that keeps the first key
    of each command: on a cluster, a script goes straight to its key's node (redis-py's
    ``ClusterPipeline.eval`` takes no script, and ``EVAL`` through ``execute_command``
    would ask a node for its keys first), and :meth:`nodes` counts the round trips."""

    def __init__(self, client: Any, cluster: bool) -> None:
        self._client = client
        self._pipe = client.pipeline(transaction=False)
        self._cluster = cluster
        self._keys: list[Any] = []

    def __len__(self) -> int:
        return len(self._pipe)

    def __getattr__(self, name: str) -> Callable[..., Any]:
        command = getattr(self._pipe, name)

        def queue(key: Any, *args: Any, **kwargs: Any) -> Any:
            self._keys.append(key)
            return command(key, *args, **kwargs)

        return queue

    def script(self, body: str, keys: Sequence[Any], args: Sequence[Any]) -> None:
        """Queue a Lua script over ``keys`` (all in one slot) with ``args``."""
        self._keys.append(keys[0])
        if not self._cluster:
            self._pipe.eval(body, len(keys), *keys, *args)
            return
        node = self._client.nodes_manager.get_node_from_slot(self._client.keyslot(keys[0]))
        self._pipe.execute_command("EVAL", body, len(keys), *keys, *args, target_nodes=node)

    def nodes(self) -> int:
        """How many of the cluster's nodes the queued commands go to."""
        client = self._client
        manager = client.nodes_manager
        slots = {client.keyslot(key) for key in self._keys}
        return len({manager.get_node_from_slot(slot).name for slot in slots})

    def execute(self) -> list[Any]:
        return list(self._pipe.execute())

    def reset(self) -> None:
        self._pipe.reset()
        self._keys = []


class RedisBackend(ViaRun):
    """:class:`~scrapy_webclean.state.backend.StateBackend` in Redis."""

    name = "redis"
    remote = True

    def __init__(
        self,
        url: str,
        prefix: str = "webclean:",
        buckets: int = DEFAULT_BUCKETS,
        cluster: bool = False,
        **params: Any,
    ) -> None:
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
        self.layout = RedisLayout(prefix, buckets)
        if url.startswith(CLUSTER_SCHEME):
            cluster, url = True, "redis://" + url[len(CLUSTER_SCHEME) :]
        #: True for a Redis Cluster (``RedisCluster``: each pipeline grouped by node).
        self.cluster = cluster
        self.client: Any
        try:
            if cluster:
                from redis.cluster import RedisCluster

                self.client = RedisCluster.from_url(url, **options)
            else:
                self.client = redis.Redis.from_url(url, **options)
        except ValueError:  # (redis-py's message may quote a part of the password)
            raise ValueError(f"not a Redis URL: {self.url} ({REDIS_URL_FORM})") from None
        except redis.exceptions.RedisError as exc:  # (a cluster asks its nodes at once)
            raise StateUnavailable(f"Redis Cluster at {self.url} is unavailable: {exc}") from exc
        kwargs = getattr(getattr(self.client, "connection_pool", None), "connection_kwargs", {})
        #: Values to mask in error text: the password (and any secret-named client
        #: argument), from the URL or ``REDIS_PARAMS``.
        self._secrets = secret_values({**params, **kwargs})
        self._errors: tuple[type[BaseException], ...] = (
            redis.exceptions.ConnectionError,
            redis.exceptions.TimeoutError,
            redis.exceptions.ClusterDownError,
        )
        #: Round trips made: one a pipeline on a single node, one a node it touched on a
        #: cluster.
        self.round_trips = 0
        #: The bucket that takes each table's next record (this process's turn).
        self._next_bucket: dict[str, int] = {}
        self._layout_checked = False

    def __repr__(self) -> str:
        return f"RedisBackend({self.url!r}, prefix={self.prefix!r})"

    def run(self, ops: Sequence[Op]) -> list[Any]:
        if not self._layout_checked:
            self.check_layout()
        pipe = self.pipeline()
        plan: list[tuple[int, Decoder]] = []
        for name, *args in ops:
            if name not in OPERATIONS:
                raise ValueError(f"unknown state operation {name!r}")
            before = len(pipe)
            decode = getattr(self, "_" + name)(pipe, *args)
            plan.append((len(pipe) - before, decode))
        replies = self.execute(pipe)
        results = []
        at = 0
        for size, decode in plan:
            results.append(decode(replies[at : at + size]))
            at += size
        return results

    def pipeline(self) -> _Pipeline:
        """A pipeline of this backend's client that knows the keys it was given."""
        return _Pipeline(self.client, self.cluster)

    def execute(self, pipe: _Pipeline) -> list[Any]:
        """Send a pipeline (one round trip per node it touches) and return its replies."""
        if not len(pipe):
            return []
        trips = pipe.nodes() if self.cluster else 1
        try:
            replies: list[Any] = pipe.execute()
        except self._errors as exc:
            raise self._unavailable(exc) from exc
        finally:
            pipe.reset()
        self.round_trips += trips
        return replies

    def check_layout(self, migrating: bool = False) -> None:
        """Write the layout into an empty store, or check the one it holds (raises
        ``LayoutMismatch`` for another, or for the layout before buckets unless
        ``migrating``; ``StateUnavailable`` when Redis is away)."""
        try:
            self.layout.check(self.client, migrating)
        except self._errors as exc:
            raise self._unavailable(exc) from exc
        self._layout_checked = True

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
    # (each bucket of a table is a hash of its own: the commands of one operation go to
    # the buckets its keys are in, and the replies are put back in the keys' order)

    def _hmget(
        self,
        pipe: Any,
        table: str,
        keys: Sequence[Any],
        read: Callable[[Any], Any],
        records: bool = False,
    ) -> Decoder:
        """One ``HMGET`` a bucket the keys are in (a record's bucket is its number's),
        the replies read by ``read`` and put back in the keys' order."""
        if not keys:
            return lambda replies: []
        layout = self.layout
        groups = list(layout.by_bucket(keys, records).items())
        for bucket, positions in groups:
            pipe.hmget(layout.table(table, bucket), [_key(keys[at]) for at in positions])

        def decode(replies: list[Any]) -> list[Any]:
            out: list[Any] = [None] * len(keys)
            for (_, positions), values in zip(groups, replies, strict=True):
                for at, value in zip(positions, values, strict=True):
                    out[at] = read(value)
            return out

        return decode

    def _get_counts(self, pipe: Any, table: str, keys: Sequence[Any]) -> Decoder:
        return self._hmget(pipe, table, keys, lambda v: float(v) if v is not None else 0.0)

    def _add_counts(self, pipe: Any, table: str, deltas: Any) -> Decoder:
        for bucket, items in self.layout.items_by_bucket(deltas).items():
            name = self.layout.table(table, bucket)
            if len(items) == 1:
                key, delta = items[0]
                pipe.hincrbyfloat(name, _key(key), delta)
                continue
            args: list[Any] = []
            for key, delta in items:
                args += (_key(key), delta)
            pipe.script(_ADD_COUNTS, [name], args)
        return lambda replies: None

    def _count_keys(self, pipe: Any, table: str) -> Decoder:
        for bucket in range(self.layout.buckets):
            pipe.hlen(self.layout.table(table, bucket))
        return lambda replies: sum(int(r) for r in replies)

    def _keep_top(self, pipe: Any, table: str, keep: int) -> Decoder:
        # The top of a table is over all its buckets: read them all in this round trip,
        # drop the rest in a second one (keep_top is a periodic trim, never per page).
        names = [self.layout.table(table, bucket) for bucket in range(self.layout.buckets)]
        for name in names:
            pipe.hgetall(name)

        def decode(replies: list[Any]) -> None:
            entries = [
                (float(value), name, field)
                for name, held in zip(names, replies, strict=True)
                for field, value in held.items()
            ]
            if len(entries) <= keep:
                return
            entries.sort(key=lambda e: -e[0])
            drop: dict[str, list[bytes]] = {}
            for _, name, field in entries[keep:]:
                drop.setdefault(name, []).append(field)
            trim = self.pipeline()
            for name, fields in drop.items():
                trim.hdel(name, *fields)
            self.execute(trim)

        return decode

    def _get_values(self, pipe: Any, table: str, keys: Sequence[Any]) -> Decoder:
        return self._hmget(pipe, table, keys, lambda v: v)

    def _claim(self, pipe: Any, table: str, key: Any, value: bytes) -> Decoder:
        name, field = self.layout.table(table, bucket_of(key, self.layout.buckets)), _key(key)
        pipe.hsetnx(name, field, value)
        pipe.hget(name, field)
        # Once set a value never changes, so the HGET reads the winner's.
        return lambda replies: None if replies[0] else replies[1]

    def _append(self, pipe: Any, table: str, items: Any, cap: int) -> Decoder:
        for bucket, group in self.layout.items_by_bucket(items).items():
            args: list[Any] = [cap * 8]
            for key, value in group:
                args += (_key(key), _PACK(value))
            pipe.script(_APPEND, [self.layout.table(table, bucket)], args)
        return lambda replies: None

    def _get_lists(self, pipe: Any, table: str, keys: Sequence[int]) -> Decoder:
        return self._hmget(pipe, table, keys, lambda v: _unpack(v) if v else [])

    def _add_record(self, pipe: Any, table: str, value: bytes) -> Decoder:
        # The buckets take this process's records in turn: a lone writer numbers them
        # 0, 1, 2 ... (number = the bucket's count * buckets + the bucket).
        layout = self.layout
        bucket = self._next_bucket.get(table, 0)
        self._next_bucket[table] = (bucket + 1) % layout.buckets
        pipe.script(
            _ADD_RECORD,
            [layout.counter(table, bucket), layout.table(table, bucket)],
            [value, layout.buckets, bucket],
        )
        pipe.incr(layout.total(table))
        return lambda replies: int(replies[0])

    def _get_records(self, pipe: Any, table: str, numbers: Sequence[int]) -> Decoder:
        return self._hmget(pipe, table, numbers, lambda v: v, records=True)

    def _set_record(self, pipe: Any, table: str, number: int, value: bytes) -> Decoder:
        pipe.hset(self.layout.table(table, self.layout.record_bucket(number)), str(number), value)
        return lambda replies: None

    def _count_records(self, pipe: Any, table: str) -> Decoder:
        pipe.get(self.layout.total(table))
        return lambda replies: int(replies[0]) if replies[0] is not None else 0
