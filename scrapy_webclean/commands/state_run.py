"""``scrapy webclean state migrate``: a Redis store of the layout before buckets copied
into the sharded layout (:mod:`scrapy_webclean.state.migrate`), with the project's
settings: the target is ``REDIS_URL`` (a cluster with ``WEBCLEAN_REDIS_CLUSTER`` or a
``redis+cluster://`` URL) with ``WEBCLEAN_REDIS_BUCKETS``; the source is the same server
unless ``--from`` names the old single node."""

from __future__ import annotations

import sys
from argparse import Namespace
from typing import Any

from scrapy.exceptions import UsageError

from scrapy_webclean.integration.settings import get_setting
from scrapy_webclean.redact import redact_url

#: What ``scrapy webclean state`` can do.
STATE_ACTIONS = ("migrate",)


def run_state(args: list[str], opts: Namespace, settings: Any) -> int:
    """``scrapy webclean state migrate``; returns the exit code."""
    if args != ["migrate"]:
        raise UsageError(f"scrapy webclean state takes one of {', '.join(STATE_ACTIONS)}")
    import redis

    from scrapy_webclean.integration.state import redis_url
    from scrapy_webclean.state.migrate import migrate
    from scrapy_webclean.state.redis import CLUSTER_SCHEME, RedisBackend
    from scrapy_webclean.state.redislayout import LayoutMismatch
    from scrapy_webclean.state.resilience import StateUnavailable

    if opts.prefix is None and opts.spider is None:
        raise UsageError("state migrate needs --spider NAME (or --prefix, the keys' prefix)")
    prefix = opts.prefix
    if prefix is None:
        prefix = str(get_setting(settings, "WEBCLEAN_REDIS_PREFIX")) % {"spider": opts.spider}
    target_url = redis_url(settings)
    cluster = bool(get_setting(settings, "WEBCLEAN_REDIS_CLUSTER"))
    source_url = opts.from_url or target_url
    if source_url.startswith(CLUSTER_SCHEME) or (cluster and opts.from_url is None):
        raise UsageError("state migrate reads a single node: give it with --from redis://...")
    params = dict(settings.getdict("REDIS_PARAMS"))
    try:
        target = RedisBackend(
            target_url,
            prefix,
            buckets=int(get_setting(settings, "WEBCLEAN_REDIS_BUCKETS")),
            cluster=cluster,
            **params,
        )
        source = redis.Redis.from_url(source_url, **params)

        def told(table: str, fields: int) -> None:
            print(f"webclean state migrate: {prefix}{table}: {fields:,} fields", file=sys.stderr)

        done = migrate(source, target, prefix, delete_old=opts.delete_old, progress=told)
    except (LayoutMismatch, ValueError) as exc:
        print(f"webclean state migrate: {exc}", file=sys.stderr)
        return 1
    except (StateUnavailable, redis.exceptions.ConnectionError) as exc:
        print(f"webclean state migrate: Redis is unavailable: {exc}", file=sys.stderr)
        return 1
    print(
        f"webclean state migrate: {done.total:,} fields of {len(done.fields)} tables from "
        f"{redact_url(source_url)} to {target.url} ({target.layout.buckets} buckets), "
        f"records {sum(done.records.values()):,}; the old keys were "
        + ("deleted" if opts.delete_old else "left in place (--delete-old deletes them)"),
        file=sys.stderr,
    )
    return 0
