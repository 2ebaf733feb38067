"""State backends: one interface, three stores, memory vs SQLite vs a real Redis server
and a real 3-master Redis Cluster."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from scrapy_webclean.ads.stats import MemoryAdStatsStore
from scrapy_webclean.dedup import DedupOptions, NearDuplicateIndex
from scrapy_webclean.dedup.pageindex import PageIndex
from scrapy_webclean.dedup.store import DedupStore, MemoryDedupStore
from scrapy_webclean.extraction.template import MemoryTemplateStore
from scrapy_webclean.state import (
    BackendAdStatsStore,
    BackendDedupStore,
    BackendTemplateStore,
    MemoryBackend,
    SqliteBackend,
    StateBackend,
)
from scrapy_webclean.state.stores import LIST_NAMESPACE, decode_doc, encode_doc
from tests.test_dedup import article, paragraphs

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(params=["memory", "sqlite", "redis", "redis-cluster"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[StateBackend]:
    made: StateBackend
    if request.param == "memory":
        made = MemoryBackend()
    elif request.param == "sqlite":
        made = SqliteBackend(tmp_path / "state.sqlite3")
    elif request.param == "redis":
        from scrapy_webclean.state.redis import RedisBackend

        made = RedisBackend(request.getfixturevalue("redis_url"), prefix="test:")
    else:  # a 3-master Redis Cluster (conftest.redis_cluster)
        from scrapy_webclean.state.redis import RedisBackend

        made = RedisBackend(request.getfixturevalue("redis_cluster_url"), prefix="test:")
        assert made.cluster
    yield made
    made.close()


def test_counters(backend: StateBackend) -> None:
    assert backend.get_counts("c", ["a", "b"]) == [0.0, 0.0]
    backend.add_counts("c", [("a", 1.0), ("b", 2.5), ("a", 1.0), (-(2**63), 4.0)])
    assert backend.get_counts("c", ["a", "b", "x", -(2**63)]) == [2.0, 2.5, 0.0, 4.0]
    assert backend.count_keys("c") == 3 and backend.count_keys("other") == 0
    backend.keep_top("c", 2)
    assert backend.get_counts("c", ["a", "b", -(2**63)]) == [0.0, 2.5, 4.0]


def test_values_are_claimed_once(backend: StateBackend) -> None:
    assert backend.claim("v", 7, b"first") is None
    assert backend.claim("v", 7, b"second") == b"first"
    assert backend.get_values("v", [7, 8]) == [b"first", None]


def test_capped_lists_keep_their_order(backend: StateBackend) -> None:
    backend.append("l", [(1, 10), (2, 20), (1, 11), (1, 12), (1, 13)], cap=3)
    assert backend.get_lists("l", [1, 2, 3]) == [[10, 11, 12], [20], []]


def test_records_are_numbered(backend: StateBackend) -> None:
    assert backend.count_records("r") == 0
    assert [backend.add_record("r", bytes([n]) * 3) for n in range(3)] == [0, 1, 2]
    backend.set_record("r", 1, b"new")
    assert backend.get_records("r", [2, 1, 5]) == [b"\x02\x02\x02", b"new", None]
    assert backend.count_records("r") == 3


def test_run_batches_operations_in_order(backend: StateBackend) -> None:
    results = backend.run(
        [
            ("add_counts", "c", [("k", 1.0)]),
            ("get_counts", "c", ["k"]),
            ("add_record", "r", b"x"),
            ("claim", "v", "k", b"1"),
            ("claim", "v", "k", b"2"),
        ]
    )
    assert results == [None, [1.0], 0, None, b"1"]
    with pytest.raises(ValueError, match="unknown state operation"):
        backend.run([("drop_everything", "c")])


def test_documents_survive_the_plain_encoding() -> None:
    index = NearDuplicateIndex()
    index.check_and_add("https://example.com/文章/1", article("zh", 1))
    store = index.store
    assert isinstance(store, MemoryDedupStore)
    (doc,) = store.docs([0])
    assert doc is not None
    again = decode_doc(encode_doc(doc))
    assert again.key == doc.key and again.first == doc.first and again.length == doc.length
    assert again.sentences.tolist() == doc.sentences.tolist()
    assert again.signature.tolist() == doc.signature.tolist()
    assert again.sentence_chars.tolist() == doc.sentence_chars.tolist()


def corpus() -> list[tuple[str, str]]:
    """Demo articles in both languages, each followed by some of its copies."""
    docs = []
    for lang in ("en", "zh"):
        for n in range(1, 10):
            text = article(lang, n)
            parts = paragraphs(text)
            docs.append((f"{lang}{n}", text))
            if n % 3 == 0:
                docs.append((f"{lang}{n}-exact", text))
                docs.append((f"{lang}{n}-cut", "\n".join(parts[: max(2, len(parts) * 2 // 3)])))
                docs.append((f"{lang}{n}-moved", "\n".join(parts[1:] + parts[:1])))
    return docs


def answers(index: NearDuplicateIndex, batch: int) -> list[str | None]:
    items = [(key, text, False) for key, text in corpus()]
    found: list[str | None] = []
    for start in range(0, len(items), batch):
        found += [m.key if m else None for m in index.check_many(items[start : start + batch])]
    return found


def one_at_a_time() -> list[str | None]:
    reference = NearDuplicateIndex()
    return [reference.check_and_add(key, text) for key, text in corpus()]


def test_the_index_answers_the_same_on_every_backend(backend: StateBackend) -> None:
    expected = one_at_a_time()
    assert expected.count(None) == 18 and "en3" in expected and "zh9" in expected
    assert answers(NearDuplicateIndex(store=BackendDedupStore(backend)), batch=1) == expected


def test_batches_answer_as_one_at_a_time(backend: StateBackend) -> None:
    expected = one_at_a_time()
    assert answers(NearDuplicateIndex(store=BackendDedupStore(backend)), batch=7) == expected
    assert answers(NearDuplicateIndex(), batch=64) == expected


class Interleaved(BackendDedupStore):
    """A store that lets another process's check run between a look and an add."""

    def __init__(self, backend: StateBackend, meanwhile: Any) -> None:
        super().__init__(backend)
        self.meanwhile = meanwhile

    def add(self, docs: Any) -> list[int]:
        if self.meanwhile is not None:
            run, self.meanwhile = self.meanwhile, None
            run()
        return super().add(docs)


@pytest.mark.parametrize("copy", ["exact", "near"])
def test_two_processes_checking_copies_at_once_export_one(backend: StateBackend, copy: str) -> None:
    text = article("en", 4)
    other = text if copy == "exact" else text + "\nReprinted with permission."
    second = NearDuplicateIndex(store=BackendDedupStore(backend))
    seen: list[str | None] = []
    first = NearDuplicateIndex(
        store=Interleaved(backend, lambda: seen.append(second.check_and_add("b", other)))
    )
    # "a" looks first and finds nothing; "b" is checked and added meanwhile; then "a" adds.
    assert first.check_and_add("a", text) == "b"
    assert seen == [None]
    # And whoever looks next finds the one that was numbered first.
    assert NearDuplicateIndex(store=BackendDedupStore(backend)).check_and_add("c", text) == "b"


def test_list_pages_have_their_own_tables(backend: StateBackend) -> None:
    def index() -> PageIndex:
        return PageIndex.of_stores(
            DedupOptions(),
            BackendDedupStore(backend),
            BackendDedupStore(backend, namespace=LIST_NAMESPACE),
        )

    text = article("en", 6)
    hub = "\n".join(paragraphs(article("en", n))[0] for n in range(1, 9))
    assert index().check_many([("a/story", text, False), ("a/", hub, True)]) == [None, None]
    # Another process finds the list's copy among the lists, the article's among articles.
    found = index().check_many([("a/?utm=1", hub + "\nUpdated.", True), ("b/story", text, False)])
    assert [m.key if m else None for m in found] == ["a/", "a/story"]
    # An exact copy is not stored again; a near copy is (a copy of it is found too).
    assert backend.count_records("dd:docs") == 1
    assert backend.count_records(f"{LIST_NAMESPACE}:docs") == 2


def replay(store: Any, ops: list[tuple[str, Any]]) -> list[Any]:
    out = []
    for name, args in ops:
        out.append(getattr(store, name)(*args))
    return out


def test_template_and_image_stores_count_as_in_memory(backend: StateBackend) -> None:
    template_ops: list[tuple[str, Any]] = [
        ("add_page", ("a.com", [1, 2, 3, 2**64 - 1])),
        ("add_page", ("a.com", [2, 3, 2**64 - 1])),
        ("add_page", ("b.com", [1])),
        ("pages", ("a.com",)),
        ("counts", ("a.com", [1, 2, 2**64 - 1, 9])),
        ("counts", ("c.com", [1])),
    ]
    assert replay(BackendTemplateStore(backend), template_ops) == replay(
        MemoryTemplateStore(), template_ops
    )
    ad_ops: list[tuple[str, Any]] = [
        ("add", ("a.com", "url", [("x.png", 1.0), ("y.png", 1.0)])),
        ("add", ("a.com", "url", [("x.png", 1.0)])),
        ("add", ("a.com", "word_sum", [("广告", 0.5)])),
        ("get", ("a.com", "url", ["x.png", "y.png", "z.png"])),
        ("get", ("a.com", "word_sum", ["广告"])),
        ("size", ("a.com", "url")),
        ("size", ("b.com", "url")),
        ("add_many", ("a.com", [("url", [("z.png", 2.0)]), ("word_sum", [("广告", 1.0)])])),
        ("fetch", ("a.com", [("url", ["x.png", "z.png"]), ("word_sum", ["广告", "无"])], ["url"])),
        ("fetch", ("b.com", [("url", ["x.png"])], ["url", "word_sum"])),
    ]
    assert replay(BackendAdStatsStore(backend), ad_ops) == replay(MemoryAdStatsStore(), ad_ops)
    fetched = replay(MemoryAdStatsStore(), ad_ops)[-2]
    assert fetched == ([[2.0, 2.0], [1.5, 0.0]], [3])


def test_counters_stay_bounded_per_site(backend: StateBackend) -> None:
    store = BackendTemplateStore(backend, max_keys_per_site=40)
    for page in range(200):
        store.add_page("a.com", [page * 10 + k for k in range(10)] + [1, 2])
    assert backend.count_keys("tpl:a.com") <= 40 + 10 * 64
    assert store.pages("a.com") == 200 and store.counts("a.com", [1, 2]) == [200, 200]


def test_the_state_code_never_pickles() -> None:
    for source in (ROOT / "scrapy_webclean").rglob("*.py"):
        text = source.read_text("utf-8")
        assert "import pickle" not in text and "pickle.loads" not in text, source


def test_memory_store_is_a_dedup_store() -> None:
    store: DedupStore = MemoryDedupStore()
    assert store.count() == 0
