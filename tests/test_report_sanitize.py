"""The block report's defences without a browser: the prologue comes first, the page's
markup and CSS go through the allowlist, style sheets are taken over http(s) only and
within the caps, and every CSS pattern is linear in the size of the CSS."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pytest

from scrapy_webclean.cleaning import Cleaner, CleanOptions
from scrapy_webclean.report import (
    MAX_STYLESHEET_BYTES,
    MAX_STYLESHEETS,
    PROLOGUE,
    render_report,
    stylesheet_urls,
)
from scrapy_webclean.report_sanitize import sanitize_css, sanitize_markup, url_scheme
from tests.linear import assert_linear

URL = "https://news.example.com/2026/harbour.html"
STORY = " ".join(f"Sentence {i} tells how the harbour works went on all year." for i in range(8))


def report_of(head: str, body: str = "", stylesheets: dict[str, str] | None = None) -> str:
    html = (
        f"<html><head><title>Harbour</title>{head}</head><body><article><h1>Harbour works</h1>"
        f"<p>{STORY}</p>{body}<p>{STORY} Again.</p></article></body></html>"
    )
    result = Cleaner(replace(CleanOptions(), keep_page=True)).clean(html, URL)
    return render_report(result, None, stylesheets)


def test_the_report_starts_with_the_prologue_and_the_policy() -> None:
    """The doctype, <html>, <head> and the policy as its first child, before any of the
    page's markup; a page's own policy or charset never comes first (nor at all)."""
    report = report_of(
        '<meta http-equiv="Content-Security-Policy" content="script-src *">'
        '<meta charset="latin-1"><style>p { color: #123456 }</style>'
    )
    assert PROLOGUE.startswith(
        '<!DOCTYPE html>\n<html>\n<head>\n<meta http-equiv="Content-Security-Policy" '
        "content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:\">\n"
        '<meta charset="utf-8">\n<style>'
    )
    assert report.startswith(PROLOGUE)
    assert report.count("Content-Security-Policy") == 1 and "latin-1" not in report
    # The page's style comes after the prologue, in the head; its content in our body.
    assert report.index("color: #123456") > len(PROLOGUE)
    assert report.index("</head>") < report.index('<div id="wc-page">') < report.index(STORY)


def test_a_normal_page_keeps_its_look() -> None:
    """Its styles (without what fetches), tints, kept lines, image boxes and panel."""
    report = report_of(
        "<style>p { color: #123456; background: url(bg.png) }</style>",
        '<p style="font-weight: bold; background: url(x.png)">Bold words.</p>'
        '<img src="/photo.jpg" width="640" height="360" alt="The harbour">',
    )
    assert "color: #123456" in report and "font-weight: bold" in report
    assert "url(" not in report.split("</head>")[1] and "bg.png" not in report
    assert 'data-wc="content"' in report and 'data-wc-kept="1"' in report
    assert 'id="wc-panel"' in report and "Main text" in report
    assert "width='640'%20height='360'" in report and 'data-wc-src="/photo.jpg"' in report


def test_the_page_cannot_fake_the_reports_own_markers() -> None:
    report = report_of(
        "",
        '<div data-wc="noise" data-wc-href="x" data-src="y" id="wc-panel">Forged.</div>'
        '<a href="javascript:alert(1)" data-href="z">link</a>',
    )
    page = report.split('<div id="wc-page">')[1].split('<aside id="wc-panel">')[0]
    assert 'data-wc="noise"' not in page and 'id="wc-panel"' not in page
    assert "data-src" not in page and "data-href" not in page and "javascript" not in page
    assert '<a href="#">link</a>' in page


@pytest.mark.parametrize(
    ("markup", "absent"),
    [
        ("<svg><style><img src=x onerror=alert(1)></style></svg>", "onerror"),
        ('<math><mi xlink:href="javascript:alert(1)">x</mi></math>', "javascript"),
        ('<map><area href="javascript:alert(1)"></map>', "area"),
        ('<button formaction="javascript:alert(1)">b</button>', "formaction"),
        ('<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>', "onerror"),
        ('<base href="http://evil/"><meta http-equiv="refresh" content="0;url=http://e">', "evil"),
        ('<iframe srcdoc="<script>alert(1)</script>"></iframe>', "srcdoc"),
        ('<img src="http://evil/x.png" srcset="http://evil/y.png 1x">', "evil"),
        ('<p style="background: url(http://evil/)">p</p>', "evil"),
        ("<template><img src=x onerror=alert(1)></template>", "onerror"),
    ],
)
def test_the_markup_allowlist(markup: str, absent: str) -> None:
    assert absent not in sanitize_markup(markup)


@pytest.mark.parametrize(
    ("css", "absent"),
    [
        ("body { background: url(http://evil/a.png) }", "evil"),
        ("body { background: URL( 'http://evil/a.png' ) }", "evil"),
        ("a { b: u\\72l(http://evil) }", "evil"),
        ("a { b: \\75 rl(http://evil) }", "evil"),
        ("a { b: \\000075rl(http://evil) }", "evil"),
        ("a { b: ur/**/l(x) } c { d: url/**/(http://evil) }", "url("),
        ("@import 'http://evil/a.css'; p { color: red }", "evil"),
        ("@\\69mport 'http://evil/a.css';", "evil"),
        ("@imp@import 'x';ort 'http://evil/b.css';", "@import"),
        ("p { width: expression(alert(1)) }", "expression"),
        ("a { b: image-set('http://evil/a.png' 1x) }", "evil"),
        ("a { b: -webkit-image-set('http://evil/a.png' 1x) }", "evil"),
        ("a { b: imag\\65 \\2d set('http://evil/a.png' 1x) }", "evil"),
        ("@font-face { font-family: x; src: url(http://evil/f.woff) }", "evil"),
        ("p {}</sty@import x;le><img src=x onerror=alert(1)>", "</style"),
        ("p {}</STYLE><img src=x onerror=alert(1)>", "</style"),
    ],
)
def test_the_css_sanitizer_strips_what_fetches(css: str, absent: str) -> None:
    cleaned = sanitize_css(css)
    assert absent not in cleaned.lower()
    assert "</style" not in cleaned.lower()


@pytest.mark.parametrize(
    "css",
    [
        "p { color: red; margin: 0 auto }",
        ".md\\:flex { display: flex } .bg-\\[url\\(\\/a\\.png\\)\\] { color: red }",
        '.icon::before { content: "\\f101" } .a\\2d b { x: y } .\\31 0 { x: y }',
        '@media (width < 600px) { p { color: red } } a[href^="http://"] { color: blue }',
        'a { content: "/* not a comment */" }',
    ],
)
def test_the_css_sanitizer_keeps_what_only_draws(css: str) -> None:
    assert sanitize_css(css) == css.replace(".a\\2d b", ".a-b")


def test_an_escape_kept_is_not_joined_to_a_letter_decoded() -> None:
    """``\\6`` then ``\\63`` (a "c") must not become ``\\6c`` (an "l"), which would
    spell ``url(`` to a browser; the kept escape is ended with its space."""
    assert sanitize_css("a { b: ur\\6\\63 (http://evil) }") == "a { b: ur\\6 c(http://evil) }"


CSS_INPUTS: dict[str, Callable[[int], str]] = {
    "url( and spaces (the old pattern: cubic)": lambda n: "url(" + " " * n,
    "url( repeated": lambda n: "url(" * n,
    'url(" repeated': lambda n: 'url("' * n,
    "url(' and backslashes": lambda n: "url('" + "\\" * n,
    "comment openings": lambda n: "/*" * n,
    "quotes": lambda n: '"' * n,
    "backslashes": lambda n: "\\" * n,
    "hex escapes": lambda n: "\\75 " * n,
    "@import without a semicolon": lambda n: "@import" * n,
    "expression and spaces": lambda n: ("expression" + " " * 50) * (n // 60 + 1),
    "style ends": lambda n: "</style" * n,
    "image- repeated": lambda n: "image-" * n,
    "escaped hyphens": lambda n: "a\\2d" * n,
}


@pytest.mark.parametrize("what", list(CSS_INPUTS))
def test_every_css_pattern_is_linear(what: str) -> None:
    """8x the CSS costs about 8x the time (the old url() pattern took 0.3 s on "url(" and
    1,000 spaces, 2.7 s on 2,000: cubic)."""
    assert_linear(sanitize_css, CSS_INPUTS[what], 2000, what)


def test_style_sheets_are_fetched_over_http_only_and_within_the_count() -> None:
    hrefs = [
        "file:///home/user/.aws/credentials",
        "  FILE:///etc/passwd",
        "\tfi\nle:///etc/shadow",
        "data:text/css,p{}",
        "ftp://example.com/a.css",
        "javascript:alert(1)",
        "/local.css",
        "//cdn.example.net/cdn.css",
        "/local.css",
        *(f"https://static.example.com/{i}.css" for i in range(MAX_STYLESHEETS)),
    ]
    wanted, left_out = stylesheet_urls(URL, hrefs)
    assert len(wanted) == MAX_STYLESHEETS
    assert wanted[:2] == ["https://news.example.com/local.css", "https://cdn.example.net/cdn.css"]
    assert all(url_scheme(url) in ("http", "https") for url in wanted)
    assert [url_scheme(url) for url in left_out[:6]] == ["file"] * 3 + ["data", "ftp", "javascript"]
    assert left_out[6:] == [f"https://static.example.com/{i}.css" for i in range(28, 30)]


def test_the_report_inlines_only_http_sheets_within_the_caps() -> None:
    sheets = {f"https://static.example.com/{i}.css": f"p {{ --n{i}: 1 }}" for i in range(40)}
    sheets["file:///home/user/secret.css"] = "p { --secret: 1 }"
    sheets["https://static.example.com/big.css"] = "p { --big: 1 }" + " " * MAX_STYLESHEET_BYTES
    links = '<link rel="stylesheet" href="file:///home/user/secret.css">'
    links += '<link rel="stylesheet" href="https://static.example.com/big.css">'
    links += "".join(f'<link rel="stylesheet" href="/{i}.css">' for i in range(40))
    report = report_of(links.replace('"/', '"https://static.example.com/'), stylesheets=sheets)
    assert "--secret" not in report and "--big" not in report
    assert "--n0:" in report and f"--n{MAX_STYLESHEETS - 2}:" in report
    assert f"--n{MAX_STYLESHEETS - 1}:" not in report  # big.css took one of the places
