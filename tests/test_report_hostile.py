"""Hostile pages through the block report, opened in real headless Chromium.

One page per attack (issue 54, section 1, and more of the same classes). Each payload, if
it ran, would set ``document.title`` to a word the page's source never spells
(``String.fromCharCode``), and each reference it smuggles points at a local HTTP server
the test runs, so a script that ran shows in the dumped DOM and a request that was made
shows in the server's log. Every report is opened twice: as written, and as a copy with
its Content-Security-Policy switched off and a probe script added that clicks, focuses,
hovers and submits everything (so the sanitizer alone is tested, and ``javascript:``
links and event handlers get their chance). A policy only takes away, so the copy can do
all the report can and more. For each page that is live in a browser, the raw page is
opened with the same probe first, to show that the payload fires there: a test of a
payload that cannot fire would prove nothing.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterator
from dataclasses import dataclass, replace
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import ClassVar

import pytest

from demo_site.server import serve_handler
from scrapy_webclean.cleaning import Cleaner, CleanOptions
from scrapy_webclean.commands.page_view import judge_images
from scrapy_webclean.report import PROLOGUE, render_report
from tests.test_report import CHROMIUM, chromium

pytestmark = pytest.mark.skipif(
    CHROMIUM is None,
    reason="chromium is not installed (make system-deps installs Debian's chromium)",
)

#: What a payload sets the title to, spelled only at run time.
PWNED = "PWNED"
JS = "document.title=String.fromCharCode(80,87,78,69,68)"
PARENT_JS = "parent." + JS
PAGE_URL = "https://hostile.example/news/harbour.html"
STORY = " ".join(f"Sentence {i} tells how the harbour works went on all year." for i in range(8))

# Clicks, focuses, hovers and submits everything, then marks the body: for the copies
# whose policy is off and the raw pages only (the report itself runs no script).
PROBE = """<script>
window.addEventListener('load', () => {
  const all = [...document.querySelectorAll('*')];
  for (const e of all) {
    try { e.dispatchEvent(new MouseEvent('mouseover', {bubbles: true})); } catch (x) {}
    try { if (e.focus) e.focus(); } catch (x) {}
  }
  for (const e of document.querySelectorAll('a, area, button, input, summary, label, mi, mtext')) {
    try { if (e.click) e.click();
          else e.dispatchEvent(new MouseEvent('click', {bubbles: true, cancelable: true})); }
    catch (x) {}
  }
  for (const f of document.querySelectorAll('form')) { try { f.requestSubmit(); } catch (x) {} }
  document.documentElement.setAttribute('data-probe', 'ran');
});
</script>"""


@dataclass(frozen=True)
class Vector:
    """One hostile page: markup for its head, its body and after its body (``HIT`` is the
    local server's root, ``FILE`` a local file's URL, ``JS`` the payload); ``live`` when
    the raw page fires in a browser; ``head_first`` False for a page whose only head
    comes after its body; ``sheets`` the style sheets a fetcher gave the report, by URL
    (``HIT`` and ``FILE`` replaced too)."""

    head: str = ""
    body: str = ""
    after: str = ""
    live: bool = True
    head_first: bool = True
    sheets: tuple[tuple[str, str], ...] = ()


VECTORS: dict[str, Vector] = {
    # The only head comes after the body: a policy put into it would land in the body,
    # where a browser does not enforce it, leaving a payload the sanitizer missed free.
    "late head after the body": Vector(
        head_first=False,
        body=f"<svg><style><img src=x onerror={JS}></style></svg>",
        after=f"<head><script>{JS}</script><style>body {{ background: url(HIT/late-css) }}"
        '</style><meta http-equiv="Content-Security-Policy" content="default-src *"></head>',
    ),
    "second html and body with handlers": Vector(
        body=f'<body onload="{JS}"><html onmouseover="{JS}">',
        after=f"</html><script>{JS}</script>",
    ),
    "svg style with an image": Vector(
        body=f"<svg><style><img src=x onerror={JS}></style></svg>"
        "<svg><style>@import url(HIT/svg-import);</style></svg>"
    ),
    "svg xlink:href, use, image and script": Vector(
        body=f'<svg width="200" height="40"><a xlink:href="javascript:{JS}">'
        '<rect width="200" height="40"/></a><image xlink:href="HIT/svg-image" width="9" '
        f'height="9"/><use href="HIT/svg-use#x"/><script>{JS}</script></svg>'
    ),
    "math href, xlink:href and mglyph": Vector(
        body=f'<math><mi xlink:href="javascript:{JS}">x</mi></math>'
        f'<math href="javascript:{JS}"><mtext>click</mtext></math>'
        "<math><mtext><table><mglyph><style><!--</style>"
        f'<img title="--&gt;&lt;/mglyph&gt;&lt;img src=1 onerror={JS}&gt;"></mglyph>'
        "</table></mtext></math>",
        live=False,  # Chromium follows no MathML link; the mglyph trick needs a sanitizer
    ),
    "area href javascript": Vector(
        body=f'<map name="m"><area shape="rect" coords="0,0,400,400" href="javascript:{JS}">'
        '</map><img usemap="#m" src="/photo.png" width="400" height="100">'
    ),
    "formaction and form action": Vector(
        body=f'<form action="javascript:{JS}"><button formaction="javascript:{JS}">Go</button>'
        f'<input type="submit" formaction="javascript:{JS}" value="Send">'
        '<input type="image" src="HIT/input-image" alt="go"></form>'
    ),
    "style end joined by the import strip": Vector(
        head="<style>p { color: #333 }</sty@import 'HIT/rejoin';le>"
        f"<img src=x onerror={JS}></style>"
        "<style>@imp@import 'HIT/rejoin-a';ort 'HIT/rejoin-b';</style>",
        live=False,
    ),
    "css that fetches": Vector(
        head="<style>body { background: u\\72l(HIT/escaped-url) } "
        "@\\69mport 'HIT/escaped-import'; @import url(HIT/import); "
        "@font-face { font-family: wc; src: url(HIT/font) } p { font-family: wc } "
        "h1 { background: image-set('HIT/image-set' 1x) } "
        "h1::before { content: url(HIT/content) } "
        "article { background: -webkit-image-set('HIT/webkit-set' 1x); "
        "cursor: url(HIT/cursor), auto; list-style-image: ur/**/l(HIT/comment-url) }</style>",
        body='<div style="background: url(HIT/style-attribute); height: 20px">a</div>'
        '<div style="background-image: \\75 rl(&quot;HIT/style-escape&quot;); height: 9px">b'
        "</div>",
    ),
    "noscript and template": Vector(
        body=f'<noscript><p title="</noscript><img src=x onerror={JS}>"></p></noscript>'
        f"<template><img src=x onerror={JS}></template>"
        f"<template><style></template><img src=x onerror={JS}></style></template>"
    ),
    "raw text elements": Vector(
        body=f"<select><style></select><img src=x onerror={JS}></style></select>"
        f"<noframes><style></noframes><img src=x onerror={JS}></style></noframes>"
        f"<xmp></xmp><img src=x onerror={JS}></xmp>"
        f"<textarea></textarea><img src=x onerror={JS}></textarea>"
        f"<title></title><img src=x onerror={JS}></title>"
        f"<!--><img src=x onerror={JS}>--><![CDATA[><img src=x onerror={JS}>]]>",
    ),
    "meta refresh": Vector(
        head='<meta http-equiv="refresh" content="0;url=HIT/refresh">',
        body=f'<meta http-equiv="refresh" content="0; url=javascript:{JS}">',
    ),
    "base href": Vector(
        head='<base href="HIT/base/"><link rel="stylesheet" href="sheet.css">',
        body='<img src="relative.png"><a href="page.html">a link</a>'
        '<div style="background: url(relative-bg.png); height: 9px"></div>',
        sheets=(("HIT/base/sheet.css", "body { background: url(sheet-bg.png) }"),),
    ),
    "javascript hrefs with entities and whitespace": Vector(
        body=f'<a href="  j&#x61;vascript&#x3a;{JS}">a</a> <a href="java&#x09;script:{JS}">b</a>'
        f' <a href="&#106;avascript:{JS}">c</a> <a href="JaVaScRiPt:{JS}">d</a>'
        f' <a href="&#x01;javascript:{JS}">e</a> <a href="data:text/html,<script>{JS}</script>"'
        f'>f</a> <a data-wc-href="javascript:{JS}" href="javascript:{JS}">g</a>'
    ),
    "srcdoc and frames": Vector(
        body=f'<iframe srcdoc="<script>{PARENT_JS}</script>"></iframe>'
        f'<iframe src="javascript:{PARENT_JS}"></iframe>'
        '<object data="HIT/object"></object><embed src="HIT/embed">'
        '<portal src="HIT/portal"></portal>'
    ),
    "event handlers": Vector(
        body=f'<img src=x onerror="{JS}"><div onmouseover="{JS}">hover</div>'
        f'<input autofocus onfocus="{JS}"><details open ontoggle="{JS}"><summary>s</summary>'
        f'</details><video><source onerror="{JS}"></video>'
        f'<p style="color: red" onclick="{JS}" ONMOUSEOVER="{JS}">p</p>'
    ),
    "resource attributes": Vector(
        head='<link rel="icon" href="HIT/icon"><link rel="prefetch" href="HIT/prefetch">'
        '<link rel="preload" as="image" href="HIT/preload"><script src="HIT/script.js"></script>',
        body='<img srcset="HIT/srcset 1x"><picture><source srcset="HIT/source">'
        '<img src="HIT/picture-img"></picture><video poster="HIT/poster"></video>'
        '<audio src="HIT/audio" autoplay></audio><table background="HIT/table-bg"><tr>'
        '<td background="HIT/td-bg">t</td></tr></table><img data-src="HIT/lazy" '
        'src="HIT/eager"><body background="HIT/body-bg">',
    ),
    "a local file linked as a style sheet": Vector(
        head='<link rel="stylesheet" href="FILE"><style>@import url(FILE);</style>',
        body='<link rel="stylesheet" href="FILE">',
        live=False,
        sheets=(("FILE", "SECRET"),),
    ),
}


class _Hits(BaseHTTPRequestHandler):
    hits: ClassVar[list[str]] = []

    def do_GET(self) -> None:
        self.hits.append(self.path)
        body = b"<p>fetched</p>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with serve_handler(_Hits) as root:
        yield root


def hostile_page(vector: Vector, hit: str, file_url: str) -> str:
    head = f"<head><title>Harbour works</title>{vector.head}</head>" if vector.head_first else ""
    page = (
        f"<!DOCTYPE html><html>{head}<body><article><h1>Harbour works</h1><p>{STORY}</p>{vector.body}<p>{STORY} "
        f"Again.</p></article></body>{vector.after}</html>"
    )
    return page.replace("HIT", hit).replace("FILE", file_url)


def opened(html: str, name: str, tmp_path: Path) -> str:
    """The DOM Chromium holds of ``html`` opened from a file, after load."""
    path = tmp_path / f"{name}.html"
    path.write_text(html, "utf-8")
    return chromium(["--dump-dom", "--virtual-time-budget=3000", path.as_uri()], tmp_path)


def without_policy(report: str) -> str:
    """The report with its policy switched off and :data:`PROBE` added."""
    assert report.count('<meta http-equiv="Content-Security-Policy"') == 1
    return report.replace('<meta http-equiv="Content-Security-Policy"', "<meta data-off", 1) + PROBE


@pytest.mark.parametrize("name", list(VECTORS))
def test_a_hostile_page_runs_nothing_and_fetches_nothing(
    name: str, server: str, tmp_path: Path
) -> None:
    vector = VECTORS[name]
    secret = f"WEBCLEAN-SECRET-{secrets.token_hex(8)}"
    local = tmp_path / "credentials.css"
    local.write_text(f"body {{ --secret: '{secret}' }}\n{secret}\n", "utf-8")
    page = hostile_page(vector, server, local.as_uri())
    hits = _Hits.hits
    hits.clear()
    if vector.live:
        raw = opened(page + PROBE, "raw", tmp_path)
        assert PWNED in raw or hits, f"{name}: the payload does not fire in the raw page"
        hits.clear()

    result = Cleaner(replace(CleanOptions(), keep_page=True)).clean(page, PAGE_URL)
    sheets = {
        url.replace("HIT", server).replace("FILE", local.as_uri()): css.replace("SECRET", secret)
        for url, css in vector.sheets
    }
    report = render_report(result, judge_images(page, PAGE_URL), sheets)
    assert report.startswith(PROLOGUE)
    assert secret not in report and local.as_uri() not in report
    assert "Harbour works" in report and 'id="wc-panel"' in report

    dom = opened(report, "report", tmp_path)
    assert PWNED not in dom, f"{name}: a script ran in the report"
    assert re.search(r'<head>\s*<meta http-equiv="Content-Security-Policy"', dom), dom[:300]
    probed = opened(without_policy(report), "probed", tmp_path)
    assert PWNED not in probed, f"{name}: a script ran in the report without its policy"
    assert 'data-probe="ran"' in probed, probed[-500:]
    assert not hits, f"{name}: the report made requests: {hits}"


def test_the_policy_of_the_prologue_holds_whatever_follows_it(server: str, tmp_path: Path) -> None:
    """What the sanitizer would have missed is still stopped: a script, a handler and
    references appended to a report run nothing and fetch nothing, the policy being the
    head's first child."""
    page = hostile_page(Vector(), server, "")
    result = Cleaner(replace(CleanOptions(), keep_page=True)).clean(page, PAGE_URL)
    report = render_report(result)
    smuggled = (
        f'<script>{JS}</script><img src="{server}/img" onerror="{JS}">'
        f'<link rel="stylesheet" href="{server}/css"><iframe src="{server}/frame"></iframe>'
        f'<div style="background: url({server}/bg); height: 9px"></div>'
    )
    _Hits.hits.clear()
    assert PWNED in opened(without_policy(report) + smuggled, "control", tmp_path)
    assert _Hits.hits
    _Hits.hits.clear()
    dom = opened(report + smuggled, "smuggled", tmp_path)
    assert PWNED not in dom and not _Hits.hits, _Hits.hits
