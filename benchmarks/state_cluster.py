"""The near-duplicate index on one Redis node and on a 3-master Redis Cluster, from 1, 2
and 4 crawler processes: what the sharded layout costs and where it is bounded.

Usage::

    python benchmarks/state_cluster.py ../shared/datasets [--docs 1000000] [--batch 64]
        [--processes 1,2,4] [--buckets 128] [--out FILE.md] [--json FILE]

The argument is the shared ``datasets/`` folder, read only for real sentences: the
stream of ``state.py`` (``state_index.make_stream``: ~1,000-character documents, 5% exact
and 5% near copies). Private servers on loopback ports, no persistence: one
``redis-server``, and three with ``cluster-enabled yes`` joined by ``redis-cli --cluster
create``; each run starts on an empty store.

A run of P processes: P child processes, process p checking and adding documents p, p +
P, p + 2P ... in ``check_many`` batches of ``--batch`` (the crawl's dedup batch), all at
once. Measured:

* docs/s: the documents over the wall time from the first process's start to the last
  one's end; round trips per document (``RedisBackend.round_trips``: one a pipeline on
  the node, one a node a pipeline touches on the cluster);
* Redis memory per document, in total and per node (``INFO memory`` used_memory, after
  minus before), the share of the busiest node against an even split, and the largest
  single key (``MEMORY USAGE`` of every key, per node) against the whole index;
* Redis CPU per document (``INFO cpu``, user + sys, summed over the nodes);
* the answers of the one-process runs, document by document, against the memory
  backend's (``NearDuplicateIndex`` in this process, the same stream).

The machine's cores run the servers and the processes alike: the report says what
bounds the figures and what the per-document costs predict for more cores.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from state_crawl import private_redis
from state_index import PREFIX, make_stream

from scrapy_webclean.dedup import NearDuplicateIndex
from scrapy_webclean.state import BackendDedupStore
from scrapy_webclean.state.redis import RedisBackend
from scrapy_webclean.state.redislayout import DEFAULT_BUCKETS

DEFAULT_DOCS = 1_000_000
#: Nodes of the benchmark's cluster.
CLUSTER_NODES = 3
#: The targets of issue 57.
LARGEST_KEY_SHARE = 0.01
NODE_BALANCE = 0.10
CLUSTER_CPU_EXTRA = 0.10
TWO_PROCESS_SPEEDUP = 1.5


# -- servers -----------------------------------------------------------------------------


def _free_port_pair() -> int:
    """A free port whose cluster bus port (+10000) is free too."""
    import socket

    while True:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = int(probe.getsockname()[1])
        if port + 10000 > 65535:
            continue
        with socket.socket() as bus:
            try:
                bus.bind(("127.0.0.1", port + 10000))
            except OSError:
                continue
        return port


@contextmanager
def private_cluster(folder: Path) -> Iterator[tuple[str, list[str]]]:
    """Three ``redis-server`` masters joined into a cluster; yields the cluster URL and
    each node's plain URL, and stops them on exit."""
    import redis

    binary = shutil.which("redis-server") or "/usr/bin/redis-server"
    ports = [_free_port_pair() for _ in range(CLUSTER_NODES)]
    processes = []
    try:
        for port in ports:
            command = [
                binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                "--appendonly", "no", "--dir", str(folder), "--cluster-enabled", "yes",
                "--cluster-config-file", f"nodes-{port}.conf", "--cluster-node-timeout", "5000",
            ]  # fmt: skip
            log = (folder / f"redis-{port}.log").open("wb")
            processes.append(subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT))
        urls = [f"redis://127.0.0.1:{port}/0" for port in ports]
        for url in urls:
            client = redis.Redis.from_url(url)
            deadline = time.monotonic() + 10
            while True:
                try:
                    client.ping()
                    break
                except redis.exceptions.ConnectionError:
                    if time.monotonic() > deadline:
                        raise RuntimeError(f"redis-server at {url} did not start") from None
                    time.sleep(0.05)
        subprocess.run(
            ["redis-cli", "--cluster", "create", *(f"127.0.0.1:{p}" for p in ports),
             "--cluster-replicas", "0", "--cluster-yes"],
            check=True, capture_output=True, timeout=60,
        )  # fmt: skip
        deadline = time.monotonic() + 30
        for url in urls:
            client = redis.Redis.from_url(url)
            while client.cluster("info").get("cluster_state") != "ok":
                if time.monotonic() > deadline:
                    raise RuntimeError("the cluster did not come up")
                time.sleep(0.1)
        yield f"redis+cluster://127.0.0.1:{ports[0]}", urls
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


# -- runs --------------------------------------------------------------------------------


def _child(args: tuple[str, str, int, int, int, int, int, Any, Any]) -> None:
    data, url, buckets, count, processes, part, batch, out, go = args
    stream = make_stream(Path(data))
    backend = RedisBackend(url, PREFIX, buckets=buckets)
    index = NearDuplicateIndex(store=BackendDedupStore(backend))
    mine = list(range(part, count, processes))
    answers: dict[int, str | None] = {}
    out.put("ready")
    go.wait()  # (all processes loaded: the clock starts for all at once)
    started = time.perf_counter()
    for at in range(0, len(mine), batch):
        chunk = mine[at : at + batch]
        items = [(str(i), stream.text(i), False) for i in chunk]
        for i, match in zip(chunk, index.check_many(items), strict=True):
            answers[i] = match.key if match is not None else None
    out.put(
        {
            "part": part,
            "wall": time.perf_counter() - started,
            "round_trips": backend.round_trips,
            "answers": answers if processes == 1 else {},
        }
    )
    backend.close()


def _node_figures(urls: Sequence[str]) -> list[dict[str, float]]:
    import redis

    figures = []
    for url in urls:
        client = redis.Redis.from_url(url)
        memory = client.info("memory")
        cpu = client.info("cpu")
        figures.append(
            {
                "memory": float(memory["used_memory"]),
                "cpu": float(cpu["used_cpu_user"]) + float(cpu["used_cpu_sys"]),
            }
        )
        client.close()
    return figures


def _largest_key(urls: Sequence[str]) -> tuple[int, str]:
    import redis

    best = (0, "")
    for url in urls:
        client = redis.Redis.from_url(url)
        keys = list(client.scan_iter(match=PREFIX + "*", count=1000))
        pipe = client.pipeline(transaction=False)
        for key in keys:
            pipe.memory_usage(key, samples=0)
        for key, size in zip(keys, pipe.execute(), strict=True):
            if size is not None and size > best[0]:
                best = (int(size), key.decode("utf-8", "replace"))
        client.close()
    return best


def _flush(urls: Sequence[str]) -> None:
    import redis

    for url in urls:
        client = redis.Redis.from_url(url)
        client.flushall()
        client.close()


def run(
    data: Path, name: str, url: str, nodes: Sequence[str], count: int, processes: int,
    batch: int, buckets: int,
) -> dict[str, Any]:  # fmt: skip
    """One run of ``processes`` processes on an empty store."""
    _flush(nodes)
    before = _node_figures(nodes)
    context = multiprocessing.get_context("spawn")
    out, go = context.Queue(), context.Event()
    workers = [
        context.Process(
            target=_child,
            args=((str(data), url, buckets, count, processes, p, batch, out, go),),
        )
        for p in range(processes)
    ]
    for worker in workers:
        worker.start()
    for _ in workers:
        assert out.get() == "ready"
    started = time.perf_counter()
    go.set()
    results = [out.get() for _ in workers]
    for worker in workers:
        worker.join()
    wall = time.perf_counter() - started
    after = _node_figures(nodes)
    largest, largest_name = _largest_key(nodes)
    memory = [a["memory"] - b["memory"] for a, b in zip(after, before, strict=True)]
    cpu = sum(a["cpu"] - b["cpu"] for a, b in zip(after, before, strict=True))
    answers: dict[int, str | None] = {}
    for result in results:
        answers.update(result["answers"])
    total_memory = sum(memory)
    print(
        f"{name}, {processes} process(es): {count / wall:,.0f} docs/s, "
        f"{total_memory / count:,.0f} B/doc",
        file=sys.stderr,
        flush=True,
    )
    return {
        "store": name,
        "processes": processes,
        "docs": count,
        "wall_seconds": wall,
        "docs_per_second": count / wall,
        "round_trips_per_doc": sum(r["round_trips"] for r in results) / count,
        "redis_bytes_per_doc": total_memory / count,
        "node_bytes_per_doc": [m / count for m in memory],
        "busiest_node_vs_even": max(memory) / (total_memory / len(memory)) - 1 if memory else 0,
        "largest_key_bytes": largest,
        "largest_key": largest_name,
        "largest_key_share": largest / total_memory if total_memory else 0.0,
        "redis_cpu_seconds": cpu,
        "redis_cpu_us_per_doc": cpu / count * 1e6,
        "answers": answers,
    }


def memory_answers(data: Path, count: int, batch: int) -> list[str | None]:
    stream = make_stream(data)
    index = NearDuplicateIndex()
    answers: list[str | None] = []
    for start in range(0, count, batch):
        items = [(str(i), stream.text(i), False) for i in range(start, min(start + batch, count))]
        answers += [m.key if m is not None else None for m in index.check_many(items)]
    return answers


# -- report ------------------------------------------------------------------------------


def report(runs: list[dict[str, Any]], reference: list[str | None], args: Any) -> str:
    lines = [
        f"# The near-duplicate index on one Redis node and on a {CLUSTER_NODES}-master cluster\n",
        f"`python benchmarks/state_cluster.py <datasets> --docs {args.docs} --batch "
        f"{args.batch} --buckets {args.buckets}`; {args.docs:,} documents of the stream of "
        "`state.py`; every run on an empty store; this machine's 2 cores run the servers "
        "and the processes alike.\n",
        "| store | processes | docs/s | × 1 process | round trips per doc | Redis B/doc "
        "| per node B/doc | busiest node vs even | largest key | largest key ÷ index "
        "| Redis CPU µs/doc | answers ≠ memory |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    one = {r["store"]: r["docs_per_second"] for r in runs if r["processes"] == 1}
    for r in runs:
        differ = "-"
        if r["processes"] == 1:
            differ = str(sum(1 for i, a in enumerate(reference) if r["answers"].get(i) != a))
        nodes = " / ".join(f"{b:,.0f}" for b in r["node_bytes_per_doc"])
        lines.append(
            f"| {r['store']} | {r['processes']} | {r['docs_per_second']:,.0f} "
            f"| {r['docs_per_second'] / one[r['store']]:.2f}x | {r['round_trips_per_doc']:.3f} "
            f"| {r['redis_bytes_per_doc']:,.0f} | {nodes} | {r['busiest_node_vs_even']:+.1%} "
            f"| {r['largest_key_bytes'] / 1e6:.2f} MB | {r['largest_key_share']:.4f} "
            f"| {r['redis_cpu_us_per_doc']:.1f} | {differ} |"
        )
    single = next(r for r in runs if r["store"] == "one node" and r["processes"] == 1)
    cluster = next(r for r in runs if r["store"] == "cluster" and r["processes"] == 1)
    two = [r for r in runs if r["processes"] == 2]
    lines += [
        "",
        "## Targets\n",
        "| target | measured | |",
        "|---|---|---|",
        f"| largest key <= {LARGEST_KEY_SHARE:.0%} of the index (cluster) | "
        f"{cluster['largest_key_share']:.4f} | "
        f"{'met' if cluster['largest_key_share'] <= LARGEST_KEY_SHARE else 'NOT MET'} |",
        f"| per-node memory within {NODE_BALANCE:.0%} of an even split | "
        f"{cluster['busiest_node_vs_even']:+.1%} | "
        f"{'met' if cluster['busiest_node_vs_even'] <= NODE_BALANCE else 'NOT MET'} |",
        f"| Redis CPU per doc on the cluster <= one node's + {CLUSTER_CPU_EXTRA:.0%} | "
        f"{cluster['redis_cpu_us_per_doc']:.1f} vs {single['redis_cpu_us_per_doc']:.1f} µs | "
        + (
            "met"
            if cluster["redis_cpu_us_per_doc"]
            <= single["redis_cpu_us_per_doc"] * (1 + CLUSTER_CPU_EXTRA)
            else "NOT MET"
        )
        + " |",
    ]
    for r in two:
        speedup = r["docs_per_second"] / one[r["store"]]
        lines.append(
            f"| 2 processes >= {TWO_PROCESS_SPEEDUP}x one ({r['store']}) | {speedup:.2f}x | "
            f"{'met' if speedup >= TWO_PROCESS_SPEEDUP else 'NOT MET'} |"
        )
    for r in (single, cluster):
        differ = sum(1 for i, a in enumerate(reference) if r["answers"].get(i) != a)
        lines.append(
            f"| answers identical to memory ({r['store']}) | {differ} differ | "
            f"{'met' if differ == 0 else 'NOT MET'} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("data", type=Path, help="the shared datasets/ folder")
    parser.add_argument("--docs", type=int, default=DEFAULT_DOCS)
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--processes", default="1,2,4")
    parser.add_argument("--buckets", type=int, default=DEFAULT_BUCKETS)
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)
    counts = [int(p) for p in args.processes.split(",")]
    started = time.time()
    reference = memory_answers(args.data, args.docs, args.batch)
    runs = []
    with tempfile.TemporaryDirectory() as folder:
        with private_redis(Path(folder)) as single:
            for processes in counts:
                runs.append(
                    run(args.data, "one node", single, [single], args.docs, processes,
                        args.batch, args.buckets)
                )  # fmt: skip
        cluster_folder = Path(folder) / "cluster"
        cluster_folder.mkdir()
        with private_cluster(cluster_folder) as (url, nodes):
            for processes in counts:
                runs.append(
                    run(args.data, "cluster", url, nodes, args.docs, processes, args.batch,
                        args.buckets)
                )  # fmt: skip
    text = report(runs, reference, args) + f"\n\nTotal runtime: {time.time() - started:.0f} s"
    print(text)
    if args.out:
        args.out.write_text(text + "\n", encoding="utf-8")
    if args.json:
        for r in runs:
            r.pop("answers")
        args.json.write_text(json.dumps(runs, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
