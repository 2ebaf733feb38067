"""A page that builds its article in JavaScript, fetched through scrapy-playwright and
cleaned by the add-on (the recipe of ``docs/rendered-pages.md``): a real ``scrapy
runspider`` crawl of a page served on loopback, rendered by Debian's chromium.

The browser run is the only way to get that text: the same page fetched without the
browser carries none of it (no JSON holds it either, so the script text of issue 55 does
not find it).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import serving

pytest.importorskip("scrapy_playwright", reason="scrapy-playwright is not installed")

ROOT = Path(__file__).resolve().parent.parent
#: Debian's chromium (``apt-get install chromium``); Playwright's own build would be
#: ``playwright install chromium``.
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(
        not os.access(CHROMIUM, os.X_OK),
        reason="no chromium: /usr/bin/chromium is not installed (apt-get install chromium)",
    ),
]

#: The sentences the page's script writes into the page (as word lists, so that no
#: sentence stands in the page's source as one piece).
SENTENCES = [
    "The night ferry to the island returns on Friday after a winter in the dry dock.",
    "Its owners fitted new engines that burn half the fuel of the old ones.",
    "The crossing takes forty minutes and runs every hour until midnight.",
    "Tickets go on sale at the harbour office and on the operator's website.",
]
RENDERED_MARK = "forty minutes"
PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>The night ferry returns</title></head>
<body><nav><a href="/">Home</a> <a href="/news">News</a></nav>
<main><h1>The night ferry returns</h1><div id="story"></div></main>
<script>
  const words = {words};
  const story = document.getElementById("story");
  for (const sentence of words) {{
    const p = document.createElement("p");
    p.textContent = sentence.join(" ");
    story.appendChild(p);
  }}
</script></body></html>
""".format(words=json.dumps([s.split(" ") for s in SENTENCES]))

SPIDER = """
import scrapy
from scrapy_playwright.page import PageMethod
from scrapy_webclean import page_item

HANDLER = "scrapy_playwright.handler.ScrapyPlaywrightDownloadHandler"


class RenderedSpider(scrapy.Spider):
    name = "rendered"
    custom_settings = {
        "ADDONS": {"scrapy_webclean.Addon": 100},
        "DOWNLOAD_HANDLERS": {"http": HANDLER, "https": HANDLER},
        "TWISTED_REACTOR": "twisted.internet.asyncioreactor.AsyncioSelectorReactor",
        "WEBCLEAN_WORKERS": 0,
        "TELNETCONSOLE_ENABLED": False,
        "LOG_LEVEL": "INFO",
    }

    def __init__(self, url="", **kwargs):
        super().__init__(**kwargs)
        self.url = url

    async def start(self):
        yield scrapy.Request(
            self.url,
            meta={
                "playwright": True,
                "playwright_page_methods": [PageMethod("wait_for_selector", "#story p")],
            },
            cb_kwargs={"rendered": True},
        )
        # the same page without the browser (the query only makes it another request)
        yield scrapy.Request(self.url + "?plain", cb_kwargs={"rendered": False})

    def parse(self, response, rendered):
        yield page_item(response, rendered=rendered)
"""


class _Handler(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        body = PAGE.encode("utf-8")
        found = self.path.split("?")[0] == "/story"
        self.send_response(200 if found else 404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body if found else b"")

    def log_message(self, *args: Any) -> None:
        pass


def test_a_page_built_in_javascript_is_cleaned_after_rendering(tmp_path: Path) -> None:
    spider = tmp_path / "rendered_spider.py"
    spider.write_text(SPIDER, "utf-8")
    out = tmp_path / "items.jsonl"
    # (chromium's sandbox cannot start as root, which a container's tests often are)
    args = ["--no-sandbox"] if os.geteuid() == 0 else []
    launch = {"executable_path": CHROMIUM, "headless": True, "args": args}
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    with serving(_Handler) as site:
        command = [
            sys.executable, "-m", "scrapy", "runspider", str(spider),
            "-a", f"url={site}/story",
            "-O", f"{out}:jsonlines",
            "-s", "PLAYWRIGHT_LAUNCH_OPTIONS=" + json.dumps(launch),
        ]  # fmt: skip
        done = subprocess.run(
            command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120
        )
    assert done.returncode == 0, done.stderr[-3000:]
    items = {
        item["rendered"]: item for item in map(json.loads, out.read_text("utf-8").splitlines())
    }
    assert set(items) == {True, False}, done.stderr[-3000:]
    rendered, plain = items[True], items[False]
    assert rendered["title"] == plain["title"] == "The night ferry returns"
    for sentence in SENTENCES:
        assert sentence in rendered["text"]
    assert rendered["text_source"] == "html"
    assert RENDERED_MARK not in plain["text"]
    assert "html" not in rendered  # cleaned: the raw page was dropped by CleanPipeline
