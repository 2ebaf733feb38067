"""The block report rendered for real in headless Chromium: two demo pages (one Chinese),
the screenshot is not blank, and the tinted blocks are where the article and the
navigation are, read from the positions the browser laid out."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from demo_site.site import build_site
from scrapy_webclean.cleaning import Cleaner, CleanOptions
from scrapy_webclean.commands.page_view import judge_images
from scrapy_webclean.report import render_report

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None,
    reason="chromium is not installed (make system-deps installs Debian's chromium)",
)
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--hide-scrollbars", "--window-size=1280,1000"]  # fmt: skip

# Measures, after layout, every block and the element holding a given text; for the test
# copy only (the report itself carries no script and forbids them).
PROBE = """<script>
window.addEventListener('load', () => {
  const box = e => { const r = e.getBoundingClientRect();
    return {x: r.left, y: r.top, w: r.width, h: r.height}; };
  const blocks = [...document.querySelectorAll('[data-wc]')].map(e => Object.assign(box(e),
    {label: e.dataset.wc, outer: e.hasAttribute('data-wc-outer')}));
  const needle = document.body.dataset.needle;
  const holder = [...document.querySelectorAll('p, div, td, li')].filter(
    e => e.closest('#wc-panel') === null && e.textContent.includes(needle)).pop();
  const out = document.createElement('pre'); out.id = 'wc-probe';
  out.textContent = JSON.stringify({blocks, holder: holder ? box(holder) : null});
  document.body.appendChild(out);
});
</script>"""


def demo_page(lang: str) -> tuple[str, bytes, str, str]:
    site = build_site(8000)
    page = next(
        p for p in site.truth["pages"]
        if p["type"] == "article" and p["lang"] == lang and not p.get("copy_of")
    )  # fmt: skip
    resource = site.resources[page["url"]]
    return page["url"], resource.body, resource.content_type, page["paragraphs"][0]


def chromium(args: list[str], tmp_path: Path) -> str:
    assert CHROMIUM is not None
    done = subprocess.run(
        [CHROMIUM, *FLAGS, f"--user-data-dir={tmp_path / 'profile'}", *args],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    return done.stdout


def inside(inner: dict[str, float], outer: dict[str, float], slack: float = 4) -> bool:
    return (
        inner["x"] >= outer["x"] - slack
        and inner["y"] >= outer["y"] - slack
        and inner["x"] + inner["w"] <= outer["x"] + outer["w"] + slack
        and inner["y"] + inner["h"] <= outer["y"] + outer["h"] + slack
    )


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_report_shows_the_blocks_where_they_are(lang: str, tmp_path: Path) -> None:
    from PIL import Image

    url, body, content_type, paragraph = demo_page(lang)
    cleaner = Cleaner(replace(CleanOptions(), keep_page=True))
    result = cleaner.clean(body, url, content_type=content_type)
    report = render_report(result, judge_images(body, url))
    # Self-contained: nothing that runs, nothing fetched.
    assert "<script" not in report.lower()
    assert not re.search(r"""(?<![-\w])(?:src|href)=["']https?://""", report)
    page = tmp_path / "report.html"
    page.write_text(report, "utf-8")
    shot = tmp_path / "report.png"
    chromium([f"--screenshot={shot}", page.as_uri()], tmp_path)
    image = Image.open(shot).convert("RGB")
    assert image.size == (1280, 1000)
    colours = image.getcolors(maxcolors=1 << 20) or []
    assert len(colours) > 50, "the screenshot is blank"

    # Where the browser put the blocks, and the first paragraph of the article.
    needle = "".join(paragraph.split())[:12] if lang == "zh" else paragraph[:40]
    data = probe_page(report, needle, tmp_path)
    holder = data["holder"]
    assert holder and holder["w"] > 0
    content = [b for b in data["blocks"] if b["label"] == "content" and not b["outer"]]
    noise = [b for b in data["blocks"] if b["label"] == "noise" and not b["outer"]]
    assert content and noise
    # The article's first paragraph lies inside a block tinted as content ...
    around = [b for b in content if inside(holder, b)]
    assert around, (holder, content)
    # ... and the screenshot is tinted green there: the page's white shows through a
    # green wash (text pixels aside, most of the block's pixels are greenish).
    block = around[0]
    samples = [
        image.getpixel((int(block["x"] + block["w"] * fx), int(block["y"] + block["h"] * fy)))
        for fx in (0.05, 0.3, 0.6, 0.95)
        for fy in (0.05, 0.5, 0.95)
        if block["y"] + block["h"] * fy < 1000
    ]
    greenish = [px for px in samples if px[1] > px[0] + 5 and px[1] > px[2] + 5]
    assert len(greenish) >= len(samples) // 2, samples
    # A noise block on screen is reddish.
    visible = [b for b in noise if b["w"] > 20 and b["h"] > 8 and b["y"] + b["h"] < 1000]
    reddish = 0
    for b in visible:
        px = image.getpixel((int(b["x"] + 4), int(b["y"] + b["h"] / 2)))
        reddish += px[0] > px[1] + 5 and px[0] > px[2] + 5
    assert visible and reddish >= len(visible) // 2


def probe_page(report: str, needle: str, tmp_path: Path) -> dict[str, Any]:
    """Where Chromium lays out the report's blocks and the element holding ``needle``."""
    probe = report.replace("<meta http-equiv", "<meta data-off", 1)
    probe = probe.replace("<body", f'<body data-needle="{needle}"', 1) + PROBE
    probed = tmp_path / "probe.html"
    probed.write_text(probe, "utf-8")
    dom = chromium(["--dump-dom", "--virtual-time-budget=3000", probed.as_uri()], tmp_path)
    found = re.search(r'<pre id="wc-probe">(.*?)</pre>', dom, re.S)
    assert found, dom[-500:]
    data: dict[str, Any] = json.loads(found.group(1).replace("&quot;", '"').replace("&amp;", "&"))
    return data


def test_a_page_without_its_style_sheets_stays_readable(tmp_path: Path) -> None:
    """An unsized SVG logo and a long menu, which fill the first screens of a page shown
    without its CSS, are kept small: the article starts on the first screen, and its lines
    are marked as the extracted text."""
    logo = '<svg viewBox="0 0 10 10"><rect width="10" height="10"/></svg>'
    menu = "".join(f'<li><a href="/section/{i}">Section {i}</a></li>' for i in range(60))
    story = " ".join(f"Sentence {i} says how the harbour works went on." for i in range(12))
    html = (
        f'<html><head><title>Harbour</title></head><body><header><a href="/">{logo}</a>'
        f'<nav class="menu"><ul>{menu}</ul></nav></header><article><h1>Harbour works</h1>'
        f"<p>{story}</p><p>{story} Again.</p></article></body></html>"
    )
    result = Cleaner(replace(CleanOptions(), keep_page=True)).clean(
        html, "https://news.example.com/harbour.html"
    )
    report = render_report(result)
    assert report.count('data-wc-kept="1"') >= 2
    data = probe_page(report, "Sentence 0 says", tmp_path)
    assert data["holder"] is not None and data["holder"]["y"] < 600, data["holder"]


GLYPHS = """<html><body><pre id="glyphs"></pre><script>
const draw = ch => { const c = document.createElement('canvas'); c.width = c.height = 64;
  const x = c.getContext('2d'); x.font = '48px sans-serif'; x.fillText(ch, 4, 52);
  return Array.from(x.getImageData(0, 0, 64, 64).data).join(','); };
document.getElementById('glyphs').textContent =
  draw('中') === draw('国') ? 'boxes' : 'glyphs';
</script></body></html>"""


def test_chinese_text_renders_as_glyphs_not_boxes(tmp_path: Path) -> None:
    """The Chinese report above is only worth looking at with a CJK font: without one,
    every character is the same empty box (.ci/run installs Debian's fonts-noto-cjk)."""
    page = tmp_path / "glyphs.html"
    page.write_text(GLYPHS, "utf-8")
    dom = chromium(["--dump-dom", "--virtual-time-budget=2000", page.as_uri()], tmp_path)
    found = re.search(r'<pre id="glyphs">(\w+)</pre>', dom)
    assert found, dom[-300:]
    assert found.group(1) == "glyphs", "no CJK font: install fonts-noto-cjk"
