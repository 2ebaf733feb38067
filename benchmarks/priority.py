"""Crawl priority (issue 24): does a budgeted crawl reach the articles first?

Generates a news site (seeded, deterministic) where every page has a navigation bar and a
footer full of links to non-article pages (tag and archive pages), and article pages link
to other articles inside their text; serves it on loopback; crawls it twice with a budget
(``CLOSESPIDER_PAGECOUNT``, 20% of the pages by default), one request at a time, with
Scrapy's default order (``DEPTH_PRIORITY = 0``) and with ``WEBCLEAN_PRIORITY_ENABLED``; and
prints the share of article pages among the pages fetched, off vs on, and their ratio.

    python benchmarks/priority.py [--pages 10000] [--budget 0.2] [--seed 24]

``tests/test_priority.py`` runs the same crawl at 300 pages.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any, ClassVar

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from demo_site.server import serve_handler  # noqa: E402

_WORDS = [
    "harbour",
    "council",
    "river",
    "market",
    "school",
    "winter",
    "station",
    "bridge",
    "library",
    "festival",
    "railway",
    "museum",
    "garden",
    "farmers",
    "workers",
    "budget",
    "election",
    "hospital",
    "district",
    "league",
    "village",
    "mayor",
    "teachers",
    "tunnel",
    "ferry",
    "orchard",
    "weather",
    "coast",
    "mountain",
    "factory",
]
_VERBS = ["opened", "reported", "voted", "announced", "repaired", "visited", "planned", "delayed"]


class Site:
    """A generated site of ``pages`` pages: the home page, articles (``articles`` share)
    and non-article pages (tag and archive pages, the rest)."""

    def __init__(self, pages: int, seed: int = 24, articles: float = 0.2) -> None:
        self.seed = seed
        self.articles = max(2, round(pages * articles))
        others = max(2, pages - 1 - self.articles)
        self.tags = others * 2 // 3
        self.archives = others - self.tags
        self.total = 1 + self.articles + self.tags + self.archives

    def article_url(self, i: int) -> str:
        return f"/article/{i}.html"

    def other_url(self, i: int) -> str:
        if i < self.tags:
            return f"/tag/{i}.html"
        return f"/archive/{i - self.tags}.html"

    @staticmethod
    def is_article(path: str) -> bool:
        return path.startswith("/article/")

    def _rng(self, path: str) -> random.Random:
        return random.Random(f"{self.seed}:{path}")

    def _chrome(self, rng: random.Random) -> tuple[str, str]:
        others = self.tags + self.archives
        nav = rng.sample(range(others), min(25, others))
        foot = rng.sample(range(others), min(15, others))
        nav_html = "".join(f'<li><a href="{self.other_url(i)}">{_label(i)}</a></li>' for i in nav)
        foot_html = " | ".join(f'<a href="{self.other_url(i)}">{_label(i)}</a>' for i in foot)
        header = (
            '<header><div class="logo"><a href="/">Riverside News</a></div>'
            f'<nav class="menu"><ul>{nav_html}</ul></nav></header>'
        )
        footer = (
            f'<footer class="footer"><p>Archives and topics: {foot_html}</p>'
            "<p>Copyright Riverside News. All rights reserved.</p></footer>"
        )
        return header, footer

    def page(self, path: str) -> str | None:
        """The page's HTML, or None for a path the site does not have."""
        rng = self._rng(path)
        if path == "/":
            title = "Riverside News"
            latest = rng.sample(range(self.articles), min(10, self.articles))
            main = (
                "<main><h1>Latest news</h1><ul>"
                + "".join(
                    f'<li><a href="{self.article_url(i)}">{_headline(i)}</a></li>' for i in latest
                )
                + "</ul></main>"
            )
        elif path.startswith("/article/"):
            i = _number(path, self.articles)
            if i is None:
                return None
            title = _headline(i)
            main = (
                f"<main><article><h1>{title}</h1>" + _article_text(rng, self) + "</article></main>"
            )
        elif path.startswith(("/tag/", "/archive/")):
            count = self.tags if path.startswith("/tag/") else self.archives
            i = _number(path, count)
            if i is None:
                return None
            title = f"Topic {i}" if path.startswith("/tag/") else f"Archive {i}"
            listed = rng.sample(range(self.articles), min(3, self.articles))
            more = rng.sample(range(self.tags + self.archives), 3)
            main = (
                f"<main><h1>{title}</h1><ul>"
                + "".join(
                    f'<li><a href="{self.article_url(a)}">{_headline(a)}</a></li>' for a in listed
                )
                + "".join(f'<li><a href="{self.other_url(o)}">{_label(o)}</a></li>' for o in more)
                + "</ul></main>"
            )
        else:
            return None
        header, footer = self._chrome(rng)
        return (
            f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{title}</title></head>"
            f"<body>{header}{main}{footer}</body></html>"
        )


def _label(i: int) -> str:
    return f"{_WORDS[i % len(_WORDS)].title()} {i}"


def _headline(i: int) -> str:
    rng = random.Random(i)
    return f"{rng.choice(_WORDS).title()} {rng.choice(_VERBS)} in story {i}"


def _number(path: str, count: int) -> int | None:
    stem = path.rsplit("/", 1)[-1].removesuffix(".html")
    return int(stem) if stem.isdigit() and int(stem) < count else None


def _article_text(rng: random.Random, site: Site) -> str:
    """Five paragraphs of prose; three of them carry a link to another article."""
    paragraphs = []
    for p in range(5):
        sentences = []
        for _ in range(4):
            words = [rng.choice(_WORDS) for _ in range(rng.randint(10, 16))]
            sentences.append(f"The {words[0]} {rng.choice(_VERBS)} " + " ".join(words[1:]) + ".")
        text = " ".join(sentences)
        if p < 3:
            other = rng.randrange(site.articles)
            text += (
                f' Read more in <a href="{site.article_url(other)}">{_headline(other)}</a>, '
                "which our reporters followed through the season."
            )
        paragraphs.append(f"<p>{text}</p>")
    return "".join(paragraphs)


@contextmanager
def serve(site: Site) -> Iterator[str]:
    """Serve ``site`` on a free loopback port; yields its root URL."""

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            html = site.page(self.path)
            if html is None:
                self.send_error(404)
                return
            data = html.encode("utf-8")
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    with serve_handler(Handler) as root:
        yield root


def crawl(root: str, budget: int, enabled: bool) -> dict[str, Any]:
    """Crawl ``root`` in a ``scrapy`` subprocess, ``budget`` pages at most; returns the
    fetched paths (in order), the crawl's stats of interest and its seconds."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "fetched.json"
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
        started = time.perf_counter()
        done = subprocess.run(
            [sys.executable, str(Path(__file__).resolve()), "--child", root, str(budget),
             "1" if enabled else "0", str(out)],
            env=env, capture_output=True, timeout=3600,
        )  # fmt: skip
        seconds = time.perf_counter() - started
        if done.returncode != 0 or not out.exists():
            raise RuntimeError(done.stderr.decode("utf-8", "replace")[-3000:])
        data: dict[str, Any] = json.loads(out.read_text("utf-8"))
    data["seconds"] = seconds
    return data


def article_share(paths: list[str]) -> float:
    return sum(Site.is_article(p) for p in paths) / max(1, len(paths))


def _child(root: str, budget: int, enabled: bool, out: Path) -> None:
    """The crawl itself (in its own process: one Twisted reactor per crawl)."""
    from urllib.parse import urlsplit

    from scrapy import Spider
    from scrapy.crawler import CrawlerProcess

    fetched: list[str] = []

    class SiteSpider(Spider):
        name = "site"
        start_urls: ClassVar[list[str]] = [root + "/"]

        def parse(self, response: Any) -> Any:
            fetched.append(urlsplit(response.url).path)
            for href in response.css("a::attr(href)").getall():
                yield response.follow(href, callback=self.parse)

    process = CrawlerProcess(
        {
            "ADDONS": {"scrapy_webclean.Addon": 100},
            "WEBCLEAN_PRIORITY_ENABLED": enabled,
            "WEBCLEAN_WORKERS": 0,
            "CLOSESPIDER_PAGECOUNT": budget,
            "CONCURRENT_REQUESTS": 1,
            "DEPTH_PRIORITY": 0,
            "ROBOTSTXT_OBEY": False,
            "LOG_LEVEL": "WARNING",
            "TELEMETRY_ENABLED": False,
        }
    )
    crawler = process.create_crawler(SiteSpider)
    process.crawl(crawler)
    process.start()
    assert crawler.stats is not None
    stats = {
        k: v for k, v in crawler.stats.get_stats().items() if k.startswith("webclean/priority")
    }
    out.write_text(json.dumps({"fetched": fetched[:budget], "stats": stats}), "utf-8")


def run(pages: int, budget_share: float = 0.2, seed: int = 24) -> dict[str, Any]:
    """Both crawls of one generated site; the article shares and their ratio."""
    site = Site(pages, seed)
    budget = max(1, round(site.total * budget_share))
    with serve(site) as root:
        off = crawl(root, budget, enabled=False)
        on = crawl(root, budget, enabled=True)
    share_off = article_share(off["fetched"])
    share_on = article_share(on["fetched"])
    return {
        "pages": site.total,
        "articles": site.articles,
        "budget": budget,
        "fetched_off": len(off["fetched"]),
        "fetched_on": len(on["fetched"]),
        "share_off": share_off,
        "share_on": share_on,
        "ratio": share_on / share_off if share_off else float("inf"),
        "seconds_off": off["seconds"],
        "seconds_on": on["seconds"],
        "stats_on": on["stats"],
    }


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        _, _, root, budget, enabled, out = sys.argv
        _child(root, int(budget), enabled == "1", Path(out))
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=10_000)
    parser.add_argument("--budget", type=float, default=0.2, help="share of the pages")
    parser.add_argument("--seed", type=int, default=24)
    args = parser.parse_args()
    result = run(args.pages, args.budget, args.seed)
    print(
        f"{result['pages']} pages ({result['articles']} articles), budget {result['budget']}: "
        f"article share off {result['share_off']:.1%} ({result['fetched_off']} fetched, "
        f"{result['seconds_off']:.0f} s), on {result['share_on']:.1%} "
        f"({result['fetched_on']} fetched, {result['seconds_on']:.0f} s), "
        f"ratio {result['ratio']:.2f}"
    )
    print(json.dumps(result["stats_on"], sort_keys=True))


if __name__ == "__main__":
    main()
