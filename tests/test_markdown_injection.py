"""Markdown output cannot carry a page's markup: what a CommonMark viewer renders from it
holds no element, attribute or link target that the page's text did not ask for.

Pages are built from hostile pieces of text (backtick runs, ``<img onerror>``,
``<script>``, ``](``, ``[x](javascript:...)``, entities, emphasis marks, newlines) put in
paragraphs, ``<pre>``, ``<code>``, links and headings; the Markdown of every line
(:func:`markdown_of_every_line`, the extractor left out so that every piece reaches the
output) is rendered with markdown-it-py's CommonMark renderer, with its own link check
off (a laxer viewer), and the HTML is read back with lxml.
"""

from __future__ import annotations

import html as html_lib
from collections.abc import Callable
from urllib.parse import unquote, urlsplit

import lxml.html
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from scrapy_webclean import clean_html
from scrapy_webclean.extraction.lines import Line, build_lines
from scrapy_webclean.html.loader import load_html
from scrapy_webclean.html.pagemodel import PageModel
from scrapy_webclean.html.pagewalk import build_page_model
from scrapy_webclean.markdown import (
    code_block,
    code_span,
    escape,
    line_start,
    link_destination,
    markdown_to_text,
    to_markdown,
)
from tests.linear import assert_linear

PAGE_URL = "http://example.com/news/item"

#: Every element our Markdown can make a CommonMark renderer write (``div``: the wrapper
#: the test parses the HTML in). Images are not among them: the Markdown has none.
ALLOWED_TAGS = frozenset(
    (
        "div",
        "p",
        "pre",
        "code",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "a",
        "ul",
        "ol",
        "li",
        "blockquote",
        "em",
        "strong",
        "hr",
        "br",
        "table",
        "thead",
        "tbody",
        "tr",
        "th",
        "td",
    )
)
#: The attributes a renderer writes for those elements.
ALLOWED_ATTRIBUTES = {"a": frozenset(("href",)), "ol": frozenset(("start",))}
#: Link targets a link may have in the rendered HTML.
SAFE_SCHEMES = frozenset(("http", "https", "mailto", "tel", ""))

#: Text that means something to Markdown or HTML.
HOSTILE_TEXT = (
    "`",
    "``",
    "```",
    "````",
    "~~~",
    "<img src=x onerror=alert(1)>",
    "<script>alert(1)</script>",
    "<a href='javascript:alert(1)'>x</a>",
    "<http://evil.example/>",
    "](",
    "](javascript:alert(1))",
    "[x](javascript:alert(1))",
    "![x](http://evil.example/p.png)",
    "[ref]: http://evil.example/",
    "<",
    ">",
    "&",
    "&lt;img src=x onerror=alert(1)&gt;",
    "&#60;script&#62;",
    "&#x3C;",
    "&amp;",
    "*",
    "**",
    "_",
    "[",
    "]",
    "!",
    "(",
    ")",
    "\\",
    "# ",
    "- ",
    "1. ",
    "> ",
    "---",
    "\n",
    " ",
    "word",
    "<!-- x -->",
    "<?php ?>",
    "<![CDATA[x]]>",
    # whole attacks, so that every run meets them
    "\n```\n<img src=x onerror=alert(1)>\n```\n",
    "`` <img src=x onerror=alert(1)> ``",
    "\n~~~\n<script>alert(1)</script>\n",
    "\\<img src=x onerror=alert(1)>",
)
#: ``href`` values, from the safe to the hostile (as written in the page's HTML).
HOSTILE_HREFS = (
    "/plain",
    "http://example.org/a b",
    "http://example.org/a)b(c",
    "http://example.org/`x`",
    "http://example.org/<img>",
    "http://example.org/?a=1&amp;b=2",
    "http://example.org/x&amp;lt;y",
    "mailto:someone@example.org",
    "tel:+1(555)0100",
    "javascript:alert(1)",
    "JaVaScRiPt:alert(1)",
    " javascript:alert(1)",
    "java&#9;script:alert(1)",
    "javascript&#58;alert(1)",
    "vbscript:msgbox(1)",
    "data:text/html,<script>alert(1)</script>",
    "file:///etc/passwd",
    '"><img src=x onerror=alert(1)>',
)

_piece = st.sampled_from(HOSTILE_TEXT)
_text = st.lists(_piece, min_size=1, max_size=8).map("".join)
#: A few lines of code, each of one to three pieces (a line of just a fence is common).
_code = st.lists(st.lists(_piece, min_size=1, max_size=3).map("".join), max_size=6).map("\n".join)


def _escaped(text: str) -> str:
    """``text`` as the text of an element (the page's markup escaped)."""
    return html_lib.escape(text, quote=False).replace("\n", "<br>")


@st.composite
def _block(draw: st.DrawFn) -> str:
    kind = draw(st.sampled_from(("p", "pre", "code", "link", "heading", "li", "quote")))
    text = _escaped(draw(_text))
    more = _escaped(draw(_text))
    if kind == "pre":
        return f"<pre>{_escaped(draw(_code))}<br>{text}</pre>"
    if kind == "code":
        return f"<p>{more}<code>{text}</code>{more}</p>"
    if kind == "link":
        href = html_lib.escape(draw(st.sampled_from(HOSTILE_HREFS)), quote=True)
        return f'<p>{more}<a href="{href}">{text}</a>{more}</p>'
    if kind == "heading":
        return f"<h2>{text}</h2>"
    if kind == "li":
        return f"<ul><li>{text}</li><li><b>{more}</b></li></ul>"
    if kind == "quote":
        return f"<blockquote>{text}</blockquote>"
    return f"<p>{text} <em>{more}</em> <strong>{text}</strong></p>"


def markdown_of_every_line(html: str, title: str = "") -> str:
    """The Markdown of every line of ``html`` (no extraction: nothing is left out)."""
    page = load_html(html)
    model = build_page_model(page.root, PAGE_URL)
    return to_markdown(model, build_lines(model), title)


class _LaxViewer(MarkdownIt):
    """A CommonMark renderer that trusts every link target (as some viewers do), so that
    only our own check keeps ``javascript:`` out."""

    def validateLink(self, url: str) -> bool:  # (markdown-it's name)
        return True


_VIEWER = _LaxViewer("commonmark")


def render(markdown: str) -> str:
    """The HTML a lax CommonMark viewer makes of ``markdown``."""
    return str(_VIEWER.render(markdown))


def page_links(html: str) -> set[str]:
    """The absolute URLs of the page's links (as the Markdown may show them)."""
    return {ref.url for ref in build_page_model(load_html(html).root, PAGE_URL).links}


def _comparable(url: str) -> str:
    """A URL with its percent-encoding undone (renderers encode what we left as is)."""
    return unquote(url).replace("\\", "/")


def assert_no_injection(markdown: str, links: set[str]) -> None:
    """The rendered Markdown holds only elements and attributes our Markdown writes, no
    event attribute, no image, and no link but to one of the page's ``links`` that is
    http(s), mailto, tel or relative."""
    rendered = render(markdown)
    root = lxml.html.fromstring(f"<div>{rendered}</div>")
    targets = {_comparable(url) for url in links}
    for element in root.iter():
        if not isinstance(element.tag, str):  # a comment or processing instruction
            raise AssertionError(f"raw markup rendered: {rendered!r}\nfrom {markdown!r}")
        assert element.tag in ALLOWED_TAGS, f"<{element.tag}> in {rendered!r}\nfrom {markdown!r}"
        allowed = ALLOWED_ATTRIBUTES.get(element.tag, frozenset())
        for name in element.attrib:
            assert name in allowed, f"{name}= on <{element.tag}> in {rendered!r}"
        if element.tag == "a":
            href = element.get("href", "")
            assert urlsplit(href).scheme.lower() in SAFE_SCHEMES, href
            assert _comparable(href) in targets, f"{href!r} not a link of the page: {rendered!r}"


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_block(), min_size=1, max_size=6), _text)
def test_no_hostile_page_text_becomes_markup(blocks: list[str], title: str) -> None:
    html = "<html><body><article>" + "".join(blocks) + "</article></body></html>"
    markdown = markdown_of_every_line(html, title)
    assert_no_injection(markdown, page_links(html))


@settings(max_examples=100, deadline=None)
@given(_text)
def test_a_code_span_holds_any_text(text: str) -> None:
    code = " ".join(text.split()) or "x"
    rendered = render(f"a {code_span(code)} b")
    root = lxml.html.fromstring(rendered)
    spans = root.findall(".//code")
    assert len(spans) == 1 and spans[0].text_content() == code, rendered


@settings(max_examples=100, deadline=None)
@given(st.lists(_text, min_size=1, max_size=4).map("\n".join))
def test_a_code_block_holds_any_text(code: str) -> None:
    rendered = render(code_block(code) + "\n\nafter")
    root = lxml.html.fromstring(f"<div>{rendered}</div>")
    assert [el.tag for el in root] == ["pre", "p"], rendered
    assert root[0].text_content() == code + "\n"


@settings(max_examples=100, deadline=None)
@given(_text)
def test_escaped_text_renders_as_itself(text: str) -> None:
    line = " ".join(text.split())
    rendered = render(line_start(escape(line))) if line else "<p></p>"
    root = lxml.html.fromstring(f"<div>{rendered}</div>")
    assert [el.tag for el in root.iter()] in (["div", "p"], ["div"]), rendered
    assert root.text_content().strip() == line.strip()


def test_a_fence_in_the_page_s_code_does_not_end_the_block() -> None:
    code = "x = 1<br>```<br>&lt;img src=x onerror=alert(1)&gt;<br>```"
    html = (
        f"<html><body><article><p>Before.</p><pre>{code}</pre><p>After.</p></article></body></html>"
    )
    markdown = markdown_of_every_line(html)
    assert "````\nx = 1\n```\n<img src=x onerror=alert(1)>\n```\n````" in markdown
    assert "<img" not in render(markdown).replace("&lt;img", "")
    assert_no_injection(markdown, set())


def test_link_targets_are_safe_and_read_back_exactly() -> None:
    assert link_destination("javascript:alert(1)") is None
    assert link_destination(" \tJaVa\nScript:alert(1)") is None
    assert link_destination("data:text/html,x") is None
    # As before: a plain URL as it is, balanced parentheses kept, a space in <...>.
    assert (
        link_destination("http://example.com/plans/harbour") == "http://example.com/plans/harbour"
    )
    assert link_destination("http://e.org/wiki/A_(b)") == "http://e.org/wiki/A_(b)"
    assert link_destination("/a b") == "</a b>"
    assert link_destination("mailto:a@example.com") == "mailto:a@example.com"
    assert link_destination("http://e.com/a)b(c") == "http://e.com/a\\)b\\(c"
    for url in (
        "http://e.com/a(b)c",
        "http://e.com/a)b(c",
        "http://e.com/x?a=1&b=2",
        "http://e.com/x&lt;y",
        "http://e.com/a b<c>d\\e",
        "http://e.com/a<b>",
        "/a\\b(",
    ):
        destination = link_destination(url)
        assert destination is not None
        href = lxml.html.fromstring(render(f"[t]({destination})")).find(".//a").get("href")
        assert unquote(href) == url, (url, destination, href)


def test_text_before_a_link_does_not_make_it_an_image() -> None:
    html = '<html><body><p>Wow!<a href="/z">z</a></p></body></html>'
    markdown = markdown_of_every_line(html)
    assert "Wow\\![z](http://example.com/z)" in markdown
    assert "<img" not in render(markdown)


def test_a_javascript_link_keeps_its_text_and_loses_its_target() -> None:
    html = '<html><body><p>See <a href="javascript:alert(1)">this</a> now.</p></body></html>'
    markdown = markdown_of_every_line(html)
    assert "See this now." in markdown and "javascript" not in markdown


def test_cleaned_markdown_of_a_hostile_article_is_safe() -> None:
    prose = (
        "<p>The council voted on Tuesday to approve the plan for the trading hall, empty "
        "since 2011, after a long debate about its cost and its use.</p>"
    )
    hostile = (
        "<pre>```\n&lt;img src=x onerror=alert(1)&gt;</pre>"
        "<p>Use <code>``&lt;script&gt;``</code> and "
        '<a href="javascript:alert(1)">this</a>! Then<a href="/x">more</a> &amp;lt;b&amp;gt; '
        "text [x](javascript:alert(2)) to read, and more words so that it is kept.</p>"
    )
    html = f"<html><body><article><h1>Plan approved</h1>{prose}{hostile}{prose}</article></body></html>"
    markdown = clean_html(html, PAGE_URL).markdown
    assert "council voted" in markdown
    assert_no_injection(markdown, page_links(html))


# -- linear time ------------------------------------------------------------------------


def _bracket_page(n: int) -> str:
    """``n`` pairs of ``](`` in a paragraph (the issue's case: 10k pairs, 20 KB)."""
    return f"<html><body><article><h1>T</h1><p>{'](' * n}</p></article></body></html>"


def test_markdown_of_brackets_is_linear() -> None:
    assert_linear(
        lambda html: markdown_to_text(clean_html(html, PAGE_URL).markdown),
        _bracket_page,
        1000,
        "Markdown of ']('-pairs",
    )


@pytest.mark.parametrize(
    "piece",
    [
        "](",
        "](<",
        "](\\(",
        "\\](",
        "\\](x)",
        "](a(b)",
        "](<\\>",
        "[x](",
        "`",
        "&a",
        "#",
        " \t",
        "*_",
        "<",
    ],
)
def test_markdown_to_text_is_linear_in_any_text(piece: str) -> None:
    assert_linear(markdown_to_text, lambda n: piece * n, 2000, f"markdown_to_text of {piece!r}")


def _deep_runs_page(n: int) -> str:
    """One line of ``n`` bold runs under ``n // 2`` nested spans (under the depth limit)."""
    depth = min(n // 2, 900)
    runs = "".join(f"<b>w{i}</b> x, " for i in range(n))
    return f"<html><body><p>{'<span>' * depth}{runs}{'</span>' * depth}</p></body></html>"


def _deep_lines_page(n: int) -> str:
    """``n`` lines (``<br>``) under ``n`` nested ``<b>`` (under the depth limit)."""
    depth = min(n, 900)
    lines = "".join(f"line {i}<br>" for i in range(n))
    return f"<html><body><p>{'<b>' * depth}{lines}{'</b>' * depth}</p></body></html>"


def _deep_list_page(n: int) -> str:
    """``n`` list items under ``n // 2`` nested divs."""
    depth = min(n // 2, 900)
    items = "".join(f"<li>item {i}</li>" for i in range(n))
    return f"<html><body>{'<div>' * depth}<ul>{items}</ul>{'</div>' * depth}</body></html>"


@pytest.mark.parametrize("make_page", [_deep_runs_page, _deep_lines_page, _deep_list_page])
def test_markdown_of_deep_pages_is_linear(make_page: Callable[[int], str]) -> None:
    def parsed(n: int) -> tuple[PageModel, list[Line]]:
        model = build_page_model(load_html(make_page(n)).root, PAGE_URL)
        return model, build_lines(model)

    assert_linear(lambda page: to_markdown(*page), parsed, 100, make_page.__name__)
