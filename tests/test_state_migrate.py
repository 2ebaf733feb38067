"""``scrapy webclean state migrate``: a Redis store of the layout before buckets (one hash a
table) copied into the sharded layout, with a real redis-server; the crawl refuses the old
layout until then."""

from __future__ import annotations

import struct

import pytest

from scrapy_webclean.state.migrate import migrate
from scrapy_webclean.state.redis import RedisBackend
from scrapy_webclean.state.redislayout import LayoutMismatch
from tests.test_command import scrapy

PREFIX = "news:webclean:"


def old_store(url: str) -> None:
    """What the layout before buckets wrote: one hash a table, a counter of records."""
    import redis

    client = redis.Redis.from_url(url)
    client.hset(PREFIX + "dd:docs", mapping={str(n): f"doc {n}".encode() for n in range(5)})
    client.set(PREFIX + "dd:docs:n", 5)
    client.hset(PREFIX + "dd:postn", mapping={"123456789": 2.0, "-42": 1.0})
    client.hset(PREFIX + "dd:post", "123456789", struct.pack("<qq", 0, 3))
    client.hset(PREFIX + "ads:seen", mapping={"example.com": 7.0, "news.example": 3.0})
    client.hset(PREFIX + "dd:exact", "99", b"https://news.example/a")
    client.close()


def check_migrated(backend: RedisBackend) -> None:
    assert backend.count_records("dd:docs") == 5
    assert backend.get_records("dd:docs", [4, 0, 7]) == [b"doc 4", b"doc 0", None]
    assert backend.get_counts("dd:postn", [123456789, -42, 5]) == [2.0, 1.0, 0.0]
    assert backend.get_lists("dd:post", [123456789]) == [[0, 3]]
    assert backend.get_counts("ads:seen", ["example.com", "news.example"]) == [7.0, 3.0]
    assert backend.claim("dd:exact", 99, b"other") == b"https://news.example/a"
    # A new record takes a number no migrated record has.
    assert backend.add_record("dd:docs", b"doc new") not in range(5)
    assert backend.count_records("dd:docs") == 6


def test_the_old_layout_is_refused_then_migrated(redis_url: str) -> None:
    old_store(redis_url)
    with pytest.raises(LayoutMismatch, match="scrapy webclean state migrate"):
        RedisBackend(redis_url, PREFIX, buckets=16).count_records("dd:docs")
    done = migrate(__import__("redis").Redis.from_url(redis_url), RedisBackend(
        redis_url, PREFIX, buckets=16), PREFIX)  # fmt: skip
    assert done.records == {"dd:docs": 5}
    assert done.total == 5 + 2 + 1 + 2 + 1
    check_migrated(RedisBackend(redis_url, PREFIX, buckets=16))
    # The store now says its layout: another count of buckets is refused.
    with pytest.raises(LayoutMismatch, match="WEBCLEAN_REDIS_BUCKETS"):
        RedisBackend(redis_url, PREFIX, buckets=32).count_records("dd:docs")


def test_the_command_migrates_with_the_projects_settings(redis_url: str, tmp_path) -> None:
    old_store(redis_url)
    settings = ["-s", f"REDIS_URL={redis_url}", "-s", "WEBCLEAN_REDIS_BUCKETS=8"]
    done = scrapy(["state", "migrate", "--spider", "news", "--delete-old", *settings], tmp_path)
    assert done.returncode == 0, done.stderr.decode()
    said = done.stderr.decode()
    assert "11 fields of 5 tables" in said and "records 5" in said and "deleted" in said
    check_migrated(RedisBackend(redis_url, PREFIX, buckets=8))
    import redis

    assert not redis.Redis.from_url(redis_url).exists(PREFIX + "dd:docs", PREFIX + "dd:docs:n")
    # Without a spider or a prefix, it says what it needs.
    done = scrapy(["state", "migrate", *settings], tmp_path)
    assert done.returncode != 0 and b"--spider" in done.stderr


def test_a_single_nodes_store_moves_to_a_cluster(redis_url: str, redis_cluster_url: str) -> None:
    import redis

    old_store(redis_url)
    target = RedisBackend(redis_cluster_url, PREFIX, buckets=64)
    done = migrate(redis.Redis.from_url(redis_url), target, PREFIX)
    assert done.records == {"dd:docs": 5}
    check_migrated(RedisBackend(redis_cluster_url, PREFIX, buckets=64))
