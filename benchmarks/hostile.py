"""Hostile inputs (issue 54): the time and the memory of every input class the issue names,
at n, 2n, 4n and 8n, for one checkout of the package or for two side by side.

Usage::

    .venv/bin/python benchmarks/hostile.py [--package PATH] [--before PATH] \\
        [--timeout 30] [--classes title,deep] [--scale 1] [--out FILE] [--json FILE]

``--package PATH`` imports the ``scrapy_webclean`` of the checkout at PATH instead of the
installed one (``--package /tmp/before`` measures the code before the fixes); ``--before
PATH`` runs every class for the checkout at PATH too and adds a table of both, class by
class (before: PATH; after: ``--package`` or the installed package). ``--classes`` picks
classes by their keys (:data:`CASES`); ``--scale`` multiplies every n (a quick look:
``--scale 0.1``); ``--out`` writes the Markdown to a file as well (the results file is
``benchmarks/results/hostile.md``), ``--json`` the measurements. The inputs are made here;
nothing is read but the demo site's English articles (the realistic texts of the dedup row).

Every measurement is a process of its own (this script with ``--child``, ``PYTHONPATH`` the
checkout, the installed package's editable finder set aside): the input is made and the code
warmed up first, untimed, then the work runs once (a work that keeps no state and took under
:data:`MIN_TIMED` seconds runs again until its runs add up to that: the least run is its
time). Per size it reports the work's CPU seconds (user and system, of all the process's
threads: :func:`process_cpu`) and its peak memory:
``ru_maxrss`` after the work (its peak reset just before the work through
``/proc/self/clear_refs``) minus the process's resident memory before it. The work is given
``--timeout`` CPU seconds (``RLIMIT_CPU``: on a loaded machine the wall clock would end
cases the CPU has not finished; a wall-clock backstop, :func:`wall_limit`, ends a starved
one): over it, the size is reported as ``> 30 s`` and the larger sizes of that class are not
run (``-``). The classes whose harm is what they leave behind (``kept``) are run once more
at the largest size measured, under ``tracemalloc``: the memory still held after the work
(Python objects and numpy arrays; lxml's own memory is not traced).

The sizes at n are the issue's for the classes it timed; for the classes it measured in
memory (the gzip bomb, JSON-LD, the ad model, ``tplurl``), its size is 8n, so that the
before column does not need gigabytes. The work of each class is the package's own code path,
through a public entry point where one reaches it (``clean_html``, ``Cleaner`` with
``CleanOptions(keep_page=True)`` and ``render_report``, ``AdImageFilter`` built from a
crawler with the add-on, ``split_sentences``, ``FORUM_URL_RE``, ...); a name missing in a
checkout makes that class report ``error: ...`` for it.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import inspect
import json
import math
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from datetime import date
from itertools import pairwise
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
#: The sizes measured, as multiples of a class's n.
FACTORS = (1, 2, 4, 8)
DEFAULT_TIMEOUT = 30.0
#: A child is killed after this many times ``--timeout`` seconds of wall clock, plus
#: :data:`WALL_STARTUP` (its start-up and input), whatever CPU its work has used.
WALL_MARGIN = 4.0
WALL_STARTUP = 60.0
#: The work under ``tracemalloc`` (the ``kept`` run) is given this many times the CPU.
TRACED_SLOWDOWN = 3.0
#: A repeatable work is run again until its runs add up to this many CPU seconds (the
#: timer's resolution and a stray interruption are no part of a fast path's time) ...
MIN_TIMED = 0.2
#: ... at most this many times; its time is the least run.
MAX_RUNS = 200
#: The realistic texts of the dedup row: the demo site's English articles.
DEMO_TEXTS = ROOT / "demo_site" / "content" / "en"
URL = "https://news.example.com/2024/05/a-story.html"
PROSE = (
    "The council voted on Tuesday to turn the old harbour exchange into a library annex. "
    "Work on the roof starts in the spring, and the reading rooms open a year later, the "
    "city's architect said, after a survey found the timber frame sound. "
)
#: What a child process prints before its result line (the result is the last line).
RESULT_MARK = "hostile-result: "
MB = 1 << 20

Work = Callable[[], str]
"""A class's work at one size, its input made: returns what happened (a short note)."""


@dataclass(frozen=True, slots=True)
class Case:
    """One input class: ``prepare(n)`` makes the input of size ``n`` and warms the code
    (untimed) and returns the work; ``kept`` classes are also measured for the memory the
    work leaves behind, per unit of n when ``kept_per_unit``."""

    key: str
    label: str
    n: int
    unit: str
    prepare: Callable[[int], Work]
    issue: str
    kept: bool = False
    kept_per_unit: bool = False
    #: The work can run again on the same input at the same cost (it keeps no state
    #: between runs): a run under :data:`MIN_TIMED` seconds is then repeated.
    repeatable: bool = True


# -- the inputs and the work (run in the child process) ----------------------------------


def _page(body: str, head: str = "", title: str = "A story") -> str:
    return f"<html><head><title>{title}</title>{head}</head><body>{body}</body></html>"


def _cleaning(html: str | bytes, url: str = URL) -> Work:
    """``clean_html`` on ``html`` (warmed up on a plain page first: the shipped models load
    on the first page); a page refused, or an exception, is the work's note."""
    from scrapy_webclean import clean_html
    from scrapy_webclean.errors import CleanError

    clean_html(_page(f"<article><h1>Warm</h1><p>{PROSE}</p></article>"), URL)

    def work() -> str:
        try:
            result = clean_html(html, url)
        except CleanError as exc:
            return f"refused: {exc.reason}"
        except Exception as exc:  # (the crawl logs it as internal_error)
            return f"raises {type(exc).__name__}"
        return f"cleaned, {len(result.text):,} chars of text"

    return work


def _title(n: int) -> Work:
    return _cleaning(_page(f"<h1>Title{chr(0xE000) * n}x</h1><p>{PROSE}</p>", title="Title"))


#: Levels of nesting that make libxml2 stop (2,048) and the loader re-read the page's tags.
OVER_LIBXML2_DEPTH = 2100


def _deep(n: int) -> Work:
    # (Nesting alone is linear: 0.03-0.22 s for 10k-80k levels before the fixes. The tag
    # regex the re-reading uses is what grows: an unclosed tag name of n characters.)
    nested = "<div>" * OVER_LIBXML2_DEPTH + f"<p>{PROSE}</p>"
    return _cleaning(_page(nested + "<x" + "a" * n))


def _unclosed(n: int) -> Work:
    return _cleaning(_page("<div>" * n + "</span>" * n))


def _lt_declared(n: int) -> Work:
    product = {"@context": "https://schema.org", "@type": "Product", "description": "<" * n}
    script = f'<script type="application/ld+json">{json.dumps(product)}</script>'
    return _cleaning(_page(f"<article><h1>Lamp</h1><p>{PROSE}</p></article>", head=script))


def _lt_encoding(n: int) -> Work:
    from scrapy_webclean.html.encoding import decode_html

    # Undeclared and not UTF-8: the codec is detected, and the page's ASCII words are read
    # for their language (the first 65,536 characters: n is chosen so that 8n fits).
    latin = "café crème brûlée, à la carte".encode("cp1252")
    decode_html(b"<p>" + latin)  # (charset-normalizer and the language guess load)
    body = b"<" * n + latin

    def work() -> str:
        decoded = decode_html(body)
        return f"decoded as {decoded.encoding} ({decoded.source})"

    return work


def _markdown_links(n: int) -> Work:
    from scrapy_webclean import clean_html
    from scrapy_webclean.markdown import markdown_to_text

    # (One run without spaces, inside prose, so that the cleaner keeps it at every size.)
    html = _page(f"<article><h1>Links</h1><p>{PROSE}{'](' * n}</p><p>{PROSE}</p></article>")
    warm = clean_html(_page(f"<article><h1>Warm</h1><p>{PROSE}</p></article>"), URL)
    assert warm.markdown  # (the Markdown is made on first use)

    def work() -> str:
        # The Markdown output, read back as plain text as the dedup pipeline compares it.
        markdown = clean_html(html, URL).markdown
        return f"{markdown.count('](')} pairs in the Markdown, {len(markdown_to_text(markdown))} chars of text"

    return work


def _link_images(n: int) -> Work:
    from scrapy_webclean.ads.links import image_links
    from scrapy_webclean.html.loader import load_html

    images = "".join(f'<img src="/img/{i}.jpg" alt="photo {i}"> picture {i} ' for i in range(n))
    root = load_html(_page(f'<div class="gallery"><a href="/gallery">{images}</a></div>')).root

    def work() -> str:
        links = image_links(root, URL)
        return f"{len(links):,} image links"

    return work


def _css_url(n: int) -> Work:
    from scrapy_webclean import Cleaner, CleanOptions
    from scrapy_webclean.report import render_report

    style = "<style>.hero { background: url(" + " " * n + "</style>"
    result = Cleaner(CleanOptions(keep_page=True)).clean(
        _page(f"<article><h1>Report</h1><p>{PROSE}</p></article>", head=style), URL
    )

    def work() -> str:
        return f"report of {len(render_report(result)):,} chars"

    return work


def _forum_url(n: int) -> Work:
    from scrapy_webclean.extraction import pagekind

    url = "https://example.com" + "/forum" * (n // len("/forum"))
    search = pagekind.FORUM_URL_RE.search

    def work() -> str:
        return "a forum URL" if search(url) else "not a forum URL"

    return work


def _sentences(n: int) -> Work:
    from scrapy_webclean.text.sentences import split_sentences

    text = "." * n + "x"

    def work() -> str:
        return f"{len(split_sentences(text)):,} sentences"

    return work


def _consent(n: int) -> Work:
    from scrapy_webclean.extraction.vocabulary import CONSENT_RE as pattern

    word = "cookie "
    text = word * (n // len(word))

    def work() -> str:
        return "a consent notice" if pattern.search(text) else "no consent notice"

    return work


def _settled(value: Any) -> Any:
    """``value``, or its result when it is awaitable (a middleware's ``process_response``
    may be a coroutine: run in an asyncio loop, as the crawl's reactor runs it)."""
    if not inspect.isawaitable(value):
        return value

    async def settle() -> Any:
        return await value

    return asyncio.run(settle())


#: A small page of images (English and Chinese words) that warms the ad model up.
_WARM_IMAGES = _page(
    '<a href="/a"><img src="https://cdn.example.org/a.jpg" alt="a photo of the harbour"></a>'
    '<a href="/b"><img src="https://cdn.example.org/b.jpg" alt="港口的照片"></a>'
)
_HTML = {"Content-Type": "text/html; charset=utf-8"}


def _gzip_bomb(n: int) -> Work:
    import gzip

    from scrapy.downloadermiddlewares.httpcompression import HttpCompressionMiddleware
    from scrapy.exceptions import IgnoreRequest
    from scrapy.http import HtmlResponse, Request, Response
    from scrapy.utils.test import get_crawler

    from scrapy_webclean.integration.adfilter import AdImageFilter

    crawler = get_crawler(settings_dict={"ADDONS": {"scrapy_webclean.Addon": 100}})
    assert crawler.stats is not None
    crawler.stats.open_spider()
    # The downloader's order for a response: decompression (590), then the ad filter (560).
    ad_filter = AdImageFilter(crawler)
    middlewares: list[Any] = [HttpCompressionMiddleware.from_crawler(crawler), ad_filter]
    warm = "https://warm.example.org/"
    _settled(
        ad_filter.process_response(
            Request(warm), HtmlResponse(warm, body=_WARM_IMAGES.encode(), headers=_HTML)
        )
    )  # (the model's word lists and jieba load on the first page)
    stats = crawler.stats
    warmed = stats.get_value("webclean/images/pages_observed", 0)
    # One byte repeated: deflate's best ratio (about 1,030 to 1), the issue's 58 KB for 60 MB.
    head = b"<html><head><title>Bomb</title></head><body><p>"
    body = gzip.compress(head + b"a" * (n - len(head)), compresslevel=9)
    request = Request(URL)
    response = Response(
        URL,
        body=body,
        headers={**_HTML, "Content-Encoding": "gzip"},
        request=request,
    )

    def work() -> str:
        out: Any = response
        try:
            for middleware in middlewares:
                out = _settled(middleware.process_response(request, out))
        except IgnoreRequest as exc:
            return f"{len(body) / 1024:.0f} KB gzip: ignored ({str(exc)[:40]})"
        observed = stats.get_value("webclean/images/pages_observed", 0) - warmed
        return f"{len(body) / 1024:.0f} KB gzip: {len(out.body) / MB:.1f} MB body, {observed} page observed"

    return work


#: Pages cleaned one after another in the JSON-LD memory class.
JSON_LD_PAGES = 4


def _json_ld_memory(n: int) -> Work:
    offer = {"@type": "Offer", "price": 12, "priceCurrency": "EUR", "sku": "A1"}
    pages = []
    for page in range(JSON_LD_PAGES):
        product: dict[str, Any] = {
            "@context": "https://schema.org",
            "@type": "Product",
            "name": f"Lamp {page}",
            "datePublished": "2024-05-01",
            "offers": [],
        }
        per = len(json.dumps(offer)) + 2
        product["offers"] = [{**offer, "sku": f"A{page}-{i}"} for i in range(n // per)]
        script = f'<script type="application/ld+json">{json.dumps(product)}</script>'
        pages.append(_page(f"<article><h1>Lamp {page}</h1><p>{PROSE}</p></article>", script))
    cleaners = [
        _cleaning(html, f"https://shop.example.com/lamp-{i}") for i, html in enumerate(pages)
    ]

    def work() -> str:
        notes = [clean() for clean in cleaners]
        return f"{JSON_LD_PAGES} pages: {notes[-1]}"

    return work


def _json_ld_deep(n: int) -> Work:
    deep = "[" * n + '{"@type": "Product", "datePublished": "2024-05-01"}' + "]" * n
    script = f'<script type="application/ld+json">{deep}</script>'
    return _cleaning(_page(f"<article><h1>Deep</h1><p>{PROSE}</p></article>", head=script))


def _ads_model(n: int) -> Work:
    from scrapy_webclean.ads.model import AdImageModel
    from scrapy_webclean.html.loader import load_html

    items = "".join(
        f'<div class="item"><a href="/p/{i}"><img src="https://cdn.example.com/img/{i}.jpg" '
        f'width="120" height="90" alt="product {i}"></a></div>'
        for i in range(n)
    )
    root = load_html(_page(f'<div class="grid">{items}</div>')).root
    model = AdImageModel()
    model.observe_page("https://warm.example.org/", _WARM_IMAGES)  # (word lists, jieba)

    def work() -> str:
        return f"{len(model.observe_page(URL, root)):,} images observed"

    return work


#: The line signatures each page of the ``tplurl`` class learns (one template).
TEMPLATE_KEYS = tuple(range(1, 21))


def _tplurl(n: int) -> Work:
    from scrapy_webclean.state.backend import MemoryBackend
    from scrapy_webclean.state.stores import BackendTemplateStore

    backend = MemoryBackend()
    store = BackendTemplateStore(backend)
    site = "example.com"
    urls = [f"https://example.com/article/{i}" for i in range(n)]

    def work() -> str:
        for url in urls:
            with store.page(url):
                store.add_page(site, TEMPLATE_KEYS)
        # (values in the table before the fixes, counters after: both are counted)
        table = f"tplurl:{site}"
        values: dict[str, dict[Any, bytes]] = getattr(backend, "_values", {})
        entries = backend.count_keys(table) + len(values.get(table, {}))
        return f"{entries:,} tplurl entries"

    return work


#: Characters of a generated document of the dedup class (the issue's 1.7 KB).
DOC_CHARS = 1700


def realistic_texts(count: int, seed: int = 54) -> list[str]:
    """``count`` distinct documents of about :data:`DOC_CHARS` characters, each sentence
    drawn from a word-bigram chain of the demo site's English articles (realistic words,
    sentence lengths and punctuation; no sentence shared by chance)."""
    words: list[str] = []
    for path in sorted(DEMO_TEXTS.glob("*.txt")):
        body = path.read_text("utf-8").split("\n\n", 1)[-1]
        words += body.split()
    following: dict[str, list[str]] = {}
    for first, second in pairwise(words):
        following.setdefault(first, []).append(second)
    starts = [second for first, second in pairwise(words) if first.endswith(".")]
    rng = random.Random(seed)
    texts = []
    for _ in range(count):
        sentences: list[str] = []
        size = 0
        while size < DOC_CHARS:
            sentence = [rng.choice(starts)]
            while not sentence[-1].endswith((".", "?", "!")) and len(sentence) < 40:
                sentence.append(rng.choice(following.get(sentence[-1], starts)))
            text = " ".join(sentence)
            sentences.append(text)
            size += len(text) + 1
        texts.append(" ".join(sentences)[:DOC_CHARS])
    return texts


def _dedup_store(n: int) -> Work:
    from scrapy_webclean.dedup.index import NearDuplicateIndex

    texts = realistic_texts(n)
    index = NearDuplicateIndex()
    index.check_and_add("warm", realistic_texts(1, seed=1)[0])

    def work() -> str:
        copies = sum(index.check_and_add(str(i), text) is not None for i, text in enumerate(texts))
        return f"{n:,} documents of {DOC_CHARS:,} chars, {copies} taken for copies"

    return work


CASES: dict[str, Case] = {
    case.key: case
    for case in (
        Case("title", "title: private-use run after `<h1>Title`", 10_000, "chars", _title,
             "10k: 1.3 s, 20k: 5.9 s"),
        Case("deep", "loader: tag name after 2,100 levels", 10_000, "chars", _deep,
             "10k: 1.3 s, 20k: 5.2 s"),
        Case("unclosed", "loader: `<div>`×n + `</span>`×n stack scan", 10_000, "pairs",
             _unclosed, "120 KB (n=10k): 5.8 s, 240 KB: 24.5 s"),
        Case("lt-declared", "declared text: run of `<` in JSON-LD", 30_000, "chars",
             _lt_declared, "30k: 2-2.5 s"),
        Case("lt-encoding", "encoding: run of `<`, undeclared page", 8_000, "chars",
             _lt_encoding, "30k: 2-2.5 s"),
        Case("markdown", "Markdown: `](` pairs", 10_000, "pairs", _markdown_links,
             "10k pairs (20 KB): 4.3 s"),
        Case("link-images", "ad links: images in one `<a>`", 4_000, "images",
             _link_images, "4,000: 5.8 s"),
        Case("css-url", "report: CSS `url(` + spaces", 2_000, "spaces", _css_url,
             "2,000: 8.2 s", repeatable=False),
        Case("forum-url", "FORUM_URL_RE on a long URL", 16_000, "chars", _forum_url,
             "16 KB: 0.8 s"),
        Case("sentences", "split_sentences on `.`×n", 20_000, "chars", _sentences,
             "20k: 10 s"),
        Case("consent", "consent pattern on text", 1 << 20, "chars", _consent,
             "2.5 s/MB"),
        Case("gzip-bomb", "ad middleware: gzip bomb", 60 * MB // 8, "bytes inflated",
             _gzip_bomb, "58 KB -> 60 MB (8n): 0.6 s, 551 MB", repeatable=False),
        Case("json-ld", f"JSON-LD memory, {JSON_LD_PAGES} pages", 1_200_000 // 8,
             "bytes a page", _json_ld_memory, "4 pages, 4.8 MB (8n): 44 -> 666 MB",
             kept=True, repeatable=False),
        Case("json-ld-deep", "JSON-LD nested n deep", 100_000, "levels", _json_ld_deep,
             "100k: RecursionError (internal_error)"),
        Case("ads-model", "ad model: images on one page", 20_000 // 8, "images",
             _ads_model, "20k (8n): 6 MB kept", kept=True, repeatable=False),
        Case("tplurl", "tplurl: URLs of one site", 100_000 // 8, "URLs", _tplurl,
             "100k (8n): 100k entries", kept=True, repeatable=False),
        Case("dedup", "MemoryDedupStore: documents", 1_000, "docs", _dedup_store,
             "6.4 KB per 1.7 KB document", kept=True, kept_per_unit=True,
             repeatable=False),
    )
}  # fmt: skip


# -- the child process: one class at one size --------------------------------------------


def _rss() -> int:
    """The process's resident memory now, in bytes (Linux ``/proc``)."""
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def _reset_peak() -> bool:
    """Reset the process's peak resident memory (Linux 4.0+); False when it cannot."""
    try:
        with open("/proc/self/clear_refs", "w") as clear:
            clear.write("5")
    except OSError:
        return False
    return True


def process_cpu() -> float:
    """The process's CPU seconds, user and system, all its threads (``getrusage``: with
    ``RLIMIT_CPU`` set, Linux reads ``time.process_time`` from a clock updated only at
    scheduler ticks, which makes a fast work's time 0)."""
    import resource

    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _timed(work: Work, repeatable: bool) -> tuple[float, float, int, str]:
    """CPU and wall seconds of ``work``, the runs made and the last run's note. A
    ``repeatable`` work that took under :data:`MIN_TIMED` seconds runs again until the runs
    add up to that (at most :data:`MAX_RUNS`): the least of them is its time."""
    cpu, wall, runs, spent = float("inf"), float("inf"), 0, 0.0
    note = ""
    while runs == 0 or (repeatable and spent < MIN_TIMED and runs < MAX_RUNS):
        started_cpu, started_wall = process_cpu(), time.perf_counter()
        note = work()
        took = process_cpu() - started_cpu
        cpu, wall = min(cpu, took), min(wall, time.perf_counter() - started_wall)
        runs, spent = runs + 1, spent + took
    return cpu, wall, runs, note


def measure_here(
    case: Case, n: int, traced: bool, cpu_limit: float | None = None
) -> dict[str, Any]:
    """Run ``case`` at size ``n`` in this process: CPU and wall seconds of the work, its
    peak resident memory above the start, its note, and with ``traced`` what it keeps
    (``tracemalloc``: the traced memory after the work and a collection, minus before).
    With ``cpu_limit``, the kernel ends the process (``SIGXCPU``) once the work has used
    that many CPU seconds (rounded up to whole seconds of the process's CPU)."""
    import resource
    import tracemalloc

    import scrapy_webclean

    work = case.prepare(n)
    gc.collect()
    if cpu_limit is not None:
        soft = math.ceil(process_cpu() + cpu_limit)
        hard = resource.getrlimit(resource.RLIMIT_CPU)[1]
        if hard != resource.RLIM_INFINITY:
            soft = min(soft, hard)
        resource.setrlimit(resource.RLIMIT_CPU, (soft, hard))
    if traced:
        tracemalloc.start()
    traced_before = tracemalloc.get_traced_memory()[0] if traced else 0
    reset = _reset_peak()
    before = _rss() if reset else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    cpu, wall, runs, note = _timed(work, case.repeatable and not traced)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 - before
    kept = None
    if traced:
        gc.collect()
        kept = tracemalloc.get_traced_memory()[0] - traced_before
        tracemalloc.stop()
    return {
        "cpu": cpu,
        "wall": wall,
        "runs": runs,
        "peak": max(peak, 0),
        "peak_reset": reset,
        "kept": kept,
        "note": note,
        "module": str(Path(scrapy_webclean.__file__).resolve().parent),
    }


def _import_from(package: str) -> None:
    """Make ``scrapy_webclean`` and all its modules import from the checkout at
    ``package``: first on the path, and the installed package's editable finder (which
    would serve a module the checkout lacks from the installed tree) taken away."""
    sys.path.insert(0, package)
    for finder in list(sys.meta_path):
        mapping = getattr(sys.modules.get(getattr(finder, "__module__", "")), "MAPPING", None)
        if isinstance(mapping, dict) and "scrapy_webclean" in mapping:
            sys.meta_path.remove(finder)


def _strays(package: str) -> list[str]:
    """The ``scrapy_webclean`` modules loaded from outside the checkout at ``package``."""
    inside = (Path(package) / "scrapy_webclean").resolve()
    files = {name: getattr(module, "__file__", None) for name, module in list(sys.modules.items())}
    return [
        name
        for name, file in files.items()
        if (name == "scrapy_webclean" or name.startswith("scrapy_webclean."))
        and file
        and not Path(file).resolve().is_relative_to(inside)
    ]


def _child(key: str, n: int, traced: bool, package: str | None, cpu_limit: float | None) -> int:
    # The benchmarks folder is no place to import the package's dependencies from.
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]
    if package:
        _import_from(package)
    try:
        result = measure_here(CASES[key], n, traced, cpu_limit)
    except Exception as exc:
        result = {"error": f"{type(exc).__name__}: {exc}"[:200]}
    strays = _strays(package) if package else []
    if strays:
        result = {"error": f"imported from outside {package}: {', '.join(strays[:3])}"}
    print(RESULT_MARK + json.dumps(result), flush=True)
    return 0


# -- the parent: sizes, sides and tables -------------------------------------------------


@dataclass(slots=True)
class Point:
    """One class at one size: ``status`` is ``ok``, ``timeout``, ``error`` or ``skipped``."""

    factor: int
    n: int
    status: str
    cpu: float | None = None
    wall: float | None = None
    peak: int | None = None
    note: str = ""
    #: The runs of the work whose least time ``cpu`` is (a fast repeatable work's).
    runs: int = 1


@dataclass(slots=True)
class Row:
    """One class on one side: its sizes, and what the work keeps at ``kept_n``."""

    key: str
    side: str
    points: list[Point] = field(default_factory=list)
    kept: int | None = None
    kept_n: int | None = None
    #: Why ``kept`` is missing, when the run under tracemalloc failed.
    kept_note: str = ""
    module: str = ""

    def at(self, factor: int) -> Point | None:
        return next((p for p in self.points if p.factor == factor), None)

    def largest(self) -> Point | None:
        done = [p for p in self.points if p.status == "ok"]
        return done[-1] if done else None


def wall_limit(timeout: float) -> float:
    """The wall-clock seconds after which a child is killed whatever its CPU: a backstop
    for a process starved of the CPU or stuck outside it."""
    return WALL_MARGIN * timeout + WALL_STARTUP


def run_child(
    key: str,
    n: int,
    package: str | None,
    timeout: float,
    traced: bool = False,
    wall: float | None = None,
) -> dict[str, Any]:
    """One measurement in a process of its own, its work given ``timeout`` CPU seconds
    (and the process :func:`wall_limit` seconds, or ``wall``); ``{"timeout": True}`` when
    it was ended for either, ``{"error": ...}`` when it failed."""
    command = [sys.executable, str(Path(__file__).resolve()), "--child", key, str(n)]
    command += ["--cpu-limit", repr(timeout)]
    if traced:
        command.append("--traced")
    env = dict(os.environ)
    if package:
        command += ["--package", package]
        env["PYTHONPATH"] = os.pathsep.join(filter(None, (package, env.get("PYTHONPATH"))))
    try:
        done = subprocess.run(
            command,
            capture_output=True,
            text=True,
            timeout=wall_limit(timeout) if wall is None else wall,
            env=env,
            cwd=HERE,
        )
    except subprocess.TimeoutExpired:
        return {"timeout": True, "wall": True}
    if done.returncode in (-signal.SIGXCPU, -signal.SIGKILL):
        return {"timeout": True}
    for line in reversed(done.stdout.splitlines()):
        if line.startswith(RESULT_MARK):
            result: dict[str, Any] = json.loads(line[len(RESULT_MARK) :])
            if "error" not in result and package:
                wanted = (Path(package) / "scrapy_webclean").resolve()
                if Path(result["module"]) != wanted:
                    return {"error": f"imported {result['module']}, not {wanted}"}
            return result
    tail = (done.stderr.strip().splitlines() or ["no output"])[-1]
    return {"error": f"exit {done.returncode}: {tail}"[:200]}


def run_case(case: Case, package: str | None, side: str, timeout: float, scale: float = 1.0) -> Row:
    """``case`` at n, 2n, 4n and 8n for the checkout at ``package`` (None: the installed
    package), each size in a process of its own; after a timeout or an error the larger
    sizes are skipped. A ``kept`` class is then run under tracemalloc at the largest size
    measured."""
    row = Row(case.key, side)
    base = max(1, round(case.n * scale))
    stopped = ""
    for factor in FACTORS:
        n = base * factor
        if stopped:
            row.points.append(Point(factor, n, "skipped"))
            continue
        result = run_child(case.key, n, package, timeout)
        if result.get("timeout"):
            killed = f"killed after {wall_limit(timeout):g} s of wall clock"
            row.points.append(
                Point(factor, n, "timeout", note=killed if result.get("wall") else "")
            )
            stopped = "timeout"
        elif "error" in result:
            row.points.append(Point(factor, n, "error", note=result["error"]))
            stopped = "error"
        else:
            row.module = result["module"]
            row.points.append(
                Point(
                    factor,
                    n,
                    "ok",
                    result["cpu"],
                    result["wall"],
                    result["peak"],
                    result["note"],
                    result.get("runs", 1),
                )
            )
        print(f"  {case.key} {side} {factor}n: {row.points[-1].status}", file=sys.stderr)
    largest = row.largest()
    if case.kept and largest is not None:
        limit = TRACED_SLOWDOWN * timeout
        result = run_child(case.key, largest.n, package, limit, traced=True)
        if result.get("kept") is not None:
            row.kept, row.kept_n = int(result["kept"]), largest.n
        elif result.get("timeout"):
            row.kept_note = f"not measured (> {limit:g} s under tracemalloc)"
        else:
            row.kept_note = f"not measured ({result.get('error', '')})"
    return row


def _seconds(point: Point | None, timeout: float) -> str:
    if point is None or point.status == "skipped":
        return "-"
    if point.status == "timeout":
        return f"> {timeout:g} s"
    if point.status == "error":
        return "error"
    assert point.cpu is not None
    if point.cpu >= 10:
        return f"{point.cpu:.1f}"
    return f"{point.cpu:.3f}" if point.cpu >= 0.01 else f"{point.cpu:.5f}"


def _ratio(row: Row) -> str:
    first, last = row.at(1), row.at(FACTORS[-1])
    if first is None or last is None or first.status != "ok" or last.status != "ok":
        return "-"
    assert first.cpu is not None and last.cpu is not None
    return f"{last.cpu / first.cpu:.1f}" if first.cpu > 0 else "-"


def _doubling(row: Row) -> str:
    """The time ratio of the two largest sizes measured (linear: 2; quadratic: 4)."""
    done = [p for p in row.points if p.status == "ok" and p.cpu]
    if len(done) < 2:
        return "-"
    small, large = done[-2], done[-1]
    assert small.cpu is not None and large.cpu is not None
    return f"{large.cpu / small.cpu:.1f}"


def _mb(value: int | None) -> str:
    return "-" if value is None else f"{value / MB:.1f}"


def _kept(case: Case, row: Row) -> str:
    if row.kept is None or row.kept_n is None:
        return f"kept {row.kept_note}" if row.kept_note else ""
    if case.kept_per_unit:
        return f"kept {row.kept / row.kept_n:,.0f} B per {case.unit.rstrip('s')}"
    return f"kept {_mb(row.kept)} MB"


def outcome(case: Case, row: Row) -> str:
    """What happened at the largest size run: the work's note (or the error), what it
    kept, and which size when 8n was not reached."""
    errors = [p for p in row.points if p.status == "error"]
    largest = row.largest()
    if largest is None:
        return f"error: {errors[0].note}" if errors else ""
    parts = [largest.note, _kept(case, row)]
    if errors:
        parts.append(f"error at {errors[0].factor}n: {errors[0].note}")
    parts += [f"{p.factor}n {p.note}" for p in row.points if p.status == "timeout" and p.note]
    text = "; ".join(p for p in parts if p)
    return text if largest.factor == FACTORS[-1] else f"at {largest.factor}n: {text}"


def side_table(rows: Sequence[Row], timeout: float) -> str:
    """One side's table: per class its n, CPU seconds at each size, the growth, the peak
    memory at 8n, what happened, and what the issue measured."""
    from report_tables import md_table

    header = ["class", "n"] + [f"CPU s at {f}n" if f > 1 else "CPU s at n" for f in FACTORS]
    header += ["8n / n", "× per doubling", f"peak MB at {FACTORS[-1]}n", "at the largest size"]
    header += ["the issue measured (before)"]
    body = []
    for row in rows:
        case = CASES[row.key]
        cells = [case.label, f"{row.points[0].n:,} {case.unit}"]
        cells += [_seconds(row.at(f), timeout) for f in FACTORS]
        last = row.at(FACTORS[-1])
        cells += [_ratio(row), _doubling(row), _mb(last.peak if last else None)]
        cells += [outcome(case, row).replace("|", "\\|"), case.issue]
        body.append(cells)
    return md_table(header, body)


def summary(case: Case, row: Row, timeout: float) -> str:
    """A class on one side in a cell: the time at 8n (or where it stopped), the growth, the
    peak memory and what the work kept or did."""
    last = row.at(FACTORS[-1])
    stop = next((p for p in row.points if p.status in ("timeout", "error")), None)
    if last is not None and last.status == "ok":
        head = f"{_seconds(last, timeout)} s at 8n (8n/n {_ratio(row)}), peak {_mb(last.peak)} MB"
    elif stop is not None and stop.status == "timeout":
        head = f"> {timeout:g} s at {stop.factor}n (× {_doubling(row)} per doubling before)"
    else:
        head = "error"
    note = outcome(case, row)
    return f"{head}; {note}".replace("|", "\\|") if note else head


def compare_table(before: Sequence[Row], after: Sequence[Row], timeout: float) -> str:
    from report_tables import md_table

    later = {row.key: row for row in after}
    body = [
        [
            CASES[row.key].label,
            summary(CASES[row.key], row, timeout),
            summary(CASES[row.key], later[row.key], timeout),
        ]
        for row in before
        if row.key in later
    ]
    return md_table(["class", "before", "after"], body)


def _git(path: Path) -> str:
    """The checkout's commit, and whether its package has uncommitted changes."""
    try:
        head = subprocess.run(
            ["git", "-C", str(path), "rev-parse", "--short", "HEAD"],
            capture_output=True, text=True, check=True,
        ).stdout.strip()  # fmt: skip
        dirty = subprocess.run(
            ["git", "-C", str(path), "status", "--porcelain", "--", "scrapy_webclean"],
            capture_output=True, text=True, check=True,
        ).stdout.strip()  # fmt: skip
    except (OSError, subprocess.CalledProcessError):
        return "not a git checkout"
    return f"git {head}" + (" with uncommitted changes" if dirty else "")


def report(
    sides: Sequence[tuple[str, str | None]],
    rows: dict[str, list[Row]],
    timeout: float,
    command: str,
) -> str:
    """The Markdown: a table per side, then (two sides) the before / after table."""
    out = ["# Hostile inputs: time and memory by input size (issue 54)", ""]
    out.append(f"(`{command}`, {date.today().isoformat()}; one process per measurement.)")
    out += [
        "",
        "CPU seconds of the work alone (its input made and the code warmed up before, in the "
        f"same process; a work under {MIN_TIMED:g} s that keeps no state: the least of runs "
        f"adding up to {MIN_TIMED:g} s); peak MB: the process's `ru_maxrss` after the work, its peak reset "
        "just before it, minus its resident memory then; kept: `tracemalloc`'s traced "
        "memory after the work, in a second run at the largest size. "
        f"`> {timeout:g} s`: ended after {timeout:g} s of CPU (`RLIMIT_CPU`); larger sizes "
        "not run (`-`). "
        "`× per doubling`: the time ratio of the two largest sizes measured (linear 2, "
        "quadratic 4).",
    ]
    for side, package in sides:
        module = next((r.module for r in rows[side] if r.module), "")
        where = Path(module).parent if module else Path(package or ROOT)
        out += [
            "",
            f"## {side}: `{module or package or 'the installed package'}` ({_git(where)})",
            "",
        ]
        out.append(side_table(rows[side], timeout))
    if len(sides) == 2:
        out += ["", "## Before and after", ""]
        out.append(compare_table(rows[sides[0][0]], rows[sides[1][0]], timeout))
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--package", help="a checkout whose scrapy_webclean is measured")
    parser.add_argument("--before", help="a checkout measured too, as the before column")
    parser.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT)
    parser.add_argument("--classes", default=",".join(CASES), help="keys, comma-separated")
    parser.add_argument("--scale", type=float, default=1.0, help="multiplies every n")
    parser.add_argument("--out", type=Path, help="write the Markdown here too")
    parser.add_argument("--json", type=Path, help="write the measurements here")
    parser.add_argument("--child", nargs=2, metavar=("CLASS", "N"), help=argparse.SUPPRESS)
    parser.add_argument("--traced", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--cpu-limit", type=float, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        return _child(args.child[0], int(args.child[1]), args.traced, args.package, args.cpu_limit)
    keys = [k for k in args.classes.split(",") if k]
    unknown = [k for k in keys if k not in CASES]
    if unknown:
        parser.error(f"unknown classes {unknown}; known: {', '.join(CASES)}")
    package = str(Path(args.package).resolve()) if args.package else None
    sides: list[tuple[str, str | None]] = []
    if args.before:
        sides.append(("before", str(Path(args.before).resolve())))
        sides.append(("after", package))
    else:
        sides.append(("measured", package))
    rows: dict[str, list[Row]] = {side: [] for side, _ in sides}
    for key in keys:  # (class by class, both sides in turn: the same load on each)
        for side, path in sides:
            rows[side].append(run_case(CASES[key], path, side, args.timeout, args.scale))
    command = "benchmarks/hostile.py " + " ".join(argv if argv is not None else sys.argv[1:])
    text = report(sides, rows, args.timeout, command.strip())
    print(text, end="")
    if args.out:
        args.out.write_text(text, "utf-8")
    if args.json:
        data = {side: [asdict(row) for row in side_rows] for side, side_rows in rows.items()}
        args.json.write_text(json.dumps(data, indent=1), "utf-8")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(HERE))  # (report_tables, for the parent's tables)
    raise SystemExit(main())
