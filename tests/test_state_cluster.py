"""The Redis state on a real 3-master Redis Cluster (``conftest.redis_cluster``): what only
a cluster can show. The keys of a table spread over the masters; one ``run`` is one round
trip per node; the answers are the in-memory reference's; a store keeps its bucket count.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from scrapy_webclean.state import MemoryBackend
from scrapy_webclean.state.redis import RedisBackend
from scrapy_webclean.state.redislayout import LayoutMismatch
from tests.conftest import RedisClusterServers

PREFIX = "test:"


@pytest.fixture()
def cluster_backend(redis_cluster_url: str) -> Iterator[RedisBackend]:
    backend = RedisBackend(redis_cluster_url, prefix=PREFIX, cluster=True)
    yield backend
    backend.close()


def hashes(rng: random.Random, count: int) -> list[int]:
    """Distinct signed 64-bit keys, as the models' sentence and band hashes are."""
    keys: dict[int, None] = {}
    while len(keys) < count:
        keys[rng.getrandbits(64) - 2**63] = None
    return list(keys)


# -- (a) a table's keys spread over every master ----------------------------------------


def keys_per_node(cluster: RedisClusterServers, pattern: str) -> tuple[list[int], int]:
    """How many keys matching ``pattern`` each node holds (asked of the node's own
    client), and how many hash fields they hold in all."""
    counts, fields = [], 0
    for client in cluster.node_clients():
        with client:
            keys = list(client.scan_iter(match=pattern, count=1000))
            counts.append(len(keys))
            pipe = client.pipeline(transaction=False)
            for key in keys:
                pipe.hlen(key)
            fields += sum(pipe.execute())
    return counts, fields


def assert_spread(counts: list[int]) -> None:
    total = sum(counts)
    assert len(counts) == 3 and all(counts), counts
    assert max(counts) <= 0.45 * total, counts


def test_a_table_s_keys_spread_over_all_three_masters(
    cluster_backend: RedisBackend, redis_cluster: RedisClusterServers
) -> None:
    rng = random.Random(1)
    keys = hashes(rng, 3000)
    for start in range(0, len(keys), 500):
        cluster_backend.add_counts("c", [(key, 1.0) for key in keys[start : start + 500]])
    numbers: list[int] = []
    for start in range(0, 3000, 300):
        numbers += cluster_backend.run(
            [("add_record", "r", f"record {n}".encode()) for n in range(start, start + 300)]
        )
    assert numbers == list(range(3000))

    counters, counted = keys_per_node(redis_cluster, f"{PREFIX}c:{{*")
    assert counted == 3000
    assert_spread(counters)
    records, stored = keys_per_node(redis_cluster, f"{PREFIX}r:{{*")
    assert stored == 3000
    assert_spread(records)
    # And the client reads them all back, wherever they are.
    assert cluster_backend.get_counts("c", keys) == [1.0] * 3000
    assert cluster_backend.count_keys("c") == 3000 and cluster_backend.count_records("r") == 3000
    got = cluster_backend.get_records("r", [0, 1499, 2999, 3000])
    assert got == [b"record 0", b"record 1499", b"record 2999", None]


# -- (b) one run: one round trip per node ------------------------------------------------


def wide_batch(rng: random.Random, round_: int) -> list[tuple[Any, ...]]:
    """One run's operations, their keys in hundreds of buckets (of every node)."""
    keys = hashes(rng, 200)
    return [
        ("add_counts", "c", [(key, 1.0) for key in keys] + [(keys[0], 0.5)]),
        ("get_counts", "c", [*keys[:100], f"site-{round_}.example"]),
        ("claim", "v", keys[0], b"first"),
        ("claim", "v", keys[0], b"second"),
        ("get_values", "v", keys[:50]),
        ("append", "l", [(key, n) for n, key in enumerate(keys)] + [(keys[1], -1)], 4),
        ("get_lists", "l", keys[:100]),
        *[("add_record", "r", bytes([round_, n])) for n in range(20)],
        ("get_records", "r", list(range(0, 20 * round_ + 20, 3))),
        ("count_records", "r"),
        ("count_keys", "c"),
    ]


class Sends:
    """Every packed write redis-py sends, by server (``host:port``)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        import redis.connection

        self.by_node: Counter[str] = Counter()
        original: Any = redis.connection.AbstractConnection.send_packed_command

        def counted(connection: Any, *args: Any, **kwargs: Any) -> Any:
            self.by_node[f"{connection.host}:{connection.port}"] += 1
            return original(connection, *args, **kwargs)

        monkeypatch.setattr(redis.connection.AbstractConnection, "send_packed_command", counted)


def run_wide(
    backend: RedisBackend, monkeypatch: pytest.MonkeyPatch
) -> list[tuple[int, Counter[str]]]:
    """Warm up (the layout check, a connection to each node), then run wide batches:
    each run's growth of ``round_trips`` and the writes it sent, per node; and check the
    answers against the in-memory reference."""
    reference = MemoryBackend()
    rng = random.Random(2)
    warm = wide_batch(rng, 0)
    assert backend.run(warm) == reference.run(warm)
    sends = Sends(monkeypatch)
    seen = []
    for round_ in range(1, 6):
        batch = wide_batch(rng, round_)
        before = backend.round_trips
        sends.by_node.clear()
        assert backend.run(batch) == reference.run(batch)
        seen.append((backend.round_trips - before, Counter(sends.by_node)))
    return seen


def test_one_run_is_one_round_trip_per_node(
    cluster_backend: RedisBackend,
    redis_cluster: RedisClusterServers,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    nodes = {f"127.0.0.1:{port}" for port in redis_cluster.ports}
    for trips, sent in run_wide(cluster_backend, monkeypatch):
        # The batch touches every master, each once: one write per node, and the
        # backend's count of round trips says so.
        assert set(sent) == nodes and all(n == 1 for n in sent.values()), sent
        assert 1 <= trips <= 3 and trips == len(sent), (trips, sent)


def test_one_run_is_one_round_trip_on_one_server(
    redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    backend = RedisBackend(redis_url, prefix=PREFIX)
    try:
        for trips, sent in run_wide(backend, monkeypatch):
            assert trips == 1 and sum(sent.values()) == 1, (trips, sent)
    finally:
        backend.close()


# -- (c) the same answers as the in-memory reference -------------------------------------


def mixed_stream(rng: random.Random, length: int) -> list[tuple[Any, ...]]:
    """Counts, claims, capped appends, records and trims, each drawn at random. Deltas
    are exact in binary (so Redis's long doubles and Python's floats agree); the table
    that is trimmed gets each power of two once, so no two of its counters tie."""
    ints: list[Any] = [*hashes(rng, 60), 0, 1, -1, 2**63 - 1, -(2**63)]
    strs: list[Any] = [*(f"site-{n}.example" for n in range(20)), "广告", "表 1", "a:b{c}"]
    pools: dict[str, list[Any]] = {"ci": ints, "cs": strs, "top": ints}
    powers = iter(rng.sample(range(52), 52))
    records = 0
    ops: list[tuple[Any, ...]] = []
    while len(ops) < length:
        kind = rng.choice("cccgvvlllrrrt")
        if kind == "c":
            table = rng.choice(["ci", "cs"])
            deltas = [
                (rng.choice(pools[table]), rng.choice([1.0, 2.5, -0.5, 0.25]))
                for _ in range(rng.randint(1, 30))
            ]
            ops.append(("add_counts", table, deltas))
        elif kind == "g":
            table = rng.choice(["ci", "cs", "top"])
            ops.append(("get_counts", table, rng.sample(pools[table], rng.randint(1, 15))))
            ops.append(("count_keys", table))
        elif kind == "v":
            ops.append(("claim", "v", rng.choice(ints[:20]), bytes(rng.sample(range(256), 4))))
            ops.append(("get_values", "v", rng.sample(ints[:25], 8)))
        elif kind == "l":
            items = [(rng.choice(ints[:30]), rng.choice(ints)) for _ in range(rng.randint(1, 20))]
            ops.append(("append", "l", items, rng.choice([1, 3, 5])))
            ops.append(("get_lists", "l", rng.sample(ints[:35], 10)))
        elif kind == "r":
            if records and rng.random() < 0.3:
                ops.append(("set_record", "r", rng.randrange(records), b"again %d" % len(ops)))
            else:
                ops.append(("add_record", "r", rng.randbytes(rng.randint(0, 40))))
                records += 1
            ops.append(("get_records", "r", [rng.randrange(-1, records + 3) for _ in range(6)]))
            ops.append(("count_records", "r"))
        else:
            power = next(powers, None)
            if power is None:
                continue
            ops.append(("add_counts", "top", [(rng.choice(ints), float(2**power))]))
            if rng.random() < 0.25:
                ops.append(("keep_top", "top", rng.randint(3, 12)))
                ops.append(("get_counts", "top", ints))
    return ops


@pytest.mark.parametrize("buckets", [1024, 5])
def test_a_mixed_stream_answers_as_in_memory(redis_cluster_url: str, buckets: int) -> None:
    backend = RedisBackend(redis_cluster_url, prefix=PREFIX, buckets=buckets, cluster=True)
    reference = MemoryBackend()
    rng = random.Random(3)
    ops = mixed_stream(rng, 400)
    try:
        # One operation at a time, then in runs of a few: answered as in memory, op by op.
        at = 0
        while at < len(ops):
            size = 1 if at < len(ops) // 2 else rng.randint(1, 8)
            batch = ops[at : at + size]
            got, expected = backend.run(batch), reference.run(batch)
            for op, answer, wanted in zip(batch, got, expected, strict=True):
                assert answer == wanted, (at, op[:2])
            at += size
    finally:
        backend.close()
    kinds = {op[0] for op in ops}
    assert kinds == {
        "add_counts", "get_counts", "count_keys", "keep_top", "claim", "get_values",
        "append", "get_lists", "add_record", "get_records", "set_record", "count_records",
    }  # fmt: skip


# -- (d, e) a store keeps the bucket count it was written with ---------------------------


def assert_keeps_its_buckets(url: str, cluster: bool) -> None:
    first = RedisBackend(url, prefix=PREFIX, buckets=64, cluster=cluster)
    other = RedisBackend(url, prefix=PREFIX, buckets=128, cluster=cluster)
    again = RedisBackend(url, prefix=PREFIX, buckets=64, cluster=cluster)
    fresh = RedisBackend(url, prefix="other:", buckets=128, cluster=cluster)
    try:
        assert first.claim("v", 7, b"kept") is None
        with pytest.raises(LayoutMismatch, match="WEBCLEAN_REDIS_BUCKETS") as refused:
            other.get_values("v", [7])
        assert "128" in str(refused.value) and "64" in str(refused.value)
        # Refused again on the next call; the store's own count still reads the store.
        with pytest.raises(LayoutMismatch, match="WEBCLEAN_REDIS_BUCKETS"):
            other.claim("v", 8, b"lost")
        assert again.get_values("v", [7, 8]) == [b"kept", None]
        assert first.claim("v", 7, b"later") == b"kept"
        # Another prefix is another store, of any count.
        assert fresh.claim("v", 7, b"new") is None
    finally:
        for backend in (first, other, again, fresh):
            backend.close()


def test_a_cluster_store_refuses_another_bucket_count(redis_cluster_url: str) -> None:
    assert_keeps_its_buckets(redis_cluster_url, cluster=True)


def test_a_single_server_store_refuses_another_bucket_count(redis_url: str) -> None:
    assert_keeps_its_buckets(redis_url, cluster=False)
