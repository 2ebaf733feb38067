"""A mutation fuzzer over the demo site's pages, and the invariants every page must keep.

Each fuzzed page is a demo page (English, Chinese, GBK ...) with one to four mutations:
bytes cut, repeated or swapped, tags inserted, broken or unclosed, deep nesting, scripts
and styles holding a marker, entities, charset labels changed, encodings mixed. For every
page, :func:`check_page` requires:

* nothing but :class:`~scrapy_webclean.errors.CleanError` (a refusal with a reason) escapes;
* the main text comes from the page's text (the text of its elements other than scripts
  and styles): every whitespace-separated piece of it is found there, or is a join of at
  most ``MAX_JOINS`` stretches found there (a line may join text that the markup put
  apart, and leave out a stray character between: whole lines are not required);
* no script or style content in it (the marker never shows up);
* the time per page stays bounded (``MAX_SECONDS``).

``make fuzz`` runs 10,000 pages (``python -m tests.fuzzing --pages 10000``); the test suite
runs a small sample (``tests/test_fuzz.py``).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache

from scrapy_webclean import clean_html
from scrapy_webclean.errors import CleanError
from scrapy_webclean.html.loader import load_html

MARKER = "FUZZMARKERX"
#: Bound on the time to clean one fuzzed page (generous: the machines are shared).
MAX_SECONDS = 10.0
#: Stretches of page text one whitespace-separated piece of main text may join.
MAX_JOINS = 3


def from_source(piece: str, source: str, joins: int = MAX_JOINS) -> bool:
    """True when ``piece`` is at most ``joins`` stretches of ``source`` put together
    (greedily: the longest stretch found first)."""
    while piece:
        if joins == 0:
            return False
        if piece in source:
            return True
        low, high = 0, len(piece)  # the longest prefix found in source: low
        while low < high:
            middle = (low + high + 1) // 2
            if piece[:middle] in source:
                low = middle
            else:
                high = middle - 1
        if low == 0:
            return False
        piece, joins = piece[low:], joins - 1
    return True


@lru_cache(maxsize=1)
def seed_pages() -> tuple[tuple[str, bytes, str], ...]:
    """The demo site's HTML pages: (url, body, content type)."""
    from demo_site.site import build_site

    site = build_site(8000)
    return tuple(
        (url, resource.body, resource.content_type)
        for url, resource in sorted(site.resources.items())
        if resource.content_type.startswith("text/html") and resource.status == 200
    )


def _span(body: bytes, rng: random.Random, most: int = 400) -> tuple[int, int]:
    start = rng.randrange(len(body) + 1)
    return start, min(len(body), start + rng.randint(1, most))


def _cut(body: bytes, rng: random.Random) -> bytes:
    start, end = _span(body, rng)
    return body[:start] + body[end:]


def _repeat(body: bytes, rng: random.Random) -> bytes:
    start, end = _span(body, rng)
    return body[:end] + body[start:end] * rng.randint(1, 20) + body[end:]


def _swap(body: bytes, rng: random.Random) -> bytes:
    a, b = sorted((_span(body, rng), _span(body, rng)))
    if a[1] > b[0]:
        return body
    return body[: a[0]] + body[b[0] : b[1]] + body[a[1] : b[0]] + body[a[0] : a[1]] + body[b[1] :]


def _truncate(body: bytes, rng: random.Random) -> bytes:
    return body[: rng.randrange(len(body) + 1)]


def _insert(body: bytes, rng: random.Random, piece: bytes) -> bytes:
    at = rng.randrange(len(body) + 1)
    return body[:at] + piece + body[at:]


_TAGS = [b"div", b"p", b"span", b"a", b"table", b"td", b"li", b"ul", b"h1", b"article", b"b"]
_INSERTS: list[Callable[[random.Random], bytes]] = [
    lambda r: b"<" + r.choice(_TAGS) + b">",
    lambda r: b"</" + r.choice(_TAGS) + b">",
    lambda r: b"<" + r.choice(_TAGS) + b' class="ad content article-body">',
    lambda r: f"<script>var x='{MARKER} </p><p>';</script>".encode(),
    lambda r: f"<style>.x::after{{content:'{MARKER}'}}</style>".encode(),
    lambda r: f'<script type=\'application/ld+json\'>{{"a":"{MARKER}"}}</script>'.encode(),
    lambda r: b"<!--",
    lambda r: b"<![CDATA[",
    lambda r: b"<div>" * r.randint(50, 3000),
    lambda r: b"</div>" * r.randint(1, 200),
    lambda r: b"&amp;&lt;&#x4e2d;&#0;&#xD800;&#99999999;&unknown;&",
    lambda r: bytes(r.randrange(256) for _ in range(r.randint(1, 64))),
    lambda r: "\u200b\ufeff\u00a0\u3000\u202e".encode(),
    lambda r: b'<meta charset="gbk">',
    lambda r: b'<meta http-equiv="Content-Type" content="text/html; charset=utf-16">',
    lambda r: "中文段落，包含足够长的句子来测试提取。".encode("gbk"),
    lambda r: b"<p>" + b"word " * r.randint(1, 400) + b"</p>",
    lambda r: b"<img src='x.png' alt='FUZZ ALT' width=728 height=90>",
    lambda r: b"<iframe src='http://127.0.0.1:1/'></iframe><frameset><frame src=a>",
    lambda r: b"<svg><text>t</text><script>" + MARKER.encode() + b"</script></svg>",
    lambda r: b"<textarea>",
    lambda r: b"<plaintext>",
]


def _insertion(body: bytes, rng: random.Random) -> bytes:
    return _insert(body, rng, rng.choice(_INSERTS)(rng))


def _recode(body: bytes, rng: random.Random) -> bytes:
    """Re-encode a stretch of the page in another encoding (mixed encodings)."""
    start, end = _span(body, rng, 2000)
    text = body[start:end].decode("utf-8", "replace")
    codec = rng.choice(["gbk", "utf-16-le", "latin-1", "big5", "shift_jis"])
    return body[:start] + text.encode(codec, "replace") + body[end:]


MUTATIONS: list[Callable[[bytes, random.Random], bytes]] = [
    _cut,
    _repeat,
    _swap,
    _truncate,
    _insertion,
    _insertion,
    _insertion,
    _recode,
]


def mutate(body: bytes, rng: random.Random) -> bytes:
    for _ in range(rng.randint(1, 4)):
        body = rng.choice(MUTATIONS)(body, rng)
    return body


def page_text(html: bytes, content_type: str | None) -> str:
    """The page's text as the cleaner reads it, scripts and styles left out, without
    whitespace."""
    root = load_html(html, content_type).root
    parts = []
    for element in root.iter():
        if not isinstance(element.tag, str):
            continue
        name = element.tag.rsplit("}", 1)[-1].lower()
        if name not in ("script", "style") and element.text:
            parts.append(element.text)
        if element.tail:
            parts.append(element.tail)
    return "".join("".join(parts).split())


@dataclass
class Report:
    pages: int = 0
    refused: Counter[str] = field(default_factory=Counter)
    problems: list[str] = field(default_factory=list)
    slowest: float = 0.0


def check_page(report: Report, url: str, html: bytes, content_type: str | None) -> None:
    """Clean one page and check the invariants; problems go into the report."""
    report.pages += 1
    started = time.monotonic()
    try:
        result = clean_html(html, url, content_type=content_type)
    except CleanError as exc:
        report.refused[exc.reason] += 1
        return
    except Exception as exc:  # the invariant under test: nothing else escapes
        report.problems.append(f"{url}: {type(exc).__name__}: {exc}")
        return
    finally:
        report.slowest = max(report.slowest, time.monotonic() - started)
    if time.monotonic() - started > MAX_SECONDS:
        report.problems.append(f"{url}: took {time.monotonic() - started:.1f} s")
    source = page_text(html, content_type)
    # (The marker can be text too: a script after an unclosed <textarea> is its text.)
    if MARKER in result.text and MARKER not in source:
        report.problems.append(f"{url}: script or style text in the main text")
    for piece in result.text.split():
        if not from_source(piece, source):
            report.problems.append(f"{url}: text not in the page: {piece[:80]!r}")
            break


def fuzz(pages: int, seed: int, progress: bool = False) -> Report:
    seeds = seed_pages()
    rng = random.Random(seed)
    report = Report()
    for n in range(pages):
        url, body, content_type = rng.choice(seeds)
        header = content_type if rng.random() < 0.7 else None
        check_page(report, url, mutate(body, rng), header)
        if progress and (n + 1) % 1000 == 0:
            print(f"{n + 1} pages, {len(report.problems)} problems", file=sys.stderr)
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Fuzz the cleaner with mutated demo pages.")
    parser.add_argument("--pages", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    started = time.monotonic()
    report = fuzz(args.pages, args.seed, progress=True)
    print(
        f"{report.pages} fuzzed pages in {time.monotonic() - started:.0f} s: "
        f"{report.pages - sum(report.refused.values())} cleaned, "
        f"{sum(report.refused.values())} refused with a reason "
        f"({', '.join(f'{k} {v}' for k, v in sorted(report.refused.items())) or 'none'}), "
        f"{len(report.problems)} problems; slowest page {report.slowest:.2f} s"
    )
    for problem in report.problems[:50]:
        print("  " + problem)
    return 1 if report.problems else 0


if __name__ == "__main__":
    sys.exit(main())
