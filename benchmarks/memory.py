"""What the caps of issue 54 (section 5) cost: the memory each cache or table keeps, per
page, per site and per document, on the inputs the issue names and on real texts.

Usage::

    .venv/bin/python benchmarks/memory.py ../shared/datasets [--pages 200] [--package PATH]
        [--no-redis] [--parts dedup] [--texts FILE]

The argument is the shared ``datasets/`` folder: the dedup rows clean the pages of its
``extract/`` sets (``--pages``: at most that many a set; all by default) with ``clean_html``
and index their texts, as the dedup pipeline would. ``--package PATH`` imports the
``scrapy_webclean`` of the checkout at PATH instead of the installed one (``--package
/tmp/before`` measures the code before the caps). ``--texts FILE`` keeps the cleaned texts
in FILE (JSON): read from it when it exists, else cleaned and written to it, so that two
checkouts index the very same texts. ``--parts`` picks the rows (``json-ld``, ``ads``,
``tplurl``, ``dedup``; all by default). Rows, one table:

* ``JSON-LD``: four pages with 1.2 MB of JSON-LD each (one script a page; three of 400 KB a
  page), cleaned one after another: the memory still held after the four (tracemalloc),
  the peak during them, and the date read (None: the script was over the cap);
* ``ad model``: ``AdImageModel.observe_links`` of one page of 20,000 images, and of 600
  pages of 300: the model's memory after, the images remembered for ``judge``;
* ``tplurl``: 100,000 URLs of one site through ``BackendTemplateStore``: entries in
  ``tplurl:<site>`` with the reference ``MemoryBackend``, in SQLite (file bytes, vacuumed)
  and in Redis (``MEMORY USAGE`` of the table; a private ``redis-server`` when one is on
  the ``PATH``, unless ``--no-redis``);
* ``dedup``: ``NearDuplicateIndex`` in memory (``MemoryDedupStore``), bytes kept per
  document (tracemalloc), over all the cleaned texts, by text length, and by whether the
  text's LSH bands are kept (texts with few long sentences: datasketch's ``MinHashLSH``),
  and what a ``MinHashLSH`` alone keeps per signature of those texts.

Memory is Python's (tracemalloc: objects and numpy arrays; lxml's own memory is not
traced). Nothing is timed.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import sys
import tempfile
import tracemalloc
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
MB = 1_000_000
#: JSON-LD text per page (characters) in the JSON-LD rows: the issue's 4.8 MB over 4 pages.
JSON_LD_PAGE = 1_200_000
JSON_LD_PAGES = 4
#: URLs of one site in the ``tplurl`` rows.
TPLURL_URLS = 100_000
#: Text lengths (characters) the dedup rows are split by.
LENGTH_BANDS = ((0, 1_000), (1_000, 2_500), (2_500, 10**9))
#: The parts ``--parts`` can pick, in the order they run.
PARTS = ("json-ld", "ads", "tplurl", "dedup")


@dataclass(slots=True)
class Row:
    part: str
    case: str
    kept: str
    entries: str
    note: str = ""


@contextmanager
def traced() -> Iterator[list[int]]:
    """Yields ``[kept, peak]``, filled at exit: the bytes still allocated since entry
    (after a full collection) and the peak above the entry's level."""
    gc.collect()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    out = [0, 0]
    try:
        yield out
    finally:
        gc.collect()
        current, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        out[:] = [current - base, peak - base]


def _mb(size: float) -> str:
    return f"{size / MB:.1f} MB"


# -- JSON-LD ---------------------------------------------------------------------------------


def _json_ld_page(number: int, scripts: int) -> bytes:
    """A page whose JSON-LD is ``scripts`` scripts of :data:`JSON_LD_PAGE` characters in
    all, each a dated article padded with empty objects (the costliest JSON per character:
    about 25 bytes of Python objects each)."""
    per = JSON_LD_PAGE // scripts
    tags = []
    for k in range(scripts):
        head = f'{{"@type": "NewsArticle", "datePublished": "2024-05-0{number + 1}", "k": {k}, '
        filler = ",".join(["{}"] * ((per - len(head) - 10) // 3))
        tags.append(f'<script type="application/ld+json">{head}"x": [{filler}]}}</script>')
    prose = "<p>" + "The council voted to approve the plan for the old hall. " * 20 + "</p>"
    return (
        f"<html><head><title>Plan {number}</title>{''.join(tags)}</head><body><article>"
        f"<h1>Plan {number}</h1>{prose}</article></body></html>"
    ).encode()


def json_ld_rows() -> list[Row]:
    from scrapy_webclean import clean_html

    rows = []
    clean_html(_json_ld_page(0, 1)[:200] + b"</html>", "https://example.com/warm")
    for scripts in (1, 3):
        pages = [_json_ld_page(n, scripts) for n in range(JSON_LD_PAGES)]
        with traced() as memory:
            dates = [
                clean_html(page, f"https://example.com/{n}").date for n, page in enumerate(pages)
            ]
        shape = "one script" if scripts == 1 else f"{scripts} scripts of 400 KB"
        rows.append(
            Row(
                "JSON-LD",
                f"{JSON_LD_PAGES} pages x 1.2 MB ({shape} a page)",
                _mb(memory[0]),
                "-",
                f"peak {_mb(memory[1])}; dates read: {sum(d is not None for d in dates)}",
            )
        )
    return rows


# -- the ad model --------------------------------------------------------------------------


def _links(page_url: str, count: int) -> list[Any]:
    from scrapy_webclean.ads import ImageLink

    return [
        ImageLink(page_url, f"https://cdn.example.com{page_url[18:]}/{i}.jpg", f"/p/{i}",
                  f"Item {i}", f"photo {i}", "", 120, 90, ("item", "grid"))
        for i in range(count)
    ]  # fmt: skip


def _remembered(model: Any) -> int:
    recent = model._recent
    pages = getattr(recent, "_pages", recent)  # (an OrderedDict before the caps)
    return sum(len(images) for images in pages.values())


def ad_rows() -> list[Row]:
    from scrapy_webclean.ads import AdImageModel

    rows = []
    for pages, per_page in ((1, 20_000), (600, 300)):
        model = AdImageModel()
        model.observe_links("https://warm.example.org/", _links("https://warm.example.org/", 3))
        with traced() as memory:  # (the links made inside, as observe_page makes them)
            for n in range(pages):
                url = f"https://example.com/p{n:03d}"
                model.observe_links(url, _links(url, per_page))
        remembered = _remembered(model)
        rows.append(
            Row(
                "ad model",
                f"{pages} page{'s' if pages > 1 else ''} x {per_page:,} images",
                _mb(memory[0]),
                f"{remembered:,} images remembered",
                "kept: recent pages, link descriptions, site statistics",
            )
        )
    return rows


# -- tplurl ----------------------------------------------------------------------------------


def _learn_urls(backend: Any) -> None:
    from scrapy_webclean.state.stores import BackendTemplateStore

    store = BackendTemplateStore(backend)
    for n in range(TPLURL_URLS):
        with store.page(f"https://site.example/articles/{n}.html"):
            store.add_page("site.example", [1, 2, 3])


def _tplurl_entries(backend: Any, table: str) -> int:
    """Entries of ``table``, a values table (before the cap) or a counters one."""
    client = getattr(backend, "client", None)
    if client is not None:  # (Redis: one hash for both kinds)
        return int(client.hlen(backend.prefix + table))
    counted = int(backend.count_keys(table))
    values = getattr(backend, "_values", None)
    if values is not None:
        return counted + len(values.get(table, {}))
    (found,) = backend._db.execute("SELECT COUNT(*) FROM kv WHERE tab = ?", (table,)).fetchone()
    return counted + int(found)


def tplurl_rows(redis: bool) -> list[Row]:
    from scrapy_webclean.state.backend import MemoryBackend
    from scrapy_webclean.state.sqlite import SqliteBackend

    table = "tplurl:site.example"
    rows = []
    memory = MemoryBackend()
    _learn_urls(memory)
    rows.append(Row("tplurl", f"{TPLURL_URLS:,} URLs, MemoryBackend", "-",
                    f"{_tplurl_entries(memory, table):,} entries"))  # fmt: skip
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "state.sqlite3"
        backend = SqliteBackend(path)
        _learn_urls(backend)
        entries = _tplurl_entries(backend, table)
        backend.close()
        backend = SqliteBackend(path)
        backend._db.execute("VACUUM")
        backend.close()
        size = os.path.getsize(path)
    rows.append(Row("tplurl", f"{TPLURL_URLS:,} URLs, SQLite (JOBDIR)", _mb(size),
                    f"{entries:,} entries", f"{size / entries:.0f} B an entry (file)"))  # fmt: skip
    if redis:
        rows += _tplurl_redis(table)
    return rows


def _tplurl_redis(table: str) -> list[Row]:
    import shutil

    if shutil.which("redis-server") is None:
        return [Row("tplurl", "Redis", "-", "-", "skipped: no redis-server on PATH")]
    from scrapy_webclean.state.redis import RedisBackend

    sys.path.insert(0, str(HERE))
    from state_crawl import private_redis  # (after scrapy_webclean: it moves sys.path)

    with tempfile.TemporaryDirectory() as folder, private_redis(Path(folder)) as url:
        backend = RedisBackend(url, prefix="memory:")
        _learn_urls(backend)
        entries = _tplurl_entries(backend, table)
        usage = int(backend.client.memory_usage(backend.prefix + table) or 0)
        backend.close()
    return [Row("tplurl", f"{TPLURL_URLS:,} URLs, Redis", _mb(usage), f"{entries:,} entries",
                f"{usage / entries:.0f} B an entry (MEMORY USAGE)")]  # fmt: skip


# -- the near-duplicate index ------------------------------------------------------------------


def cleaned_texts(datasets: Path, pages: int | None, cache: Path | None = None) -> list[str]:
    """The texts of the ``extract/`` sets' pages, cleaned with ``clean_html`` (at most
    ``pages`` pages a set); empty texts left out. With ``cache``: read from that JSON file
    when it exists, else written to it."""
    if cache is not None and cache.exists():
        cached = json.loads(cache.read_text("utf-8"))
        return [str(text) for text in cached]
    from scrapy_webclean import CleanError, clean_html

    sys.path.insert(0, str(HERE))
    from datasets import load_sets

    texts = []
    for dataset in load_sets(datasets / "extract"):
        for page in dataset.pages[:pages]:
            try:
                text = clean_html(page.html, page.url or f"http://{page.site}/{page.id}").text
            except CleanError:
                continue
            if text.strip():
                texts.append(text)
    if cache is not None:
        cache.write_text(json.dumps(texts, ensure_ascii=False), "utf-8")
    return texts


def bytes_per_doc(texts: Sequence[str]) -> tuple[float, int]:
    """Bytes ``MemoryDedupStore`` keeps per text, indexed one by one (each checked, then
    added), and how many of the texts had their LSH bands kept."""
    from scrapy_webclean.dedup import NearDuplicateIndex

    index = NearDuplicateIndex()
    index.check_and_add("warm", "A first text to warm the index up, of a few words.")
    banded = 0
    with traced() as memory:
        for n, text in enumerate(texts):
            fingerprint = index.fingerprint(text)
            banded += bool(index._banded(fingerprint))
            index.check_many(
                [(f"https://site{n % 97}.example/{n}.html", text, False)], [fingerprint]
            )
        del fingerprint
    return memory[0] / max(len(texts), 1), banded


def dedup_rows(texts: Sequence[str]) -> list[Row]:
    from scrapy_webclean.dedup import NearDuplicateIndex

    judge = NearDuplicateIndex()
    banded = [bool(judge._banded(judge.fingerprint(text))) for text in texts]
    groups: list[tuple[str, list[str]]] = [("all", list(texts))]
    for low, high in LENGTH_BANDS:
        name = f"{low:,}-{high:,} chars" if high < 10**9 else f"{low:,}+ chars"
        groups.append((name, [text for text in texts if low <= len(text) < high]))
    groups.append(("LSH bands kept", [t for t, b in zip(texts, banded, strict=True) if b]))
    groups.append(("no LSH bands", [t for t, b in zip(texts, banded, strict=True) if not b]))
    rows = []
    for name, chosen in groups:
        if not chosen:
            continue
        per_doc, with_bands = bytes_per_doc(chosen)
        mean = statistics.mean(len(text) for text in chosen)
        rows.append(
            Row(
                "dedup",
                f"{len(chosen):,} cleaned pages, {name} (mean {mean:,.0f})",
                f"{per_doc:,.0f} B a doc",
                f"{len(chosen):,} docs",
                f"{with_bands:,} with LSH bands",
            )
        )
    banded_texts = [t for t, b in zip(texts, banded, strict=True) if b]
    if banded_texts:
        per_doc = lsh_bytes_per_doc([judge.fingerprint(text).signature for text in banded_texts])
        rows.append(
            Row(
                "dedup",
                f"{len(banded_texts):,} signatures of the texts with LSH bands, in a "
                "MinHashLSH alone",
                f"{per_doc:,.0f} B a doc",
                f"{len(banded_texts):,} docs",
                "datasketch's share of the banded texts' cost",
            )
        )
    return rows


def lsh_bytes_per_doc(signatures: Sequence[Any]) -> float:
    """Bytes datasketch's ``MinHashLSH`` keeps per signature inserted, with the bands the
    index uses (``DedupOptions.lsh_bands``), as ``MemoryDedupStore`` inserts them."""
    from datasketch import LeanMinHash, MinHashLSH

    from scrapy_webclean.dedup import DedupOptions
    from scrapy_webclean.dedup.fingerprint import NUM_PERM

    bands = DedupOptions().lsh_bands
    lsh = MinHashLSH(num_perm=NUM_PERM, params=(bands, NUM_PERM // bands))
    with traced() as memory:
        for n, signature in enumerate(signatures):
            lean = LeanMinHash(seed=1, hashvalues=signature, scheme="affine32")
            lsh.insert(n, lean, check_duplication=False)
        del lean
    return memory[0] / max(len(signatures), 1)


# -- report ------------------------------------------------------------------------------------


def table(rows: Sequence[Row]) -> str:
    lines = ["| part | input | kept | entries | note |", "|---|---|---|---|---|"]
    lines += [f"| {r.part} | {r.case} | {r.kept} | {r.entries} | {r.note} |" for r in rows]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("datasets", type=Path, help="the shared datasets/ folder")
    parser.add_argument("--pages", type=int, default=None, help="pages a set (dedup rows)")
    parser.add_argument("--package", type=Path, help="a checkout whose scrapy_webclean to measure")
    parser.add_argument("--no-redis", action="store_true", help="skip the Redis row")
    parser.add_argument(
        "--parts", default=",".join(PARTS), help=f"rows to measure, of {', '.join(PARTS)}"
    )
    parser.add_argument(
        "--texts", type=Path, help="JSON file of the dedup rows' cleaned texts (made if missing)"
    )
    args = parser.parse_args(argv)
    parts = {part.strip() for part in args.parts.split(",") if part.strip()}
    if parts - set(PARTS):
        parser.error(f"unknown parts {sorted(parts - set(PARTS))}: choose from {PARTS}")
    if args.package is not None:
        sys.path.insert(0, str(args.package.resolve()))
    import scrapy_webclean

    print(f"scrapy_webclean from {Path(scrapy_webclean.__file__).parent}\n", flush=True)
    rows = json_ld_rows() if "json-ld" in parts else []
    rows += ad_rows() if "ads" in parts else []
    rows += tplurl_rows(redis=not args.no_redis) if "tplurl" in parts else []
    if "dedup" in parts:
        rows += dedup_rows(cleaned_texts(args.datasets, args.pages, args.texts))
    print(table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
